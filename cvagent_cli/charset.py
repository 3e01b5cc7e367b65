"""The characters a resume can hold, and how the ones nobody can see are shown.

One grammar for three jobs:

- :func:`forbidden_in_resume` — characters no resume contains and no edit may write: control
  characters (they make resume.md a "binary file" that ``analyze`` and ``chat`` then refuse, so
  ``/undo`` could not even reach the edit), bidirectional overrides, embeddings and isolates
  (they reorder what a reader sees: the "Trojan Source" trick), zero-width spaces and joiners of
  words, a byte-order mark inside the text, interlinear annotations, Unicode tag characters
  outside a flag emoji (used to smuggle hidden instructions), lone surrogates and
  noncharacters.  TAB, LF and CR are text.
- :data:`INVISIBLE_RE` — the characters a person cannot see in a terminal (the forbidden ones,
  plus the left-to-right and right-to-left marks and the soft hyphen): the fence of untrusted
  text removes them, and :func:`show_invisible` writes them as ``⟨U+202E⟩`` so a diff shows
  what an edit really changes.
- :func:`describe` — ``U+202E RIGHT-TO-LEFT OVERRIDE``, for messages.

The zero-width joiner (U+200D) and non-joiner (U+200C) and the variation selectors are left
alone: emoji sequences (👩‍💻) and some scripts need them, and they reorder nothing.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = [
    "HIDING_RE",
    "INVISIBLE_RE",
    "added_forbidden",
    "describe",
    "forbidden_in_resume",
    "show_invisible",
]

_CONTROLS = "\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f"
_BIDI = "\u202a-\u202e\u2066-\u2069"  # embeddings, overrides, isolates
_ZERO_WIDTH = "\u200b\u2060-\u2064\ufeff"  # zero-width space, word joiner, invisible operators, BOM
_ANNOTATION = "\ufff9-\ufffb"
_SEPARATORS = "\u2028\u2029"  # line / paragraph separator: not a line break in Markdown
_SURROGATES = "\ud800-\udfff"
_NONCHARACTERS = "\ufdd0-\ufdef\ufffe\uffff"
_TAGS = "\U000e0000-\U000e007f"
_MARKS = "\u200e\u200f\u061c\u00ad"  # LRM, RLM, ALM, soft hyphen: invisible but harmless

# A subdivision flag (🏴 + tag letters + CANCEL TAG, e.g. the flag of Scotland) is the one
# legitimate use of tag characters.
_FLAG_RE = re.compile("\U0001f3f4[\U000e0020-\U000e007e]+\U000e007f")
_FORBIDDEN_RE = re.compile(
    f"[{_CONTROLS}{_BIDI}{_ZERO_WIDTH}{_ANNOTATION}{_SEPARATORS}{_SURROGATES}{_NONCHARACTERS}{_TAGS}]"
)
#: Characters a person cannot see on a terminal: shown as ``⟨U+XXXX⟩`` in diffs.
INVISIBLE_RE = re.compile(f"[{_BIDI}{_ZERO_WIDTH}{_ANNOTATION}{_SEPARATORS}{_TAGS}{_MARKS}]")
#: The characters that hide text from a reader of a resume or job description (zero-width
#: characters and joiners, direction marks and overrides, tags): the fence of untrusted
#: text removes them, and a line holding one is hidden text (``truth/fencing.py``).
HIDING_RE = re.compile(f"[{_ZERO_WIDTH}\u200c-\u200f\u202a-\u202e{_TAGS}]")


def forbidden_in_resume(text: str) -> list[str]:
    """The distinct characters of ``text`` that no resume may contain, in order of first
    appearance (empty when the text is fine)."""
    return list(dict.fromkeys(_FORBIDDEN_RE.findall(_FLAG_RE.sub("", text))))


def added_forbidden(before: str, after: str) -> list[str]:
    """The forbidden characters ``after`` holds more often than ``before``: what an edit
    would add.  A file that already held one (the user's own doing) can still be edited
    elsewhere."""
    had = _FLAG_RE.sub("", before)
    return [ch for ch in forbidden_in_resume(after) if after.count(ch) > had.count(ch)]


def describe(ch: str) -> str:
    """``U+202E RIGHT-TO-LEFT OVERRIDE`` (the name where Unicode gives one)."""
    name = unicodedata.name(ch, "")
    if not name and ord(ch) < 0x20:
        name = {0: "NUL", 7: "BEL", 8: "BACKSPACE", 0x1B: "ESCAPE"}.get(ord(ch), "CONTROL")
    return f"U+{ord(ch):04X}" + (f" {name}" if name else "")


def show_invisible(text: str) -> str:
    """``text`` with every invisible character written as ``⟨U+XXXX⟩``."""
    return INVISIBLE_RE.sub(lambda m: f"⟨U+{ord(m.group()):04X}⟩", text)
