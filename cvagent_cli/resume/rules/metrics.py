"""Does a bullet state a metric: a result or a scale?

A number is a metric when it measures something: a percentage, money, a count of people,
users, requests or items, a multiplier, a duration saved, a rank won.  Numbers that only
*name* or *date* something are masked out first: dates and date ranges, version numbers
("HTML5", "Java 8", "Python 3", "C++17", "version 9.1"), "2D/3D" and "5G", years of
experience and ages ("10年经验", "5+ years of experience", "28岁"), phone numbers and IDs.
What is left is counted the way it always was (digits not glued to letters, %, ×, scale
words, Chinese numeral + counter).
"""

from __future__ import annotations

import re

from cvagent_cli.resume.dates import find_ranges
from cvagent_cli.resume.rules.lexicon import (
    METRIC_WORDS_EN,
    METRIC_WORDS_ZH,
    ZH_COUNTERS,
    ZH_NUMERALS,
)

# A number starts at its first digit, so that re can skip ahead to the next digit (a pattern
# opening with an optional "[$€£¥]?" is tried at every position); a currency sign right
# before it belongs to the number too ("$120k"), and _counts_a_number takes it in.
_NUMBER_RE = re.compile(r"[0-9０-９][0-9０-９,.]*(?:\s*(?:%|％|[kKmMbB]\b|[xX×]|\+))?")
_CURRENCY = "$€£¥"
_YEAR_ONLY_RE = re.compile(r"^(?:19|20)\d\d$")
_METRIC_WORDS = frozenset(METRIC_WORDS_EN)
# A whole word: "three" counts, "Three.js" does not.
_WORD_RE = re.compile(r"(?<![\w.])[a-z]+(?![\w]|\.\w)")
# "[…][…]*", not "[…]+": re skips ahead only for a pattern that starts with a plain class.
_ZH_COUNT_RE = re.compile(f"[{ZH_NUMERALS}][{ZH_NUMERALS}]*[{ZH_COUNTERS}]")
# any(word in text for word in METRIC_WORDS_ZH), in one pass over the text
_METRIC_ZH_RE = re.compile("|".join(map(re.escape, METRIC_WORDS_ZH)))
# "一个模块", "两个系统": one or two of something is an article, not a scale.
_ZH_ONE_RE = re.compile(r"(?<![一二两三四五六七八九十百千万])[一两][个项款套门份次场篇家台条位]")
# Names that take a version number after them ("Java 8", "Vue 3", "Spring Boot 2", "版本 2").
_VERSIONED = frozenset(
    """java jdk python vue vue.js angular angularjs react node node.js php c# ios android windows
    win ubuntu centos debian macos html css es ecmascript spring boot django rails unity unreal
    engine excel office swift kotlin go golang scala perl ruby .net asp.net core server oracle
    mysql postgresql postgres redis elasticsearch hadoop spark kafka tensorflow pytorch webpack
    vite bootstrap laravel symfony ie chrome ipv http ros opencv qt gcc cuda typescript linux
    kernel api version ver v 版本 level lv cet gpt llama mongodb jquery nuxt next.js flutter dart
    openssl tls ssl wcag oauth sdk ndk xcode studio vs""".split()
)
_WORD_NUMBER_RE = re.compile(r"(?<![\w.])([A-Za-z][\w#.]*|版本)\s?v?\d+(?:\.\d+)*(?![\d%])")
# A year, as every date pattern below holds one (and as dates.find_ranges tests first).
_YEAR_RE = re.compile(r"(?:19|20)\d\d")
# Each group of patterns runs only when its gate, a plain pattern that every match of the
# group contains (once lower-cased), finds something in the lower-cased text: a needle or,
# for the patterns that start with a look-behind (which re tries at every position), a
# cheaper core.  Patterns that share a gate share one test.  Most bullets hold no year,
# none of 年, 岁, #, "experience", no "1.2.3" and no 2D/5G, so most patterns never scan.
_NOT_METRIC_RES: tuple[tuple[re.Pattern[str], tuple[re.Pattern[str], ...]], ...] = (
    # Dates: 2016/10, 2019.03, 2019-03, 10/2016, Mar 2020.
    (
        _YEAR_RE,
        (
            re.compile(r"(?<!\d)(?:19|20)\d\d\s*[./-]\s*\d{1,2}(?:\s*[./-]\s*\d{1,2})?(?!\d)"),
            re.compile(r"(?<![\d.])\d{1,2}\s*[./]\s*(?:19|20)\d\d(?!\d)"),
            re.compile(
                r"(?i)\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+"
                r"(?:\d{1,2},?\s+)?(?:19|20)\d\d"
            ),
        ),
    ),
    (
        re.compile("年"),
        (
            # Dates: 2019年3月.
            re.compile(r"(?:19|20)\d\d\s*年(?:\s*\d{1,2}\s*月)?(?:\s*\d{1,2}\s*[日号])?"),
            # Years of experience and tenure.
            re.compile(
                r"\d+\s*\+?\s*年(?:以上|多|半)?(?:的)?[\u4e00-\u9fffA-Za-z ]{0,8}?(?:经验|经历|工作|从业)"
            ),
            re.compile(r"(?:工作年限|工龄|年限)\s*[:：]?\s*\d+\s*年"),
        ),
    ),
    # Versions glued to a sign or with two dots: "C++17", "C# 7", "v2.3.1"; IDs: "#1234".
    (re.compile("[+#]"), (re.compile(r"(?<=[+#])\s?\d+(?:\.\d+)*"), re.compile(r"#\d{3,}"))),
    (re.compile(r"\d\.\d+\.\d"), (re.compile(r"(?<![\w.])v?\d+\.\d+\.\d+(?:\.\d+)*"),)),
    # Dimensions and network generations: 2D, 3D, 4G, 5G.
    (
        re.compile(r"[2-6]\s?[dg]"),
        (re.compile(r"(?<![\w.])[2-4]\s?[Dd](?![A-Za-z])|(?<![\w.])[3-6]G(?![A-Za-z])"),),
    ),
    # Years of experience and age.
    (
        re.compile("exp"),
        (
            re.compile(
                r"(?i)\d+\s*\+?\s*(?:years?|yrs?)\b(?:\s+(?:of|in|as))?(?:\s+[\w-]+){0,3}?\s+"
                r"(?:experience|exp)\b"
            ),
        ),
    ),
    (re.compile("岁|age"), (re.compile(r"(?i)\d+\s*岁|\bage[ds]?\s*[:：]?\s*\d+"),)),
    # Phone numbers, IDs and long codes: seven or more digits with no unit after them.
    (
        re.compile(r"\d[\d -]{6,}\d"),
        (re.compile(r"(?<![\d,.])\+?\d[\d -]{6,}\d(?![\d,.]|\s*(?:%|万|亿|元|[kKmMbB]\b))"),),
    ),
)


