"""What an imported line is (section, entry, label, row), decided the same way for
every format by ``roles.assign_roles``.  Each case is a layout a real template prints
(JSON Resume themes printed by a browser, a CJK font with no bold), written as the
paragraphs a reader hands over."""

from __future__ import annotations

from pathlib import Path

import pytest

from cvagent_cli.formats.reading.importer import import_file
from cvagent_cli.formats.reading.roles import assign_roles
from cvagent_cli.formats.reading.structure import Para, to_markdown


def _markdown(*paras: Para) -> str:
    return to_markdown(assign_roles(list(paras)))


def _headings(markdown: str) -> list[str]:
    return [line for line in markdown.splitlines() if line.startswith("#")]


def _section(title: str) -> Para:
    return Para(title.upper(), bold=True, size=17)


def test_a_label_printed_under_every_entry_is_neither_a_section_nor_an_entry() -> None:
    entry = [
        Para("Acme Corp", bold=True, size=13.7),
        Para("March 2020 – Present", size=11.4),
        Para("Highlights", bold=True, size=11.4),
        Para("Cut costs by 20%.", role="bullet", size=11.4),
    ]
    other = [Para("Globex", bold=True, size=13.7), *entry[1:]]
    markdown = _markdown(Para("Ada Lovelace", bold=True, size=25), _section("Work"), *entry, *other)
    assert _headings(markdown) == ["# Ada Lovelace", "## WORK", "### Acme Corp", "### Globex"]
    assert markdown.count("\nHighlights\n") == 2


def test_contact_details_and_skill_lists_are_never_entries() -> None:
    markdown = _markdown(
        Para("Ada Lovelace", bold=True, size=25),
        _section("Contact"),
        Para("Austin, TX", bold=True, size=11.4),
        Para("+1 (503) 555-0174", bold=True, size=11.4),
        Para("ada@example.com", bold=True, size=11.4),
        Para("GitHub", bold=True, size=11.4),
        _section("Skills"),
        Para("PostgreSQL, Kafka, Redis", bold=True, size=12.5),
        Para("React, Node.js, GraphQL", bold=True, size=12.5),
    )
    assert _headings(markdown) == ["# Ada Lovelace", "## CONTACT", "## SKILLS"]
    assert "ada@example.com" in markdown and "React, Node.js, GraphQL" in markdown


def test_an_email_address_in_bold_is_not_an_entry_anywhere() -> None:
    markdown = _markdown(
        Para("Ada Lovelace", bold=True, size=25),
        _section("Experience"),
        Para("ada@example.com", bold=True, size=11),
    )
    assert _headings(markdown) == ["# Ada Lovelace", "## EXPERIENCE"]


def test_a_section_word_in_an_entry_line_unlike_the_section_look_is_an_entry() -> None:
    """A CJK font with no bold: sections are 9 pt bold capitals, entries 12 pt lines with
    their dates under them; 教育 (education) inside a company name makes no section."""
    markdown = _markdown(
        Para("宋语嫣", size=22.5),
        Para("SUMMARY", bold=True, size=9),
        Para("7 年互联网研发经验，熟悉高并发系统设计与数据平台建设，沟通能力强。", size=10.5),
        Para("WORK EXPERIENCE", bold=True, size=9),
        Para("运维工程师 at 知行教育科技有限公司", size=12),
        Para("Feb 2022 - Dec 2025", role="date", size=9.7),
        Para("带领 5 人小组完成支付中台建设，支撑日均 300 万笔交易。", role="bullet", size=10.5),
        Para("EDUCATION", bold=True, size=9),
        Para("计算机科学与技术 本科 at 西安电子科技大学", size=12),
        Para("Jun 2018 - Apr 2019", role="date", size=9.7),
    )
    assert _headings(markdown) == [
        "# 宋语嫣",
        "## SUMMARY",
        "## WORK EXPERIENCE",
        "### 运维工程师 at 知行教育科技有限公司",
        "## EDUCATION",
        "### 计算机科学与技术 本科 at 西安电子科技大学",
    ]


def test_a_company_box_with_its_place_is_the_entry_and_the_role_under_it_a_row() -> None:
    markdown = _markdown(
        Para("Ada Lovelace", bold=True, size=25),
        _section("Work Experience"),
        Para("Gildersleeve Media\nBoulder, CO", bold=True, size=13.7),
        Para("December 2023 – Present", size=11.4),
        Para("QA Automation Engineer", bold=True, size=13.7),
        Para("Built a deploy pipeline.", role="bullet", size=11.4),
    )
    assert _headings(markdown)[2:] == ["### Gildersleeve Media, Boulder, CO"]
    lines = markdown.splitlines()
    at = lines.index("### Gildersleeve Media, Boulder, CO")
    assert "QA Automation Engineer" in lines[at : at + 4]


