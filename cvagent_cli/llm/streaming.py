"""Guards for a model that never stops: a stream read with an idle timeout and a
deadline, detection of a reply that repeats itself, and of one that starts copying the
request's own scaffolding.

Reading a stream blocks in the HTTP client until the next chunk arrives, and a server
that keeps sending (a local model looping on one paragraph) never trips a socket
timeout.  :func:`guarded` therefore reads in a worker thread and waits for each item
with a timeout; the caller closes the stream when it gives up, which ends the worker.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")

_END = object()


class StreamStalled(Exception):
    """No chunk arrived for ``idle`` seconds."""

    def __init__(self, idle: float) -> None:
        super().__init__(f"no data for {idle:g} s")
        self.idle = idle


class StreamOverdue(Exception):
    """The deadline passed while the stream was still running."""


def guarded(items: Iterable[T], *, idle: float, deadline: float | None = None) -> Iterator[T]:
    """Yield ``items`` as they come, raising :class:`StreamStalled` when none arrives for
    ``idle`` seconds and :class:`StreamOverdue` once ``time.monotonic()`` passes
    ``deadline``.  Exceptions of the underlying iterator are re-raised here."""
    box: queue.Queue[Any] = queue.Queue(maxsize=64)
    stop = threading.Event()

    def pump() -> None:
        try:
            for item in items:
                if stop.is_set():
                    return
                box.put((True, item))
        except BaseException as exc:  # handed to the reader, which re-raises it
            box.put((False, exc))
            return
        box.put((True, _END))

    worker = threading.Thread(target=pump, name="cvagent-stream", daemon=True)
    worker.start()
    try:
        while True:
            wait = idle
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise StreamOverdue()
                wait = min(wait, left)
            try:
                ok, item = box.get(timeout=wait)
            except queue.Empty:
                if deadline is not None and time.monotonic() >= deadline:
                    raise StreamOverdue() from None
                raise StreamStalled(idle) from None
            if not ok:
                raise item
            if item is _END:
                return
            yield item
    finally:
        stop.set()
        while not box.empty():  # let a blocked worker finish its put()
            try:
                box.get_nowait()
            except queue.Empty:
                break


class RepetitionGuard:
    """Notices a reply stuck in a loop: its end is one passage (at least ``min_period``
    characters, not a run of one character) repeated ``times`` times in a row.  After
    :meth:`feed` returns True, ``keep`` is where the useful text ends: after the
    passage's first copy."""

    PROBE = 40

    def __init__(
        self, times: int = 3, min_period: int = 40, max_period: int = 4000, every: int = 40
    ) -> None:
        self.times = times
        self.min_period = min_period
        self.max_period = max_period
        self.every = every
        self.keep = 0
        self._checked = 0

    def feed(self, text: str) -> bool:
        """``text``: the whole reply so far.  True once it repeats itself."""
        n = len(text)
        if n < self.min_period * self.times or n - self._checked < self.every:
            return False
        self._checked = n
        probe = text[-self.PROBE :]
        position = text.rfind(probe, 0, n - 1)  # earlier copies of the reply's last words
        while position != -1 and n - position <= self.max_period + self.PROBE:
            period = n - self.PROBE - position
            if period >= self.min_period and self._loops(text, period):
                end = n - period * (self.times - 1)
                self.keep = _clean_cut(text, end, end - period)
                return True
            position = text.rfind(probe, 0, position + self.PROBE - 1)
        return False

    def _loops(self, text: str, period: int) -> bool:
        if period * self.times > len(text):
            return False
        block = text[-period:]
        return len(set(block)) >= 10 and text[-period * self.times :] == block * self.times


def _clean_cut(text: str, end: int, floor: int) -> int:
    """``end`` moved back to the last line or sentence end after ``floor``, if any."""
    for mark in ("\n", ". ", "。", "！", "？"):
        cut = text.rfind(mark, max(floor, 0), end)
        if cut != -1:
            return cut + len(mark.rstrip())
    return end


class EchoGuard:
    """Notices a reply that starts copying the request's scaffolding back (small local
    models parrot their prompt: ``<turn_context>``, a fence tag, a context heading).

    ``markers`` are strings only the request contains.  :meth:`feed` is given the whole
    reply so far and returns where the first marker begins (``-1``: none yet);
    :meth:`shown` tells how much of the reply may be shown meanwhile: all but a tail
    that could still turn out to be the start of a marker, so no part of one is shown.
    """

    def __init__(self, markers: Iterable[str]) -> None:
        self.markers = tuple(m for m in markers if m)
        self._longest = max((len(m) for m in self.markers), default=0)
        self._checked = 0

    def feed(self, text: str) -> int:
        start = max(0, self._checked - self._longest + 1)
        self._checked = len(text)
        found = [i for i in (text.find(m, start) for m in self.markers) if i != -1]
        return min(found, default=-1)

    def shown(self, text: str) -> int:
        """The length of ``text``'s part that cannot be the beginning of a marker."""
        for held in range(min(self._longest - 1, len(text)), 0, -1):
            tail = text[-held:]
            if any(m.startswith(tail) for m in self.markers):
                return len(text) - held
        return len(text)


REPEATING = "repetition"  # Cut.reason: the reply went round in a loop
ECHOING = "echo"  # Cut.reason: the reply began copying its prompt


@dataclass(frozen=True)
class Cut:
    """Where a guarded reply was stopped: the text to keep, and why."""

    kept: str
    reason: str  # REPEATING or ECHOING


class ReplyGuard:
    """Both guards over one streamed reply: :meth:`push` each text delta, show what it
    returns; once it also returns a :class:`Cut`, stop reading the stream."""

    def __init__(self, markers: Iterable[str]) -> None:
        self.repeats = RepetitionGuard()
        self.echoes = EchoGuard(markers)
        self.text = ""
        self._shown = 0

    def push(self, delta: str) -> tuple[str, Cut | None]:
        """The text to show now, and the cut when the reply must stop here."""
        self.text += delta
        at = self.echoes.feed(self.text)
        if at != -1:
            kept = self.text[:at].rstrip()
            return kept[self._shown :], Cut(kept, ECHOING)
        if self.repeats.feed(self.text):
            return "", Cut(self.text[: self.repeats.keep].rstrip(), REPEATING)
        upto = self.echoes.shown(self.text)
        show = self.text[self._shown : upto]
        self._shown = max(self._shown, upto)
        return show, None

    def rest(self) -> str:
        """The tail held back as a possible marker's start, once the reply has ended."""
        rest, self._shown = self.text[self._shown :], len(self.text)
        return rest
