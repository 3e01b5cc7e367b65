"""Edit guards beyond the truthfulness check: changes that an injected instruction
would make (contact details rewritten, sections deleted) and files that carry
instructions aimed at an AI.  A flagged edit is never applied automatically, not even
with --yes; the user has to confirm it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher

from cvagent_cli.document.blocks import front_matter_length
from cvagent_cli.document.document import ResumeDocument, Section
from cvagent_cli.secrets import find_secrets
from cvagent_cli.truth.fencing import INVISIBLE_RE, has_hidden_characters
from cvagent_cli.wording import plural

MAX_SILENT_DELETED_LINES = 4
RENAME_MIN_SIMILARITY = 0.6  # share of a renamed section's text that must stay

_INSTRUCTION_RE = re.compile(
    r"ignore (?:all |any )?(?:the )?(?:previous|prior|above|earlier|preceding) (?:instructions|prompts|rules)"
    r"|disregard (?:all |the )?(?:previous|prior|above|system)"
    r"|you are now\b|new instructions?:|\bsystem\s*:|as the (?:hiring )?ai\b|ai assistant\s*[:,]"
    r"|\b(?:call|use|invoke) (?:the )?(?:edit_resume|batch_edit_resume|use_capability|terminate|read_resume)\b"
    r"|\"name\"\s*:\s*\"(?:edit_resume|batch_edit_resume)\""
    r"|忽略.{0,8}(?:指令|指示|提示|规则)|无视.{0,8}(?:指令|规则)|请调用|调用\s*edit_resume|系统指令|你现在是|作为\s*ai",
    re.IGNORECASE,
)
_CONTACT_FIELDS = ("name", "email", "phone", "masked_phone", "linkedin", "github", "website")


_HTML_COMMENT_RE = re.compile(r"<!--.*?(?:-->|$)", re.DOTALL)
_HIDDEN_ELEMENT_RE = re.compile(
    r"<(?P<tag>[a-z][a-z0-9]*)\b[^>]*?(?:style\s*=\s*[\"'][^\"']*(?:color\s*:\s*(?:white|#fff(?:fff)?\b)|display\s*:\s*none"
    r"|visibility\s*:\s*hidden|font-size\s*:\s*0)|color\s*=\s*[\"']?(?:white|#fff(?:fff)?)\b|\bhidden\b)[^>]*>.*?</(?P=tag)\s*>",
    re.IGNORECASE | re.DOTALL,
)
_BLANK_LINES_RE = re.compile(r"\s*(?:\r?\n|\Z)")
_BASIC_KEYS = ("name", "email", "phone", "location", "linkedin", "github", "website", "links")


def visible_text(text: str) -> str:
    """What a reader of the rendered resume sees: no HTML comments, no white or hidden
    elements, no lines smuggled with invisible characters, and of the front matter only
    the contact fields.  Facts hidden from the reader must not vouch for an edit."""
    front = ""
    bom = 1 if text.startswith("\ufeff") else 0
    cut = front_matter_length(text[bom:])
    if cut:
        cut += bom
        kept = [
            line
            for line in text[:cut].splitlines()
            if line.split(":", 1)[0].strip().lower() in _BASIC_KEYS
        ]
        front = "\n".join(kept) + "\n"
        blank = _BLANK_LINES_RE.match(text, cut)  # the blank lines after it go too
        text = text[blank.end() if blank else cut :]
    text = _HIDDEN_ELEMENT_RE.sub(" ", _HTML_COMMENT_RE.sub(" ", text))
    lines = [line for line in text.splitlines(keepends=True) if not INVISIBLE_RE.search(line)]
    return front + "".join(lines)


@dataclass(frozen=True)
class EditFlag:
    kind: str
    value: str
    message: str


def suspicious_instructions(text: str, limit: int = 5) -> list[tuple[int, str]]:
    """Lines that look like instructions to an AI agent (prompt injection)."""
    found: list[tuple[int, str]] = []
    cleaned = INVISIBLE_RE.sub("", text)
    for match in _INSTRUCTION_RE.finditer(cleaned):
        line = cleaned.count("\n", 0, match.start()) + 1
        if not found or found[-1][0] != line:
            found.append((line, match.group(0)))
        if len(found) >= limit:
            break
    if not found and has_hidden_characters(text):
        found.append((0, "invisible characters"))
    return found


def _body(doc: ResumeDocument, section: Section) -> str:
    """A section's text under its heading line, whitespace collapsed."""
    return " ".join(doc.span_text(section.heading_line + 1, section.end_line).split())


def _deleted_sections(before: ResumeDocument, after: ResumeDocument) -> list[Section]:
    """Top-level sections that are gone, decided by position and content rather than by
    title: a section whose heading changed but which keeps its place among the top-level
    sections and most of its text ("## Education" → "## Education and Training") was
    renamed, which is an edit, not a deletion."""
    old_roots = [s for s in before.roots if s.heading_line and s.title]
    new_roots = [s for s in after.roots if s.heading_line and s.title]
    old_ids, new_ids = {s.id for s in old_roots}, {s.id for s in new_roots}
    added = {i: s for i, s in enumerate(new_roots) if s.id not in old_ids}
    deleted = []
    for index, section in enumerate(old_roots):
        if section.id in new_ids:
            continue
        twin = added.get(index)
        if twin is not None and _same_content(_body(before, section), _body(after, twin)):
            del added[index]
            continue
        deleted.append(section)
    return deleted


def _same_content(old: str, new: str) -> bool:
    return old == new or SequenceMatcher(None, old, new).ratio() >= RENAME_MIN_SIMILARITY


def sensitive_edit_flags(
    before: ResumeDocument, after_text: str, jd_text: str = ""
) -> list[EditFlag]:
    flags: list[EditFlag] = []
    after = before.with_text(after_text)
    old_b, new_b = before.basics, after.basics
    for field in _CONTACT_FIELDS:
        old, new = getattr(old_b, field), getattr(new_b, field)
        if old and old != new:
            flags.append(
                EditFlag(
                    "contact",
                    f"{field}: {old} → {new or '(removed)'}",
                    f"this edit changes your {field} ({old} → {new or 'removed'}); contact details change only when you say so",
                )
            )
    for section in _deleted_sections(before, after):
        flags.append(
            EditFlag("deletion", section.title, f"this edit deletes the section {section.title!r}")
        )
    removed = max(before.line_count - after.line_count, 0)
    if removed > MAX_SILENT_DELETED_LINES and not any(f.kind == "deletion" for f in flags):
        flags.append(
            EditFlag(
                "deletion", plural(removed, "line"), f"this edit removes {plural(removed, 'line')}"
            )
        )
    for secret in find_secrets(after_text) - find_secrets(before.text):
        flags.append(
            EditFlag(
                "secret",
                secret[:6] + "…",
                "this edit writes something that looks like an API key or token into your resume",
            )
        )
    hits = suspicious_instructions(before.text) + suspicious_instructions(jd_text)
    if hits:
        where = "; ".join(f"line {n}: “{snippet}”" if n else snippet for n, snippet in hits[:2])
        flags.append(
            EditFlag(
                "injection",
                where,
                f"the resume or job description contains text that looks like instructions to an AI ({where}); review this edit yourself",
            )
        )
    return flags