def test_a_degree_under_its_school_is_a_row_and_the_next_school_an_entry() -> None:
    markdown = _markdown(
        Para("Ada Lovelace", bold=True, size=25),
        Para("Education", size=20.5),
        Para("Westbrook State University", bold=True, size=16.4),
        Para("M.S. Data Science", bold=True, size=10.5),
        Para("Nov 2019 – Nov 2020", size=10.5),
        Para("Front Range University", bold=True, size=16.4),
        Para("M.Eng. Software Engineering", bold=True, size=10.5),
        Para("Nov 2016 – Nov 2019", size=10.5),
    )
    assert _headings(markdown) == [
        "# Ada Lovelace",
        "## Education",
        "### Westbrook State University",
        "### Front Range University",
    ]


def test_bold_lines_one_after_another_are_a_list_not_entries() -> None:
    markdown = _markdown(
        Para("Ada Lovelace", bold=True, size=25),
        Para("Awards", size=20.5),
        Para("Winner, Front Range Hackathon 2019", bold=True, size=16.4),
        Para("Dean's List, 2016 and 2017", bold=True, size=16.4),
    )
    assert _headings(markdown) == ["# Ada Lovelace", "## Awards"]


def test_a_section_name_over_its_first_entry_in_the_same_bold_is_a_section() -> None:
    """Sections and entries both in bold body type: "Projects Experience" (no exact
    section name) with an entry and its dates right under it starts a section."""
    markdown = _markdown(
        Para("Ada Lovelace", bold=True, size=14),
        Para("About", bold=True, size=12),
        Para("Engineer with 8 years of experience.", size=12),
        Para("Work Experience", bold=True, size=12),
        Para("Orrin Payments", bold=True, size=12),
        Para("Dec, 2022 - Mar, 2023", role="date", size=10),
        Para("Built a fraud score.", role="bullet", size=12),
        Para("Projects Experience", bold=True, size=12),
        Para("Sparrow CI", bold=True, size=12),
        Para("Dec, 2025 - Oct, 2026", role="date", size=10),
        Para("Led the migration of 40 services.", role="bullet", size=12),
    )
    assert "## Projects Experience" in _headings(markdown)
    assert "### Sparrow CI" in _headings(markdown)


def test_a_plain_line_with_its_dates_under_it_opens_an_entry_in_a_section_of_jobs() -> None:
    """LibreOffice's PDF of a Chinese DOCX: the substituted CJK font has no bold, so the
    company line is body text; its dates under it make it the entry, and the role line
    under the dates stays the entry's row."""
    markdown = _markdown(
        Para("赵晓彤", size=22),
        Para("工作经验", size=14, bold=True),
        Para("锦程电子商务有限公司", size=10.5),
        Para("2025 年 3 月 — 至今", role="date", size=10.5),
        Para("开发工程师", size=10.5),
        Para(
            "完成日志平台从 ELK 到 ClickHouse 的迁移，存储成本降低 50%。", role="bullet", size=10.5
        ),
        Para("奖项荣誉", size=14, bold=True),
        Para("AWS Certified Solutions Architect – Associate", size=10.5),
        Para("2021", size=10.5),
    )
    assert _headings(markdown) == [
        "# 赵晓彤",
        "## 工作经验",
        "### 锦程电子商务有限公司",
        "## 奖项荣誉",
    ]


def test_an_entry_heading_wrapped_round_its_dates_is_joined_back() -> None:
    """moderncv: "M.S. Data Science, Westbrook State University, Boul-" with the dates
    at the right of its row and "der, CO." on the next row of its column."""
    markdown = _markdown(
        Para("Ada Lovelace", size=33.9),
        Para("Education", size=14.3),
        Para("M.S. Data Science, Westbrook State University, Boul-", role="h3", size=10.9),
        Para("Feb 2019 - Mar 2021", role="date", size=10.9),
        Para("der, CO.", size=10.9),
        Para("Skills", size=14.3),
    )
    assert "### M.S. Data Science, Westbrook State University, Boulder, CO." in markdown
    assert "\nder, CO." not in markdown


