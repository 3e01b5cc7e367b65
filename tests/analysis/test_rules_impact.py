"""Impact rules: metrics, weak openers and action verbs, on English and Chinese bullets."""

from __future__ import annotations

from datetime import date

import pytest

from cvagent_cli.analysis.rules import build_context, impact
from cvagent_cli.analysis.rules.impact import ImpactStats, has_metric
from cvagent_cli.document.document import ResumeDocument

TODAY = date(2025, 6, 1)
EN_HEAD = "# Jane Doe\n\njane@example.com | +1 555-123-4567 | github.com/jane\n\n## Experience\n\n### Engineer — Acme\nJan 2020 – Present\n\n"
ZH_HEAD = "# 张三\n\n邮箱：zhang@example.com | 电话：138-0013-8000\n\n## 工作经历\n\n### 某科技公司 — 工程师\n2020.01 - 至今\n\n"


def run(text: str) -> tuple[list, ImpactStats]:
    ctx = build_context(ResumeDocument.from_text(text), TODAY)
    findings = impact.check(ctx)
    return findings, ctx.extras["impact"]  # type: ignore[return-value]


def rules_for(bullet: str, zh: bool = False) -> set[str]:
    findings, _ = run((ZH_HEAD if zh else EN_HEAD) + f"- {bullet}\n")
    return {f.rule_id for f in findings}


@pytest.mark.parametrize(
    "text",
    [
        "Cut deploy time by 45%",
        "Saved $1.2M a year",
        "Scaled to 40M requests",
        "Grew revenue 3x",
        "Served 2,600 accounts",
        "Hired a dozen engineers",
        "Doubled conversion",
        "Trained three new hires",
        "转化率提升了35%",
        "支撑日活 100 万",
        "吞吐量提升三倍",
        "覆盖数十个业务线",
        "带领十人团队",
        "成本降低百分之二十",
        "拆分为 6 个微服务",
        "用户量翻番",
    ],
)
def test_has_metric_positive(text: str) -> None:
    assert has_metric(text)


@pytest.mark.parametrize(
    "text",
    [
        "Answered phones",
        "Migrated services to EC2 and S3",
        "Kept p99 visible on dashboards",
        "Joined in 2022",
        "负责店铺日常运营工作",
        "参与用户调研",
        "协助主管完成各项工作",
        "熟悉个人项目管理",
    ],
)
def test_has_metric_negative(text: str) -> None:
    assert not has_metric(text)


@pytest.mark.parametrize(
    ("bullet", "zh", "expected"),
    [
        ("Responsible for answering phones for the office.", False, True),
        ("Helped with scheduling meetings for the managers.", False, True),
        ("I worked on the new employee onboarding binders.", False, True),
        ("Was tasked with updating the knowledge base articles.", False, True),
        ("Participated in the quarterly planning of 3 teams.", False, True),
        ("In charge of the front desk for 2 years.", False, True),
        ("Led a 6-engineer team through a migration of 14 services.", False, False),
        ("Built a helper library used by 40 services.", False, False),  # "help" inside a word
        ("负责店铺日常运营工作。", True, True),
        ("主要负责用户运营，覆盖 2 万用户。", True, True),
        ("我负责和快递公司对接。", True, True),
        ("参与短视频的策划和拍摄。", True, True),
        ("协助组织线下活动 12 场。", True, True),
        ("主导商城主站重构，首屏时间从 3.8 秒降至 1.2 秒。", True, False),
        ("带领 8 人团队负责商家后台，日活 100 万。", True, False),  # 负责 not at the start
    ],
)
def test_weak_opener(bullet: str, zh: bool, expected: bool) -> None:
    assert ("impact.weak-opener" in rules_for(bullet, zh)) is expected


def test_weak_opener_suggestion_is_a_chinese_rewrite_for_chinese_resumes() -> None:
    findings, _ = run(ZH_HEAD + "- 负责店铺日常运营工作。\n")
    weak = next(f for f in findings if f.rule_id == "impact.weak-opener")
    assert "改为：负责店铺日常运营工作" in weak.suggestion
    en, _ = run(EN_HEAD + "- Responsible for answering phones.\n")
    assert "led, built" in next(f for f in en if f.rule_id == "impact.weak-opener").suggestion


@pytest.mark.parametrize(
    ("bullet", "zh", "upgrade"),
    [
        ("Worked closely with other departments to ensure customer satisfaction.", False, "Led"),
        ("Helped with scheduling meetings for the managers.", False, "Led"),
        ("协助主管完成各项工作。", True, "主导"),
        ("参与店铺大促活动。", True, "主导"),
    ],
)
def test_a_weak_opener_example_never_upgrades_the_claim(
    bullet: str, zh: bool, upgrade: str
) -> None:
    findings, _ = run((ZH_HEAD if zh else EN_HEAD) + f"- {bullet}\n")
    weak = next(f for f in findings if f.rule_id == "impact.weak-opener")
    example = weak.suggestion.split("改为：")[-1] if zh else weak.suggestion.split("e.g.")[-1]
    assert upgrade not in example
    if zh:
        assert example.startswith(bullet.rstrip("。"))  # 协助 stays 协助


