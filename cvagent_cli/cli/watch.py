"""``cvagent analyze --watch``: run the report again each time a watched file is saved.

Polling the files' modification times twice a second is enough for a person saving a
resume in an editor (rendercv's ``--watch`` does the same job): it needs no extra library
and behaves the same on every platform and file system, network mounts included.  An
editor that saves by writing a new file and renaming it over the old one changes the
inode and the time, so it is seen too; a file that disappears for a moment while it is
replaced is waited for instead of reported as an error.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path

import typer

from cvagent_cli.errors import ExitCode, UsageError

# (path, mtime_ns, size, inode) of each watched file, None for a file that is missing now
Signature = tuple[tuple[str, int, int, int] | tuple[str, None], ...]

POLL_SECONDS = 0.5


def watched_files(paths: Iterable[str], suffixes: tuple[str, ...]) -> list[Path]:
    """The files to watch: each file named, and each file with ``suffixes`` in a folder
    named (a file added to the folder later is picked up at the next poll)."""
    files: list[Path] = []
    for raw in paths:
        if raw == "-":
            raise UsageError(
                "--watch needs files, not stdin",
                hint="name the resume: `cvagent analyze resume.md --watch`",
            )
        path = Path(raw).expanduser()
        if path.is_dir():
            files += sorted(
                p
                for p in path.iterdir()
                if p.is_file() and not p.name.startswith(".") and p.suffix.lower() in suffixes
            )
        else:
            files.append(path)
    return files


def signature(files: Iterable[Path]) -> Signature:
    out: list[tuple[str, int, int, int] | tuple[str, None]] = []
    for path in files:
        try:
            st = os.stat(path)
        except OSError:
            out.append((str(path), None))
        else:
            out.append((str(path), st.st_mtime_ns, st.st_size, st.st_ino))
    return tuple(out)


def watch(
    list_files: Callable[[], list[Path]],
    run_once: Callable[[], None],
    *,
    clear: Callable[[], None],
    status: Callable[[str], None],
    sleep: Callable[[float], None] = time.sleep,
    max_runs: int | None = None,
) -> int:
    """Run ``run_once`` now and after every change of the watched files; return the
    number of runs when ``max_runs`` is reached (tests), else run until Ctrl-C.

    A run's own exit (``--min-score`` not met, a file that cannot be read) is shown and the
    watch goes on: the next save may fix it.  Ctrl-C during a run ends the watch: the run
    turns it into exit code 130 (``handle_user_errors``), raised here again as the
    ``KeyboardInterrupt`` it was.
    """
    runs = 0
    seen: Signature | None = None
    while True:
        files = list_files()
        now = signature(files)
        if now != seen:
            missing = [entry[0] for entry in now if entry[1] is None]
            if missing and seen is not None:
                # an editor replacing the file: wait for it to come back, then run
                status(f"waiting for {', '.join(missing)} to come back …")
                seen = now
                sleep(POLL_SECONDS)
                continue
            seen = now
            clear()
            try:
                run_once()
            except typer.Exit as done:  # a run's exit code (below --min-score, usage …)
                _run_exit(done.exit_code, status)
            except SystemExit as done:
                _run_exit(done.code, status)
            runs += 1
            stamp = time.strftime("%H:%M:%S")
            names = ", ".join(p.name for p in files[:3]) + (" …" if len(files) > 3 else "")
            status(f"{stamp} watching {names}: save to analyze again, Ctrl-C to stop")
            if max_runs is not None and runs >= max_runs:
                return runs
        sleep(POLL_SECONDS)


def _run_exit(code: object, status: Callable[[str], None]) -> None:
    if code == ExitCode.INTERRUPTED:  # Ctrl-C while the report ran
        raise KeyboardInterrupt
    if code:
        status(f"(that run would exit {code})")


def run_watch(
    paths: list[str],
    jd: Path | None,
    suffixes: tuple[str, ...],
    run_once: Callable[[], None],
) -> None:
    """The CLI side of ``--watch``: the files, the terminal, and Ctrl-C as a normal exit."""
    if not paths:
        raise UsageError(
            "--watch needs a resume file",
            hint="run `cvagent analyze resume.md --watch`",
        )

    def list_files() -> list[Path]:
        files = watched_files(paths, suffixes)
        return [*files, jd] if jd is not None else files

    if not any(p.exists() for p in list_files()):
        raise UsageError(f"nothing to watch: {', '.join(paths)} not found")
    interactive = sys.stdout.isatty()

    def clear() -> None:
        if interactive:
            sys.stdout.write("\x1b[2J\x1b[H")  # clear the screen, cursor home
            sys.stdout.flush()

    def status(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    try:
        watch(list_files, run_once, clear=clear, status=status)
    except KeyboardInterrupt:
        status("stopped watching")
        raise typer.Exit(0) from None
