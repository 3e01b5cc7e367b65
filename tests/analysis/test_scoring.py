"""Scoring: the formula, its constants, and the sample resumes' ordering."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from cvagent_cli.analysis.analyzer import analyze
from cvagent_cli.analysis.rules import make
from cvagent_cli.analysis.rules.impact import ImpactStats
from cvagent_cli.analysis.scoring import (
    CONSTANTS,
    SCORING_EXPLANATION,
    ScoringConstants,
    impact_score,
    overall_score,
    penalty_score,
    score_categories,
)
from cvagent_cli.document.document import ResumeDocument

TODAY = date(2025, 6, 1)
SAMPLES = Path(__file__).resolve().parents[2] / "sample_resumes"
STRONG = [
    "en_senior_backend",
    "en_mid_data_analyst",
    "en_new_grad",
    "en_product_manager_table",
    "zh_senior_frontend",
    "zh_new_grad",
    "zh_mid_java_table",
]
WEAK = ["en_weak_generalist", "zh_weak_operations"]

SMALL = """# Jane Doe

jane@example.com | +1 555-123-4567 | github.com/jane

## Summary

Backend engineer with 6 years of experience.

## Experience

### Engineer — Acme
Jan 2020 – Present

- Built a ledger service for 40M transactions per day
- Responsible for the on-call rotation of the team
- Shipped a billing API used by 12 teams
- Cut cloud spend by 30% in two quarters

## Education

BS in CS, 2012 – 2016

## Skills

- Go, Python, PostgreSQL
"""


def score(name: str) -> int:
    return analyze(ResumeDocument.from_path(SAMPLES / f"{name}.md"), today=TODAY).score


def test_small_resume_exact_numbers() -> None:
    report = analyze(ResumeDocument.from_text(SMALL), today=TODAY)
    got = {c.category: c.score for c in report.categories}
    # impact: 3 of 4 bullets carry a metric, 1 weak opener → 100 × 0.75 − 40 × 0.25 = 65
    # ats: under 150 words → one warning → 100 − 8 = 92; everything else is clean
    assert got == {"completeness": 100, "impact": 65, "clarity": 100, "dates": 100, "ats": 92}
    assert report.score == round(0.2 * 100 + 0.3 * 65 + 0.2 * 100 + 0.1 * 100 + 0.2 * 92) == 88
    impact = report.category("impact")
    assert (
        impact.explanation
        == "3 of 4 bullets carry a metric (75%); 1 weak opener (25%): 100 × 0.75 − 40 × 0.25 = 65"
    )
    assert report.category("ats").explanation == "100 − 8 (1 warning × 8) = 92"
    assert report.category("clarity").explanation == "no findings: 100"


def test_penalties_and_the_per_rule_cap() -> None:
    findings = [make("clarity.buzzword", "warning", "m", "s") for _ in range(5)]
    findings += [
        make("clarity.too-long", "error", "m", "s"),
        make("clarity.passive-voice", "info", "m", "s"),
        make("clarity.passive-voice", "info", "m", "s"),
    ]
    value, text = penalty_score(findings)
    assert value == 100 - 3 * 8 - 15 - 2 * 2 == 57
    assert (
        text
        == "100 − 15 (1 error × 15) − 24 (3 warnings × 8) − 4 (2 infos × 2) = 57; 2 more findings beyond 3 per rule not counted"
    )
    assert penalty_score([make("ats.table", "error", "m", "s")] * 10)[0] == 55  # 3 × 15 counted
    assert penalty_score([]) == (100, "no findings: 100")


def test_impact_formula_edges() -> None:
    assert impact_score(None)[0] == 0
    assert impact_score(ImpactStats(0, 0, 0)) == (
        0,
        "no experience or project bullets to measure: 0",
    )
    assert impact_score(ImpactStats(10, 10, 0))[0] == 100
    assert impact_score(ImpactStats(10, 0, 10))[0] == 0  # clamped, never negative
    assert impact_score(ImpactStats(10, 5, 5))[0] == 30


def test_a_longer_resume_is_not_punished_for_more_bullets() -> None:
    head = "# Jane Doe\n\njane@example.com | +1 555-123-4567 | github.com/jane\n\n## Experience\n\n### Engineer — Acme\nJan 2020 – Present\n\n"
    short = head + "".join(
        f"- Built service {n} for 12 teams in 3 months\n"
        if n % 2
        else "- Helped with the service for the teams\n"
        for n in range(4)
    )
    long = head + "".join(
        f"- Built service {n} for 12 teams in 3 months\n"
        if n % 2
        else "- Helped with the service for the teams\n"
        for n in range(40)
    )
    assert (
        analyze(ResumeDocument.from_text(short), today=TODAY).category("impact").score
        == analyze(ResumeDocument.from_text(long), today=TODAY).category("impact").score
        == 30
    )


def test_weights_and_overall() -> None:
    cats = score_categories([], ImpactStats(2, 1, 0))
    assert [(c.category, c.weight) for c in cats] == [
        ("completeness", 0.2),
        ("impact", 0.3),
        ("clarity", 0.2),
        ("dates", 0.1),
        ("ats", 0.2),
    ]
    assert sum(c.weight for c in cats) == pytest.approx(1.0)
    assert (
        overall_score(cats) == round(0.2 * 100 + 0.3 * 50 + 0.2 * 100 + 0.1 * 100 + 0.2 * 100) == 85
    )


def test_explanation_states_the_constants() -> None:
    c = CONSTANTS
    for value in (c.error_points, c.warning_points, c.info_points, c.per_rule_cap):
        assert str(value) in SCORING_EXPLANATION
    assert (
        "0.30" in SCORING_EXPLANATION
        and "450" in SCORING_EXPLANATION
        and "800" in SCORING_EXPLANATION
    )
    assert ScoringConstants(warning_points=10).points("warning") == 10
    assert ScoringConstants().weight("impact") == 0.30


@pytest.mark.parametrize("name", STRONG)
def test_strong_samples_score_at_least_80(name: str) -> None:
    assert score(name) >= 80


@pytest.mark.parametrize("name", WEAK)
def test_weak_samples_score_at_most_55(name: str) -> None:
    assert score(name) <= 55


def test_every_strong_sample_beats_every_weak_one() -> None:
    strong = {n: score(n) for n in STRONG}
    weak = {n: score(n) for n in WEAK}
    assert min(strong.values()) > max(weak.values()) + 20, (strong, weak)


def test_nothing_to_assess_scores_zero_not_full_marks() -> None:
    empty = analyze(ResumeDocument.from_text(""), today=TODAY)
    got = {c.category: c.score for c in empty.categories}
    assert got["clarity"] == got["dates"] == got["impact"] == 0 and empty.score < 30
    assert empty.category("dates").explanation == "no dated entries to check: 0"
    cats = score_categories([], ImpactStats(1, 1, 0), assessed={"clarity": 3, "dates": 0})
    assert [c.score for c in cats] == [100, 100, 100, 0, 100]
