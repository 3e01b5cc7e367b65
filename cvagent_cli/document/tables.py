"""Markdown tables as the entry model and the exporters read them: their rows of cells."""

from __future__ import annotations

import re

#: The |---|---| line under a table's header row.
TABLE_RULE_RE = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$")


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
