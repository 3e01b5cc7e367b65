"""The export templates: ``classic`` (the default look) and ``compact`` (tighter margins,
a smaller font and less space between blocks, to fit one page where possible)."""

from __future__ import annotations

from cvagent_cli.errors import UsageError

TEMPLATES = ("classic", "compact")
DEFAULT = "classic"


def check_template(name: str) -> str:
    if name not in TEMPLATES:
        raise UsageError(
            f"unknown template '{name}'", hint=f"choose one of: {', '.join(TEMPLATES)}"
        )
    return name
