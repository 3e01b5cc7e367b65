"""The analyzer end to end: report contract, ordering, capping, samples, a 20,000-line resume."""

from __future__ import annotations

import re
from collections import Counter
from datetime import date
from pathlib import Path

import pytest

from cvagent_cli.analysis.analyzer import (
    MAX_PER_RULE,
    analyze,
    cap_findings,
    run_rules,
)
from cvagent_cli.analysis.jd import JobDescription
from cvagent_cli.analysis.rules import build_context
from cvagent_cli.analysis.schema import AnalysisReport
from cvagent_cli.analysis.scoring import SCORING_EXPLANATION
from cvagent_cli.document.document import ResumeDocument

TODAY = date(2025, 6, 1)
SAMPLES = Path(__file__).resolve().parents[2] / "sample_resumes"
RESUMES = sorted(p.stem for p in SAMPLES.glob("*.md") if p.stem.startswith(("en_", "zh_")))


def report_for(name: str, jd: JobDescription | None = None) -> AnalysisReport:
    return analyze(ResumeDocument.from_path(SAMPLES / f"{name}.md"), jd, today=TODAY)


@pytest.mark.parametrize("name", RESUMES)
def test_report_contract_for_every_sample(name: str) -> None:
    report = report_for(name)
    again = AnalysisReport.model_validate_json(
        report.model_dump_json()
    )  # validates every nested model
    assert again == report
    assert report.scoring == SCORING_EXPLANATION and report.jd is None
    keys = [(f.line or 0, f.rule_id) for f in report.findings]
    assert keys == sorted(keys)
    assert [c.category for c in report.categories] == [
        "completeness",
        "impact",
        "clarity",
        "dates",
        "ats",
    ]
    doc = ResumeDocument.from_path(SAMPLES / f"{name}.md")
    assert [s.model_dump() for s in report.sections] == doc.outline()
    assert report.stats.words == doc.word_count and report.stats.lines == doc.line_count
    assert report.stats.language == ("zh" if name.startswith("zh_") else "en")
    assert report.basics.name  # every sample has a name, bold-line and 姓名-label ones included
    for finding in report.findings:
        assert finding.category == finding.rule_id.split(".")[0]
        assert finding.text is None or len(finding.text) <= 80


def test_deterministic() -> None:
    assert report_for("en_weak_generalist") == report_for("en_weak_generalist")


@pytest.mark.parametrize(
    ("name", "rules"),
    [
        (
            "en_weak_generalist",
            {
                "impact.weak-opener",
                "impact.no-metric",
                "clarity.first-person",
                "clarity.passive-voice",
                "clarity.buzzword",
                "clarity.too-long",
                "clarity.too-short",
                "clarity.mixed-tense",
                "dates.inconsistent-format",
                "dates.not-reverse-chronological",
                "dates.gap",
                "dates.end-before-start",
                "ats.duplicate",
                "completeness.missing-phone",
                "completeness.missing-link",
                "completeness.no-skills",
            },
        ),
        (
            "zh_weak_operations",
            {
                "impact.weak-opener",
                "impact.no-metric",
                "clarity.first-person",
                "clarity.buzzword",
                "clarity.too-short",
                "dates.inconsistent-format",
                "dates.not-reverse-chronological",
                "completeness.missing-email",
                "completeness.generic-title",
            },
        ),
        ("en_product_manager_table", {"ats.html", "ats.table"}),
        ("zh_mid_java_table", {"ats.table"}),
    ],
)
def test_sample_findings_include(name: str, rules: set[str]) -> None:
    assert rules <= {f.rule_id for f in report_for(name).findings}


@pytest.mark.parametrize(
    "name",
    [
        "en_senior_backend",
        "en_mid_data_analyst",
        "en_new_grad",
        "zh_senior_frontend",
        "zh_new_grad",
    ],
)
def test_strong_samples_have_no_warnings_beyond_a_weak_opener(name: str) -> None:
    serious = [
        f
        for f in report_for(name).findings
        if f.severity != "info" and f.rule_id != "impact.weak-opener"
    ]
    assert serious == []


def test_chinese_suggestions_are_chinese_rewrites() -> None:
    report = report_for("zh_weak_operations")
    weak = [f for f in report.findings if f.rule_id == "impact.weak-opener" and f.text]
    assert weak and all("改为：" in f.suggestion for f in weak)


def test_cap_keeps_eight_per_rule_and_counts_the_rest() -> None:
    head = "# Jane Doe\n\njane@example.com | +1 555-123-4567 | github.com/jane\n\n## Experience\n\n### A\nJan 2020 – Present\n\n"
    doc = ResumeDocument.from_text(
        head + "".join(f"- Helped with {n + 2} tasks for the team\n" for n in range(30))
    )
    report = analyze(doc, today=TODAY)
    weak = [f for f in report.findings if f.rule_id == "impact.weak-opener"]
    assert len(weak) == MAX_PER_RULE + 1
    assert (
        weak[-1].severity == "info"
        and "22 more" in weak[-1].message
        and weak[-1].line == 10 + MAX_PER_RULE
    )
    assert report.category("impact").findings == 30  # category counts are uncapped


