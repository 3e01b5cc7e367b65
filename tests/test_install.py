"""The command a missing-extra hint gives, for each way cvagent can be installed: the
package is not on the index, so `pip install 'cvagent[documents]'` fails for
a checkout."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from cvagent_cli.install import Origin, extra_install_command, origin

CHECKOUT = Path("/home/ann/src/cvagent")


@pytest.fixture
def prefixes(tmp_path):
    """A plain virtual environment, a pipx one and a uv tool one, by their marker files."""
    made = {}
    for name, marker in (("venv", None), ("pipx", "pipx_metadata.json"), ("uv", "uv-receipt.toml")):
        root = tmp_path / name
        root.mkdir()
        if marker:
            (root / marker).write_text("{}")
        made[name] = root
    return made


@pytest.mark.parametrize(
    ("where", "prefix", "expected"),
    [
        (Origin(folder=CHECKOUT), "venv", "install '/home/ann/src/cvagent[documents]'"),
        (
            Origin(folder=CHECKOUT, editable=True),
            "venv",
            "install -e '/home/ann/src/cvagent[documents]'",
        ),
        (
            Origin(folder=CHECKOUT),
            "pipx",
            "pipx install --force '/home/ann/src/cvagent[documents]'",
        ),
        (
            Origin(folder=CHECKOUT),
            "uv",
            "uv tool install --force '/home/ann/src/cvagent[documents]'",
        ),
        (
            Origin(archive="file:///tmp/cvagent-0.1.0-py3-none-any.whl"),
            "venv",
            "install 'cvagent[documents] @ file:///tmp/cvagent-0.1.0-py3-none-any.whl'",
        ),
        (Origin(), "venv", "install 'cvagent[documents]'"),  # from an index, once published
    ],
)
def test_the_hint_fits_how_cvagent_was_installed(where, prefix, expected, prefixes):
    command = extra_install_command("documents", where, prefix=prefixes[prefix])
    assert command.endswith(expected), command
    if "pipx" not in expected and "uv tool" not in expected:
        assert command.startswith(("pip install", f"{sys.executable} -m pip install"))


def test_a_path_with_a_space_is_quoted(prefixes):
    where = Origin(folder=Path("/a b/cv"))
    command = extra_install_command("documents", where, prefix=prefixes["venv"])
    assert command.endswith("install '/a b/cv[documents]'")


def test_origin_reads_pep_610_direct_url(monkeypatch):
    from importlib import metadata

    class Dist:
        def __init__(self, data):
            self.data = data

        def read_text(self, name):
            assert name == "direct_url.json"
            return None if self.data is None else json.dumps(self.data)

    cases = [
        (
            {"url": "file:///src/cv%20agent", "dir_info": {"editable": True}},
            Origin(Path("/src/cv agent"), True),
        ),
        ({"url": "file:///src/cvagent", "dir_info": {}}, Origin(Path("/src/cvagent"))),
        (
            {"url": "https://x/cvagent.whl", "archive_info": {}},
            Origin(archive="https://x/cvagent.whl"),
        ),
        (None, Origin()),  # installed from an index: no direct_url.json
    ]
    for data, expected in cases:
        monkeypatch.setattr(metadata, "distribution", lambda name, d=data: Dist(d))
        assert origin() == expected
