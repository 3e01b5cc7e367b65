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


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (
            ["analyze", "--min-score", "abc", "r.md"],
            "'--min-score': expected a whole number, got 'abc'",
        ),
        (
            ["analyze", "--min-score", "150", "r.md"],
            "'--min-score': expected at most 100, got '150'",
        ),
        (["chat", "--max-steps", "x"], "'--max-steps': expected a whole number, got 'x'"),
        (["log", "-n", "0"], "'--count': expected at least 1, got '0'"),
        (["nonsense"], "no such command 'nonsense'"),
        (["config", "set"], "no such command 'set'"),
        (["chat", "--modle", "x"], "no such option: --modle"),
        (["import"], "missing argument"),
    ],
)
def test_a_usage_error_is_one_line_with_a_hint_like_every_error(args, words):
    """Issue 34, item 20: typer drew these in a box under a Usage line, in pydantic's
    words ("Input should be a valid integer, unable to parse string as an integer")."""
    result = CliRunner().invoke(app, args, env={"COLUMNS": "100", "NO_COLOR": "1"})
    assert result.exit_code == 2, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("cvagent: error: ") and words in lines[0], lines
    assert len(lines) == 2 and lines[1].startswith("  hint: "), lines
    assert "-h" in lines[1]
    assert "Input should" not in result.output and "╭" not in result.output


def test_help_shows_each_value_of_a_repeated_option_not_a_list():
    for args in (["chat"], ["analyze"]):
        text = help_text(args)
        assert "list[" not in text
    assert re.search(r"--message\s+-m\s+<str>", help_text(["chat"]))


def test_model_help_is_whole_at_80_columns():
    """The type column (``<int range> [1<=x<=50]``) left the help column too narrow for a
    model name, cut with "…"; the [env: …] note was eaten as rich markup."""
    result = CliRunner().invoke(app, ["chat", "--help"], env={"COLUMNS": "80", "NO_COLOR": "1"})
    text = result.output
    assert "anthropic/claude-3-5-sonnet-latest" in text
    assert "[env:" in text and "CVAGENT_MODEL]" in text and "CVAGENT_API_BASE]" in text


def test_cvagent_alone_still_shows_the_help():
    result = CliRunner().invoke(app, [], env={"COLUMNS": "100", "NO_COLOR": "1"})
    assert "Commands" in result.output and "cvagent: error" not in result.output
