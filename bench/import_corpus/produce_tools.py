"""Tools the corpus did not have, each with the shape it makes by default (first sight of
issue 32: measured before any reader change).

- ``pandoc-docx``: pandoc's DOCX from Markdown with its default reference document: the
  name as the Title style (``title:`` metadata) and the headline as Subtitle, sections as
  Heading 1, entries as Heading 2 with the role, dates and place in the paragraph under
  them, "Compact" lists; in the Chinese files the name is a Heading 1 of its own instead;
- ``pandoc-html``: pandoc's standalone HTML (its default template and CSS: a narrow
  centred column, the title in a ``<header>``) printed by Chromium; education as a pipe
  table (school, degree, dates), entries as ``###`` headings with an italic row;
- ``groff-ms``: groff's ``ms`` macros to PDF (gropdf): ``.TL`` name, ``.SH`` sections,
  entries with a tab to a right-aligned date, ``.IP \\(bu`` bullets, page numbers in the
  header of page 2 on; English only (groff has no CJK fonts here);
- ``latex-europasscv``: the europasscv class (TeX Live): Europass side labels, a left
  column holding the section names (upper-cased) and each entry's dates beside the
  content, "Curriculum vitae" and the Europass logo over the name, a "PERSONAL
  INFORMATION" label level with the name; XeLaTeX, xeCJK for Chinese;
- ``latex-curve``: the CurVe class (TeX Live): rubrics whose entries carry their dates in
  a left key column, the name and contacts in a two-part title block; XeLaTeX;
- ``jsonresume-onepage``, ``-spartacus``, ``-actual``: three more JSON Resume themes from
  npm, printed by Chromium: onepage's upper-case section names in a left column (side
  labels) and ISO days; spartacus's left sidebar (contact, skills, education as "in
  degree / at school", awards) beside the employment column; actual's name stacked over
  two lines beside right-aligned contacts, bullets set in two columns, a right sidebar
  of skills, education, awards and links.

Every person is invented (people.py).
"""

from __future__ import annotations

import json
import re
import subprocess
import tempfile
from pathlib import Path

from people import Person
from produce_html import chromium_pdf, print_theme, printed_range
from produce_latex import CJK, tex, xelatex
from produce_templates import old_schema_json, printed_numeric_range
from registry import producer, run
from truth import text_layer

PLAN = [("en", {}), ("zh", {}), ("en", {}), ("zh", {})]


def _index(stem: str) -> int:
    return int(stem.split("-")[1]) - 1  # "zh-02" -> 1


def _row(e, sep: str = " · ") -> str:
    return sep.join(x for x in (e.title, e.date, e.place) if x)


# ---------------------------------------------------------------- pandoc


def _md(text: str) -> str:
    """Markdown-escaped text (pandoc would read ``*`` or a leading ``#`` as markup)."""
    return re.sub(r"([\\`*_{}\[\]<>#|$])", r"\\\1", text)


def pandoc_markdown(person: Person, title_block: bool, table: bool) -> str:
    """The person as the Markdown a pandoc user writes: a title block (or a ``#`` name),
    a contact line, ``#`` sections and ``##`` entries with their row under them."""
    if title_block:
        lines = [
            "---",
            f"title: {json.dumps(person.name, ensure_ascii=False)}",
            f"subtitle: {json.dumps(person.headline, ensure_ascii=False)}",
            "---",
            "",
        ]
        level = "#"
    else:
        lines = [f"# {_md(person.name)}", "", _md(person.headline), ""]
        level = "##"
    contacts = [person.phone, person.email, person.location, person.website]
    lines += [" | ".join(_md(c) for c in contacts), ""]
    for s in person.sections:
        lines += [f"{level} {_md(s.title)}", ""]
        if s.text:
            lines += [_md(s.text), ""]
        if s.items:
            lines += [f"- {_md(i)}" for i in s.items] + [""]
        if table and s.kind == "education":
            lines += ["| | | |", "|---|---|---|"]
            lines += [f"| {_md(e.org)} | {_md(e.title)} | {_md(e.date)} |" for e in s.entries]
            lines.append("")
            continue
        for e in s.entries:
            lines += [f"{level}# {_md(e.org)}", "", f"*{_md(_row(e))}*", ""]
            lines += [f"- {_md(b)}" for b in e.bullets]
            lines.append("")
    return "\n".join(lines)


