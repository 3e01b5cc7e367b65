"""``cvagent analyze``: the offline report (and an optional LLM review)."""

from __future__ import annotations

import contextlib
import functools
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from cvagent_cli.cli.error_exit import handle_user_errors, report_error
from cvagent_cli.cli.options import api_base_option
from cvagent_cli.errors import ExitCode, UsageError
from cvagent_cli.formats.file_types import DOCUMENT_SUFFIXES

if TYPE_CHECKING:
    from rich.console import Console

    from cvagent_cli.analysis.schema import AnalysisReport
    from cvagent_cli.cli.batch import BatchResult
    from cvagent_cli.document.document import ResumeDocument
    from cvagent_cli.formats.reading.ocr import PageProgress
    from cvagent_cli.llm.gateway import LiteLLMGateway


@handle_user_errors
def analyze_command(
    paths: Annotated[
        list[str] | None,
        typer.Argument(
            help="Resume files (.md, or .pdf/.docx/.html, imported in memory), folders of them, "
            "or - for stdin. Default: stdin when piped.",
            show_default=False,
        ),
    ] = None,
    jd: Annotated[
        Path | None,
        typer.Option(
            "--jd",
            help="Job description file (Markdown, text, PDF, DOCX or HTML): report keyword coverage against it.",
        ),
    ] = None,
    json_out: Annotated[
        bool,
        typer.Option(
            "--json",
            help="Machine-readable output (schema_version 1): one JSON object per file; JSON Lines for several files.",
        ),
    ] = False,
    min_score: Annotated[
        int | None,
        typer.Option(
            "--min-score",
            min=0,
            max=100,
            help="Exit with code 1 when a resume scores below N (for CI).",
        ),
    ] = None,
    explain: Annotated[
        bool,
        typer.Option(
            "--explain",
            help="Show how the scores are computed (alone, without a resume: just the formula).",
        ),
    ] = False,
    all_findings: Annotated[
        bool, typer.Option("--all", help="Show every finding (default: the first 40).")
    ] = False,
    llm: Annotated[
        bool,
        typer.Option(
            "--llm",
            help="Add a streamed review by your configured model (needs --model or CVAGENT_MODEL).",
        ),
    ] = False,
    model: Annotated[
        str | None,
        typer.Option(
            "--model",
            "-M",
            help="Model for --llm, in litellm form, e.g. gpt-4o-mini, deepseek/deepseek-chat, ollama_chat/llama3.1.",
        ),
    ] = None,
    api_base: Annotated[
        str | None,
        typer.Option(
            "--api-base",
            help="OpenAI-compatible server URL for --llm (Ollama, LM Studio, vLLM, llama.cpp).",
            callback=api_base_option,
        ),
    ] = None,
    jobs: Annotated[
        int | None,
        typer.Option(
            "--jobs",
            "-j",
            help="Analyze a batch in N processes (default: every core; 1: in this process). "
            "Output order does not change.",
            show_default=False,
        ),
    ] = None,
    watch: Annotated[
        bool,
        typer.Option(
            "--watch",
            "-w",
            help="Analyze again each time a resume (or the --jd file) is saved; Ctrl-C stops.",
        ),
    ] = False,
) -> None:
    """Analyze resumes offline: structure, impact, clarity, dates, ATS and JD keyword coverage.

    Works without any API key or network. Examples:

      cvagent analyze resume.md
      cvagent analyze resume.pdf          (PDF, DOCX, HTML: imported in memory)
      cvagent analyze resume.md --jd job.md --json
      cat resume.md | cvagent analyze --min-score 70
      cvagent analyze resumes/            (a batch summary for a folder)
      cvagent analyze resumes/ --json -j 4   (JSON Lines, 4 processes)
      cvagent analyze resume.md --watch   (again on every save)
    """
    if watch:
        # when needed (see app.py)
        from cvagent_cli.cli.batch import FOLDER_SUFFIXES
        from cvagent_cli.cli.watch import run_watch

        def once() -> None:
            analyze_command(
                paths=paths,
                jd=jd,
                json_out=json_out,
                min_score=min_score,
                explain=explain,
                all_findings=all_findings,
                llm=llm,
                model=model,
                api_base=api_base,
                jobs=jobs,
            )

        run_watch(list(paths or []), jd, FOLDER_SUFFIXES + DOCUMENT_SUFFIXES, once)
        return
    # when needed (see app.py)
    from cvagent_cli.cli.batch import analyze_each, default_jobs
    from cvagent_cli.formats.opening import read_job_description

    if jobs is not None and jobs < 1:
        raise UsageError(f"--jobs must be 1 or more, not {jobs}")
    if explain and not paths and _stdin_is_empty():  # `cvagent analyze --explain` alone
        # when needed (see app.py)
        from cvagent_cli.ui.console import make_console
        from cvagent_cli.ui.report import render_scoring

        render_scoring(make_console())
        return
    client = None
    if llm:  # no model: say so before any report, not after all of them
        # the model stack loads for --llm only (see app.py)
        from cvagent_cli.cli.analyze_review import review_client

        client = review_client(model, api_base)
    items = _inputs(paths)
    job = read_job_description(jd) if jd is not None else None
    out = None
    if not json_out:
        # --json output needs no console (rich and the report views: ~40 ms of start-up,
        # which a batch pays before its workers start)
        from cvagent_cli.ui.console import make_console

        out = make_console()
    several = len(items) > 1
    # Reports are kept only for what needs them at the end (the summary table, --llm):
    # a --json batch of thousands streams in constant memory.
    keep = llm or (several and not json_out)
    view = _View(out, json_out, several, keep, min_score, all_findings, explain)
    # closed however the loop ends (`| head` closing the pipe, an error): the pool's
    # workers are stopped at once, not left for the interpreter's exit to wait on
    with (
        _ocr_bar(several) as progress,
        contextlib.closing(
            analyze_each(
                items,
                job,
                jobs=jobs if jobs is not None else default_jobs(),
                keep_doc=llm,
                as_json=json_out and not keep,  # rendered where it is analyzed, maybe in a worker
                indent=None if several else 2,
                read=_reader(progress),
            )
        ) as results,
    ):
        for result in results:
            view.show(result)
    if not json_out and several:
        # when needed (see app.py)
        from cvagent_cli.ui.report import render_batch_summary

        assert out is not None
        render_batch_summary(out, [r for _, r in view.reports], view.failures)
    if client is not None:
        _reviews(client, view, job, out)
    _exit_status(view, min_score)


