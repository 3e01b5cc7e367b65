"""Famous public resume templates, filled with invented people: the layouts real job seekers
use most, which nobody tuned cvagent's import for.

Each template's own files (its class or preamble, from the template's repository, licence
header kept) are in ``templates/<name>/``; the person goes into the template's own macros,
used as the template's sample uses them.  The fonts some templates bundle in their
repositories are copied at build time from a checkout of that repository
(``TOOLS["template_repos"]``, one folder per template, see ``FONTS``).

- ``latex-jake``: "Jake's Resume" (github.com/jakegut/resume, MIT): article, ``tabular*``
  rows with dates and places at the right margin, small-caps ruled section titles;
  pdfLaTeX for English, XeLaTeX with ctex for Chinese (what Chinese users of it do).
- ``latex-deedy``: Deedy resume, OpenFonts variant (github.com/deedy/Deedy-Resume,
  Apache-2.0): two minipage columns, Lato Hairline name, "Last Updated on" stamp,
  upper-cased employers; XeLaTeX with the Lato and Raleway fonts it bundles.
- ``latex-awesome-cv``: Awesome-CV (github.com/posquit0/Awesome-CV, LPPL 1.3c): LuaLaTeX,
  icons in the header, entries with the place and date right-aligned in colour, a footer;
  its class edited as ``awesome-cv-corpus.cls`` only to use Source Sans Pro (TeX Live) for
  Source Sans 3 and fontawesome5 for fontawesome6, which this TeX Live lacks.  Chinese
  through ctex (LuaLaTeX, luatexja).
- ``latex-altacv``: AltaCV (github.com/liantze/AltaCV, LPPL 1.3): two paracol columns,
  icons before each contact, dates and places with icons under each entry; pdfLaTeX.
- ``latex-billryan``: billryan/resume (github.com/billryan/resume, MIT), zh_CN branch:
  XeLaTeX, Font Awesome 4 icons in the section titles, ``\\datedsubsection`` rows; the
  Chinese fonts from the template's Noto variant (system Noto CJK here).
- ``typst-basic-resume``: stuxf/basic-typst-resume-template 0.2.9 (The Unlicense), compiled
  by the ``typst`` PyPI package; its ``resume.typ`` without the ``@preview/scienceicons``
  import (typst packages are not reachable offline) and the ORCID item that used it.
- ``jsonresume-flat``, ``jsonresume-macchiato``: two more JSON Resume themes from npm
  (``--npm DIR``), printed by Chromium like produce_html's; they read the pre-1.0 schema's
  ``company`` key, and print dates as ISO days (flat) or MM/YYYY (macchiato); macchiato's
  sidebar holds the contacts and the skills, without a title.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import tempfile
from pathlib import Path

from people import EN_SKILLS, ZH_SKILLS, Person, Section
from produce_html import print_theme, resume_json
from produce_latex import tex
from registry import TOOLS, producer, run
from truth import text_layer

HERE = Path(__file__).resolve().parent / "templates"
# fonts a template bundles in its repository: (template, folder in the checkout, where the
# template looks for them, relative to the document)
FONTS = {
    "deedy": ("OpenFonts/fonts", "fonts"),
    "billryan": ("fonts/Main", "fonts/Main"),
}
TODAY = "\\day=14 \\month=11 \\year=2026\n"  # a fixed \today: regenerating changes nothing


def build(
    template: str, source: str, out: Path, stem: str, engine: str, runs: int = 2
) -> list[Path]:
    """Compile ``source`` with the template's files beside it; the PDF and the source land in
    ``out``."""
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for f in (HERE / template).iterdir():
            if f.suffix in (".cls", ".sty", ".cfg"):
                shutil.copy(f, work / f.name)
        if template in FONTS:
            inside, there = FONTS[template]
            shutil.copytree(Path(TOOLS["template_repos"]) / template / inside, work / there)
        (work / "cv.tex").write_text(source, encoding="utf-8")
        for _ in range(runs):
            cmd = shlex.split(engine)  # the engine and any options the template's README asks for
            run([*cmd, "-interaction=nonstopmode", "-halt-on-error", "cv.tex"], work)
        shutil.copy(work / "cv.pdf", out / f"{stem}.pdf")
    (out / f"{stem}.tex").write_text(source, encoding="utf-8")
    return [out / f"{stem}.pdf", out / f"{stem}.tex"]


def by_kind(person: Person, *kinds: str) -> list[Section]:
    return [s for s in person.sections if s.kind in kinds]


# ---------------------------------------------------------------- Jake's Resume


def jake_source(person: Person) -> str:
    zh = person.lang == "zh"
    preamble = (HERE / "jake" / "preamble.tex").read_text(encoding="utf-8")
    if zh:  # what the Chinese forks do: ctex under XeLaTeX, no pdfTeX-only glyph mapping
        preamble = (
            preamble.replace(
                "\\documentclass[letterpaper,11pt]{article}",
                "\\documentclass[letterpaper,11pt]{article}\n\\usepackage[UTF8]{ctex}",
            )
            .replace("\\input{glyphtounicode}", "")
            .replace("\\pdfgentounicode=1", "")
        )
    site = tex(person.website)
    body = [
        "\\begin{document}",
        "\\begin{center}",
        f"    \\textbf{{\\Huge \\scshape {tex(person.name)}}} \\\\ \\vspace{{1pt}}",
        f"    \\small {tex(person.phone)} $|$ \\href{{mailto:{person.email}}}"
        f"{{\\underline{{{tex(person.email)}}}}} $|$",
        f"    \\href{{https://{person.website}}}{{\\underline{{{site}}}}}",
        "\\end{center}",
        "",
    ]
    for s in person.sections:
        body.append(f"\\section{{{tex(s.title)}}}")
        if s.text:
            body.append(f"\\small{{{tex(s.text)}}}")
        if s.items:
            body.append("\\begin{itemize}[leftmargin=0.15in, label={}]")
            body.append("  \\small{\\item{")
            body.append(" \\\\\n".join(f"    {tex(i)}" for i in s.items))
            body.append("  }}")
            body.append("\\end{itemize}")
        if s.entries:
            body.append("  \\resumeSubHeadingListStart")
        for e in s.entries:
            title, org, date, place = tex(e.title), tex(e.org), tex(e.date), tex(e.place)
            if s.kind == "education":
                body.append(
                    f"    \\resumeSubheading\n      {{{org}}}{{{place}}}\n      {{{title}}}{{{date}}}"
                )
            elif s.kind == "projects":
                body.append(
                    f"    \\resumeProjectHeading\n      {{\\textbf{{{org}}} $|$ \\emph{{{title}}}}}"
                    f"{{{date}}}"
                )
            else:
                body.append(
                    f"    \\resumeSubheading\n      {{{title}}}{{{date}}}\n      {{{org}}}{{{place}}}"
                )
            if e.bullets:
                body.append("      \\resumeItemListStart")
                body += [f"        \\resumeItem{{{tex(b)}}}" for b in e.bullets]
                body.append("      \\resumeItemListEnd")
        if s.entries:
            body.append("  \\resumeSubHeadingListEnd")
        body.append("")
    body.append("\\end{document}\n")
    return preamble + "\n".join(body)


@producer("template", "latex-jake", [("en", {}), ("en", {}), ("zh", {}), ("zh", {})])
def produce_jake(person: Person, out: Path, stem: str, lang: str):
    engine = "xelatex" if lang == "zh" else "pdflatex"
    note = "Jake's Resume (jakegut/resume, MIT): tabular* rows, small-caps ruled titles"
    # the template prints no headline and no location
    return build("jake", jake_source(person), out, stem, engine), {"headline", "location"}, note


# ---------------------------------------------------------------- Deedy


def deedy_source(person: Person) -> str:
    first, last = person.name.split(" ", 1)
    lists: list = []  # the entries with a bullet list so far (in the right column)

    def section(s: Section) -> list[str]:
        lines = [f"\\section{{{tex(s.title)}}}"]
        if s.text:
            lines.append(tex(s.text))
        if s.items:
            lines.append(" \\\\\n".join(tex(i) for i in s.items))
        for e in s.entries:
            when = f"{tex(e.date)} | {tex(e.place)}" if e.place else tex(e.date)
            if s.kind == "education":
                lines += [f"\\subsection{{{tex(e.org)}}}", f"\\descript{{{tex(e.title)}}}"]
            else:
                lines += [f"\\runsubsection{{{tex(e.org)}}}", f"\\descript{{| {tex(e.title)}}}"]
            lines.append(f"\\location{{{when}}}")
            if e.bullets:
                # the sample's "hacky fix for awkward extra vertical space" before the
                # first list of a column (known issue 2 of the template)
                hack = "\\vspace{\\topsep}\n" if not lists else ""
                lists.append(e)
                lines.append(hack + "\\begin{tightemize}")
                lines += [f"\\item {tex(b)}" for b in e.bullets]
                lines.append("\\end{tightemize}")
            lines.append("\\sectionsep")
        lines.append("\\sectionsep")
        return lines

    body = [
        "\\documentclass[]{deedy-resume-openfont}",
        "\\usepackage{fancyhdr}",
        "\\pagestyle{fancy}",
        "\\fancyhf{}",
        "\\begin{document}",
        TODAY + "\\lastupdated",
        f"\\namesection{{{tex(first)}}}{{{tex(last)}}}{{ \\urlstyle{{same}}"
        f"\\href{{https://{person.website}}}{{{tex(person.website)}}} | {tex(person.location)}\\\\",
        f"\\href{{mailto:{person.email}}}{{{tex(person.email)}}} | {tex(person.phone)}",
        "}",
        "\\begin{minipage}[t]{0.33\\textwidth}",
    ]
    for s in by_kind(person, *DEEDY_LEFT):
        body += section(s)
    body += ["\\end{minipage}", "\\hfill", "\\begin{minipage}[t]{0.66\\textwidth}"]
    for s in person.sections:
        if s.kind not in DEEDY_LEFT:
            body += section(s)
    body += ["\\end{minipage}", "\\end{document}\n"]
    return "\n".join(body)


DEEDY_LEFT = ("education", "skills", "awards")


@producer("template", "latex-deedy", [("en", {}), ("en", {})])
def produce_deedy(person: Person, out: Path, stem: str, lang: str):
    # label the sections in reading order: the left column first
    person.sections.sort(key=lambda s: s.kind not in DEEDY_LEFT)
    note = "Deedy resume (deedy/Deedy-Resume OpenFonts, Apache-2.0): two minipage columns"
    return build("deedy", deedy_source(person), out, stem, "xelatex"), {"headline"}, note


# ---------------------------------------------------------------- Awesome-CV

# Awesome-CV's skills are (category, list) rows: a category for each skill line of people.py
SKILL_KINDS = dict(
    zip(
        EN_SKILLS + ZH_SKILLS,
        "Languages|Cloud|Data|Web|Analytics|Machine Learning|后端|中间件|数据分析|运维|前端|外语".split(
            "|"
        ),
        strict=True,
    )
)


def awesome_source(person: Person) -> str:
    zh = person.lang == "zh"
    if zh:  # the surname as \name's first part, as the template's two fields invite
        first, last = person.name[0], person.name[1:]
    else:
        first, last = person.name.split(" ", 1)
    lines = [
        "\\documentclass[11pt, a4paper]{awesome-cv-corpus}",
        "\\usepackage[UTF8]{ctex}\n\\setCJKmainfont{Noto Sans CJK SC}\n\\setCJKsansfont{Noto Sans CJK SC}"
        if zh
        else "",
        "\\geometry{left=1.4cm, top=.8cm, right=1.4cm, bottom=1.8cm, footskip=.5cm}",
        "\\colorlet{awesome}{awesome-red}",
        "\\setbool{acvSectionColorHighlight}{true}",
        "\\renewcommand{\\acvHeaderSocialSep}{\\quad\\textbar\\quad}",
        f"\\name{{{tex(first)}}}{{{tex(last)}}}",
        f"\\position{{{tex(person.headline)}}}",
        f"\\address{{{tex(person.location)}}}",
        f"\\mobile{{{tex(person.phone)}}}",
        f"\\email{{{tex(person.email)}}}",
        f"\\homepage{{{tex(person.website)}}}",
        "\\begin{document}",
        TODAY + "\\makecvheader[C]",
        "\\makecvfooter",
        "  {\\today}",
        f"  {{{tex(person.name)}~~~·~~~{'简历' if zh else 'Résumé'}}}",
        "  {\\thepage}",
    ]
    for s in person.sections:
        lines.append(f"\\cvsection{{{tex(s.title)}}}\n\n")  # blank lines as in the sample
        if s.text:
            lines += ["\\begin{cvparagraph}", tex(s.text), "\\end{cvparagraph}"]
        if s.kind == "skills":  # the sample's category column, named for each skill line
            lines.append("\\begin{cvskills}")
            lines += [f"  \\cvskill\n    {{{SKILL_KINDS[i]}}}\n    {{{tex(i)}}}\n" for i in s.items]
            lines.append("\\end{cvskills}")
        elif s.items:
            lines.append("\\begin{cvhonors}")
            lines += [f"  \\cvhonor{{{tex(i)}}}{{}}{{}}{{}}" for i in s.items]
            lines.append("\\end{cvhonors}")
        if s.entries:
            lines.append("\\begin{cventries}")
        for e in s.entries:
            items = ""
            if e.bullets:
                items = (
                    "\n      \\begin{cvitems}\n"
                    + "".join(f"        \\item {{{tex(b)}}}\n" for b in e.bullets)
                    + "      \\end{cvitems}\n    "
                )
            lines.append(
                f"  \\cventry\n    {{{tex(e.title)}}}\n    {{{tex(e.org)}}}\n    {{{tex(e.place)}}}"
                f"\n    {{{tex(e.date)}}}\n    {{{items}}}"
            )
        if s.entries:
            lines.append("\\end{cventries}")
    lines.append("\\end{document}\n")
    return "\n".join(lines)


@producer("template", "latex-awesome-cv", [("en", {}), ("en", {}), ("zh", {}), ("zh", {})])
def produce_awesome(person: Person, out: Path, stem: str, lang: str):
    note = "Awesome-CV (posquit0/Awesome-CV, LPPL 1.3c), XeLaTeX: icons, right-aligned places"
    return build("awesome-cv", awesome_source(person), out, stem, "xelatex"), set(), note


# ---------------------------------------------------------------- AltaCV

ALTACV_RIGHT = ("education", "skills", "awards")


def altacv_source(person: Person) -> str:
    # the sample's pdfLaTeX fonts (Chinese would need XeLaTeX, and this TeX Live's
    # simpleicons, which AltaCV loads, has no OpenType font for it)
    fonts = "\\usepackage[rm]{roboto}\n\\usepackage[defaultsans]{lato}\n\\renewcommand{\\familydefault}{\\sfdefault}"
    lines = [
        "\\documentclass[10pt,a4paper,withhyper]{altacv}",
        "\\geometry{left=1.25cm,right=1.25cm,top=1.5cm,bottom=1.5cm,columnsep=1.2cm}",
        "\\usepackage{paracol}",
        fonts,
        # the sample's colours and fonts
        "\\definecolor{SlateGrey}{HTML}{2E2E2E}",
        "\\definecolor{LightGrey}{HTML}{666666}",
        "\\definecolor{DarkPastelRed}{HTML}{450808}",
        "\\definecolor{PastelRed}{HTML}{8F0D0D}",
        "\\definecolor{GoldenEarth}{HTML}{E7D192}",
        "\\colorlet{name}{black}",
        "\\colorlet{tagline}{PastelRed}",
        "\\colorlet{heading}{DarkPastelRed}",
        "\\colorlet{headingrule}{GoldenEarth}",
        "\\colorlet{subheading}{PastelRed}",
        "\\colorlet{accent}{PastelRed}",
        "\\colorlet{emphasis}{SlateGrey}",
        "\\colorlet{body}{LightGrey}",
        "\\renewcommand{\\namefont}{\\Huge\\rmfamily\\bfseries}",
        "\\renewcommand{\\personalinfofont}{\\footnotesize}",
        "\\renewcommand{\\cvsectionfont}{\\LARGE\\rmfamily\\bfseries}",
        "\\renewcommand{\\cvsubsectionfont}{\\large\\bfseries}",
        "\\renewcommand{\\cvItemMarker}{{\\small\\textbullet}}",
        "\\begin{document}",
        f"\\name{{{tex(person.name)}}}",
        f"\\tagline{{{tex(person.headline)}}}",
        "\\personalinfo{%",
        f"  \\email{{{tex(person.email)}}}",
        f"  \\phone{{{tex(person.phone)}}}",
        f"  \\location{{{tex(person.location)}}}",
        f"  \\github{{{tex(person.website.split('/')[-1])}}}",
        "}",
        "\\makecvheader",
        "\\columnratio{0.6}",
        "\\begin{paracol}{2}",
    ]

    def section(s: Section) -> list[str]:
        out = [f"\\cvsection{{{tex(s.title)}}}", ""]
        if s.text:
            out += [tex(s.text), ""]
        if s.kind == "skills":
            out.append("\n".join(f"\\cvtag{{{tex(i)}}}" for i in s.items))
        elif s.items:
            out.append(
                "\n\n\\divider\n\n".join(
                    f"\\cvachievement{{\\faTrophy}}{{{tex(i)}}}{{}}" for i in s.items
                )
            )
        for i, e in enumerate(s.entries):
            if i:
                out += ["", "\\divider", ""]
            # the sample: role or degree over the employer or school, a project over its
            # "funding agency" line (the stack here)
            top, under = (e.org, e.title) if s.kind == "projects" else (e.title, e.org)
            out.append(
                f"\\cvevent{{{tex(top)}}}{{{tex(under)}}}{{{tex(e.date)}}}{{{tex(e.place)}}}"
            )
            if e.bullets:
                out.append("\\begin{itemize}")
                out += [f"\\item {tex(b)}" for b in e.bullets]
                out.append("\\end{itemize}")
        out += ["", "\\medskip", ""]
        return out

    for s in person.sections:
        if s.kind not in ALTACV_RIGHT:
            lines += section(s)
    lines.append("\\switchcolumn")
    for s in by_kind(person, *ALTACV_RIGHT):
        lines += section(s)
    lines += ["\\end{paracol}", "\\end{document}\n"]
    return "\n".join(lines)


@producer("template", "latex-altacv", [("en", {}), ("en", {})])
def produce_altacv(person: Person, out: Path, stem: str, lang: str):
    person.sections.sort(key=lambda s: s.kind in ALTACV_RIGHT)  # reading order: left first
    note = "AltaCV (liantze/AltaCV, LPPL 1.3): two paracol columns, icons, tags for skills"
    # it prints the GitHub handle, not the address
    return build("altacv", altacv_source(person), out, stem, "pdflatex"), {"website"}, note


# ---------------------------------------------------------------- billryan/resume

BILLRYAN_ICONS = {
    "summary": "\\faInfo",
    "experience": "\\faUsers",
    "education": "\\faGraduationCap",
    "projects": "\\faCode",
    "skills": "\\faCogs",
    "awards": "\\faHeartO",
}
# the zh_CN branch's Noto Serif variant (NotoSerifCJKsc_external.sty), with the system's fonts
BILLRYAN_CJK = """\\usepackage{xeCJK}
\\setCJKmainfont[BoldFont=Noto Serif CJK SC Bold, ItalicFont=Noto Serif CJK SC,
  SmallCapsFont=Noto Serif CJK SC Bold]{Noto Serif CJK SC}
