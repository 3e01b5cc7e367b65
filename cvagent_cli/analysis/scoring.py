"""Scores: five categories from 0 to 100 and their weighted mean.

All constants live in ``ScoringConstants`` so the README and ``--explain`` can print them
(``SCORING_EXPLANATION`` is built from them).  Scores are computed from *all* findings,
before the report caps repetitive ones, so capping the display never changes a score.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from cvagent_cli.analysis.rules.impact import ImpactStats
from cvagent_cli.analysis.schema import CATEGORIES, CategoryScore
from cvagent_cli.wording import plural


class Scored(Protocol):
    """What scoring reads from a finding (a ``Finding`` or the rules' ``RawFinding``)."""

    rule_id: str
    severity: str
    category: str


@dataclass(frozen=True)
class ScoringConstants:
    completeness_weight: float = 0.20
    impact_weight: float = 0.30
    clarity_weight: float = 0.20
    dates_weight: float = 0.10
    ats_weight: float = 0.20
    error_points: int = 15
    warning_points: int = 8
    info_points: int = 2
    # Only the heaviest few findings of one rule count, so that one habit repeated on every
    # line (or a long resume) does not sink a category on its own.
    per_rule_cap: int = 3
    # Impact = 100 × metric share − weak_opener_weight × weak-opener share.
    weak_opener_weight: float = 40.0

    def weight(self, category: str) -> float:
        return float(getattr(self, f"{category}_weight"))

    def points(self, severity: str) -> int:
        return int(getattr(self, f"{severity}_points"))


CONSTANTS = ScoringConstants()


def _explanation(c: ScoringConstants) -> str:
    weights = ", ".join(f"{cat} {c.weight(cat):.2f}" for cat in CATEGORIES)
    return "\n".join(
        (
            "Each category is scored from 0 to 100.",
            f"- impact = 100 × (share of experience/project bullets with a metric) − {c.weak_opener_weight:g} × (share of bullets "
            'that open with a weak phrase such as "Responsible for" / "负责"); 0 when there are no such bullets.',
            f"- completeness, clarity, dates, ats = 100 − penalties: error {c.error_points}, warning {c.warning_points}, "
            f"info {c.info_points} points per finding; only the {c.per_rule_cap} heaviest findings of each rule count.",
            "- clarity scores 0 when the resume has no bullets or paragraphs to read, and dates 0 when no entry "
            "has a date range: an empty section list must not earn full marks.",
            "- every category is clamped to 0..100.",
            f"Overall = round(weighted mean) with weights: {weights}.",
            "Findings are counted before the report shortens repetitive ones, so the display cap never changes a score.",
            "Estimated pages = English words / 450 + Chinese characters / 800.",
        )
    )


SCORING_EXPLANATION = _explanation(CONSTANTS)


def _clamp(value: float) -> int:
    return max(0, min(100, round(value)))


def impact_score(stats: ImpactStats | None, c: ScoringConstants = CONSTANTS) -> tuple[int, str]:
    if not stats or not stats.measured:
        return 0, "no experience or project bullets to measure: 0"
    m, w = stats.metric_share, stats.weak_share
    score = _clamp(100 * m - c.weak_opener_weight * w)
    return score, (
        f"{stats.with_metric} of {plural(stats.measured, 'bullet')} {'carries' if stats.measured == 1 else 'carry'} a metric ({m:.0%}); "
        f"{plural(stats.weak_openers, 'weak opener')} ({w:.0%}): "
        f"100 × {m:.2f} − {c.weak_opener_weight:g} × {w:.2f} = {score}"
    )


def penalty_score(findings: Sequence[Scored], c: ScoringConstants = CONSTANTS) -> tuple[int, str]:
    if not findings:
        return 100, "no findings: 100"
    by_rule: dict[str, list[int]] = defaultdict(list)
    for finding in findings:
        by_rule[finding.rule_id].append(c.points(finding.severity))
    counted: dict[str, list[int]] = defaultdict(list)
    skipped = 0
    for rule_points in by_rule.values():
        rule_points.sort(reverse=True)
        skipped += max(0, len(rule_points) - c.per_rule_cap)
        for points in rule_points[: c.per_rule_cap]:
            counted[_severity_of(points, c)].append(points)
    parts = [
        f"{sum(p)} ({plural(len(p), sev)} × {p[0]})"
        for sev, p in sorted(counted.items(), key=lambda kv: -kv[1][0])
    ]
    score = _clamp(100 - sum(sum(p) for p in counted.values()))
    text = "100 − " + " − ".join(parts) + f" = {score}"
    if skipped:
        text += f"; {plural(skipped, 'more finding')} beyond {c.per_rule_cap} per rule not counted"
    return score, text


def _severity_of(points: int, c: ScoringConstants) -> str:
    return {c.error_points: "error", c.warning_points: "warning"}.get(points, "info")


_NOTHING = {
    "clarity": "no bullets or paragraphs to assess: 0",
    "dates": "no dated entries to check: 0",
}


def score_categories(
    findings: Sequence[Scored],
    impact: ImpactStats | None,
    c: ScoringConstants = CONSTANTS,
    assessed: Mapping[str, int] | None = None,
) -> list[CategoryScore]:
    """``assessed`` says how much each category had to look at (clarity: bullets and
    paragraphs; dates: dated entries); a category given 0 scores 0 instead of 100."""
    scores: list[CategoryScore] = []
    for category in CATEGORIES:
        mine = [f for f in findings if f.category == category]
        if category == "impact":
            score, text = impact_score(impact, c)
        elif assessed is not None and assessed.get(category, 1) == 0:
            score, text = 0, _NOTHING.get(category, "nothing to assess: 0")
        else:
            score, text = penalty_score(mine, c)
        scores.append(
            CategoryScore(
                category=category,
                score=score,
                weight=c.weight(category),
                findings=len(mine),
                explanation=text,
            )
        )
    return scores


def overall_score(categories: list[CategoryScore]) -> int:
    total = sum(cat.weight for cat in categories)
    return _clamp(sum(cat.score * cat.weight for cat in categories) / total) if total else 0
