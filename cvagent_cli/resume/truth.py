"""The truthfulness guard: flag facts in an edit that the user never gave us.

Before a proposed edit is shown, :func:`check_edit` compares its new text with the whole
current resume and with everything the user said in the conversation.  Every *fact* in the
new text that appears in neither is returned as a :class:`FactFlag`, so the user is asked
"is it true?" instead of silently getting a fabricated number, date, employer or title.

What counts as a fact (English and Chinese):

* **numbers** – plain numbers and counts with units (``10 engineers``, ``1.5k``, ``带领10人团队``,
  ``日活100万``), multipliers (``3x``, ``3 times``, ``3倍``, ``doubled``, ``翻倍``), English number
  words (``three engineers``) and Chinese numerals in quantity phrases (``两年``, ``十人``,
  ``三倍``; a numeral must be followed by a measure word, so 一起/百度/十分 are not numbers);
* **percentages** – ``40%``, ``40 %``, ``40 percent``, ``30-40%``, ``百分之四十``;
* **money amounts** – ``$2M``, ``USD 2 million``, ``¥500万``, ``500万元``;
* **dates** – ``2019``, ``Mar 2020``, ``2019.03``, ``2019/3``, ``03/2019``, ``2019年3月``, all
  normalised to ``(year, month)``;
* **organizations** – capitalised multi-word names (``Goldman Sachs``, ``Acme Robotics Inc.``),
  well-known single-word employers (``Google``), single capitalised words in an employer
  context (``at X``, ``joined X``, a heading ``### X | Senior Engineer | 2019 – 2021``), and
  Chinese names ending in 公司/集团/大学/学院/研究院/研究所/实验室/银行/医院/科技;
* **job titles** – Title-Case phrases ending in a role noun (Engineer, Manager, Director, …,
  CTO/VP), lower-case ones that carry a seniority word (``senior staff engineer``), and Chinese
  titles ending in 工程师/架构师/经理/总监/主管/负责人/组长/专家/… (首席… included).

When is a fact supported?  The *support* is the resume text, every user message and the
``old_text`` being replaced, all NFKC-normalised (full-width digits and ％ are the ASCII ones).

* Numbers are compared by value: ``1,000`` ≡ ``1000`` ≡ ``1k`` ≡ ``一千``; ``2M`` ≡ ``2 million`` ≡
  ``2,000,000`` ≡ ``200万``; ``40 %`` ≡ ``40%`` ≡ ``40 percent`` ≡ ``百分之四十``; ``3`` ≡ ``three`` ≡ ``三``.
  A percentage needs a percentage of the same value and a multiplier a multiplier; plain numbers
  and amounts are supported by any number of the same value, including the bare coefficient of
  a scaled one (``$2M`` in the resume supports a later ``2``).  The unit is deliberately *not*
  compared (``10 engineers`` is supported by ``a team of 10``), so a moved or reworded number is
  never flagged.
* Decision on number words: digits and words are interchangeable both ways, in English and
  Chinese; ``one``/``一`` are never extracted (they are mostly articles: 一个, one of).
  Ordinals (1st, 第三), Markdown list markers (``1.``, ``1、``, ``(1)``), version numbers
  (``3.10.2``), identifiers with digits (``S3``, ``H100``, ``GPT-4``, ``5G``, ``3D``), URLs, e-mail
  addresses and phone numbers are not facts.
* A date ``(year, month)`` needs the same year and month somewhere in the support; a bare year
  needs that year.  A **changed date range** is stricter: when ``old_text`` holds the range
  ``2019.03 - 2021.06`` and the new text keeps one end but changes the other
  (``2018.03 - 2021.06``, or ``2019.03 - Present``), the changed end is flagged unless the user's
  messages contain it (or the resume holds exactly the new range) — the same date elsewhere in
  the resume (another job) does not justify stretching this one.
* An English organization is supported when each of its significant words (legal suffixes such
  as Inc/Ltd/LLC and connectors such as "of" ignored) occurs in the support, case-insensitively;
  a Chinese one when its name without 有限公司/科技/集团… (or its full name) occurs.
* A title must occur as a phrase (``Sr.`` ≡ ``Senior``, ``VP`` ≡ ``Vice President``), so
  ``Senior Staff Engineer`` is flagged even when ``Staff Engineer`` and ``Senior`` occur apart.

This is a heuristic: it favours asking about a true fact over missing a fabricated one, but
avoids flagging common capitalised words (Led, Built, Experience) and unchanged text.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Literal

FactKind = Literal["number", "percentage", "amount", "date", "organization", "title"]

__all__ = ["FactFlag", "FactKind", "check_edit"]

_CJK = "\u3400-\u4dbf\u4e00-\u9fff"  # CJK ideographs (a character class body)


@dataclass(frozen=True)
class FactFlag:
    """A fact in an edit's new text found neither in the resume nor in the user's messages."""

    kind: FactKind
    value: str
    message: str


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

    text, original = _prepare(new_text)
    consumed = [False] * len(text)
    for start, end in _noise_spans(text):
        _consume(consumed, start, end)

    facts: list[_Fact] = []
    dates = _scan_dates(text, consumed)
    facts += dates
    facts += _scan_numbers(text, consumed)
    facts += _scan_names(text, consumed, dates)

    flags: list[tuple[int, FactFlag]] = []
    seen: set[tuple[str, object]] = set()

    def add(fact: _Fact, message: str | None = None) -> None:
        dedupe = (fact.kind, fact.need)
        if dedupe in seen:
            return
        seen.add(dedupe)
        value = original[fact.start : fact.end].strip() or fact.value
        flags.append((fact.start, FactFlag(fact.kind, value, message or _message(fact.kind, value))))

    for fact in facts:
        if not support.supports(fact):
            add(fact)

    # A changed date range: one end kept, the other changed.
    if old_text:
        old_prepared, _ = _prepare(old_text)
        old_ranges = _date_ranges(old_prepared, _scan_dates(old_prepared, [False] * len(old_prepared)))
        for new_range in _date_ranges(text, dates):
            changed = _changed_end(new_range, old_ranges)
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
# Text preparation
# --------------------------------------------------------------------------------------


def _prepare(text: str) -> tuple[str, str]:
    """NFKC per character when that keeps one character (full-width digits, ％, ，), so indexes
    into the prepared text are indexes into the original, whose slices are shown as-is."""
    if text.isascii():
        return text, text
    table = {}
    for ch in set(text):
        if not ch.isascii():
            norm = unicodedata.normalize("NFKC", ch)
            if len(norm) == 1 and norm != ch:
                table[ord(ch)] = norm
    return (text.translate(table) if table else text), text


def _consume(consumed: list[bool], start: int, end: int) -> None:
    for i in range(start, min(end, len(consumed))):
        consumed[i] = True


def _free(consumed: list[bool], start: int, end: int) -> bool:
    return not any(consumed[start:end])


_URL_RE = re.compile(r"(?i)\b(?:https?://|www\.)[^\s<>()\]]+|\]\([^)\s]*\)")
_EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_PHONE_RE = re.compile(
    r"(?<![\w.])(?:\+\d{1,3}[ -]?)?(?:1[3-9]\d[ -]?\d{4}[ -]?\d{4}|\(\d{3}\)[ .-]?\d{3}[ .-]\d{4}|\d{3}[.-]\d{3}[.-]\d{4})(?!\w|\.\d)"
)
_LIST_MARKER_RE = re.compile(
    r"(?m)^[ \t]*(?:[-*+>#][ \t]*)*(?:\d{1,3}[.)、]|[(（]\d{1,3}[)）])(?=[ \t\u4e00-\u9fff]|$)"
    r"|[(（]\d{1,2}[)）]|[①-⑳]"
)


def _noise_spans(text: str) -> Iterable[tuple[int, int]]:
    for regex in (_URL_RE, _EMAIL_RE, _PHONE_RE, _LIST_MARKER_RE):
        for m in regex.finditer(text):
            yield m.start(), m.end()


# --------------------------------------------------------------------------------------
# Facts
# --------------------------------------------------------------------------------------


@dataclass
class _Fact:
    kind: FactKind
    value: str
    start: int
    end: int
    need: object  # the key that must be present in the support
    gives: tuple = ()  # extra keys this fact contributes when it is part of the support
    present: bool = False  # a "Present"/"至今" range end (not a real date fact)
    core_end: int | None = None  # where the fact itself ends when a unit word is only shown


def _dec(text: str) -> Decimal | None:
    try:
        return Decimal(text.replace(",", "")).normalize()
    except InvalidOperation:
        return None


def _q(value: Decimal) -> tuple[str, Decimal]:
    return ("quantity", value.normalize())


# ---- dates --------------------------------------------------------------------------

_MONTHS = {
    "jan": 1, "january": 1, "feb": 2, "february": 2, "mar": 3, "march": 3, "apr": 4, "april": 4,
    "may": 5, "jun": 6, "june": 6, "jul": 7, "july": 7, "aug": 8, "august": 8, "sep": 9, "sept": 9,
    "september": 9, "oct": 10, "october": 10, "nov": 11, "november": 11, "dec": 12, "december": 12,
}  # fmt: skip
_MONTH_ALT = "|".join(sorted(_MONTHS, key=len, reverse=True))
_YEAR = r"(?:19[5-9]\d|20[0-4]\d)"
_NB = r"(?<![A-Za-z0-9.])"  # not glued to a word or a decimal point

_DATE_PATTERNS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(rf"{_NB}({_YEAR})\s*年\s*(\d{{1,2}})\s*月(?:\s*\d{{1,2}}\s*[日号])?"), "ym"),
    (re.compile(rf"{_NB}({_YEAR})([./-])(\d{{1,2}})(?:\2\d{{1,2}})?(?![\d])(?!\.\d)"), "ysm"),
    (re.compile(rf"(?i)\b({_MONTH_ALT})\.?,?\s+(?:(\d{{1,2}}),?\s+)?({_YEAR})(?![\d])"), "my"),
    (re.compile(rf"{_NB}(\d{{1,2}})/({_YEAR})(?![\d])"), "m/y"),
    (re.compile(rf"{_NB}({_YEAR})\s*年(?!\s*\d{{1,2}}\s*月)"), "y"),
    (re.compile(rf"{_NB}(?<![A-Za-z][-_])({_YEAR})(?![\d]|\.\d|,\d|\s*%|[A-Za-z+]|\s?[万亿千百人名位个倍元块次项家台条])"), "y"),
]


def _scan_dates(text: str, consumed: list[bool]) -> list[_Fact]:
    facts: list[_Fact] = []
    for regex, shape in _DATE_PATTERNS:
        for m in regex.finditer(text):
            if not _free(consumed, m.start(), m.end()):
                continue
            if shape == "ym":
                year, month = int(m.group(1)), int(m.group(2))
            elif shape == "ysm":
                year, month = int(m.group(1)), int(m.group(3))
            elif shape == "my":
                year, month = int(m.group(3)), _MONTHS[m.group(1).lower()]
            elif shape == "m/y":
                year, month = int(m.group(2)), int(m.group(1))
            else:
                year, month = int(m.group(1)), 0
            if not 0 <= month <= 12 or (shape != "y" and month == 0):
                continue
            need = ("date", year, month) if month else ("year", year)
            gives = (("date", year, month), ("year", year), _q(Decimal(year))) if month else (("year", year), _q(Decimal(year)))
            if shape == "my" and m.group(2):  # the day of "Mar 3, 2020" is a number of its own
                gives += (_q(Decimal(int(m.group(2)))),)
            facts.append(_Fact("date", m.group(0).strip(), m.start(), m.end(), need, gives))
            _consume(consumed, m.start(), m.end())
    facts.sort(key=lambda f: f.start)
    return facts


_RANGE_SEP_RE = re.compile(r"\s*(?:-{1,2}|–|—|~|～|－|→|to|至|到|until)\s*", re.IGNORECASE)
_PRESENT_RE = re.compile(
    r"\s*(?:-{1,2}|–|—|~|～|－|→|\bto\b|至|到|until)\s*(present|now|current|today|至今|今|现在|目前)(?![A-Za-z])", re.IGNORECASE
)
_PRESENT_WORD_RE = re.compile(r"(?i)\b(?:present|now|current|currently|still)\b|至今|现在|目前|仍在|还在")


@dataclass
class _Range:
    start: _Fact
    end: _Fact

    @property
    def start_text(self) -> str:
        return self.start.value

    @property
    def end_text(self) -> str:
        return self.end.value


def _date_ranges(text: str, dates: list[_Fact]) -> list[_Range]:
    ranges: list[_Range] = []
    ordered = sorted(dates, key=lambda f: f.start)
    for i, first in enumerate(ordered):
        nxt = ordered[i + 1] if i + 1 < len(ordered) else None
        if nxt is not None and _RANGE_SEP_RE.fullmatch(text[first.end : nxt.start]):
            ranges.append(_Range(first, nxt))
            continue
        m = _PRESENT_RE.match(text, first.end)
        if m:
            end = _Fact("date", m.group(1), m.start(1), m.end(1), ("present",), (("present",),), present=True)
            ranges.append(_Range(first, end))
    return ranges


def _changed_end(new: _Range, old_ranges: list[_Range]) -> tuple[_Fact, _Range] | None:
    for old in old_ranges:
        if old.start.need == new.start.need and old.end.need == new.end.need:
            return None
    for old in old_ranges:
        if old.start.need == new.start.need and old.end.need != new.end.need:
            return new.end, old
        if old.end.need == new.end.need and old.start.need != new.start.need:
            return new.start, old
    return None


# ---- numbers --------------------------------------------------------------------------

_VERSION_RE = re.compile(r"(?<![A-Za-z0-9.])\d+(?:\.\d+){2,}(?!\.?\d)")
_PERCENT_RANGE_RE = re.compile(r"(?<![A-Za-z0-9.])(\d+(?:\.\d+)?)%?(?:-|–|~|～|到|至)(\d+(?:\.\d+)?)\s?%")
_CN_DIGITS = "零〇一二两三四五六七八九十百千万亿"
_CN_NUM = f"[{_CN_DIGITS}]+"
_PERCENT_CN_RE = re.compile(rf"百分之(\d+(?:\.\d+)?|{_CN_NUM})")
_DOUBLING_RE = re.compile(r"(?i)\b(doubled|tripled|trebled|quadrupled)\b|翻了?(?:一)?倍|翻了?([一两二三四])番")
_NUMBER_RE = re.compile(r"(?<![A-Za-z0-9.])(?<![A-Za-z][-_])(\d{1,3}(?:,\d{3})+(?![\d])|\d+)(\.\d+)?(?![\d])")
_CURRENCY_BEFORE_RE = re.compile(r"(?:[A-Z]{0,2}\$|¥|€|£|₹|\b(?:USD|RMB|CNY|EUR|GBP|JPY|HKD|SGD)\s?)\s?$")
_SCALE_WORDS = {"thousand": 10**3, "million": 10**6, "billion": 10**9, "trillion": 10**12}
_SCALE_WORD_RE = re.compile(r"\s?(thousand|million|billion|trillion|mn|bn)\b", re.IGNORECASE)
_CN_SCALE_RE = re.compile(r"[百千万亿]+")
_CURRENCY_AFTER_RE = re.compile(r"\s?(?:dollars?|USD|RMB|CNY|EUR|GBP|yuan|euros?|pounds)\b|(?:万元|亿元|美元|元|人民币|块钱)")
_PERCENT_AFTER_RE = re.compile(r"\s?%|\s(?:percent|per cent|pct)\b|个百分点", re.IGNORECASE)
_MULT_AFTER_RE = re.compile(r"[xX×](?![A-Za-z0-9])|\s?×|\s?-?fold\b|\s+times\b(?!\s+(?:a|per|each|every)\b)|\s?倍")
_LETTER_SCALES = {"k": 10**3, "K": 10**3, "M": 10**6, "MM": 10**6, "B": 10**9, "bn": 10**9, "Bn": 10**9, "w": 10**4, "W": 10**4}
_UNITS = {
    "ms", "s", "sec", "secs", "min", "mins", "h", "hr", "hrs", "yr", "yrs", "y", "d", "wk", "wks", "mo", "mos",
    "kb", "mb", "gb", "tb", "pb", "kib", "mib", "gib", "tib", "qps", "tps", "rps", "rpm", "ops", "px", "pt",
    "ghz", "mhz", "hz", "kg", "km", "cm", "mm", "m", "g", "l", "ml", "kwh", "mw", "gw", "dau", "mau", "pv", "uv",
    "gpus", "cpus", "gpu", "cpu", "nodes", "vms",
}  # fmt: skip
_ORDINALS = {"st", "nd", "rd", "th"}
_ZH_UNITS = (
    "个月 小时 分钟 人次 季度 人 名 位 个 年 天 周 次 项 款 家 届 支 套 篇 岁 所 门 条 台 种 本 场 期 轮 份 张 部 队 笔 座 间 层 "
    "节 章 课 堂 行 例 件 倍 元 块 亿元 万元 美元 秒 颗 只 片 批 首 版"
).split()
_ZH_UNIT_ALT = "|".join(sorted(set(_ZH_UNITS), key=len, reverse=True))
_ZH_UNIT_RE = re.compile(rf"[余多+]?(?:{_ZH_UNIT_ALT})")
_ZH_SPACED_UNIT_RE = re.compile(rf"\s?[余多+]?(?:{_ZH_UNIT_ALT})")  # "8 人团队" after digits
# 万/亿 after a space ("日活 100 万") only where they cannot start a word of their own (万一).
_CN_SPACED_SCALE_RE = re.compile(rf"\s([万亿])(?=$|[^{_CJK}]|元|人|次|用户|条|个|笔|订单|的|级|量|美元|行|份|台|件|日活|月活|营收|规模)")
# Chinese numerals count before a measure word (三年, 十人) or when they are unmistakably a
# number (五百万); never after 第 (an ordinal) or 双 (双十一), never idioms such as 千万/万一.
_CN_QUANTITY_RE = re.compile(rf"(?<![第双{_CN_DIGITS}])({_CN_NUM})(?![{_CN_DIGITS}])")
_CN_IDIOMS = {"千万", "万一", "一一", "万万", "千千万万", "十一", "一千零一"}
_EN_ONES = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17,
    "eighteen": 18, "nineteen": 19,
}  # fmt: skip
_EN_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_EN_WORD_RE = re.compile(
    rf"(?i)(?<![A-Za-z-])(?:({'|'.join(_EN_TENS)})(?:-({'|'.join(k for k, v in _EN_ONES.items() if v < 10)}))?|({'|'.join(_EN_ONES)}))(?![A-Za-z-])"
)
_UNIT_WORD_RE = re.compile(r"\s([a-z][A-Za-z-]*)")
_SPACED_UNIT_RE = re.compile(r"\s([A-Za-z]+)(?![A-Za-z0-9])")
_STOP_AFTER = {
    "a", "an", "and", "or", "to", "of", "in", "on", "at", "by", "for", "from", "with", "the", "per", "than", "as",
    "is", "are", "was", "were", "be", "that", "this", "these", "those", "into", "via", "over", "under", "across",
    "within", "while", "who", "which", "it", "its", "their", "our", "my",
}  # fmt: skip


def _cn_to_int(s: str) -> int | None:
    digits = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
    small = {"十": 10, "百": 100, "千": 1000}
    if len(s) > 1 and all(ch in digits for ch in s):  # 二〇一九: digit by digit
        return int("".join(str(digits[ch]) for ch in s))
    total = section = number = 0
    for ch in s:
        if ch in digits:
            number = digits[ch]
        elif ch in small:
            section += (number or 1) * small[ch]
            number = 0
        elif ch == "万":
            total += (section + number or 1) * 10**4
            section = number = 0
        elif ch == "亿":
            total = (total + section + number or 1) * 10**8
            section = number = 0
        else:
            return None
    return total + section + number


def _scan_numbers(text: str, consumed: list[bool]) -> list[_Fact]:
    facts: list[_Fact] = []

    def take(kind: FactKind, start: int, end: int, need: object, gives: tuple = ()) -> None:
        facts.append(_Fact(kind, text[start:end], start, end, need, (need, *gives)))
        _consume(consumed, start, end)

    for m in _VERSION_RE.finditer(text):
        if _free(consumed, m.start(), m.end()):
            take("number", m.start(), m.end(), ("version", m.group(0)))

    for m in _PERCENT_RANGE_RE.finditer(text):
        if _free(consumed, m.start(), m.end()):
            for group in (1, 2):
                value = _dec(m.group(group))
                if value is not None:
                    facts.append(_Fact("percentage", f"{m.group(group)}%", m.start(group), m.end(group), ("percent", value), (("percent", value), _q(value))))
            _consume(consumed, m.start(), m.end())

    for m in _PERCENT_CN_RE.finditer(text):
        if not _free(consumed, m.start(), m.end()):
            continue
        raw = m.group(1)
        value = _dec(raw) if raw[0].isdigit() else (Decimal(_cn_to_int(raw)) if _cn_to_int(raw) is not None else None)
        if value is not None:
            take("percentage", m.start(), m.end(), ("percent", value.normalize()), (_q(value),))

    for m in _DOUBLING_RE.finditer(text):
        if not _free(consumed, m.start(), m.end()):
            continue
        word = (m.group(1) or "").lower()
        if word:
            factor = {"doubled": 2, "tripled": 3, "trebled": 3, "quadrupled": 4}[word]
        else:
            factor = {"一": 2, "两": 4, "二": 4, "三": 8, "": 2}[m.group(2) or ""]
        take("number", m.start(), m.end(), ("multiplier", Decimal(factor)), (_q(Decimal(factor)),))

    for m in _NUMBER_RE.finditer(text):
        start, end = m.start(), m.end()
        if not _free(consumed, start, end):
            continue
        coefficient = _dec(m.group(1) + (m.group(2) or ""))
        if coefficient is None:
            continue
        fact = _number_fact(text, start, end, coefficient)
        if fact is not None and _free(consumed, fact.start, fact.core_end or fact.end):
            facts.append(fact)
            _consume(consumed, fact.start, fact.core_end or fact.end)

    for m in _CN_QUANTITY_RE.finditer(text):
        if not _free(consumed, m.start(), m.end()):
            continue
        run = m.group(1)
        value = _cn_to_int(run)
        if value is None or value <= 1 or run in _CN_IDIOMS:
            continue
        end = m.end()
        kind: FactKind = "number"
        need: object = _q(Decimal(value))
        unit = _ZH_UNIT_RE.match(text, end)
        if unit is None and not (len(run) > 1 and any(ch in "十百千万亿" for ch in run) and any(ch not in "十百千万亿" for ch in run)):
            continue
        if unit:
            unit_text = unit.group(0)
            end = unit.end()
            if unit_text.endswith("倍"):
                need = ("multiplier", Decimal(value))
            elif unit_text.endswith(("元", "块")):
                kind = "amount"
        if _free(consumed, m.start(), end):
            take(kind, m.start(), end, need, (_q(Decimal(value)),))

    for m in _EN_WORD_RE.finditer(text):
        if not _free(consumed, m.start(), m.end()):
            continue
        if m.group(1):
            value = _EN_TENS[m.group(1).lower()] + (_EN_ONES[m.group(2).lower()] if m.group(2) else 0)
        else:
            value = _EN_ONES[m.group(3).lower()]
        if value <= 1:
            continue
        take("number", m.start(), m.end(), _q(Decimal(value)))
    return facts


def _number_fact(text: str, start: int, end: int, coefficient: Decimal) -> _Fact | None:
    """Read what surrounds a number: currency, %, x, scale, unit; None for identifiers/ordinals."""
    currency = _CURRENCY_BEFORE_RE.search(text[max(0, start - 6) : start])
    if currency:
        start -= len(currency.group(0))
    pos = end
    if text.startswith("+", pos):
        pos += 1
    rest = text[pos : pos + 40]
    value = coefficient
    kind: FactKind = "amount" if currency else "number"

    m = _PERCENT_AFTER_RE.match(rest)
    if m:
        pos += m.end()
        return _Fact("percentage", text[start:pos], start, pos, ("percent", value), (("percent", value), _q(value)))
    m = _MULT_AFTER_RE.match(rest)
    if m:
        pos += m.end()
        return _Fact("number", text[start:pos], start, pos, ("multiplier", value), (("multiplier", value), _q(value)))

    letters = re.match(r"[A-Za-z]+", rest)
    if letters:
        word = letters.group(0)
        if word in _ORDINALS:
            return None
        if word in _LETTER_SCALES:
            value = coefficient * _LETTER_SCALES[word]
            pos += len(word)
        elif word == "m" and currency:
            value = coefficient * 10**6
            pos += 1
        elif word in _UNITS or (len(word) > 1 and word.lower() in _UNITS):
            pos += len(word)
        else:
            return None  # an identifier such as 3D, 5G, 2FA
        rest = text[pos : pos + 40]
    else:
        m = _SCALE_WORD_RE.match(rest)
        if m:
            word = m.group(1).lower()
            value = coefficient * ({"mn": 10**6, "bn": 10**9}.get(word) or _SCALE_WORDS[word])
            pos += m.end()
            rest = text[pos : pos + 40]
        else:
            m = _CN_SCALE_RE.match(rest) or _CN_SPACED_SCALE_RE.match(rest)
            if m:
                for ch in m.group(0).strip():
                    value *= {"百": 100, "千": 1000, "万": 10**4, "亿": 10**8}[ch]
                pos += m.end()
                rest = text[pos : pos + 40]
    m = _CURRENCY_AFTER_RE.match(rest)
    if m:
        kind = "amount"
        pos += m.end()
        if m.group(0).strip() in ("万元", "亿元"):
            value *= 10**4 if m.group(0).strip() == "万元" else 10**8
    core_end = None
    if not m:
        unit = _ZH_SPACED_UNIT_RE.match(rest)
        if unit:
            if unit.group(0).endswith("倍"):
                pos += unit.end()
                return _Fact("number", text[start:pos], start, pos, ("multiplier", value), (("multiplier", value), _q(value), _q(coefficient)))
            pos += unit.end()
        elif (spaced := _SPACED_UNIT_RE.match(rest)) and (spaced.group(1) in _UNITS or len(spaced.group(1)) > 1 and spaced.group(1).lower() in _UNITS):
            pos += spaced.end()  # "2 TB", "35 ms"
        elif kind == "number":
            word = _UNIT_WORD_RE.match(rest)
            unit_word = word.group(1).lower() if word else ""
            if word and unit_word not in _STOP_AFTER and unit_word not in _SCALE_WORDS and not _EN_WORD_RE.fullmatch(unit_word):
                core_end = pos  # "10 engineers" is shown, only "10" is the fact
                pos += word.end()
    value = value.normalize()
    return _Fact(kind, text[start:pos], start, pos, _q(value), (_q(value), _q(coefficient)), core_end=core_end)


# ---- names: organizations and titles ---------------------------------------------------

_CAP_WORD = r"(?:[A-Z][A-Za-z0-9'’+&-]*[A-Za-z0-9+]|[A-Z])(?:\.(?=[\s,)|]|$))?"
_CONNECTOR = r"(?:of|the|&|de|for)"
_RUN_RE = re.compile(rf"(?<![A-Za-z0-9])(?:{_CAP_WORD})(?:[ \t\u00a0]+(?:{_CONNECTOR}[ \t\u00a0]+)*(?:{_CAP_WORD}))*")
_WORD_IN_RUN_RE = re.compile(rf"{_CAP_WORD}|{_CONNECTOR}")
_CONNECTORS = {"of", "the", "&", "de", "for"}
_ABBREVIATIONS = {"sr", "jr", "dr", "mr", "mrs", "ms", "st", "mt", "ft", "no", "vs", "dept", "univ", "intl", "assoc", "bros"}
_LEGAL = {"inc", "inc.", "incorporated", "corp", "corp.", "corporation", "llc", "l.l.c.", "ltd", "ltd.", "limited", "co", "co.", "gmbh", "ag", "plc", "s.a.", "sa", "pty", "llp", "lp"}
_ROLES = {
    "engineer", "developer", "manager", "director", "architect", "scientist", "analyst", "designer", "consultant",
    "officer", "president", "intern", "lead", "head", "founder", "co-founder", "cofounder", "specialist",
    "administrator", "researcher", "programmer", "strategist", "coordinator", "fellow", "professor", "lecturer",
    "leader", "chair", "chairman", "owner", "evangelist", "advocate", "technologist", "sde", "swe",
    "cto", "ceo", "cfo", "coo", "cio", "cpo", "cmo", "vp", "svp", "evp", "avp",
}  # fmt: skip
_ACRONYM_ROLES = {"CTO", "CEO", "CFO", "COO", "CIO", "CPO", "CMO", "VP", "SVP", "EVP", "AVP", "SDE", "SWE"}
_MODIFIERS = {
    "senior", "sr", "sr.", "junior", "jr", "jr.", "lead", "principal", "staff", "head", "chief", "associate",
    "assistant", "deputy", "executive", "vice", "distinguished", "general", "founding", "managing", "group",
}  # fmt: skip
_LOWER_TITLE_RE = re.compile(
    r"(?<![A-Za-z])((?:(?:senior|sr\.|junior|jr\.|lead|principal|staff|chief|head|associate|assistant|deputy|executive|vice|distinguished)\s+)+"
    r"(?:[a-z][a-z-]*\s+){0,2}?(?:engineer|developer|manager|director|architect|scientist|analyst|designer|consultant|officer|president|researcher))(?![A-Za-z])"
)
# Words that start a bullet or a sentence: never part of a name.
_LEADING = set(
    """
    a an the and or of for to in on at by with from as is are was were be i we my our your their it this that these those
    led lead leading built build building developed develop designed design drove drive ran run managed manage created
    create launched launch implemented implement improved improve increased increase reduced reduce delivered deliver
    owned own spearheaded architected migrated migrate automated automate optimized optimize established mentored
    collaborated partnered grew scaled shipped wrote authored introduced maintained supported analyzed conducted
    coordinated defined enabled executed facilitated founded headed initiated integrated oversaw pioneered
    redesigned refactored resolved streamlined transformed achieved awarded won earned received completed cut
    made set helped worked joined hired promoted served used using via also then
    """.split()
)
# Capitalised words that are no names: resume vocabulary, section titles, months, places.
_COMMON = _LEADING | set(
    """
    responsible responsibilities achievements achievement highlights highlight key selected relevant core
    experience experiences work professional employment career history summary profile objective about me contact
    education skills skill technical technologies technology tools tooling stack projects project publications
    publication awards award honors honor certifications certification certificates languages language interests
    volunteer volunteering activities leadership references additional other personal information info details
    open source contributions open-source side academic research teaching training courses coursework relevant
    team teams platform platforms product products service services system systems data infrastructure backend
    frontend front-end back-end full-stack fullstack mobile web cloud security network networking devops qa test
    testing quality reliability performance operations growth marketing sales business strategy finance design
    engineering development software hardware machine learning deep ai ml nlp computer vision science sciences
    analytics analysis internal external global regional local remote hybrid onsite present current now today
    january february march april may june july august september october november december
    jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday saturday sunday
    new next first second third last best top high low big small large fast real-time realtime scale scalable
    bachelor bachelors master masters phd ph.d. b.s. m.s. bs ms ba ma mba degree gpa major minor thesis
    english chinese mandarin cantonese japanese korean french german spanish native fluent proficient
    beijing shanghai shenzhen hangzhou guangzhou chengdu nanjing wuhan singapore london seattle tokyo usa us uk china
    markdown note notes tbd n/a etc e.g. i.e. api apis rest restful sql nosql ci cd ci/cd ui ux kpi kpis okr okrs
    sla slo etl saas paas b2b b2c sdk cli gpu cpu ios android http https grpc json yaml html css llm llms rag mvp poc
    roi crm erp seo e2e oss faq q&a hr pr prs
    """.split()
)
_FUNCTION_WORDS = {
    "that", "with", "and", "to", "in", "on", "at", "by", "from", "as", "is", "are", "was", "a", "an", "our", "your",
    "this", "these", "into", "through", "across", "over", "beyond", "without", "we", "you", "it", "not", "vs",
}  # fmt: skip
_KNOWN_ORGS = set(
    """
    Google Alphabet Microsoft Amazon Apple Meta Facebook Netflix Uber Lyft Airbnb Alibaba Tencent ByteDance
    Baidu Huawei Xiaomi Meituan Didi NetEase JD.com Oracle IBM Intel Nvidia NVIDIA AMD Qualcomm Cisco Salesforce
    Adobe Twitter LinkedIn Stripe Shopify Tesla SpaceX OpenAI Anthropic DeepMind Pinduoduo Kuaishou Samsung Sony
    Snap Pinterest Dropbox Atlassian Spotify Databricks Snowflake Palantir McKinsey Deloitte Accenture PwC KPMG
    Goldman Morgan JPMorgan Citi Citibank Barclays HSBC Walmart Instacart DoorDash Coinbase Robinhood TikTok
    """.split()
)
_ORG_CONTEXT_RE = re.compile(r"(?:(?<![A-Za-z])(?:at|joined|join|joining)\s+|@\s*|(?:加入|就职于|任职于|供职于|入职|效力于)\s*)$", re.IGNORECASE)
_SEPARATOR_CHARS = set("|—–·@")

_ZH_ROLES = (
    "首席技术官 首席执行官 首席运营官 首席财务官 首席产品官 首席科学家 技术官 执行官 运营官 财务官 产品官 总经理 副总裁 总裁 董事长 董事 "
    "合伙人 联合创始人 创始人 架构师 工程师 设计师 分析师 科学家 研究员 总监 经理 主管 负责人 组长 专家 顾问 实习生 主任 部长 讲师 教授 带头人"
).split()
_ZH_ROLE_RE = re.compile("|".join(sorted(_ZH_ROLES, key=len, reverse=True)))
_ZH_TITLE_CUT = (
    "晋升为 晋升至 担任 出任 升任 晋升 升为 成为 作为 任职 兼任 就任 公司 集团 大学 学院 研究院 团队 部门 的 任 为 是 在 于 做 当 兼 及 和 与 、 了 名 位 个"
).split()
_ZH_ORG_SUFFIX_RE = re.compile(
    r"(?:(?:科技|网络|信息|技术|软件|电子|智能|数据|金融|控股|传媒|文化|教育|咨询|实业|发展|互联网)*(?:股份)?"
    r"(?:有限责任公司|股份有限公司|集团有限公司|有限公司|集团公司|公司|集团))"
    r"|研究院|研究所|研究中心|实验室|大学|学院|银行|医院|工作室"
    rf"|科技(?=$|[^{_CJK}]|担任|任|工作|实习|就职|负责|期间|的)"
)
_ZH_CORP_TAIL_RE = re.compile(
    r"(?:(?:科技|网络|信息|技术|软件|电子|智能|数据|金融|控股|传媒|文化|教育|咨询|实业|发展|互联网)*(?:股份)?"
    r"(?:有限责任公司|股份有限公司|集团有限公司|有限公司|集团公司|公司|集团)?|科技)$"
)
_ZH_ORG_CUT = "就职于 任职于 供职于 服务于 加入 就职 任职 入职 进入 来到 曾在 在 于 曾 的 和 与 及 、 是 从 到 了 被 由 赴 任 担任 前往".split()
_ZH_GENERIC_CORE = set(
    "本 该 子 分 总 母 全 各 多家 这家 那家 一家 两家 上市 互联网 外包 创业 初创 咨询 我们 我司 贵司 全球 国内 国外 海外 大型 中型 小型 知名 头部 "
    "一线 二线 外企 国企 私企 民营 跨国 世界 本地 合作 目标 客户".split()
)
_ZH_KNOWN_ORGS = (
    "字节跳动 腾讯 阿里巴巴 阿里云 蚂蚁金服 百度 华为 美团 京东 小米 网易 滴滴 快手 拼多多 微软 谷歌 亚马逊 英伟达 商汤 旷视 携程 小红书 "
    "哔哩哔哩 蔚来 比亚迪 中兴 联想 大疆 宁德时代 微博 新浪 搜狐 知乎 得物 米哈游 贝壳 链家"
).split()
_ZH_KNOWN_RE = re.compile("|".join(sorted(_ZH_KNOWN_ORGS, key=len, reverse=True)))
_ZH_NAME_CHAR_RE = re.compile(rf"[{_CJK}A-Za-z0-9()（）]")


def _line_bounds(text: str, pos: int) -> tuple[int, int]:
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    return start, len(text) if end == -1 else end


def _scan_names(text: str, consumed: list[bool], dates: list[_Fact]) -> list[_Fact]:
    masked = "".join("\x00" if c else ch for c, ch in zip(consumed, text))
    facts: list[_Fact] = []
    taken = list(consumed)

    def add(kind: FactKind, start: int, end: int, need: object) -> None:
        if start >= end or not _free(taken, start, end):
            return
        facts.append(_Fact(kind, text[start:end], start, end, need))
        _consume(taken, start, end)

    # Chinese titles and organizations first: their spans are unambiguous.
    for m in _ZH_ORG_SUFFIX_RE.finditer(masked):
        start = _zh_left(masked, m.start(), 12, _ZH_ORG_CUT)
        core = masked[start : m.start()]
        if len(core) < 2 or core in _ZH_GENERIC_CORE or core.isdigit():
            continue
        add("organization", start, m.end(), ("zh-org", masked[start : m.end()]))
    for m in _ZH_KNOWN_RE.finditer(masked):
        add("organization", m.start(), m.end(), ("zh-org", m.group(0)))
    for m in _ZH_ROLE_RE.finditer(masked):
        start = _zh_left(masked, m.start(), 8, _ZH_TITLE_CUT)
        add("title", start, m.end(), ("zh-title", masked[start : m.end()]))

    title_lines: set[int] = {_line_bounds(text, f.start)[0] for f in dates}

    runs: list[list[tuple[int, int, str]]] = []
    for m in _RUN_RE.finditer(masked):
        run: list[tuple[int, int, str]] = []
        for w in _WORD_IN_RUN_RE.finditer(m.group(0)):
            word = w.group(0)
            if any(ch.isdigit() for ch in word):  # S3, H100, EC2: product identifiers split a run
                runs.append(run)
                run = []
                continue
            run.append((w.start() + m.start(), w.end() + m.start(), word))
            bare = word[:-1].lower()
            if word.endswith(".") and len(bare) > 1 and bare not in _LEGAL and bare not in _ABBREVIATIONS:
                runs.append(run)  # "… in Go and Python. Led the …": a sentence ends here
                run = []
        runs.append(run)

    singles: list[tuple[int, int, str]] = []
    for words in runs:
        words = _strip_leading(masked, words)
        if not words:
            continue
        for kind, part in _split_run(words):
            start, end = part[0][0], part[-1][1]
            if kind == "title":
                add("title", start, end, ("title", _title_norm(text[start:end])))
                title_lines.add(_line_bounds(text, start)[0])
            elif len([w for w in part if w[2].lower() not in _CONNECTORS]) >= 2:
                if all(w[2].lower().rstrip(".") in _COMMON or w[2].lower().rstrip(".") in _ROLES or w[2].lower() in _CONNECTORS for w in part):
                    continue
                if any(w[2].rstrip(".").lower() in _FUNCTION_WORDS and w[2][0].isupper() for w in part[1:]):
                    continue  # Title-Case prose ("Systems That Scale"), not a name
                add("organization", start, end, ("org", _org_words(text[start:end])))
            else:
                singles.append((start, end, part[0][2]))

    for m in _LOWER_TITLE_RE.finditer(masked):
        add("title", m.start(1), m.end(1), ("title", _title_norm(m.group(1))))

    for start, end, word in singles:
        bare = word.rstrip(".")
        if bare.lower() in _COMMON or bare.lower() in _ROLES or bare.lower() in _LEGAL:
            continue
        line_start, line_end = _line_bounds(text, start)
        line = text[line_start:line_end]
        known = bare in _KNOWN_ORGS
        context = bool(_ORG_CONTEXT_RE.search(masked[max(0, start - 12) : start]))
        header = line_start in title_lines and (
            line.lstrip().startswith("#")
            or any(ch in _SEPARATOR_CHARS for ch in line)
            or text[max(0, start - 2) : start] == "**"
        )
        if known or context or header:
            add("organization", start, start + len(bare), ("org", _org_words(bare)))
    return facts


def _zh_left(text: str, end: int, limit: int, cuts: list[str]) -> int:
    """Extend left from ``end`` over name characters (at most ``limit``), then cut after the
    last particle/verb such as 在/加入/担任 so only the name remains."""
    start = end
    while start > 0 and end - start < limit and _ZH_NAME_CHAR_RE.match(text[start - 1]):
        start -= 1
    prefix = text[start:end]
    best = 0
    for cut in cuts:
        idx = prefix.rfind(cut)
        if idx != -1:
            best = max(best, idx + len(cut))
    # ASCII words glued to the name (“Java开发工程师”) stay; a trailing space never occurs here.
    return start + best


def _strip_leading(text: str, words: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """Drop sentence-initial verbs, articles and connectors at the front of a capitalised run."""
    i = 0
    while i < len(words):
        low = words[i][2].lower().rstrip(".")
        if low in _CONNECTORS or (low in _LEADING and low not in _MODIFIERS and low not in _ROLES):
            i += 1
            continue
        if low in ("lead", "head") and i + 1 < len(words) and words[i + 1][2].lower() != "of" and not _is_role(words, i + 1) and not any(_is_role(words, k) for k in range(i + 1, len(words))):
            i += 1  # "Lead Migration …": a verb
            continue
        if i == 0 and low.endswith(("ed", "ing")) and len(words) > 1 and _sentence_start(text, words[0][0]):
            i += 1
            continue
        break
    rest = words[i:]
    while rest and rest[-1][2].lower() in _CONNECTORS:
        rest = rest[:-1]
    return rest


def _sentence_start(text: str, pos: int) -> bool:
    i = pos - 1
    while i >= 0 and text[i] in " \t*_#>-+`[":
        i -= 1
    return i < 0 or text[i] in "\n.!?:;|。！？：；\x00"


def _is_role(words: list[tuple[int, int, str]], i: int) -> bool:
    word = words[i][2].rstrip(".")
    low = word.lower()
    if word.isupper() and len(word) > 1:
        return word in _ACRONYM_ROLES
    if low not in _ROLES:
        return False
    if i + 1 < len(words):  # "Developer Experience", "Engineer Tools": a compound noun, no title
        nxt = words[i + 1][2].rstrip(".")
        if nxt.lower() not in ("of", "&", "and") and not re.fullmatch(r"[IVX]{1,4}|L\d{1,2}|\d", nxt) and not _is_role(words, i + 1):
            return False
    if low in ("lead", "head"):  # "Lead"/"Head" start a sentence as verbs/modifiers
        nxt = words[i + 1][2].lower() if i + 1 < len(words) else ""
        return i > 0 or nxt == "of"
    return True


def _split_run(words: list[tuple[int, int, str]]) -> list[tuple[str, list[tuple[int, int, str]]]]:
    """Split a capitalised run into organization and title parts."""
    roles = [i for i in range(len(words)) if _is_role(words, i)]
    if not roles:
        return [("org", words)]
    last = roles[-1]
    end = last
    # "Head of Engineering", "VP of Product": take the "of …" tail into the title.
    if last + 1 < len(words) and words[last + 1][2].lower() == "of":
        end = len(words) - 1
    floor = 0  # a known employer or a legal suffix ends the organization part
    begin: int | None = None
    for i in range(last + 1):
        word = words[i][2]
        low = word.lower().rstrip(".")
        if low in _LEGAL or word.rstrip(".") in _KNOWN_ORGS:
            floor = i + 1
            continue
        if low in _MODIFIERS or _is_role(words, i):
            begin = i
            break
    if begin is None or begin == last:
        # No seniority word: up to three domain words before the role belong to the title
        # (Machine Learning Engineer), never a connector or an employer.
        j = last
        while j > floor and last - j < 3 and words[j - 1][2].lower() not in _CONNECTORS:
            j -= 1
        begin = j
    parts: list[tuple[str, list[tuple[int, int, str]]]] = []
    if begin > 0:
        head = words[:begin]
        while head and head[-1][2].lower() in _CONNECTORS:
            head = head[:-1]
        if head:
            parts.append(("org", head))
    parts.append(("title", words[begin : end + 1]))
    tail = words[end + 1 :]
    while tail and tail[0][2].lower() in _CONNECTORS:
        tail = tail[1:]
    if tail:
        parts.extend(_split_run(tail))
    return parts


def _title_norm(s: str) -> str:
    s = s.lower()
    s = re.sub(r"\bsr\b\.?", "senior", s)
    s = re.sub(r"\bjr\b\.?", "junior", s)
    s = re.sub(r"\bvice[\s-]+president\b", "vp", s)
    s = re.sub(r"\bco-?founder\b", "cofounder", s)
    s = s.replace("&", " and ")
    s = re.sub(r"[^a-z0-9\u3400-\u9fff]+", " ", s)
    return " ".join(s.split())


def _org_words(s: str) -> tuple[str, ...]:
    words = [w.lower().strip(".'’") for w in re.findall(r"[A-Za-z0-9][A-Za-z0-9'’&.+-]*", s)]
    return tuple(w for w in words if w and w not in _CONNECTORS and w not in _LEGAL)


# --------------------------------------------------------------------------------------
# Support
# --------------------------------------------------------------------------------------


@dataclass
class _Support:
    keys: set = field(default_factory=set)
    message_keys: set = field(default_factory=set)
    words: set = field(default_factory=set)
    title_text: str = " "
    compact: str = ""
    message_present: bool = False
    resume_ranges: set = field(default_factory=set)

    @classmethod
    def build(cls, texts: Sequence[str], messages: Sequence[str], resume_text: str) -> _Support:
        support = cls()
        prepared = [_prepare(t)[0] for t in texts]
        for text in prepared:
            support._add(text, support.keys)
        for text in messages:
            text, _ = _prepare(text)
            support._add(text, support.message_keys)
            if _PRESENT_WORD_RE.search(text):
                support.message_present = True
        joined = "\n".join(prepared)
        for word in re.findall(r"[A-Za-z0-9][A-Za-z0-9'’&.+-]*", joined):
            word = word.lower().strip(".'’")
            support.words.add(word)
            for piece in re.split(r"[-.&+'’]", word):
                if piece:
                    support.words.add(piece)
        support.title_text = f" {_title_norm(joined)} "
        support.compact = re.sub(r"\s+", "", joined)
        resume, _ = _prepare(resume_text)
        for r in _date_ranges(resume, _scan_dates(resume, [False] * len(resume))):
            support.resume_ranges.add((r.start.need, r.end.need))
        return support

    @staticmethod
    def _add(prepared: str, keys: set) -> None:
        consumed = [False] * len(prepared)
        for fact in [*_scan_dates(prepared, consumed), *_scan_numbers(prepared, consumed)]:
            keys.add(fact.need)
            keys.update(fact.gives)

    def supports(self, fact: _Fact) -> bool:
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
            return _title_norm(fact.value) in self.title_text
        if need[0] == "zh-org":
            name = need[1]
            if name in self.compact:
                return True
            core = _ZH_CORP_TAIL_RE.sub("", name)
            return len(core) >= 2 and core in self.compact
        return False

    def supports_changed_range(self, end: _Fact, new_range: _Range) -> bool:
        if (new_range.start.need, new_range.end.need) in self.resume_ranges:
            return True
        if end.present:
            return self.message_present
        return end.need in self.message_keys
