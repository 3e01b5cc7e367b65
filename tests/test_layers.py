"""Dependencies run one way: cli → ui → agent → tools → documents / llm / workspace → analysis /
truth → document → store → base.

Every import in the package, including the lazy ones inside functions, is checked, so an
import cycle between two layers cannot come back unnoticed.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "cvagent_cli"

#: Higher ranks may import lower ranks (and themselves), never the other way round.
RANKS = {
    "cli": 9,
    "ui": 8,
    "agent": 7,
    "tools": 6,
    "llm": 5,
    "documents": 5,
    "workspace": 5,
    "analysis": 4,
    "truth": 4,
    "document": 3,
    "store": 2,
}
BASE = 0  # top-level modules: errors, paths, settings, secrets, yamlio …


def layer(module: str) -> str:
    parts = module.split(".")
    if len(parts) > 1 and parts[1] in RANKS:
        return parts[1]
    return "base"


def rank(module: str) -> int:
    return RANKS.get(layer(module), BASE)


def module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [f"{node.module}.{a.name}" for a in node.names]
            # `from cvagent_cli.truth import fencing` imports the module cvagent_cli.truth.fencing
            found += [(node.lineno, n) for n in names if n.startswith("cvagent_cli.")]
        elif isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.startswith("cvagent_cli")]
    return found


def violations() -> list[str]:
    bad = []
    for path in sorted(PACKAGE.rglob("*.py")):
        me = module_name(path)
        if me == "cvagent_cli.__main__":
            continue  # `python -m cvagent_cli` is an entry point, like the console script
        for line, target in imports_of(path):
            if layer(target) == layer(me):
                continue
            if rank(target) >= rank(me):
                bad.append(
                    f"{path.relative_to(PACKAGE.parent)}:{line}: {layer(me)} imports "
                    f"{layer(target)} ({target})"
                )
    return bad


def test_imports_point_down_the_layers_only():
    assert violations() == []


@pytest.mark.parametrize(
    ("module", "expected"),
    [
        ("cvagent_cli.agent.toolcall_agent", "agent"),
        ("cvagent_cli.tools", "tools"),
        ("cvagent_cli.errors", "base"),
        ("cvagent_cli", "base"),
    ],
)
def test_layer_names_modules_by_their_package(module, expected):
    assert layer(module) == expected


def test_an_upward_import_is_reported(tmp_path, monkeypatch):
    # The checker itself must be able to fail: a tools module importing the agent is caught.
    pkg = tmp_path / "cvagent_cli"
    (pkg / "tools").mkdir(parents=True)
    (pkg / "tools" / "bad.py").write_text(
        "def f():\n    from cvagent_cli.agent.events import Done\n", encoding="utf-8"
    )
    monkeypatch.setattr(__import__(__name__, fromlist=["PACKAGE"]), "PACKAGE", pkg)
    assert violations() == [
        "cvagent_cli/tools/bad.py:2: tools imports agent (cvagent_cli.agent.events.Done)"
    ]


def litellm_importers(package: Path) -> list[str]:
    """Modules that import litellm anywhere, lazily or not."""
    found = []
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            if any(n == "litellm" or n.startswith("litellm.") for n in names):
                found.append(str(path.relative_to(package.parent)))
    return sorted(set(found))


def test_only_the_loader_imports_litellm(tmp_path):
    # 2-3 s and ~150 MB: one module imports it, lazily (llm/loader.py, checked by the
    # start-up tests); everything else asks the loader.
    assert litellm_importers(PACKAGE) == ["cvagent_cli/llm/loader.py"]
    (tmp_path / "cvagent_cli").mkdir()
    (tmp_path / "cvagent_cli" / "x.py").write_text("def f():\n    from litellm import utils\n")
    assert litellm_importers(tmp_path / "cvagent_cli") == ["cvagent_cli/x.py"]
