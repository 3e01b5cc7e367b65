"""Analyzing several resumes: which files a command line names, and one result per file
as it is ready (streamed: a folder of thousands is never held in memory at once)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from cvagent_cli.errors import InputError
from cvagent_cli.resume.analyzer import analyze
from cvagent_cli.resume.document import ResumeDocument
from cvagent_cli.resume.jd import JobDescription
from cvagent_cli.resume.report import AnalysisReport

#: What a folder contributes: its Markdown files (a single file may also be .txt).
FOLDER_SUFFIXES = (".md", ".markdown", ".mdown")


@dataclass(frozen=True)
class Inputs:
    items: list[str]  # paths, or "-" for stdin
    skipped: list[Path]  # files in named folders that are not Markdown


@dataclass(frozen=True)
class BatchResult:
    source: str
    doc: ResumeDocument | None = None
    report: AnalysisReport | None = None
    error: InputError | None = None


def collect_inputs(paths: list[str], stdin_is_tty: bool) -> Inputs:
    """Expand folders into their Markdown files (not recursively, in name order); ``-``
    (or nothing, with stdin piped) is stdin.  Other files in a folder are listed as
    skipped, so the caller can say so: nothing is left out silently."""
    if not paths:
        if stdin_is_tty:
            raise InputError(
                "no resume given",
                hint="run `cvagent analyze resume.md`, or pipe one: `cat resume.md | cvagent analyze`",
            )
        return Inputs(["-"], [])
    items: list[str] = []
    skipped: list[Path] = []
    for raw in paths:
        path = Path(raw).expanduser()
        if raw == "-" or not path.is_dir():
            items.append(raw)
            continue
        files = sorted(p for p in path.iterdir() if p.is_file() and not p.name.startswith("."))
        found = [p for p in files if p.suffix.lower() in FOLDER_SUFFIXES]
        if not found:
            raise InputError(f"{raw} is a folder with no Markdown (.md) files")
        items += [str(p) for p in found]
        skipped += [p for p in files if p not in found]
    return Inputs(items, skipped)


def analyze_each(items: list[str], job: JobDescription | None) -> Iterator[BatchResult]:
    """One result per item, in order; a file that cannot be read is a result with its
    error, and the others go on."""
    for item in items:
        try:
            doc = ResumeDocument.from_stdin() if item == "-" else ResumeDocument.from_path(item)
        except InputError as exc:
            yield BatchResult(item, error=exc)
            continue
        yield BatchResult(item, doc, analyze(doc, job))
