"""Regenerate the small PDFs that tests/formats/test_pdf_layout.py reads (invented people).

    python tests/formats/pdf_layouts/make_pdfs.py [NAME ...]

typst (a test dependency) makes most of them; the TeX one needs pdflatex (TeX Live with
fontawesome5), the Word-habits one LibreOffice (soffice); each is skipped when its tool is
missing.  CI uses the committed files.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent

PREAMBLE = """#set page(paper: "a4", margin: 1.8cm)
#set text(font: ("Noto Sans", "Noto Sans SC"), size: 10pt)
#let head(t) = block(above: 1.1em, below: 0.5em, text(size: 12pt, weight: "bold", upper(t)))
"""

TYPST = {
    # One column; dates and places pushed to the right margin of entry rows, a role in
    # italics under the company with its own date; long bullets run the full width.
    "right_aligned": PREAMBLE
    + r"""
#text(size: 22pt, weight: "bold")[Marisol Quennell]

marisol.quennell\@example.com · +1 555-010-4411 · Tacoma, WA
#head[Experience]
*Northwind Freight* #h(1fr) Seattle, WA \
_Senior Data Engineer_ #h(1fr) 2004 – 2005
- Rebuilt the nightly settlement pipeline in Spark so that the finance team received reconciled ledgers four hours earlier every day.
- Led three engineers through the migration of 140 Airflow jobs.

*Harbor Analytics* #h(1fr) Portland, OR \
_Data Analyst_ #h(1fr) 2001 – 2004
- Wrote the churn dashboards that the account managers used in every quarterly business review with customers.
#head[Education]
*B.Sc. Statistics, Evergreen State University* #h(1fr) 1997 – 2001
""",
    # Two pages, a running header and a footer with page numbers on each.
    "running_footer": PREAMBLE.replace(
        "margin: 1.8cm)",
        "margin: 2.2cm, header: align(right, text(size: 8pt)[Tobias Wrenfield — Curriculum Vitae]), "
        'footer: context align(center, text(size: 8pt)[Tobias Wrenfield · Page #counter(page).display("1 of 1", both: true)]))',
    )
    + r"""
#text(size: 22pt, weight: "bold")[Tobias Wrenfield]

tobias.wrenfield\@example.com · +44 7700 900123
#head[Experience]
"""
    + "\n".join(
        f"*Consultant {i}, Kestrel Partners* #h(1fr) {2000 + i} – {2001 + i}\n"
        f"- Advised {i + 3} clients on warehouse consolidation and cut their storage costs by {10 + i}%.\n"
        f"- Wrote the quarterly risk review read by the board for project number {i}.\n"
        for i in range(1, 15)
    )
    + r"""
#head[Education]
*M.A. Economics, Ashdown College* #h(1fr) 1996 – 1999
""",
    # A resume page, then a cover letter on page 2.
    "cover_letter": PREAMBLE
    + r"""
#text(size: 22pt, weight: "bold")[Priya Castellane]

priya.castellane\@example.com · +1 555-010-9090
#head[Experience]
*Product Manager, Lindenfeld Software* #h(1fr) 2019 – Present
- Launched the billing portal used by 2,400 customers.
#head[Education]
*B.A. Design, Marlow University* #h(1fr) 2015 – 2019
#pagebreak()
Priya Castellane \
12 Orchard Lane, Springfield

Dear Hiring Manager,

I am writing to apply for the Senior Product Manager role at your company. Over the past five years I have launched billing and onboarding products that customers rely on every day.

I would welcome the chance to talk about how I could help your team.

Sincerely, \
Priya Castellane
""",
    # CJK fake bold (each glyph stamped three times), a CJK paragraph that wraps.
    "fake_bold_cjk": PREAMBLE
    + r"""
#let fake(t) = box[#place(dx: 0.25pt)[#t]#place(dx: 0.5pt)[#t]#t]
#text(size: 22pt)[#fake[林雨桐]]

