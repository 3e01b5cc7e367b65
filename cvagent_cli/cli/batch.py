"""Analyzing several resumes: which files a command line names, and one result per file
as it is ready (streamed: a folder of thousands is never held in memory at once).

With ``jobs`` > 1 the files are analyzed in worker processes, a chunk of paths per task,
and the results still come back one by one in the order of ``items``: at most a few
chunks per worker are in flight, so memory does not grow with the number of files.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections import deque
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from cvagent_cli.analysis.analyzer import MAX_ANALYZED_CHARS, analyze, too_long
from cvagent_cli.analysis.jd import JobDescription
from cvagent_cli.analysis.schema import AnalysisReport
from cvagent_cli.document.document import ResumeDocument
from cvagent_cli.errors import InputError
from cvagent_cli.formats.file_types import DOCUMENT_SUFFIXES

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

#: What a folder contributes: its Markdown files (a single file may also be .txt).
FOLDER_SUFFIXES = (".md", ".markdown", ".mdown")

#: Fewer files than this are analyzed in this process whatever ``jobs`` says: starting
#: workers costs more than it saves (bench/analyzer_throughput.py measures the crossover).
MIN_POOL_FILES = 24
#: Paths per task sent to a worker, at most; and chunks in flight per worker.
MAX_CHUNK = 16
IN_FLIGHT_PER_WORKER = 3


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
    #: With ``as_json``: the report as its JSON text, its score and its source, in place
    #: of ``report`` (a worker sends back a string, not a tree of pydantic models).
    json: str | None = None
    score: int | None = None
    report_source: str | None = None


def collect_inputs(
    paths: list[str], stdin_is_tty: bool, suffixes: tuple[str, ...] = FOLDER_SUFFIXES
) -> Inputs:
    """Expand folders into their files with ``suffixes`` (not recursively, in name
    order); ``-`` (or nothing, with stdin piped) is stdin.  Other files in a folder are
    listed as skipped, so the caller can say so: nothing is left out silently."""
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
        # a link that loops or leads nowhere is listed too, so that its error is shown
        files = sorted(
            p
            for p in path.iterdir()
            if (p.is_file() or (p.is_symlink() and not p.is_dir())) and not p.name.startswith(".")
        )
        found = [p for p in files if p.suffix.lower() in suffixes]
        if not found:
            raise InputError(f"{raw} is a folder with no resume files ({', '.join(suffixes)})")
        items += [str(p) for p in found]
        skipped += [p for p in files if p.suffix.lower() not in suffixes]
    return Inputs(items, skipped)


def default_jobs() -> int:
    """Every core this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def analyze_each(
    items: Sequence[str],
    job: JobDescription | None,
    *,
    jobs: int = 1,
    keep_doc: bool = True,
    today: date | None = None,
    as_json: bool = False,
    indent: int | None = None,
    read: Callable[[str], ResumeDocument] | None = None,
) -> Generator[BatchResult, None, None]:
    """One result per item, in order; a file that cannot be read is a result with its
    error, and the others go on.

    ``jobs`` > 1 analyzes in that many worker processes (not for stdin, nor for fewer
    than ``MIN_POOL_FILES`` files); ``keep_doc=False`` leaves ``BatchResult.doc`` empty,
    so that a worker does not send the parsed document back for nothing; ``as_json``
    gives each report as its JSON text (``indent`` as in ``model_dump_json``) instead;
    ``read`` turns an item into a document (default: a Markdown or text file, ``-`` for
    stdin; a module-level function, as workers receive it by name).
    """
    options = _Options(job, keep_doc, today, as_json, indent, read or read_markdown)
    workers = min(jobs, -(-len(items) // _chunk_size(len(items), jobs)))
    if jobs <= 1 or len(items) < MIN_POOL_FILES or "-" in items or workers <= 1:
        for item in items:
            yield _analyze_one(item, options)
        return
    yield from _pooled(items, options, workers=workers)


@dataclass(frozen=True)
class _Options:
    job: JobDescription | None
    keep_doc: bool
    today: date | None
    as_json: bool
    indent: int | None
    read: Callable[[str], ResumeDocument]


def read_markdown(item: str) -> ResumeDocument:
    """A Markdown or text resume file, or ``-``: standard input."""
    return ResumeDocument.from_stdin() if item == "-" else ResumeDocument.from_path(item)


def _analyze_one(item: str, options: _Options) -> BatchResult:
    try:
        size = 0
        if item != "-" and Path(item).suffix.lower() not in DOCUMENT_SUFFIXES:
            with contextlib.suppress(OSError):  # a missing file: the reader says so
                size = os.stat(item).st_size
        # refused unread when even 4 bytes a character (CJK in UTF-8) is over the budget;
        # otherwise the length of the text decides, once it is read
        if size > 4 * MAX_ANALYZED_CHARS:
            raise too_long(item, f"{size / 1_048_576:.1f} MB")
        doc = options.read(item)
        if len(doc.text) > MAX_ANALYZED_CHARS:
            raise too_long(item, f"{len(doc.text):,} characters long")
    except InputError as exc:
        return BatchResult(item, error=exc)
    report = analyze(doc, options.job, today=options.today)
    kept = doc if options.keep_doc else None
    if options.as_json:
        text = report.model_dump_json(indent=options.indent)
        return BatchResult(item, kept, json=text, score=report.score, report_source=report.source)
    return BatchResult(item, kept, report)


def _chunk_size(count: int, jobs: int) -> int:
    """Paths per task: small enough that every worker gets several tasks (and the order
    of output is never held up for long), large enough that sending them costs little."""
    return max(1, min(MAX_CHUNK, count // (max(1, jobs) * 4)))


# -- the worker side: state set once per process by the pool's initializer ---------------
_WORKER: dict[str, _Options] = {}


def _init_worker(options: _Options) -> None:
    """Runs once in each worker: Ctrl-C is the parent's to handle (it stops the pool), the
    analyzer is imported and warmed up once, and the job description comes over once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _WORKER["options"] = options
    analyze(ResumeDocument.from_text("# A\n\n## Experience\n\n- Built it\n"), today=options.today)


def _analyze_chunk(paths: list[str]) -> list[BatchResult]:
    options = _WORKER["options"]
    return [_analyze_one(path, options) for path in paths]


def _pooled(
    items: Sequence[str], options: _Options, *, workers: int
) -> Generator[BatchResult, None, None]:
    from concurrent.futures import ProcessPoolExecutor  # multiprocessing: only for a pool

    size = _chunk_size(len(items), workers)
    chunks = (list(items[i : i + size]) for i in range(0, len(items), size))
    for stream in (sys.stdout, sys.stderr):  # a forked worker would write out, on its
        with contextlib.suppress(Exception):  # exit, whatever it inherited unflushed
            stream.flush()
    pool = ProcessPoolExecutor(workers, initializer=_init_worker, initargs=(options,))
    pending: deque[Future[list[BatchResult]]] = deque()
    finished = False
    try:
        for chunk in chunks:
            pending.append(pool.submit(_analyze_chunk, chunk))
            if len(pending) >= workers * IN_FLIGHT_PER_WORKER:
                yield from pending.popleft().result()
        while pending:
            yield from pending.popleft().result()
        finished = True
    finally:
        if finished:
            pool.shutdown(wait=True)
        else:  # Ctrl-C, an error, or the consumer stopped (`| head`): stop the workers now
            _stop(pool, pending)


def _stop(pool: ProcessPoolExecutor, pending: deque[Future[list[BatchResult]]]) -> None:
    """Cancel what has not started and let the chunks already running finish (a fraction
    of a second each).  Workers are not terminated: one killed while it writes its result
    leaves half a message in the result pipe, and the pool's manager thread then waits on
    the rest for ever, so the process never exits (seen with `analyze … | head -1`)."""
    for future in pending:
        future.cancel()
    pool.shutdown(wait=True, cancel_futures=True)
