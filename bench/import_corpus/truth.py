"""Truth labels for a rendered document, checked against the document's own text layer.

A producer says what it printed (which person, which parts it left out); the labels are
made from the person, and every label is looked for in the text layer of the file that
came out (``pdftotext`` for a PDF, the XML text for a DOCX).  A label the file does not
print (a theme that hides the place, a phone number the tool reformatted) is corrected
from the text layer or dropped, and said so, so the labels describe the file as it is.
"""

from __future__ import annotations

import re
import subprocess
import sys
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from import_accuracy import _PHONE, digits, norm, tokens
from people import Person


def text_layer(path: Path) -> str:
    if path.suffix == ".docx":
        with zipfile.ZipFile(path) as z:
            parts = [
                n for n in z.namelist() if re.match(r"word/(document|header\d*|footer\d*)\.xml", n)
            ]
            xml = "\n".join(z.read(n).decode("utf-8") for n in parts)
        xml = re.sub(r"</w:p>", "\n", xml)
        xml = re.sub(r"<w:tab/>", "\t", xml)
        return (
            re.sub(r"<[^>]+>", "", xml)
            .replace("&amp;", "&")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
        )
    return "\n".join(
        subprocess.run(
            ["pdftotext", *mode, str(path), "-"], capture_output=True, text=True, check=True
        ).stdout
        for mode in (["-layout"], [])
    )


def page_count(path: Path) -> int:
    if path.suffix != ".pdf":
        return 1
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True)
    return int(re.search(r"Pages:\s+(\d+)", info.stdout).group(1))


def person_text(person: Person, skip: set[str], printed=lambda text: True) -> str:
    """Everything of the person a producer prints, one item a line ("skip" names what it
    does not print: headline, location, website, summary, place, title:<kind>).  A short
    field (a contact, a date, a place, a skill) that ``printed`` does not find is left
    out; paragraphs and bullets stay (a hyphenated word would not be found as written)."""
    short = [person.name, person.email, person.phone]
    short += [getattr(person, f) for f in ("headline", "location", "website") if f not in skip]
    long = []
    for s in person.sections:
        if s.title:
            short.append(s.title)
        if s.text and "summary" not in skip:
            long.append(s.text)
        short += s.items
        for e in s.entries:
            short += [e.org, e.date]
            if f"title:{s.kind}" not in skip:
                short.append(e.title)
            if e.place and "place" not in skip:
                short.append(e.place)
            long += e.bullets
    return "\n".join([line for line in short if printed(line)] + long)


def labels(
    person: Person,
    path: Path,
    producer: str,
    skip: set[str] = frozenset(),
    notes: str = "",
) -> tuple[dict, list[str]]:
    """The truth labels of ``path`` and a list of corrections made against its text layer."""
    layer = text_layer(path)
    flat = norm(layer)
    fixes: list[str] = []
    phone = person.phone
    printed = [m.strip() for m in _PHONE.findall(layer) if digits(phone).endswith(digits(m)[-8:])]
    if printed:
        phone = printed[0]  # the tool may format the number its own way
        if phone != person.phone:
            fixes.append(f"phone printed as {phone!r}")
    else:
        fixes.append("phone not printed")
    entries = []
    for s in person.sections:
        for e in s.entries:
            row = [e.date]
            if f"title:{s.kind}" not in skip:
                row.insert(0, e.title)
            if e.place and "place" not in skip:
                row.append(e.place)
            kept = [r for r in row if norm(r) in flat]
            fixes += [f"{e.org}: {r!r} not printed" for r in row if r not in kept]
            if norm(e.org) not in flat:
                fixes.append(f"entry key {e.org!r} not printed")
            entries.append({"key": e.org, "title": e.title, "row": kept, "bullets": len(e.bullets)})
    sections = []
    lines = {norm(line) for line in layer.splitlines()}
    text = person_text(person, skip, lambda t: norm(t) in flat).replace(person.phone, phone)
    for s in person.sections:
        title = s.title
        if not title:  # printed without a title of its own (a summary under the name)
            continue
        if norm(title) not in flat:  # a theme that drops a first glyph: label what is printed
            title = next(
                (title[i:] for i in range(1, len(title)) if norm(title[i:]) in lines), title
            )
            fixes.append(f"section title {s.title!r} printed as {title!r}")
            text = text.replace(f"\n{s.title}\n", f"\n{title}\n")
        sections.append(title)
    for extra in sorted(skip):  # titles a producer prints that the person has no section for
        if extra.startswith("extra-section:"):
            sections.append(extra.split(":", 1)[1])
            text += "\n" + sections[-1]
    want = tokens(text)
    have = tokens(layer)
    missing = sorted(t for t, n in want.items() if have[t] < n)
    if missing:
        fixes.append(f"text-layer tokens short of the labels: {missing[:12]}")
    truth = {
        "producer": producer,
        "lang": person.lang,
        "name": person.name,
        "email": person.email,
        "phone": phone,
        "sections": sections,
        "entries": entries,
        "pages": page_count(path),
        "notes": notes,
        "text": text,
    }
    return truth, fixes
