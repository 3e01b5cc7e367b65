"""No function in the package has a body longer than a screenful and a half (100 lines):
a longer one does several jobs, and each job deserves a name."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "cvagent_cli"
MAX_BODY_LINES = 100

# Functions still too long on this branch because another branch splits them
# (the chat start-up, the provider-error table).  Empty this set when those branches merge;
# the second test fails for an entry that is no longer long, so the list cannot go stale.
STILL_LONG: set[str] = set()


def body_lengths(root: Path = PACKAGE) -> dict[str, int]:
    """``path::name`` -> lines from a function's first statement (its docstring included)
    to its last line, for every function and method under ``root``."""
    lengths: dict[str, int] = {}
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                key = f"{path.relative_to(root).as_posix()}::{node.name}"
                length = (node.end_lineno or node.lineno) - node.body[0].lineno + 1
                lengths[key] = max(length, lengths.get(key, 0))
    return lengths


def test_no_function_body_is_longer_than_100_lines():
    too_long = {
        key: length
        for key, length in body_lengths().items()
        if length > MAX_BODY_LINES and key not in STILL_LONG
    }
    assert too_long == {}, f"split these into named steps: {too_long}"


def test_every_allowed_long_function_is_still_long():
    lengths = body_lengths()
    stale = sorted(key for key in STILL_LONG if lengths.get(key, 0) <= MAX_BODY_LINES)
    assert stale == [], f"no longer too long (or gone): remove from STILL_LONG: {stale}"


def test_the_measure_counts_a_long_body(tmp_path):
    """The check can fail: a 101-line body is found, a 100-line one is not."""
    (tmp_path / "m.py").write_text(
        "def long():\n" + "    x = 1\n" * 101 + "def short():\n" + '    """doc"""\n' * 100,
        encoding="utf-8",
    )
    assert body_lengths(tmp_path) == {"m.py::long": 101, "m.py::short": 100}
