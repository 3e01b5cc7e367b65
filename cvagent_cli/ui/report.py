"""Rendering an AnalysisReport with rich: score panel, category table, findings grouped
by section with line references, JD coverage, and the batch summary table."""

from __future__ import annotations

from itertools import groupby
from pathlib import Path

from rich import box
from rich.cells import cell_len
from rich.console import Console, RenderableType
from rich.measure import Measurement
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from cvagent_cli.analysis.schema import AnalysisReport
from cvagent_cli.analysis.scoring import SCORING_EXPLANATION
from cvagent_cli.ui.console import clean, score_style
from cvagent_cli.ui.wrap import Wrapped, hanging, pack
from cvagent_cli.wording import plural

SEVERITY_MARK = {"error": ("✗", "error"), "warning": ("!", "warning"), "info": ("·", "info")}


def render_report(
    console: Console,
    report: AnalysisReport,
    *,
    max_findings: int | None = None,
    explain: bool = False,
    more_hint: str | None = "--all shows every finding",
) -> None:
    s = report.stats
    score = Text.assemble(("Score ", "bold"), (f"{report.score}/100", score_style(report.score)))
    stats = [
        plural(s.words, "word"),
        f"~{s.estimated_pages:.1f} pages",
        plural(s.sections, "section"),
        plural(s.bullets, "bullet"),
        s.language,
    ]
    inner = console.width - 4  # the panel's borders and padding
    who = clean(report.basics.name or report.source)
    title = Text.assemble((who, "bold"), f" — {clean(report.source)}")
    lines = [] if cell_len(title.plain) + 6 <= console.width else [Text(clean(report.source))]
    if cell_len(score.plain) + 3 + cell_len(" · ".join(stats)) <= inner:
        lines.append(score + Text("   " + " · ".join(stats)))
    else:  # a narrow screen: the numbers go on lines of their own, never cut mid-way
        lines += [score, *(Text(line) for line in pack(stats, inner))]
    if lines[0].plain == clean(report.source):
        title = Text(who, style="bold")
    console.print(
        Panel(
            Wrapped(Text("\n").join(lines)),
            title=title,
            title_align="left",
            box=box.ROUNDED,
            expand=False,
        )
    )

    _render_categories(console, report)

    findings = report.findings if max_findings is None else report.findings[:max_findings]
    if findings:
        console.print(Text("Findings", style="bold"))
        order = {sec.id: i for i, sec in enumerate(report.sections)}
        keyed = sorted(findings, key=lambda f: (order.get(f.section_id or "", -1), f.line or 0))
        for section_id, items in groupby(keyed, key=lambda f: f.section_id or ""):
            console.print(Text(f"  {clean(section_id) or '(whole resume)'}", style="bold cyan"))
            grid = Table.grid(padding=(0, 1))
            grid.add_column(width=3, justify="right")
            grid.add_column(width=6, justify="right", style="muted")
            grid.add_column(ratio=1, overflow="fold")
            for f in items:
                mark, style = SEVERITY_MARK[f.severity]
                body = Text(clean(f.message), style=style)
                if f.text:
                    body.append(f"  “{clean(f.text)}”", style="muted")
                body.append(f"\n→ {clean(f.suggestion)}", style="good")
                grid.add_row(Text(mark, style=style), f"L{f.line}" if f.line else "", Wrapped(body))
            console.print(grid)
        hidden = len(report.findings) - len(findings)
        if hidden > 0:
            more = f"  … {plural(hidden, 'more finding')}" + (
                f" ({more_hint})" if more_hint else ""
            )
            console.print(Text(more, style="muted"))
    else:
        console.print(Text("No findings. Nice work.", style="good"))

    if report.jd is not None:
        jd = report.jd
        console.print(
            Text.assemble(
                ("Job description ", "bold"),
                f"{jd.source}: ",
                (f"{jd.coverage:.0f}% keyword coverage", score_style(int(jd.coverage))),
                f" ({len(jd.matched)}/{len(jd.keywords)})",
            )
        )
        if jd.matched:
            console.print(
                Text("  matched: ", style="good")
                + Text(clean(", ".join(h.keyword for h in jd.matched)))
            )
        if jd.missing:
            console.print(Text("  missing: ", style="warning") + Text(clean(", ".join(jd.missing))))
    if explain:
        render_scoring(console, report.scoring)


#: The "How" column's least width, in cells: narrower, its explanations wrap every few
#: words (at 60 columns it had 17 cells), so they go under the table instead.
HOW_MIN_WIDTH = 30


def _category_table(report: AnalysisReport, *, how: bool) -> Table:
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    table.add_column("Category")
    table.add_column("Score", justify="right")
    table.add_column("Weight", justify="right")
    table.add_column("Findings", justify="right")
    if how:
        table.add_column("How")
    for c in report.categories:
        cells: list[RenderableType] = [
            c.category,
            Text(str(c.score), style=score_style(c.score)),
            f"{c.weight:.0%}",
            str(c.findings),
        ]
        if how:
            cells.append(Wrapped(Text(c.explanation, style="muted")))
        table.add_row(*cells)
    return table


def _render_categories(console: Console, report: AnalysisReport) -> None:
    """The category table with its "How" column where that column gets room to read; on a
    narrow terminal the table without it, each explanation then on lines of its own."""
    narrow = _category_table(report, how=False)
    fixed = Measurement.get(console, console.options, narrow).maximum + 3  # + the gap
    if not console.is_terminal or console.width - fixed >= HOW_MIN_WIDTH:
        console.print(_category_table(report, how=True))
        return
    console.print(narrow)
    label = max(len(c.category) for c in report.categories) + 1
    for c in report.categories:
        mark = f"  {c.category + ':':<{label}} "
        console.print(hanging(mark, Text(c.explanation, style="muted")))


