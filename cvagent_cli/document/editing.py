"""Text edits on a resume: exact, unique replacements and the diffs that show them.

The model names the text it wants to change; the edit applies only when that text occurs
exactly once (within the named section when given).  Anything else is an ``EditError``
listing the closest candidates, which the model sees as the tool result and can use to
retry.
"""

from __future__ import annotations

import difflib
import itertools
import re
from dataclasses import dataclass

from cvagent_cli.document.document import ResumeDocument, Section
from cvagent_cli.store.textio import NEWLINE_RE, split_lines
from cvagent_cli.wording import sentence


class EditError(ValueError):
    """An edit that cannot be applied; the message is written for the model (what to do
    next), ``for_user`` says what happened in the user's words (no instructions)."""

    def __init__(self, message: str, for_user: str) -> None:
        super().__init__(message)
        self.for_user = for_user


@dataclass(frozen=True)
class Replacement:
    old_text: str
    new_text: str


def _to_newline(text: str, newline: str) -> str:
    return NEWLINE_RE.sub(newline, text) if newline != "\n" or "\r" in text else text


def _span_offsets(doc: ResumeDocument, section: Section) -> tuple[int, int]:
    start = sum(len(line) for line in doc.lines[: section.start_line - 1])
    end = start + sum(len(line) for line in doc.lines[section.start_line - 1 : section.end_line])
    return start, end


def closest_candidates(haystack: str, needle: str, n: int = 3) -> list[str]:
    """The lines of ``haystack`` most similar to ``needle``, for an error message."""
    first = needle.strip().splitlines()[0] if needle.strip() else ""
    lines = [line.strip() for line in haystack.splitlines() if line.strip()]
    if len(lines) > 5000:  # keep error paths linear-ish on huge files
        key = set(first.casefold().split()[:3])
        lines = [line for line in lines if key & set(line.casefold().split())][:5000]
    return difflib.get_close_matches(first, lines, n=n, cutoff=0.3)


def locate(
    doc: ResumeDocument, old_text: str, section: str | None = None, *, can_scope: bool = True
) -> tuple[int, int]:
    """Character offsets of the one occurrence of ``old_text`` (within ``section``).
    ``can_scope``: whether the caller's tool has a section parameter to suggest (the batch
    tool has none, so its errors never ask the model to name one)."""
    if not old_text.strip():
        raise EditError(
            "old_text is empty; quote the exact text to replace (use read_resume first)",
            "the model named no text to change",
        )
    old = _to_newline(old_text, doc.format.newline)
    lo, hi = 0, len(doc.text)
    where = "the resume"
    if section:
        found = doc.find_section(section)
        if found is None:
            names = ", ".join(s.id for s in doc.sections[:30])
            raise EditError(
                f"no section {section!r}; sections are: {names}",
                "the model named a section the resume does not have",
            )
        lo, hi = _span_offsets(doc, found)
        where = f"section {found.id!r}"
    scope = doc.text[lo:hi]
    count = scope.count(old)
    if count == 0 and old != old_text:
        old, count = old_text, scope.count(old_text)
    if count == 1:
        start = lo + scope.index(old)
        return start, start + len(old)
    if count == 0:
        hints = closest_candidates(scope, old_text)
        tip = ("; closest lines: " + " | ".join(repr(h) for h in hints)) if hints else ""
        raise EditError(
            f"old_text was not found in {where}{tip}. Copy the text exactly from read_resume.",
            f"the text to change is not in {where}",
        )
    lines = [
        doc.text.count("\n", 0, lo + m.start()) + 1 for m in re.finditer(re.escape(old), scope)
    ]
    scoping = ", or name the section," if can_scope and not section else ""
    at = ", ".join(map(str, lines[:10]))
    raise EditError(
        f"old_text occurs {count} times in {where} (lines {at}); "
        f"include more surrounding text{scoping} so it matches exactly once",
        f"the text to change occurs {count} times in {where} (lines {at})",
    )


def apply_replacement(
    doc: ResumeDocument, old_text: str, new_text: str, section: str | None = None
) -> str:
    start, end = locate(doc, old_text, section)
    new = _to_newline(new_text, doc.format.newline)
    return doc.text[:start] + new + doc.text[end:]


def apply_all(doc: ResumeDocument, edits: list[Replacement]) -> str:
    """Apply several replacements, all or nothing; each must match once in the original."""
    if not edits:
        raise EditError("no edits given", "the model sent no edits")
    spans: list[tuple[int, int, str]] = []
    for index, edit in enumerate(edits, 1):
        try:
            start, end = locate(doc, edit.old_text, can_scope=False)
        except EditError as exc:
            raise EditError(
                f"edit {index}: {sentence(str(exc))} Nothing was changed.",
                f"edit {index} of {len(edits)}: {exc.for_user}",
            ) from None
        spans.append((start, end, _to_newline(edit.new_text, doc.format.newline)))
    spans.sort()
    for (_s1, e1, _), (s2, _, _) in itertools.pairwise(spans):
        if s2 < e1:
            raise EditError(
                "two edits overlap; merge them into one. Nothing was changed.",
                "two of the edits change the same text",
            )
    text = doc.text
    for start, end, new in reversed(spans):
        text = text[:start] + new + text[end:]
    return text


def unified_diff(before: str, after: str, name: str = "resume.md", context: int = 2) -> str:
    """A unified diff with ``@@`` line numbers, newline-agnostic."""
    a = [line.rstrip("\r\n") for line in split_lines(before)]
    b = [line.rstrip("\r\n") for line in split_lines(after)]
    return "\n".join(difflib.unified_diff(a, b, f"a/{name}", f"b/{name}", n=context, lineterm=""))


def hunks(before: str, after: str) -> str:
    """The change as the model is told it after it applied: the ``@@`` hunks with one line
    of context and no file header (it knows the file, and it wrote the change)."""
    lines = unified_diff(before, after, context=1).split("\n")
    return "\n".join(lines[2:] if lines[0].startswith("--- ") else lines)
