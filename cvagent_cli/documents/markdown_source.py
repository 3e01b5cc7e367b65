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
TABLE_RULE_RE = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$")


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


def table_rows(lines: list[str]) -> list[list[str]]:
    """Cells of a Markdown table's lines (the |---| rule dropped)."""
    rows: list[list[str]] = []
    for line in lines:
        if TABLE_RULE_RE.match(line):
            continue
        body = line.strip()
        body = body[1:] if body.startswith("|") else body
        body = body[:-1] if body.endswith("|") and not body.endswith("\\|") else body
        rows.append([c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", body)])
    return rows
