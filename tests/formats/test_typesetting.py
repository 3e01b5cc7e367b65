"""How the PDF export sets a resume: entry rows, page breaks, contact lines, addresses,
tables, Chinese punctuation, and the tighter pass that saves a last page."""

from __future__ import annotations

import io
import re
import statistics
from pathlib import Path

import pytest

from cvagent_cli.formats.writing.layout import (
    Bullets,
    HeaderLine,
    Subheading,
    Table,
    plain,
    read_layout,
)
from cvagent_cli.formats.writing.options import WriteOptions
from cvagent_cli.formats.writing.pdf_export import TAIL, export_pdf, render_pdf
from cvagent_cli.formats.writing.templates import TEMPLATES, get_template
from tests.support.pdf_measures import TRIAL_SKILLS, TRIAL_TITLES, pitches, trial_resume

SAMPLE = Path("sample_resumes/en_senior_backend.md").read_text(encoding="utf-8")


def page_lines(data: bytes) -> list[list[str]]:
    import pdfplumber

    with pdfplumber.open(io.BytesIO(data)) as pdf:
        return [(page.extract_text() or "").splitlines() for page in pdf.pages]


def many_entries(n: int = 20) -> str:
    entries = "\n\n".join(
        f"### Engineer {i} — Company {i}, Springfield\nJan 20{i:02d} – Dec 20{i:02d}\n\n"
        + "\n".join(
            f"- Shipped feature {i}.{j}, which made the nightly batch of report {j} "
            f"run in {j + 2} minutes instead of {j + 20}."
            for j in range(4)
        )
        for i in range(n)
    )
    return f"# Ada Example\n\nada@example.com\n\n## Experience\n\n{entries}\n"


@pytest.mark.parametrize("template", TEMPLATES)
def test_an_entry_row_never_ends_a_page_and_keeps_its_dates(template: str) -> None:
    pages = page_lines(render_pdf(many_entries(), template))
    assert len(pages) >= 2
    for lines in pages[:-1]:
        assert not lines[-1].startswith("Engineer"), lines[-1]
    rows = [ln for lines in pages for ln in lines if ln.startswith("Engineer")]
    assert len(rows) == 20
    assert all(re.search(r"Jan 20\d\d – Dec 20\d\d$", row) for row in rows)  # on its row


def test_a_section_heading_never_ends_a_page() -> None:
    text = many_entries(5) + "\n## Education\n\n### B.S. — State University\n\n- Thesis on queues\n"
    for filler in range(12):
        padded = text.replace(
            "ada@example.com", "ada@example.com\n\n" + "Summary line.\n\n" * filler
        )
        for lines in page_lines(render_pdf(padded))[:-1]:
            assert lines[-1] not in ("Experience", "Education")


def test_contact_separators_never_start_or_end_a_line() -> None:
    items = " | ".join(
        ["ada.lovelace.example@example.com", "+1 555-010-2000", "github.com/ada-example"]
        + [f"portfolio-{i}.example.dev/work/2025" for i in range(5)]
    )
    lines = page_lines(render_pdf(f"# Ada Example\n\n{items}\n\n## Skills\n\n- Go\n"))[0]
    header = lines[1 : lines.index("Skills")]
    assert len(header) >= 2  # it wraps
    for line in header:
        assert not line.startswith("|") and not line.endswith("|"), line


def test_a_long_address_breaks_only_after_a_slash_and_an_email_not_at_all() -> None:
    url = "https://example.com/" + "/".join(f"section-{i}-of-the-archive" for i in range(9))
    email = "a-very-long-name.with-many-parts-example@example-company-example.com"
    text = f"# Ada Example\n\n## Links\n\n- Archive at {url} and mail to {email} any time.\n"
    lines = page_lines(render_pdf(text))[0]
    body = [ln for ln in lines if "section-" in ln or "archive" in ln]
    assert len(body) >= 2
    for line in body[:-1]:
        if "section-" in line and not line.endswith(email.split("@")[0][-6:]):
            assert line.endswith(("/", "of-the-archive")), line
    assert any(email in ln for ln in lines)


@pytest.mark.parametrize("template", TEMPLATES)
def test_a_word_or_address_longer_than_a_line_stays_inside_the_margin(template: str) -> None:
    """A 1,360-letter word and a 400-character URL segment ran past the
    right margin and were clipped."""
    import pdfplumber

    word = "Supercalifragilistic" * 68  # 1,360 letters
    url = "https://example.com/" + "a1b2c3d4" * 50 + "/end"  # a 400-character segment
    text = f"# Ada Example\n\n## Experience\n\n- Built {word} for 3 teams\n- See {url} now\n"
    with pdfplumber.open(io.BytesIO(render_pdf(text, template))) as pdf:
        page = pdf.pages[0]
        left = min(c["x0"] for c in page.chars)
        assert max(c["x1"] for c in page.chars) <= page.width - left + 1
        extracted = "".join((page.extract_text() or "").split())
    assert word in extracted and url in extracted  # broken across lines, not cut


