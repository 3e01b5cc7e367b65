"""The offline analyzer: every rule, the scores and the JD coverage in one ``AnalysisReport``.

``analyze`` is a pure function (no I/O, no network, no printing); the only outside input is
today's date, which "Present"/"至今" ranges and the future-date check need; pass ``today``
to make a report reproducible.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date
from typing import TYPE_CHECKING

from cvagent_cli.analysis import resemblance
from cvagent_cli.analysis.resemblance import looks_like_resume
from cvagent_cli.analysis.rules import (
    Context,
    RawFinding,
    ats,
    build_context,
    clarity,
    completeness,
    impact,
    make,
    timeline,
)
from cvagent_cli.analysis.schema import AnalysisReport, Finding, SectionOutline, Stats
from cvagent_cli.analysis.scoring import SCORING_EXPLANATION, overall_score, score_categories
from cvagent_cli.document.document import ResumeDocument
from cvagent_cli.errors import InputError

if TYPE_CHECKING:
    from cvagent_cli.analysis.jd import JobDescription

RULE_MODULES = (completeness, impact, clarity, timeline, ats)
MAX_PER_RULE = 8  # findings of one rule shown in a report; the rest become one summary line

#: The most text one resume may hold to be analyzed: 200 times a long resume (two pages
#: are about 10,000 characters), and a pasted 1 MB line still passes.  Time and memory grow
#: linearly: 5.4 s and 130 MB at this size on a busy 2-core machine, where 10 MB took 28 s
#: and 500 MB.
MAX_ANALYZED_CHARS = 2_000_000


def too_long(source: str, size: str) -> InputError:
    """The error for a resume over the budget (``size`` as the caller measured it)."""
    return InputError(
        f"{source} is {size}; cvagent analyzes resumes of up to "
        f"{MAX_ANALYZED_CHARS / 1_000_000:g} million characters (two pages are about 10,000)",
        hint="analyze the part that is the resume: save it to a file of its own",
    )


def run_rules(ctx: Context) -> list[RawFinding]:
    """Every finding of every rule, uncapped, in report order."""
    findings = [f for module in RULE_MODULES for f in module.check(ctx)]
    return sorted(findings, key=sort_key)


def sort_key(finding: RawFinding) -> tuple[int, str]:
    # Document-level findings (no line) first, then by line, then rule; ties keep the order
    # the rule emitted them in (sorted() is stable), e.g. clichés left to right in a line.
    return (finding.line or 0, finding.rule_id)


def cap_findings(findings: list[RawFinding], limit: int = MAX_PER_RULE) -> list[Finding]:
    """Keep the first ``limit`` findings of each rule and add one "… and N more" note."""
    by_rule: dict[str, list[RawFinding]] = defaultdict(list)
    for finding in findings:
        by_rule[finding.rule_id].append(finding)
    kept: list[RawFinding] = []
    for rule_id, group in by_rule.items():
        kept += group[:limit]
        if len(group) > limit:
            first_hidden = group[limit]
            kept.append(
                make(
                    rule_id,
                    "info",
                    f"… and {len(group) - limit} more like this ({rule_id}); only the first {limit} are listed.",
                    "Fix the ones above first; the same advice applies to the rest.",
                    section=first_hidden.section_id,
                    line=first_hidden.line,
                )
            )
    return [f.to_model() for f in sorted(kept, key=sort_key)]


def analyze(
    doc: ResumeDocument, jd: JobDescription | None = None, *, today: date | None = None
) -> AnalysisReport:
    ctx = build_context(doc, today)
    findings = run_rules(ctx)
    basics, first = doc.basics, []
    if not looks_like_resume(doc):
        # An invoice's "name" is the company at its top: say what the file is instead,
        # as the first finding.
        first = [not_a_resume_finding(ctx)]
        basics = basics.model_copy(update={"name": None})
    assessed = {
        "clarity": sum(1 for item in ctx.items if item.kind != "contact"),
        "dates": sum(1 for entry in ctx.entries if entry.ranges),
    }
    categories = score_categories(first + findings, ctx.extras.get("impact"), assessed=assessed)  # type: ignore[arg-type]
    return AnalysisReport(
        source=doc.source,
        score=overall_score(categories),
        categories=categories,
        findings=[f.to_model() for f in first] + cap_findings(findings),
        stats=Stats(
            words=doc.word_count,
            lines=doc.line_count,
            estimated_pages=ats.estimated_pages(doc),
            sections=sum(1 for s in doc.sections if s.heading_line),
            bullets=sum(len(s.bullets) for s in doc.sections),
            language=doc.language,
        ),
        basics=basics,
        sections=[SectionOutline(**row) for row in doc.outline()],
        jd=jd.coverage(doc) if jd is not None else None,
        scoring=SCORING_EXPLANATION,
    )


def not_a_resume_finding(ctx: Context) -> RawFinding:
    message = resemblance.warning()
    return ctx.report("completeness.not-a-resume", f"{message[:1].upper()}{message[1:]}.")
