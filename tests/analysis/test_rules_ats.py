"""ATS/format rules: length, markup parsers drop, headings, duplicates, stray bytes."""

from __future__ import annotations

from datetime import date

import pytest

from cvagent_cli.analysis.rules import ats, build_context
from cvagent_cli.analysis.rules.ats import estimated_pages
from cvagent_cli.document.document import ResumeDocument

TODAY = date(2025, 6, 1)
FILLER = "Built a reporting pipeline for 12 regional teams and cut manual work by 30 percent.\n"
BASE = (
    "# Jane Doe\n\n## Summary\n\n"
    + "Engineer with 8 years of backend and data experience.\n" * 25
    + "\n## Experience\n\n- "
    + FILLER
)


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def run(text: str) -> list:
    return ats.check(build_context(ResumeDocument.from_text(text), TODAY))


def ids(text: str) -> list[str]:
    return [f.rule_id for f in run(text)]


def test_clean_resume() -> None:
    assert ids(BASE) == []


def test_length() -> None:
    assert ids("# Jane Doe\n\n## Experience\n\n- " + FILLER) == ["ats.too-short"]
    long_text = BASE + "".join(f"- Pipeline {n}: {FILLER}" for n in range(80))
    assert ids(long_text) == ["ats.too-long"]
    long_zh = "# 张三\n\n## 工作经历\n\n" + "".join(
        f"- 项目{n}：主导订单系统重构，接口延迟从一秒降到两百毫秒，大促期间稳定支撑十万级并发访问请求。\n"
        for n in range(60)
    )
    assert ids(long_zh) == ["ats.too-long"]  # ~2,400 CJK characters: 3 pages


@pytest.mark.parametrize(
    ("text", "pages"),
    [
        ("word " * 450, 1.0),
        ("字" * 800, 1.0),
        ("word " * 225 + "字" * 400, 1.0),
        ("---\nname: Jane\n---\n" + "word " * 900, 2.0),  # front matter does not count
    ],
)
def test_estimated_pages(text: str, pages: float) -> None:
    assert estimated_pages(ResumeDocument.from_text(text)) == pages


def test_table_html_and_code() -> None:
    text = (
        BASE
        + "\n## Skills\n\n| Area | Tools |\n|---|---|\n| Data | SQL |\n\n<div>Hi</div>\n\nLine with <br> inline\n\n```\ncode\n```\n"
    )
    findings = run(text)
    assert [(f.rule_id, f.severity, f.line) for f in findings] == [
        ("ats.table", "warning", line_of(text, "| Area")),
        ("ats.html", "warning", line_of(text, "<div>")),
        ("ats.code-block", "info", line_of(text, "```")),
        ("ats.html", "warning", line_of(text, "<br>")),
    ]
    assert all(f.section_id == "skills" for f in findings)


def test_no_headings() -> None:
    assert ids("Jane Doe\njane@example.com\n\n" + "Did many things for many years.\n" * 40) == [
        "ats.no-headings"
    ]


def test_unknown_top_level_heading_but_not_the_name_line() -> None:
    text = BASE + "\n## Fun Facts\n\nI juggle.\n\n## Experience Highlights\n\n- " + FILLER
    findings = [f for f in run(text) if f.rule_id == "ats.unknown-heading"]
    assert [f.text for f in findings] == ["Fun Facts"]
    assert (
        ids(
            "**Priya Natarajan**\n\nData Analyst\n\n**Summary**\n\n"
            + "Analyst with 4 years of data work.\n" * 30
        )
        == []
    )


def test_heading_level_skip() -> None:
    findings = [
        f
        for f in run(BASE + "\n#### Deep heading\n\n- " + FILLER)
        if f.rule_id == "ats.heading-skip"
    ]
    assert len(findings) == 1 and "2 to 4" in findings[0].message


@pytest.mark.parametrize(
    ("first", "second", "duplicate"),
    [
        (
            "Helped with scheduling meetings for the managers.",
            "Helped with scheduling meetings for the managers.",
            True,
        ),
        (
            "Helped with scheduling meetings for the managers.",
            "helped with scheduling meetings, for the managers",
            True,
        ),
        (
            "Helped with scheduling meetings for the managers.",
            "Helped with scheduling interviews for the managers.",
            False,
        ),
        ("负责公众号的日常更新与维护。", "负责公众号的日常更新与维护", True),
        ("负责公众号的日常更新与维护。", "负责视频号的日常更新与维护。", False),
        ("Filing.", "Filing.", False),  # too short to matter
    ],
)
def test_duplicates(first: str, second: str, duplicate: bool) -> None:
    text = BASE + f"\n### A\n\n- {first}\n\n### B\n\n- {second}\n"
    findings = [f for f in run(text) if f.rule_id == "ats.duplicate"]
    assert bool(findings) is duplicate
    if duplicate:
        lines = [i for i, line in enumerate(text.splitlines(), 1) if line.startswith("- ")][-2:]
        assert (
            findings[0].line == lines[1]
            and f"lines {lines[0]} and {lines[1]}" in findings[0].message
        )


def test_control_characters_front_matter_and_long_lines() -> None:
    text = (
        "---\nname: [unclosed\n---\n"
        + BASE.replace("## Summary", "## Summary\x07")
        + "\n"
        + "x" * 600
        + "\n"
    )
    findings = run(text)
    got = {f.rule_id: f for f in findings}
    assert set(got) == {"ats.control-chars", "ats.front-matter-error", "ats.long-line"}
    assert (
        got["ats.control-chars"].line == line_of(text, "\x07")
        and got["ats.front-matter-error"].line == 1
    )
    assert got["ats.long-line"].severity == "info"


def test_control_characters_reported_by_the_decoder_count(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "r.md"
    path.write_bytes(BASE.replace("Engineer with", "Engineer\x0b with", 1).encode())
    doc = ResumeDocument.from_path(path)
    findings = [f for f in ats.check(build_context(doc, TODAY)) if f.rule_id == "ats.control-chars"]
    assert len(findings) == 1 and "1 invisible" in findings[0].message