def test_cap_findings_leaves_small_groups_alone() -> None:
    raw = run_rules(
        build_context(ResumeDocument.from_path(SAMPLES / "en_senior_backend.md"), TODAY)
    )
    assert [f.to_model() for f in raw] == cap_findings(raw)


def test_with_a_job_description() -> None:
    report = report_for(
        "en_senior_backend", JobDescription.from_path(SAMPLES / "jobs/en_backend.md")
    )
    assert report.jd is not None and report.jd.coverage >= 80
    assert report.jd.source.endswith("jobs/en_backend.md")


ENTRIES = 193  # × 104 lines each: just over 20,000 lines


def _huge_resume() -> str:
    lines = [
        "# Big Person",
        "",
        "big@example.com | +1 555-123-4567 | github.com/big",
        "",
        "## Summary",
        "",
        "Engineer.",
        "",
        "## Experience",
        "",
    ]
    for entry in range(ENTRIES):
        year = 2020 - entry // 2
        lines += [
            f"### Engineer {entry} — Company {entry}",
            f"Jan {year} – Dec {year}" if entry % 2 else f"{year}-01 – {year}-12",
            "",
        ]
        for n in range(100):
            if n % 10 == 0:
                lines.append(
                    "- Helped with scheduling meetings for the managers."
                )  # weak opener + duplicate
            elif n % 10 == 1:
                lines.append(
                    f"- I worked on project {entry}-{n} with <b>the</b> team."
                )  # pronoun + inline HTML
            else:
                lines.append(
                    f"- Built service {entry}-{n} that handled {n * 10} requests per second for the team"
                )
        lines.append("")
    lines += ["## Skills", "", "- Go, Python", "", "## Education", "", "BS, 2000 – 2004"]
    return "\n".join(lines) + "\n"


def test_a_20000_line_resume_is_analyzed_with_capped_findings() -> None:
    text = _huge_resume()
    doc = ResumeDocument.from_text(text)
    assert doc.line_count >= 20_000
    report = analyze(doc, JobDescription.from_path(SAMPLES / "jobs/en_backend.md"), today=TODAY)
    per_rule = Counter(f.rule_id for f in report.findings)
    assert max(per_rule.values()) <= MAX_PER_RULE + 1
    assert len(report.findings) < 150
    more = {
        f.rule_id: int(re.search(r"and (\d+) more", f.message).group(1))
        for f in report.findings
        if "more like this" in f.message
    }  # type: ignore[union-attr]
    assert (
        more["ats.duplicate"] == ENTRIES * 10 - 1 - MAX_PER_RULE
    )  # the first copy is not a duplicate
    assert more["clarity.first-person"] == ENTRIES * 10 - MAX_PER_RULE
    assert more["ats.html"] == ENTRIES * 10 - MAX_PER_RULE
    assert (
        more["impact.weak-opener"] == ENTRIES * 20 - MAX_PER_RULE
    )  # "Helped with" and "I worked on"
    assert "dates.inconsistent-format" in per_rule and "dates.gap" not in per_rule
    assert (
        report.category("impact").findings > 3000
    )  # scores see every finding, not the capped list
    bullets = ENTRIES * 100
    # "Built … 20 requests per second" carries a metric; "project 3-5" names a project
    assert report.category("impact").explanation.startswith(
        f"{bullets * 8 // 10} of {bullets} bullets carry a metric (80%)"
    )
    assert (
        report.stats.bullets == bullets + 1 and report.stats.estimated_pages > 2
    )  # + the skills bullet
    assert "ats.too-long" in per_rule
    assert report.jd is not None and "Go" in {h.keyword for h in report.jd.matched}
    assert 0 <= report.score <= 100


_MARKDOWNISH = "abcdefghij ABC 负责参与提升 0123456789 %$–-~/.:：|*#\n\n- 2019.03 - 至今 Mar 2020 – Present I we <br>"


def test_any_text_gives_a_valid_report() -> None:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    lines = st.lists(
        st.one_of(
            st.text(alphabet=_MARKDOWNISH, max_size=60),
            st.sampled_from(
                [
                    "## Experience",
                    "## 工作经历",
                    "### Acme",
                    "## Education",
                    "| a | b |",
                    "|---|---|",
                    "```",
                    "---",
                ]
            ),
            st.builds(lambda t: "- " + t, st.text(alphabet=_MARKDOWNISH, max_size=80)),
        ),
        max_size=25,
    )

    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(lines)
    def check(parts: list[str]) -> None:
        report = analyze(ResumeDocument.from_text("\n".join(parts)), today=TODAY)
        assert AnalysisReport.model_validate_json(report.model_dump_json()) == report
        assert 0 <= report.score <= 100

    check()