_DIGIT_RE = re.compile(r"[0-9０-９]")


def mask_non_metrics(text: str) -> str:
    """``text`` with dates, versions, dimensions, tenures, ages, phones and IDs blanked."""
    if not _DIGIT_RE.search(text):
        return text  # every pattern below needs a digit
    low = text.lower()
    spans = [(r.offset, r.offset + len(r.raw)) for r in find_ranges(text)]
    for gate, regexes in _NOT_METRIC_RES:
        if gate.search(low):
            spans += [match.span() for regex in regexes for match in regex.finditer(text)]
    for match in _WORD_NUMBER_RE.finditer(text):  # "Java 8", "Python 3.11", "version 9.1"
        word = match.group(1)
        if word.lower() in _VERSIONED or (
            # "Camunda 8.5": a decimal right after a product name (not the opening verb)
            match.start() > 0 and word[0].isupper() and "." in match.group()[len(word) :]
        ):
            spans.append(match.span())
    if not spans:
        return text
    chars = list(text)
    for start, end in spans:
        chars[start:end] = " " * (end - start)
    return "".join(chars)


def has_metric(text: str, tokens: frozenset[str] | None = None) -> bool:
    # Signs that need no digit first: no pattern below masks %, ×, a scale word or a
    # Chinese numeral, and they are cheaper than masking.
    if "%" in text or "％" in text or "×" in text:
        return True
    words = tokens if tokens is not None else frozenset(re.findall(r"[a-z]+", text.lower()))
    if words & _METRIC_WORDS and any(w in _METRIC_WORDS for w in _WORD_RE.findall(text.lower())):
        return True
    if _METRIC_ZH_RE.search(text):
        return True
    # Blanking "一个" only removes matches, so a text with no count at all needs no blanking.
    if _ZH_COUNT_RE.search(text) and _ZH_COUNT_RE.search(_ZH_ONE_RE.sub("  ", text)):
        return True
    # Mask only when some number could count: masking is the expensive part.
    return _counts_a_number(text) and _counts_a_number(mask_non_metrics(text))


def _counts_a_number(text: str) -> bool:
    for match in _NUMBER_RE.finditer(text):
        start = match.start()
        if start and text[start - 1] in _CURRENCY:
            start -= 1
        before = text[start - 1] if start else " "
        if before.isascii() and before.isalnum():
            continue  # EC2, P99, HTML5
        if not _YEAR_ONLY_RE.match(text[start : match.end()]):  # "in 2022" is a date, not a result
            return True
    return False
