"""Dependencies run one way: cli → ui → agent → tools → formats / llm / workspace → analysis /
truth → document → store → languages → base.

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
    "formats": 5,
    "workspace": 5,
    "analysis": 4,
    "truth": 4,
    "document": 3,
    "store": 2,
    "languages": 1,
}
BASE = 0  # top-level modules: errors, paths, settings, secrets, yamlio …


def layer(module: str) -> str:
    parts = module.split(".")
    if len(parts) > 1 and parts[1] in RANKS:
        return parts[1]
    return "base"


def rank(module: str) -> int:
    return RANKS.get(layer(module), BASE)


def module_name(path: Path, package: Path | None = None) -> str:
    rel = path.relative_to((package or PACKAGE).parent).with_suffix("")
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


#: Inside ``formats/``: opening a document uses the importer; the importer (``reading``)
#: may use the data formats (a JSON Resume file) and the writers' library checks; the
#: exporter picks a writer or a data format; writing and the data formats read only the
#: document model and the format table below them.
DOCUMENTS_RANKS = {"opening": 4, "reading": 3, "exporter": 3, "writing": 2, "interchange": 2}
DOCUMENTS_BASE = 1  # formats, markdown_source: the table of formats and Markdown text helpers


def documents_part(module: str) -> str | None:
    parts = module.split(".")
    if parts[:2] != ["cvagent_cli", "formats"] or len(parts) < 3:
        return None
    return parts[2] if parts[2] in DOCUMENTS_RANKS else "base"


def documents_violations(package: Path) -> list[str]:
    bad = []
    for path in sorted((package / "formats").rglob("*.py")):
        me = documents_part(module_name(path, package))
        for line, target in imports_of(path):
            them = documents_part(target)
            if me is None or them is None or them == me:
                continue
            mine = DOCUMENTS_RANKS.get(me, DOCUMENTS_BASE)
            if DOCUMENTS_RANKS.get(them, DOCUMENTS_BASE) >= mine:
                bad.append(f"{path.relative_to(package.parent)}:{line}: {me} imports {target}")
    return bad


def test_imports_inside_documents_point_down_only(tmp_path):
    assert documents_violations(PACKAGE) == []
    # the check can fail: a writer reading the importer, the format table using a writer
    pkg = tmp_path / "cvagent_cli"
    (pkg / "formats" / "writing").mkdir(parents=True)
    (pkg / "formats" / "writing" / "w.py").write_text(
        "def f():\n    from cvagent_cli.formats.reading.importer import import_file\n"
    )
    (pkg / "formats" / "file_types.py").write_text(
        "from cvagent_cli.formats.interchange import ecosystem\n"
    )
    assert documents_violations(pkg) == [
        "cvagent_cli/formats/file_types.py:1: base imports cvagent_cli.formats.interchange.ecosystem",
        "cvagent_cli/formats/writing/w.py:2: writing imports "
        "cvagent_cli.formats.reading.importer.import_file",
    ]


def import_cycles(package: Path) -> set[frozenset[str]]:
    """Modules that import each other, round a loop (lazy imports inside functions too)."""
    modules = {module_name(p, package): p for p in package.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        graph[name] = set()
        for _, target in imports_of(path):
            while target and target not in modules:  # a name in a module: the module
                target = target.rpartition(".")[0]
            if target and target != name:
                graph[name].add(target)
    reach = {name: _reachable(graph, name) for name in graph}
    return {
        frozenset(n for n in graph if n in reach[name] and name in reach[n]) | {name}
        for name in graph
        if name in reach[name]
    }


def _reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = list(graph[start])
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(graph[name])
    return seen


#: Import cycles allowed inside the package: none (the test fails on any new one).
KNOWN_CYCLES: set[frozenset[str]] = set()


def test_no_import_cycles(tmp_path):
    assert import_cycles(PACKAGE) == KNOWN_CYCLES
    pkg = tmp_path / "cvagent_cli"
    pkg.mkdir()
    (pkg / "a.py").write_text("from cvagent_cli.b import x\n")
    (pkg / "b.py").write_text("def x():\n    from cvagent_cli.a import y\n")
    assert import_cycles(pkg) == {frozenset({"cvagent_cli.a", "cvagent_cli.b"})}


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
