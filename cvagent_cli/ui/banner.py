"""The REPL's opening lines: light enough to print before the agent stack is imported."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from cvagent_cli.ui.wrap import pack

KEYS = (
    "Enter sends",
    "Esc+Enter new line",
    "Tab completes",
    "Ctrl-R searches history",
    "Ctrl-C stops a reply",
    "Ctrl-D exits",
)
BANNER = ("cvagent chat", "/help for commands", *KEYS)


def print_items(console: Console, items: tuple[str, ...]) -> None:
    """A dim "a · b · c" line; on a terminal broken between items, never inside one."""
    if not console.is_terminal:
        console.print(Text(" · ".join(items), style="dim"), soft_wrap=True)
        return
    for line in pack(items, console.width):
        console.print(Text(line, style="dim"), no_wrap=True, overflow="fold")
