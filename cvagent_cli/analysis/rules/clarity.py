"""Clarity: length, first person, passive voice, clichés, repeated openers, mixed tenses."""

from __future__ import annotations

import functools
import re
from collections import defaultdict
from dataclasses import dataclass

from cvagent_cli.analysis.rules import (
    IMPACT_KINDS,
    Context,
    Item,
    RawFinding,
    lemma,
)
from cvagent_cli.analysis.rules.rewrite import (
    active_without_me,
    capitalised,
    en_core,
    without_pronoun,
    zh_core,
)
from cvagent_cli.analysis.schema import Severity
from cvagent_cli.languages import Language, Verbs
from cvagent_cli.script import HAN
from cvagent_cli.wording import plural

LENGTH_KINDS = frozenset({"experience", "projects"})
_PASSIVE_KINDS = IMPACT_KINDS | {"summary"}
REPEAT_LIMIT = 3  # the same opening verb this many times in one section is flagged

# "I" is matched case-sensitively and never inside "I/O" or an initial like "R. I."
_I_RE = re.compile(r"(?<![\w/.&-])I(?:['’](?:m|ve|d|ll))?(?![\w/.&'’-])")
_ME_RE = re.compile(r"\b(?:me|my|myself|mine)\b", re.IGNORECASE)
_WE_RE = re.compile(r"\b(?:we|our|ours)\b", re.IGNORECASE)
# "我" not after "自" and not before "们": the look-behind comes after the literal so that re
# can skip ahead to each 我 or 本 instead of trying the pattern at every position.
_ZH_PRONOUN_RE = re.compile(r"我(?<!自我)(?!们)|本人")
# "4 were promoted", "who were hired", "they were promoted": the passive names others' outcome.
_OUTCOME_FOR_OTHERS_RE = re.compile(
    r"(?:\b\d+|\b(?:who|they|which|all|both|most))\s*$", re.IGNORECASE
)
# Cheap set tests that let most bullets skip the full regexes.
_PRONOUN_TOKENS = frozenset("i i'm i've i'd i'll i’m i’ve me my myself mine we our ours".split())
_BE_TOKENS = frozenset("am is are was were be been being".split())
_ZH_OPENER_RE = re.compile(rf"^\W*(?:我|本人)?(?:主要)?([{HAN}]{{2}})")
_DOUBLE_FINAL = frozenset(
    "ship plan stop drop map chat commit submit control admit scrap step tap".split()
)


@dataclass(frozen=True)
class _Buzzwords:
    """A language's clichés as regexes: ``any_re`` finds them anywhere (case-insensitive
    and whole-word where words are spaced); ``lower_re`` finds them in a lower-cased ASCII
    text at the same offsets, ~3× faster; ``trigger_re`` is the pre-check (one of
    ``buzzword_triggers`` in the lower-cased text), None when the language has none."""

    any_re: re.Pattern[str] | None
    lower_re: re.Pattern[str] | None
    trigger_re: re.Pattern[str] | None


@functools.cache
def _buzzwords_of(language: Language) -> _Buzzwords:
    wording = language.wording
    if not wording.buzzwords:
        return _Buzzwords(None, None, None)
    words = "|".join(wording.buzzwords)
    if not language.spaced:
        return _Buzzwords(re.compile(words), None, None)
    triggers = wording.buzzword_triggers
    return _Buzzwords(
        re.compile(rf"\b(?:{words})\b", re.IGNORECASE),
        re.compile(rf"\b(?:{words})\b"),
        re.compile("|".join(map(re.escape, triggers))) if triggers else None,
    )


@functools.cache
def _passive_re(verbs: Verbs) -> re.Pattern[str]:
    return re.compile(
        r"\b(?:am|is|are|was|were|be|been|being)\s+(?:\w+ly\s+)?(\w+ed|"
        + "|".join(verbs.participles)
        + r")\b",
        re.IGNORECASE,
    )


@functools.cache
def _past_of(verbs: Verbs) -> dict[str, str]:
    """Base → irregular past ("lead" → "led"), without the re- forms."""
    return {base: past for past, base in verbs.irregular_past.items() if not past.startswith("re")}


