"""A sign of life while the model thinks: after a second with nothing to show, a spinner
and the seconds waited, on one line under the conversation, erased when the next thing
arrives.  Only on a terminal; a pipe or a log gets nothing (it would be noise there)."""

from __future__ import annotations

import time
from collections.abc import Callable

from rich.console import Console, RenderableType
from rich.live import Live
from rich.spinner import Spinner
from rich.text import Text

DELAY_SECONDS = 1.0  # a quick answer never shows it


def elapsed_words(seconds: float) -> str:
    whole = int(seconds)
    return f"{whole} s" if whole < 60 else f"{whole // 60} min {whole % 60:02d} s"


class Waiting:
    """``start()`` when a model call may begin, ``stop()`` before anything else prints."""

    def __init__(self, console: Console, clock: Callable[[], float] = time.monotonic) -> None:
        self.console = console
        self.clock = clock
        self._since = 0.0
        self._spinner = Spinner("dots", style="cyan")
        self._live: Live | None = None

    def __rich__(self) -> RenderableType:
        waited = self.clock() - self._since
        if waited < DELAY_SECONDS:
            return Text("")
        self._spinner.update(
            text=Text(f"waiting for the model… {elapsed_words(waited)} · Ctrl-C stops", "dim")
        )
        return self._spinner

    def start(self) -> None:
        if self._live is not None:
            return
        self._since = self.clock()
        self._live = Live(
            self, console=self.console, transient=True, refresh_per_second=4, auto_refresh=True
        )
        self._live.start()

    def stop(self) -> None:
        if self._live is not None:
            live, self._live = self._live, None
            live.stop()
