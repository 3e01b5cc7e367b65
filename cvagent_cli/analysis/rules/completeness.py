"""Completeness: the contact details and sections every resume needs."""

from __future__ import annotations

import re

from cvagent_cli import languages
from cvagent_cli.analysis.rules import INTERN_RE, Context, RawFinding, is_internship
from cvagent_cli.document.document import ResumeDocument

#: A top heading that only says "Resume", in any language.
GENERIC_TITLES = frozenset(languages.words_of(lambda language: language.resume_titles))
EXPERIENCED_ENTRIES = 2  # non-internship jobs …
EXPERIENCED_MONTHS = 60  # … or five years spanned: a summary is expected
_NAME_LABEL_RE = re.compile(
    r"(?:姓\s*名|\bName\b)\s*[:：|]\s*\|?\s*\**([^\s|*，,;；]{1,30})", re.IGNORECASE
)
_NOT_NAME_RE = re.compile(r"[@\d:：/|]|https?:|www\.")


def detect_name(doc: ResumeDocument) -> str | None:
    """The candidate's name; document/person.py decides what counts as one (one owner)."""
    return doc.basics.name


def check(ctx: Context) -> list[RawFinding]:
    doc = ctx.doc
    basics = doc.basics
    findings: list[RawFinding] = []
    title = next((s for s in doc.sections if s.heading_line and s.level == 1), None)

    def add(rule: str, message: str, **fix: object) -> None:
        findings.append(ctx.report(f"completeness.{rule}", message, fix=fix))

    if detect_name(doc) is None:
        add("missing-name", "No name found at the top of the resume.")
    elif title is not None and title.title.strip().casefold() in GENERIC_TITLES:
        add(
            "generic-title",
            f'The top heading is "{title.title}", not your name; ATS parsers take it as the name.',
            name=lambda: detect_name(doc),
        )
    if not basics.email:
        add("missing-email", "No email address found; recruiters cannot reply.")
    if not basics.phone and basics.masked_phone:
        add(
            "masked-phone",
            f"The phone number is masked ({basics.masked_phone}); recruiters cannot call it.",
        )
    elif not basics.phone:
        add("missing-phone", "No phone number found.")
    if not basics.has_link:
        add("missing-link", "No LinkedIn, GitHub or personal website link.")
    if not ctx.has_kind("experience") and not ctx.has_kind("projects"):
        add("no-experience", "No experience or projects section found.")
    if not ctx.has_kind("education"):
        add("no-education", "No education section found.")
    if not ctx.has_kind("skills"):
        add("no-skills", "No skills section found; ATS keyword matching relies on it.")
    if not ctx.has_kind("summary") and _experienced(ctx):
        add(
            "no-summary",
            "No summary, although the resume shows several years of experience.",
        )
    return findings


def _experienced(ctx: Context) -> bool:
    titles = {s.id: s.title for s in ctx.doc.sections}
    jobs = [
        e
        for e in ctx.entries
        if e.kind == "experience"
        and (e.ranges or e.bullets)
        and not is_internship(e)
        and not INTERN_RE.search(titles.get(e.root_id, ""))
    ]
    if len(jobs) >= EXPERIENCED_ENTRIES:
        return True
    ranges = [e.date_range for e in jobs if e.date_range and not e.date_range.reversed]
    if not ranges:
        return False
    span = max(r.end_index(ctx.today) for r in ranges) - min(r.start_index() for r in ranges) + 1
    return span >= EXPERIENCED_MONTHS