def test_a_duration_over_an_entrys_dates_goes_after_them() -> None:
    markdown = _markdown(
        Para("Ada Lovelace", bold=True, size=14),
        Para("Work Experience", bold=True, size=12),
        Para("Frontend Developer, Bluefen Software", size=12),
        Para("3 years 8 months", size=10),
        Para("Apr, 2019 - Dec, 2022", role="date", size=10),
        Para("Designed the on-call runbook and cut recovery time by 45%.", role="bullet", size=12),
    )
    lines = markdown.splitlines()
    at = lines.index("### Frontend Developer, Bluefen Software")
    assert lines[at + 1] == "Apr, 2019 - Dec, 2022 (3 years 8 months)"


def test_a_section_title_wrapped_in_a_narrow_margin_column_is_one_heading() -> None:
    """moderncv prints "Honors &" / "Awards" in its left column, the first item on the
    first row between them in the reading order."""
    markdown = _markdown(
        Para("Ada Lovelace", size=33.9),
        Para("Summary", size=14.3),
        Para("Engineer with ten years of experience building reliable data systems.", size=10),
        Para("Honors &", size=14.3),
        Para("AWS Certified Solutions Architect – Associate", role="bullet", size=10.9),
        Para("Awards", size=14.3),
        Para("Winner, Front Range Hackathon 2019", role="bullet", size=10.9),
    )
    assert _headings(markdown) == ["# Ada Lovelace", "## Summary", "## Honors & Awards"]
    assert markdown.index("AWS Certified") > markdown.index("## Honors & Awards")


CORPUS = Path(__file__).resolve().parent / "import_corpus"


@pytest.mark.parametrize(
    ("name", "section", "after"),
    [
        # a margin title nearer its row's first cell than the row's cells are to each other
        ("jsonresume-even/en-02.pdf", "## Skills", "Kubernetes, Terraform, | Python, Go, SQL,"),
        # a section title on the row of a contact line in a sidebar under the name
        ("latex-moderncv-oldstyle/en-01.pdf", "## Work Experience", "### Frontend Developer"),
    ],
)
def test_a_section_title_beside_a_margin_column_is_a_section(
    name: str, section: str, after: str
) -> None:
    pytest.importorskip("pdfplumber")
    markdown = import_file(CORPUS / name).markdown
    lines = markdown.splitlines()
    assert section in lines
    assert any(line.startswith(after) for line in lines[lines.index(section) :])


def test_two_lines_in_one_look_that_make_a_section_name_together_are_one_title() -> None:
    from cvagent_cli.formats.reading.roles import assign_roles
    from cvagent_cli.formats.reading.structure import Para, to_markdown

    paras = [
        Para("Talia Castellane", size=30),
        Para("ACADEMIC", size=16),
        Para("BACKGROUND", size=16),
        Para("Lakeshore College", bold=True, size=10),
        Para("B.S. Mathematics, 2016 – 2018", size=10),
        Para("SKILLS", size=16),
        Para("Python, Go, SQL", size=10),
        Para("Wrote the runbook for the warehouse failover, and on-call rota.", size=10),
    ]
    md = to_markdown(assign_roles(paras))
    assert "## ACADEMIC BACKGROUND" in md and "## SKILLS" in md


def test_a_linked_contact_whose_actual_text_is_the_link_keeps_its_visible_text() -> None:
    """Awesome-CV wraps each contact item (an icon glyph and the visible text) in a span
    whose /ActualText is the link ("tel:+1 …", "mailto:…"): the glyphs say it themselves."""
    from pathlib import Path

    from cvagent_cli.formats.reading.importer import import_file

    corpus = Path(__file__).resolve().parent / "import_corpus" / "latex-awesome-cv"
    md = import_file(corpus / "en-01.pdf").markdown
    assert "+1 416-555-0180 | thaddeus.okonkworeyes@example.net" in md
    assert "tel:" not in md and "mailto:" not in md


def test_a_list_set_in_the_section_look_is_not_a_section() -> None:
    from cvagent_cli.formats.reading.roles import assign_roles
    from cvagent_cli.formats.reading.structure import Para, to_markdown

    paras = [
        Para("Priyanka Fennimore", size=30),
        Para("About", size=10.5),
        Para("Remote", size=9),
        Para("Python, Go, SQL, TypeScript", size=10.5),
        Para("国家奖学金（2018）", size=10.5),
        Para("Experience", size=10.5),
        Para("Wrote the runbook for the warehouse failover and the on-call rota.", size=9),
        Para("Skills, Languages", size=10.5),
        Para("Go, Rust", size=9),
    ]
    md = to_markdown(assign_roles(paras))
    assert "## About" in md and "## Experience" in md and "## Skills, Languages" in md
    assert "## Python" not in md and "## 国家奖学金" not in md
