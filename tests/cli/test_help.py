"""What ``--help`` shows: usage lines as click writes them, no ``<bool>``
after a flag, and the ``--min-score`` exit code only where that option exists."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from cvagent_cli.cli.app import app

COMMANDS = [
    ["analyze"],
    ["chat"],
    ["export"],
    ["import"],
    ["config"],
    ["config", "show"],
    ["config", "path"],
    ["config", "edit"],
    ["log"],
    ["log", "on"],
    [],
]


def help_text(args: list[str]) -> str:
    result = CliRunner().invoke(app, [*args, "--help"], env={"COLUMNS": "100", "NO_COLOR": "1"})
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a) or "cvagent")
def test_help_shows_no_bool_after_a_flag_and_no_braces_in_usage(args):
    text = help_text(args)
    assert "<bool>" not in text
    usage = next(line for line in text.splitlines() if "Usage:" in line)
    assert "{" not in usage and "}" not in usage, usage
    assert "Exit codes:" in text or len(args) == 2  # a group's subcommands: on the group
    assert ("below --min-score" in text) == (args == ["analyze"])


@pytest.mark.parametrize(
    ("args", "usage"),
    [
        (["import"], "cvagent import [OPTIONS] FILE"),
        (["export"], "cvagent export [OPTIONS] RESUME"),
        (["chat"], "cvagent chat [OPTIONS] [RESUME]"),
        (["analyze"], "cvagent analyze [OPTIONS] [PATHS]..."),
    ],
)
def test_usage_lines_name_arguments_in_capitals(args, usage):
    assert usage in re.sub(r"\s+", " ", help_text(args))


def test_a_missing_argument_shows_the_same_usage_line():
    result = CliRunner().invoke(app, ["import"], env={"COLUMNS": "100", "NO_COLOR": "1"})
    assert result.exit_code == 2
    assert "cvagent import [OPTIONS] FILE" in result.output