def check(ctx: Context) -> list[RawFinding]:
    findings: list[RawFinding] = []
    for item in ctx.items:
        if item.kind == "contact":
            continue
        findings += (
            _length(ctx, item) + _pronoun(ctx, item) + _passive(ctx, item) + _buzzwords(ctx, item)
        )
    findings += _repeated_openers(ctx) + _mixed_tenses(ctx)
    return findings


def _length(ctx: Context, item: Item) -> list[RawFinding]:
    if not item.is_bullet or item.kind not in LENGTH_KINDS or item.label:
        return []
    wording = item.language.wording
    size, unit = wording.size(item.text), wording.size_unit
    high, low = wording.longest_bullet, wording.shortest_bullet
    if size > high:
        return [
            ctx.report_item(
                "clarity.too-long",
                item,
                f"Bullet is {size} {unit} long (more than {high}); recruiters skim.",
                fix={"core_zh": lambda: zh_core(item.text, limit=20)},
            )
        ]
    if size < low:
        return [
            ctx.report_item(
                "clarity.too-short",
                item,
                f"Bullet is only {plural(size, unit[:-1])}; it does not say what you achieved.",
                fix={
                    "example": lambda: capitalised(en_core(item.text)),
                    "core_zh": lambda: zh_core(item.text),
                },
            )
        ]
    return []


def _pronoun(ctx: Context, item: Item) -> list[RawFinding]:
    work = item.kind in IMPACT_KINDS
    severity: Severity
    spaced = item.language.spaced
    if not spaced:
        match = _ZH_PRONOUN_RE.search(item.text)
        word, severity = (match.group(), "warning" if work else "info") if match else (None, "info")
    elif not item.tokens & _PRONOUN_TOKENS:
        return []
    else:
        match = _I_RE.search(item.text) or _ME_RE.search(item.text)
        word, severity = (match.group(), "warning" if work else "info") if match else (None, "info")
        if word is None:
            match = _WE_RE.search(item.text)
            word = match.group() if match else None
    if word is None:
        return []
    if not spaced:
        plain = bool(_ZH_PRONOUN_RE.search(zh_core(item.text, limit=len(item.text))))
        fix: dict[str, object] = {"core_zh": zh_core(item.text)}
    else:
        rewritten = without_pronoun(item.text)
        plain, fix = not rewritten, {"rewritten": rewritten}
    return [
        ctx.report_item(
            "clarity.first-person",
            item,
            f'First-person pronoun "{word}": resumes are written without them.',
            fix=fix,
            plain=plain,
            language=item.language,
            severity=severity,
        )
    ]


def _passive(ctx: Context, item: Item) -> list[RawFinding]:
    verbs = item.language.wording.verbs
    if verbs is None or item.kind not in _PASSIVE_KINDS or not item.tokens & _BE_TOKENS:
        return []
    for match in _passive_re(verbs).finditer(item.text):
        if match.group(1).lower() in verbs.not_passive or _OUTCOME_FOR_OTHERS_RE.search(
            item.text, 0, match.start()
        ):
            continue  # "4 were promoted": a result for other people, rightly passive
        active = active_without_me(item.text)
        return [
            ctx.report_item(
                "clarity.passive-voice",
                item,
                f'Passive voice "{match.group()}" hides who did the work.',
                fix={"active": active},
                plain=not active,
                language=item.language,
            )
        ]
    return []


def _buzzwords(ctx: Context, item: Item) -> list[RawFinding]:
    buzz = _buzzwords_of(item.language)
    if buzz.any_re is None:
        return []
    if buzz.lower_re is None:
        found = [m.group() for m in buzz.any_re.finditer(item.text)]
    elif buzz.trigger_re and not buzz.trigger_re.search(item.lower):
        return []
    elif item.text.isascii():
        found = [item.text[m.start() : m.end()] for m in buzz.lower_re.finditer(item.lower)]
    else:
        found = [m.group() for m in buzz.any_re.finditer(item.text)]
    if not found:
        return []
    # One finding per line, naming every cliché on it: a list of eight identical
    # findings for one sentence buries the rest of the report.
    words = list(dict.fromkeys(found))
    quoted = ", ".join(f'"{w}"' for w in words)
    zh_quoted = "、".join(f"“{w}”" for w in words)
    noun = "Cliché" if len(words) == 1 else "Clichés"
    verb = "claims a trait" if len(words) == 1 else "claim traits"
    return [
        ctx.report_item(
            "clarity.buzzword",
            item,
            f"{noun} {quoted} {verb} without evidence.",
            fix={"quoted": quoted, "quoted_zh": zh_quoted},
        )
    ]


