"""Files as people make them: direct formatting, layout tables, Google Docs HTML, a PDF
from another typesetter with a dates column, plain text; and the inputs that must fail."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from cvagent_cli.document.document import ResumeDocument
from cvagent_cli.errors import InputError
from cvagent_cli.formats.reading.importer import import_bytes, sniff
from tests.support import bad_documents as bad


def _docx_direct_formatting(chinese: bool = False) -> bytes:
    import docx
    from docx.shared import Pt

    d = docx.Document()

    def para(text: str, bold: bool = False, size: float = 11) -> None:
        run = d.add_paragraph().add_run(text)
        run.bold = bold
        run.font.size = Pt(size)

    if chinese:
        para("周雨桐", bold=True, size=18)
        para("邮箱：zhouyutong@example.com | 电话：139-0013-9001 | 杭州")
        para("工作经历", bold=True, size=13)
        para("某某数据科技有限公司 — 数据工程师\t2021.07 - 至今", bold=True)
        para("• 搭建实时数仓，日处理 20 亿条日志，查询耗时降低 60%。")
        para("• 主导 Flink 作业迁移，节省服务器成本 30%。")
        para("教育背景", bold=True, size=13)
        para("浙江工业大学 — 计算机科学 本科\t2017.09 - 2021.06", bold=True)
        para("专业技能", bold=True, size=13)
        para("• Python、SQL、Flink、Spark")
    else:
        para("Tomasz Brightwater", bold=True, size=20)
        para("tomasz.brightwater@example.com | +1 555-010-4242 | Denver, CO")
        para("EXPERIENCE", bold=True, size=13)
        para("Platform Engineer, Quillfeather Labs\tMar 2020 – Present", bold=True)
        para("• Cut cloud spend by 31% by rightsizing 240 instances.")
        para("• Built a deploy pipeline used by 18 teams.")
        para("EDUCATION", bold=True, size=13)
        para("B.S. Computer Science, Front Range University\t2014 – 2018", bold=True)
        para("SKILLS", bold=True, size=13)
        para("• Go, Python, Terraform, Kubernetes")
    out = io.BytesIO()
    d.save(out)
    return out.getvalue()


def _docx_two_column_table() -> bytes:
    import docx

    d = docx.Document()
    table = d.add_table(rows=1, cols=2)
    left, right = table.rows[0].cells
    left.paragraphs[0].add_run("Odalys Fennimore").bold = True
    left.add_paragraph("odalys.fennimore@example.com")
    left.add_paragraph("+1 555-010-7311")
    left.add_paragraph().add_run("Skills").bold = True
    left.add_paragraph("SQL, dbt, Looker", style="List Bullet")
    right.paragraphs[0].add_run("Experience").bold = True
    right.add_paragraph().add_run("Analytics Engineer — Harrowgate Foods").bold = True
    right.add_paragraph("Jan 2021 – Present")
    right.add_paragraph("Modelled 140 dbt sources into 12 marts.", style="List Bullet")
    right.add_paragraph("Cut dashboard load time from 20 s to 3 s.", style="List Bullet")
    right.add_paragraph().add_run("Education").bold = True
    right.add_paragraph().add_run("B.A. Economics — Lakeshore College").bold = True
    out = io.BytesIO()
    d.save(out)
    return out.getvalue()


GOOGLE_DOCS_HTML = """<html><head><meta content="text/html; charset=UTF-8"><style>.c1{color:#000}</style></head>
<body class="c5 doc-content"><p class="c3"><span style="font-weight:700;font-size:20pt">Ines Valderrama</span></p>
<p class="c3"><span class="c1">ines.valderrama@example.com | +1 555-010-8080 | </span><span><a href="https://www.linkedin.com/in/ines-valderrama-example">LinkedIn</a></span></p>
<p class="c3"><span style="font-weight:700;font-size:13pt">Experience</span></p>
<p class="c3"><span style="font-weight:700">Support Lead, Marrowbone Software</span><span> &mdash; Feb 2019 &ndash; Present</span></p>
<ul class="c2 lst-kix_1-0 start"><li class="c0"><span>Reduced first-response time from 9 h to 2 h for 4,000 tickets a month.</span></li>
<li class="c0"><span>Wrote 120 help-centre articles; deflected 18% of tickets.</span></li></ul>
<p class="c3"><span style="font-weight:700;font-size:13pt">Education</span></p>
<p class="c3"><span>B.A. Communication, Elmstead University, 2015</span></p>
<p class="c3"><span style="font-weight:700;font-size:13pt">Skills</span></p>
<table><tr><td><span>Tools</span></td><td><span>Zendesk, SQL</span></td></tr><tr><td><span>Languages</span></td><td><span>English, Spanish</span></td></tr></table>
</body></html>"""

PLAIN_TEXT_ZH = """吴思琪
电话：137-0013-7002 | 邮箱：wusiqi@example.com | 深圳

工作经历
深圳某某科技有限公司 产品经理  2020.03 - 至今
• 负责会员体系改版，付费转化率提升 12%。
• 推动 A/B 实验平台落地，每月上线 30+ 实验。

教育背景
中山大学 信息管理 本科  2016.09 - 2020.06

专业技能
• Axure、SQL、Figma
"""

PLAIN_TEXT_EN = """Rowan Ashcombe
rowan.ashcombe@example.com | +1 555-010-3131

SUMMARY
Backend developer with 6 years of Java and Kotlin.

EXPERIENCE
Senior Developer, Pinecrest Bank  2019 - Present
* Moved 30 batch jobs to event streams, cutting settlement time
  from 6 hours to 20 minutes.
* Mentored 4 developers.

EDUCATION
B.Sc. Computing, Northmoor University, 2013 - 2017
"""

# A "moderncv" look written directly in typst: small-caps section titles, the dates in a
# narrow left column, the entry on the right.
MODERNCV_TYP = r"""
#set page(paper: "a4", margin: 2cm)
#set text(font: "Noto Sans", size: 10pt)
#let section(t) = block(above: 1.2em, below: 0.6em, text(size: 13pt, smallcaps(t)))
#let entry(d, body) = grid(columns: (3.2cm, 1fr), column-gutter: 0.6cm, align(right, d), body)
#text(size: 24pt)[Leopold Marchbanks] \
leopold.marchbanks\@example.com · +1 555-010-2727 · github.com/lmarchbanks-example
#section[Experience]
#entry[2021 – 2024][*Data Engineer, Saltmarsh Analytics* \ Built 40 Airflow pipelines feeding the finance warehouse.]
#entry[2018 – 2021][*Junior Analyst, Coldharbour Insurance* \ Automated 12 weekly reports in Python.]
#section[Education]
#entry[2014 – 2018][*B.Sc. Mathematics, Wrenfield University*]
#section[Skills]
Python, SQL, Airflow, Spark
"""


def _typst_pdf(markup: str) -> bytes:
    import typst

    from cvagent_cli.formats.writing.pdf_export import font_dir

    return typst.compile(markup.encode("utf-8"), font_paths=[str(font_dir())])


def _sections(markdown: str) -> list[str]:
    doc = ResumeDocument.from_text(markdown)
    return [s.kind for s in doc.sections if s.heading_line and s.level == 2]


def test_docx_with_direct_formatting_only() -> None:
    result = import_bytes(_docx_direct_formatting(), "direct.docx", ".docx")
    md = result.markdown
    assert md.startswith("# Tomasz Brightwater\n")
    assert "## EXPERIENCE" in md and "## EDUCATION" in md and "## SKILLS" in md
    assert "### Platform Engineer, Quillfeather Labs\nMar 2020 – Present" in md
    assert "- Cut cloud spend by 31% by rightsizing 240 instances." in md
    assert result.bullets == 3
    assert {"name", "email", "phone"} <= set(result.contacts)


def test_chinese_docx_with_direct_formatting_only() -> None:
    result = import_bytes(_docx_direct_formatting(chinese=True), "zh.docx", ".docx")
    assert result.markdown.startswith("# 周雨桐\n")
    assert result.sections == ["工作经历", "教育背景", "专业技能"]
    assert "### 某某数据科技有限公司 — 数据工程师\n2021.07 - 至今" in result.markdown
    assert result.bullets == 3
    assert {"name", "email", "phone"} <= set(result.contacts)


def test_docx_laid_out_in_a_two_column_table() -> None:
    result = import_bytes(_docx_two_column_table(), "table.docx", ".docx")
    assert result.sections == ["Skills", "Experience", "Education"]
    assert result.markdown.startswith("# Odalys Fennimore\n")
    assert "- Modelled 140 dbt sources into 12 marts." in result.markdown
    assert any("layout table" in n for n in result.notes)
    assert {"name", "email", "phone"} <= set(result.contacts)


def test_google_docs_html_with_inline_styles() -> None:
    result = import_bytes(GOOGLE_DOCS_HTML.encode(), "gdocs.html", ".html")
    md = result.markdown
    assert md.startswith("# Ines Valderrama\n")
    assert result.sections == ["Experience", "Education", "Skills"]
    assert "### Support Lead, Marrowbone Software" in md
    assert result.bullets == 2
    assert "| Tools | Zendesk, SQL |" in md
    assert result.contacts.get("linkedin", "").endswith("linkedin.com/in/ines-valderrama-example")


HIDDEN_HTML = """<html><body>
<h1>Ana Ruiz</h1><p>ana@example.com</p>
<!-- recruiter note: COMMENTED -->
<div style="display:none">STYLED-NONE kubernetes kubernetes kubernetes</div>
<div hidden><p>HIDDEN-ATTR<p>HIDDEN-UNCLOSED-P</div>
<template><p>IN-TEMPLATE</p></template>
<span style="Visibility : hidden">INVISIBLE</span>
<h2>Experience</h2>
<ul><li>Built the API <span style="display: none">IN-A-BULLET<br></span>for 20 teams</li></ul>
<p>Shown after the hidden ones</p>
</body></html>"""


def test_html_import_leaves_out_what_a_browser_does_not_show() -> None:
    """Hidden text (keyword stuffing, notes) is not part of the resume."""
    md = import_bytes(HIDDEN_HTML.encode(), "cv.html", ".html").markdown
    for hidden in ("COMMENTED", "STYLED-NONE", "HIDDEN-", "IN-TEMPLATE", "INVISIBLE", "IN-A-"):
        assert hidden not in md
    assert "- Built the API for 20 teams" in md and "Shown after the hidden ones" in md


@pytest.mark.parametrize(
    ("text", "sections", "bullets", "entries"),
    [
        (PLAIN_TEXT_EN, ["summary", "experience", "education"], 2, 1),
        (PLAIN_TEXT_ZH, ["experience", "education", "skills"], 3, 2),
    ],
    ids=["en", "zh"],
)
def test_plain_text_resume(text: str, sections: list[str], bullets: int, entries: int) -> None:
    result = import_bytes(text.encode("utf-8"), "cv.txt", ".txt")
    assert _sections(result.markdown) == sections
    assert result.bullets == bullets
    assert result.entries == entries  # "Title  2019 - Present": a date after a wide gap
    assert "name" in result.contacts and "phone" in result.contacts


def test_plain_text_wrapped_bullet_is_joined() -> None:
    md = import_bytes(PLAIN_TEXT_EN.encode(), "cv.txt", ".txt").markdown
    assert (
        "- Moved 30 batch jobs to event streams, cutting settlement time from 6 hours to 20 minutes."
        in md
    )


def test_gb18030_text_is_decoded_by_the_resume_reader() -> None:
    result = import_bytes(PLAIN_TEXT_ZH.encode("gb18030"), "cv.txt", ".txt")
    assert "## 工作经历" in result.markdown


def test_pdf_from_another_typesetter_with_a_dates_column() -> None:
    result = import_bytes(_typst_pdf(MODERNCV_TYP), "moderncv.pdf", ".pdf")
    md = result.markdown
    assert md.startswith("# Leopold Marchbanks\n")
    assert result.sections == ["Experience", "Education", "Skills"]
    assert "### Data Engineer, Saltmarsh Analytics" in md
    # the date from the left column lands with its entry, not in a heap at the top
    assert md.index("2021 – 2024") > md.index("## Experience")
    assert "email" in result.contacts and "github" in result.contacts


def test_scanned_pdf_has_no_text_layer() -> None:
    pdf = _typst_pdf(
        "#set page(width: 10cm, height: 5cm)\n#rect(width: 5cm, height: 2cm, fill: gray)\n"
    )
    with pytest.raises(InputError, match="has no text layer"):
        import_bytes(pdf, "scan.pdf", ".pdf")


@pytest.mark.parametrize(
    ("data", "suffix", "message"),
    [
        (b"", ".pdf", "is empty"),
        (b"   \n", ".txt", "is empty"),
        # what the damage means, not pdfminer's "(PdfminerException)"
        (b"%PDF-1.7\n garbage", ".pdf", r"not a readable PDF file \(damaged or cut short\) \(open"),
        (b"PK\x03\x04 not really a zip", ".docx", "not a readable DOCX"),
        (b"hello", ".odt", "cannot import '.odt'"),
        (b"hello", ".doc", "legacy Word"),
        (b"just text", ".pdf", "not a readable PDF"),
    ],
)
def test_bad_inputs_are_one_clear_input_error(data: bytes, suffix: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        import_bytes(data, f"bad{suffix}", suffix)


@pytest.mark.parametrize("suffix", [".docx", ".txt", ".json"])
def test_a_pdf_under_another_name_is_read_as_a_pdf_and_said_so(suffix: str) -> None:
    """A PDF named .docx was "not a ZIP archive" with a hint to save it
    as PDF."""
    pdf = _typst_pdf("#set page(width: 12cm, height: 6cm)\n= Ines Calloway\nines\\@example.com\n")
    result = import_bytes(pdf, f"cv{suffix}", suffix)
    assert result.format == "pdf" and result.markdown.startswith("# Ines Calloway")
    assert f"a PDF file named {suffix}: read as PDF" in result.notes


def test_a_contact_line_wrapped_by_the_page_is_one_line_with_no_dangling_separator() -> None:
    """LibreOffice wraps a long contact line after a "·", and the import
    left that "·" at a line's end."""
    pdf = _typst_pdf(
        "#set page(width: 16cm, height: 10cm)\n#text(size: 20pt)[*Maya Cohen*]\n\n"
        "maya.cohen\\@example.com · +1 555 010 2030 · Tel Aviv, Israel ·\\\n"
        "linkedin.com/in/maya-cohen-example · github.com/mayacohen-example ·\\\n"
        "mayacohen.example.dev\n\n#text(size: 14pt)[*Experience*]\n\n"
        "- Built the billing API used by 40 teams\n"
    )
    markdown = import_bytes(pdf, "cv.pdf", ".pdf").markdown
    assert (
        "maya.cohen@example.com · +1 555 010 2030 · Tel Aviv, Israel · "
        "linkedin.com/in/maya-cohen-example · github.com/mayacohen-example · "
        "mayacohen.example.dev\n" in markdown
    )
    assert not any(line.rstrip().endswith("·") for line in markdown.splitlines())


def test_encrypted_pdf_is_a_clear_error() -> None:
    with pytest.raises(InputError, match="encrypted"):
        import_bytes(bad.encrypted_pdf(), "locked.pdf", ".pdf")


SIDEBAR_TYP = r"""
#set page(paper: "a4", margin: 1.5cm)
#set text(font: ("Noto Sans", "Noto Sans SC"), size: 10pt)
#let head(t) = block(above: 1em, below: 0.5em, text(size: 12pt, weight: "bold", upper(t)))
#grid(columns: (5cm, 1fr), column-gutter: 1cm,
[
  #text(size: 18pt, weight: "bold")[Saoirse Delacroix-Amani]

  saoirse.da\@example.com   +1 555-010-6464   Portland, OR

  #head[Skills]
  - Kotlin, Swift
  - Figma
  #head[Languages]
  - English, French
],
[
  #head[Experience]
  *Mobile Engineer, Fernhill Health*   Apr 2020 – Present
  - Shipped offline sync to 300,000 patients; crash rate down from 2.1% to 0.3%.
  - Cut app start-up time from 3.4 s to 1.1 s on low-end Android phones.
  #head[Education]
  *B.S. Software Engineering, Cascadia Tech*   2012 – 2016
])
"""

ZH_TYP = r"""
#set page(paper: "a4", margin: 1.8cm)
#set text(font: ("Noto Sans", "Noto Sans SC"), size: 10.5pt)
#align(center, text(size: 22pt, weight: "bold")[孙明哲])
#align(center)[电话：138-0013-8123 ｜ 邮箱：sunmingzhe\@example.com ｜ 广州]
#let head(t) = block(above: 1.1em, below: 0.5em)[#text(size: 13pt, weight: "bold", t) #line(length: 100%)]
#head[教育背景]
*华南理工大学 — 自动化 硕士* #h(1fr) 2019.09 - 2022.06
#head[工作经历]
*广州某某智能科技有限公司 — 算法工程师* #h(1fr) 2022.07 - 至今
- 负责推荐排序模型迭代，点击率提升 8.5%。
- 搭建特征平台，特征上线周期从 5 天缩短到 1 天。
#head[专业技能]
- Python、PyTorch、Spark、SQL
"""


def test_pdf_two_column_sidebar_layout() -> None:
    result = import_bytes(_typst_pdf(SIDEBAR_TYP), "sidebar.pdf", ".pdf")
    assert result.markdown.startswith("# Saoirse Delacroix-Amani\n")
    assert result.sections == ["SKILLS", "LANGUAGES", "EXPERIENCE", "EDUCATION"]
    assert "### Mobile Engineer, Fernhill Health\nApr 2020 – Present" in result.markdown
    assert result.bullets == 5
    assert any("two-column" in n for n in result.notes)
    assert {"name", "email", "phone"} <= set(result.contacts)


def test_chinese_pdf_with_right_aligned_dates() -> None:
    result = import_bytes(_typst_pdf(ZH_TYP), "zh.pdf", ".pdf")
    md = result.markdown
    assert md.startswith("# 孙明哲\n")
    assert result.sections == ["教育背景", "工作经历", "专业技能"]
    assert "### 广州某某智能科技有限公司 — 算法工程师\n2022.07 - 至今" in md
    assert result.bullets == 3
    assert {"name", "email", "phone"} <= set(result.contacts)


@pytest.mark.parametrize(
    ("head", "fmt"),
    [
        (b"%PDF-1.7", "pdf"),
        (b"PK\x03\x04", "docx"),
        (b"<!DOCTYPE html><html>", "html"),
        (b"\xef\xbb\xbf<html>", "html"),
        ("张三\n工作经历".encode(), "text"),
    ],
)
def test_stdin_format_is_sniffed_from_the_bytes(head: bytes, fmt: str) -> None:
    assert sniff(head) == fmt


def _cvagent(*args: str, stdin: bytes = b"", cwd: Path | None = None):
    return subprocess.run(
        [sys.executable, "-m", "cvagent_cli", *args],
        input=stdin,
        capture_output=True,
        cwd=cwd,
    )


@pytest.mark.slow
def test_cli_writes_next_to_the_file_refuses_to_overwrite_and_reports(tmp_path: Path) -> None:
    source = tmp_path / "cv.docx"
    source.write_bytes(_docx_direct_formatting())
    first = _cvagent("import", str(source))
    assert first.returncode == 0, first.stderr
    out = tmp_path / "cv.md"
    assert out.read_text(encoding="utf-8").startswith("# Tomasz Brightwater")
    report = first.stderr.decode()
    assert "sections (3): EXPERIENCE, EDUCATION, SKILLS" in report
    assert "contact: name, email, phone" in report
    out.write_text("keep", encoding="utf-8")
    again = _cvagent("import", str(source))
    assert again.returncode == 2
    assert b"already exists" in again.stderr and b"Traceback" not in again.stderr
    assert out.read_text(encoding="utf-8") == "keep"
    forced = _cvagent("import", str(source), "--force", "-q")
    assert forced.returncode == 0 and forced.stderr == b""
    assert out.read_text(encoding="utf-8").startswith("# Tomasz")


@pytest.mark.slow
def test_cli_stdin_to_stdout(tmp_path: Path) -> None:
    done = _cvagent("import", "-", stdin=GOOGLE_DOCS_HTML.encode())
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode().startswith("# Ines Valderrama\n")
    assert b"(html)" in done.stderr


@pytest.mark.parametrize(
    ("name", "data"),
    [("empty.pdf", b""), ("broken.docx", b"PK\x03\x04xx"), ("cv.xyz", b"text")],
)
@pytest.mark.slow
def test_cli_bad_input_exit_2_one_line_nothing_written(
    tmp_path: Path, name: str, data: bytes
) -> None:
    source = tmp_path / name
    source.write_bytes(data)
    done = _cvagent("import", str(source))
    assert done.returncode == 2
    assert done.stderr.decode().startswith("cvagent: error: ")
    assert b"Traceback" not in done.stderr
    assert not source.with_suffix(".md").exists()


@pytest.mark.parametrize(
    ("module", "suffix", "data", "message"),
    [
        ("pdfplumber", ".pdf", b"%PDF-1.7\n", "PDF import needs pdfplumber"),
        ("docx", ".docx", None, "DOCX import needs python-docx"),
    ],
)
def test_missing_documents_extra_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, module: str, suffix: str, data: bytes | None, message: str
) -> None:
    from cvagent_cli.errors import ConfigError, ExitCode

    payload = data if data is not None else _docx_direct_formatting()
    monkeypatch.setitem(sys.modules, module, None)  # `import module` now raises ImportError
    with pytest.raises(ConfigError, match=message) as caught:
        import_bytes(payload, f"cv{suffix}", suffix)
    from cvagent_cli.install import documents_hint, origin

    # the command for how this copy was installed: the tests run from a checkout
    assert caught.value.hint == documents_hint() and "[documents]" in caught.value.hint
    assert origin().folder is not None and "cvagent[documents]" not in caught.value.hint
    assert caught.value.exit_code == ExitCode.MODEL == 3