\\setCJKsansfont{Noto Serif CJK SC Bold}
\\setCJKmonofont{Noto Serif CJK SC}"""


def billryan_source(person: Person) -> str:
    zh = person.lang == "zh"
    handle = person.website.split("/")[-1]
    lines = [
        "% !TEX TS-program = xelatex",
        "\\documentclass{resume}",
        BILLRYAN_CJK if zh else "",
        "\\usepackage{linespacing_fix} % disable extra space before next section",
        "\\usepackage{cite}",
        "\\begin{document}",
        "\\pagenumbering{gobble} % suppress displaying page number",
        f"\\name{{{tex(person.name)}}}",
        "\\basicInfo{",
        f"  \\email{{{tex(person.email)}}} \\textperiodcentered\\ ",
        f"  \\phone{{{tex(person.phone)}}} \\textperiodcentered\\ ",
        f"  \\github[{tex(handle)}]{{https://{person.website}}}}}",
    ]
    for s in person.sections:
        lines.append(f"\\section{{{BILLRYAN_ICONS[s.kind]}\\ {tex(s.title)}}}")
        if s.text:
            lines.append(tex(s.text))
        if s.kind == "skills":
            lines.append("\\begin{itemize}[parsep=0.5ex]")
            lines += [f"  \\item {tex(i)}" for i in s.items]
            lines.append("\\end{itemize}")
        elif s.items:
            lines += [f"\\datedline{{{tex(i)}}}{{}}" for i in s.items]
        for e in s.entries:
            place = f", {tex(e.place)}" if e.place else ""
            lines.append(f"\\datedsubsection{{\\textbf{{{tex(e.org)}}}{place}}}{{{tex(e.date)}}}")
            if s.kind == "education":
                lines.append(f"\\textit{{{tex(e.title)}}}")
            else:
                lines.append(f"\\role{{{tex(e.title)}}}{{}}")
            if e.bullets:
                lines.append("\\begin{itemize}")
                lines += [f"  \\item {tex(b)}" for b in e.bullets]
                lines.append("\\end{itemize}")
    lines.append("\\end{document}\n")
    return "\n".join(lines)


@producer("template", "latex-billryan", [("zh", {}), ("zh", {}), ("en", {}), ("en", {})])
def produce_billryan(person: Person, out: Path, stem: str, lang: str):
    note = "billryan/resume (MIT), zh_CN branch: Font Awesome 4 icons in the section titles"
    # it prints the GitHub handle, no headline and no location
    skip = {"website", "headline", "location"}
    return build("billryan", billryan_source(person), out, stem, "xelatex"), skip, note


# ---------------------------------------------------------------- more JSON Resume themes

# (titles by section kind, "" when the theme prints none; titles printed that the person has
# no section for; kinds the theme does not print at all; how it prints a month)
OLD_SCHEMA_THEMES = {
    "flat": (
        {
            "summary": "About",
            "experience": "Work",
            "education": "Education",
            "skills": "Skills",
            "awards": "Awards",
        },
        ["Contact", "Profiles"],
        {"projects"},
        "{y:04d}-{m:02d}-01",
    ),
    "macchiato": (
        {
            "summary": "Summary",
            "experience": "Experience",
            "education": "Education",
            "projects": "Open Source Projects",
            "skills": "",
            "awards": "Awards",
        },
        ["About"],
        set(),
        "{m:02d}/{y:04d}",
    ),
}


def old_schema_json(person: Person) -> dict:
    """The person as a JSON Resume with the pre-1.0 key these themes read (``company``)."""
    data = resume_json(person)
    for job in data.get("work", []):
        job["company"] = job["name"]
    return data


def printed_numeric_range(span: tuple[int, int, int, int], month: str, layer: str) -> str | None:
    sy, sm, ey, em = span
    start = re.escape(month.format(y=sy, m=sm))
    end = re.escape(month.format(y=ey, m=em)) if ey else "(?:Present)?"
    found = re.search(rf"{start}\s*[-–—]\s*{end}", layer)
    return re.sub(r"\s+", " ", found.group(0)).strip() if found else None


def make_old_schema_theme(theme: str):
    titles, extra, hidden, month = OLD_SCHEMA_THEMES[theme]

    def produce(person: Person, out: Path, stem: str, lang: str):
        person.sections = [s for s in person.sections if s.kind not in hidden]
        source = out / f"{stem}.json"
        source.write_text(
            json.dumps(old_schema_json(person), ensure_ascii=False, indent=1) + "\n",
            encoding="utf-8",
        )
        print_theme(theme, source, out / f"{stem}.pdf")
        layer = text_layer(out / f"{stem}.pdf")
        for s in person.sections:
            s.title = titles[s.kind]
            for e in s.entries:
                e.place = ""  # neither theme prints a place
                e.date = printed_numeric_range(e.date.span, month, layer) or e.date
        skip = {"location"} if theme == "flat" else set()
        skip |= {f"extra-section:{t}" for t in extra}
        note = f"JSON Resume theme {theme} (npm, pre-1.0 schema keys), printed by Chromium"
        return [out / f"{stem}.pdf", source], skip, note

    return produce


for _theme in OLD_SCHEMA_THEMES:
    producer("html", f"jsonresume-{_theme}", [("en", {}), ("en", {}), ("zh", {}), ("zh", {})])(
        make_old_schema_theme(_theme)
    )


# ---------------------------------------------------------------- basic-typst-resume-template


def typ(text: str) -> str:
    """A typst string literal (JSON's escapes for quotes and backslashes are typst's too)."""
    return json.dumps(text, ensure_ascii=False)


def basic_typst_source(person: Person) -> str:
    zh = person.lang == "zh"
    font = '("New Computer Modern", "Noto Serif CJK SC")' if zh else '"New Computer Modern"'
    lines = [
        '#import "resume.typ": *',
        "#show: resume.with(",
        f"  author: {typ(person.name)},",
        f"  location: {typ(person.location)},",
        f"  email: {typ(person.email)},",
        f"  github: {typ(person.website)},",
        f"  phone: {typ(person.phone)},",
        '  accent-color: "#26428b",',
        f"  font: {font},",
        '  paper: "us-letter",',
        f'  lang: "{person.lang}",',
        "  author-position: left,",
        "  personal-info-position: left,",
        ")",
        "",
    ]
    for s in person.sections:
        lines += [f"== {s.title}", ""]
        if s.text:
            lines += [f"#{typ(s.text)}", ""]
        lines += [f"- #{typ(i)}" for i in s.items]
        for e in s.entries:
            if s.kind == "education":
                lines.append(
                    f"#edu(institution: {typ(e.org)}, location: {typ(e.place)}, "
                    f"dates: {typ(e.date)}, degree: {typ(e.title)})"
                )
            elif s.kind == "projects":
                lines.append(f"#project(name: {typ(e.org)}, dates: {typ(e.date)})")
            else:
                lines.append(
                    f"#work(title: {typ(e.title)}, location: {typ(e.place)}, "
                    f"company: {typ(e.org)}, dates: {typ(e.date)})"
                )
            lines += [f"- #{typ(b)}" for b in e.bullets]
            lines.append("")
    return "\n".join(lines) + "\n"


@producer("template", "typst-basic-resume", [("en", {}), ("en", {}), ("zh", {}), ("zh", {})])
def produce_basic_typst(person: Person, out: Path, stem: str, lang: str):
    import typst  # cvagent's own dependency

    source = basic_typst_source(person)
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copy(HERE / "basic-typst" / "resume.typ", Path(tmp) / "resume.typ")
        (Path(tmp) / "cv.typ").write_text(source, encoding="utf-8")
        typst.compile(str(Path(tmp) / "cv.typ"), output=str(out / f"{stem}.pdf"))
    (out / f"{stem}.typ").write_text(source, encoding="utf-8")
    note = "basic-typst-resume-template (stuxf, Unlicense) 0.2.9: small-caps ruled titles"
    # no headline; a project's stack is not printed (its name and dates only)
    return [out / f"{stem}.pdf", out / f"{stem}.typ"], {"headline", "title:projects"}, note
