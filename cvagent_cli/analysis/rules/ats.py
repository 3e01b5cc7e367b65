"""ATS and format: length, markup that parsers drop, headings, duplicates, stray bytes.

Page estimate (documented for README/--explain): ``latin_words / 450 + cjk_chars / 800``,
i.e. 450 English words or 800 Chinese characters per page; a pure English resume gets
words/450 and a pure Chinese one CJK-characters/800.
"""

from __future__ import annotations

import re

from cvagent_cli.analysis.rules import Context, RawFinding
from cvagent_cli.analysis.rules.completeness import detect_name
from cvagent_cli.document.document import ResumeDocument
from cvagent_cli.wording import plural

WORDS_PER_PAGE_EN = 450
CJK_CHARS_PER_PAGE = 800
MAX_WORDS, MAX_PAGES, MIN_WORDS = 1000, 2.0, 150
LONG_LINE = 500
_CONTROL_RE = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")
# "[\W_][\W_]*" is "[\W_]+" in a form re can skip ahead with (see _TOKEN_RE in __init__.py).
_NORMALIZE_RE = re.compile(r"[\W_][\W_]*", re.UNICODE)


def estimated_pages(doc: ResumeDocument) -> float:
    # word_count counts each CJK character as a word, so the rest are Latin-script words.
    cjk = doc.cjk_chars
    latin = max(0, doc.word_count - cjk)
    return round(latin / WORDS_PER_PAGE_EN + cjk / CJK_CHARS_PER_PAGE, 2)


def check(ctx: Context) -> list[RawFinding]:
    return _length(ctx) + _markup(ctx) + _headings(ctx) + _duplicates(ctx) + _hygiene(ctx)


def _length(ctx: Context) -> list[RawFinding]:
    words, pages = ctx.doc.word_count, estimated_pages(ctx.doc)
    # a word limit where words are spaced; a Chinese resume is judged by its pages
    if (words > MAX_WORDS and ctx.language.spaced) or pages > MAX_PAGES:
        return [
            ctx.report(
                "ats.too-long", f"About {plural(words, 'word')}, an estimated {pages:.1f} pages."
            )
        ]
    if words < MIN_WORDS:
        return [
            ctx.report(
                "ats.too-short",
                f"Only {plural(words, 'word')}; there is too little for a recruiter or an ATS to match.",
            )
        ]
    return []


def _markup(ctx: Context) -> list[RawFinding]:
    doc = ctx.doc
    findings: list[RawFinding] = []
    for block in doc.blocks:
        section = ctx.section_at(block.start_line)
        if block.kind == "table":
            findings.append(
                ctx.report(
                    "ats.table",
                    "Table: many ATS parsers drop or scramble table cells.",
                    section=section,
                    line=block.start_line,
                    text=doc.line(block.start_line),
                )
            )
        elif block.kind == "html":
            findings.append(_html(ctx, section, block.start_line))
        else:
            findings.append(
                ctx.report(
                    "ats.code-block",
                    "Code block: shown as raw text by most resume parsers.",
                    section=section,
                    line=block.start_line,
                    text=doc.line(block.start_line),
                )
            )
    for line in doc.html_inline_lines:
        findings.append(_html(ctx, ctx.section_at(line), line))
    return findings


def _html(ctx: Context, section, line: int) -> RawFinding:  # type: ignore[no-untyped-def]
    return ctx.report(
        "ats.html",
        "HTML markup: ATS parsers drop it or show the tags as text.",
        section=section,
        line=line,
        text=ctx.doc.line(line),
    )


def _headings(ctx: Context) -> list[RawFinding]:
    doc = ctx.doc
    headed = [s for s in doc.sections if s.heading_line]
    if not headed:
        return [ctx.report("ats.no-headings", "No headings: an ATS cannot find your sections.")]
    findings: list[RawFinding] = []
    name = (detect_name(doc) or "").casefold()
    first = headed[0]
    for section in headed:
        if section.parent_id is not None or section.kind != "other":
            continue
        is_title = section is first and (
            section.start_line <= _first_body_line(doc) or section.title.casefold() == name
        )
        if is_title:
            continue
        findings.append(
            ctx.report(
                "ats.unknown-heading",
                f'"{section.title}" is not a standard section name.',
                section=section,
                line=section.heading_line,
                text=section.title,
            )
        )
    previous = 0
    for section in headed:
        if section.heading_style != "atx":
            continue
        if previous and section.level > previous + 1:
            findings.append(
                ctx.report(
                    "ats.heading-skip",
                    f"Heading level jumps from {previous} to {section.level}.",
                    section=section,
                    line=section.heading_line,
                    text=doc.line(section.heading_line),
                )
            )
        previous = section.level
    return findings


def _first_body_line(doc: ResumeDocument) -> int:
    start = doc.front_matter_span[1] if doc.front_matter_span else 0
    for number in range(start, min(len(doc.lines), start + 200)):
        if doc.lines[number].strip():
            return number + 1
    return 1


def _duplicates(ctx: Context) -> list[RawFinding]:
    """Identical or near-identical (case, punctuation, spacing) bullets and paragraphs."""
    seen: dict[str, int] = {}
    findings: list[RawFinding] = []
    for item in ctx.items:
        if item.kind == "contact":
            continue
        key = _NORMALIZE_RE.sub(" ", item.lower).strip()
        if (
            (key.count(" ") < 3) if item.language.spaced else (len(key) < 8)
        ):  # under 8 characters / 4 words
            continue
        if key in seen:
            findings.append(
                ctx.report(
                    "ats.duplicate",
                    f"Same text as line {seen[key]} (lines {seen[key]} and {item.line}).",
                    section=item.section,
                    line=item.line,
                    text=item.text,
                )
            )
        else:
            seen[key] = item.line
    return findings


def _hygiene(ctx: Context) -> list[RawFinding]:
    doc = ctx.doc
    findings: list[RawFinding] = []
    # The document counted CONTROL_RE's characters (a superset of these) when it was
    # built: none there, none here, and the text need not be scanned again.
    control = _CONTROL_RE.search(doc.text) if doc.control_chars else None
    count = max(doc.control_chars, len(_CONTROL_RE.findall(doc.text)) if control else 0)
    if count:
        line = doc.text.count("\n", 0, control.start()) + 1 if control else None
        findings.append(
            ctx.report(
                "ats.control-chars",
                f"{plural(count, 'invisible control character')} in the text.",
                line=line,
            )
        )
    if doc.front_matter_error:
        findings.append(
            ctx.report(
                "ats.front-matter-error",
                f"Front matter is not valid YAML: {doc.front_matter_error}",
                line=1,
            )
        )
    for number, raw in enumerate(doc.lines, 1):
        if len(raw) > LONG_LINE:
            findings.append(
                ctx.report(
                    "ats.long-line",
                    f"Line {number} is {len(raw.rstrip())} characters long.",
                    section=ctx.section_at(number),
                    line=number,
                    text=raw,
                )
            )
    return findings
