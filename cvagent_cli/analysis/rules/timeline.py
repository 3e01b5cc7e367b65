"""Dates: consistent formats, reverse-chronological order, gaps, impossible and future dates.

Works on the document's entries (experience, projects, education, volunteer), each
with the date ranges in its header lines; bullets are not scanned, so "grew revenue from
2019 to 2021" in a bullet is never mistaken for a job's dates.
"""

from __future__ import annotations

import itertools

from cvagent_cli.analysis.rules import Context, RawFinding, entry_label
from cvagent_cli.document.dates import RANGE_RE, SPAN_FORMATS, DateRange, month_index
from cvagent_cli.document.entries import Entry

#: Formats of a coarser precision than a month (a year, a season, a quarter): written
#: beside month dates they are no clash of style.
COARSE = ("YYYY", *SPAN_FORMATS)

GAP_MONTHS = 6  # a longer unexplained break between jobs is reported
ORDERED_KINDS = ("experience", "education")


def check(ctx: Context) -> list[RawFinding]:
    dated = [e for e in ctx.entries if e.ranges]
    usual = _usual_format(dated)
    findings = _formats(ctx, dated, usual)
    limit = ctx.today.year + 1
    for entry in dated:
        for line, rng in entry.ranges:
            if rng.reversed:
                findings.append(
                    ctx.report(
                        "dates.end-before-start",
                        f'End date comes before the start date in "{rng.raw}".',
                        fix={"swapped": _swapped(rng.raw)},
                        section=entry.section_id,
                        line=line,
                        text=rng.raw,
                    )
                )
            elif rng.start.year > limit or (rng.end is not None and rng.end.year > limit):
                findings.append(
                    ctx.report(
                        "dates.future",
                        f'"{rng.raw}" lies more than a year in the future.',
                        section=entry.section_id,
                        line=line,
                        text=rng.raw,
                    )
                )
    for entry in ctx.entries:
        if entry.kind in ORDERED_KINDS and entry.bullets and not entry.ranges:
            findings.append(
                ctx.report(
                    "dates.missing",
                    f'No dates for "{entry_label(ctx, entry) or "this entry"}".',
                    fix={"usual": usual},
                    plain=not usual,
                    section=entry.section_id,
                    line=entry.line,
                    text=entry_label(ctx, entry),
                )
            )
    valid = [e for e in dated if not e.date_range.reversed]  # type: ignore[union-attr]
    findings += _order(ctx, valid) + _gaps(ctx, valid)
    return findings


def _usual_format(dated: list[Entry]) -> str | None:
    """The date format the resume uses most (coarse ones aside); the first one on a tie."""
    counts: dict[str, int] = {}
    for entry in dated:
        for _, rng in entry.ranges:
            for fmt in rng.formats:
                if fmt not in COARSE:
                    counts[fmt] = counts.get(fmt, 0) + 1
    return max(counts, key=counts.__getitem__) if counts else None


def _formats(ctx: Context, dated: list[Entry], usual: str | None) -> list[RawFinding]:
    """Every written date format except the coarse ones (a precision, not a style clash)."""
    seen: dict[str, tuple[int, str, str]] = {}
    for entry in dated:
        for line, rng in entry.ranges:
            for fmt in rng.formats:
                if fmt not in COARSE and fmt not in seen:
                    seen[fmt] = (line, rng.raw, entry.section_id)
    if len(seen) < 2:
        return []
    listed = "; ".join(f'{fmt} (line {line}: "{raw}")' for fmt, (line, raw, _) in seen.items())
    usual = usual or next(iter(seen))
    usual_line, usual_raw, _ = seen[usual]
    # The finding sits on the first line that breaks with the usual format.
    other = next(v for fmt, v in seen.items() if fmt != usual)
    return [
        ctx.report(
            "dates.inconsistent-format",
            f"{len(seen)} date formats are mixed: {listed}.",
            fix={"usual": usual, "usual_line": usual_line, "usual_raw": usual_raw},
            section=other[2],
            line=other[0],
            text=other[1],
        )
    ]


def _order(ctx: Context, entries: list[Entry]) -> list[RawFinding]:
    findings: list[RawFinding] = []
    by_root: dict[str, list[Entry]] = {}
    for entry in entries:
        if entry.kind in ORDERED_KINDS:
            by_root.setdefault(entry.root_id, []).append(entry)
    for group in by_root.values():
        for above, below in itertools.pairwise(group):
            a, b = above.date_range, below.date_range
            if b.end_index(ctx.today) > a.end_index(ctx.today):  # type: ignore[union-attr]
                findings.append(
                    ctx.report(
                        "dates.not-reverse-chronological",
                        f"{below.kind.capitalize()} entries are not in reverse-chronological order: "
                        f'"{b.raw}" (line {below.range_line}) is listed after "{a.raw}" (line {above.range_line}).',  # type: ignore[union-attr]
                        section=below.section_id,
                        line=below.range_line,
                        text=entry_label(ctx, below) or b.raw,  # type: ignore[union-attr]
                    )
                )
                break  # one finding per section is enough to act on
    return findings


def _gaps(ctx: Context, entries: list[Entry]) -> list[RawFinding]:
    """Breaks between jobs, not counting months spent in education (internships at school)."""
    jobs = sorted(
        (e for e in entries if e.kind == "experience"),
        key=lambda e: e.date_range.start_index(),  # type: ignore[union-attr]
    )
    studying: set[int] = set()
    for entry in entries:
        if entry.kind == "education":
            rng: DateRange = entry.date_range  # type: ignore[assignment]
            studying.update(
                range(
                    rng.start_index(), min(rng.end_index(ctx.today), rng.start_index() + 1200) + 1
                )
            )
    findings: list[RawFinding] = []
    covered_to = None
    previous = None
    for entry in jobs:
        rng = entry.date_range  # type: ignore[assignment]
        if covered_to is not None and previous is not None:
            first, last = covered_to + 1, rng.start_index() - 1
            if last - first + 1 > GAP_MONTHS:
                idle = sum(1 for m in range(first, last + 1) if m not in studying)
                if idle > GAP_MONTHS:
                    findings.append(
                        ctx.report(
                            "dates.gap",
                            f'Gap of {last - first + 1} months between "{previous.date_range.raw}" and "{rng.raw}".',  # type: ignore[union-attr]
                            section=entry.section_id,
                            line=entry.range_line,
                            text=entry_label(ctx, entry) or rng.raw,
                        )
                    )
        end = min(rng.end_index(ctx.today), month_index(ctx.today))
        if covered_to is None or end > covered_to:
            covered_to, previous = end, entry
    return findings


def _swapped(raw: str) -> str:
    """The user's own range with its ends exchanged: "2021.06 - 2021.02" → "2021.02 - 2021.06"."""
    match = RANGE_RE.match(raw)
    if match is None:
        return raw
    sep = raw[match.end("start") : match.start("end")]
    return f"{match.group('end')}{sep}{match.group('start')}"
