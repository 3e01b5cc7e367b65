"""Date facts (``2019``, ``Mar 2020``, ``2019.03``, ``2019年3月``) and date ranges."""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from cvagent_cli.resume.truth.facts import _consume, _Fact, _free, _q

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
    (
        re.compile(
            rf"{_NB}(?<![A-Za-z][-_])({_YEAR})(?![\d]|\.\d|,\d|\s*%|[A-Za-z+]|\s?[万亿千百人名位个倍元块次项家台条])"
        ),
        "y",
    ),
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
            gives = (
                (("date", year, month), ("year", year), _q(Decimal(year)))
                if month
                else (("year", year), _q(Decimal(year)))
            )
            if shape == "my" and m.group(2):  # the day of "Mar 3, 2020" is a number of its own
                gives += (_q(Decimal(int(m.group(2)))),)
            facts.append(_Fact("date", m.group(0).strip(), m.start(), m.end(), need, gives))
            _consume(consumed, m.start(), m.end())
    facts.sort(key=lambda f: f.start)
    return facts


_RANGE_SEP_RE = re.compile(r"\s*(?:-{1,2}|–|—|~|～|－|→|to|至|到|until)\s*", re.IGNORECASE)
_PRESENT_RE = re.compile(
    r"\s*(?:-{1,2}|–|—|~|～|－|→|\bto\b|至|到|until)\s*(present|now|current|today|至今|今|现在|目前)(?![A-Za-z])",
    re.IGNORECASE,
)
_PRESENT_WORD_RE = re.compile(
    r"(?i)\b(?:present|now|current|currently|still)\b|至今|现在|目前|仍在|还在"
)


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
            end = _Fact(
                "date",
                m.group(1),
                m.start(1),
                m.end(1),
                ("present",),
                (("present",),),
                present=True,
            )
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
