"""The export templates: ``classic`` (the default look), ``compact`` (tighter margins, a
smaller font and less space between blocks, to fit one page where possible) and ``modern``
(an accent colour, a centred header, entry titles with the employer in regular weight)."""

from __future__ import annotations

from cvagent_cli.errors import UsageError

TEMPLATES = ("classic", "compact", "modern")


def check_template(name: str) -> str:
    if name not in TEMPLATES:
        raise UsageError(
            f"unknown template '{name}'", hint=f"choose one of: {', '.join(TEMPLATES)}"
        )
    return name