邮箱：linyutong\@example.com ｜ 电话：138-0013-5566
#head[工作经历]
#fake[职位]：全栈开发工程师 #h(1fr) 2020.07 - 至今
- 负责公司核心交易系统的全栈开发工作，设计并实现订单、支付、库存三个后端服务与配套的管理后台前端页面，日均处理订单二十万笔。
#head[教育背景]
#fake[学位]：计算机科学与技术 本科 #h(1fr) 2016.09 - 2020.06
""",
    # Icons from an icon font in the contact line; bullets drawn as vector shapes; nested
    # dash bullets.
    "icons_shapes": PREAMBLE
    + r"""
#let fa(c) = text(font: "Font Awesome 7 Free", weight: "bold")[#c]
#let fab(c) = text(font: "Font Awesome 7 Brands")[#c]
#set list(marker: (box(height: 0.65em, align(horizon, circle(radius: 1.6pt, fill: black))), [–]))
#text(size: 22pt, weight: "bold")[Okonkwo Adeyemi-Hart]

#fa("\u{f0e0}") okonkwo.ah\@example.com #h(1.5em) #fa("\u{f095}") +1 555-010-7788 #h(1.5em) #fab("\u{f09b}") github.com/oah-example #h(1.5em) #fa("\u{e00d}") Lagos
#head[Projects]
*Routeplanner* #h(1fr) 2022
- Wrote a bus route planner for the city of Lagos in Rust.
  - Served 40,000 requests a day.
  - Cached timetables in Redis.
- Published the timetable importer as open source.
#head[Skills]
- Rust, Go, PostgreSQL
""",
    # A name next to an e-mail on its row; a document title above it; a subtitle; a table.
    "name_row_table": PREAMBLE
    + r"""
#align(center, text(size: 26pt, weight: "bold")[RESUME])
#grid(columns: (1fr, auto), text(size: 20pt, weight: "bold")[Henrietta Vasquez-Lowe], align(right + bottom)[henrietta.vl\@example.com])
#text(size: 13pt, weight: "bold")[Senior Backend Engineer]

+1 555-010-3030 · Austin, TX
#head[Experience]
*Backend Engineer, Pecan Street Labs* #h(1fr) 2018 – Present
- Designed the metering API that 60 utilities call.
#head[Skills]
#table(columns: 3, stroke: none, [Language], [Level], [Years], [Go], [Expert], [7], [Python], [Advanced], [9])
""",
    # The name only in the cells of a details table (no colon), under a document title.
    "name_table_zh": PREAMBLE
    + r"""
#align(center, text(size: 20pt, weight: "bold")[个人简历])
#table(columns: 4, [姓名], [邓思远], [电话], [139-0013-7788], [邮箱], [dengsiyuan\@example.com], [城市], [南京])
#head[工作经历]
*南京某某软件有限公司 — 测试工程师* #h(1fr) 2021.03 - 至今
- 搭建接口自动化测试平台，回归时间从 2 天缩短到 3 小时。
""",
    # The name only in a 姓名 field, with a document title.
    "name_field_zh": PREAMBLE
    + r"""
#align(center, text(size: 20pt, weight: "bold")[个人简历])
#grid(columns: (1fr, 1fr), row-gutter: 0.8em, [姓名：韩嘉怡], [性别：女], [电话：139-0013-2468], [邮箱：hanjiayi\@example.com])
#head[教育背景]
*复旦大学 — 统计学 硕士* #h(1fr) 2019.09 - 2022.06
#head[工作经历]
*上海某某金融科技有限公司 — 数据分析师* #h(1fr) 2022.07 - 至今
- 搭建风控指标体系，坏账率下降 1.2 个百分点。
""",
}

# pdfTeX draws no space glyphs: a justified, hyphenated paragraph tests word gaps and
# re-joined words; fontawesome5 icons sit in the contact line.
TEX = {
    # moderncv: dates in a narrow left column, FontAwesome circles as list markers, cvitem rows.
    "moderncv_tex": r"""
