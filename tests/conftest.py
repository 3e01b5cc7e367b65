"""Every test runs with its own CVAGENT_HOME, no model configured and no colour."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.support.slow_guard import _refuse_processes_unless_slow  # noqa: F401 (autouse)

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_resumes"


@pytest.fixture(autouse=True)
def isolated_home(tmp_path_factory, monkeypatch):
    home = tmp_path_factory.mktemp("cvagent-home")
    monkeypatch.setenv("CVAGENT_HOME", str(home))
    # every setting reads CVAGENT_<NAME>: none may leak in from the developer's shell
    import os

    for var in [v for v in os.environ if v.startswith("CVAGENT_") and v != "CVAGENT_HOME"]:
        monkeypatch.delenv(var, raising=False)
    for var in ("FORCE_COLOR", "VISUAL", "EDITOR"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    return home


@pytest.fixture
def samples() -> Path:
    return SAMPLES


@pytest.fixture
def server():
    """A strict loopback OpenAI-compatible server (tests/support/openai_server.py)."""
    from tests.support.openai_server import LoopbackServer

    with LoopbackServer() as srv:
        yield srv


@pytest.fixture
def resume(tmp_path):
    """A private copy of the 2-page English sample resume."""
    path = tmp_path / "resume.md"
    shutil.copy(SAMPLES / "en_senior_backend.md", path)
    return path


def sample_resume_paths() -> list[Path]:
    return sorted(SAMPLES.glob("*.md"))  # job descriptions live in jobs/


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        help="rewrite the golden images of tests/formats/test_visual.py from this run",
    )