def test_pdf_report_names_what_it_left_out() -> None:
    markup = (
        '#set page(paper: "a5", margin: 1.5cm, footer: align(center)[1 / 1])\n'
        '#set text(font: "Noto Sans", size: 10pt)\n'
        "#place(left + horizon, dx: -1.2cm, rotate(-90deg)[CONFIDENTIAL DRAFT])\n"
        "#text(size: 18pt)[Marisol Quennell] \\\n"
        "marisol.quennell\\@example.com\n\n"
        '#text(size: 12pt, weight: "bold")[Experience]\n\n'
        "- Ran 14 supplier audits a year.\n"
    )
    result = import_bytes(_typst_pdf(markup), "draft.pdf", ".pdf")
    assert "CONFIDENTIAL" not in result.markdown and "1 / 1" not in result.markdown
    assert "1 page-number line dropped" in result.notes
    assert any("rotated text (18 characters" in n for n in result.notes)
    assert result.sections == ["Experience"] and result.bullets == 1


@pytest.mark.slow
def test_cli_output_folder_missing_is_one_line_exit_2(tmp_path: Path) -> None:
    source = tmp_path / "cv.html"
    source.write_text(GOOGLE_DOCS_HTML, encoding="utf-8")
    done = _cvagent("import", str(source), "-o", str(tmp_path / "no" / "such" / "cv.md"))
    assert done.returncode == 2
    assert b"does not exist" in done.stderr and b"Traceback" not in done.stderr


