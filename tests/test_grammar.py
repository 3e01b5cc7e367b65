"""One grammar per concept: the Unicode ranges of CJK text are written once, in
cvagent_cli/script.py, and imported everywhere else; front matter is what the parser says it
is, for the guard and the exporters too.

A range literal (``[\\u4e00-\\u9fff]``, ``"\\u3400" <= ch``, ``[一-龥]``) anywhere else in the
package fails here, so a thirteenth private copy of "what is a Chinese character" cannot
come back unnoticed.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from cvagent_cli import script
from cvagent_cli.document.basics import EMAIL_LIKE, EMAIL_RE
from cvagent_cli.document.blocks import front_matter_length
from cvagent_cli.document.document import ResumeDocument
from cvagent_cli.formats.markdown_source import strip_front_matter
from cvagent_cli.truth.guards import visible_text

PACKAGE = Path(__file__).resolve().parents[1] / "cvagent_cli"
GRAMMAR = PACKAGE / "script.py"

#: Modules another change owns this round, with the range literals they still hold; each
#: count may only go down (to zero, when the module imports cvagent_cli.script instead).
NOT_YET_MOVED: dict[str, int] = {}

#: Blocks of CJK text: radicals to the unified ideographs, Hangul, compatibility
#: ideographs and forms, half- and full-width forms, the supplementary ideographic planes.
_CJK_BLOCKS = (
    (0x2E80, 0x9FFF),
    (0xA960, 0xA97F),
    (0xAC00, 0xD7FF),
    (0xF900, 0xFAFF),
    (0xFE30, 0xFE4F),
    (0xFF00, 0xFFEF),
    (0x20000, 0x3FFFF),
)
_ESCAPE_RE = re.compile(r"\\u([0-9a-fA-F]{4})|\\U([0-9a-fA-F]{8})")


def _cjk(ch: str) -> bool:
    return len(ch) == 1 and any(lo <= ord(ch) <= hi for lo, hi in _CJK_BLOCKS)


def _unescape(text: str) -> str:
    """A raw string's ``\\u4e00`` as the character the regex engine will read."""
    return _ESCAPE_RE.sub(lambda m: chr(int(m.group(1) or m.group(2), 16)), text)