def test_the_tighter_pass_saves_a_last_page_holding_a_small_tail() -> None:
    lines = SAMPLE.splitlines()
    saved = []
    for cut in range(12, 24, 2):  # fewer bullets: page 2 holds less and less
        text = "\n".join(
            ln for i, ln in enumerate(lines) if not (ln.startswith("- ") and i % 40 < cut)
        )
        result = export_pdf(text)
        if result.space < 1.0:  # kept only when it saved the last page
            assert result.pages == 1
            saved.append(cut)
        else:
            assert result.pages == 1 or len(page_lines(result.data)[-1]) > 3
    assert saved, "no layout was saved from a small last page"
    assert 0 < TAIL < 1


def test_a_generic_table_is_label_value_pairs_and_a_real_one_keeps_its_header() -> None:
    zh = read_layout(Path("sample_resumes/zh_mid_java_table.md").read_text(encoding="utf-8"))
    pairs = next(b for b in zh.blocks if isinstance(b, Table))
    assert pairs.pairs and not pairs.header
    assert [plain(c) for c in pairs.rows[0]] == ["姓名", "陈浩然"]
    zh_pdf = render_pdf(Path("sample_resumes/zh_mid_java_table.md").read_text(encoding="utf-8"))
    text = "\n".join(line for lines in page_lines(zh_pdf) for line in lines)
    assert "项目" not in text.split("工作经历")[0] and "姓名 陈浩然" in text
    en = read_layout(Path("sample_resumes/en_product_manager_table.md").read_text(encoding="utf-8"))
    table = next(b for b in en.blocks if isinstance(b, Table))
    assert table.header and not table.pairs
    assert [plain(c) for c in table.rows[0]] == ["Area", "Tools & Methods"]


def test_no_space_after_a_full_width_colon_in_a_bold_label() -> None:
    layout = read_layout(
        "# 张三\n\n**电话：** 138-0013-8000 | **邮箱：** zhang@example.com\n\n## 技能\n\n- **语言：** Go\n"
    )
    header = next(b for b in layout.blocks if isinstance(b, HeaderLine))
    assert [plain(item) for item in header.items] == [
        "电话：138-0013-8000",
        "邮箱：zhang@example.com",
    ]
    bullets = next(b for b in layout.blocks if isinstance(b, Bullets))
    assert plain(bullets.items[0].runs) == "语言：Go"


def test_entry_dates_come_from_the_line_under_it_or_the_end_of_its_title() -> None:
    layout = read_layout(
        "# A\n\n## Projects\n\n### 库存中心重构（2022.03 - 2022.12）\n\n- a\n\n"
        "**Data Analyst — Acme, Austin, TX**\nJan 2022 – Present\n\n- b\n\n"
        "### TinyKV (course project)\n\n- c\n"
    )
    entries = [b for b in layout.blocks if isinstance(b, Subheading)]
    assert [(plain(e.title), plain(e.dates)) for e in entries] == [
        ("库存中心重构", "2022.03 - 2022.12"),
        ("Data Analyst — Acme, Austin, TX", "Jan 2022 – Present"),
        ("TinyKV (course project)", ""),
    ]


def test_an_entry_title_s_place_is_read_from_the_parsed_entry() -> None:
    layout = read_layout(
        "# A\n\n## Experience\n\n### Engineer — Northwind Payments, Seattle, WA\nMar 2019 – Present\n\n"
        "**Analyst — Acme Corp, Austin, TX**\nJan 2022 – Present\n\n"
        "### Office Coordinator, Brightline Property Group\n2016 – 2018\n\n"
        "## Education\n\n### B.A. in Cognitive Science — University of California, San Diego\n"
        "2010 – 2014\n\n### MBA — University of California, Berkeley (Haas School of Business)\n"
    )
    entries = [b for b in layout.blocks if isinstance(b, Subheading)]
    assert [(plain(e.head), plain(e.place)) for e in entries] == [
        ("Engineer — Northwind Payments", "Seattle, WA"),
        ("Analyst — Acme Corp", "Austin, TX"),
        ("Office Coordinator, Brightline Property Group", ""),
        # a campus is part of the school's name, not its place
        ("B.A. in Cognitive Science — University of California, San Diego", ""),
        ("MBA — University of California, Berkeley (Haas School of Business)", ""),
    ]
    assert plain(entries[0].title) == "Engineer — Northwind Payments, Seattle, WA"


def _row(lines: list[str], start: str) -> str:
    return next(line for line in lines if line.startswith(start))


