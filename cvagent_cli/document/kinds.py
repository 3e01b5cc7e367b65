"""Section kinds from the section titles of every language (``cvagent_cli/languages``)."""

from __future__ import annotations

import re
from typing import Literal

from cvagent_cli import languages

SectionKind = Literal[
    "contact",
    "summary",
    "experience",
    "projects",
    "education",
    "skills",
    "awards",
    "certifications",
    "publications",
    "languages",
    "volunteer",
    "interests",
    "references",
    "courses",
    "other",
]

#: Every language's section titles (exact, after ``normalize_title``) and their kinds.
TITLE_KINDS: dict[str, str] = {
    title: kind
    for language in languages.every()
    for kind, titles in language.sections.titles.items()
    for title in titles
}
#: Section names that are also ordinary items of a section: a language's name titles a
#: languages section when it is written as a heading (``## English``), but a line "English"
#: alone is one of the languages listed under ``## Languages``, not a section of its own.
_ALSO_ITEMS = frozenset(languages.words_of(lambda language: language.sections.language_names))


#: What joins two section names into one title ("Honors & Awards", "证书和奖项", "工作/实习").
_TITLE_JOINER_RE = re.compile(
    r"\s*(?:&|＆|\+|/|／|、|"
    + "|".join(
        rf"\b{word}\b" if language.spaced else word
        for language in languages.every()
        for word in language.sections.joiners
    )
    + r")\s*",
    re.IGNORECASE,
)


def is_standalone_title(title: str) -> bool:
    """Whether ``title``, on a line of its own without heading markup, names a section:
    a section name, or two or three of them joined ("Publications & Patents")."""
    norm = normalize_title(title)
    if norm in TITLE_KINDS:
        return norm not in _ALSO_ITEMS
    parts = [normalize_title(p) for p in _TITLE_JOINER_RE.split(title.strip()) if p]
    return 2 <= len(parts) <= 3 and all(p in TITLE_KINDS and p not in _ALSO_ITEMS for p in parts)


# Ordered: the first keyword contained in a title decides (more specific first), every
# language's in turn.
_KEYWORDS: tuple[tuple[str, str], ...] = tuple(
    pair for language in languages.every() for pair in language.sections.keywords
)

_SEPARATOR = r"[\s:：|/&·•\-—–_()（）\[\]【】]"
# One separator then any more, not "[…]+": a pattern that starts with a plain character
# class lets re skip ahead to the first separator (see _TOKEN_RE in rules/__init__.py).
_NORMALIZE_RE = re.compile(f"{_SEPARATOR}{_SEPARATOR}*")
# Decoration people put in headings: emoji, icon-font glyphs (private-use code points from
# &#xf0b1; entities), GitHub :shortcodes: and Font Awesome <i> tags already stripped.
_DECORATION_RE = re.compile(
    r":[a-z0-9_+-]+:|[\U0001F000-\U0001FAFF\u2600-\u27BF\uE000-\uF8FF\uFE0F\u200d\u2B00-\u2BFF]"
)


def strip_decoration(title: str) -> str:
    if title.isascii() and ":" not in title:
        return " ".join(title.split())  # no shortcode, and no emoji or icon glyph to strip
    return " ".join(_DECORATION_RE.sub(" ", title).split())


# "一、基本信息", "2. Education", "(三) 工作经历", "IV. Skills": a number in front of a title.
_ENUMERATOR_RE = re.compile(
    r"^\s*[(（]?(?:[一二三四五六七八九十]+|\d{1,2}|[ivx]{1,4})[)）]?\s*[、.．)）]\s*"
)


def normalize_title(title: str) -> str:
    text = strip_decoration(title).casefold()
    # _ENUMERATOR_RE is anchored at the start: match there and cut, rather than let
    # ``sub`` try (and fail) the pattern at every position of the title.
    enumerator = _ENUMERATOR_RE.match(text)
    if enumerator:
        text = text[enumerator.end() :]
    return _NORMALIZE_RE.sub(" ", text).strip()


def classify_title(title: str) -> str:
    """The section kind for a heading title; ``other`` when nothing matches."""
    norm = normalize_title(title)
    if not norm:
        return "other"
    if norm in TITLE_KINDS:
        return TITLE_KINDS[norm]
    if norm.replace(" and ", " ").replace(" & ", " ") in TITLE_KINDS:
        return TITLE_KINDS[norm.replace(" and ", " ")]
    compact = norm.replace(" ", "")
    if compact in TITLE_KINDS:
        return TITLE_KINDS[compact]
    # Long titles are usually a job or project line ("Acme Corp — Senior Engineer").
    if len(norm) > 40:
        return "other"
    for keyword, kind in _KEYWORDS:
        if keyword in norm:
            return kind
    return "other"


# Kinds whose sections hold entries (a job, a project, a role).
ENTRY_SECTION_KINDS = frozenset({"experience", "projects", "volunteer"})
# "Project: Chat App", "项目一：电商平台", "Open Source Contributor at Mozilla",
# "Experience Design Intern, Figma", "Acme — Engineer (2019 – 2021)": a title that names one
# thing, by a separator with more words after it, " at ", a numbered project or a year.
_ENTRY_TITLE_RE = re.compile(
    r"[:：|｜—–@,，]\s*\S|\s-\s+\S|\bat\s+[A-Z]|项目\s*[一二三四五六七八九十\d]|(?:19|20)\d\d"
)


def names_an_entry(title: str) -> bool:
    """A heading that names a single project or job rather than a kind of section."""
    norm = normalize_title(title)
    if norm in TITLE_KINDS or norm.replace(" ", "") in TITLE_KINDS:
        return False
    return bool(_ENTRY_TITLE_RE.search(strip_decoration(title)))