def _ocr_bar(several: bool) -> contextlib.AbstractContextManager[PageProgress | None]:
    """A bar per page OCR reads when one resume is read here and is a scanned PDF (the
    workers of a batch draw none)."""
    if several:
        return contextlib.nullcontext(None)
    from cvagent_cli.ui.progress import OCR_PROGRESS, page_progress  # rich.progress: when needed

    return page_progress(OCR_PROGRESS)


def _reader(progress: PageProgress | None) -> Callable[[str], ResumeDocument]:
    """How a resume is read: with the bar, and the import's warnings (the text came from
    OCR) on stderr, as ``cvagent import`` shows them."""
    from cvagent_cli.formats.opening import read_resume  # the importer: when needed

    if progress is None:
        return read_resume
    return functools.partial(read_resume, progress=progress, warn=_warn)


def _warn(message: str) -> None:
    print(f"cvagent: warning: {message}", file=sys.stderr)


def _stdin_is_empty() -> bool:
    """Standard input is a terminal, or holds nothing (CI gives /dev/null or a closed
    pipe); waits for a pipe's first byte, which is then still there to be read."""
    if sys.stdin is None or sys.stdin.isatty():
        return True
    peek = getattr(sys.stdin.buffer, "peek", None)  # a BufferedReader's: reads, keeps
    with contextlib.suppress(OSError, ValueError):
        return peek is not None and peek(1) == b""
    return False


