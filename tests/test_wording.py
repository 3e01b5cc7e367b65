"""Counted nouns and sentences: the one helper every user-facing count goes through."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cvagent_cli.wording import plural, retry_wait, sentence


@pytest.mark.parametrize(
    ("count", "noun", "expected"),
    [
        (0, "finding", "0 findings"),
        (1, "finding", "1 finding"),
        (2, "finding", "2 findings"),
        (1, "more finding", "1 more finding"),
        (3, "more finding", "3 more findings"),
        (2, "match", "2 matches"),
        (2, "entry", "2 entries"),
        (1, "info", "1 info"),
        (2, "info", "2 infos"),
    ],
)
def test_plural(count: int, noun: str, expected: str) -> None:
    assert plural(count, noun) == expected


def test_plural_irregular_and_thousands() -> None:
    assert plural(2, "person", "people") == "2 people"
    assert plural(1, "person", "people") == "1 person"
    assert plural(1234, "token", thousands=True) == "1,234 tokens"
    assert plural(1, "token", thousands=True) == "1 token"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("too long", "too long."),
        ("too long.", "too long."),
        ("  too long.  ", "too long."),
        ("why?", "why?"),
        ("no!", "no!"),
        ("太长了。", "太长了。"),
        ("", ""),
        ("   ", ""),
    ],
)
def test_sentence_ends_with_exactly_one_full_stop(text: str, expected: str) -> None:
    assert sentence(text) == expected


PACKAGE = Path(__file__).resolve().parents[1] / "cvagent_cli"
# "{…} findings" in an f-string: a count followed by a plural noun, written by hand
COUNTED = re.compile(
    r"(?<!/)\{[^{}]*(len\(|count|n\}|total|pending|skipped|turns|words|lines|removed)[^{}]*\} "
    r"(more )?(message|edit|finding|line|section|word|bullet|tool|turn|day|step|error|warning)s\b"
)
ALLOWED = {  # files the lead is changing; their counts are of a kind that is never 1
    "cvagent_cli/agent/prompts.py",
    "cvagent_cli/agent/toolcall_agent.py",
    "cvagent_cli/document/document.py",  # repr, not user-facing
}


def test_no_hand_written_counted_plurals_are_left() -> None:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE.parent).as_posix()
        if rel in ALLOWED or rel.startswith("cvagent_cli/llm/"):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if (
                COUNTED.search(line)
                or re.search(r"\{'s' if|\{'' if .* else 's'\}", line)
                or (('f"' in line or "f'" in line) and re.search(r"[a-z]\(s\)", line))
            ):
                found.append(f"{rel}:{number}: {line.strip()}")
    assert found == []


@pytest.mark.parametrize(
    ("delay", "expected"),
    [
        (0.0, "retrying now"),
        (0.01, "retrying now"),
        (0.4, "retrying in 0.4 s"),
        (2.0, "retrying in 2 s"),
        (7.96, "retrying in 8 s"),
        (30.4, "retrying in 30 s"),
    ],
)
def test_a_retry_never_waits_0_s(delay: float, expected: str) -> None:
    assert retry_wait(delay) == expected
