"""Small helpers for the words cvagent writes: counted nouns and sentences.

They live at the base of the package so that every layer (the analyzer's explanations, the
agent's notes to the model, the REPL's lines) says "1 finding" and "2 findings" the same way.
"""

from __future__ import annotations

__all__ = ["plural", "retry_wait", "sentence"]

# Nouns whose plural is not noun + "s".
_IRREGULAR = {"entry": "entries", "info": "infos", "match": "matches", "this": "these"}
_ENDINGS = (".", "!", "?", "…", "。", "！", "？", ":", ";", "：", "；")


def plural(count: int, noun: str, many: str | None = None, *, thousands: bool = False) -> str:
    """``'1 finding'``, ``'2 findings'``, ``'0 findings'``.

    ``noun`` may be several words (``'more finding'``): only the last one changes.
    ``many`` gives an irregular plural; ``thousands`` writes ``1,234``.
    """
    number = f"{count:,}" if thousands else str(count)
    if count == 1:
        return f"{number} {noun}"
    if many is None:
        head, _, last = noun.rpartition(" ")
        many = (head + " " if head else "") + _plural_word(last)
    return f"{number} {many}"


def _plural_word(word: str) -> str:
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if word.endswith(("s", "x", "ch", "sh")):
        return word + "es"
    return word + "s"


def sentence(text: str) -> str:
    """``text`` stripped and ending with one full stop: ``'too long'`` and ``'too long.'``
    both give ``'too long.'``; text already ending in ``?``, ``!``, ``。`` … is kept as it is;
    empty text stays empty."""
    text = text.strip()
    if not text or text.endswith(_ENDINGS):
        return text
    return text + "."


def retry_wait(delay: float) -> str:
    """``'retrying in 4 s'``, ``'retrying in 0.5 s'``, ``'retrying now'``: never "in 0 s"."""
    if delay < 0.05:
        return "retrying now"
    if delay < 10:
        shown = f"{delay:.1f}".removesuffix(".0")
        return f"retrying in {shown} s"
    return f"retrying in {delay:.0f} s"