@pytest.mark.parametrize(
    ("bullet", "expected"),
    [
        ("Various duties as assigned at the store.", True),
        ("Visitors were greeted and signed in by me.", True),
        ("Built a Tableau dashboard for 45 managers.", False),
        ("Geocoded 48,000 service requests by district.", False),  # unknown -ed verb still counts
        ("Leads a team of 5 analysts on pricing.", False),
        ("Tech: Go, Kafka, PostgreSQL", False),  # a label line, not a bullet about work
        ("30+ ad hoc analyses for clinical operations.", False),  # starts with a number
    ],
)
def test_action_verb(bullet: str, expected: bool) -> None:
    assert ("impact.no-action-verb" in rules_for(bullet)) is expected


def test_action_verb_not_checked_outside_experience_and_projects() -> None:
    text = (
        EN_HEAD.replace("## Experience", "## Leadership").replace("### Engineer — Acme\n", "")
        + "- Teaching Assistant for 40 students\n"
    )
    assert "impact.no-action-verb" not in {f.rule_id for f in run(text)[0]}


def test_only_work_sections_are_measured() -> None:
    text = (
        EN_HEAD
        + "- Built a thing for 5 teams\n\n## Skills\n\n- Python, Go\n\n## Education\n\n- BS in CS\n"
    )
    findings, stats = run(text)
    assert stats == ImpactStats(measured=1, with_metric=1, weak_openers=0)
    assert findings == []


def test_prose_paragraphs_are_measured_when_a_section_has_no_bullets() -> None:
    text = (
        "# 张三\n\n## 项目经历\n\n### 库存中心重构\n\n2022.03 - 2022.12\n\n"
        "主导库存领域模型设计，统一 4 套历史库存逻辑，库存准确率从 97.5% 提升至 99.95%。\n\n"
        "### 监控平台\n\n负责监控平台的接入工作，配合运维同事完成上线。\n"
    )
    findings, stats = run(text)
    assert (
        stats.measured == 2 and stats.with_metric == 1 and stats.weak_openers == 1
    )  # the date line is not measured
    assert {(f.rule_id, f.line) for f in findings} == {
        ("impact.no-metric", 13),
        ("impact.weak-opener", 13),
    }


def test_stats_shares() -> None:
    _, stats = run(
        EN_HEAD + "- Built X for 5 teams\n- Helped with Y\n- Wrote Z\n- Shipped W to 9 users\n"
    )
    assert (stats.measured, stats.with_metric, stats.weak_openers) == (4, 2, 1)
    assert stats.metric_share == 0.5 and stats.weak_share == 0.25
    assert ImpactStats(0, 0, 0).metric_share == 0.0


@pytest.mark.parametrize(
    "text",
    [
        "Rebuilt the pipeline, cutting month-end close from 3 days to 6 hours",
        "Mentored 4 junior engineers",
        "Reduced bundle size by 35% with Vue 3",
        "Ranked 1st of 40 teams in the national hackathon",
        "带领10人小组重构计费服务",
        "支撑日均百万级订单",
        "点击率提升40%",
        "将测试时间从 15 分钟缩短到 4 分钟",
        "获得省赛第一名",
    ],
)
def test_results_and_scale_are_metrics(text: str) -> None:
    assert has_metric(text)


@pytest.mark.parametrize(
    "text",
    [
        "Migrated the build from Java 8 to Java 11",
        "Maintained scripts in Python 3",
        "Rewrote the landing page in HTML5",
        "Worked on 2D/3D calibration tools in C++17",
        "Upgraded the firewall firmware to version 9.1",
        "Brings 5+ years of experience in backend development",
        "Worked there from 03/2019 to 06/2021",
        "Call me on 8866020042",
        "10年开发经验，熟悉前端工程化",
        "2016/10 - 2024/02 在东岳软件任职",
        "使用 Three.js 开发 3D 展示页面",
        "维护 Vue 2 老项目并升级到 Vue 3",
        "负责一个模块的开发",
        "28岁，本科",
    ],
)
def test_dates_versions_tenure_phones_are_not_metrics(text: str) -> None:
    assert not has_metric(text)


def test_a_decimal_after_a_product_name_is_a_version_not_a_metric() -> None:
    assert not has_metric("Integrated with Camunda 8.5 to automate approval workflows.")
    assert has_metric("Raised the app rating to 4.8 from 3.9")