def test_the_modern_template_sets_the_place_beside_the_dates_and_classic_leaves_it() -> None:
    import pdfplumber

    modern = page_lines(render_pdf(SAMPLE, "modern"))[0]
    assert _row(modern, "Staff Software Engineer") == (
        "Staff Software Engineer — Northwind Payments Seattle, WA · Mar 2019 – Present"
    )
    classic = page_lines(render_pdf(SAMPLE, "classic"))[0]
    assert _row(classic, "Staff Software Engineer") == (
        "Staff Software Engineer — Northwind Payments, Seattle, WA Mar 2019 – Present"
    )
    with pdfplumber.open(io.BytesIO(render_pdf(SAMPLE, "modern"))) as pdf:
        page = pdf.pages[0]
        words = page.extract_words()
    staff = next(w for w in words if w["text"] == "Staff")
    seattle = next(w for w in words if w["text"] == "Seattle," and abs(w["top"] - staff["top"]) < 2)
    present = next(w for w in words if w["text"] == "Present" and abs(w["top"] - staff["top"]) < 2)
    assert seattle["x0"] > page.width / 2  # in the right-aligned part of the row
    assert abs(present["x1"] - (page.width - 1.7 / 2.54 * 72)) < 2  # at the right margin


def test_a_row_without_room_for_place_and_dates_keeps_the_place_in_the_title() -> None:
    text = Path("sample_resumes/en_new_grad.md").read_text(encoding="utf-8")
    a4 = WriteOptions(paper="a4")  # on Letter, 17 pt wider, both fit
    lines = page_lines(render_pdf(text, "modern", options=a4))[0]
    assert _row(lines, "B.S. in Computer Science") == (
        "B.S. in Computer Science — Carnegie Mellon University, Pittsburgh, PA "
        "Aug 2021 – May 2025 (expected)"
    )
    assert _row(lines, "Backend Intern") == (
        "Backend Intern — Steelcity Robotics Pittsburgh, PA · Jun 2023 – Aug 2023"
    )
    import docx

    from cvagent_cli.formats.writing.docx_export import render_docx

    # the DOCX decides as the PDF does, on the same paper (measured with the PDF's widths)
    paragraphs = docx.Document(io.BytesIO(render_docx(text, "modern", options=a4))).paragraphs
    assert _row([p.text for p in paragraphs], "B.S. in Computer Science") == (
        "B.S. in Computer Science — Carnegie Mellon University, Pittsburgh, PA\t"
        "Aug 2021 – May 2025 (expected)"
    )
    letter = docx.Document(io.BytesIO(render_docx(text, "modern"))).paragraphs
    assert _row([p.text for p in letter], "B.S. in Computer Science") == (
        "B.S. in Computer Science — Carnegie Mellon University\t"
        "Pittsburgh, PA · Aug 2021 – May 2025 (expected)"
    )


def test_docx_and_html_set_the_place_beside_the_dates_in_the_modern_template() -> None:
    import docx

    from cvagent_cli.formats.writing.docx_export import render_docx
    from cvagent_cli.formats.writing.html_export import render_html

    def rows(template: str) -> list[str]:
        document = docx.Document(io.BytesIO(render_docx(SAMPLE, template)))
        return [p.text for p in document.paragraphs if p.text.startswith("Staff Software")]

    assert rows("modern") == [
        "Staff Software Engineer — Northwind Payments\tSeattle, WA · Mar 2019 – Present"
    ]
    assert rows("classic") == [
        "Staff Software Engineer — Northwind Payments, Seattle, WA\tMar 2019 – Present"
    ]
    page = render_html(SAMPLE, template="modern")
    assert (  # the title bold, the employer regular, as in the PDF
        '<div class="entry"><h3>Staff Software Engineer<span class="org"> — Northwind Payments'
        '</span></h3><p class="where">Seattle, WA · Mar 2019 – Present</p></div>'
    ) in page
    assert "<h3>Staff Software Engineer — Northwind Payments, Seattle, WA</h3>" in render_html(
        SAMPLE
    )


@pytest.mark.parametrize("fmt", ["pdf", "docx", "html"])
def test_importing_a_modern_export_puts_the_place_back_in_the_entry_title(fmt: str) -> None:
    from cvagent_cli.formats.reading.importer import import_bytes
    from cvagent_cli.formats.writing.docx_export import render_docx
    from cvagent_cli.formats.writing.html_export import render_html

    render = {
        "pdf": lambda: render_pdf(SAMPLE, "modern"),
        "docx": lambda: render_docx(SAMPLE, "modern"),
        "html": lambda: render_html(SAMPLE, template="modern").encode(),
    }[fmt]
    imported = import_bytes(render(), "cv", f".{fmt}", from_layout=True).markdown
    for title, dates in (
        ("Staff Software Engineer — Northwind Payments, Seattle, WA", "Mar 2019 – Present"),
        ("Senior Software Engineer — Cascade Logistics, Bellevue, WA", "Jun 2015 – Feb 2019"),
        ("Software Engineer — Bluefin Analytics, Portland, OR", "Aug 2013 – May 2015"),
        ("B.S. in Computer Science — University of Washington, Seattle, WA", "Sep 2009 – Jun 2013"),
    ):
        assert f"### {title}\n{dates}\n" in imported, imported
    assert " · " not in imported
    if fmt == "html":  # a contact link whose text is its address is read as that text
        assert " (tel:" not in imported and " (https://" not in imported


