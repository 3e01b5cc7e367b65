"""LaTeX resumes through XeLaTeX (TeX Live): moderncv's styles, a two-column paracol page,
and an article/ctexart resume with fontawesome5 icons, right-aligned dates, running footers
with page numbers on long resumes, and a cover letter after one of them."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from people import Person, Section
from registry import producer, run

_ESCAPES = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}


def tex(text: str) -> str:
    return "".join(_ESCAPES.get(c, c) for c in text)


CJK = r"""\usepackage{xeCJK}
\setCJKmainfont{Noto Serif CJK SC}[BoldFont=Noto Sans CJK SC Bold]
\setCJKsansfont{Noto Sans CJK SC}
"""


def xelatex(source: str, out: Path, stem: str) -> list[Path]:
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "cv.tex"
        src.write_text(source, encoding="utf-8")
        for _ in range(2):  # twice: page references (Page 1 of 2) settle on the second run
            run(["xelatex", "-interaction=nonstopmode", "-halt-on-error", "cv.tex"], Path(tmp))
        shutil.copy(Path(tmp) / "cv.pdf", out / f"{stem}.pdf")
    (out / f"{stem}.tex").write_text(source, encoding="utf-8")
    return [out / f"{stem}.pdf", out / f"{stem}.tex"]


def itemize(items: list[str]) -> str:
    if not items:
        return ""
    return "\\begin{itemize}\n" + "".join(f"\\item {tex(b)}\n" for b in items) + "\\end{itemize}"


# ---------------------------------------------------------------- moderncv


def moderncv_source(person: Person, style: str) -> str:
    parts = [
        "\\documentclass[11pt,a4paper,sans]{moderncv}",
        f"\\moderncvstyle{{{style}}}",
        "\\moderncvcolor{blue}",
        "\\usepackage[scale=0.8]{geometry}",
        CJK if person.lang == "zh" else "",
    ]
    if person.lang == "zh":
        parts.append(f"\\name{{{tex(person.name)}}}{{}}")
    else:
        first, last = person.name.split(" ", 1)
        parts.append(f"\\name{{{tex(first)}}}{{{tex(last)}}}")
    parts += [
        f"\\title{{{tex(person.headline)}}}",
        f"\\address{{{tex(person.location)}}}{{}}{{}}",
        f"\\phone[mobile]{{{tex(person.phone)}}}",
        f"\\email{{{tex(person.email)}}}",
        f"\\social[github]{{{tex(person.website.split('/')[-1])}}}",
        "\\begin{document}",
        "\\makecvtitle",
    ]
    for s in person.sections:
        parts.append(f"\\section{{{tex(s.title)}}}")
        if s.text:
            parts.append(f"\\cvitem{{}}{{{tex(s.text)}}}")
        for item in s.items:
            parts.append(f"\\cvlistitem{{{tex(item)}}}")
        for e in s.entries:
            parts.append(
                f"\\cventry{{{tex(e.date)}}}{{{tex(e.title)}}}{{{tex(e.org)}}}"
                f"{{{tex(e.place)}}}{{}}{{{itemize(e.bullets)}}}"
            )
    parts.append("\\end{document}\n")
    return "\n".join(parts)


def make_moderncv(style: str):
    def produce(person: Person, out: Path, stem: str, lang: str):
        # moderncv prints the GitHub handle, not the address
        return xelatex(moderncv_source(person, style), out, stem), {"website"}, f"moderncv {style}"

    return produce


for _style in ("classic", "banking", "casual", "oldstyle", "fancy"):
    producer("latex", f"latex-moderncv-{_style}", [("en", {}), ("zh", {})])(make_moderncv(_style))


# ---------------------------------------------------------------- article / ctexart with icons

ICONS = {
    "phone": r"\faPhone",
    "email": r"\faEnvelope",
    "location": r"\faMapMarker*",
    "website": r"\faGithub",
}
COVER = {
    "en": (
        "Cover Letter",
        "Dear Hiring Manager,",
        "I am writing to apply for the role advertised on your careers page. Over the last "
        "years I have built and run systems much like the ones your team describes, and I "
        "would welcome the chance to talk about how I could help.",
        "Thank you for your time and consideration.",
    ),
    "zh": (
        "求职信",
        "尊敬的招聘负责人：",
        "您好！我在贵公司招聘页面看到该职位，十分感兴趣。多年来我参与建设和维护的系统与贵团队的工作非常相近，"
        "希望有机会当面交流我能为团队带来的帮助。",
        "感谢您在百忙之中阅读我的求职信。",
    ),
}


def article_source(person: Person, long: bool, cover: bool) -> str:
    zh = person.lang == "zh"
    head = [
        "\\documentclass[10pt]{ctexart}" if zh else "\\documentclass[10pt]{article}",
        "\\usepackage[a4paper,margin=1.8cm]{geometry}",
        "\\usepackage{fontawesome5}",
        "\\usepackage{enumitem}",
        "\\usepackage{titlesec}",
        "\\usepackage{xcolor}",
        "\\usepackage{lastpage}",
        "\\usepackage{fancyhdr}",
        "\\setlist[itemize]{leftmargin=1.4em,itemsep=1pt,topsep=2pt,label=\\textbullet}",
        "\\titleformat{\\section}{\\large\\bfseries\\color{teal}}{}{0pt}{}[\\titlerule]",
        "\\titlespacing*{\\section}{0pt}{8pt}{4pt}",
        "\\setlength{\\parindent}{0pt}",
        "\\pagestyle{fancy}\\fancyhf{}\\renewcommand{\\headrulewidth}{0pt}",
    ]
    if long:  # a running footer with the name and page numbers, as long resumes have
        page = (
            "第 \\thepage{} 页，共 \\pageref{LastPage} 页"
            if zh
            else "Page \\thepage{} of \\pageref{LastPage}"
        )
        head.append(f"\\fancyfoot[L]{{\\small {tex(person.name)} · {tex(person.headline)}}}")
        head.append(f"\\fancyfoot[R]{{\\small {page}}}")
    body = [
        "\\begin{document}",
        f"{{\\LARGE\\bfseries {tex(person.name)}}}\\\\[2pt]",
        f"{tex(person.headline)}\\\\[4pt]",
        f"{ICONS['phone']}~{tex(person.phone)}\\quad {ICONS['email']}~{tex(person.email)}\\quad "
        f"{ICONS['location']}~{tex(person.location)}\\quad {ICONS['website']}~{tex(person.website)}",
    ]
    for s in person.sections:
        body.append(f"\\section*{{{tex(s.title)}}}")
        if s.text:
            body.append(tex(s.text) + "\n")
        if s.items:
            body.append(itemize(s.items))
        for e in s.entries:
            place = f", {tex(e.place)}" if e.place else ""
            body.append(f"\\textbf{{{tex(e.org)}}}{place} \\hfill {tex(e.date)}\\\\")
            body.append(f"\\textit{{{tex(e.title)}}}\\par")
            body.append(itemize(e.bullets) + "\\smallskip")
    if cover:
        title, greeting, para, thanks = COVER[person.lang]
        body += [
            "\\newpage",
            f"{{\\Large\\bfseries {title}}}\\\\[8pt]",
            f"{tex(greeting)}\\par\\medskip",
            f"{tex(para)}\\par\\medskip",
            f"{tex(thanks)}\\par\\medskip",
            f"{tex(person.name)}",
        ]
    body.append("\\end{document}\n")
    return "\n".join(head + body)


def make_article(long: bool = False, cover: bool = False):
    def produce(person: Person, out: Path, stem: str, lang: str):
        note = "fontawesome5 icons, \\hfill dates" + (", running footer, 2+ pages" if long else "")
        note += ", a cover letter after the resume" if cover else ""
        return xelatex(article_source(person, long, cover), out, stem), set(), note

    return produce


producer(
    "latex",
    "latex-article-icons",
    [("en", {}), ("zh", {}), ("en", {}), ("zh", {})],
)(make_article())
producer("latex", "latex-article-long", [("en", {"long": True}), ("zh", {"long": True})])(
    make_article(long=True)
)
producer("latex", "latex-article-cover", [("en", {}), ("zh", {})])(make_article(cover=True))


# ---------------------------------------------------------------- two columns (paracol)


def paracol_source(person: Person) -> str:
    zh = person.lang == "zh"
    side_kinds = {"skills", "awards"}
    side = [s for s in person.sections if s.kind in side_kinds]
    main = [s for s in person.sections if s.kind not in side_kinds]

    def section(s: Section, small: bool) -> list[str]:
        out = [f"\\cvsection{{{tex(s.title)}}}"]
        if s.text:
            out.append(tex(s.text) + "\\par")
        if s.items:
            out.append(itemize(s.items))
        for e in s.entries:
            out.append(f"{{\\bfseries {tex(e.title)}}}\\hfill {{\\small {tex(e.date)}}}\\\\")
            place = f" \\textbullet{{}} {tex(e.place)}" if e.place else ""
            out.append(f"{{\\color{{accent}} {tex(e.org)}}}{place}\\par")
            out.append(itemize(e.bullets) + "\\medskip")
        return out

    lines = [
        "\\documentclass[10pt]{ctexart}" if zh else "\\documentclass[10pt]{article}",
        "\\usepackage[a4paper,margin=1.2cm]{geometry}",
        "\\usepackage{paracol}",
        "\\usepackage{fontawesome5}",
        "\\usepackage{xcolor}",
        "\\usepackage{enumitem}",
        "" if zh else "\\usepackage[default]{sourcesanspro}",
        "\\definecolor{accent}{HTML}{1F5C99}",
        "\\setlist[itemize]{leftmargin=1.1em,itemsep=0pt,topsep=2pt,label={\\color{accent}\\small$\\blacktriangleright$}}",
        "\\newcommand{\\cvsection}[1]{\\medskip{\\large\\bfseries\\color{accent}\\MakeUppercase{#1}}\\\\[-4pt]\\rule{\\linewidth}{0.6pt}\\par}",
        "\\setlength{\\parindent}{0pt}\\pagestyle{empty}",
        "\\columnratio{0.33}\\setlength{\\columnsep}{1.5em}",
        "\\usepackage{amssymb}",
        "\\begin{document}",
        "\\begin{paracol}{2}",
        f"{{\\huge\\bfseries {tex(person.name)}}}\\par\\smallskip",
        f"{{\\color{{accent}} {tex(person.headline)}}}\\par\\medskip",
        f"\\faEnvelope\\ {tex(person.email)}\\par",
        f"\\faPhone\\ {tex(person.phone)}\\par",
        f"\\faMapMarker*\\ {tex(person.location)}\\par",
        f"\\faGithub\\ {tex(person.website)}\\par",
    ]
    for s in side:
        lines += section(s, True)
    lines.append("\\switchcolumn")
    for s in main:
        lines += section(s, False)
    lines += ["\\end{paracol}", "\\end{document}\n"]
    return "\n".join(lines)


@producer("latex", "latex-paracol", [("en", {}), ("zh", {}), ("en", {}), ("zh", {})])
def produce_paracol(person: Person, out: Path, stem: str, lang: str):
    # the sidebar holds skills and awards: label the sections in their reading order
    order = {"skills": 0, "awards": 0}
    person.sections.sort(key=lambda s: order.get(s.kind, 1))
    return xelatex(paracol_source(person), out, stem), set(), "two columns (paracol): a sidebar"


# ---------------------------------------------------------------- poor man's bold


def fakebold_source(person: Person) -> str:
    """The article resume with amsmath's ``\\pmb`` ("poor man's bold": the text drawn three
    times, slightly offset) for the name, the section titles and the employers, as people
    write when their CJK font has no bold: the text layer holds every glyph three times."""
    source = article_source(person, long=False, cover=False)
    name = tex(person.name)
    replaced = (
        source.replace(
            "\\usepackage{fontawesome5}", "\\usepackage{amsmath}\n\\usepackage{fontawesome5}"
        )
        .replace(
            "{\\large\\bfseries\\color{teal}}{}{0pt}{}", "{\\large\\color{teal}}{}{0pt}{\\pmb}"
        )
        .replace(f"{{\\LARGE\\bfseries {name}}}", f"{{\\LARGE\\pmb{{{name}}}}}")
        .replace("\\textbf{", "\\pmb{")
    )
    assert replaced.count("\\pmb") >= 3, "the article template changed"
    return replaced


@producer("latex", "latex-fakebold", [("zh", {}), ("zh", {}), ("en", {}), ("zh", {})])
def produce_fakebold(person: Person, out: Path, stem: str, lang: str):
    note = "\\pmb fake bold (each glyph drawn three times) on the name, titles and employers"
    return xelatex(fakebold_source(person), out, stem), set(), note
