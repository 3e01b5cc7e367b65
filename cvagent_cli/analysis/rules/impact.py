"""Impact: do experience and project bullets show results (numbers) and ownership (verbs)?

Runs on the bullets of experience, projects and volunteer sections, or on their paragraphs
when a section has no bullets (Chinese resumes often write prose or numbered lists).
The share of measured items that carry a metric drives the impact score (see scoring.py),
so ``check`` also leaves an ``ImpactStats`` in ``ctx.extras["impact"]``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cvagent_cli.analysis.rules import (
    IMPACT_KINDS,
    Context,
    Item,
    RawFinding,
    en_words,
    for_item,
)
from cvagent_cli.analysis.rules.lexicon import (
    STRONG_VERBS_EN,
    STRONG_VERBS_ZH,
    WEAK_OPENERS_EN,
    WEAK_OPENERS_ZH,
)
from cvagent_cli.analysis.rules.metrics import has_metric
from cvagent_cli.analysis.rules.rewrite import capitalised, en_core, zh_core
from cvagent_cli.document.dates import find_ranges

_WEAK_EN_RE = re.compile(
    r"^\W*(?:i\s+|we\s+)?(?:was\s+|were\s+|am\s+)?("
    + "|".join(re.escape(w) for w in WEAK_OPENERS_EN)
    + r")\b",
    re.IGNORECASE,
)
_WEAK_ZH_RE = re.compile(r"^\W*(?:我|本人)?(" + "|".join(WEAK_OPENERS_ZH) + ")")
_LEADING_FIGURES = frozenset("0123456789$€£¥")


@dataclass(frozen=True)
class ImpactStats:
    measured: int  # bullets (or prose paragraphs) that the impact rules looked at
    with_metric: int
    weak_openers: int

    @property
    def metric_share(self) -> float:
        return self.with_metric / self.measured if self.measured else 0.0

    @property
    def weak_share(self) -> float:
        return self.weak_openers / self.measured if self.measured else 0.0


def weak_opener(item: Item) -> str | None:
    match = (_WEAK_ZH_RE if item.zh else _WEAK_EN_RE).match(item.text)
    return match.group(1) if match else None


def measured_items(ctx: Context) -> list[Item]:
    """Bullets of impact sections; paragraphs only where a section has no bullets."""
    chosen: list[Item] = []
    for item in ctx.items:
        if item.kind not in IMPACT_KINDS or item.label:
            continue
        if not item.is_bullet and (item.section.bullets or _header_like(item)):
            continue
        chosen.append(item)
    return chosen


def _header_like(item: Item) -> bool:
    """A "Company — Title  2019 – 2021" line or a short title, not a sentence about work."""
    size = len(item.text) if item.zh else len(en_words(item.text))
    if size < (8 if item.zh else 4):
        return True
    ranges = find_ranges(item.text)
    return bool(ranges) and size < (40 if item.zh else 14)


def check(ctx: Context) -> list[RawFinding]:
    findings: list[RawFinding] = []
    items = measured_items(ctx)
    metrics = weak = 0
    for item in items:
        opener = weak_opener(item)
        if has_metric(item.text, item.tokens):
            metrics += 1
        else:
            findings.append(
                for_item(
                    "impact.no-metric",
                    "warning",
                    item,
                    "No number shows the scale or the result of this work.",
                    _no_metric_fix(ctx, item),
                )
            )
        if opener:
            weak += 1
            findings.append(
                for_item(
                    "impact.weak-opener",
                    "warning",
                    item,
                    f'Weak opener "{opener}" describes a duty, not what you achieved.',
                    _weak_opener_fix(ctx, item, opener),
                )
            )
        elif (
            item.is_bullet
            and not item.zh
            and item.kind != "volunteer"
            and not _starts_with_verb(item)
        ):
            findings.append(
                for_item(
                    "impact.no-action-verb",
                    "info",
                    item,
                    "Bullet does not start with an action verb.",
                    _action_verb_fix(ctx, item),
                )
            )
    ctx.extras["impact"] = ImpactStats(len(items), metrics, weak)
    return findings


# The fixes, each built only in the resume's language.  An example keeps the user's own
# claim ("helped" never becomes "led", 协助 never 主导) and marks what only they can fill in.
def _no_metric_fix(ctx: Context, item: Item) -> str:
    if ctx.lang == "zh":
        return (
            "补充量化结果（规模、比例、时间），方括号换成你的真实数字。"
            f"改为：{zh_core(item.text)}，[结果：规模 / 比例 / 时间，如 N 人、X%、N 小时]"
        )
    return (
        "Add the number only you know — how much, how many, how fast — e.g. "
        f'"{capitalised(en_core(item.text))} — [how many / how much / how fast: N, X%]".'
    )


def _weak_opener_fix(ctx: Context, item: Item, opener: str) -> str:
    if ctx.lang == "zh":
        return (
            f"写清你本人做了什么：只在属实时才用{STRONG_VERBS_ZH}等动词，并写出结果。"
            f"改为：{zh_core(item.text)}，[你具体做了什么]，使[指标]提升[X%]"
        )
    return (
        f"Say what you did yourself with a verb that is true of your part ({STRONG_VERBS_EN}… "
        "only if they are), and end with the result, e.g. "
        f'"[your verb] {en_core(item.text, opener)}, [result: X% / N]".'
    )


def _action_verb_fix(ctx: Context, item: Item) -> str:
    if ctx.lang == "zh":
        return (
            f"以动词开头描述你做了什么（{STRONG_VERBS_ZH}…，只用属实的）。"
            f"改为：[动词]{zh_core(item.text)}，使[指标]提升[X%]"
        )
    return (
        f"Lead with a past-tense action verb for what you did ({STRONG_VERBS_EN}… only if "
        f'true), e.g. "[verb] {en_core(item.text)}" instead of a noun phrase.'
    )


def _starts_with_verb(item: Item) -> bool:
    if item.text.lstrip(" *_-•·\"'“(")[:1] in _LEADING_FIGURES:
        return True  # "30+ analyses …", "$1.2M saved …": leading with the result is fine
    word = item.first_word
    if not word:
        return True
    # Any capitalised -ed word at the start is a past-tense verb in practice ("Geocoded").
    return item.first_lemma is not None or (word.lower().endswith("ed") and len(word) >= 5)
