"""Every test runs with its own CVAGENT_HOME, no model configured and no colour."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_resumes"


@pytest.fixture(autouse=True)
def isolated_home(tmp_path_factory, monkeypatch):
    home = tmp_path_factory.mktemp("cvagent-home")
    monkeypatch.setenv("CVAGENT_HOME", str(home))
    for var in ("CVAGENT_MODEL", "CVAGENT_API_BASE", "CVAGENT_TIMEOUT", "FORCE_COLOR"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    return home


@pytest.fixture
def samples() -> Path:
    return SAMPLES


def sample_resume_paths() -> list[Path]:
    return sorted(p for p in SAMPLES.glob("*.md") if not p.name.startswith(("jd_", "README")))
