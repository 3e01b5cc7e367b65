"""typst templates (written here, compiled by the ``typst`` PyPI package): the person goes
in as ``cv.json``, which the template reads, so no text needs escaping.

- ``typst-shapes``: one column; list markers drawn as shapes (a filled circle), not glyphs;
  dates pushed right with ``h(1fr)``; a page footer "Name · N / M" on every page (long
  resumes run to two pages).
- ``typst-sidebar``: a two-column grid, contacts with symbol glyphs (✉ ☎ ⌂) and skills in a
  shaded sidebar, the rest in the main column; small square markers.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from dataclasses import asdict
from pathlib import Path

from people import Person
from registry import producer

COMMON = """
#let cv = json("cv.json")
#let zh = cv.lang == "zh"
#set text(font: ("Libertinus Serif", "Noto Serif CJK SC"), size: 10pt, lang: if zh { "zh" } else { "en" })
#set par(justify: true, leading: 0.55em)
"""

SHAPES = (
    COMMON
    + """
#set page(paper: "a4", margin: (x: 1.8cm, y: 1.6cm),
  footer: context [#set text(8pt, fill: gray)
    #cv.name #h(1fr) #counter(page).display("1 / 1", both: true)])
#set list(marker: box(baseline: -0.25em, circle(radius: 1.8pt, fill: rgb("#2b5797"))), indent: 0.6em)
#let heading-bar(title) = {
  v(6pt)
  text(12pt, weight: "bold", fill: rgb("#2b5797"), title)
  v(-6pt)
  line(length: 100%, stroke: 0.6pt + rgb("#2b5797"))
}
#align(center)[
  #text(22pt, weight: "bold", cv.name) \\
  #text(11pt, cv.headline) \\
  #text(9pt)[#cv.phone | #cv.email | #cv.location | #cv.website]
]
#for s in cv.sections {
  heading-bar(s.title)
  if s.text != "" { par(s.text) }
  for item in s.items { list(item) }
  for e in s.entries {
    block(below: 4pt)[*#e.org* #if e.place != "" [, #e.place] #h(1fr) #e.date \\ _#e.title _]
    for b in e.bullets { list(b) }
  }
}
"""
)

SIDEBAR = (
    COMMON
    + """
#set page(paper: "a4", margin: (x: 1.2cm, y: 1.2cm))
#set list(marker: text(fill: rgb("#1d6a5b"), "▪"))
#let side-kinds = ("skills", "awards")
#let title(t) = block(above: 10pt, below: 5pt, text(11.5pt, weight: "bold", fill: rgb("#1d6a5b"), upper(t)))
#grid(columns: (5.4cm, 1fr), column-gutter: 0.6cm,
  block(fill: rgb("#eef5f3"), inset: 8pt, width: 100%)[
    #text(17pt, weight: "bold", cv.name) \\
    #text(10pt, fill: rgb("#1d6a5b"), cv.headline)
    #v(6pt)
    #set text(8.5pt)
    ✉ #cv.email \\
    ☎ #cv.phone \\
    ⌂ #cv.location \\
    #cv.website
    #for s in cv.sections.filter(s => s.kind in side-kinds) {
      title(s.title)
      for item in s.items { list(item) }
    }
  ],
  [
    #for s in cv.sections.filter(s => not (s.kind in side-kinds)) {
      title(s.title)
      if s.text != "" { par(s.text) }
      for e in s.entries {
        block(below: 3pt)[#text(weight: "bold", e.title) #h(1fr) #text(9pt, e.date) \\
          #text(fill: rgb("#1d6a5b"), e.org)#if e.place != "" [ · #e.place]]
        for b in e.bullets { list(b) }
      }
    }
  ],
)
"""
)

TEMPLATES = {"typst-shapes": SHAPES, "typst-sidebar": SIDEBAR}


def make_typst(name: str):
    def produce(person: Person, out: Path, stem: str, lang: str):
        import typst

        if name == "typst-sidebar":  # the sidebar is read first: label the sections so
            person.sections.sort(key=lambda s: 0 if s.kind in ("skills", "awards") else 1)
        data = asdict(person)
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / "cv.json").write_text(
                json.dumps(data, ensure_ascii=False), encoding="utf-8"
            )
            (Path(tmp) / "cv.typ").write_text(TEMPLATES[name], encoding="utf-8")
            typst.compile(str(Path(tmp) / "cv.typ"), output=str(out / f"{stem}.pdf"))
            shutil.copy(Path(tmp) / "cv.typ", out / f"{stem}.typ")
            shutil.copy(Path(tmp) / "cv.json", out / f"{stem}.json")
        return (
            [out / f"{stem}.pdf", out / f"{stem}.typ", out / f"{stem}.json"],
            set(),
            f"typst template {name}",
        )

    return produce


producer(
    "typst",
    "typst-shapes",
    [("en", {}), ("zh", {}), ("en", {"long": True}), ("zh", {"long": True})],
)(make_typst("typst-shapes"))
producer("typst", "typst-sidebar", [("en", {}), ("zh", {}), ("en", {}), ("zh", {})])(
    make_typst("typst-sidebar")
)