def range_literals(source: str) -> list[tuple[int, str]]:
    """(line, text) of every CJK range in ``source``: ``X-Y`` inside a string with X and Y
    CJK characters, or a comparison of a character with a one-character CJK string."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = _unescape(node.value)
            for i in range(1, len(text) - 1):
                if text[i] == "-" and _cjk(text[i - 1]) and _cjk(text[i + 1]):
                    found.append((node.lineno, text[i - 1 : i + 2]))
        elif isinstance(node, ast.Compare) and any(
            isinstance(op, (ast.Lt, ast.LtE, ast.Gt, ast.GtE)) for op in node.ops
        ):
            for part in [node.left, *node.comparators]:
                if isinstance(part, ast.Constant) and _cjk(_unescape(str(part.value))):
                    found.append((node.lineno, str(part.value)))
    return found


def ranges_by_module() -> dict[str, list[tuple[int, str]]]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == GRAMMAR:
            continue
        hits = range_literals(path.read_text(encoding="utf-8"))
        if hits:
            found[path.relative_to(PACKAGE).as_posix()] = hits
    return found


def test_cjk_ranges_are_written_only_in_the_grammar_module():
    found = ranges_by_module()
    new = {m: hits for m, hits in found.items() if m not in NOT_YET_MOVED}
    assert new == {}, "import the class from cvagent_cli/script.py instead"
    grown = {
        m: len(hits) for m, hits in found.items() if len(hits) > NOT_YET_MOVED.get(m, len(hits))
    }
    assert grown == {}


def test_the_list_of_modules_not_yet_moved_is_current():
    # A module that has moved to cvagent_cli.script leaves the list, so it cannot slip back.
    found = ranges_by_module()
    assert {m: len(found.get(m, [])) for m in NOT_YET_MOVED} == NOT_YET_MOVED


@pytest.mark.parametrize(
    "source",
    [
        'R = re.compile(r"[\\u4e00-\\u9fff]")',
        'R = re.compile("[\\u3400-\\u4dbf]+")',
        'R = "[一-龥]"',
        'R = "[０-９]"',
        'ok = "\\uac00" <= ch',
        'ok = ch < "\\U00020000"',
    ],
)
def test_a_cjk_range_literal_is_found(source):
    # The check itself must be able to fail.
    assert range_literals(source)


@pytest.mark.parametrize(
    "source",
    [
        'R = "[①-⑳]"',  # enclosed numbers, not CJK
        'R = "[-–—−－~～〜→至到]"',  # a list of dashes, no range
        'R = "2019-2023年"',
        'R = re.compile(r"[/|｜·•:：-]+")',  # a list of separators ending with a dash
        'ok = "\\ufe00" <= ch <= "\\ufe0f"',  # variation selectors
        'R = f"[{HAN}]"',
    ],
)
def test_text_without_a_cjk_range_is_not_flagged(source):
    assert range_literals(source) == []


@pytest.mark.parametrize(
    ("char", "han", "ideograph", "east_asian"),
    [
        ("中", True, True, True),
        ("㐀", False, True, True),  # Extension A
        ("가", False, False, True),  # Hangul
        ("か", False, False, True),  # kana
        ("，", False, False, False),
        ("a", False, False, False),
    ],
)
def test_the_named_classes_mean_what_they_say(char, han, ideograph, east_asian):
    assert bool(script.HAN_RE.match(char)) is han
    assert bool(script.IDEOGRAPH_RE.match(char)) is ideograph
    assert script.is_east_asian(char) is east_asian


@pytest.mark.parametrize(
    "text",
    [
        "---\nname: Ana Lee\nsecret: 42\n---\nBody\n",
        "----\nname: Ana Lee\nsecret: 42\n----\nBody\n",  # a longer fence
        "--- \nname: Ana Lee\nsecret: 42\n---\nBody\n",  # a space after the opening fence
        "---\nname: Ana Lee\nsecret: 42\n  ---\nBody\n",  # an indented closing fence
        "---\nname: Ana Lee\nsecret: 42\n...\n\n\nBody\n",
        "---\r\nname: Ana Lee\r\nsecret: 42\r\n---\r\nBody\r\n",
        "---\n" + "secret: 42\n" * 70 + "name: Ana Lee\n---\nBody\n",  # a long one
    ],
)
def test_the_guard_and_the_exporters_skip_the_front_matter_the_parser_reads(text):
    doc = ResumeDocument.from_text(text)
    assert doc.front_matter_span
    assert strip_front_matter(text).strip() == "Body"
    # Of the front matter the guard keeps the contact fields only.
    assert visible_text(text).split() == ["name:", "Ana", "Lee", "Body"]


def test_text_without_front_matter_is_left_whole():
    text = "# Ana Lee\n\n---\n\nBody\n"
    assert strip_front_matter(text) == text
    assert front_matter_length(text) == 0


def _corpus_texts() -> list[str]:
    root = PACKAGE.parent
    paths = [
        *(root / "sample_resumes").glob("*.md"),
        *(root / "tests/analysis/corpus").glob("*.md"),
    ]
    return [p.read_text(encoding="utf-8") for p in sorted(paths)]


@pytest.mark.parametrize(
    "text",
    [
        "Email: ana.lee@example.com | 2019",
        "邮箱：a_b+cv@mail.163.com，电话 138 0000 0000",
        *_corpus_texts(),
    ],
)
def test_the_guard_masks_every_address_the_analyzer_reads(text):
    masked = [m.span() for m in re.finditer(EMAIL_LIKE, text)]
    for found in EMAIL_RE.finditer(text):
        assert any(a <= found.start() and found.end() <= b for a, b in masked), found.group()
