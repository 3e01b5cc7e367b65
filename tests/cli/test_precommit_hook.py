"""The pre-commit hook in .pre-commit-hooks.yaml, run by pre-commit itself on a temporary
repository: it checks the resumes a commit changes, offline, and fails below --min-score."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_resumes"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("git") is None, reason="needs git"),
    pytest.mark.skipif(not (ROOT / ".git").exists(), reason="needs a git checkout of cvagent"),
]


def _git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
        cwd=repo,
        check=True,
        capture_output=True,
    )


def _try_repo(repo: Path, home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PRE_COMMIT_HOME": str(home), "NO_COLOR": "1"}
    env.pop("CVAGENT_MODEL", None)  # the hook must not need a model
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(ROOT), "cvagent-analyze"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )


def test_hook_fails_a_weak_changed_resume_and_passes_a_strong_one(tmp_path: Path) -> None:
    pytest.importorskip("pre_commit")
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q")
    (repo / "resume.md").write_text(
        (SAMPLES / "en_weak_generalist.md").read_text(encoding="utf-8"), encoding="utf-8"
    )
    (repo / "notes.md").write_text("not a resume: the hook leaves it alone\n", encoding="utf-8")
    _git(repo, "add", ".")

    weak = _try_repo(repo, tmp_path / "home")
    assert weak.returncode == 1, weak.stdout + weak.stderr
    assert "below --min-score 60: resume.md" in weak.stdout
    assert "notes.md" not in weak.stdout
    assert "Traceback" not in weak.stdout + weak.stderr

    # commit it anyway; a later commit that changes only a strong resume passes
    _git(repo, "commit", "-q", "--no-verify", "-m", "weak")
    (repo / "cv.md").write_text(
        (SAMPLES / "en_new_grad.md").read_text(encoding="utf-8"), encoding="utf-8"
    )
    _git(repo, "add", "cv.md")
    strong = _try_repo(repo, tmp_path / "home")
    assert strong.returncode == 0, strong.stdout + strong.stderr
    assert "Passed" in strong.stdout
