"""The resume tools.  They reach only the loaded resume (and JD); none takes a path."""

from __future__ import annotations

import uuid
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from cvagent_cli.analysis.analyzer import analyze
from cvagent_cli.charset import added_forbidden, describe
from cvagent_cli.document.document import ResumeDocument, Section
from cvagent_cli.document.editing import (
    EditError,
    Replacement,
    apply_all,
    apply_replacement,
    unified_diff,
)
from cvagent_cli.tools.base import BaseTool, ProposedEdit, ToolContext, ToolOutcome, ToolParams
from cvagent_cli.truth import check_edit
from cvagent_cli.truth.fencing import fence
from cvagent_cli.truth.guards import sensitive_edit_flags, visible_text
from cvagent_cli.wording import plural

MAX_READ_CHARS = 12_000  # a 5 MB resume is never sent whole; the outline guides the model
#: A failure's summary is what the user reads (the ✗ line): what happened, in their words;
#: the content, for the model, says what to do next.
NO_SUCH_SECTION = "the model asked for a section the resume does not have"


def _no_resume() -> ToolOutcome:
    return ToolOutcome(
        "Error: no resume is loaded. Ask the user to load one with /load PATH.",
        ok=False,
        summary="no resume is loaded",
    )


def numbered(lines: list[str], start: int, limit: int = MAX_READ_CHARS) -> tuple[str, bool]:
    out: list[str] = []
    size = 0
    for offset, line in enumerate(lines):
        row = f"{start + offset:>4} | {line.rstrip(chr(13) + chr(10))}"
        size += len(row) + 1
        if size > limit:
            return "\n".join(out), True
        out.append(row)
    return "\n".join(out), False


class ReadResumeParams(ToolParams):
    section: str | None = Field(None, description="section id or title; omit for the whole resume")


class ReadResume(BaseTool):
    name = "read_resume"
    description = "Read the resume, or one section, with line numbers."
    params = ReadResumeParams

    def run(self, args: ReadResumeParams, ctx: ToolContext) -> ToolOutcome:
        doc = ctx.workspace.doc
        if doc is None:
            return _no_resume()
        if args.section:
            section = doc.find_section(args.section)
            if section is None:
                near = doc.suggest_sections(args.section)
                ids = ", ".join(s.id for s in doc.sections[:40])
                hint = f" Did you mean: {', '.join(near)}?" if near else ""
                return ToolOutcome(
                    f"Error: no section {args.section!r}.{hint} Sections: {ids}",
                    ok=False,
                    summary=NO_SUCH_SECTION,
                )
            label = f"section {section.id} (lines {section.start_line}-{section.end_line})"
            shown = _shown_in_context(doc, section, ctx.shown_sections())
            if shown is not None:  # the same text twice in one request helps no one
                return ToolOutcome(
                    f"The current text of {label} is already in this turn's context, in "
                    f"“### {shown}”, unchanged since; quote old_text from there.",
                    summary=f"{label} (already in the context)",
                )
            body, cut = numbered(
                doc.lines[section.start_line - 1 : section.end_line], section.start_line
            )
        else:
            body, cut = numbered(doc.lines, 1)
            label = f"{ctx.workspace.name} ({plural(doc.line_count, 'line')})"
        more = "\n[truncated: the resume is long; read one section at a time]" if cut else ""
        return ToolOutcome(
            fence(body, "resume", source=label) + more,
            summary=label + (" (truncated)" if cut else ""),
        )


def _shown_in_context(doc: ResumeDocument, section: Section, shown: dict[str, str]) -> str | None:
    """The id of the section, or of one it belongs to, whose current full text this turn's
    context carries."""
    candidates = [section.id] + [i for i in shown if section.id.startswith(i + "/")]
    for section_id in candidates:
        text = shown.get(section_id)
        if text is None:
            continue
        found = doc.find_section(section_id)
        if found is not None and doc.section_text(found) == text:
            return section_id
    return None


class AnalyzeResumeParams(ToolParams):
    section: str | None = Field(None, description="section id or title; omit for all")


class AnalyzeResume(BaseTool):
    name = "analyze_resume"
    description = "Offline analysis: scores, findings with lines and fixes, JD keyword coverage."
    params = AnalyzeResumeParams

    def run(self, args: AnalyzeResumeParams, ctx: ToolContext) -> ToolOutcome:
        doc = ctx.workspace.doc
        if doc is None:
            return _no_resume()
        report = analyze(doc, ctx.workspace.jd)
        section_id = None
        if args.section:
            found = doc.find_section(args.section)
            if found is None:
                return ToolOutcome(
                    f"Error: no section {args.section!r}", ok=False, summary=NO_SUCH_SECTION
                )
            section_id = found.id
        ctx.workspace.remember_report(report)
        lines = [f"Overall score: {report.score}/100"]
        lines += [f"- {c.category}: {c.score} ({c.explanation})" for c in report.categories]
        findings = report.findings_for(section_id)
        lines.append(f"Findings{' in ' + section_id if section_id else ''}: {len(findings)}")
        for f in findings[:25]:
            where = f"line {f.line}" if f.line else "resume"
            lines.append(
                f"- [{f.severity}] {f.rule_id} ({f.section_id or '-'}, {where}): {f.message} → {f.suggestion}"
            )
        if len(findings) > 25:
            lines.append(f"… and {len(findings) - 25} more")
        if report.jd is not None:
            jd = report.jd
            lines.append(
                f"JD keyword coverage: {jd.coverage:.0f}% ({len(jd.matched)}/{len(jd.keywords)})"
            )
            lines.append("Matched: " + ", ".join(h.keyword for h in jd.matched))
            lines.append("Missing: " + ", ".join(jd.missing))
        # Findings quote the resume, so the whole result is fenced as untrusted data.
        return ToolOutcome(
            fence("\n".join(lines), "analysis"),
            summary=f"score {report.score}/100, {plural(len(findings), 'finding')}",
        )


