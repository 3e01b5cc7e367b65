"""``cvagent analyze`` as users run it: files, folders, stdin, JSON, exit codes, --llm."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.conftest import ROOT, TIMEOUT
from tests.conftest import SAMPLES
from tests.support.openai_server import Reply

WEAK = SAMPLES / "en_weak_generalist.md"
STRONG = SAMPLES / "en_senior_backend.md"


def analyze(args, *, stdin: bytes = b"", env: dict | None = None) -> subprocess.CompletedProcess:
    base = dict(os.environ, NO_COLOR="1", PYTHONIOENCODING="utf-8")
    base.pop("COLUMNS", None)  # piped output takes its width from COLUMNS when it is set
    base["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), base.get("PYTHONPATH", "")) if p)
    return subprocess.run(
        [sys.executable, "-m", "cvagent_cli", "analyze", *map(str, args)],
        input=stdin,
        capture_output=True,
        env={**base, **(env or {})},
        timeout=TIMEOUT,
        cwd=ROOT,
    )


@pytest.mark.slow
def test_report_names_score_categories_and_line_references():
    proc = analyze([WEAK])
    out = proc.stdout.decode()
    assert proc.returncode == 0, proc.stderr
    assert "Score" in out and "/100" in out
    for category in ("completeness", "impact", "clarity", "dates", "ats"):
        assert category in out
    assert "L15" in out and "Responsible for" in out
    assert "\x1b[" not in out  # plain text when piped


@pytest.mark.slow
def test_piped_resume_is_read_from_stdin():
    proc = analyze([], stdin=WEAK.read_bytes())
    assert proc.returncode == 0, proc.stderr
    assert "<stdin>" in proc.stdout.decode()


@pytest.mark.slow
def test_gbk_file_is_read_and_quoted_correctly(tmp_path):
    path = tmp_path / "gbk.md"
    path.write_bytes((SAMPLES / "zh_weak_operations.md").read_text(encoding="utf-8").encode("gbk"))
    proc = analyze([path, "--json"])
    report = json.loads(proc.stdout)
    assert report["basics"]["name"] == "张丽"
    assert any("负责" in (f["text"] or "") for f in report["findings"])


@pytest.mark.slow
def test_json_is_versioned_and_complete():
    report = json.loads(analyze([STRONG, "--json", "--jd", SAMPLES / "jobs/en_backend.md"]).stdout)
    assert report["schema_version"] == 1
    assert set(report) >= {
        "score",
        "categories",
        "findings",
        "stats",
        "basics",
        "sections",
        "jd",
        "scoring",
    }
    assert report["jd"]["coverage"] > 50 and "Node.js" in report["jd"]["missing"]


@pytest.mark.slow
def test_several_files_give_json_lines_one_object_each():
    proc = analyze([STRONG, WEAK, "--json"])
    lines = proc.stdout.decode().splitlines()
    assert [
        json.loads(line)["source"].endswith(name)
        for line, name in zip(
            lines, ["en_senior_backend.md", "en_weak_generalist.md"], strict=False
        )
    ] == [True, True]


@pytest.mark.slow
def test_folder_gives_a_batch_summary(tmp_path):
    for name in ("en_weak_generalist.md", "zh_new_grad.md"):
        shutil.copy(SAMPLES / name, tmp_path / name)
    out = analyze([tmp_path]).stdout.decode()
    assert "Batch summary" in out and "en_weak_generalist.md" in out and "王晓雨" in out


@pytest.mark.slow
@pytest.mark.parametrize("threshold, code", [(90, 1), (10, 0)])
def test_min_score_gates_ci(threshold, code):
    proc = analyze([WEAK, "--min-score", threshold])
    assert proc.returncode == code
    if code:
        assert "below --min-score" in proc.stderr.decode()


@pytest.mark.slow
def test_explain_prints_the_formula():
    assert "weighted mean" in analyze([STRONG, "--explain"]).stdout.decode()


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pty")
def test_explain_alone_on_a_terminal_prints_the_formula():
    """`cvagent analyze --explain` with no resume (stdin a terminal) says
    how the score is computed, not "no resume given"."""
    pexpect = pytest.importorskip("pexpect")
    env = dict(os.environ, NO_COLOR="1", PYTHONIOENCODING="utf-8")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    child = pexpect.spawn(
        sys.executable,
        ["-m", "cvagent_cli", "analyze", "--explain"],
        env=env,
        cwd=str(ROOT),
        encoding="utf-8",
        timeout=TIMEOUT,
        dimensions=(40, 100),
    )
    out = child.read()
    child.close()
    assert child.exitstatus == 0, out
    assert "How the score is computed" in out and "weighted mean" in out
    assert "no resume given" not in out


@pytest.mark.slow
@pytest.mark.parametrize("stdin", ["devnull", "closed pipe"])
def test_explain_alone_in_ci_prints_the_formula(stdin):
    """With stdin not a terminal but empty (CI), `--explain` alone prints
    the formula, not "standard input is empty"."""
    if stdin == "devnull":
        env = dict(os.environ, NO_COLOR="1", PYTHONIOENCODING="utf-8", PYTHONPATH=str(ROOT))
        proc = subprocess.run(
            [sys.executable, "-m", "cvagent_cli", "analyze", "--explain"],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            env=env,
            timeout=TIMEOUT,
            cwd=ROOT,
        )
    else:
        proc = analyze(["--explain"], stdin=b"")
    assert proc.returncode == 0, proc.stderr
    assert "weighted mean" in proc.stdout.decode()


@pytest.mark.slow
def test_explain_with_a_piped_resume_still_analyzes_it():
    proc = analyze(["--explain"], stdin=WEAK.read_bytes())
    assert proc.returncode == 0, proc.stderr
    assert "<stdin>" in proc.stdout.decode() and "weighted mean" in proc.stdout.decode()


@pytest.mark.slow
def test_an_empty_job_description_is_named_as_one(tmp_path):
    empty = _write(tmp_path / "jd.md", b"")
    proc = analyze([STRONG, "--jd", empty])
    err = proc.stderr.decode()
    assert proc.returncode == 2
    assert "is empty; there is no job description to read" in err and "resume" not in err


def _write(path, data: bytes):
    path.write_bytes(data)
    return path


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda d: d / "missing.md", "no such file"),
        (lambda d: d, "folder with no resume files"),
        (lambda d: _write(d / "cv.pdf", b"%PDF-1.7\n"), "PDF"),
    ],
)
@pytest.mark.slow
def test_bad_input_is_one_line_exit_2_no_traceback(tmp_path, make, message):
    proc = analyze([make(tmp_path)])
    err = proc.stderr.decode()
    assert proc.returncode == 2 and message in err and "Traceback" not in err


@pytest.mark.slow
def test_llm_review_streams_from_the_configured_model(server, isolated_home):
    server.enqueue(
        Reply(
            text="**Strengths**\n- Clear metrics\n\n**Three most valuable rewrites**\n1. Before: x After: y"
        )
    )
    env = {
        "CVAGENT_HOME": str(isolated_home),
        "CVAGENT_MODEL": "openai/test-model",
        "CVAGENT_API_BASE": server.url,
        "OPENAI_API_KEY": "sk-test-1234567890",
    }
    proc = analyze([STRONG, "--llm"], env=env)
    assert proc.returncode == 0, proc.stderr
    assert "Three most valuable rewrites" in proc.stdout.decode()
    sent = server.requests[0]["messages"]
    assert "<untrusted" in sent[1]["content"] and "Offline score" in sent[1]["content"]


@pytest.mark.slow
def test_llm_review_with_json_is_one_valid_json_object(server, isolated_home):
    """The review goes in the report's `review` field, not after it."""
    server.enqueue(Reply(text="**Strengths**\n- Clear metrics"))
    env = {
        "CVAGENT_HOME": str(isolated_home),
        "CVAGENT_MODEL": "openai/test-model",
        "CVAGENT_API_BASE": server.url,
        "OPENAI_API_KEY": "sk-test-1234567890",
    }
    proc = analyze([STRONG, "--llm", "--json"], env=env)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["review"]["text"] == "**Strengths**\n- Clear metrics"
    assert report["review"]["model"] == "openai/test-model" and report["score"] > 0


