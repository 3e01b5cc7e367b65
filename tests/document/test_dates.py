"""Date-range parsing: the formats English and Chinese resumes use."""

from __future__ import annotations

from datetime import date

import pytest

from cvagent_cli.document.dates import DateRange, YearMonth, find_ranges, parse_date


def parse_range(text: str) -> DateRange | None:
    """The first date range in ``text``, if any."""
    ranges = find_ranges(text)
    return ranges[0] if ranges else None


@pytest.mark.parametrize(
    ("text", "start", "end", "formats"),
    [
        ("Mar 2019 – Present", (2019, 3), None, ("Mon YYYY",)),
        ("March 2019 - Jun 2021", (2019, 3), (2021, 6), ("Mon YYYY", "Mon YYYY")),
        ("Sept. 2019 to Now", (2019, 9), None, ("Mon YYYY",)),
        ("Jan 2020 — Current", (2020, 1), None, ("Mon YYYY",)),
        ("2019-03 ~ 2021-06", (2019, 3), (2021, 6), ("YYYY-MM", "YYYY-MM")),
        ("03/2019 – 06/2021", (2019, 3), (2021, 6), ("MM/YYYY", "MM/YYYY")),
        ("2019 – 2021", (2019, None), (2021, None), ("YYYY", "YYYY")),
        ("2010 to 2012", (2010, None), (2012, None), ("YYYY", "YYYY")),
        ("2019.03 - 至今", (2019, 3), None, ("YYYY.MM",)),
        ("2019年3月 - 2021年6月", (2019, 3), (2021, 6), ("YYYY年M月", "YYYY年M月")),
        ("2019年3月至2021年6月", (2019, 3), (2021, 6), ("YYYY年M月", "YYYY年M月")),
        ("2019/07–今", (2019, 7), None, ("YYYY/MM",)),
        ("2020/07 - 现在", (2020, 7), None, ("YYYY/MM",)),
        ("2018年3月 - 2019.5", (2018, 3), (2019, 5), ("YYYY年M月", "YYYY.MM")),
        ("2022-2023 学年", (2022, None), (2023, None), ("YYYY", "YYYY")),
        ("库存中心重构（2022.03 - 2022.12）", (2022, 3), (2022, 12), ("YYYY.MM", "YYYY.MM")),
        ("Aug 2021 – May 2025 (expected)", (2021, 8), (2025, 5), ("Mon YYYY", "Mon YYYY")),
        # seasons and quarters are spans of months
        ("Summer 2018", (2018, 6), (2018, 8), ("Season YYYY", "Season YYYY")),
        ("Intern (Fall 2019)", (2019, 9), (2019, 11), ("Season YYYY", "Season YYYY")),
        ("Q1 2015 – Q4 2015", (2015, 1), (2015, 12), ("Qn YYYY", "Qn YYYY")),
        ("Q3 2020", (2020, 7), (2020, 9), ("Qn YYYY", "Qn YYYY")),
        ("Spring 2019 - Present", (2019, 3), None, ("Season YYYY",)),
        ("Winter 2021 – Jun 2022", (2021, 1), (2022, 6), ("Season YYYY", "Mon YYYY")),
    ],
)
def test_parse_range_table(text: str, start: tuple, end: tuple | None, formats: tuple) -> None:
    found = parse_range(text)
    assert found is not None
    assert (found.start.year, found.start.month) == start
    assert (None if found.end is None else (found.end.year, found.end.month)) == end
    assert found.formats == formats
    assert found.is_current == (end is None)


@pytest.mark.parametrize(
    "text",
    [
        "15-213 Introduction to Computer Systems",  # a course number
        "电话：138-0013-8000",  # a phone number
        "Python 3.11 and React 18",
        "Tableau Desktop Specialist (2021)",  # a single year is not a range
        "GPA 3.8/4.0",
        "Ran the summer 2018 campaign",  # a season in prose is no entry's dates
        "",
    ],
)
def test_no_range(text: str) -> None:
    assert find_ranges(text) == []


def test_several_ranges_on_one_line_keep_their_offsets() -> None:
    found = find_ranges("Engineer (2019 – 2020), Lead (2020 – Present)")
    assert [r.raw for r in found] == ["2019 – 2020", "2020 – Present"]
    assert found[0].offset < found[1].offset


def test_reversed_and_precision() -> None:
    assert parse_range("06/2021 – 02/2021").reversed  # type: ignore[union-attr]
    assert not parse_range("2021 – Jun 2021").reversed  # type: ignore[union-attr]
    assert parse_range("2021 – 2019").reversed  # type: ignore[union-attr]
    assert not parse_range("Mar 2019 – Present").reversed  # type: ignore[union-attr]


def test_month_indexes() -> None:
    assert YearMonth(2019, 3).index() == 2019 * 12 + 2
    assert YearMonth(2019).index() == 2019 * 12  # a bare year starts in January …
    assert YearMonth(2019).index(end=True) == 2019 * 12 + 11  # … and ends in December
    current = parse_range("2019.03 - 至今")
    assert current is not None
    assert current.end_index(date(2024, 5, 1)) == 2024 * 12 + 4


def test_parse_date_sides() -> None:
    assert parse_date("Sep 2020") == (YearMonth(2020, 9), "Mon YYYY")
    assert parse_date("2020年9月") == (YearMonth(2020, 9), "YYYY年M月")
    assert parse_date("09/2020") == (YearMonth(2020, 9), "MM/YYYY")
    assert parse_date("someday") is None


@pytest.mark.parametrize("dash", ["\u2010", "\u2011", "\u2012", "\u2013", "\u2212"])
def test_a_date_range_with_any_hyphen_or_dash_is_a_range(dash: str) -> None:
    """XeLaTeX's text layer writes U+2011 (non-breaking hyphen) for "-": "2023.04 ‑ 至今"."""
    assert find_ranges(f"2023.04 {dash} 至今") and find_ranges(f"Jan 2020 {dash} Mar 2021")
