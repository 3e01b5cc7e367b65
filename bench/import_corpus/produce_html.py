"""HTML resumes printed to PDF by headless Chromium: JSON Resume themes from npm.

The person becomes a JSON Resume (``resume.json``), the theme's ``render`` makes the HTML
(``render.js`` in the npm folder runs it), and Chromium prints it.  A theme names its own
sections ("Work", "WORK EXPERIENCE") and formats dates itself from ISO months, so the labels
take the theme's section names and find each printed date range in the text layer.
"""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path

from people import EN_MONTHS, Person
from registry import TOOLS, producer, run
from truth import text_layer

RENDER_JS = """// node render.js THEME resume.json out.html: a JSON Resume theme's HTML
const fs = require('fs');
const [theme, input, output] = process.argv.slice(2);
(async () => {
  let mod;
  try { mod = require(theme); } catch (e) { mod = await import(theme); }
  const render = mod.render || (mod.default && mod.default.render);
  fs.writeFileSync(output, await render(JSON.parse(fs.readFileSync(input, 'utf8'))));
})().catch(e => { console.error(e); process.exit(1); });
"""

# The section names each theme prints ("" = printed without a title of its own), and
# titles it prints that the person has no section for.
THEMES = {
    "even": (
        {
            "summary": "",
            "experience": "Work",
            "education": "Education",
            "projects": "Projects",
            "skills": "Skills",
            "awards": "Awards",
        },
        [],
    ),
    "elegant": (
        {
            "summary": "About",
            "experience": "Work Experience",
            "education": "Education",
            "projects": "Projects Experience",
            "skills": "Skills",
            "awards": "Awards",
        },
        [],
    ),
    "stackoverflow": (
        {
            "summary": "Summary",
            "experience": "Work Experience",
            "education": "Education",
            "projects": "Projects",
            "skills": "Skills",
            "awards": "Awards",
        },
        [],
    ),
    "kendall": (
        {
            "summary": "About",
            "experience": "Work Experience",
            "education": "Education",
            "projects": "Projects",
            "skills": "Skills",
            "awards": "Awards",
        },
        ["Contact"],
    ),
}


def iso(year: int, month: int) -> str:
    return f"{year:04d}-{month:02d}-01"


def resume_json(person: Person) -> dict:
    handle = person.website.split("/")[-1]
    out: dict = {
        "basics": {
            "name": person.name,
            "label": person.headline,
            "email": person.email,
            "phone": person.phone,
            "url": f"https://{person.website}",
            "location": {"city": person.location},
            "profiles": [
                {"network": "GitHub", "username": handle, "url": f"https://{person.website}"}
            ],
        }
    }

    def dates(e) -> dict:
        sy, sm, ey, em = e.date.span
        return {"startDate": iso(sy, sm), **({"endDate": iso(ey, em)} if ey else {})}

    for s in person.sections:
        if s.kind == "summary":
            out["basics"]["summary"] = s.text
        elif s.kind == "experience":
            out["work"] = [
                {
                    "name": e.org,
                    "position": e.title,
                    **({"location": e.place} if e.place else {}),
                    **dates(e),
                    "highlights": e.bullets,
                }
                for e in s.entries
            ]
        elif s.kind == "education":
            out["education"] = [
                {"institution": e.org, "area": e.title, "studyType": "", **dates(e)}
                for e in s.entries
            ]
        elif s.kind == "projects":
            out["projects"] = [
                {"name": e.org, "description": e.title, **dates(e), "highlights": e.bullets}
                for e in s.entries
            ]
        elif s.kind == "skills":
            out["skills"] = [{"name": item, "keywords": []} for item in s.items]
        elif s.kind == "awards":
            out["awards"] = [{"title": item} for item in s.items]
    return out


def month_rx(month: int) -> str:
    full = (
        "January February March April May June July August September October November December"
    ).split()[month - 1]
    abbr = EN_MONTHS[month - 1]
    return rf"(?:{full}|{abbr}t?)\.?,?"


def printed_range(span: tuple[int, int, int, int], layer: str) -> str | None:
    """The date range as the theme printed it, found in the text layer."""
    sy, sm, ey, em = span
    end = rf"{month_rx(em)}\s*{ey}" if ey else r"(?:Present|Current|Now)"
    m = re.search(rf"{month_rx(sm)}\s*{sy}\s*[-–—]+\s*{end}", layer)
    return re.sub(r"\s+", " ", m.group(0)) if m else None


def chromium_pdf(html: Path, pdf: Path) -> None:
    run(
        [
            "chromium",
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--no-first-run",
            "--no-pdf-header-footer",
            f"--print-to-pdf={pdf}",
            str(html),
        ],
        html.parent,
        timeout=120,
    )


def print_theme(theme: str, source: Path, pdf: Path) -> None:
    """A JSON Resume file through an npm theme (``jsonresume-theme-<theme>``) to HTML, and
    the HTML printed by Chromium to ``pdf``."""
    npm = Path(TOOLS["npm"])
    (npm / "render.js").write_text(RENDER_JS, encoding="utf-8")
    with tempfile.TemporaryDirectory() as tmp:
        html = Path(tmp) / "resume.html"
        run(
            ["node", str(npm / "render.js"), f"jsonresume-theme-{theme}", str(source), str(html)],
            npm,
        )
        chromium_pdf(html, pdf)


def make_theme(theme: str):
    titles, extra = THEMES[theme]

    def produce(person: Person, out: Path, stem: str, lang: str):
        source = out / f"{stem}.json"
        source.write_text(
            json.dumps(resume_json(person), ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
        )
        print_theme(theme, source, out / f"{stem}.pdf")
        layer = text_layer(out / f"{stem}.pdf")
        for s in person.sections:
            s.title = titles[s.kind]
            if s.kind == "education":  # JSON Resume's education has no place
                for e in s.entries:
                    e.place = ""
            for e in s.entries:
                e.date = printed_range(e.date.span, layer) or e.date
            if theme == "kendall" and s.kind == "projects":  # it prints name: description only
                for e in s.entries:
                    e.bullets = []
        skip = {"place"} if theme == "elegant" else set()  # it prints no job's place
        skip |= {f"extra-section:{t}" for t in extra}
        return (
            [out / f"{stem}.pdf", source],
            skip,
            f"JSON Resume theme {theme} (npm), printed by Chromium",
        )

    return produce


for _theme in THEMES:
    producer("html", f"jsonresume-{_theme}", [("en", {}), ("zh", {}), ("en", {}), ("zh", {})])(
        make_theme(_theme)
    )
