"""Clarity: length, first person, passive voice, clichés, repeated openers, mixed tenses."""

from __future__ import annotations

import re
from collections import defaultdict

from cvagent_cli.analysis.rules import (
    IMPACT_KINDS,
    Context,
    Item,
    RawFinding,
    en_words,
    lemma,
)
from cvagent_cli.analysis.rules.lexicon import (
    AMBIGUOUS_TENSE,
    BUZZWORD_TRIGGERS,
    BUZZWORDS_EN,
    BUZZWORDS_ZH,
    IRREGULAR_PARTICIPLES,
    IRREGULAR_PAST,
    NOT_PASSIVE,
)
from cvagent_cli.analysis.rules.rewrite import (
    active_without_me,
    capitalised,
    en_core,
    without_pronoun,
    zh_core,
)
from cvagent_cli.analysis.schema import Severity
from cvagent_cli.script import HAN
from cvagent_cli.wording import plural

LENGTH_KINDS = frozenset({"experience", "projects"})
_PASSIVE_KINDS = IMPACT_KINDS | {"summary"}
MAX_WORDS_EN, MIN_WORDS_EN = 35, 4
MAX_CHARS_ZH, MIN_CHARS_ZH = 90, 8
REPEAT_LIMIT = 3  # the same opening verb this many times in one section is flagged

# "I" is matched case-sensitively and never inside "I/O" or an initial like "R. I."
_I_RE = re.compile(r"(?<![\w/.&-])I(?:['’](?:m|ve|d|ll))?(?![\w/.&'’-])")
_ME_RE = re.compile(r"\b(?:me|my|myself|mine)\b", re.IGNORECASE)
_WE_RE = re.compile(r"\b(?:we|our|ours)\b", re.IGNORECASE)
# "我" not after "自" and not before "们": the look-behind comes after the literal so that re
# can skip ahead to each 我 or 本 instead of trying the pattern at every position.
_ZH_PRONOUN_RE = re.compile(r"我(?<!自我)(?!们)|本人")
_PASSIVE_RE = re.compile(
    r"\b(?:am|is|are|was|were|be|been|being)\s+(?:\w+ly\s+)?(\w+ed|"
    + "|".join(IRREGULAR_PARTICIPLES)
    + r")\b",
    re.IGNORECASE,
)
# "4 were promoted", "who were hired", "they were promoted": the passive names others' outcome.
_OUTCOME_FOR_OTHERS_RE = re.compile(
    r"(?:\b\d+|\b(?:who|they|which|all|both|most))\s*$", re.IGNORECASE
)
_BUZZ_EN_RE = re.compile(r"\b(?:" + "|".join(BUZZWORDS_EN) + r")\b", re.IGNORECASE)
# The clichés are lower-case ASCII: in an ASCII text they match the lower-cased text at the
# same offsets, ~3× faster than a case-insensitive search of the text.
_BUZZ_EN_LOWER_RE = re.compile(r"\b(?:" + "|".join(BUZZWORDS_EN) + r")\b")
_BUZZ_ZH_RE = re.compile("|".join(BUZZWORDS_ZH))
# any(trigger in text for trigger in BUZZWORD_TRIGGERS), in one pass over the text
_BUZZ_TRIGGER_RE = re.compile("|".join(map(re.escape, BUZZWORD_TRIGGERS)))
# Cheap set tests that let most bullets skip the full regexes.
_PRONOUN_TOKENS = frozenset("i i'm i've i'd i'll i’m i’ve me my myself mine we our ours".split())
_BE_TOKENS = frozenset("am is are was were be been being".split())
_ZH_OPENER_RE = re.compile(rf"^\W*(?:我|本人)?(?:主要)?([{HAN}]{{2}})")
_PAST_OF = {base: past for past, base in IRREGULAR_PAST.items() if not past.startswith("re")}
_DOUBLE_FINAL = frozenset(
    "ship plan stop drop map chat commit submit control admit scrap step tap".split()
)


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
    if item.zh:
        size, unit, high, low = (
            len(re.sub(r"\s", "", item.text)),
            "characters",
            MAX_CHARS_ZH,
            MIN_CHARS_ZH,
        )
    else:
        size, unit, high, low = len(en_words(item.text)), "words", MAX_WORDS_EN, MIN_WORDS_EN
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
    if item.zh:
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
    if item.zh:
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
            lang="zh" if item.zh else "en",
            severity=severity,
        )
    ]


def _passive(ctx: Context, item: Item) -> list[RawFinding]:
    if item.zh or item.kind not in _PASSIVE_KINDS or not item.tokens & _BE_TOKENS:
        return []
    for match in _PASSIVE_RE.finditer(item.text):
        if match.group(1).lower() in NOT_PASSIVE or _OUTCOME_FOR_OTHERS_RE.search(
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
                lang="en",
            )
        ]
    return []


def _buzzwords(ctx: Context, item: Item) -> list[RawFinding]:
    if item.zh:
        found = [m.group() for m in _BUZZ_ZH_RE.finditer(item.text)]
    elif not _BUZZ_TRIGGER_RE.search(item.lower):
        return []
    elif item.text.isascii():
        found = [item.text[m.start() : m.end()] for m in _BUZZ_EN_LOWER_RE.finditer(item.lower)]
    else:
        found = [m.group() for m in _BUZZ_EN_RE.finditer(item.text)]
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
    if item.zh:
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


def _tense(word: str, base: str | None) -> str | None:
    """``base`` is ``lemma(word)``."""
    w = word.lower()
    if not w or w in AMBIGUOUS_TENSE:
        return None
    if w in IRREGULAR_PAST or (w.endswith("ed") and base):
        return "past"
    return "present" if base else None


def past_form(word: str) -> str:
    """ "Managing" → "Managed", "Lead" → "Led": the suggestion for a past role."""
    base = lemma(word) or word.lower()
    if base in _PAST_OF:
        past = _PAST_OF[base]
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
            if item.zh:
                continue
            word = item.first_word
            tense = _tense(word, item.first_lemma)
            if tense == "present" and _is_activity_noun(item, word):
                continue
            if tense:
                (past if tense == "past" else present).append((item, word))
        if past and present:
            item, word = present[0]
            findings.append(
                ctx.report_item(
                    "clarity.mixed-tense",
                    item,
                    f'This past role mixes tenses: "{past[0][1]}" (past) and "{word}" (present).',
                    fix={"word": word, "past": past_form(word)},
                )
            )
    return findings