def _propose(
    ctx: ToolContext,
    before: str,
    after: str,
    reason: str | None,
    pairs: list[tuple[str, str]],
    section: str | None,
    tool_call_id: str,
) -> ToolOutcome:
    doc = ctx.workspace.doc
    assert doc is not None
    missing = doc.format.unencodable(after)
    if missing:  # a Windows-1252 / Latin-1 file keeps its encoding: say so before a diff
        return ToolOutcome(
            f"Error: {ctx.workspace.name} is saved as {doc.format.encoding}, which cannot store "
            f"{' '.join(missing[:8])}; write the new text without these characters",
            ok=False,
            summary=f"edit not proposed: {ctx.workspace.name} is saved as {doc.format.encoding}, "
            "which cannot store some of the new characters",
        )
    refused = added_forbidden(before, after)
    if refused:  # control, bidi and zero-width characters: never written into a resume
        return ToolOutcome(
            "Error: new_text has characters a resume cannot hold ("
            + ", ".join(describe(ch) for ch in refused[:3])
            + "); write it again without them",
            ok=False,
            summary="edit refused",
        )
    if after == before:
        return ToolOutcome(
            "Error: new_text is identical to old_text; nothing to change",
            ok=False,
            summary="edit not proposed: it changed nothing",
        )
    flags: list[Any] = []
    support = visible_text(before)  # hidden text (comments, white spans) vouches for nothing
    for old, new in pairs:
        flags += check_edit(
            new, resume_text=support, user_messages=ctx.user_messages(), old_text=old
        )
    jd_text = getattr(ctx.workspace.jd, "text", "") if ctx.workspace.jd is not None else ""
    flags += sensitive_edit_flags(doc, after, jd_text or "")
    edit = ProposedEdit(
        id=uuid.uuid4().hex[:8],
        tool_call_id=tool_call_id,
        reason=reason,
        before=before,
        after=after,
        diff=unified_diff(before, after, ctx.workspace.name),
        flags=tuple(flags),
        replacements=tuple(pairs),
        section=section,
    )
    return ToolOutcome("(pending the user's decision)", summary="edit proposed", proposed_edit=edit)


class EditResumeParams(ToolParams):
    old_text: str = Field(description="exact text to replace, occurring once")
    new_text: str = Field(description="replacement; only facts from the resume or the user")
    section: str | None = Field(None, description="section id or title to search in")
    reason: str | None = Field(None, description="why, in one line, shown to the user")


class EditResume(BaseTool):
    name = "edit_resume"
    description = "Propose replacing text; the user confirms a diff and you learn the outcome."
    params = EditResumeParams

    def run(self, args: EditResumeParams, ctx: ToolContext) -> ToolOutcome:
        doc = ctx.workspace.doc
        if doc is None:
            return _no_resume()
        try:
            after = apply_replacement(doc, args.old_text, args.new_text, args.section)
        except EditError as exc:
            return ToolOutcome(
                f"Error: {exc}", ok=False, summary=f"edit not proposed: {exc.for_user}"
            )
        return _propose(
            ctx,
            doc.text,
            after,
            args.reason,
            [(args.old_text, args.new_text)],
            args.section,
            ctx.current_call_id,
        )


class EditPair(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)
    old_text: str
    new_text: str


class BatchEditParams(ToolParams):
    edits: list[EditPair] = Field(
        min_length=1,
        max_length=30,
        description="replacements; each old_text must occur exactly once",
    )
    reason: str | None = Field(None, description="one line shown to the user")


class BatchEditResume(BaseTool):
    name = "batch_edit_resume"
    description = "Propose several replacements at once, applied all together or not at all (one diff, one confirmation)."
    params = BatchEditParams
    default_enabled = False

    def run(self, args: BatchEditParams, ctx: ToolContext) -> ToolOutcome:
        doc = ctx.workspace.doc
        if doc is None:
            return _no_resume()
        try:
            after = apply_all(doc, [Replacement(e.old_text, e.new_text) for e in args.edits])
        except EditError as exc:
            return ToolOutcome(
                f"Error: {exc}", ok=False, summary=f"edits not proposed: {exc.for_user}"
            )
        pairs = [(e.old_text, e.new_text) for e in args.edits]
        return _propose(ctx, doc.text, after, args.reason, pairs, None, ctx.current_call_id)
