"""Date facts (``2019``, ``Mar 2020``, ``2019.03``, ``2019年3月``) and date ranges, read with
the grammar of :mod:`cvagent_cli.document.dates`."""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from cvagent_cli.document.dates import PRESENT, SEPARATOR, find_dates
from cvagent_cli.truth.facts import Fact, consume, is_free, quantity

# Dates are read with the analyzer's grammar (document/dates.py); the guard only turns each
# into a fact and keeps the years a resume plausibly talks about.
_MIN_YEAR, _MAX_YEAR = 1950, 2049


def scan_dates(text: str, consumed: list[bool]) -> list[Fact]:
    facts: list[Fact] = []
    for token in find_dates(text):
        year, month = token.date.year, token.date.month or 0
        if not _MIN_YEAR <= year <= _MAX_YEAR or not is_free(consumed, token.start, token.end):
            continue
        need = ("date", year, month) if month else ("year", year)
        gives: tuple[object, ...] = (
            (("date", year, month), ("year", year), quantity(Decimal(year)))
            if month
            else (("year", year), quantity(Decimal(year)))
        )
        if token.format == "Mon YYYY" and token.day:  # the day of "Mar 3, 2020" is a number
            gives += (quantity(Decimal(token.day)),)
        facts.append(Fact("date", token.text, token.start, token.end, need, gives))
        consume(consumed, token.start, token.end)
    return facts


_RANGE_SEP_RE = re.compile(SEPARATOR, re.IGNORECASE)
_PRESENT_RE = re.compile(rf"{SEPARATOR}({PRESENT})(?![A-Za-z])", re.IGNORECASE)


@dataclass
class DateRange:
    start: Fact
    end: Fact

    @property
    def start_text(self) -> str:
        return self.start.value

    @property
    def end_text(self) -> str:
        return self.end.value


def date_ranges(text: str, dates: list[Fact]) -> list[DateRange]:
    ranges: list[DateRange] = []
    ordered = sorted(dates, key=lambda f: f.start)
    for i, first in enumerate(ordered):
        nxt = ordered[i + 1] if i + 1 < len(ordered) else None
        if nxt is not None and _RANGE_SEP_RE.fullmatch(text[first.end : nxt.start]):
            ranges.append(DateRange(first, nxt))
            continue
        m = _PRESENT_RE.match(text, first.end)
        if m:
            end = Fact(
                "date",
                m.group(1),
                m.start(1),
                m.end(1),
                ("present",),
                (("present",),),
                present=True,
            )
            ranges.append(DateRange(first, end))
    return ranges


def changed_end(new: DateRange, old_ranges: list[DateRange]) -> tuple[Fact, DateRange] | None:
    for old in old_ranges:
        if old.start.need == new.start.need and old.end.need == new.end.need:
            return None
    for old in old_ranges:
        if old.start.need == new.start.need and old.end.need != new.end.need:
            return new.end, old
        if old.end.need == new.end.need and old.start.need != new.start.need:
            return new.start, old
    return None
