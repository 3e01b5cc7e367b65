"""The export templates: ``classic`` (the default look), ``compact`` (tighter margins, a
smaller font and less space between blocks, to fit one page where possible) and ``modern``
(an accent colour, a centred header, entry rows with the title and employer on the left and
the place and dates right-aligned: "Seattle, WA · Mar 2019 – Present"; the title in bold
and the employer in regular weight)."""

from __future__ import annotations

from cvagent_cli.errors import UsageError

TEMPLATES = ("classic", "compact", "modern")


def check_template(name: str) -> str:
    if name not in TEMPLATES:
        raise UsageError(
            f"unknown template '{name}'", hint=f"choose one of: {', '.join(TEMPLATES)}"
        )
    return name
