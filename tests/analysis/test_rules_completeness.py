"""Completeness rules: contact details and the sections every resume needs."""

from __future__ import annotations

from datetime import date

import pytest

from cvagent_cli.analysis.rules import build_context, completeness
from cvagent_cli.analysis.rules.completeness import detect_name
from cvagent_cli.document.document import ResumeDocument

TODAY = date(2025, 6, 1)
FULL_EN = """# Jane Doe

jane@example.com | +1 555-123-4567 | linkedin.com/in/jane-doe

## Summary

Engineer with 6 years of experience.

## Experience

### Engineer — Acme
Jan 2020 – Present

- Built a ledger for 40M transactions

### Engineer — Beta
Jan 2017 – Dec 2019

- Built a queue for 9 teams

## Education

BS in CS, 2012 – 2016

## Skills

- Go, Python
"""
FULL_ZH = """# 张三

邮箱：zhang@example.com | 电话：138-0013-8000 | github.com/zhang-example

## 个人简介

5 年后端开发经验。

## 工作经历

### 某科技公司 — 工程师
2020.01 - 至今

- 主导订单系统重构，性能提升 30%

## 教育背景

某大学 本科 2012.09 - 2016.06

## 专业技能

- Java、MySQL
"""


def ids(text: str) -> list[str]:
    return [
        f.rule_id for f in completeness.check(build_context(ResumeDocument.from_text(text), TODAY))
    ]


@pytest.mark.parametrize("text", [FULL_EN, FULL_ZH])
def test_complete_resumes(text: str) -> None:
    assert ids(text) == []


@pytest.mark.parametrize(
    ("base", "old", "new", "rule"),
    [
        (FULL_EN, "jane@example.com | ", "", "completeness.missing-email"),
        (FULL_EN, "+1 555-123-4567 | ", "", "completeness.missing-phone"),
        (FULL_EN, " | linkedin.com/in/jane-doe", "", "completeness.missing-link"),
        (
            FULL_EN,
            "## Summary\n\nEngineer with 6 years of experience.\n\n",
            "",
            "completeness.no-summary",
        ),
        (FULL_EN, "## Education\n\nBS in CS, 2012 – 2016\n\n", "", "completeness.no-education"),
        (FULL_EN, "## Skills\n\n- Go, Python\n", "", "completeness.no-skills"),
        (FULL_EN, "# Jane Doe\n\n", "", "completeness.missing-name"),
        (FULL_EN, "# Jane Doe", "# Resume", "completeness.missing-name"),  # no name anywhere else
        (FULL_EN, "# Jane Doe", "# Resume\n\nName: Jane Doe", "completeness.generic-title"),
        (FULL_ZH, "邮箱：zhang@example.com | ", "", "completeness.missing-email"),
        (FULL_ZH, "电话：138-0013-8000 | ", "", "completeness.missing-phone"),
        (FULL_ZH, "电话：138-0013-8000", "电话：138****8000", "completeness.masked-phone"),
        (FULL_EN, "+1 555-123-4567", "Phone: +1 (xxx) xxx-4567", "completeness.masked-phone"),
        (FULL_ZH, " | github.com/zhang-example", "", "completeness.missing-link"),
        (FULL_ZH, "## 专业技能\n\n- Java、MySQL\n", "", "completeness.no-skills"),
        (FULL_ZH, "# 张三", "# 个人简历\n\n姓名：张三", "completeness.generic-title"),
    ],
)
def test_each_missing_piece(base: str, old: str, new: str, rule: str) -> None:
    assert old in base
    assert ids(base.replace(old, new, 1)) == [rule]


def test_no_experience_and_no_projects_is_an_error() -> None:
    text = "# Jane Doe\n\njane@example.com | +1 555-123-4567 | github.com/jane\n\n## Education\n\nBS\n\n## Skills\n\n- Go\n"
    findings = completeness.check(build_context(ResumeDocument.from_text(text), TODAY))
    assert [(f.rule_id, f.severity) for f in findings] == [("completeness.no-experience", "error")]
    assert ids(text + "\n## Projects\n\n- Built a compiler in 3 months\n") == []


def test_summary_expected_only_for_experienced_profiles() -> None:
    no_summary = FULL_EN.replace("## Summary\n\nEngineer with 6 years of experience.\n\n", "")
    one_job = no_summary.replace(
        "### Engineer — Beta\nJan 2017 – Dec 2019\n\n- Built a queue for 9 teams\n\n", ""
    )
    assert ids(one_job) == [
        "completeness.no-summary"
    ]  # one job, Jan 2020 to today (Jun 2025): 66 months
    short = one_job.replace("Jan 2020 – Present", "Jan 2021 – Present")
    assert ids(short) == []  # 54 months and a single job: no summary needed
    interns = no_summary.replace("Engineer — Acme", "Intern — Acme").replace(
        "Engineer — Beta", "Intern — Beta"
    )
    assert ids(interns) == []  # internships do not make an experienced profile


def test_chinese_resume_gets_chinese_suggestions() -> None:
    findings = completeness.check(
        build_context(
            ResumeDocument.from_text(FULL_ZH.replace("邮箱：zhang@example.com | ", "")), TODAY
        )
    )
    assert "邮箱" in findings[0].suggestion


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("# Jane Doe\n\n## Experience\n", "Jane Doe"),
        ("**Priya Natarajan**\n\nData Analyst | Austin, TX\n\n**Experience**\n", "Priya Natarajan"),
        ("# 个人简历\n\n## 基本信息\n\n姓名：张丽\n性别：女\n", "张丽"),
        ("| 项目 | 内容 |\n|---|---|\n| 姓名 | 陈浩然 |\n", "陈浩然"),
        ("## Experience\n\n- Built things\n", None),
        ("jane@example.com\n\n## Experience\n", None),
    ],
)
def test_detect_name(text: str, name: str | None) -> None:
    assert detect_name(ResumeDocument.from_text(text)) == name
