"""Example rewrites built from the user's own words, with visible placeholders.

An example must not do what the truth guard forbids: "改为：主导……使……提升30%" or "Resolved
15 escalations a week" puts a number in the user's mouth that they never gave, and "Led" for
"worked with" (主导 for 协助) upgrades their claim.  Examples reuse the bullet's own words —
reordered, tightened, a pronoun dropped — and mark what only the user can fill in: ``[X%]``,
``[N]``, ``[your verb]``.
"""

from __future__ import annotations

import re

_TRAIL_PUNCTUATION = "。．.；;，,!！"
# The lead patterns are anchored at the start and may match nothing, so they always match
# there: the text is cut after the match instead of ``sub`` trying every other position.
_ZH_LEAD_RE = re.compile(r"^\W*(?:我|本人)?(?:主要)?")
_EN_LEAD_RE = re.compile(
    r"^\W*(?:(?:i|we)\s+)?(?:was\s+|were\s+|am\s+)?"
    r"(?:(?:responsible\s+for|in\s+charge\s+of|tasked\s+with|involved\s+in)\s+)?",
    re.IGNORECASE,
)


def _strip_trail(text: str) -> str:
    """``text`` without its trailing run of punctuation and whitespace (``\\s`` and
    ``str.rstrip()`` agree on what whitespace is): a regex ending in ``+$`` would try a
    match at every space in the text."""
    while True:
        stripped = text.rstrip().rstrip(_TRAIL_PUNCTUATION)
        if stripped == text:
            return text
        text = stripped


def zh_core(text: str, opener: str | None = None, limit: int = 30) -> str:
    """The bullet without its pronoun or weak opener: "我主要负责店铺运营" → "店铺运营"."""
    rest = text[_ZH_LEAD_RE.match(text).end() :]  # type: ignore[union-attr]
    if opener and rest.startswith(opener):
        rest = rest[len(opener) :]
    rest = _strip_trail(rest)
    return rest[:limit] + ("…" if len(rest) > limit else "")


def en_core(text: str, opener: str | None = None, limit: int = 12) -> str:
    """The bullet without "I", "was responsible for" or its weak opener, lower-cased first
    word kept as written: "I was responsible for vendor onboarding." → "vendor onboarding"."""
    rest = text[_EN_LEAD_RE.match(text).end() :]  # type: ignore[union-attr]
    if opener and rest.lower().startswith(opener.lower()):
        rest = rest[len(opener) :].lstrip()
    rest = _strip_trail(rest)
    words = rest.split()
    short = " ".join(words[:limit]) + ("…" if len(words) > limit else "")
    return short


def capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


# "Visitors were greeted and signed in by me." → "Greeted and signed in visitors."
_BY_ME_RE = re.compile(
    r"^\W*(?P<obj>[A-Za-z][\w ,'’-]*?)\s+(?:was|were|got)\s+(?P<verbs>[a-z][\w ,]*?)\s+by\s+(?:me|myself|us)\b(?P<rest>.*)$"
)
_PRONOUN_LEFT_RE = re.compile(
    r"(?<![\w/.&-])I(?![\w/.&'’-])|\b(?:me|my|myself|mine|we|our|us)\b", re.IGNORECASE
)


def active_without_me(text: str) -> str | None:
    """The user's own passive sentence made active, when that is mechanical: "Escalations
    were handled by me when the lead was out" → "Handled escalations when the lead was out"."""
    match = _BY_ME_RE.match(_strip_trail(text))
    if not match:
        return None
    obj = match.group("obj")
    obj = obj if obj[:2].isupper() else obj[:1].lower() + obj[1:]
    return f"{capitalised(match.group('verbs'))} {obj}{match.group('rest')}"


def without_pronoun(text: str) -> str | None:
    """The bullet with its first-person pronoun really gone, or None when that takes more than
    dropping a leading "I"/"We" or turning "… by me" around."""
    rewritten = active_without_me(text) or capitalised(en_core(text, limit=40))
    return None if _PRONOUN_LEFT_RE.search(rewritten) else rewritten