\documentclass[11pt,a4paper,sans]{moderncv}
\moderncvstyle{classic}
\moderncvcolor{blue}
\usepackage[scale=0.77]{geometry}
\name{Cordelia}{Ashworth-Bligh}
\title{Resume}
\email{cordelia.ab@example.com}
\phone[mobile]{+44~7700~900456}
\social[github]{cab-example}
\begin{document}
\makecvtitle
\section{Experience}
\cventry{2019--Present}{Lead Data Scientist}{Marlowe Insurance}{London}{}{%
\begin{itemize}
\item Built the pricing model used for 1.2 million policies, lifting margin by 3 points.
\item Managed a team of five data scientists and two analysts.
\end{itemize}}
\cventry{2015--2019}{Data Scientist}{Brackenridge Bank}{Leeds}{}{Wrote the fraud scoring
service that screens every card payment in real time, cutting losses by a third over two years.}
\section{Education}
\cventry{2011--2015}{PhD Statistics}{University of Durham}{Durham}{}{}
\section{Skills}
\cvitem{Languages}{Python, R, SQL}
\cvitem{Tools}{Spark, Airflow, dbt}
\end{document}
""",
    # moderncv "fancy": section titles and dates flush right in a margin column, the
    # address printed beside the big name.
    "moderncv_fancy_tex": r"""
\documentclass[11pt,a4paper,sans]{moderncv}
\moderncvstyle{fancy}
\moderncvcolor{blue}
\usepackage[scale=0.77]{geometry}
\name{Wilhelmina}{Oyelaran}
\title{Platform Engineer}
\address{Leeds}{}{}
\email{wilhelmina.oyelaran@example.com}
\phone[mobile]{+44~7700~900789}
\begin{document}
\makecvtitle
\section{Experience}
\cventry{2020--Present}{Platform Engineer}{Harrowfield Bank}{Leeds}{}{%
\begin{itemize}
\item Ran the Kubernetes platform for 300 services across three regions.
\item Cut build times from 25 to 6 minutes with remote caching.
\end{itemize}}
\section{Education}
\cventry{2012--2016}{B.Eng. Computing}{University of Sheffield}{Sheffield}{}{}
\section{Skills}
\cvitem{Cloud}{Kubernetes, Terraform, AWS}
\end{document}
""",
    # A real two-column page (paracol): a sidebar of short lines beside the entries.
    "paracol_tex": r"""
\documentclass[10pt]{article}
\usepackage[margin=1.5cm]{geometry}
\usepackage{paracol}
\pagestyle{empty}
\setlength{\parindent}{0pt}
\begin{document}
{\Huge\bfseries Bartholomew Okafor}\\[3pt]
bart.okafor@example.com \quad +1 555-010-8181 \quad Chicago, IL
\columnratio{0.32}
\begin{paracol}{2}
\section*{Skills}
Python\\ Kubernetes\\ Terraform\\ PostgreSQL\\ Go
\section*{Languages}
English\\ Igbo\\ French
\section*{Education}
\textbf{B.Sc. Computer Science}\\ Northbrook University\\ 2010 -- 2014
\switchcolumn
\section*{Experience}
\textbf{Staff Engineer, Lakeshore Logistics} \hfill 2019 -- Present
\begin{itemize}
\item Designed the routing service that plans 30,000 deliveries a day across the Midwest region.
\item Led the migration of 80 services to Kubernetes with zero customer-facing downtime.
\end{itemize}
\textbf{Senior Engineer, Prairie Payments} \hfill 2014 -- 2019
\begin{itemize}
\item Built the settlement pipeline processing two billion dollars a year for merchants.
\item Mentored eight engineers, four of whom became team leads.
\end{itemize}
\section*{Projects}
\textbf{Routekit} \hfill 2021\\
An open-source library for vehicle routing problems, used by a dozen logistics startups.
\end{paracol}
\end{document}
""",
    "justified_tex": r"""
\documentclass[10pt]{article}
\usepackage[margin=2.4cm]{geometry}
\usepackage{fontawesome5}
\pagestyle{empty}
\begin{document}
{\LARGE\bfseries Augustin Pellegrino}\\[4pt]
\faEnvelope\ augustin.pellegrino@example.com \quad \faPhone\ +1 555-010-6262 \quad \faGithub\ github.com/apellegrino-example \quad \faHome\ Turin

