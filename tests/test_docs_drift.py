"""The generated reference pages in docs/ match the tables in the code they come from
(llm checks its README the same way with cog).  After changing a rule, a setting or a
provider error, run ``python docs/generate_reference.py`` and commit the pages."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GENERATOR = ROOT / "docs" / "generate_reference.py"

if not GENERATOR.is_file():  # an sdist ships tests but not docs/
    pytest.skip("docs/ is not part of this copy of cvagent", allow_module_level=True)


def load_generator():
    spec = importlib.util.spec_from_file_location("generate_reference", GENERATOR)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


generator = load_generator()


@pytest.mark.parametrize("relative", list(generator.PAGES))
def test_generated_page_matches_the_code(relative):
    path = generator.DOCS / relative
    assert path.is_file(), f"docs/{relative} is missing: run python docs/generate_reference.py"
    assert path.read_text(encoding="utf-8") == generator.PAGES[relative](), (
        f"docs/{relative} is out of date: run python docs/generate_reference.py"
    )


def test_the_reference_pages_are_the_ones_this_round_generates():
    assert {
        "reference/rules.md",
        "reference/configuration.md",
        "reference/provider-errors.md",
    } <= set(generator.PAGES)


def test_check_mode_exits_1_on_drift_and_names_the_page(tmp_path, monkeypatch):
    monkeypatch.setattr(generator, "DOCS", tmp_path)
    (tmp_path / "reference").mkdir()
    assert generator.main(["--check"]) == 1  # no pages at all
    assert generator.main([]) == 0
    assert generator.main(["--check"]) == 0
    page = tmp_path / "reference" / "rules.md"
    page.write_text(page.read_text(encoding="utf-8") + "hand edit\n", encoding="utf-8")
    assert generator.drifted() == ["reference/rules.md"]
    assert generator.main(["--check"]) == 1


@pytest.mark.slow
def test_the_script_runs_from_the_command_line():
    done = subprocess.run(
        [sys.executable, str(GENERATOR), "--check"], capture_output=True, text=True, cwd=ROOT
    )
    assert done.returncode == 0, done.stdout + done.stderr
