"""Rendering an AnalysisReport with rich: score panel, category table, findings grouped
by section with line references, JD coverage, and the batch summary table."""

from __future__ import annotations

from itertools import groupby
from pathlib import Path

from rich import box
from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from cvagent_cli.resume.report import AnalysisReport
from cvagent_cli.ui.console import clean, score_style
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
    head = Text.assemble(
        ("Score ", "bold"),
        (f"{report.score}/100", score_style(report.score)),
        f"   {plural(s.words, 'word')} · ~{s.estimated_pages:.1f} pages · "
        f"{plural(s.sections, 'section')} · {plural(s.bullets, 'bullet')} · {s.language}",
    )
    who = clean(report.basics.name or report.source)
    console.print(
        Panel(
            head,
            title=Text.assemble((who, "bold"), f" — {clean(report.source)}"),
            title_align="left",
            box=box.ROUNDED,
            expand=False,
        )
    )

    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    table.add_column("Category")
    table.add_column("Score", justify="right")
    table.add_column("Weight", justify="right")
    table.add_column("Findings", justify="right")
    table.add_column("How", overflow="fold")
    for c in report.categories:
        table.add_row(
            c.category,
            Text(str(c.score), style=score_style(c.score)),
            f"{c.weight:.0%}",
            str(c.findings),
            Text(c.explanation, style="muted"),
        )
    console.print(table)

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
                grid.add_row(Text(mark, style=style), f"L{f.line}" if f.line else "", body)
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
        console.print(Panel(report.scoring, title="How the score is computed", box=box.ROUNDED))


def render_batch_summary(
    console: Console, reports: list[AnalysisReport], failures: list[tuple[str, str]]
) -> None:
    table = Table(title="Batch summary", box=box.SIMPLE_HEAD, show_edge=False)
    table.add_column("File", no_wrap=True, overflow="ellipsis", max_width=32)
    table.add_column("Name", no_wrap=True, overflow="ellipsis", max_width=22)
    table.add_column("Score", justify="right")
    for cat in ("completeness", "impact", "clarity", "dates", "ats"):
        table.add_column(cat[:5].title(), justify="right")
    table.add_column("Findings", justify="right")
    if reports and reports[0].jd is not None:
        table.add_column("JD %", justify="right")
    for r in sorted(reports, key=lambda r: r.score):
        cells = [
            clean(Path(r.source).name),
            clean(r.basics.name or "-"),
            Text(str(r.score), style=score_style(r.score)),
        ]
        cells += [
            str(r.category(c).score) for c in ("completeness", "impact", "clarity", "dates", "ats")
        ]
        cells.append(str(len(r.findings)))
        if r.jd is not None:
            cells.append(f"{r.jd.coverage:.0f}")
        table.add_row(*cells)
    for source, message in failures:
        table.add_row(Path(source).name, Text(message, style="error"), "-", *["-"] * 5, "-")
    console.print(Group(table))