@producer("pandoc", "pandoc-docx", PLAN)
def produce_pandoc_docx(person: Person, out: Path, stem: str, lang: str):
    source = out / f"{stem}.md"
    source.write_text(pandoc_markdown(person, lang == "en", table=False), encoding="utf-8")
    run(["pandoc", source.name, "-o", f"{stem}.docx"], out)
    note = "pandoc (Debian) Markdown to DOCX, default reference document"
    return [out / f"{stem}.docx", source], set(), note


_PANDOC_CSS = """
@page { size: A4; margin: 14mm; }
body { font-family: 'DejaVu Serif', 'Noto Serif CJK SC', serif; }
"""


@producer("pandoc", "pandoc-html", PLAN)
def produce_pandoc_html(person: Person, out: Path, stem: str, lang: str):
    source = out / f"{stem}.md"
    source.write_text(pandoc_markdown(person, True, table=True), encoding="utf-8")
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "resume.html"
        head = Path(tmp) / "print.html"  # -H puts it in <head> as it is
        head.write_text(f"<style>{_PANDOC_CSS}</style>", encoding="utf-8")
        run(["pandoc", "-s", str(source), "-H", str(head), "-o", str(page)], Path(tmp))
        chromium_pdf(page, out / f"{stem}.pdf")
    for s in person.sections:
        if s.kind == "education":  # the table has no place column
            for e in s.entries:
                e.place = ""
    note = "pandoc (Debian) standalone HTML, default template, printed by Chromium"
    return [out / f"{stem}.pdf", source], set(), note


# ---------------------------------------------------------------- groff ms


def _roff(text: str) -> str:
    text = text.replace("\\", "\\e").replace("–", "\\(en").replace("—", "\\(em")
    return ("\\&" + text) if text[:1] in ".'" else text


def groff_ms_source(person: Person) -> str:
    lines = [
        ".nr PS 10",
        ".nr VS 12",
        ".nr PI 2n",
        '.ds CH "',
        '.ds RH "- \\\\n% -',
        ".TL",
        _roff(person.name),
        ".AU",
        _roff(person.headline),
        ".AI",
        f"{_roff(person.phone)}  \\(bu  {_roff(person.email)}",
        f"{_roff(person.location)}  \\(bu  {_roff(person.website)}",
        ".AB no",
        ".AE",
    ]
    for s in person.sections:
        lines += [".SH", _roff(s.title)]
        if s.text:
            lines += [".LP", _roff(s.text)]
        for item in s.items:
            lines += [".IP \\(bu 2", _roff(item)]
        for e in s.entries:
            lines += [".LP", ".ta \\n(.luR", f"\\fB{_roff(e.org)}\\fP\t{_roff(e.date)}", ".br"]
            row = ", ".join(x for x in (e.title, e.place) if x)
            lines += [f"\\fI{_roff(row)}\\fP"]
            for b in e.bullets:
                lines += [".IP \\(bu 2", _roff(b)]
    return "\n".join(lines) + "\n"


@producer("groff", "groff-ms", [("en", {}), ("en", {}), ("en", {}), ("en", {"long": True})])
def produce_groff_ms(person: Person, out: Path, stem: str, lang: str):
    source = out / f"{stem}.ms"
    source.write_text(groff_ms_source(person), encoding="utf-8")
    pdf = run_capture(["groff", "-k", "-ms", "-Tpdf", source.name], out)
    (out / f"{stem}.pdf").write_bytes(pdf)
    return [out / f"{stem}.pdf", source], set(), "groff 1.22 ms macros, gropdf"


