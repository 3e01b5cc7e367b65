"""Shapes from the tools the corpus gained in issue 32 (pandoc, groff, europasscv, CurVe,
JSON Resume onepage, spartacus, actual), rebuilt small in typst with invented people: each
test is one rule the dev files of those producers showed was missing."""

from __future__ import annotations

import pytest

from cvagent_cli.formats.reading.importer import ImportResult, import_bytes
from tests.support.bad_documents import typst_pdf

pytest.importorskip("typst")
pytest.importorskip("pdfplumber")

PAGE = "#set page(width: 595pt, height: 842pt, margin: 40pt)\n#set text(size: 10pt)\n"


def _read(markup: str) -> ImportResult:
    return import_bytes(typst_pdf(PAGE + markup), "resume.pdf", ".pdf")


GROFF_MS = """
#align(center, text(size: 12pt, weight: "bold")[Noor Strickland])
#align(center)[+1 720-555-0112 • noor.strickland\\@example.net]
#v(14pt)
*Profile* \\
Engineer with 5 years of experience building reliable data and web systems for logistics teams.
#v(8pt)
*Education* \\
*Front Range University* #h(1fr) 2019–2020 \\
_B.S. Computer Science, Toronto, ON_
#v(8pt)
*Employment History* \\
*Foxglove Biotech* #h(1fr) 2024–Present \\
_Product Manager, Dublin, Ireland_
- Built a fraud score that flagged 2.4% of orders with 91% precision.
"""


def test_a_section_name_in_body_bold_is_not_joined_to_the_bold_entry_under_it() -> None:
    """groff's ``.SH``: the section name in the body's size and weight, right over a bold
    employer line; only its words say it is a section."""
    md = _read(GROFF_MS).markdown
    assert "## Education\n\n### Front Range University\n2019–2020" in md
    assert "## Employment History\n\n### Foxglove Biotech" in md


def test_a_subtitle_based_on_the_title_style_is_the_headline_not_a_second_name() -> None:
    """pandoc's reference DOCX bases Subtitle on Title: the headline under the name."""
    docx = pytest.importorskip("docx")
    import io

    document = docx.Document()
    document.styles["Subtitle"].base_style = document.styles["Title"]
    document.add_paragraph("Talia Selvaraj", style="Title")
    document.add_paragraph("Data Analyst", style="Subtitle")
    document.add_paragraph("talia.selvaraj@example.net | +1 (720) 555-0180")
    document.add_heading("Experience", 1)
    document.add_heading("Vellum & Vane", 2)
    document.add_paragraph("Data Analyst · Dec 2023 – Present")
    out = io.BytesIO()
    document.save(out)
    md = import_bytes(out.getvalue(), "resume.docx", ".docx").markdown
    assert md.startswith("# Talia Selvaraj\n\nData Analyst\n")
    assert md.count("\n# ") == 0


LIST_COLUMNS = """
#text(size: 24pt)[Ilse Lindqvist] \\
ilse.lindqvist\\@example.net · (503) 555-0171

Practical problem solver with eleven years across analytics and software delivery; known
for turning vague requests into shipped, measured work for logistics and retail teams.
== Experience
*Backend Engineer* #h(1fr) Feb 2023 – Present \\
Lonestar Grocers
#let items(..rows) = text(size: 8pt, rows.pos().map(r => [· #r]).join(linebreak()))
#grid(columns: (1fr, 1fr), column-gutter: 6pt,
  items[Designed the on-call runbook and cut mean time to recovery by 45%.][Reduced build
    times from 22 minutes to 6 minutes with remote caching.],
  items[Cut cloud spend by 31% by rightsizing 240 instances and retiring idle clusters.])
*数据工程师* #h(1fr) Aug 2020 – Feb 2023 \\
星河数据科技有限公司
#grid(columns: (1fr, 1fr), column-gutter: 6pt,
  items[完成日志平台从 ELK 到 ClickHouse 的迁移，存储成本降低百分之五十，查询耗时降低六成。],
  items[参与需求评审与技术方案设计。][负责新人培养，指导四名实习生完成转正答辩。])
== Education
*Pellham College*, M.S. Data Science, with a thesis on streaming joins and their costs #h(1fr) 2018 – 2020
"""