def render_scoring(console: Console, scoring: str | None = None) -> None:
    """How the score is computed (``--explain``; alone, without a resume, too)."""
    if scoring is None:
        scoring = SCORING_EXPLANATION
    console.print(Panel(scoring, title="How the score is computed", box=box.ROUNDED))


CATEGORIES = ("completeness", "impact", "clarity", "dates", "ats")
# (header, short header) per column; the short ones are explained in a legend line
HEADERS = {
    "score": ("Score", "Score"),
    "completeness": ("Completeness", "Comp"),
    "impact": ("Impact", "Imp"),
    "clarity": ("Clarity", "Clar"),
    "dates": ("Dates", "Date"),
    "ats": ("ATS", "ATS"),
    "findings": ("Findings", "Find"),
    "jd": ("JD %", "JD %"),
}


def render_batch_summary(
    console: Console, reports: list[AnalysisReport], failures: list[tuple[str, str]]
) -> None:
    """The batch table in the widest layout that fits the console without cutting a word:
    one row per resume with full headers, then short headers, then file and name stacked
    in one column, and on a narrow screen one short block per resume."""
    ordered = sorted(reports, key=lambda r: r.score)
    with_jd = bool(reports) and reports[0].jd is not None
    labels = file_labels([r.source for r in reports] + [source for source, _ in failures])
    for stacked, short in ((False, False), (False, True), (True, False), (True, True)):
        table = _batch_table(ordered, failures, with_jd, labels, stacked=stacked, short=short)
        natural = Measurement.get(console, console.options.update_width(10_000), table)
        if natural.maximum <= console.width:
            console.print(table)
            if short:
                legend = [
                    f"{short_} {k}" for k, (long_, short_) in HEADERS.items() if short_ != long_
                ]
                for line in pack(legend, console.width):
                    console.print(Text(line, style="muted"))
            return
    _batch_blocks(console, ordered, failures, with_jd, labels)


def file_labels(sources: list[str]) -> dict[str, str]:
    """Each path as its file name, with as many of its folders as it takes to tell it
    from the others: ``a/resume.md``, ``b/resume.md`` and ``resume.md``, not three
    ``resume.md``."""
    parts = {s: Path(s).parts or (s,) for s in sources}
    depth = dict.fromkeys(sources, 1)
    while True:
        labels = {s: "/".join(parts[s][-depth[s] :]) for s in sources}
        seen: dict[str, list[str]] = {}
        for source, label in labels.items():
            seen.setdefault(label, []).append(source)
        clashes = [s for group in seen.values() if len(group) > 1 for s in group]
        longer = [s for s in clashes if depth[s] < len(parts[s])]
        if not longer:
            return labels
        for source in longer:
            depth[source] += 1


def _scores(r: AnalysisReport, with_jd: bool) -> list[tuple[str, str]]:
    """(key, value) of every number shown for one resume."""
    values = [("score", str(r.score))]
    values += [(c, str(r.category(c).score)) for c in CATEGORIES]
    values.append(("findings", str(len(r.findings))))
    if with_jd:
        values.append(("jd", f"{r.jd.coverage:.0f}" if r.jd is not None else "-"))
    return values


def _batch_table(
    reports: list[AnalysisReport],
    failures: list[tuple[str, str]],
    with_jd: bool,
    labels: dict[str, str],
    *,
    stacked: bool,
    short: bool,
) -> Table:
    table = Table(title="Batch summary", box=box.SIMPLE_HEAD, show_edge=False, padding=(0, 0, 0, 1))
    if stacked:
        table.add_column("File / name", no_wrap=True, overflow="ellipsis", max_width=32)
    else:
        table.add_column("File", no_wrap=True, overflow="ellipsis", max_width=32)
        table.add_column("Name", no_wrap=True, overflow="ellipsis", max_width=22)
    keys = ["score", *CATEGORIES, "findings"] + (["jd"] if with_jd else [])
    for key in keys:
        table.add_column(HEADERS[key][1 if short else 0], justify="right", no_wrap=True)
    for r in reports:
        file, name = clean(labels[r.source]), clean(r.basics.name or "-")
        cells: list[Text | str] = (
            [Text(f"{file}\n") + Text(name, style="muted")] if stacked else [file, name]
        )
        for key, value in _scores(r, with_jd):
            cells.append(Text(value, style=score_style(r.score)) if key == "score" else value)
        table.add_row(*cells)
    for source, message in failures:
        file = clean(labels[source])
        who: list[Text | str] = (
            [Text(f"{file}\n") + Text(message, style="error")]
            if stacked
            else [
                file,
                Text(message, style="error"),
            ]
        )
        table.add_row(*who, *["-"] * len(keys))
    return table


def _batch_blocks(
    console: Console,
    reports: list[AnalysisReport],
    failures: list[tuple[str, str]],
    with_jd: bool,
    labels: dict[str, str],
) -> None:
    """One block per resume: its file and name, then its numbers, packed to the width."""
    console.print(Text("Batch summary", style="bold"))
    names = {"ats": "ATS", "jd": "JD %"}
    for r in reports:
        name = clean(r.basics.name or "-")
        console.print(Wrapped(Text.assemble((clean(labels[r.source]), "bold"), f" — {name}")))
        items = [f"{names.get(key, key)} {value}" for key, value in _scores(r, with_jd)]
        for line in pack(items, console.width - 2):
            console.print(Text("  " + line), no_wrap=True, overflow="ellipsis")
    for source, message in failures:
        console.print(
            Wrapped(Text.assemble((clean(labels[source]), "bold"), " — ", (message, "error")))
        )
