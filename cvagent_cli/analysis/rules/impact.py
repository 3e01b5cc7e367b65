"""Impact: do experience and project bullets show results (numbers) and ownership (verbs)?

Runs on the bullets of experience, projects and volunteer sections, or on their paragraphs
when a section has no bullets (Chinese resumes often write prose or numbered lists).
The share of measured items that carry a metric drives the impact score (see scoring.py),
so ``check`` also leaves an ``ImpactStats`` in ``ctx.extras["impact"]``.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from cvagent_cli.analysis.rules import (
    IMPACT_KINDS,
    Context,
    Item,
    RawFinding,
)
from cvagent_cli.analysis.rules.metrics import has_metric
from cvagent_cli.analysis.rules.rewrite import capitalised, en_core, zh_core
from cvagent_cli.document.dates import find_ranges
from cvagent_cli.languages import Language

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


@functools.cache
def _weak_opener_re(language: Language) -> re.Pattern[str] | None:
    """``language``'s weak openers at the start of a line, after its ``weak_opener_lead``; a
    whole word where words are written with spaces ("helped", not "helpedesk")."""
    wording = language.wording
    if not wording.weak_openers:
        return None
    openers = "|".join(re.escape(w) for w in wording.weak_openers)
    if not language.spaced:
        return re.compile(rf"^\W*{wording.weak_opener_lead}({openers})")
    return re.compile(rf"^\W*{wording.weak_opener_lead}({openers})\b", re.IGNORECASE)


def weak_opener(item: Item) -> str | None:
    regex = _weak_opener_re(item.language)
    match = regex.match(item.text) if regex else None
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
    wording = item.language.wording
    size = wording.line_size(item.text)
    if size < wording.header_size:
        return True
    ranges = find_ranges(item.text)
    return bool(ranges) and size < wording.dated_header_size


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
                ctx.report_item(
                    "impact.no-metric",
                    item,
                    "No number shows the scale or the result of this work.",
                    fix=_examples(item),
                )
            )
        if opener:
            weak += 1
            findings.append(
                ctx.report_item(
                    "impact.weak-opener",
                    item,
                    f'Weak opener "{opener}" describes a duty, not what you achieved.',
                    fix=_examples(item, opener),
                )
            )
        elif (
            item.is_bullet
            and item.language.wording.verbs is not None
            and item.kind != "volunteer"
            and not _starts_with_verb(item)
        ):
            findings.append(
                ctx.report_item(
                    "impact.no-action-verb",
                    item,
                    "Bullet does not start with an action verb.",
                    fix=_examples(item),
                )
            )
    ctx.extras["impact"] = ImpactStats(len(items), metrics, weak)
    return findings


# The fixes' examples (see catalogue), each built only in the resume's language.  An example
# keeps the user's own claim ("helped" never becomes "led", 协助 never 主导) and marks what
# only they can fill in.
def _examples(item: Item, opener: str | None = None) -> dict[str, object]:
    return {
        "core_zh": lambda: zh_core(item.text),
        "core_en": lambda: en_core(item.text, opener),
        "example": lambda: capitalised(en_core(item.text)),
    }


def _starts_with_verb(item: Item) -> bool:
    if item.text.lstrip(" *_-•·\"'“(")[:1] in _LEADING_FIGURES:
        return True  # "30+ analyses …", "$1.2M saved …": leading with the result is fine
    word = item.first_word
    if not word:
        return True
    # Any capitalised -ed word at the start is a past-tense verb in practice ("Geocoded").
    return item.first_lemma is not None or (word.lower().endswith("ed") and len(word) >= 5)
