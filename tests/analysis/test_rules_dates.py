"""Dates rules: formats, order, gaps, impossible and future ranges."""

from __future__ import annotations

from datetime import date

import pytest

from cvagent_cli.analysis.rules import build_context, timeline
from cvagent_cli.document.document import ResumeDocument

TODAY = date(2025, 6, 1)


def run(text: str) -> list:
    return timeline.check(build_context(ResumeDocument.from_text(text), TODAY))


def job(title: str, when: str, level: str = "###") -> str:
    return f"{level} {title}\n{when}\n\n- Built things for 5 teams\n\n"


def resume(*jobs: str, education: str = "") -> str:
    return (
        "# Jane Doe\n\n## Experience\n\n"
        + "".join(jobs)
        + (f"## Education\n\n{education}" if education else "")
    )


def ids(findings: list) -> list[str]:
    return [f.rule_id for f in findings]


def test_clean_resume_has_no_date_findings() -> None:
    text = resume(
        job("Lead — A", "Mar 2021 – Present"),
        job("Engineer — B", "Jun 2018 – Feb 2021"),
        education=job("BS — Uni", "2014 – 2018"),
    )  # a bare year is not a format clash
    assert run(text) == []


@pytest.mark.parametrize(
    ("first", "second", "formats"),
    [
        ("Mar 2021 – Present", "2018-06 – 2021-02", ["Mon YYYY", "YYYY-MM"]),
        ("2021.03 - 至今", "2018/06 - 2021/02", ["YYYY.MM", "YYYY/MM"]),
        ("2021年3月 - 至今", "2018.06 - 2021.02", ["YYYY年M月", "YYYY.MM"]),
        ("03/2021 – Present", "Jun 2018 – Feb 2021", ["MM/YYYY", "Mon YYYY"]),
    ],
)
def test_inconsistent_formats(first: str, second: str, formats: list[str]) -> None:
    findings = run(resume(job("A", first), job("B", second)))
    assert ids(findings) == ["dates.inconsistent-format"]
    assert all(fmt in findings[0].message for fmt in formats)


def test_consistent_chinese_formats() -> None:
    assert run(resume(job("A", "2021.03 - 至今"), job("B", "2018.6 - 2021.02"))) == []


def test_not_reverse_chronological_is_reported_once_per_section() -> None:
    text = resume(
        job("A", "Jan 2015 – Dec 2016"),
        job("B", "Jan 2017 – Dec 2018"),
        job("C", "Jan 2019 – Present"),
    )
    findings = [f for f in run(text) if f.rule_id == "dates.not-reverse-chronological"]
    assert (
        len(findings) == 1 and findings[0].line == 11 and findings[0].section_id == "experience/b"
    )


def test_education_order_is_checked_separately() -> None:
    edu = job("BS — Uni", "Sep 2010 – Jun 2014") + job("MS — Uni", "Sep 2014 – Jun 2016")
    findings = run(resume(job("A", "Jul 2016 – Present"), education=edu))
    assert (
        ids(findings) == ["dates.not-reverse-chronological"]
        and findings[0].section_id == "education/ms-uni"
    )


def test_entries_as_bold_paragraphs_are_found() -> None:
    text = (
        "# Jane\n\n**Experience**\n\n**Analyst — A**\nJan 2016 – Dec 2017\n\n- Built 3 dashboards\n\n"
        "**Analyst — B**\nJan 2019 – Present\n\n- Built 4 dashboards\n"
    )
    assert set(ids(run(text))) == {"dates.not-reverse-chronological", "dates.gap"}


def test_gap_between_jobs() -> None:
    findings = run(resume(job("A", "Mar 2020 – May 2021"), job("B", "Aug 2016 – Nov 2018")))
    assert ids(findings) == ["dates.gap"]
    assert "15 months" in findings[0].message and findings[0].line == 6  # reported at the later job


@pytest.mark.parametrize(
    ("jobs", "education"),
    [
        (
            (job("A", "Jan 2019 – Present"), job("B", "Jan 2018 – Jun 2018")),
            "",
        ),  # 6 months: allowed
        (
            (
                job("A", "Jan 2016 – Present"),
                job("B", "Jan 2017 – Jun 2019"),
                job("C", "Jan 2010 – Feb 2016"),
            ),
            "",
        ),  # concurrent roles
        (
            (job("A", "Jul 2020 – Present"), job("Intern — B", "May 2019 – Aug 2019")),
            job("BS", "Aug 2016 – May 2020"),
        ),  # studying
    ],
)
def test_no_gap(jobs: tuple[str, ...], education: str) -> None:
    assert "dates.gap" not in ids(run(resume(*jobs, education=education)))


def test_seasons_and_quarters_are_dates_with_no_gap_or_format_clash() -> None:
    """Seasons and quarters: "Summer 2018" and "Q1 2015 – Q4 2015" were no dates, and a gap
    was reported across them."""
    findings = run(
        resume(
            job("A", "Jan 2019 – Present"),
            job("Intern — B", "Summer 2018"),
            job("C", "Jan 2016 – May 2018"),
            job("D", "Q1 2015 – Q4 2015"),
        )
    )
    assert ids(findings) == []


def test_end_before_start_is_an_error_and_skipped_by_order_and_gaps() -> None:
    findings = run(resume(job("A", "06/2021 – 02/2021"), job("B", "01/2015 – 12/2016")))
    assert ids(findings) == ["dates.end-before-start"]
    assert findings[0].severity == "error" and findings[0].text == "06/2021 – 02/2021"


def test_future_dates_beyond_next_year() -> None:
    findings = run(resume(job("A", "Jan 2024 – Dec 2028")))
    assert ids(findings) == ["dates.future"] and findings[0].severity == "info"
    assert run(resume(job("A", "Jan 2024 – Dec 2026"))) == []  # next year is fine (expected dates)


def test_dates_inside_bullets_are_not_entries() -> None:
    text = resume(
        "### A\nJan 2020 – Present\n\n- Grew revenue from 2015 – 2019 levels by 30%\n- Kept 2010-01 – 2011-02 data\n\n"
    )
    assert run(text) == []


def test_project_dates_in_headings_count_for_format_but_not_order() -> None:
    text = (
        "# 张三\n\n## 工作经历\n\n### 某公司\n2021.07 - 至今\n\n- 主导 A 项目，提升 30%\n\n"
        "## 项目经历\n\n### 项目一（2020.01 - 2020.06）\n\n- 设计 B，节省 20%\n\n### 项目二（2022/03 - 2022/12）\n\n- 设计 C，节省 10%\n"
    )
    assert ids(run(text)) == ["dates.inconsistent-format"]


def test_chinese_suggestions() -> None:
    text = "# 张三\n\n## 工作经历\n\n### 甲\n2016.01 - 2017.12\n\n- 负责 A\n\n### 乙\n2019.01 - 至今\n\n- 负责 B\n"
    findings = run(text)
    assert {f.rule_id for f in findings} == {"dates.not-reverse-chronological", "dates.gap"}
    assert all(any("\u4e00" <= ch <= "\u9fff" for ch in f.suggestion) for f in findings)


def test_missing_dates_for_jobs_and_degrees_with_content() -> None:
    text = (
        "# Jane\n\n## Experience\n\n### Engineer — Acme\n\n- Built a ledger for 9 teams\n\n"
        "## Projects\n\n### Side project\n\n- Built a compiler in Rust\n\n## Education\n\nBS in CS, State University\n"
    )
    findings = run(text)
    assert [(f.rule_id, f.line, f.text) for f in findings] == [
        ("dates.missing", 5, "Engineer — Acme")
    ]
