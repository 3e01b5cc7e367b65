"""Dates and date ranges as resumes write them, in every language of ``cvagent_cli/languages``
(their month names, seasons and words for "until now"): cvagent's only date grammar (the analyzer's rules and the truth guard both read dates here).

``find_dates(text)`` returns every single date (``Mar 3, 2020``, ``2019.03``, ``2019年3月``,
``2019``…) with its span.  ``find_ranges(text)`` returns every "start – end" range in a line: ``Mar 2019 – Present``,
``2019-03 ~ 2021-06``, ``03/2019 – 06/2021``, ``2019 – 2021``, ``2019.03 - 至今``,
``2019年3月 - 2021年6月``, ``2019/07–今``.  Each side remembers its *format* (``Mon YYYY``,
``YYYY.MM`` …) so the dates rule can tell a consistent resume from a mixed one.

Months are counted as ``year * 12 + month - 1`` ("month index") so that gaps and order are
plain integer arithmetic.  A year without a month starts in January and ends in December.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from datetime import date

from cvagent_cli import languages

#: Every language's month names as one alternation, and the patterns that tell a name's
#: month: ``_MONTH_RES[i]`` matches the names of month ``i % 12 + 1``.
_MONTH_PATTERNS = tuple(m for language in languages.every() for m in language.dates.months)
_MONTH_NAME = "(?:" + "|".join(_MONTH_PATTERNS) + ")"
_MONTH_RES = tuple(re.compile(f"(?:{m})", re.IGNORECASE) for m in _MONTH_PATTERNS)
_YEAR = r"(?:19|20)\d{2}"
#: A season or a quarter is a span of months: its first as a start, its last as an end.
_SEASON_MONTHS = {
    word: months
    for language in languages.every()
    for word, months in language.dates.seasons.items()
}
_SEASON = "(?:" + "|".join(_SEASON_MONTHS) + ")"
#: Formats that name a span of months; like a bare year, a coarser precision, not a style.
SPAN_FORMATS = ("Season YYYY", "Qn YYYY")
_MM = r"(?:0?[1-9]|1[0-2])"
_NB = r"(?<![A-Za-z0-9.])"  # not glued to a word or a decimal point

# The one date grammar of cvagent: the analyzer's ranges (``find_ranges``) and the truth
# guard's date facts (``find_dates``, used by truth/dates.py) both read dates with it.
# One alternative per format; at each position the first that matches decides (longer
# forms first, so "2019-03" is not read as the year 2019 followed by a dash).  A day is
# accepted and kept ("Mar 3, 2020", "2019.03.15", "2019年3月5日") but never a format of its own.
_FORMATS: tuple[tuple[str, str], ...] = (
    ("Season YYYY", rf"\b{_SEASON},?\s+(?:of\s+)?{_YEAR}(?![\d])"),
    ("Qn YYYY", rf"\bQ[1-4],?\s*{_YEAR}(?![\d])"),
    ("Mon YYYY", rf"\b{_MONTH_NAME}\.?,?\s*(?:\d{{1,2}},?\s+)?{_YEAR}(?![\d])"),
    ("YYYY年M月", rf"{_NB}{_YEAR}\s*年\s*{_MM}\s*月(?:\s*\d{{1,2}}\s*[日号])?"),
    ("YYYY-MM", rf"{_NB}{_YEAR}-{_MM}(?:-\d{{1,2}})?(?![\d])(?!\.\d)"),
    ("YYYY.MM", rf"{_NB}{_YEAR}\.{_MM}(?:\.\d{{1,2}})?(?![\d])(?!\.\d)"),
    ("YYYY/MM", rf"{_NB}{_YEAR}/{_MM}(?:/\d{{1,2}})?(?![\d])(?!\.\d)"),
    ("MM/YYYY", rf"(?<![\d/.A-Za-z]){_MM}/{_YEAR}(?![\d])"),
    ("MM.YYYY", rf"(?<![\d/.A-Za-z]){_MM}\.{_YEAR}(?![\d])"),
    ("YYYY", rf"{_NB}{_YEAR}\s*年(?!\s*\d{{1,2}}\s*月)"),
    # A bare year, unless it is a quantity: 2000+ users, 2019%, 2020万, 2048px, FY-2020.
    (
        "YYYY",
        rf"{_NB}(?<![A-Za-z][-_]){_YEAR}"
        r"(?![\d]|\.\d|,\d|\s*%|[A-Za-z+]|\s?[万亿千百人名位个倍元块次项家台条])",
    ),
)
#: "Until now": the words that end a date range ("Mar 2019 – Present", "2020.03 - 至今",
#: "2019/07–今"), every language's; a word that begins another comes after it.
PRESENT_WORDS = languages.words_of(lambda language: language.dates.present)
PRESENT = "(?:" + "|".join(PRESENT_WORDS) + ")"
#: Words that say, in a sentence rather than after a date, that a job goes on.
STILL_WORDS = languages.words_of(lambda language: language.dates.still)
# In running text these say something else ("today" is rarely about the job).
_NOT_IN_PROSE = frozenset(languages.words_of(lambda language: language.dates.present_not_in_prose))
_PROSE_WORDS = [w for w in PRESENT_WORDS + STILL_WORDS if w not in _NOT_IN_PROSE]
#: A message that says "I still work there" ("I'm currently at Acme", "目前仍在职").
STILL_RE = re.compile(
    r"(?i)\b(?:"
    + "|".join(w for w in _PROSE_WORDS if w.isascii())
    + r")\b|"
    + "|".join(w for w in _PROSE_WORDS if not w.isascii())
)
_RANGE_MARKS = "".join(languages.words_of(lambda language: language.dates.range_marks))
_RANGE_WORDS = "|".join(languages.words_of(lambda language: language.dates.range_words))
SEPARATOR = rf"(?:\s*(?:[-‐‑‒–—−－~～〜→{_RANGE_MARKS}]{{1,2}})\s*|\s+(?:{_RANGE_WORDS})\s+)"

_TOKEN = "|".join(f"(?:{pattern})" for _, pattern in _FORMATS)
RANGE_RE = re.compile(
    rf"(?<![\d\w])(?P<start>{_TOKEN}){SEPARATOR}(?P<end>{_TOKEN}|{PRESENT}(?![A-Za-z]))(?![\d])",
    re.IGNORECASE,
)
_FORMAT_RES = tuple(
    (name, re.compile(rf"^(?:{pattern})$", re.IGNORECASE)) for name, pattern in _FORMATS
)
_PRESENT_RE = re.compile(rf"^{PRESENT}$", re.IGNORECASE)
_NUM_RE = re.compile(r"\d+")
_LETTERS_RE = re.compile(r"[^\W\d_]+")
# A fast pre-check: no 4-digit 19xx/20xx year on the line means no range to parse.
_HAS_YEAR_RE = re.compile(r"(?:19|20)\d\d")


@dataclass(frozen=True)
class YearMonth:
    year: int
    month: int | None = None  # None: the year alone was given

    def index(self, *, end: bool = False) -> int:
        month = self.month or (12 if end else 1)
        return self.year * 12 + month - 1

    def __str__(self) -> str:
        return f"{self.year}-{self.month:02d}" if self.month else str(self.year)


@dataclass(frozen=True)
class DateRange:
    start: YearMonth
    end: YearMonth | None  # None when the range runs to the present
    start_format: str
    end_format: str | None  # None for "Present"/"至今"
    raw: str
    offset: int = 0  # where the range begins in the searched text

    @property
    def is_current(self) -> bool:
        return self.end is None

    @property
    def formats(self) -> tuple[str, ...]:
        return (self.start_format,) + ((self.end_format,) if self.end_format else ())

    def start_index(self) -> int:
        return self.start.index()

    def end_index(self, today: date) -> int:
        return self.end.index(end=True) if self.end else today.year * 12 + today.month - 1

    @property
    def reversed(self) -> bool:
        """The end lies before the start (compared at the precision both sides give)."""
        if self.end is None:
            return False
        if self.start.month is None or self.end.month is None:
            return self.end.year < self.start.year
        return self.end.index() < self.start.index()


def parse_date(token: str) -> tuple[YearMonth, str] | None:
    """One side of a range: ``Mar 2019``, ``2019.03``, ``2019年3月``… → (YearMonth, format)."""
    token = token.strip()
    for name, regex in _FORMAT_RES:
        if regex.match(token):
            year_month, _day = _read(name, token)
            return year_month, name
    return None


def _read(name: str, token: str) -> tuple[YearMonth, int | None]:
    """The year, month and day of ``token``, known to be written in format ``name``."""
    numbers = [int(n) for n in _NUM_RE.findall(token)]
    if name in SPAN_FORMATS:
        return YearMonth(numbers[-1], _span(name, token)[0]), None
    if name == "Mon YYYY":
        word = _LETTERS_RE.search(token)
        month = _month(word.group().lower()) if word else None
        return YearMonth(numbers[-1], month), numbers[0] if len(numbers) > 1 else None
    if name == "YYYY":
        return YearMonth(numbers[0]), None
    if name.startswith("MM"):
        return YearMonth(numbers[1], numbers[0]), None
    return YearMonth(numbers[0], numbers[1]), numbers[2] if len(numbers) > 2 else None


@functools.cache  # a dict lookup after the first time: a resume repeats a dozen names
def _month(word: str) -> int | None:
    """The month a lower-case month name stands for ("sept" → 9)."""
    found = next((i for i, regex in enumerate(_MONTH_RES) if regex.fullmatch(word)), None)
    return None if found is None else found % 12 + 1


def _span(name: str, token: str) -> tuple[int, int]:
    """The first and last month of a season ("Summer 2018": 6, 8) or quarter ("Q4": 10, 12)."""
    if name == "Qn YYYY":
        quarter = int(token.strip()[1])
        return 3 * quarter - 2, 3 * quarter
    word = _LETTERS_RE.search(token)
    return _SEASON_MONTHS[word.group().lower() if word else "summer"]


def _end_of(side: tuple[YearMonth, str], token: str) -> YearMonth:
    """The last month ``side`` covers: "Q4 2015" ends in December."""
    year_month, name = side
    if name not in SPAN_FORMATS:
        return year_month
    return YearMonth(year_month.year, _span(name, token)[1])


@dataclass(frozen=True)
class DateToken:
    """One date as written, with where it is in the searched text."""

    date: YearMonth
    format: str
    start: int
    end: int
    text: str
    day: int | None = None


@functools.cache
def _date_re() -> re.Pattern[str]:
    """All formats as one pattern; compiled on first use (only the truth guard needs it, and
    compiling costs ~2 ms of every ``cvagent analyze`` start-up otherwise)."""
    return re.compile("|".join(f"(?P<f{i}>{p})" for i, (_, p) in enumerate(_FORMATS)), re.I)


def find_dates(text: str) -> list[DateToken]:
    """Every single date in ``text``, left to right, never overlapping."""
    if not _HAS_YEAR_RE.search(text):
        return []
    found: list[DateToken] = []
    for match in _date_re().finditer(text):
        index = int(match.lastgroup[1:])  # type: ignore[index]
        name = _FORMATS[index][0]
        year_month, day = _read(name, match.group())
        found.append(
            DateToken(year_month, name, match.start(), match.end(), match.group().strip(), day)
        )
    return found


def find_ranges(text: str) -> list[DateRange]:
    """Every date range in ``text``, left to right."""
    if not _HAS_YEAR_RE.search(text):
        return []
    found: list[DateRange] = []
    for match in RANGE_RE.finditer(text):
        start = parse_date(match.group("start"))
        end_text = match.group("end")
        if start is None:
            continue
        if _PRESENT_RE.match(end_text.strip()):
            found.append(
                DateRange(start[0], None, start[1], None, match.group().strip(), match.start())
            )
            continue
        end = parse_date(end_text)
        if end is None:
            continue
        found.append(
            DateRange(
                start[0],
                _end_of(end, end_text),
                start[1],
                end[1],
                match.group().strip(),
                match.start(),
            )
        )
    return _with_lone_spans(text, found)


_CAPITAL_SEASON = "|".join(f"{w.capitalize()}|{w.upper()}" for w in _SEASON_MONTHS)
_LONE_SPAN_RE = re.compile(rf"(?<![\w\d])(?:{_CAPITAL_SEASON}|Q[1-4]),?\s+{_YEAR}(?![\d])")


def _with_lone_spans(text: str, found: list[DateRange]) -> list[DateRange]:
    """``found`` and, outside them, each season or quarter standing alone ("Summer 2018"):
    a range of its own months.  Capitalised only: "the summer 2018 campaign" is prose."""
    taken = [(r.offset, r.offset + len(r.raw)) for r in found]
    lone: list[DateRange] = []
    for match in _LONE_SPAN_RE.finditer(text):
        if any(a < match.end() and match.start() < b for a, b in taken):
            continue
        side = parse_date(match.group())
        if side is None:
            continue
        end = _end_of(side, match.group())
        lone.append(DateRange(side[0], end, side[1], side[1], match.group(), match.start()))
    return sorted(found + lone, key=lambda r: r.offset) if lone else found


def month_index(day: date) -> int:
    return day.year * 12 + day.month - 1