@pytest.mark.slow
def test_llm_review_without_a_model_names_what_to_set(isolated_home):
    proc = analyze([STRONG, "--llm"], env={"CVAGENT_HOME": str(isolated_home)})
    err = proc.stderr.decode()
    assert proc.returncode == 3 and "no model configured" in err and "CVAGENT_MODEL" in err
    assert proc.stdout == b""  # checked first: no report printed before the error


@pytest.mark.slow
def test_a_folder_says_which_files_it_skipped(tmp_path):
    shutil.copy(SAMPLES / "en_senior_backend.md", tmp_path / "cv.md")
    (tmp_path / "photo.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    proc = analyze([str(tmp_path), "--json"])
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["source"].endswith("cv.md")  # one report: the .md
    assert "skipped photo.png: not a resume file (.md" in proc.stderr.decode()


# -- the batch table as users see it: piped (100 columns) and on 80- and 60-column terminals --
def _weak_numbers() -> list[int]:
    """The numbers the batch table shows for the weak sample, from the analyzer itself:
    its score, each category's score, the number of findings."""
    from cvagent_cli.analysis.analyzer import analyze
    from cvagent_cli.analysis.schema import CATEGORIES
    from cvagent_cli.document.document import ResumeDocument

    report = analyze(ResumeDocument.from_path(WEAK))
    return [report.score, *(report.category(c).score for c in CATEGORIES), len(report.findings)]


def _batch_part(text: str) -> list[str]:
    lines = [line.rstrip() for line in text.replace("\r", "").splitlines()]
    start = next(i for i, line in enumerate(lines) if line.strip() == "Batch summary")
    return lines[start:]


@pytest.mark.slow
def test_piped_batch_table_headers_and_scores_are_whole():
    proc = analyze([SAMPLES])
    assert proc.returncode == 0, proc.stderr
    lines = _batch_part(proc.stdout.decode())
    assert not any("…" in line for line in lines), lines
    assert max(len(line) for line in lines) <= 100
    weak = next(line for line in lines if "en_weak_generalist.md" in line)
    assert weak.split()[-7:] == [str(n) for n in _weak_numbers()], weak


@pytest.mark.slow
def test_piped_output_is_as_wide_as_columns_says():
    """`COLUMNS=60 cvagent analyze … | tail` fits 60 columns."""
    proc = analyze([SAMPLES], env={"COLUMNS": "60"})
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.decode().splitlines()
    from rich.cells import cell_len

    assert max(cell_len(line) for line in lines) <= 60
    assert "en_weak_generalist.md" in proc.stdout.decode()


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pty")
@pytest.mark.parametrize("columns", [80, 60])
def test_batch_table_fits_a_narrow_terminal(columns):
    import re

    pexpect = pytest.importorskip("pexpect")
    from rich.cells import cell_len

    env = dict(os.environ, TERM="xterm-256color", COLUMNS=str(columns), LINES="40")
    env.pop("NO_COLOR", None)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    child = pexpect.spawn(
        sys.executable,
        ["-m", "cvagent_cli", "analyze", str(SAMPLES)],
        env=env,
        cwd=str(ROOT),
        dimensions=(40, columns),
        encoding="utf-8",
        timeout=TIMEOUT,
    )
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07", "", child.before)
    lines = _batch_part(text)
    assert not any("…" in line for line in lines), lines
    assert all(cell_len(line) <= columns for line in lines), lines
    assert sum("Jessica M. Turner" in line for line in lines) == 1
    at = next(i for i, line in enumerate(lines) if "en_weak_generalist.md" in line)
    numbers = iter(int(n) for n in re.findall(r"\b\d+\b", " ".join(lines[at : at + 3])))
    assert all(n in numbers for n in _weak_numbers()), lines[at : at + 3]


# -- --jobs --------------------------------------------------------------------------------
def _batch_folder(folder, count: int, *, longer: int = 1):
    samples = sorted(SAMPLES.glob("*.md"))
    for i in range(count):
        text = samples[i % len(samples)].read_text(encoding="utf-8")
        if longer > 1 or i < 3:  # a few long ones first: the pool finishes out of order
            text += "\n" + text.split("\n", 1)[1] * (longer if longer > 1 else 12)
        (folder / f"r{i:04d}.md").write_text(text, encoding="utf-8")
    return folder


@pytest.mark.slow
def test_jobs_2_prints_what_jobs_1_prints_errors_included(tmp_path):
    folder = _batch_folder(tmp_path, 40)
    _write(folder / "r0007.md", b"\x00\x01binary")
    one, two = (analyze([folder, "--json", "--jobs", n]) for n in ("1", "2"))
    assert one.returncode == two.returncode == 2  # one unreadable file: reported, not fatal
    assert two.stdout == one.stdout
    sources = [json.loads(line)["source"] for line in two.stdout.decode().splitlines()]
    assert sources == sorted(str(p) for p in folder.glob("*.md") if p.name != "r0007.md")
    err = two.stderr.decode()
    assert "r0007.md looks like a binary file" in err and "Traceback" not in err
    # the table too: the same per-file reports and summary, in the same order
    table_one, table_two = (analyze([folder, "-j", n]) for n in ("1", "2"))
    assert table_two.stdout == table_one.stdout and b"Batch summary" in table_two.stdout


@pytest.mark.slow
def test_jobs_2_json_names_the_files_below_min_score(tmp_path):
    # --json reports come back as text from the workers, with their score and source
    folder = _batch_folder(tmp_path, 30)
    one, two = (analyze([folder, "--json", "--min-score", "70", "-j", n]) for n in ("1", "2"))
    assert one.returncode == two.returncode == 1
    assert two.stdout == one.stdout and two.stderr == one.stderr
    weak = [json.loads(line) for line in two.stdout.decode().splitlines()]
    below = [f"{r['source']} ({r['score']})" for r in weak if r["score"] < 70]
    assert below and two.stderr.decode().strip().endswith(", ".join(below))


@pytest.mark.slow
@pytest.mark.parametrize("value", ["0", "-2"])
def test_jobs_below_one_is_a_one_line_usage_error(tmp_path, value):
    proc = analyze([STRONG, "--jobs", value])
    err = proc.stderr.decode().strip()
    assert proc.returncode == 2
    assert err == f"cvagent: error: --jobs must be 1 or more, not {value}"


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="process groups and SIGINT")
def test_ctrl_c_stops_the_pool_and_exits_130(tmp_path):
    import signal
    import time

    folder = _batch_folder(tmp_path, 400, longer=8)
    base = dict(os.environ, NO_COLOR="1", PYTHONIOENCODING="utf-8")
    base["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), base.get("PYTHONPATH", "")) if p)
    proc = subprocess.Popen(
        [sys.executable, "-m", "cvagent_cli", "analyze", str(folder), "--json", "-j", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=base,
        cwd=ROOT,
        start_new_session=True,  # its own process group, as a terminal's foreground job
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline()  # results are flowing
        children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()
        assert children, "no worker processes"
        os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C reaches the whole foreground group
        _, err = proc.communicate(timeout=TIMEOUT)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130
    assert "interrupted" in err.decode() and "Traceback" not in err.decode()

    def running(pid: str) -> bool:  # a zombie left to a container's init has finished
        try:
            return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
        except OSError:
            return False

    deadline = time.monotonic() + TIMEOUT
    while any(running(pid) for pid in children):
        assert time.monotonic() < deadline, "worker processes left running"
        time.sleep(0.05)


@pytest.mark.slow
@pytest.mark.parametrize("json_out", [False, True])
def test_a_closed_pipe_exits_quietly_with_0(json_out):
    """`cvagent analyze … | head -1`: the reader has what it wanted; exit
    1 would read as "below --min-score".  Enough output (~150 KB) that the writer is still
    writing when the pipe closes."""
    base = dict(os.environ, NO_COLOR="1", PYTHONIOENCODING="utf-8")
    base["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), base.get("PYTHONPATH", "")) if p)
    files = [str(p) for p in sorted(SAMPLES.glob("*.md"))] * 6
    args = ["--json"] if json_out else ["--all"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "cvagent_cli", "analyze", *files, *args, "--min-score", "99"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=base,
        cwd=ROOT,
    )
    assert proc.stdout is not None and proc.stderr is not None
    try:
        assert proc.stdout.readline()
        proc.stdout.close()
        code = proc.wait(timeout=TIMEOUT)  # the pool's workers are stopped, not waited on
    finally:
        if proc.poll() is None:
            proc.kill()
    err = proc.stderr.read().decode()
    assert code == 0, err
    assert "Traceback" not in err and "Exception ignored" not in err