def run_capture(cmd: list[str], cwd: Path) -> bytes:
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, timeout=120)
    if done.returncode:
        raise RuntimeError(f"{cmd[0]} failed: {done.stderr.decode()[-2000:]}")
    return done.stdout


# ---------------------------------------------------------------- europasscv


_EUROPASS_ZH = r"""\makeatletter
\def\ecv@infosectionkey{个人信息}
\def\ecv@pagekey{页}
\def\ecv@cvofkey{简历：}
\makeatother
"""


def europasscv_source(person: Person) -> str:
    zh = person.lang == "zh"
    parts = [
        "\\documentclass[english,a4paper]{europasscv}",
        "\\usepackage{fontspec}",
        CJK if zh else "",
        _EUROPASS_ZH if zh else "",
        f"\\ecvname{{{tex(person.name)}}}",
        f"\\ecvaddress{{{tex(person.location)}}}",
        f"\\ecvmobile{{{tex(person.phone)}}}",
        f"\\ecvemail{{{tex(person.email)}}}",
        f"\\ecvhomepage{{{tex(person.website)}}}",
        "\\begin{document}",
        "\\begin{europasscv}",
        "\\ecvpersonalinfo",
    ]
    for s in person.sections:
        parts.append(f"\\ecvsection{{{tex(s.title)}}}")
        if s.text:
            parts.append(f"\\ecvitem{{}}{{{tex(s.text)}}}")
        if s.items:
            items = "".join(f"\\item {tex(i)}\n" for i in s.items)
            parts.append(f"\\ecvitem{{}}{{\\begin{{ecvitemize}}\n{items}\\end{{ecvitemize}}}}")
        for e in s.entries:
            parts.append(f"\\ecvtitle{{{tex(e.date)}}}{{{tex(e.title)}}}")
            where = ", ".join(tex(x) for x in (e.org, e.place) if x)
            parts.append(f"\\ecvitem{{}}{{{where}}}")
            if e.bullets:
                items = "".join(f"\\item {tex(b)}\n" for b in e.bullets)
                parts.append(f"\\ecvitem{{}}{{\\begin{{ecvitemize}}\n{items}\\end{{ecvitemize}}}}")
    parts += ["\\end{europasscv}", "\\end{document}", ""]
    return "\n".join(p for p in parts if p)


@producer("latex", "latex-europasscv", PLAN)
def produce_europasscv(person: Person, out: Path, stem: str, lang: str):
    for s in person.sections:
        s.title = s.title.upper()  # the class upper-cases section names
    extra = "个人信息" if lang == "zh" else "PERSONAL INFORMATION"
    note = "europasscv (TeX Live), XeLaTeX: Europass side labels, dates in the left column"
    return (
        xelatex(europasscv_source(person), out, stem),
        {"headline", f"extra-section:{extra}"},
        note,
    )


# ---------------------------------------------------------------- CurVe