def _opener_key(item: Item) -> str | None:
    if not item.language.spaced:
        match = _ZH_OPENER_RE.match(item.text)
        return match.group(1) if match else None
    return item.first_lemma or (item.first_word.lower() or None)


def _repeated_openers(ctx: Context) -> list[RawFinding]:
    findings: list[RawFinding] = []
    seen: dict[tuple[str, str], list[Item]] = defaultdict(list)
    for item in ctx.items:
        if item.is_bullet and item.kind in IMPACT_KINDS and not item.label:
            key = _opener_key(item)
            if key:
                seen[(item.section.id, key)].append(item)
    for (_, key), group in seen.items():
        if len(group) >= REPEAT_LIMIT:
            lines = ", ".join(str(it.line) for it in group)
            findings.append(
                ctx.report_item(
                    "clarity.repeated-opener",
                    group[REPEAT_LIMIT - 1],
                    f'{plural(len(group), "bullet")} in this section start with "{key}" (lines {lines}).',
                )
            )
    return findings


def _tense(word: str, base: str | None, verbs: Verbs) -> str | None:
    """``base`` is ``lemma(word, verbs)``."""
    w = word.lower()
    if not w or w in verbs.ambiguous_tense:
        return None
    if w in verbs.irregular_past or (w.endswith("ed") and base):
        return "past"
    return "present" if base else None


def past_form(word: str, verbs: Verbs) -> str:
    """ "Managing" → "Managed", "Lead" → "Led": the suggestion for a past role."""
    base = lemma(word, verbs) or word.lower()
    past_of = _past_of(verbs)
    if base in past_of:
        past = past_of[base]
    elif base.endswith("e"):
        past = base + "d"
    elif base.endswith("y") and base[-2:-1] not in "aeiou":
        past = base[:-1] + "ied"
    elif base in _DOUBLE_FINAL:
        past = base + base[-1] + "ed"
    else:
        past = base + "ed"
    return past.capitalize() if word[:1].isupper() else past


_NOUN_AFTER_RE = re.compile(r"[*_\s]*(?:$|[,;:/&.!]|and\b|or\b)", re.IGNORECASE)


def _is_activity_noun(item: Item, word: str) -> bool:
    """ "Filing.", "Scheduling, filing and data entry": an -ing word with no object is the
    name of a task (a noun), not a verb in the present tense."""
    if not word.lower().endswith("ing"):
        return False
    at = item.text.find(word)
    return at >= 0 and bool(_NOUN_AFTER_RE.match(item.text, at + len(word)))


def _mixed_tenses(ctx: Context) -> list[RawFinding]:
    findings: list[RawFinding] = []
    for entry in ctx.entries:
        rng = entry.date_range
        if entry.kind not in ("experience", "volunteer") or rng is None or rng.is_current:
            continue  # a current role may describe ongoing work in the present tense
        past: list[tuple[Item, str]] = []
        present: list[tuple[Item, str]] = []
        for item in ctx.items_of(entry):
            verbs = item.language.wording.verbs
            if verbs is None:
                continue
            word = item.first_word
            tense = _tense(word, item.first_lemma, verbs)
            if tense == "present" and _is_activity_noun(item, word):
                continue
            if tense:
                (past if tense == "past" else present).append((item, word))
        if past and present:
            item, word = present[0]
            verbs = item.language.wording.verbs
            assert verbs is not None  # only lines with verbs have a tense
            findings.append(
                ctx.report_item(
                    "clarity.mixed-tense",
                    item,
                    f'This past role mixes tenses: "{past[0][1]}" (past) and "{word}" (present).',
                    fix={"word": word, "past": past_form(word, verbs)},
                )
            )
    return findings
