"""The rule catalogue and the rules agree: every id a rule emits has a row, every row is
emitted by some resume, and each finding carries the row's severity, category and fix."""

from __future__ import annotations

import string
from datetime import date
from pathlib import Path

import pytest

from cvagent_cli import languages
from cvagent_cli.analysis.analyzer import not_a_resume_finding, run_rules
from cvagent_cli.analysis.rules import RawFinding, build_context
from cvagent_cli.analysis.rules.catalogue import FIELDS, RULES, constant_fields
from cvagent_cli.analysis.rules.descriptions import describe
from cvagent_cli.document.document import ResumeDocument

TODAY = date(2025, 6, 1)
ROOT = Path(__file__).resolve().parents[2]
FILES = sorted(
    [*ROOT.glob("sample_resumes/*.md"), *ROOT.glob("tests/analysis/corpus/*.md")],
    key=lambda p: p.name,
)
FILLER_EN = (
    "- Built a reporting pipeline for 12 regional teams and cut manual work by 30 percent.\n"
)
FILLER_ZH = "- 主导订单系统重构，接口延迟从一秒降到两百毫秒，大促期间稳定支撑十万级并发访问请求。\n"
# What the sample resumes and the corpus happen not to contain, in both languages: a stray
# byte, broken front matter, a 600-character line, a far-future date, an unknown heading, a
# resume far too long, and one without any heading.
CRAFTED = {
    "en-odd": "---\nname: [unclosed\n---\n# Jane Doe\n\n## Summary\x07\n\n"
    + "x" * 600
    + "\n\n## Fun Facts\n\nI juggle.\n\n## Experience\n\n### Acme\nJan 2024 – Dec 2090\n\n"
    + FILLER_EN * 90,
    "zh-odd": "---\nname: [unclosed\n---\n# 张三\n\n## 个人简介\x07\n\n"
    + "字" * 600
    + "\n\n## 兴趣爱好\n\n喜欢跑步。\n\n## 工作经历\n\n### 某公司\n2024.01 - 2090.12\n\n"
    + FILLER_ZH * 60,
    # a reversed range, a gap, a 90-character bullet, an English noun-phrase bullet and an
    # unknown heading in a Chinese resume whose first line names a company, not a person
    "zh-dates": "## 工作经历\n\n### 甲公司\n2021.06 - 2021.02\n\n- 负责后端服务的开发与维护工作，提升 30%\n\n"
    "### 丙公司\n2018.01 - 2019.12\n\n- 主导订单系统重构，接口延迟从一秒降到两百毫秒，大促期间稳定支撑十万级"
    "并发访问请求，同时负责团队建设与新人培养，推动代码评审制度落地，覆盖全部十二个业务线的核心服务与数据链路，"
    "并持续优化。\n- Migration of services to the cloud platform for 12 teams\n\n"
    "### 乙公司\n2015.01 - 2016.12\n\n- 搭建数据平台，覆盖 10 个部门\n\n## 随笔札记\n\n喜欢跑步。\n",
    "zh-no-name": "联系邮箱：zhangsan@example.com\n\n"
    + "做了很多年的很多事情，积累了丰富经验。\n" * 40,
    "en-no-headings": "Jane Doe\njane@example.com\n\n" + "Did many things for many years.\n" * 40,
    "zh-no-headings": "张三\nzhangsan@example.com\n\n"
    + "做了很多年的很多事情，积累了丰富经验。\n" * 40,
}


def findings_of(text: str) -> list[RawFinding]:
    ctx = build_context(ResumeDocument.from_text(text), TODAY)
    return [*run_rules(ctx), not_a_resume_finding(ctx)]


@pytest.fixture(scope="module")
def emitted() -> dict[tuple[str, str], list[RawFinding]]:
    """(rule id, resume language) -> the findings of that rule over every resume."""
    texts = [p.read_text(encoding="utf-8") for p in FILES] + list(CRAFTED.values())
    found: dict[tuple[str, str], list[RawFinding]] = {}
    for text in texts:
        lang = ResumeDocument.from_text(text).language
        for finding in findings_of(text):
            found.setdefault((finding.rule_id, lang), []).append(finding)
    return found


def test_every_emitted_id_has_a_catalogue_row(emitted):
    assert {rule for rule, _ in emitted} - set(RULES) == set()


def test_every_catalogue_row_is_emitted_by_some_resume(emitted):
    assert set(RULES) - {rule for rule, _ in emitted} == set()


def test_every_chinese_fix_is_shown_on_some_chinese_resume(emitted):
    with_zh = set(languages.get("zh").fixes)
    assert with_zh - {rule for rule, lang in emitted if lang == "zh"} == set()


def test_every_fix_belongs_to_a_rule_and_every_rule_has_a_fallback_fix():
    fallback = languages.get(languages.FALLBACK)
    assert set(fallback.fixes) == set(RULES)
    for language in languages.every():
        assert set(language.fixes) | set(language.plain_fixes) <= set(RULES), language


def test_findings_carry_their_rows_severity_category_and_fix(emitted):
    for (rule, _), findings in emitted.items():
        spec = RULES[rule]
        for finding in findings:
            assert finding.category == spec.category
            assert finding.severity == spec.severity or spec.severity_note, finding
            assert "{" not in finding.suggestion, finding  # no template field left unfilled


@pytest.mark.parametrize("spec", RULES.values(), ids=list(RULES))
def test_every_fix_field_is_explained_and_every_explained_field_used(spec):
    """Constant fields are filled by the catalogue; each other field has a line in FIELDS
    (the reference page's legend)."""
    for language, template in templates_of(spec):
        assert set(fields_of(template)) <= set(constant_fields(language)) | set(FIELDS), spec.id
    assert describe(spec).endswith(".") and spec.severity in ("error", "warning", "info")


def test_no_field_is_explained_that_no_fix_uses():
    used = {
        name
        for spec in RULES.values()
        for _, template in templates_of(spec)
        for name in fields_of(template)
    }
    assert set(FIELDS) <= used


def templates_of(spec):
    """Every language's fix and plain fix of ``spec``, with their language."""
    return [
        (language, table[spec.id])
        for language in languages.every()
        for table in (language.fixes, language.plain_fixes)
        if spec.id in table
    ]


def fields_of(template: str) -> list[str]:
    return [name for _, name, _, _ in string.Formatter().parse(template) if name]
