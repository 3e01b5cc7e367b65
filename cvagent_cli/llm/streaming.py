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
import re
import string
import threading
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

from cvagent_cli.script import IDEOGRAPHS

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


class InstructionEcho:
    """Notices a reply that paraphrases cvagent's own instructions back ("The next step is
    to answer a question directly from general career knowledge…"): a small model that
    cannot tell its prompt from its answer recites it in its own words, so no fixed
    marker is found.

    The rule is overlap, not a list of phrases: a sentence of the reply whose word
    trigrams come from the instruction sentences (at least ``min_shared`` of them, and at
    least ``min_share`` of the sentence's) is a recital; so is one that copies a run of
    ``min_run`` words; so is one in the instructions' own voice ("your answer is …", "the
    user") that shares three trigrams.  Quoted text in the instructions ("…", `…`) is left out: those are
    examples of what to say.  :meth:`feed` checks each sentence once it is complete
    (:meth:`finish` the last one) and returns where the first recital starts (``-1``).
    """

    def __init__(
        self, instructions: str, *, min_shared: int = 4, min_share: float = 0.5, min_run: int = 8
    ) -> None:
        self.grams = set(_trigrams(_words(_QUOTED_RE.sub(" ", instructions))))
        self.min_shared = min_shared
        self.min_share = min_share
        self.min_run = min_run
        self._next = 0  # where the first sentence not checked yet starts

    def feed(self, text: str) -> int:
        if not self.grams:
            return -1
        for end in _sentence_ends(text, self._next):
            at = self._check(text, self._next, end)
            if at != -1:
                return at
            self._next = end
        return -1

    def finish(self, text: str) -> int:
        """The reply has ended: check its last sentence too."""
        at = self.feed(text)
        if at == -1 and self.grams and self._next < len(text):
            at = self._check(text, self._next, len(text))
        return at

    def _check(self, text: str, start: int, end: int) -> int:
        grams = _trigrams(_words(text[start:end]))
        hits = [g in self.grams for g in grams]
        shared = sum(hits)
        run = longest = 0
        for hit in hits:
            run = run + 1 if hit else 0
            longest = max(longest, run)
        # A sentence that speaks about the answer itself or about "the user" is the prompt
        # talking, not a reply to the person: a little overlap is enough to call it one.
        prompt_voice = _PROMPT_VOICE_RE.search(text[start:end]) is not None
        if (
            (shared >= self.min_shared and shared >= self.min_share * len(grams))
            or longest + 2 >= self.min_run
            or (prompt_voice and shared >= 3)
        ):
            return start + len(text[start:end]) - len(text[start:end].lstrip())
        return -1


#: How instructions speak of the reply and the person ("your answer is too long", "the
#: user's request", 你的回答, 用户): a reply to the person does not.  "You should answer …"
#: is left out: it is also career advice.
_PROMPT_VOICE_RE = re.compile(
    r"\byour (?:answer|reply|response|output)s? (?:is|was|should|must)\b"
    r"|\bthe user(?:'s|’s)?\b|你的(?:回答|回复)|用户",
    re.IGNORECASE,
)
_QUOTED_RE = re.compile(r'"[^"\n]*"|“[^”\n]*”|`[^`\n]*`|「[^」\n]*」')
_WORD_RE = re.compile(rf"[{IDEOGRAPHS}]|[^\W_{IDEOGRAPHS}]+")
_SENTENCE_END_RE = re.compile(r"[.!?](?=\s)|[。！？]|\n")


def _words(text: str) -> list[str]:
    """Words, lower-cased; each CJK character is one (Chinese has no spaces)."""
    return _WORD_RE.findall(text.casefold())


def _trigrams(words: list[str]) -> list[tuple[str, str, str]]:
    return list(zip(words, words[1:], words[2:], strict=False))


def _sentence_ends(text: str, start: int) -> Iterator[int]:
    for match in _SENTENCE_END_RE.finditer(text, start):
        yield match.end()


#: ASCII punctuation and spaces: a reply made only of them ("#", "**", "---") says nothing.
_NO_WORDS = string.punctuation + string.whitespace


def says_nothing(text: str) -> bool:
    """True for a reply with nothing to read in it: empty, or only Markdown punctuation."""
    return not text.strip(_NO_WORDS)


def keepable(text: str) -> str:
    """``text`` without the trailing lines that say nothing (a cut left "Sure!\\n#", or
    just "#"): what a cut reply keeps."""
    lines = text.rstrip().split("\n")
    while lines and says_nothing(lines[-1]):
        lines.pop()
    return "\n".join(lines).rstrip()


REPEATING = "repetition"  # Cut.reason: the reply went round in a loop
ECHOING = "echo"  # Cut.reason: the reply began copying its prompt


@dataclass(frozen=True)
class Cut:
    """Where a guarded reply was stopped: the text to keep, and why."""

    kept: str
    reason: str  # REPEATING or ECHOING


class ReplyGuard:
    """The guards over one streamed reply: :meth:`push` each text delta, show what it
    returns; once it also returns a :class:`Cut`, stop reading the stream, and call
    :meth:`finish` when the stream ended by itself.

    ``shown`` counts the characters handed out to be shown.  A cut can keep fewer (a
    loop is noticed after its copies were shown; a recital of the instructions once its
    sentence is complete): the caller then takes back what was shown beyond ``kept``.
    """

    def __init__(self, markers: Iterable[str], instructions: str = "") -> None:
        self.repeats = RepetitionGuard()
        self.echoes = EchoGuard(markers)
        self.recitals = InstructionEcho(instructions)
        self.text = ""
        self.shown = 0

    def push(self, delta: str) -> tuple[str, Cut | None]:
        """The text to show now, and the cut when the reply must stop here."""
        self.text += delta
        at = self.echoes.feed(self.text)
        recital = self.recitals.feed(self.text)
        if recital != -1 and (at == -1 or recital < at):
            at = recital
        if at != -1:
            return self._cut(self.text[:at], ECHOING)
        if self.repeats.feed(self.text):
            return self._cut(self.text[: self.repeats.keep], REPEATING)
        upto = self.echoes.shown(self.text)
        show = self.text[self.shown : upto]
        self.shown = max(self.shown, upto)
        return show, None

    def _cut(self, kept: str, reason: str) -> tuple[str, Cut]:
        kept = keepable(kept)
        show = kept[self.shown :]
        self.shown = max(self.shown, len(kept))
        return show, Cut(kept, reason)

    def finish(self) -> tuple[str, Cut | None]:
        """The reply ended by itself: the tail held back as a possible marker's start,
        or the cut when its last sentence recites the instructions."""
        at = self.recitals.finish(self.text)
        if at != -1:
            return self._cut(self.text[:at], ECHOING)
        return self.rest(), None

    def rest(self) -> str:
        """The tail held back as a possible marker's start, once the reply has ended."""
        rest, self.shown = self.text[self.shown :], len(self.text)
        return rest