def test_a_list_set_in_two_columns_keeps_each_item_whole() -> None:
    """JSON Resume "actual": an entry's bullets in two CSS columns; each row holds the end
    of one item and the start of another."""
    md = _read(LIST_COLUMNS).markdown
    items = [ln for ln in md.splitlines() if ln.startswith("- ")]
    assert items == [
        "- Designed the on-call runbook and cut mean time to recovery by 45%.",
        "- Reduced build times from 22 minutes to 6 minutes with remote caching.",
        "- Cut cloud spend by 31% by rightsizing 240 instances and retiring idle clusters.",
        "- 完成日志平台从 ELK 到 ClickHouse 的迁移，存储成本降低百分之五十，查询耗时降低六成。",
        "- 参与需求评审与技术方案设计。",
        "- 负责新人培养，指导四名实习生完成转正答辩。",
    ]


RIGHT_SIDEBAR = """
#text(size: 30pt, weight: "bold")[Tobiah Thornquist] #h(1fr) (608) 555-0134 \\
#text(size: 14pt)[Backend Engineer] #h(1fr) tobiah.thornquist\\@example.org
#v(12pt)
#grid(columns: (1fr, 130pt), column-gutter: 30pt,
  [
    #text(size: 13pt)[Experience] \\
    *Thistledown Bank* #h(1fr) Feb 2023 – Present \\
    - Designed the on-call runbook and cut mean time to recovery by 45%.
    - Reduced build times from 22 minutes to 6 minutes with remote caching.
    *Tidewater Health* #h(1fr) Jun 2020 – Feb 2023 \\
    - Replaced nightly batch jobs with streaming updates, freshness from 24 h to 5 min.
    - Built a deploy pipeline now used by 18 teams, taking releases from weekly to daily.
    #v(10pt)
    #text(size: 13pt)[Projects] \\
    *Ledgerlight* #h(1fr) Apr 2024 – Feb 2026 \\
    - Introduced schema reviews that prevented 30 breaking changes in a year.
  ],
  align(right)[
    #text(size: 13pt)[Skills] \\
    PostgreSQL, Kafka \\ Redis, Airflow \\ dbt, Looker \\
    #v(10pt)
    #text(size: 13pt)[Education] \\
    M.S. Data Science \\ Pellham College \\ B.A. Economics \\ Northmoor Institute
    #v(10pt)
    #text(size: 13pt)[Links] \\
    github.com/tobthor-example
  ],
)
"""


def test_a_sidebar_set_flush_right_is_a_column_not_fragments_of_rows() -> None:
    """JSON Resume "actual": the sidebar's lines end at the right margin like dates do, but
    it holds no dates: it is a column of its own, and its titles are sections."""
    result = _read(RIGHT_SIDEBAR)
    assert result.sections == ["Experience", "Projects", "Skills", "Education", "Links"]
    assert "## Skills\n\nPostgreSQL, Kafka" in result.markdown


EUROPASS = """
#let label(body) = align(right, text(size: 9pt, fill: rgb("#1593cb"), upper(body)))
#pad(left: 152pt, text(size: 10pt, fill: rgb("#1593cb"))[Curriculum vitae])
#v(16pt)
#box(width: 120pt, label[Personal information])#h(8pt)#text(size: 14pt)[Zofia Ravensworth]
#grid(columns: (120pt, 1fr), column-gutter: 8pt, row-gutter: 12pt,
  [], [Portland, OR \\ +1 (303) 555-0116 \\ zofia.ravensworth\\@example.org],
  label[Summary], [Engineer with 7 years of experience building reliable data and web
    systems for logistics, retail and finance teams.],
  label[Experience], [],
  align(right, text(size: 9pt)[2024–Present]), [UX Researcher \\ Bluefen Software, Remote
    - Kept 99.97% availability across two data centre moves.
    - Automated regression tests for the mobile app, raising coverage from 35% to 82%.],
  align(right, text(size: 9pt)[2022–2024]), [Security Engineer \\ Kestrel Robotics, Rotterdam
    - Reduced build times from 22 minutes to 6 minutes with remote caching.],
  label[Education], [],
  align(right, text(size: 9pt)[2019–2020]), [B.S. Computer Science \\ Lakeshore College],
  label[Skills], [Python, Go, SQL, TypeScript \\ Kubernetes, Terraform, AWS, GCP],
)
"""


