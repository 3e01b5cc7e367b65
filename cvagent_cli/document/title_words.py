"""The words a resume uses to name itself ("Resume", "CV", "简历" …), read from every
language's table (``Language.resume_words``).

A document title is never the person's name, never a headline and never a section: the
Markdown parser, the name reader, the importers and the data formats all ask
``is_document_title``.
"""

from __future__ import annotations

import html
import re
import unicodedata

from cvagent_cli import languages
from cvagent_cli.document.kinds import strip_decoration

#: What a document calls itself, in every language.
TITLE_WORDS = frozenset(languages.words_of(lambda language: language.resume_words))
#: Words that may stand beside those in a title ("My Resume", "个人 简历", "CV of").
TITLE_FILLERS = frozenset(languages.words_of(lambda language: language.resume_fillers))

_TAG_RE = re.compile(r"<[^<>]*>")
_MARKUP_RE = re.compile(r"[*_`#>~]+")
_SEPARATORS_RE = re.compile(r"[\s/|｜·•:：-]+")
# Forms letter-space their title ("个 人 简 历", "简\u3000\u3000历", "R E S U M E").
_SPACED_RE = re.compile(r"^\s*\S(?:[ \t\u3000]+\S){1,}\s*$")
# A form's "个人简历表", "Personal Resume".
_AFFIXES_RE = re.compile(r"^(?:personal|个人)\s*|\s*表$", re.IGNORECASE)


def plain_title(text: str) -> str:
    """``text`` without HTML tags, Markdown marks and decoration, spaces collapsed."""
    text = html.unescape(_TAG_RE.sub(" ", text))
    return " ".join(strip_decoration(_MARKUP_RE.sub(" ", text)).split())


def _bare(word: str) -> str:
    """``word`` without its accents: "Resumé" as OCR reads "Résumé" (or a keyboard without
    é types it) is the same word."""
    decomposed = unicodedata.normalize("NFD", word)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


_BARE_WORDS = frozenset(_bare(w) for w in TITLE_WORDS | TITLE_FILLERS)


def _only_title_words(text: str) -> bool:
    words = [w for w in _SEPARATORS_RE.split(plain_title(text).casefold()) if w]
    return bool(words) and all(
        w in TITLE_WORDS or w in TITLE_FILLERS or _bare(w) in _BARE_WORDS for w in words
    )


def is_document_title(text: str) -> bool:
    """What a document calls itself at its top, never a name: "Resume", "简历 / Resume",
    "## Résumé", also letter-spaced as forms print it ("个 人 简 历", "R E S U M E"), and a
    form's "个人简历表" / "Personal Resume"."""
    text = plain_title(text)
    if _SPACED_RE.match(text) and all(len(w) == 1 for w in text.split()):
        text = "".join(text.split())
    return _only_title_words(text) or _only_title_words(_AFFIXES_RE.sub("", text))
