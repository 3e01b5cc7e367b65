"""``cvagent analyze --watch``: a run per save, Ctrl-C exits 0."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import typer

from cvagent_cli.cli.error_exit import handle_user_errors
from cvagent_cli.cli.watch import run_watch, watch, watched_files
from cvagent_cli.errors import UsageError
from tests.support.openai_server import LoopbackServer, delay, text

SAMPLES = Path(__file__).resolve().parents[2] / "sample_resumes"


def _bump(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))  # coarse clocks


def test_runs_once_per_change_and_not_while_nothing_changes(tmp_path: Path) -> None:
    resume = tmp_path / "r.md"
    resume.write_text("# A Person\n", encoding="utf-8")
    runs: list[str] = []
    polls = iter(range(100))

    def sleep(_: float) -> None:
        n = next(polls)
        if n == 2:
            _bump(resume, "# A Person\n\n## Experience\n")
        if n == 5:  # an editor replacing the file: gone for one poll, then back
            resume.unlink()
        if n == 6:
            _bump(resume, "# A Person\n\n## Education\n")

    status: list[str] = []
    n = watch(
        lambda: [resume],
        lambda: runs.append(resume.read_text(encoding="utf-8")),
        clear=lambda: None,
        status=status.append,
        sleep=sleep,
        max_runs=3,
    )
    assert n == 3
    assert [r.splitlines()[-1] for r in runs] == ["# A Person", "## Experience", "## Education"]
    assert any("waiting for" in s for s in status)


def test_a_runs_exit_code_is_shown_and_the_watch_goes_on(tmp_path: Path) -> None:
    resume = tmp_path / "r.md"
    resume.write_text("x", encoding="utf-8")
    status: list[str] = []
    polls = iter(range(100))

    def run() -> None:
        raise typer.Exit(1)

    def sleep(_: float) -> None:
        if next(polls) == 1:
            _bump(resume, "y")

    assert (
        watch(
            lambda: [resume], run, clear=lambda: None, status=status.append, sleep=sleep, max_runs=2
        )
        == 2
    )
    assert sum("would exit 1" in s for s in status) == 2


def test_ctrl_c_inside_a_run_ends_the_watch(tmp_path: Path) -> None:
    resume = tmp_path / "r.md"
    resume.write_text("x", encoding="utf-8")
    runs: list[int] = []

    @handle_user_errors
    def run() -> None:  # the report, interrupted: handle_user_errors makes it exit 130
        runs.append(1)
        raise KeyboardInterrupt

    def sleep(_: float) -> None:
        _bump(resume, resume.read_text(encoding="utf-8") + "y")

    with pytest.raises(KeyboardInterrupt):
        watch(lambda: [resume], run, clear=lambda: None, status=print, sleep=sleep, max_runs=3)
    assert runs == [1]


def test_run_watch_exits_0_when_ctrl_c_lands_in_a_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    resume = tmp_path / "r.md"
    resume.write_text("x", encoding="utf-8")

    runs: list[int] = []

    @handle_user_errors
    def run() -> None:
        runs.append(1)
        assert len(runs) == 1, "the watch went on after Ctrl-C"
        _bump(resume, "y")  # a save, so a watch that went on would run again
        raise KeyboardInterrupt

    with pytest.raises(typer.Exit) as done:
        run_watch([str(resume)], None, (".md",), run)
    assert done.value.exit_code == 0
    assert "would exit 130" not in capsys.readouterr().err


def test_stdin_cannot_be_watched() -> None:
    with pytest.raises(UsageError, match="stdin"):
        watched_files(["-"], (".md",))


def test_a_folder_is_watched_by_its_resume_files(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("a", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("n", encoding="utf-8")
    assert [p.name for p in watched_files([str(tmp_path)], (".md",))] == ["a.md"]


def _interrupt(proc: subprocess.Popen[str]) -> tuple[str, str]:
    """Ctrl-C, then what the process wrote; killed if it is still running after 60 s."""
    proc.send_signal(signal.SIGINT)
    try:
        return proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()


@pytest.mark.slow
def test_cli_watch_reruns_on_save_and_ctrl_c_exits_0(tmp_path: Path) -> None:
    resume = tmp_path / "resume.md"
    resume.write_text(
        (SAMPLES / "en_weak_generalist.md").read_text(encoding="utf-8"), encoding="utf-8"
    )
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "cvagent_cli",
            "analyze",
            str(resume),
            "--watch",
            "--min-score",
            "99",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "NO_COLOR": "1", "COLUMNS": "100"},
    )
    try:
        deadline = time.monotonic() + 60
        lines: list[str] = []
        assert proc.stderr is not None
        while time.monotonic() < deadline:
            line = proc.stderr.readline()
            lines.append(line)
            if "watching" in line:
                break
        _bump(resume, resume.read_text(encoding="utf-8") + "\n- Cut costs by 20% for 300 users\n")
        while time.monotonic() < deadline:
            line = proc.stderr.readline()
            lines.append(line)
            if sum("watching" in x for x in lines) >= 2:
                break
        assert sum("watching" in x for x in lines) == 2, lines
        assert any("would exit 1" in x for x in lines)  # below --min-score, and it goes on
    finally:
        out, err = _interrupt(proc)
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    assert out.count("Score") >= 2


@pytest.mark.slow
def test_cli_ctrl_c_while_a_report_runs_ends_the_watch_with_0(
    tmp_path: Path, server: LoopbackServer, isolated_home: Path
) -> None:
    """The report's review waits on a slow model: Ctrl-C lands inside the run, every time."""
    resume = tmp_path / "resume.md"
    resume.write_text(
        (SAMPLES / "en_weak_generalist.md").read_text(encoding="utf-8"), encoding="utf-8"
    )
    server.enqueue(delay(120, text("A review.")))
    env = {
        **os.environ,
        "NO_COLOR": "1",
        "COLUMNS": "100",
        "CVAGENT_HOME": str(isolated_home),
        "OPENAI_API_KEY": "sk-test",
    }
    args = ["analyze", str(resume), "--watch", "--llm", "--model", "openai/test-model"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "cvagent_cli", *args, "--api-base", server.url],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not server.requests:
            time.sleep(0.2)  # the review's request has reached the model: the run is on
        assert server.requests, "the review never called the model"
    finally:
        _out, err = _interrupt(proc)
    assert proc.returncode == 0, err
    assert "stopped watching" in err
    assert "would exit 130" not in err
    assert "watching r" not in err  # no second round of the watch