def test_a_side_label_level_with_the_name_heads_the_lines_under_it() -> None:
    """europasscv: "Curriculum vitae" over the columns, then "PERSONAL INFORMATION" in
    the labels' column on the name's row."""
    md = _read(EUROPASS).markdown
    assert md.startswith("# Zofia Ravensworth\n\n## PERSONAL INFORMATION\n")
    assert "## SUMMARY" in md and "## EXPERIENCE" in md


ONEPAGE_ZH = """
#text(size: 15pt)[罗明轩] \\
junjie39\\@example.com | 139-0000-9162 | 合肥 \\
https://github.com/junjie39-example
#v(10pt)
#set text(font: ("Liberation Serif", "Noto Serif CJK SC"), size: 9pt)
#set list(indent: 4pt, body-indent: 4pt)
#grid(columns: (60pt, 1fr), column-gutter: 24pt, row-gutter: 14pt,
  // the labels' glyph boxes 2 pt lower than the CJK ones on their row, as Chromium's fonts
  // give them
  move(dy: 2pt)[EXPERIENCE], [海川新能源有限公司, 数据工程师 #h(1fr) 2024-12-01 — Present
    - 组织跨部门项目周会，推动 3 个重点项目按期上线，跟进风险并同步进度给各业务方负责人。
    - 参与需求评审与技术方案设计，输出设计文档 20 余篇，覆盖订单、库存与结算三个核心域。
    星河数据科技有限公司, 项目经理 #h(1fr) 2022-03-01 — 2024-12-01
    - 搭建实时数仓，日处理 20 亿条日志，查询耗时降低 60%，支撑运营与财务的日常分析需求。
    - 主导 Flink 作业迁移，节省服务器成本 30%。
    - 负责订单系统重构，接口平均响应时间由 800ms 降至 150ms。
    - 设计库存预测模型，缺货率下降 17%。],
  move(dy: 2pt)[EDUCATION], [华东理工大学 #h(1fr) 2019-05-01 — 2021-10-01 \\ 信息管理与信息系统 本科],
  move(dy: 2pt)[SKILLS], [熟悉 Python 数据分析，掌握 pandas、NumPy，能独立完成从取数、清洗到建模的全流程 \\
    英语六级，能熟练阅读英文技术文档 \\ 熟悉 Java、Spring Boot、MyBatis],
)
"""


def test_a_side_label_on_a_row_of_taller_cjk_glyphs_starts_the_columns() -> None:
    """JSON Resume onepage in Chinese: the first label shares its row with CJK text whose
    glyph boxes stand taller than the label's; the row is the columns' first."""
    result = _read(ONEPAGE_ZH)
    assert result.sections == ["EXPERIENCE", "EDUCATION", "SKILLS"]
    assert "## EXPERIENCE\n\n### 海川新能源有限公司" in result.markdown


@pytest.mark.parametrize(
    ("name", "job"),
    [("Anouk Ravensworth", "UX Researcher"), ("马梓萱", "开发工程师")],
)
def test_a_job_title_after_a_comma_on_the_name_line_is_the_headline(name: str, job: str) -> None:
    """JSON Resume's onepage prints "Name, headline" as one line in the name's size."""
    md = _read(
        f'#text(size: 20pt, weight: "bold")[{name}, {job}]\n\n'
        "a.ravensworth\\@example.org | +1 (608) 555-0161\n\n"
        "*EXPERIENCE*\n\n*Brambleway Logistics* #h(1fr) 2023 – Present\n\n- Led 40 interviews.\n"
    ).markdown
    assert md.startswith(f"# {name}\n\n{job}\n"), md