@pytest.mark.parametrize("template", TEMPLATES)
@pytest.mark.parametrize("sample", ["en_senior_backend", "zh_new_grad"])
def test_one_rhythm_from_bullet_to_bullet_as_inside_a_bullet(template: str, sample: str) -> None:
    """Bullets sat 1 to 1.5 pt closer than the lines of one bullet, and the gap after an
    entry's first bullet was 2 pt larger (it sat in a keep-together block of its own)."""
    text = Path(f"sample_resumes/{sample}.md").read_text(encoding="utf-8")
    found = pitches(render_pdf(text, template))
    assert found["between"] and found["after first"]
    pitch = statistics.median(v for values in found.values() for v in values)
    for kind, values in found.items():
        assert all(abs(v - pitch) < 0.2 for v in values), (kind, sorted(set(values)))
    size = float(get_template(template).pdf.size.removesuffix("pt"))
    assert pitch >= (1.4 if sample.startswith("zh") else 1.2) * size  # CJK needs more air


def test_a_title_too_long_for_its_dates_takes_its_line_whole() -> None:
    """ "…Pittsburgh," / "PA   Aug 2021 – May 2025" left the last word beside the dates."""
    text = (
        "# Ada Example\n\n## Education\n\n### B.S. in Computer Science — Carnegie Mellon "
        "University School of Computer Science, Pittsburgh, PA\nAug 2021 – May 2025 (expected)"
        "\n\n- GPA 3.8/4.0\n"
    )
    for template in TEMPLATES:
        lines = page_lines(render_pdf(text, template))[0]
        assert "Aug 2021 – May 2025 (expected)" in lines, (template, lines)


def test_nested_bullets_under_an_entry_s_first_bullet_keep_their_level() -> None:
    import pdfplumber

    text = (
        "# Ada Example\n\n## Experience\n\n### Engineer — Acme\nJan 2020 – Present\n\n"
        "- Parent one\n  - Child of one\n    - Grandchild\n- Parent two\n  - Child of two\n"
    )
    with pdfplumber.open(io.BytesIO(render_pdf(text))) as pdf:
        words = pdf.pages[0].extract_words()
    x = {w["text"]: w["x0"] for w in words if w["text"] in ("Parent", "Child", "Grandchild")}
    starts = {name: [w["x0"] for w in words if w["text"] == name] for name in ("Parent", "Child")}
    assert len(set(map(round, starts["Parent"]))) == 1
    assert len(set(map(round, starts["Child"]))) == 1  # both children at one level
    assert x["Parent"] < x["Child"] < x["Grandchild"]


@pytest.mark.parametrize("template", TEMPLATES)
def test_an_entry_title_stays_with_its_paragraph_body_and_a_short_list_stays_whole(
    template: str,
) -> None:
    """Pushed down by 0 … 15 paragraphs, no page ends with an entry's title (a paragraph
    body let it: 5 of 48 trials), and the four Skills bullets stay on one page."""
    for padding in range(0, 16, 1 if template != "compact" else 3):
        pages = page_lines(render_pdf(trial_resume(padding), template))
        for lines in pages[:-1]:
            assert not lines[-1].startswith(TRIAL_TITLES), (padding, lines[-1])
        skills = {
            n for n, lines in enumerate(pages) for line in lines if line.startswith(TRIAL_SKILLS)
        }
        assert len(skills) == 1, padding


def test_a_short_list_is_never_split_over_two_pages() -> None:
    """Pushed down line by line, the four Skills bullets split 1/3, 2/2 and 3/1 over the
    page break (three of these seven trials); now they move to the next page together."""
    skills = (
        "- Languages: Go, Python\n- Data: PostgreSQL, Kafka\n- Cloud: AWS\n- Practices: review\n"
    )
    interests = "\n\n".join(f"Interest {i}." for i in range(30))
    for lines in range(43, 50):
        summary = "\n\n".join(f"Line {i} of the summary." for i in range(lines))
        text = (
            f"# Ada Example\n\n## Summary\n\n{summary}\n\n## Skills\n\n{skills}\n"
            f"## Interests\n\n{interests}\n"
        )
        pages = page_lines(render_pdf(text))
        holding = {n for n, page in enumerate(pages) for ln in page if ln.startswith(TRIAL_SKILLS)}
        assert len(holding) == 1, lines
