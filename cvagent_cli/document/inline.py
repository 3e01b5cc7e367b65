"""Plain text of Markdown inline source (the block parser leaves inline content as source)."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cvagent_cli.document.blocks import TokenLike


_CODE_SPAN_RE = re.compile(r"(`+)(.+?)\1", re.DOTALL)
_IMAGE_RE = re.compile(r"!\[([^\]]*)\]\([^)]*\)")
_LINK_RE = re.compile(r"\[([^\]]*)\]\(([^)]*)\)")
_AUTOLINK_RE = re.compile(r"<((?:https?|mailto|ftp):[^<>\s]+|[\w.+-]+@[\w.-]+)>")
HTML_TAG_RE = re.compile(r"<!--.*?-->|</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>", re.DOTALL)
_EMPHASIS_RE = re.compile(r"(\*\*|__|~~|\*)(?=\S)(.+?)(?<=\S)\1")
_UNDERSCORE_EM_RE = re.compile(r"(?<![\w_])_(?=\S)(.+?)(?<=\S)_(?![\w_])")
_ESCAPE_RE = re.compile(r"\\([!-/:-@\[-`{-~])")


# An escaped character (backslash-star) is hidden in a private-use code point while the
# markup patterns run, so an escaped "189**9173" or "*stars*" keeps its asterisks.
_HIDDEN = 0xF0000
_UNHIDE = {_HIDDEN + c: chr(c) for c in range(33, 127)}


def plain_inline(source: str, link: Callable[[str, str], str] | None = None) -> str:
    """Plain text of Markdown inline source: markup dropped, line breaks as spaces.  A link
    becomes its text, or what ``link(text, address)`` makes of it."""
    text = source
    escaped = "\\" in text
    if escaped:
        text = _ESCAPE_RE.sub(lambda m: chr(_HIDDEN + ord(m.group(1))), text)
    if "`" in text:
        text = _CODE_SPAN_RE.sub(lambda m: m.group(2).strip(), text)
    if "[" in text:
        text = _IMAGE_RE.sub(r"\1", text)
        if link is None:
            text = _LINK_RE.sub(r"\1", text)
        else:
            text = _LINK_RE.sub(lambda m: link(m.group(1), _address(m.group(2))), text)
    if "<" in text:
        text = HTML_TAG_RE.sub("", _AUTOLINK_RE.sub(r"\1", text))
    if "*" in text or "~" in text or "__" in text:
        for _ in range(3):  # nested emphasis: ***x*** or **a *b* c**
            stripped = _EMPHASIS_RE.sub(r"\2", text)
            if stripped == text:
                break
            text = stripped
    if "_" in text:
        text = _UNDERSCORE_EM_RE.sub(r"\1", text)
    if escaped:
        text = text.translate(_UNHIDE)
    if "&" in text:
        text = html.unescape(text)
    return " ".join(text.split()) if "\n" in text or "  " in text else text.strip()


def _address(target: str) -> str:
    """A link's address without its title: ``https://x "X"`` → ``https://x``."""
    target = target.strip()
    if target.startswith("<") and ">" in target:
        return target[1 : target.index(">")]
    return target.split(maxsplit=1)[0] if target else ""


def starts_bold(source: str) -> bool:
    """Whether Markdown inline ``source`` opens with bold text (``**Acme** — Engineer``)."""
    match = _EMPHASIS_RE.match(source.lstrip())
    return match is not None and match.group(1) in ("**", "__")


def inline_text(token: TokenLike | None) -> str:
    return plain_inline(token.content) if token is not None else ""