def test_a_docx_saved_with_a_txt_name_is_read_as_docx() -> None:
    result = import_bytes(_docx_direct_formatting(), "cv.txt", ".txt")
    assert result.format == "docx"
    assert result.markdown.startswith("# Tomasz Brightwater\n")


def _docx_word_styles_with_hyperlink() -> bytes:
    """Title for the name, Heading 1 for sections, Heading 2 for entries, a numbered
    list, and a hyperlink whose text is not its address."""
    import docx
    from docx.opc.constants import RELATIONSHIP_TYPE
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    d = docx.Document()
    d.add_paragraph("Ilse Marchetti-Vance", style="Title")
    contact = d.add_paragraph("ilse.mv@example.com | +1 555-010-9292 | ")
    rid = d.part.relate_to(
        "https://github.com/ilse-mv-example", RELATIONSHIP_TYPE.HYPERLINK, is_external=True
    )
    link = OxmlElement("w:hyperlink")
    link.set(qn("r:id"), rid)
    run = OxmlElement("w:r")
    text = OxmlElement("w:t")
    text.text = "GitHub"
    run.append(text)
    link.append(run)
    contact._p.append(link)
    d.add_paragraph("Experience", style="Heading 1")
    d.add_paragraph("QA Lead — Brackenridge Games", style="Heading 2")
    d.add_paragraph("Jun 2019 – Present")
    d.add_paragraph("Built a test farm of 60 consoles.", style="List Number")
    d.add_paragraph("Halved release-blocking bugs in 2 years.", style="List Number")
    d.add_paragraph("Education", style="Heading 1")
    d.add_paragraph("B.Sc. Computing — Tarnbrook University", style="Heading 2")
    out = io.BytesIO()
    d.save(out)
    return out.getvalue()


def test_docx_word_styles_heading_1_sections_and_a_hyperlink() -> None:
    result = import_bytes(_docx_word_styles_with_hyperlink(), "styled.docx", ".docx")
    md = result.markdown
    assert md.startswith("# Ilse Marchetti-Vance\n")
    assert result.sections == ["Experience", "Education"]
    assert "### QA Lead — Brackenridge Games\nJun 2019 – Present" in md
    assert "[GitHub](https://github.com/ilse-mv-example)" in md
    assert result.contacts.get("github") == "https://github.com/ilse-mv-example"
    assert result.bullets == 2


@pytest.mark.slow
def test_markdown_input_is_kept_and_never_overwrites_itself(tmp_path: Path) -> None:
    sample = Path("sample_resumes/en_senior_backend.md").read_bytes()
    result = import_bytes(sample, "cv.md", ".md")
    assert result.markdown == sample.decode("utf-8").strip() + "\n"
    assert any("already Markdown" in n for n in result.notes)
    source = tmp_path / "cv.md"
    source.write_bytes(sample)
    done = _cvagent("import", str(source))
    assert done.returncode == 2 and b"would overwrite it" in done.stderr
    assert source.read_bytes() == sample
