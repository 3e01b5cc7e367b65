"""Plain text of inline Markdown: markup goes, escaped characters stay."""

from __future__ import annotations

import pytest

from cvagent_cli.document.inline import plain_inline


@pytest.mark.parametrize(
    ("source", "plain"),
    [
        ("**Languages:** Go", "Languages: Go"),
        (r"uses \*stars\* and \`ticks\`", "uses *stars* and `ticks`"),
        (r"189\*\*9173", "189**9173"),
        (r"\# not a heading", "# not a heading"),
        (r"a\_b and *em*", "a_b and em"),
        ("[demo](https://x.example) `code`", "demo code"),
    ],
)
def test_plain_inline_drops_markup_and_keeps_escaped_characters(source: str, plain: str) -> None:
    assert plain_inline(source) == plain
