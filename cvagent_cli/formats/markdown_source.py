"""Resume Markdown as the exporters print it (the round-trip check scores this text; the
PDF and DOCX writers read the parsed document instead, see ``layout.py``).

Front matter is metadata, not page content; setext headings (``Name`` over ``====``)
become ``#`` headings; inline HTML tags (``<br>``, ``<span style=…>``) are dropped, since
each source line is its own line on the page anyway.
"""

from __future__ import annotations

import re

from cvagent_cli.document.blocks import front_matter_length
from cvagent_cli.document.inline import HTML_TAG_RE

_SETEXT_RE = re.compile(r"^\s{0,3}(=+|-+)\s*$")
_BLOCK_RE = re.compile(r"^\s*(?:#|[-*+]\s|\||>|```|~~~|\d+[.)]\s)")


def strip_front_matter(markdown: str) -> str:
    """The Markdown after its front matter (as the resume model reads front matter)."""
    cut = front_matter_length(markdown)
    if cut:
        return "\n".join(markdown[cut:].splitlines()).lstrip("\n") + "\n"
    return markdown


def export_lines(markdown: str) -> list[str]:
    """The lines to lay out: no front matter, setext headings as ATX, no inline HTML."""
    lines = strip_front_matter(markdown).splitlines()
    out: list[str] = []
    for i, line in enumerate(lines):
        underline = _SETEXT_RE.match(line)
        if (
            underline
            and out
            and out[-1].strip()
            and not _BLOCK_RE.match(out[-1])
            and (i == 1 or not lines[i - 2].strip())
        ):
            out[-1] = ("# " if underline.group(1)[0] == "=" else "## ") + out[-1].strip()
            continue
        if "<" in line:
            line = HTML_TAG_RE.sub("", line)
        out.append(line)
    return out
