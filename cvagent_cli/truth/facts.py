"""Shared pieces of the truthfulness guard: the public :class:`FactFlag`, the internal
:class:`Fact`, and text preparation (normalisation, noise spans such as URLs and list markers)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any, Literal

from cvagent_cli.document.basics import EMAIL_LIKE
from cvagent_cli.script import HAN

FactKind = Literal["number", "percentage", "amount", "date", "organization", "title"]


@dataclass(frozen=True)
class FactFlag:
    """A fact in an edit's new text found neither in the resume nor in the user's messages."""

    kind: FactKind
    value: str
    message: str


# --------------------------------------------------------------------------------------
# Text preparation
# --------------------------------------------------------------------------------------


def prepare(text: str) -> tuple[str, str]:
    """NFKC per character when that keeps one character (full-width digits, ％, ，), so indexes
    into the prepared text are indexes into the original, whose slices are shown as-is."""
    if text.isascii():
        return text, text
    table = {}
    for ch in set(text):
        if not ch.isascii():
            norm = unicodedata.normalize("NFKC", ch)
            if len(norm) == 1 and norm != ch:
                table[ord(ch)] = norm
    return (text.translate(table) if table else text), text


def consume(consumed: list[bool], start: int, end: int) -> None:
    for i in range(start, min(end, len(consumed))):
        consumed[i] = True


def is_free(consumed: list[bool], start: int, end: int) -> bool:
    return not any(consumed[start:end])


_URL_RE = re.compile(r"(?i)\b(?:https?://|www\.)[^\s<>()\]]+|\]\([^)\s]*\)")
_EMAIL_RE = re.compile(EMAIL_LIKE)
_PHONE_RE = re.compile(
    r"(?<![\w.])(?:\+\d{1,3}[ -]?)?(?:1[3-9]\d[ -]?\d{4}[ -]?\d{4}|\(\d{3}\)[ .-]?\d{3}[ .-]\d{4}|\d{3}[.-]\d{3}[.-]\d{4})(?!\w|\.\d)"
)
_LIST_MARKER_RE = re.compile(
    r"(?m)^[ \t]*(?:[-*+>#][ \t]*)*(?:\d{1,3}[.)、]|[(（]\d{1,3}[)）])(?=[ \t" + HAN + "]|$)"
    r"|[(（]\d{1,2}[)）]|[①-⑳]"
)


def noise_spans(text: str) -> Iterable[tuple[int, int]]:
    for regex in (_URL_RE, _EMAIL_RE, _PHONE_RE, _LIST_MARKER_RE):
        for m in regex.finditer(text):
            yield m.start(), m.end()


# --------------------------------------------------------------------------------------
# Facts
# --------------------------------------------------------------------------------------


@dataclass
class Fact:
    kind: FactKind
    value: str
    start: int
    end: int
    need: tuple[Any, ...]  # the key that must be present in the support
    # extra keys this fact contributes when it is part of the support
    gives: tuple[object, ...] = ()
    present: bool = False  # a "Present"/"至今" range end (not a real date fact)
    core_end: int | None = None  # where the fact itself ends when a unit word is only shown


def to_decimal(text: str) -> Decimal | None:
    try:
        return Decimal(text.replace(",", "")).normalize()
    except InvalidOperation:
        return None


def quantity(value: Decimal) -> tuple[str, Decimal]:
    return ("quantity", value.normalize())