def _reviews(client: LiteLLMGateway, view: _View, job: Any, out: Console | None) -> None:
    """The model's review of each kept report: streamed under the report, or with
    ``--json`` printed as the report's ``review`` field (one valid JSON object per file)."""
    # the model stack loads for --llm only (see app.py)
    from cvagent_cli.cli.analyze_review import collect_review, run_review

    for doc, report in view.reports:
        assert doc is not None
        if out is None:
            reviewed = collect_review(client, doc, report, job)
            sys.stdout.write(reviewed.model_dump_json(indent=None if view.several else 2) + "\n")
        else:
            run_review(client, doc, report, job, console=out)


def _inputs(paths: list[str] | None) -> list[str]:
    """The resumes named on the command line (folders expanded, stdin when piped); the
    files skipped for their suffix are named on stderr."""
    # when needed (see app.py)
    from cvagent_cli.cli.batch import FOLDER_SUFFIXES, collect_inputs

    # a folder's .json files are package.json and the like, not JSON Resume files
    # (named one by one, they are read as JSON Resume)
    suffixes = FOLDER_SUFFIXES + tuple(s for s in DOCUMENT_SUFFIXES if s != ".json")
    inputs = collect_inputs(list(paths or []), sys.stdin.isatty(), suffixes)
    if inputs.skipped:
        names = ", ".join(p.name for p in inputs.skipped[:5])
        more = f" and {len(inputs.skipped) - 5} more" if len(inputs.skipped) > 5 else ""
        kinds = ", ".join(suffixes)
        print(f"cvagent: skipped {names}{more}: not a resume file ({kinds})", file=sys.stderr)
    return inputs.items


@dataclass
class _View:
    """Shows each result as it comes (a report, a JSON line or an error) and remembers what
    the end of the run needs: the kept reports, the failures, the files below --min-score."""

    out: Console | None
    json_out: bool
    several: bool
    keep: bool
    min_score: int | None
    all_findings: bool
    explain: bool
    reports: list[tuple[ResumeDocument | None, AnalysisReport]] = field(default_factory=list)
    failures: list[tuple[str, str]] = field(default_factory=list)
    below: list[str] = field(default_factory=list)

    def show(self, result: BatchResult) -> None:
        min_score = self.min_score
        if result.error is not None:
            if not self.several:
                raise result.error
            self.failures.append((result.source, result.error.message))
            report_error(result.error)
            return
        if result.json is not None:  # --json without --llm: the JSON text, score, source
            if min_score is not None and result.score is not None and result.score < min_score:
                self.below.append(f"{result.report_source} ({result.score})")
            sys.stdout.write(result.json + "\n")
            return
        assert result.report is not None
        if self.keep:
            self.reports.append((result.doc, result.report))
        if min_score is not None and result.report.score < min_score:
            self.below.append(f"{result.report.source} ({result.report.score})")
        if self.json_out and self.keep:
            return  # --llm --json: printed with its review (see _reviews)
        if self.json_out:
            text = result.report.model_dump_json(indent=None if self.several else 2)
            sys.stdout.write(text + "\n")
        else:
            # when needed (see app.py)
            from cvagent_cli.ui.report import render_report

            assert self.out is not None
            render_report(
                self.out,
                result.report,
                max_findings=None if self.all_findings else (10 if self.several else 40),
                explain=self.explain,
            )
            if self.several:
                self.out.print()


def _exit_status(view: _View, min_score: int | None) -> None:
    """Exit 2 (usage) when a file of a batch failed, 1 when one scored below --min-score."""
    if view.failures:
        raise typer.Exit(int(ExitCode.USAGE))
    if min_score is not None and view.below:
        print(f"cvagent: below --min-score {min_score}: {', '.join(view.below)}", file=sys.stderr)
        raise typer.Exit(int(ExitCode.BELOW_THRESHOLD))
