"""The documentation agrees with the code: the generated reference pages are current, the
README's set-up commands are the ones CI runs, and the paths the guides name exist."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

DOCS = ROOT / "docs"


def _generator():
    spec = importlib.util.spec_from_file_location("reference_pages", DOCS / "reference_pages.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_one_generator_writes_every_interface_page():
    # docs/generate_reference.py is the one command; its drift test (test_docs_drift.py)
    # checks every page it writes, these included.
    spec = importlib.util.spec_from_file_location(
        "generate_reference", DOCS / "generate_reference.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert {p.removeprefix("docs/") for p in _generator().PAGES} <= set(module.PAGES)


def test_every_command_and_option_of_the_app_is_in_the_commands_page():
    text = (DOCS / "reference/commands.md").read_text(encoding="utf-8")
    for name, command, ctx in _generator()._commands():
        assert f"## `{name}`" in text
        for param in command.get_params(ctx):
            for opt in param.opts if param.param_type_name == "option" else []:
                assert opt in text, (name, opt)


@pytest.mark.slow
def test_a_real_analyze_report_matches_the_documented_json_schema():
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((DOCS / "reference/analyze-report.schema.json").read_text("utf-8"))
    samples = sorted((ROOT / "sample_resumes").glob("*.md"))
    jd = ROOT / "sample_resumes/jobs/en_backend.md"
    out = subprocess.run(
        [sys.executable, "-m", "cvagent_cli", "analyze", "--json", "-j", "1", "--jd", str(jd)]
        + [str(p) for p in samples],
        capture_output=True,
        check=True,
    )
    reports = [json.loads(line) for line in out.stdout.decode("utf-8").splitlines()]
    assert len(reports) == len(samples)
    for report in reports:
        jsonschema.validate(report, schema)
        assert report["jd"]["keywords"]  # the optional part is exercised too


def _code_lines(markdown: str) -> list[str]:
    return re.findall(r"```bash\n(.*?)\n```", markdown, re.S)


def test_the_readme_set_up_commands_are_what_ci_runs():
    """.ci/run installs "exactly as README.md says": each command of the README's two set-up
    lines is a line of .ci/run, in the same order (CI adds ruff and mypy between them)."""
    if not (ROOT / ".ci/run").exists():
        pytest.skip(".ci/run is not shipped in the sdist")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    setup = readme.split("## Set-up: two commands", 1)[1].split("\n## ", 1)[0]
    commands = _code_lines(setup)
    assert commands == [
        "pip install . && cvagent analyze sample_resumes/en_senior_backend.md",
        "pip install '.[test]' && python -m pytest -n 2 -q",
    ]
    ci = [line.strip() for line in (ROOT / ".ci/run").read_text(encoding="utf-8").splitlines()]
    position = 0
    for line in commands:
        for part in line.split(" && "):
            assert part in ci[position:], part
            position = ci.index(part, position) + 1


#: A path in backticks: "`cvagent_cli/ui/repl.py`", "`formats/html_export.py`",
#: "`tests/safety/`", "`layout.py`"; not a user's file ("`~/.config/…`", "`resume.md`").
NAMED_PATH = re.compile(r"`([\w.-]+(?:/[\w.-]+)*/?)`")
_TOP = {p.name for p in ROOT.iterdir()} | {
    p.name for p in (ROOT / "cvagent_cli").rglob("*") if p.is_dir() and p.name != "__pycache__"
}
PAGES = ["README.md", *sorted(str(p.relative_to(ROOT)) for p in DOCS.rglob("*.md"))]


_NOT_REPO = {
    ".git",
    ".venv",
    ".ci-venv",
    "__pycache__",
    ".mypy_cache",
    ".ruff_cache",
    ".pytest_cache",
}


def _repo_paths() -> set[str]:
    found: set[str] = set()
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in _NOT_REPO and not d.endswith(".egg-info")]
        base = Path(folder).relative_to(ROOT).as_posix()
        for name in [*dirs, *files]:
            path = name if base == "." else f"{base}/{name}"
            found.update((path, *_suffixes(path)))
    return found


def _suffixes(path: str) -> list[str]:
    """``a/b/c.py`` → ``b/c.py``, ``c.py``: how the guides name a file inside a folder."""
    parts = path.split("/")
    return ["/".join(parts[i:]) for i in range(1, len(parts))]


def _names_a_repo_path(token: str) -> bool:
    if "/" not in token:
        return token.endswith(".py")
    return token.split("/", 1)[0] in _TOP


@pytest.mark.parametrize("page", PAGES)
def test_every_repo_path_a_page_names_exists(page):
    """A file or folder of this repository that README or a page under docs/ names, in
    backticks, by its whole path or by its path inside a package ("`ui/repl.py`")."""
    known = _repo_paths()
    text = (ROOT / page).read_text(encoding="utf-8")
    named = {t for t in NAMED_PATH.findall(text) if _names_a_repo_path(t)}
    missing = sorted(t for t in named if t.rstrip("/") not in known)
    assert missing == []


def test_the_developer_guide_draws_the_layers_the_layer_test_enforces():
    from tests.test_layers import RANKS

    guide = (DOCS / "developer-guide.md").read_text(encoding="utf-8")
    diagram = guide.split("```text\n", 1)[1].split("```", 1)[0]
    rows = [line.split() for line in diagram.splitlines() if line and line[0].isdigit()]
    drawn = {name.rstrip("/").removesuffix(".py"): int(row[0]) for row in rows for name in row[1:]}
    assert drawn == {**RANKS, "base": 0}


#: "`ui/repl.py` `Repl.send`": a module of the package and a name in it
NAMED_FUNCTION = re.compile(r"`((?:\w+/)*\w+)\.py`\s+`(\w+(?:\.\w+)*)`")


def test_every_function_the_traced_request_names_exists():
    import importlib

    guide = (DOCS / "developer-guide.md").read_text(encoding="utf-8")
    trace = guide.split("## A request, from keystroke to file write", 1)[1].split("\n## ", 1)[0]
    named = NAMED_FUNCTION.findall(trace)
    assert len(named) >= 15  # the trace names its steps
    missing = []
    for path, dotted in named:
        try:
            obj = importlib.import_module("cvagent_cli." + path.replace("/", "."))
            for part in dotted.split("."):
                obj = getattr(obj, part)
        except (ImportError, AttributeError):
            missing.append(f"{path}.py {dotted}")
    assert missing == []
