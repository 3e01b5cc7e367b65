"""The person's name: cleaned from the places real resumes put it, or refused.

A candidate (front matter, the title heading, an HTML banner, a labelled line …) is cleaned
of markup and of the words around a name ("X的简历", "Kofi Mensah's Resume",
"NAME | COUNTRY | CITY") and kept only when it *looks* like a name: two to four Chinese
characters, or a few capitalised words.  Refusing is the point: a document title ("简历",
"Résumé"), a section title, a sentence ("This is my CV for …") or an HTML tag is never a name.
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Iterable

from cvagent_cli import languages
from cvagent_cli.document import zh_names
from cvagent_cli.document.kinds import classify_title, strip_decoration
from cvagent_cli.document.title_words import TITLE_FILLERS, TITLE_WORDS
from cvagent_cli.script import HAN, is_east_asian

_TAG_RE = re.compile(r"<[^<>]*>")
_MARKUP_RE = re.compile(r"[*_`#>~]+")
_GENERIC_WORDS = TITLE_WORDS | TITLE_FILLERS
# "韩梓萱的简历", "韩梓萱的个人简历", "Kofi Mensah's Resume", "Resume of X", "Resume - X".
_ZH_OF_RESUME_RE = re.compile(r"^(.+?)\s*(?:的)?(?:个人|求职)?(?:简历|履历)$")
_EN_OF_RESUME_RE = re.compile(
    r"^(.+?)(?:['’]s?)\s+(?:resume|résumé|cv|curriculum vitae)$", re.IGNORECASE
)
_RESUME_OF_RE = re.compile(
    r"^(?:resume|résumé|cv|curriculum vitae|简历)\s*(?:of|[-–—:：|｜])\s*(.+)$", re.IGNORECASE
)
_ASIDE_RE = re.compile(r"\s*[(（][^()（）]{1,20}[)）]\s*$")
_PARTS_RE = re.compile(r"\s*[|｜]\s*|\s+[-–—·•]\s+|\s*[/／]\s*|\s{3,}")
PARTICLES = frozenset(
    "van von der den de del della da di la le du bin binti bint ben al el ibn dos das do y e zu "
    "ter ten af av ap mac st.".split()
)
#: Prefixes that keep a capital inside one family name ("McAllister", "DeShawn").
INNER_CAPITALS = ("mc", "mac", "de", "di", "da", "du", "la", "le", "van", "von", "fitz", "st", "o")
_NAME_PUNCTUATION = frozenset("'’.-‐")
_QUOTES = {'"': '"', "“": "”", "'": "'", "‘": "’", "(": ")", "«": "»", "„": "“"}
_LABEL_RE = re.compile(
    r"(?:^|[|｜\s•·-])[*_]*(?:full\s*name|name|姓\s*名)\s*[*_]*\s*[:：|｜]\s*[*_]*\s*([^|｜\n,，;；]{1,40})",
    re.IGNORECASE | re.MULTILINE,
)
_FIRST_LAST_RE = (
    re.compile(r"(?:first|given)\s*name\s*[*_:：]*\s*\n*\s*([^\W\d_][\w'’-]+)", re.IGNORECASE),
    re.compile(r"(?:last|family|sur)\s*name\s*[*_:：]*\s*\n*\s*([^\W\d_][\w'’-]+)", re.IGNORECASE),
)
# "宋嘉禾/男/1998", "宋嘉禾 | 男 | 28岁": a name followed by a gender.
_NAME_GENDER_RE = re.compile(rf"(?m)^[\s*+-]*([{HAN}]{{2,4}})\s*[/|｜,，、]\s*[男女]")
# A list item's mark: "- ", "* ", "1. ", "2)", "3、".
_ITEM_RE = re.compile(r"^\s*(?:[-*+•]|\d{1,2}[.)、])\s+")
# A contact item beside a name in a list: an e-mail address or a phone-like run of digits.
_CONTACT_ITEM_RE = re.compile(r"@|\d[\d ()./-]{6,}\d")
# Pandoc title block: "% Viktor Novak" on the first line.
_PANDOC_TITLE_RE = re.compile(r"\A\s*%\s*([^\n]+)")


def _plain(text: str) -> str:
    text = html.unescape(_TAG_RE.sub(" ", text))
    return " ".join(strip_decoration(_MARKUP_RE.sub(" ", text)).split())


def unglued(text: str) -> str | None:
    """A name printed as two runs with no space between them ("AnnaNováková": the given
    and family names in two weights) split where a lower-case letter meets a capital, when
    that leaves a name of two words; else None.  Not after a prefix that keeps a capital
    ("McCarthy")."""
    if " " in text:
        return None
    cuts = [i for i in range(1, len(text)) if text[i - 1].islower() and text[i].isupper()]
    if len(cuts) != 1 or text[: cuts[0]].casefold() in INNER_CAPITALS:
        return None
    split = f"{text[: cuts[0]]} {text[cuts[0] :]}"
    return split if clean_name(split) else None


def clean_name(raw: object) -> str | None:
    """The name in ``raw`` when it holds one, else None."""
    if not isinstance(raw, str):
        return None
    text = _plain(raw).strip(" :：,，.-")
    text = _ASIDE_RE.sub("", text)  # "黎景行 (3年开发)", "Ana Ruiz (she/her)"
    if not text:
        return None
    for regex in (_RESUME_OF_RE, _ZH_OF_RESUME_RE, _EN_OF_RESUME_RE):
        match = regex.match(text)
        if match:
            text = match.group(1).strip(" :：,，-")
            break
    text = _without_job_after(text)
    for part in _PARTS_RE.split(text):
        part = part.strip()
        if part:
            return part if looks_like_name(part) else None
    return None


def _without_job_after(text: str) -> str:
    """ "Anouk Ravensworth, UX Researcher", "马梓萱，开发工程师": a job title after a comma
    is the headline a template printed on the name's line, and the name is what comes
    before it; after a Chinese name (``zh_names.plausible``), whatever follows the comma.
    Anything else after a comma stays ("Ana Ruiz, PhD" is a credential, "Oakland, CA" a
    place)."""
    match = re.fullmatch(r"([^,，]+?)\s*[,，]\s*([^,，]+)", text)
    if not match:
        return text
    name, after = match.groups()
    if zh_names.plausible(name) and not _CREDENTIALS_RE.search(text):  # "马梓萱, Java"
        return name
    return name if is_role(after) and looks_like_name(name) else text


_CREDENTIALS_RE = re.compile(
    r",\s*(?:ph\.?d|mba|md|cpa|pmp|msc|bsc|jr|sr|ii|iii)\.?$", re.IGNORECASE
)


# A job title is not a name ("title: QA Automation Engineer" in front matter, "# 前端工程师").
#: Words that name a job, in the languages written with spaces ("engineer").
ROLE_WORDS = frozenset(
    languages.words_of(lambda language: language.entries.roles if language.spaced else ())
)
#: The same, in the languages written without spaces: found inside a word ("运维工程师").
ROLE_PARTS_RE = re.compile(
    "|".join(languages.words_of(lambda language: () if language.spaced else language.entries.roles))
)


def is_role(text: str) -> bool:
    """The text names a job ("Data Analyst", "运维工程师", "Intern")."""
    words = {w.strip(".,()").casefold() for w in text.split()}
    return bool(words & ROLE_WORDS) or bool(ROLE_PARTS_RE.search(text)) or "intern" in words


def _is_cjk_name(text: str) -> bool:
    """A Chinese, Japanese or Korean name by its shape: two to four characters ("韩梓萱",
    "김민준"), family and given name apart ("李 明", "山田 太郎"), or a transliterated name in
    parts joined by middle dots ("买买提·艾力", "阿依古丽·买买提·吐尔逊")."""
    if "·" in text or "•" in text:
        parts = re.split("[·•]", text)
        return len(parts) <= 3 and all(
            1 <= len(p) <= 6 and all(is_east_asian(ch) for ch in p) for p in parts
        )
    parts = text.split(" ")
    if len(parts) == 1:
        return 2 <= len(text) <= 4 and all(is_east_asian(ch) for ch in text)
    return (
        len(parts) == 2
        and all(1 <= len(p) <= 4 and all(is_east_asian(ch) for ch in p) for p in parts)
        and len(text) <= 8
    )


def _is_name_word(word: str) -> bool:
    """A capitalised word in any Latin-based script — Trần, Łukasz, Şükrü, Þórsdóttir,
    Ọlábísí (combining marks too), O'Connor, Dupont-Laurent — an initial ("J."), or a
    quoted nickname ("Sam")."""
    if len(word) >= 3 and _QUOTES.get(word[0]) == word[-1]:
        word = word[1:-1]  # Samantha "Sam" O'Connor
    if not word or not (word[0].isupper() or word[0].istitle()):
        return False
    return all(
        ch.isalpha() or ch in _NAME_PUNCTUATION or unicodedata.category(ch).startswith("M")
        for ch in word[1:]
    )


def _is_two_script_name(text: str) -> bool:
    """A name written twice, in Chinese (Japanese, Korean) characters and in Latin letters,
    either way round: "林小雨 Xiaoyu Lin", "Li Wei 李伟", "陈大文 Chan"."""
    words = text.split()
    if not 2 <= len(words) <= 6:
        return False
    east = [is_east_asian(w[0]) for w in words]
    if all(e == east[0] for e in east):
        return False  # "李明Wei": the scripts meet inside a word
    cut = east.index(not east[0])  # where the second script begins
    if any(e != east[0] for e in east[:cut]) or any(e == east[0] for e in east[cut:]):
        return False  # the scripts alternate: not one name in each
    cjk, latin = (words[:cut], words[cut:]) if east[0] else (words[cut:], words[:cut])
    return (
        _is_cjk_name(" ".join(cjk))
        and looks_like_name(" ".join(cjk))
        and 1 <= len(latin) <= 4
        and all(_is_name_word(w) for w in latin)
        and not any(w.casefold().strip(".") in ROLE_WORDS | _GENERIC_WORDS for w in latin)
    )


def looks_like_name(text: str) -> bool:
    if _is_cjk_name(text):
        return (
            text not in _GENERIC_WORDS
            and not ROLE_PARTS_RE.search(text)
            and classify_title(text) == "other"
        )
    if any(is_east_asian(ch) for ch in text) and any(ch.isascii() and ch.isalpha() for ch in text):
        return _is_two_script_name(text) and classify_title(text) == "other"
    text = _CREDENTIALS_RE.sub("", text)
    if "," in text:  # "Stockholm, Sweden", "Oakland, CA": a place
        return False
    words = text.split()
    named = [w for w in words if w not in PARTICLES]
    if not 2 <= len(named) <= 5 or len(words) > 8 or len(text) > 60:
        return False
    if all(w.casefold() in _GENERIC_WORDS for w in words):
        return False
    if any(ch.isdigit() or ch in "@/\\:" for ch in text):
        return False
    if not all(_is_name_word(w) or w in PARTICLES for w in words):
        return False
    if any(is_east_asian(ch) for ch in text):
        return False
    if any(w.casefold().strip(".") in ROLE_WORDS for w in words):
        return False
    return classify_title(text) == "other"


def family_first(raw: object) -> str | None:
    """A name written family name first, before a comma ("Ní Bhriain, Siobhán"), as the
    title heading or a front-matter name: only there, since elsewhere "Stockholm, Sweden"
    has the same shape."""
    if not isinstance(raw, str):
        return None
    text = _plain(raw).strip(" :：.-")
    family, comma, given = text.partition(",")
    given = given.strip()
    if not comma or "," in given or not given or given.isupper():  # "Oakland, CA", "…, USA"
        return None
    return text if looks_like_name(f"{family.strip()} {given}") else None


def first(candidates: Iterable[object]) -> str | None:
    for candidate in candidates:
        name = clean_name(candidate)
        if name:
            return name
    return None


def from_text(text: str) -> str | None:
    """A name stated in running text: a label, split first/last fields, a name/gender list,
    a pandoc title block."""
    for match in _LABEL_RE.finditer(text):
        name = clean_name(match.group(1))
        if name:
            return name
    given, family = (regex.search(text) for regex in _FIRST_LAST_RE)
    if given and family:
        name = clean_name(f"{given.group(1)} {family.group(1)}")
        if name:
            return name
    listed = _NAME_GENDER_RE.search(text)
    if listed and looks_like_name(listed.group(1)):
        return listed.group(1)
    title = _PANDOC_TITLE_RE.match(text)
    if title and clean_name(title.group(1)):
        return clean_name(title.group(1))
    return _from_contact_list(text)


def _from_contact_list(text: str) -> str | None:
    """A name that is only an item of a list of contact details ("- Ana Ruiz", "- ana@…",
    "1. Ana Ruiz", "2. +1 …"): the list's items hold an e-mail or a phone as well."""
    items: list[str] = []
    for line in [*text.splitlines()[:60], ""]:
        match = _ITEM_RE.match(line)
        if match:
            items.append(line[match.end() :])
            continue
        if any(_CONTACT_ITEM_RE.search(item) for item in items):
            name = first(items)
            if name:
                return name
        items = []
    return None


def from_lines(text: str, limit: int = 3) -> str | None:
    """The first of the opening lines that is nothing but a name (a banner or a bold line)."""
    seen = 0
    for line in text.splitlines():
        if not _plain(line):
            continue
        name = clean_name(_ITEM_RE.sub("", line, count=1))  # a numbered field: "1. Ana Ruiz"
        if name:
            return name
        seen += 1
        if seen >= limit:
            break
    return None
