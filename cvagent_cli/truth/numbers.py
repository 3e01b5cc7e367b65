"""Number, percentage, multiplier and money-amount facts, including English number words
and Chinese numerals."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any, Protocol

from cvagent_cli.document.numerals import ZH_DIGITS, ZH_HUNDRED_MILLION, ZH_POWERS, ZH_ZEROS
from cvagent_cli.script import IDEOGRAPHS
from cvagent_cli.truth.facts import Fact, FactKind, consume, is_free, quantity, to_decimal

_VERSION_RE = re.compile(r"(?<![A-Za-z0-9.])\d+(?:\.\d+){2,}(?!\.?\d)")
_PERCENT_RANGE_RE = re.compile(
    r"(?<![A-Za-z0-9.])(\d+(?:\.\d+)?)%?(?:-|–|~|～|到|至)(\d+(?:\.\d+)?)\s?%"
)
_CN_DIGITS = ZH_ZEROS + ZH_DIGITS + ZH_POWERS + ZH_HUNDRED_MILLION
_CN_NUM = f"[{_CN_DIGITS}]+"
_PERCENT_CN_RE = re.compile(rf"百分之(\d+(?:\.\d+)?|{_CN_NUM})")
_DOUBLING_RE = re.compile(
    r"(?i)\b(doubled|tripled|trebled|quadrupled)\b|翻了?(?:一)?倍|翻了?([一两二三四])番"
)
_NUMBER_RE = re.compile(
    r"(?<![A-Za-z0-9.])(?<![A-Za-z][-_])(\d{1,3}(?:,\d{3})+(?![\d])|\d+)(\.\d+)?(?![\d])"
)
_CURRENCY_BEFORE_RE = re.compile(
    r"(?:[A-Z]{0,2}\$|¥|€|£|₹|\b(?:USD|RMB|CNY|EUR|GBP|JPY|HKD|SGD)\s?)\s?$"
)
_SCALE_WORDS = {"thousand": 10**3, "million": 10**6, "billion": 10**9, "trillion": 10**12}
_SCALE_WORD_RE = re.compile(r"\s?(thousand|million|billion|trillion|mn|bn)\b", re.IGNORECASE)
_CN_SCALE_RE = re.compile(r"[百千万亿]+")
_CURRENCY_AFTER_RE = re.compile(
    r"\s?(?:dollars?|USD|RMB|CNY|EUR|GBP|yuan|euros?|pounds)\b|(?:万元|亿元|美元|元|人民币|块钱)"
)
_PERCENT_AFTER_RE = re.compile(r"\s?%|\s(?:percent|per cent|pct)\b|个百分点", re.IGNORECASE)
_MULT_AFTER_RE = re.compile(
    r"[xX×](?![A-Za-z0-9])|\s?×|\s?-?fold\b|\s+times\b(?!\s+(?:a|per|each|every)\b)|\s?倍"
)
_LETTER_SCALES = {
    "k": 10**3,
    "K": 10**3,
    "M": 10**6,
    "MM": 10**6,
    "B": 10**9,
    "bn": 10**9,
    "Bn": 10**9,
    "w": 10**4,
    "W": 10**4,
}
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
_CN_SPACED_SCALE_RE = re.compile(
    rf"\s([万亿])(?=$|[^{IDEOGRAPHS}]|元|人|次|用户|条|个|笔|订单|的|级|量|美元|行|份|台|件|日活|月活|营收|规模)"
)
# Chinese numerals count before a measure word (三年, 十人) or when they are unmistakably a
# number (五百万); never after 第 (an ordinal) or 双 (双十一), never idioms such as 千万/万一.
_CN_QUANTITY_RE = re.compile(rf"(?<![第双{_CN_DIGITS}])({_CN_NUM})(?![{_CN_DIGITS}])")
_CN_IDIOMS = {"千万", "万一", "一一", "万万", "千千万万", "十一", "一千零一"}
_EN_ONES = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17,
    "eighteen": 18, "nineteen": 19,
}  # fmt: skip
_EN_TENS = {
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
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
    digits = {
        "零": 0,
        "〇": 0,
        "一": 1,
        "二": 2,
        "两": 2,
        "三": 3,
        "四": 4,
        "五": 5,
        "六": 6,
        "七": 7,
        "八": 8,
        "九": 9,
    }
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


class _Take(Protocol):
    """Records a fact spanning ``text[start:end]`` and marks the span consumed."""

    def __call__(
        self,
        kind: FactKind,
        start: int,
        end: int,
        need: tuple[Any, ...],
        gives: tuple[object, ...] = (),
    ) -> None: ...


def scan_numbers(text: str, consumed: list[bool]) -> list[Fact]:
    """The number facts of ``text`` (versions, percentages, multipliers, amounts, counts
    in digits, Chinese numerals or English words), each span read by the first reader
    that claims it."""
    facts: list[Fact] = []

    def take(
        kind: FactKind, start: int, end: int, need: tuple[Any, ...], gives: tuple[object, ...] = ()
    ) -> None:
        facts.append(Fact(kind, text[start:end], start, end, need, (need, *gives)))
        consume(consumed, start, end)

    for read in (
        _versions,
        _percent_ranges,
        _chinese_percents,
        _doublings,
        _numbers,
        _chinese_quantities,
        _english_number_words,
    ):
        read(text, consumed, facts, take)
    return facts


def _versions(text: str, consumed: list[bool], facts: list[Fact], take: _Take) -> None:
    for m in _VERSION_RE.finditer(text):
        if is_free(consumed, m.start(), m.end()):
            take("number", m.start(), m.end(), ("version", m.group(0)))


def _percent_ranges(text: str, consumed: list[bool], facts: list[Fact], take: _Take) -> None:
    for m in _PERCENT_RANGE_RE.finditer(text):
        if is_free(consumed, m.start(), m.end()):
            for group in (1, 2):
                value = to_decimal(m.group(group))
                if value is not None:
                    facts.append(
                        Fact(
                            "percentage",
                            f"{m.group(group)}%",
                            m.start(group),
                            m.end(group),
                            ("percent", value),
                            (("percent", value), quantity(value)),
                        )
                    )
            consume(consumed, m.start(), m.end())


def _chinese_percents(text: str, consumed: list[bool], facts: list[Fact], take: _Take) -> None:
    for m in _PERCENT_CN_RE.finditer(text):
        if not is_free(consumed, m.start(), m.end()):
            continue
        raw = m.group(1)
        if raw[0].isdigit():
            value = to_decimal(raw)
        else:
            whole = _cn_to_int(raw)
            value = Decimal(whole) if whole is not None else None
        if value is not None:
            take(
                "percentage", m.start(), m.end(), ("percent", value.normalize()), (quantity(value),)
            )


def _doublings(text: str, consumed: list[bool], facts: list[Fact], take: _Take) -> None:
    for m in _DOUBLING_RE.finditer(text):
        if not is_free(consumed, m.start(), m.end()):
            continue
        word = (m.group(1) or "").lower()
        if word:
            factor = {"doubled": 2, "tripled": 3, "trebled": 3, "quadrupled": 4}[word]
        else:
            factor = {"一": 2, "两": 4, "二": 4, "三": 8, "": 2}[m.group(2) or ""]
        take(
            "number",
            m.start(),
            m.end(),
            ("multiplier", Decimal(factor)),
            (quantity(Decimal(factor)),),
        )


def _numbers(text: str, consumed: list[bool], facts: list[Fact], take: _Take) -> None:
    for m in _NUMBER_RE.finditer(text):
        start, end = m.start(), m.end()
        if not is_free(consumed, start, end):
            continue
        coefficient = to_decimal(m.group(1) + (m.group(2) or ""))
        if coefficient is None:
            continue
        fact = _number_fact(text, start, end, coefficient)
        if fact is not None and is_free(consumed, fact.start, fact.core_end or fact.end):
            facts.append(fact)
            consume(consumed, fact.start, fact.core_end or fact.end)


def _chinese_quantities(text: str, consumed: list[bool], facts: list[Fact], take: _Take) -> None:
    for m in _CN_QUANTITY_RE.finditer(text):
        if not is_free(consumed, m.start(), m.end()):
            continue
        run = m.group(1)
        count = _cn_to_int(run)
        if count is None or count <= 1 or run in _CN_IDIOMS:
            continue
        end = m.end()
        kind: FactKind = "number"
        need: tuple[Any, ...] = quantity(Decimal(count))
        unit = _ZH_UNIT_RE.match(text, end)
        if unit is None and not (
            len(run) > 1
            and any(ch in "十百千万亿" for ch in run)
            and any(ch not in "十百千万亿" for ch in run)
        ):
            continue
        if unit:
            unit_text = unit.group(0)
            end = unit.end()
            if unit_text.endswith("倍"):
                need = ("multiplier", Decimal(count))
            elif unit_text.endswith(("元", "块")):
                kind = "amount"
        if is_free(consumed, m.start(), end):
            take(kind, m.start(), end, need, (quantity(Decimal(count)),))


def _english_number_words(text: str, consumed: list[bool], facts: list[Fact], take: _Take) -> None:
    for m in _EN_WORD_RE.finditer(text):
        if not is_free(consumed, m.start(), m.end()):
            continue
        if m.group(1):
            count = _EN_TENS[m.group(1).lower()] + (
                _EN_ONES[m.group(2).lower()] if m.group(2) else 0
            )
        else:
            count = _EN_ONES[m.group(3).lower()]
        if count <= 1:
            continue
        take("number", m.start(), m.end(), quantity(Decimal(count)))


def _number_fact(text: str, start: int, end: int, coefficient: Decimal) -> Fact | None:
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

    after: tuple[tuple[re.Pattern[str], FactKind, str], ...] = (
        (_PERCENT_AFTER_RE, "percentage", "percent"),  # 40%, 40 percent
        (_MULT_AFTER_RE, "number", "multiplier"),  # 3x, 3 times
    )
    for pattern, fact_kind, tag in after:
        m = pattern.match(rest)
        if m:
            pos += m.end()
            need = (tag, value)
            return Fact(fact_kind, text[start:pos], start, pos, need, (need, quantity(value)))
    scaled = _scaled(text, pos, coefficient, currency is not None)
    if scaled is None:
        return None
    value, pos = scaled
    return _with_unit(text, start, pos, value, coefficient, kind)


def _scaled(
    text: str, pos: int, coefficient: Decimal, currency: bool
) -> tuple[Decimal, int] | None:
    """The value once a scale after the number is read (k, M, million, 万 …) and where the
    number ends, a unit glued to it included; None for an ordinal or an identifier."""
    rest = text[pos : pos + 40]
    value = coefficient
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
    else:
        m = _SCALE_WORD_RE.match(rest)
        if m:
            word = m.group(1).lower()
            value = coefficient * ({"mn": 10**6, "bn": 10**9}.get(word) or _SCALE_WORDS[word])
            pos += m.end()
        else:
            m = _CN_SCALE_RE.match(rest) or _CN_SPACED_SCALE_RE.match(rest)
            if m:
                for ch in m.group(0).strip():
                    value *= {"百": 100, "千": 1000, "万": 10**4, "亿": 10**8}[ch]
                pos += m.end()
    return value, pos


def _with_unit(
    text: str, start: int, pos: int, value: Decimal, coefficient: Decimal, kind: FactKind
) -> Fact:
    """The fact from ``start`` with a currency or unit after ``pos`` read into it."""
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
                return Fact(
                    "number",
                    text[start:pos],
                    start,
                    pos,
                    ("multiplier", value),
                    (("multiplier", value), quantity(value), quantity(coefficient)),
                )
            pos += unit.end()
        elif (spaced := _SPACED_UNIT_RE.match(rest)) and (
            spaced.group(1) in _UNITS
            or (len(spaced.group(1)) > 1 and spaced.group(1).lower() in _UNITS)
        ):
            pos += spaced.end()  # "2 TB", "35 ms"
        elif kind == "number":
            shown = _UNIT_WORD_RE.match(rest)
            unit_word = shown.group(1).lower() if shown else ""
            if (
                shown
                and unit_word not in _STOP_AFTER
                and unit_word not in _SCALE_WORDS
                and not _EN_WORD_RE.fullmatch(unit_word)
            ):
                core_end = pos  # "10 engineers" is shown, only "10" is the fact
                pos += shown.end()
    value = value.normalize()
    return Fact(
        kind,
        text[start:pos],
        start,
        pos,
        quantity(value),
        (quantity(value), quantity(coefficient)),
        core_end=core_end,
    )