\section*{Summary}
Site reliability engineer who keeps large fleets of services healthy: capacity planning,
infrastructure operations, and security reviews for payment systems, with on-call
leadership for a team of eight engineers across three time zones and a record of
reducing incident counts year over year through better observability and automation.

\section*{Projects}
\parbox{7.5cm}{Maintainer of an observability toolkit that correlates infrastructure telemetry
with deployment histories, documentation included, for organisations standardising their
monitoring.}

\section*{Experience}
\textbf{Site Reliability Engineer, Gondolier Payments} \hfill 2017 -- 2024
\begin{itemize}
\item Automated the provisioning of 1,200 hosts with Terraform and Ansible, halving infrastructure operations toil for the platform organisation.
\item Introduced quarterly game days; mean time to recovery fell from 48 to 12 minutes.
\end{itemize}
\end{document}
""",
}


def _word_habits_docx() -> bytes:
    """A DOCX typed the way Word users do: Symbol-font bullets after a tab, a right tab stop
    for the dates, a running header, a footer with the page number, two pages."""
    import io

    import docx
    from docx.enum.text import WD_TAB_ALIGNMENT
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn
    from docx.shared import Pt

    d = docx.Document()
    section = d.sections[0]
    section.header.paragraphs[0].text = "Ingrid Solvang — Resume"
    footer = section.footer.paragraphs[0]
    footer.add_run("Page ")
    field = OxmlElement("w:fldSimple")
    field.set(qn("w:instr"), "PAGE")
    footer._p.append(field)
    width = section.page_width - section.left_margin - section.right_margin

    def para(text: str, bold: bool = False, size: float = 11):
        p = d.add_paragraph()
        run = p.add_run(text)
        run.bold, run.font.size = bold, Pt(size)
        return p

    def bullet(text: str) -> None:
        p = d.add_paragraph()
        p.paragraph_format.left_indent, p.paragraph_format.first_line_indent = Pt(18), Pt(-18)
        p.add_run("\uf0b7").font.name = "Symbol"
        p.add_run("\t" + text)

    para("Ingrid Solvang", True, 20)
    para("ingrid.solvang@example.com | +47 555 01 234 | Bergen")
    para("Experience", True, 14)
    for year in range(2019, 2009, -1):
        entry = para(f"Hydrographic Analyst, Fjordline Survey {year}", True)
        entry.paragraph_format.tab_stops.add_tab_stop(width, WD_TAB_ALIGNMENT.RIGHT)
        entry.add_run(f"\tMar {year} – Feb {year + 1}")
        bullet(
            f"Processed multibeam sonar data for {year - 1990} harbour surveys, cutting turnaround from 10 to 4 days."
        )
        bullet("Trained six junior analysts on the QA workflow.")
    para("Education", True, 14)
    para("M.Sc. Marine Geology, University of Tromsø", True)
    out = io.BytesIO()
    d.save(out)
    return out.getvalue()


def _ruled_form_docx(zh: bool) -> bytes:
    """A form as Word templates lay it out: a document title over a ruled details table of
    label/value cells, three pairs a row in narrow columns, so that long names, labels and
    e-mail addresses wrap inside their cells (across up to five lines), then one entry."""
    import io

    import docx
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn
    from docx.shared import Cm, Pt

    d = docx.Document()
    style = d.styles["Normal"]
    style.font.size = Pt(10)
    if zh:
        style.element.get_or_add_rPr().get_or_add_rFonts().set(qn("w:eastAsia"), "Noto Sans CJK SC")
    title = d.add_paragraph()
    title.alignment = 1
    run = title.add_run("个人简历" if zh else "Résumé")
    run.bold, run.font.size = True, Pt(20)
    rows = (
        [
            (
                "姓　　名",
                "欧阳明轩",
                "电　　话",
                "139-0000-5922",
                "邮　　箱",
                "ouyang.mingxuan-dev@example.com",
            ),
            (
                "城　　市",
                "苏州",
                "意　　向",
                "测试开发工程师",
                "主　　页",
                "github.com/mingxuan83-example",
            ),
        ]
        if zh
        else [
            (
                "Name",
                "Anna-Lena Whitcombe-Farraday",
                "Phone",
                "(720) 555-0112",
                "Email",
                "anna-lena.whitcombe-farraday@example.org",
            ),
            (
                "Contact",
                "Jean-Baptiste Okonkwo-Lindqvist",
                "City",
                "Edinburgh, UK",
                "Web",
                "github.com/anselmwhi-example",
            ),
        ]
    )
    table = d.add_table(rows=len(rows), cols=6)
    table.style = "Table Grid"
    for r, values in enumerate(rows):
        for c, value in enumerate(values):
            cell = table.rows[r].cells[c]
            cell.width = Cm(1.2 if c % 2 == 0 else 2.6)
            cell.paragraphs[0].add_run(value).bold = c % 2 == 0
            if c % 2 == 0:
                shading = OxmlElement("w:shd")
                shading.set(qn("w:val"), "clear")
                shading.set(qn("w:fill"), "DEEAF6")
                cell._tc.get_or_add_tcPr().append(shading)
    d.add_paragraph().add_run("工作经历" if zh else "Experience").bold = True
    d.add_paragraph().add_run(
        "拓云软件股份有限公司　测试开发工程师" if zh else "Marrow & Finch LLP, Data Analyst"
    ).bold = True
    d.add_paragraph(
        "搭建接口自动化测试平台，回归时间从 2 天缩短到 3 小时。"
        if zh
        else "Cut the monthly reporting cycle from five days to two."
    )
    out = io.BytesIO()
    d.save(out)
    return out.getvalue()


CHROMIUM_ZH = """<html><head><meta charset="utf-8"><style>
body { font-family: 'Noto Sans CJK SC', sans-serif; font-size: 10.5pt; margin: 1.6cm; }
h1 { font-size: 22pt; margin: 0 } h2 { font-size: 13pt; border-bottom: 1px solid #888 }
</style></head><body>
<h1>宋雨桐</h1>
<p>songyutong@example.com · 138-0000-4127 · 长沙</p>
<h2>工作经历</h2>
<h3>青禾网络科技有限公司 · 前端工程师 · 2022.07 - 至今</h3>
<ul><li>负责用户中心与支付页面的开发，首屏时间从 3.2 秒降到 1.1 秒。</li>
<li>搭建组件库，被 6 个业务团队采用，页面开发效率提升 40%。</li></ul>
<h2>教育经历</h2>
<h3>长江大学 · 软件工程 · 本科 · 2018 - 2022</h3>
<h2>专业技能</h2>
<p>TypeScript、React、Node.js、自动化测试</p>
</body></html>"""


CHROMIUM_ICONS = """<html><head><meta charset="utf-8"><style>
body { font-family: 'Noto Sans', sans-serif; font-size: 10.5pt; margin: 1.6cm; }
h1 { font-size: 22pt; margin: 0 } h2 { font-size: 13pt; text-transform: uppercase }
</style></head><body>
<h1>Orla Penhallow</h1>
<p>&#xf0e0; orla.penhallow@example.com &nbsp; &#xf095; +1 555 010 7788</p>
<h2>&#xf0b1; Experience</h2>
<h3>Saltmarsh Analytics — Data Engineer (2021 – 2025)</h3>
<ul><li>Moved 40 nightly jobs to streaming, so dashboards refresh every 5 minutes.</li>
<li>Wrote the runbook for the warehouse failover.</li></ul>
<h2>&#xf19d; Education</h2>
<h3>Kestrel University — B.Sc. Computer Science (2021)</h3>
<h2>&#xf0ad; Skills</h2>
<ul><li>Python, SQL, Airflow</li></ul>
</body></html>"""


CHROMIUM_SIDEBAR = """<html><head><meta charset="utf-8"><style>
body { font-family: 'Noto Sans', sans-serif; font-size: 10pt; margin: 1.2cm; line-height: 1.3 }
.g { display: grid; grid-template-columns: 30% 1fr; gap: 18px } .side { background: #eef2f6; padding: 8px }
h1 { font-size: 22pt; margin: 0 0 8px } h2 { font-size: 12pt; margin: 10px 0 4px; text-transform: uppercase }
h3 { font-size: 10.5pt; margin: 6px 0 1px } ul { margin: 2px 0 6px 16px; padding: 0 } p { margin: 3px 0 }
</style></head><body>
<h1>Ines Vaskelund</h1>
<p><b>Email:</b> ines.vaskelund@example.com<br><b>Phone:</b> +1 555 010 3391</p>
<div class="g"><div class="side">
<h2>Languages</h2><p>Norwegian (native), English (C1)</p>
</div><div>
<h2>Profile</h2><p>QA engineer with an eye for flaky tests.</p>
<h2>Experience</h2>
<h3>Fjellsted Software — QA Engineer (2020 – 2024)</h3>
<ul><li>Automated 300 regression cases with Playwright, saving 2 days per release.</li>
<li>Triaged the bugs customers reported and wrote the repro steps.</li></ul>
<h3>Nordvik Data — Test Analyst (2018 – 2020)</h3>
<ul><li>Wrote the first smoke suite for the billing API.</li></ul>
<h2>Education</h2><p>B.Sc. Computer Science, Tromsdal University, 2020</p>
<h2>Skills</h2><p>Playwright, Selenium, Postman, SQL</p>
</div></div></body></html>"""


def _chromium(name: str, html: str) -> None:
    """Print ``html`` with headless Chromium: with Noto Sans CJK, its PDF's text layer
    gives many ideographs as the Kangxi radicals that share their glyphs (工 as ⼯)."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        print(f"skipped {name}: no Chromium", file=sys.stderr)
        return
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / f"{name}.html").write_text(html, encoding="utf-8")
        subprocess.run(
            [
                chromium,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-pdf-header-footer",
                f"--print-to-pdf={HERE / f'{name}.pdf'}",
                f"{name}.html",
            ],
            cwd=tmp,
            check=True,
            capture_output=True,
        )


def _libreoffice(name: str, docx_bytes: bytes) -> None:
    soffice = shutil.which("soffice")
    if not soffice:
        print(f"skipped {name}: no LibreOffice (soffice)", file=sys.stderr)
        return
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / f"{name}.docx").write_bytes(docx_bytes)
        subprocess.run(
            [soffice, "--headless", "--convert-to", "pdf", f"{name}.docx"],
            cwd=tmp,
            check=True,
            capture_output=True,
        )
        shutil.copy(Path(tmp) / f"{name}.pdf", HERE / f"{name}.pdf")