def curve_source(person: Person) -> str:
    """CurVe as its manual has it: each rubric in a file of its own read by
    ``\\makerubric`` (written here by ``filecontents`` so the source is one file), an
    entry's dates as its key, its bullets as lines (CurVe's entries take no list)."""
    zh = person.lang == "zh"
    rubrics = []
    names = []
    for n, s in enumerate(person.sections):
        body = [f"\\begin{{rubric}}{{{tex(s.title)}}}"]
        if s.text:
            body.append(f"\\entry*[]\n{tex(s.text)}")
        body += [f"\\entry*[]\n{tex(i)}" for i in s.items]
        for e in s.entries:
            where = ", ".join(tex(x) for x in (e.org, e.place) if x)
            lines = [f"\\textbf{{{where}}}", f"\\emph{{{tex(e.title)}}}"]
            lines += [f"\\textbullet~{tex(b)}" for b in e.bullets]
            body.append(f"\\entry*[{tex(e.date)}]\n" + "\\newline\n".join(lines))
        body.append("\\end{rubric}")
        names.append(f"rubric{n}")
        rubrics.append(
            f"\\begin{{filecontents*}}[overwrite]{{{names[-1]}.tex}}\n"
            + "\n".join(body)
            + "\n\\end{filecontents*}"
        )
    parts = [
        *rubrics,
        "\\documentclass[a4paper,11pt]{curve}",
        "\\usepackage{fontspec}",
        "\\usepackage[margin=2cm]{geometry}",
        CJK if zh else "",
        "\\leftheader{" + tex(person.phone) + "\\\\" + tex(person.email) + "}",
        "\\rightheader{" + tex(person.location) + "\\\\" + tex(person.website) + "}",
        f"\\title{{{tex(person.name)}}}",
        f"\\subtitle{{{tex(person.headline)}}}",
        "\\begin{document}",
        "\\makeheaders[c]",
        "\\maketitle",
        *(f"\\makerubric{{{n}}}" for n in names),
        "\\end{document}",
        "",
    ]
    return "\n".join(p for p in parts if p)


@producer("latex", "latex-curve", PLAN)
def produce_curve(person: Person, out: Path, stem: str, lang: str):
    note = "CurVe (TeX Live), XeLaTeX: rubrics, dates in the left key column, header block"
    return xelatex(curve_source(person), out, stem), set(), note


# ---------------------------------------------------------------- more JSON Resume themes

# (titles by kind, "" when printed without one; titles printed that the person has no
# section for; kinds the theme does not print; how it prints a month, None for "Mon YYYY")
NEW_THEMES: dict[str, tuple[dict[str, str], list[str], set[str], str | None]] = {
    "onepage": (
        {
            "summary": "SUMMARY",
            "experience": "EXPERIENCE",
            "education": "EDUCATION",
            "skills": "SKILLS",
            "awards": "AWARDS",
        },
        [],
        {"projects"},
        "{y:04d}-{m:02d}-01",
    ),
    "spartacus": (
        {
            "summary": "SUMMARY",
            "experience": "EMPLOYMENT",
            "education": "EDUCATION",
            "skills": "TECHNICAL SKILLS",
            "awards": "AWARDS",
        },
        ["CONTACT"],
        {"projects"},
        None,
    ),
    "actual": (
        {
            "summary": "",
            "experience": "Experience",
            "education": "Education",
            "projects": "Projects",
            "skills": "Skills",
            "awards": "Awards",
        },
        ["Links"],
        set(),
        None,
    ),
}


def make_new_theme(theme: str):
    titles, extra, hidden, month = NEW_THEMES[theme]

    def produce(person: Person, out: Path, stem: str, lang: str):
        person.sections = [s for s in person.sections if s.kind not in hidden]
        data = old_schema_json(person)
        for project in data.get("projects", []):
            project["roles"] = []  # actual's template reads it unguarded
        source = out / f"{stem}.json"
        source.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print_theme(theme, source, out / f"{stem}.pdf")
        layer = text_layer(out / f"{stem}.pdf")
        for s in person.sections:
            s.title = titles[s.kind]
            if s.kind == "education":  # JSON Resume's education has no place
                for e in s.entries:
                    e.place = ""
            for e in s.entries:
                found = (
                    printed_numeric_range(e.date.span, month, layer)
                    if month
                    else printed_range(e.date.span, layer)
                )
                e.date = found or e.date
        skip = {f"extra-section:{t}" for t in extra}
        note = f"JSON Resume theme {theme} (npm), printed by Chromium"
        return [out / f"{stem}.pdf", source], skip, note

    return produce


for _theme in NEW_THEMES:
    producer("html", f"jsonresume-{_theme}", PLAN)(make_new_theme(_theme))
