"""The support index (what the resume and the user's messages contain) and :func:`check_edit`,
which scans an edit's new text and flags every unsupported fact."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from cvagent_cli.document.dates import STILL_RE
from cvagent_cli.truth.date_facts import (
    DateRange,
    changed_end,
    date_ranges,
    scan_dates,
)
from cvagent_cli.truth.facts import Fact, FactFlag, consume, noise_spans, prepare
from cvagent_cli.truth.names import ZH_CORP_TAIL_RE, scan_names, title_norm
from cvagent_cli.truth.numbers import scan_numbers


def check_edit(
    new_text: str,
    *,
    resume_text: str,
    user_messages: Sequence[str],
    old_text: str = "",
) -> list[FactFlag]:
    """Return a flag for every fact in ``new_text`` that the resume and messages don't support.

    ``resume_text`` is the whole current resume (before the edit), ``user_messages`` everything
    the user said, ``old_text`` the text being replaced.  Flags come in the order the facts
    appear in ``new_text``, one per distinct fact.
    """
    if not new_text or not new_text.strip():
        return []
    messages = [m for m in user_messages if m]
    support_texts = [resume_text or "", *messages, old_text or ""]
    support = _Support.build(support_texts, messages, resume_text or "")

    text, original = prepare(new_text)
    consumed = [False] * len(text)
    for start, end in noise_spans(text):
        consume(consumed, start, end)

    facts: list[Fact] = []
    dates = scan_dates(text, consumed)
    facts += dates
    facts += scan_numbers(text, consumed)
    facts += scan_names(text, consumed, dates)

    flags: list[tuple[int, FactFlag]] = []
    seen: set[tuple[str, object]] = set()

    def add(fact: Fact, message: str | None = None) -> None:
        dedupe = (fact.kind, fact.need)
        if dedupe in seen:
            return
        seen.add(dedupe)
        value = original[fact.start : fact.end].strip() or fact.value
        flags.append(
            (fact.start, FactFlag(fact.kind, value, message or _message(fact.kind, value)))
        )

    for fact in facts:
        if not support.supports(fact):
            add(fact)

    # A changed date range: one end kept, the other changed.
    if old_text:
        old_prepared, _ = prepare(old_text)
        old_ranges = date_ranges(
            old_prepared, scan_dates(old_prepared, [False] * len(old_prepared))
        )
        for new_range in date_ranges(text, dates):
            changed = changed_end(new_range, old_ranges)
            if changed is None:
                continue
            end_fact, old_range = changed
            if support.supports_changed_range(end_fact, new_range):
                continue
            value = original[end_fact.start : end_fact.end].strip() or end_fact.value
            old_shown = f"{old_range.start_text} – {old_range.end_text}"
            add(
                end_fact,
                f"{value}: the date range changed from {old_shown} and nothing you said mentions {value} — is it true?",
            )

    flags.sort(key=lambda item: item[0])
    return [flag for _, flag in flags]


def _message(kind: str, value: str) -> str:
    shown = f"“{value}”" if kind in ("organization", "title") else value
    return f"{shown} appears nowhere in your resume or messages — is it true?"


# --------------------------------------------------------------------------------------
# Support
# --------------------------------------------------------------------------------------


@dataclass
class _Support:
    keys: set[object] = field(default_factory=set)
    message_keys: set[object] = field(default_factory=set)
    words: set[str] = field(default_factory=set)
    title_text: str = " "
    compact: str = ""
    message_present: bool = False
    resume_ranges: set[tuple[object, object]] = field(default_factory=set)

    @classmethod
    def build(cls, texts: Sequence[str], messages: Sequence[str], resume_text: str) -> _Support:
        support = cls()
        prepared = [prepare(t)[0] for t in texts]
        for text in prepared:
            support._add(text, support.keys)
        for text in messages:
            text, _ = prepare(text)
            support._add(text, support.message_keys)
            if STILL_RE.search(text):
                support.message_present = True
        joined = "\n".join(prepared)
        for word in re.findall(r"[A-Za-z0-9][A-Za-z0-9'’&.+-]*", joined):
            word = word.lower().strip(".'’")
            support.words.add(word)
            for piece in re.split(r"[-.&+'’]", word):
                if piece:
                    support.words.add(piece)
        support.title_text = f" {title_norm(joined)} "
        support.compact = re.sub(r"\s+", "", joined)
        resume, _ = prepare(resume_text)
        for r in date_ranges(resume, scan_dates(resume, [False] * len(resume))):
            support.resume_ranges.add((r.start.need, r.end.need))
        return support

    @staticmethod
    def _add(prepared: str, keys: set[object]) -> None:
        consumed = [False] * len(prepared)
        for fact in [*scan_dates(prepared, consumed), *scan_numbers(prepared, consumed)]:
            keys.add(fact.need)
            keys.update(fact.gives)

    def supports(self, fact: Fact) -> bool:
        need = fact.need
        if fact.kind in ("number", "percentage", "amount", "date"):
            if need in self.keys:
                return True
            if need[0] == "version":
                return need[1] in self.compact
            return False
        if need[0] == "title":
            return f" {need[1]} " in self.title_text or need[1] == ""
        if need[0] == "zh-title":
            return need[1] in self.compact
        if need[0] == "org":
            words = need[1]
            if words and all(w in self.words for w in words):
                return True
            return title_norm(fact.value) in self.title_text
        if need[0] == "zh-org":
            name = need[1]
            if name in self.compact:
                return True
            core = ZH_CORP_TAIL_RE.sub("", name)
            if len(core) >= 2 and core in self.compact:
                return True
            return _reordered(name, len(_ZH_INSTITUTION_TAIL_RE.sub("", core)), self.compact)
        return False

    def supports_changed_range(self, end: Fact, new_range: DateRange) -> bool:
        if (new_range.start.need, new_range.end.need) in self.resume_ranges:
            return True
        if end.present:
            return self.message_present
        return end.need in self.message_keys


_ZH_INSTITUTION_TAIL_RE = re.compile(
    r"(?:研究院|研究所|研究中心|实验室|大学|学院|银行|医院|工作室)$"
)


def _reordered(name: str, core_len: int, support: str) -> bool:
    """A Chinese "organization" that only reorders words of the support: "对接快递公司" from
    "我负责和快递公司对接".  The name's last two core characters with its suffix ("快递公司")
    must occur as written, and what precedes them ("对接") must be made of pieces of two or
    more characters that occur in the support, so a new name ("星河快递公司") still needs a yes."""
    tail_start = max(0, core_len - 2)
    if name[tail_start:] not in support:
        return False
    head = name[:tail_start]
    reachable = [True] + [False] * len(head)  # reachable[i]: head[:i] is covered by pieces
    for end in range(2, len(head) + 1):
        reachable[end] = any(
            reachable[start] and head[start:end] in support for start in range(end - 1)
        )
    return reachable[len(head)]