def _typst(name: str, source: str) -> None:
    import rendercv_fonts
    import typst

    fonts = Path(rendercv_fonts.__file__).parent
    pdf = typst.compile(
        source.encode("utf-8"), font_paths=[str(fonts / "Noto Sans"), str(fonts / "Font Awesome 7")]
    )
    (HERE / f"{name}.pdf").write_bytes(pdf)


def _tex(name: str, source: str) -> None:
    if not shutil.which("pdflatex"):
        print(f"skipped {name}: no pdflatex", file=sys.stderr)
        return
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / f"{name}.tex").write_text(source, encoding="utf-8")
        subprocess.run(
            ["pdflatex", "-interaction=nonstopmode", f"{name}.tex"],
            cwd=tmp,
            check=True,
            capture_output=True,
        )
        shutil.copy(Path(tmp) / f"{name}.pdf", HERE / f"{name}.pdf")


def main(only: list[str]) -> None:
    for name, source in TYPST.items():
        if not only or name in only:
            _typst(name, source)
    for name, source in TEX.items():
        if not only or name in only:
            _tex(name, source)
    if not only or "libreoffice_word" in only:
        _libreoffice("libreoffice_word", _word_habits_docx())
    for name, html in (
        ("chromium_radicals_zh", CHROMIUM_ZH),
        ("chromium_icons", CHROMIUM_ICONS),
        ("chromium_sidebar", CHROMIUM_SIDEBAR),
    ):
        if not only or name in only:
            _chromium(name, html)
    for name, zh in (("ruled_form", False), ("ruled_form_zh", True)):
        if not only or name in only:
            _libreoffice(name, _ruled_form_docx(zh))


if __name__ == "__main__":
    main(sys.argv[1:])  # names of the PDFs to make again; none: all of them
