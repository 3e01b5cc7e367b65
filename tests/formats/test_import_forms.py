"""The top of a resume as builders and office forms print it: a date stamp over the name
("Last updated in Nov 2026"), a document title with no name line over a details table
("个 人 简 历"), an e-mail wrapped inside a narrow table cell.  Invented people only."""

from __future__ import annotations

from pathlib import Path

import pytest

from cvagent_cli.document.title_words import is_document_title
from cvagent_cli.formats.reading.importer import import_bytes
from cvagent_cli.formats.reading.pdf_header import is_date_stamp

CORPUS = Path(__file__).parent / "import_corpus"


def _typst_pdf(markup: str) -> bytes:
    import typst

    from cvagent_cli.formats.writing.pdf_export import font_dir

    return typst.compile(markup.encode("utf-8"), font_paths=[str(font_dir())])


@pytest.mark.parametrize(
    "text",
    [
        "Last updated in Nov 2026",
        "Updated November 2026",
        "Last updated: 2026-11-25",
        "最后更新于 2026年11月",
        "更新时间：2026.11",
    ],
)
def test_a_date_stamp_is_recognised(text: str) -> None:
    assert is_date_stamp(text)


@pytest.mark.parametrize(
    "text",
    [
        "Updated the CI pipeline for 18 teams in 2021",
        "Updated 2021 pipeline",
        "Modified 40 services in 2020, reducing latency",
        "Dariusz Dunmore",
        "Jan 2022 – Present",
    ],
)
def test_text_that_is_not_a_date_stamp(text: str) -> None:
    assert not is_date_stamp(text)


STAMPED = """
#set page(width: 595pt, height: 842pt, margin: 50pt)
#set text(size: 10pt)
#align(right, text(size: 9pt, fill: gray)[_Last updated in Nov 2026_])
#text(size: 11pt, weight: "bold")[Ilse Castellane]

Portland, OR | ilse.castellane\\@example.org | (303) 555-0190

#text(size: 12pt, weight: "bold")[Experience]

*Copperline Analytics*, Mar 2020 – Present

- Cut cloud spend by 31% by rightsizing 240 instances and retiring idle clusters in two
  regions, with a weekly report of what each team runs and what it costs to run it.
- Built a deploy pipeline now used by 18 teams, taking releases from weekly to daily and
  cutting the failed-release rate from one in twelve to one in forty.
"""


def test_a_date_stamp_over_a_small_name_is_neither_the_name_nor_kept() -> None:
    """The name is barely larger than the body, so it is the name because it is the first
    line: the stamp above it does not count, and is left out with a note."""
    result = import_bytes(_typst_pdf(STAMPED), "stamped.pdf", ".pdf")
    assert result.markdown.startswith("# Ilse Castellane\n")
    assert "Last updated" not in result.markdown
    assert any("date stamp" in n for n in result.notes)


@pytest.mark.parametrize(
    ("file", "email", "rest"),
    [
        (
            "libreoffice-info-table/en-01.pdf",
            "teodor.dunmore@example.net",
            ["Rotterdam, Netherlands", "github.com/teodordun-example"],
        ),
        (
            "libreoffice-info-table/zh-01.pdf",
            "haoran52@example.com",
            ["github.com/haoran52-example"],
        ),
    ],
)
def test_a_cell_wrapped_in_a_narrow_table_column_is_joined_back(
    file: str, email: str, rest: list[str]
) -> None:
    """LibreOffice wraps a long e-mail in its cell ("teodor.dunmore@exa" / "mple.net"): the
    second line's pieces go back into the cells they continue, on the row's own line."""
    path = CORPUS / file
    md = import_bytes(path.read_bytes(), path.name, ".pdf").markdown
    row = next(line for line in md.splitlines() if email in line)
    assert row.count("|") == 3
    for text in rest:
        assert any(text in line and line.count("|") == 3 for line in md.splitlines())


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("个 人 简 历", True),
        ("简\u3000\u3000历", True),
        ("个人简历表", True),
        ("R E S U M E", True),
        ("PERSONAL RESUME", True),
        ("Curriculum Vitae", True),
        ("C.V.", True),
        ("个人履历", True),
        ("Resumé", True),  # OCR put the accent on the other e of "Résumé"
        ("RÉSUMÉ", True),
        ("Renée Dubois", False),
        ("Kofi Mensah's Resume", False),
        ("王 明", False),
        ("Li Na", False),
        ("A B", False),
    ],
)
def test_a_spaced_or_form_document_title_is_a_title(text: str, title: bool) -> None:
    assert is_document_title(text) is title


@pytest.mark.parametrize(
    ("file", "name", "row"),
    [
        ("libreoffice-wps-habits/zh-01.pdf", "陈若曦", "姓名 | 陈若曦 | 性别 | 男 | 照片"),
        ("libreoffice-wps-habits/en-01.pdf", "Tobiah Ravensworth", None),
        ("docx-wps-habits/zh-01.docx", "黄欣怡", None),
        ("libreoffice-narrow-cells/en-02.pdf", "Lorcan Halloran", None),
    ],
)
def test_a_form_with_a_title_and_no_name_line_is_named_from_its_name_field(
    file: str, name: str, row: str | None
) -> None:
    """WPS-style forms: a spaced document title ("个 人 简 历", "R E S U M E"), no name
    line, the name only in the details grid, its labels spread across their cells ("姓　　名")."""
    path = CORPUS / file
    md = import_bytes(path.read_bytes(), path.name, path.suffix).markdown
    assert md.startswith(f"# {name}\n")
    assert "简 历" not in md and "R E S U M E" not in md
    if row:
        assert row in md


def test_a_mark_before_a_big_name_does_not_make_it_a_list_item() -> None:
    """The kendall theme draws a shape left of the name: a bullet mark on body text, but
    never on a name twice the body's size."""
    path = CORPUS / "jsonresume-kendall/zh-02.pdf"
    md = import_bytes(path.read_bytes(), path.name, ".pdf").markdown
    assert md.startswith("# 李可馨\n")
