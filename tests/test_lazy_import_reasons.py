"""A function-level import is a start-up measure and says so in a comment (developer guide,
"Layers"): the import line, or the comment line right above the run of imports it belongs
to, gives the reason. An import that has no start-up reason belongs at the module's top."""

from __future__ import annotations

import ast
import io
import tokenize
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "cvagent_cli"

#: Each sub-package, and "base" for the top-level modules (cvagent_cli/*.py).
PACKAGES = sorted(
    p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()
) + ["base"]


def files_of(package: str, root: Path = PACKAGE) -> list[Path]:
    if package == "base":
        return sorted(root.glob("*.py"))
    return sorted((root / package).rglob("*.py"))


def comment_lines(source: str) -> tuple[set[int], set[int]]:
    """The lines that hold a comment, and those that hold nothing but one."""
    anywhere: set[int] = set()
    code: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            anywhere.add(token.start[0])
        elif token.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT):
            code.update(range(token.start[0], token.end[0] + 1))
    return anywhere, anywhere - code


def _runs(body: list[ast.stmt]) -> list[list[ast.Import | ast.ImportFrom]]:
    """The imports of one block that follow each other with no other statement between
    them (blank lines between the sections of a sorted group are allowed)."""
    runs: list[list[ast.Import | ast.ImportFrom]] = []
    run: list[ast.Import | ast.ImportFrom] = []
    for stmt in body:
        if isinstance(stmt, ast.Import | ast.ImportFrom):
            run.append(stmt)
        elif run:
            runs.append(run)
            run = []
    return runs + [run] if run else runs


def _blocks(node: ast.AST) -> list[list[ast.stmt]]:
    """The statement lists right under ``node``: body, else, finally, except and case blocks."""
    blocks = [getattr(node, name, None) for name in ("body", "orelse", "finalbody")]
    blocks += [h.body for h in getattr(node, "handlers", [])]
    blocks += [c.body for c in getattr(node, "cases", [])]
    return [b for b in blocks if isinstance(b, list)]


def unexplained_imports(path: Path) -> list[int]:
    """Lines of the imports inside function bodies that give no reason in a comment."""
    source = path.read_text(encoding="utf-8")
    anywhere, alone = comment_lines(source)
    bad: list[int] = []
    for function in ast.walk(ast.parse(source)):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for node in ast.walk(function):
            for body in _blocks(node):
                for run in _runs(body):
                    # a comment line right above an import explains it and the rest of its run
                    explained = False
                    for stmt in run:
                        explained = explained or stmt.lineno - 1 in alone
                        lines = range(stmt.lineno, (stmt.end_lineno or stmt.lineno) + 1)
                        if not explained and not anywhere.intersection(lines):
                            bad.append(stmt.lineno)
    return sorted(set(bad))  # a nested function is walked from each one around it too


def unexplained(package: str, root: Path = PACKAGE) -> list[str]:
    return [
        f"{path.relative_to(root.parent)}:{line}"
        for path in files_of(package, root)
        for line in unexplained_imports(path)
    ]


@pytest.mark.parametrize("package", PACKAGES)
def test_every_function_level_import_gives_its_reason(package):
    assert unexplained(package) == []


def test_the_checker_flags_an_import_without_a_reason(tmp_path):
    pkg = tmp_path / "cvagent_cli"
    pkg.mkdir()
    source = """\
import os

def explained():
    # lazy: the command's modules load when it runs
    import json

    from decimal import (
        Decimal,
    )
    x = 1
    import csv  # lazy: only the export needs it
    import zlib
    # lazy: heavy
    import gzip
    import bz2

def unexplained():
    import json
    if True:
        import csv
    '# a string is no comment'
    import zlib

    # a comment above a blank line explains nothing

    import gzip
    def inner():
        import bz2
    x = '# nor is this'; import lzma
"""
    (pkg / "m.py").write_text(source, encoding="utf-8")
    flagged = [int(hit.rpartition(":")[2]) for hit in unexplained("base", pkg)]
    assert [source.splitlines()[n - 1].strip() for n in flagged] == [
        "import zlib",  # explained() (csv's own comment is csv's alone)
        "import json",
        "import csv",
        "import zlib",
        "import gzip",
        "import bz2",
        "x = '# nor is this'; import lzma",
    ]
