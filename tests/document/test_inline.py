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


def test_plain_inline_hands_each_link_to_a_callback_with_its_address() -> None:
    seen: list[tuple[str, str]] = []

    def link(text: str, address: str) -> str:
        seen.append((text, address))
        return f"{text} ({address})"

    source = 'See [the *design* note](https://x.example/n "Notes") and ![logo](l.png), \\[not](a)'
    assert (
        plain_inline(source, link) == "See the design note (https://x.example/n) and logo, [not](a)"
    )
    assert seen == [("the *design* note", "https://x.example/n")]


def test_starts_bold_is_the_emphasis_grammar_at_the_start_of_a_line() -> None:
    from cvagent_cli.document.inline import starts_bold

    assert starts_bold("**Acme** — Engineer")
    assert starts_bold("  __Acme Corp, Austin__")
    assert not starts_bold("*Acme* — Engineer")
    assert not starts_bold("Engineer at **Acme**")
    assert not starts_bold("** Acme**")
