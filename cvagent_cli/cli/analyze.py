"""``cvagent analyze``: the offline report (and an optional LLM review)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from cvagent_cli.cli.errors import handle_user_errors
from cvagent_cli.errors import ExitCode, InputError

MARKDOWN_SUFFIXES = (".md", ".markdown", ".mdown", ".txt")


def collect_inputs(paths: list[str], stdin_is_tty: bool) -> list[str]:
    """Expand folders into their Markdown files; ``-`` (or nothing, with piped stdin) is stdin."""
    if not paths:
        if stdin_is_tty:
            raise InputError(
                "no resume given",
                hint="run `cvagent analyze resume.md`, or pipe one: `cat resume.md | cvagent analyze`",
            )
        return ["-"]
    out: list[str] = []
    for raw in paths:
        if raw == "-":
            out.append(raw)
            continue
        path = Path(raw).expanduser()
        if path.is_dir():
            found = sorted(
                p
                for p in path.iterdir()
                if p.is_file()
                and p.suffix.lower() in MARKDOWN_SUFFIXES[:3]
                and not p.name.lower().startswith(("readme", "jd_"))
            )
            if not found:
                raise InputError(f"{raw} is a folder with no Markdown (.md) files")
            out += [str(p) for p in found]
        else:
            out.append(raw)
    return out


@handle_user_errors
def analyze_command(
    paths: Annotated[
        list[str] | None,
        typer.Argument(
            help="Resume files (.md), folders of them, or - for stdin. Default: stdin when piped.",
            show_default=False,
        ),
    ] = None,
    jd: Annotated[
        Path | None,
        typer.Option("--jd", help="Job description file: report keyword coverage against it."),
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
        bool, typer.Option("--explain", help="Show how the scores are computed.")
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
        ),
    ] = None,
) -> None:
    """Analyze resumes offline: structure, impact, clarity, dates, ATS and JD keyword coverage.

    Works without any API key or network. Examples:

      cvagent analyze resume.md
      cvagent analyze resume.md --jd job.md --json
      cat resume.md | cvagent analyze --min-score 70
      cvagent analyze resumes/            (a batch summary for a folder)
    """
    from cvagent_cli.resume.analyzer import analyze
    from cvagent_cli.resume.document import ResumeDocument
    from cvagent_cli.resume.jd import JobDescription
    from cvagent_cli.ui.console import make_console
    from cvagent_cli.ui.report import render_batch_summary, render_report

    inputs = collect_inputs(list(paths or []), sys.stdin.isatty())
    job = JobDescription.from_path(jd) if jd is not None else None
    out = make_console()
    reports, failures = [], []
    for item in inputs:
        try:
            doc = ResumeDocument.from_stdin() if item == "-" else ResumeDocument.from_path(item)
        except InputError as exc:
            if len(inputs) == 1:
                raise
            failures.append((item, exc.message))
            from cvagent_cli.cli.errors import report_error

            report_error(exc)
            continue
        report = analyze(doc, job)
        reports.append((doc, report))
        if json_out:
            text = report.model_dump_json(indent=2 if len(inputs) == 1 else None)
            sys.stdout.write(text + "\n")
        else:
            render_report(
                out,
                report,
                max_findings=None if all_findings else (40 if len(inputs) == 1 else 10),
                explain=explain,
            )
            if len(inputs) > 1:
                out.print()
    if not json_out and len(inputs) > 1:
        render_batch_summary(out, [r for _, r in reports], failures)
    if llm and reports:
        from cvagent_cli.cli.review import run_review

        for doc, report in reports:
            run_review(doc, report, job, model=model, api_base=api_base, console=out)
    if failures:
        raise typer.Exit(int(ExitCode.USAGE))
    if min_score is not None and any(r.score < min_score for _, r in reports):
        low = ", ".join(f"{r.source} ({r.score})" for _, r in reports if r.score < min_score)
        print(f"cvagent: below --min-score {min_score}: {low}", file=sys.stderr)
        raise typer.Exit(int(ExitCode.BELOW_THRESHOLD))
