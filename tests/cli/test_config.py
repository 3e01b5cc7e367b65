"""``cvagent config path / show / edit`` and the --help epilog, run in-process."""

from __future__ import annotations

import json
import re
import stat
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cvagent_cli.cli.app import EPILOG, PROJECT_URL, app
from cvagent_cli.settings import Settings, config_path
from tests.cli.conftest import ROOT

runner = CliRunner()


def cvagent(*args: str, env: dict[str, str] | None = None):
    return runner.invoke(app, list(args), env=env)


def write_config(text: str) -> Path:
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_path_lists_config_state_and_transcripts(isolated_home):
    result = cvagent("config", "path")
    assert result.exit_code == 0
    out = result.stdout
    assert f"config file       {isolated_home / 'config' / 'config.yaml'}  (not created yet)" in out
    assert str(isolated_home / "state" / "transcripts.sqlite3") in out
    assert "capability packs" in out


def test_show_names_each_source(monkeypatch):
    path = write_config("timeout: 30\nmax_steps: 4\n")
    monkeypatch.setenv("CVAGENT_MAX_STEPS", "6")
    result = cvagent("config", "show", "--model", "openai/gpt-4o-mini")
    assert result.exit_code == 0, result.output
    lines = {line.split()[0]: line for line in result.stdout.splitlines() if line.strip()}
    assert lines["model"].split()[1:] == ["openai/gpt-4o-mini", "flag"]
    assert lines["max_steps"].split()[1:] == ["6", "env", "(CVAGENT_MAX_STEPS)"]
    assert lines["timeout"].split()[1:] == ["30", "file", f"({path})"]
    assert lines["capability"].split()[1:] == ["base", "default"]


def test_show_lists_every_setting_as_json():
    data = json.loads(cvagent("config", "show", "--json").stdout)
    assert list(data["settings"]) == list(Settings.model_fields)
    assert data["settings"]["transcripts"] == {"value": True, "source": "default", "from": ""}


def test_show_json_writes_numbers_as_numbers(monkeypatch):
    """A number is a number in the JSON: "120" as a string failed a script comparing it to
    120."""
    write_config("timeout: 45\ntemperature: 0.3\n")
    monkeypatch.setenv("CVAGENT_MAX_STEPS", "6")
    settings = json.loads(cvagent("config", "show", "--json").stdout)["settings"]
    assert settings["timeout"]["value"] == 45 and settings["temperature"]["value"] == 0.3
    assert settings["max_steps"] == {"value": 6, "source": "env", "from": "CVAGENT_MAX_STEPS"}
    assert settings["model"]["value"] is None and settings["capability"]["value"] == "base"


@pytest.mark.slow
def test_edit_reports_every_invalid_key_at_once(fake_editor):
    result = cvagent(
        "config", "edit", env={"EDITOR": fake_editor + " 'timeout: soon\nmax_steps: 0\n'"}
    )
    assert result.exit_code == 3
    assert "2 problems" in result.stderr
    assert "'timeout'" in result.stderr and "'max_steps'" in result.stderr


def test_show_never_prints_keys(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-live-abcdefghijklmnop")
    monkeypatch.setenv("MISTRAL_API_KEY", "mistral-secret-value")
    monkeypatch.setenv("CVAGENT_API_BASE", "https://user:hunter2secret@llm.example.com:8443/v1")
    for args in (("config", "show"), ("config", "show", "--json")):
        result = cvagent(*args)
        assert result.exit_code == 0
        for secret in ("sk-live-abcdefghijklmnop", "mistral-secret-value", "hunter2secret"):
            assert secret not in result.output
    out = cvagent("config", "show").stdout
    assert "OPENAI_API_KEY     set" in out and "MISTRAL_API_KEY    set" in out
    assert "ANTHROPIC_API_KEY  not set" in out
    assert "https://user:***@llm.example.com:8443/v1" in out


def test_show_reports_a_bad_config_file_in_one_line():
    path = write_config("timeout: soon\n")
    result = cvagent("config", "show")
    assert result.exit_code == 3
    assert f"'timeout' in {path} must be a number, got 'soon'" in result.stderr
    assert "Traceback" not in result.output


@pytest.fixture
def fake_editor(tmp_path) -> str:
    """An 'editor' that records the file it was given and appends a setting to it."""
    script = tmp_path / "editor.py"
    script.write_text(
        "import sys, pathlib\n"
        "p = pathlib.Path(sys.argv[-1])\n"
        "pathlib.Path(sys.argv[0]).with_suffix('.seen').write_text(p.read_text())\n"
        "p.write_text(p.read_text() + ''.join(sys.argv[1:-1]))\n"
    )
    return f"{sys.executable} {script}"


@pytest.mark.slow
def test_edit_creates_the_file_from_a_commented_template(fake_editor, tmp_path):
    result = cvagent("config", "edit", env={"EDITOR": fake_editor + " 'max_steps: 3\n'"})
    assert result.exit_code == 0, result.output
    seen = (tmp_path / "editor.seen").read_text()
    for name in Settings.model_fields:  # every setting documented, all commented out
        assert f"# {name}:" in seen and f"CVAGENT_{name.upper()}" in seen
    assert stat.S_IMODE(config_path().stat().st_mode) == 0o600
    shown = cvagent("config", "show").stdout
    assert "max_steps          3" in shown


@pytest.mark.slow
def test_the_template_alone_is_a_valid_empty_config(fake_editor):
    assert cvagent("config", "edit", env={"VISUAL": fake_editor}).exit_code == 0
    data = json.loads(cvagent("config", "show", "--json").stdout)
    assert {s["source"] for s in data["settings"].values()} == {"default"}


@pytest.mark.slow
def test_edit_reports_what_the_user_got_wrong(fake_editor):
    result = cvagent("config", "edit", env={"EDITOR": fake_editor + " 'timeout: soon\n'"})
    assert result.exit_code == 3
    assert "'timeout'" in result.stderr and "must be a number" in result.stderr


@pytest.mark.slow
def test_edit_without_an_editor_is_one_clear_line(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # not even vi to fall back on
    result = cvagent("config", "edit")
    assert result.exit_code == 2
    assert "could not start an editor (none is set): no such program" in result.stderr
    assert "set $VISUAL or $EDITOR" in result.stderr
    assert "Traceback" not in result.output


@pytest.mark.slow
def test_edit_with_a_missing_editor_program_is_one_clear_line():
    result = cvagent("config", "edit", env={"EDITOR": "no-such-editor-cvagent"})
    assert result.exit_code == 2
    assert "could not start the editor 'no-such-editor-cvagent': no such program" in result.stderr


def test_help_epilog_points_to_the_project_page_not_a_file():
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    homepage = re.search(r'^Homepage = "(.+)"$', pyproject, re.MULTILINE).group(1)
    assert PROJECT_URL.startswith(homepage)
    assert "README.md" not in EPILOG
    assert "cvagent config show" in EPILOG
