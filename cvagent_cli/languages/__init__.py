"""The languages cvagent reads and writes, one module each in this folder (``en.py``,
``zh.py``): a module defines ``LANGUAGE``, every word of that language the analyzer, the
Markdown reader, import and export use, grouped by job.  The registry finds every module
here, so adding a language is adding one file (see "Adding a language" in
docs/developer-guide.md).

Where a language differs in a rule rather than in words (Chinese puts no space between
words, so a bullet is measured in characters), the difference is a small function on the
``Language`` (``size``), not a branch on the language's code in the rule.

The words are data; the modules that read them build their patterns from every registered
language (the date grammar reads every language's months, the section reader every
language's section titles), since a resume in one language often names things in another.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from cvagent_cli.registry import find_in_package
from cvagent_cli.script import ZH_SHARE

#: The language a text is read in when no other is recognised, and whose advice stands in
#: where another language has none of its own.
FALLBACK = "en"

#: A word of a language written with spaces between words ("C++", "don't", "v2.1").
WORD_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’+#./-]*")
_LETTERS_RE = re.compile(r"[^\W\d_]+")
_SPACE_RE = re.compile(r"\s")


def spaced_size(text: str) -> int:
    """The length of a bullet written with spaces between words: its words."""
    return len(WORD_RE.findall(text))


def unspaced_size(text: str) -> int:
    """The length of a bullet written without spaces (Chinese): its characters."""
    return len(_SPACE_RE.sub("", text))


@dataclass(frozen=True)
class Sections:
    """What a resume calls its sections."""

    #: section kind → the exact titles of that kind (compared after ``normalize_title``)
    titles: Mapping[str, tuple[str, ...]]
    #: (word, kind), in order: the first word contained in an unknown title decides its kind
    keywords: tuple[tuple[str, str], ...]
    #: words that join two section names into one title ("Honors and Awards", "证书和奖项")
    joiners: tuple[str, ...] = ()
    #: words that make an entry an internship ("intern", "实习")
    internship: tuple[str, ...] = ()
    #: names of languages: a section's title when a heading, an item of a list otherwise
    language_names: tuple[str, ...] = ()
    #: the standard titles, as advice quotes them
    standard: str = ""
    #: an entry's title names the role first ("Engineer, Acme"), else the organisation
    #: ("星河科技 前端工程师"): how a title without a separator is split
    role_first: bool = True
    #: the title export gives each section of a data format (JSON Resume's ``work`` …)
    export_titles: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Contact:
    """The words of a resume's contact details."""

    #: labels before a place ("Location:", "现居："), and phrases that lead into one ("based in")
    location_labels: tuple[str, ...] = ()
    location_phrases: tuple[str, ...] = ()
    #: cities a resume names without a label, looked for in this order
    cities: tuple[str, ...] = ()
    #: front-matter keys that hold contact details ("phone", "地址"), lower case
    front_matter_keys: tuple[str, ...] = ()
    #: the label cells of a personal-details grid ("Name | Lena", "姓名 | 林晓蕾"), lower case
    form_labels: tuple[str, ...] = ()
    #: the labels of the person's name in such a grid or a "Name:" line ("full name", "姓名")
    name_labels: tuple[str, ...] = ()
    #: the labels (and section titles) of the position the person seeks ("求职意向"): the
    #: headline a data format exports
    objective_labels: tuple[str, ...] = ()


@dataclass(frozen=True)
class Entries:
    """The words of an entry's title ("Data Analyst — Acme Corp", "星河科技有限公司 前端工程师")."""

    #: words that name a job: whole words where words are spaced ("engineer"), else parts of
    #: a word ("工程师" in "运维工程师")
    roles: tuple[str, ...] = ()
    #: words that name an organisation, the same way ("inc", "university"; "公司", "大学")
    organisations: tuple[str, ...] = ()


@dataclass(frozen=True)
class Dates:
    """The words of dates ("Mar 2019 – Present", "2019.03 - 至今")."""

    #: twelve regexes, January first, each matching every way the language writes a month
    months: tuple[str, ...] = ()
    #: the months as export writes them, January first ("Jan")
    abbreviations: tuple[str, ...] = ()
    #: season → its first and last month
    seasons: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    #: the words that end a range still running; a word that begins another comes after it
    present: tuple[str, ...] = ()
    #: words of ``present`` that say something else in running text ("today")
    present_not_in_prose: tuple[str, ...] = ()
    #: words that say, in a sentence, that a job goes on ("still")
    still: tuple[str, ...] = ()
    #: words between the ends of a range, with spaces round them ("to", "until")
    range_words: tuple[str, ...] = ()
    #: characters between the ends of a range, like a dash ("至", "到")
    range_marks: str = ""


@dataclass(frozen=True)
class Numbers:
    """The words of numbers the metrics rule reads ("three engineers", "cut 2 hours")."""

    #: numbers written as words, as regex alternatives ("two", "a dozen")
    words: tuple[str, ...] = ()
    #: units of time, as regex alternatives ("hours?", "小时"): a duration is a metric only
    #: when it changed ("saved 10 hours")
    durations: tuple[str, ...] = ()


@dataclass(frozen=True, eq=False)
class Verbs:
    """The verbs of a language whose bullets open with one (English): what the action-verb,
    tense and passive-voice rules read.  A language without them skips those rules."""

    #: base forms; past, third-person and -ing forms are derived (``rules.lemma``)
    action: frozenset[str]
    #: past forms that do not end in -ed → their base ("built" → "build")
    irregular_past: Mapping[str, str]
    #: the same spelling in present and past: they say nothing about tense ("cut", "set")
    ambiguous_tense: frozenset[str]
    #: irregular past participles, for the passive voice ("was built", "were led by")
    participles: tuple[str, ...]
    #: "-ed" words after a be-verb that are adjectives in resumes ("based"), not passives
    not_passive: frozenset[str]


@dataclass(frozen=True)
class Wording:
    """The words the analyzer judges a bullet by, and how it measures one."""

    #: openers that describe a duty, not a result ("responsible for", "负责"), longest first
    weak_openers: tuple[str, ...] = ()
    #: a regex of what may come before a weak opener (a pronoun, "was")
    weak_opener_lead: str = ""
    #: strong verbs, as advice lists them
    strong_verbs: str = ""
    #: clichés, as regex fragments (matched whole-word in a language written with spaces)
    buzzwords: tuple[str, ...] = ()
    #: every buzzword contains one of these (lower case): a fast pre-check before the regex
    buzzword_triggers: tuple[str, ...] = ()
    #: the verbs of the rules that read a bullet's opening verb; None: those rules skip it
    verbs: Verbs | None = None
    #: the length of a bullet, in ``size_unit``
    size: Callable[[str], int] = spaced_size
    size_unit: str = "words"
    #: an experience or project bullet longer or shorter than this (in ``size_unit``) is flagged
    longest_bullet: int = 35
    shortest_bullet: int = 4
    #: the length of a line as the impact rules tell an entry's header from prose, and the
    #: sizes under which a line (a dated line) is a header
    line_size: Callable[[str], int] = spaced_size
    header_size: int = 4
    dated_header_size: int = 14


@dataclass(frozen=True)
class Labels:
    """The words export writes and a data format's reader fills in."""

    present: str = "Present"  # the end of a range still running
    resume: str = "Resume"  # what the document is (a DOCX's category, a PDF's title)
    resume_of: str = "Resume of {name}"  # a document's title
    contact: str = "Contact"  # a section of contact details
    email: str = "Email"
    phone: str = "Phone"
    colon: str = ": "  # between a contact's label and its value ("Email: …")
    key_colon: str = ":"  # between a skill group's name and its items ("Languages:Go")
    joiner: str = ", "  # between the items of a list ("Go, Rust")
    degree_first: bool = True  # "B.Sc. in Physics, Uni" rather than "Uni 物理 本科"
    degree_in: str = "{degree} in {area}"  # a degree and its subject ("物理 本科")
    dated: str = "{text} ({date})"  # an award or publication and its date ("2020.05 奖学金")
    score: str = "GPA"  # the bullets a data format's fields become ("GPA: 3.8")
    courses: str = "Courses"
    roles: str = "Roles"
    keywords: str = "Keywords"
    dash: str = " – "  # between the ends of a date range
    date_format: str = "Mon YYYY"  # how a data format's dates are written out
    html_lang: str = "en"  # the HTML lang attribute
    rendercv_locale: str = ""  # rendercv's locale.language ("": its default, English)
    docx_lang: str = "en-US"  # the DOCX core property
    typst_lang: str = '"en"'  # typst's text(lang: …) arguments
    fonts: str = '"Noto Sans", "Noto Sans SC"'  # typst's font list, first choice first
    #: where a number without a country code is read first ("": no guess from the language;
    #: the places the resume names decide, then US and CN)
    phone_region: str = ""


@dataclass(frozen=True, eq=False)
class Language:
    """Every word of one language cvagent uses, grouped by job."""

    code: str  # ISO 639-1: "en", "zh"
    name: str  # in English: "English", "Chinese"
    #: what the chat and the review tell the model to reply in
    reply_in: str
    sections: Sections
    dates: Dates
    wording: Wording
    labels: Labels = field(default_factory=Labels)
    entries: Entries = field(default_factory=Entries)
    contact: Contact = field(default_factory=Contact)
    numbers: Numbers = field(default_factory=Numbers)
    #: a regex character-class body of the characters only this language writes ("" for a
    #: Latin-script language); a text with enough of them is in this language
    script: str = ""
    #: common words that tell this language from another of the same script
    markers: frozenset[str] = frozenset()
    #: what a document calls itself ("Resume", "简历"), and the words that may stand beside it
    resume_words: frozenset[str] = frozenset()
    resume_fillers: frozenset[str] = frozenset()
    #: a top heading that is one of these is a generic title, not the person's name
    resume_titles: frozenset[str] = frozenset()
    #: the analyzer's suggestions, by rule id (``catalogue``); a rule missing here reads the
    #: fallback language's.  ``plain_fixes``: when no example can be built from the user's words
    fixes: Mapping[str, str] = field(default_factory=dict)
    plain_fixes: Mapping[str, str] = field(default_factory=dict)
    #: a reminder for every chat turn in this language ("" when the base prompt suffices)
    reply_rule: str = ""

    @property
    def spaced(self) -> bool:
        """Whether words are written with spaces between them."""
        return not self.script

    def __repr__(self) -> str:
        return f"Language({self.code!r})"


def find_languages(path: Iterable[str], package: str) -> dict[str, Language]:
    """The ``LANGUAGE`` of every module of ``package`` (at ``path``), by code, the fallback
    first and the rest by code; a module's name is its language's code."""
    return find_in_package(path, package, "LANGUAGE", Language, lambda x: x.code, FALLBACK)


REGISTRY = find_languages(__path__, __name__)


def get(code: str) -> Language:
    """The language of ``code``; the fallback language for a code cvagent does not know."""
    return REGISTRY.get(code) or REGISTRY[FALLBACK]


def every() -> Iterator[Language]:
    """Every language, the fallback first."""
    return iter(REGISTRY.values())


def words_of(pick: Callable[[Language], Iterable[str]]) -> tuple[str, ...]:
    """``pick``'s words of every language, in registry order, each once."""
    return tuple(dict.fromkeys(w for language in every() for w in pick(language)))


_SCRIPT_RES = {
    code: re.compile(f"[{lang.script}]") for code, lang in REGISTRY.items() if lang.script
}
_SCRIPTS = tuple((script, REGISTRY[code]) for code, script in _SCRIPT_RES.items())


def of_line(text: str, document: Language) -> Language:
    """The language of one line of a resume in ``document``'s language: the language whose
    script it is written in, else the document's when that is written in Latin letters,
    else the fallback (an English bullet in a Chinese resume)."""
    for script, language in _SCRIPTS:
        if script.search(text):
            return language
    return document if document.spaced else REGISTRY[FALLBACK]


def detect(text: str, *, han: int | None = None, words: int | None = None) -> Language:
    """The language ``text`` is written in: a language with a script of its own (Chinese)
    when its characters make at least ``ZH_SHARE`` of the words (each character counted as
    one word; ``han`` and ``words`` when the caller has counted them), else the
    Latin-script language whose common words it uses most, the fallback on a tie."""
    for code, script in _SCRIPT_RES.items():
        own = len(script.findall(text)) if han is None else han
        total = own + len(WORD_RE.findall(text)) if words is None else words
        if own and own >= total * ZH_SHARE:
            return REGISTRY[code]
    return _by_markers(text)


def _by_markers(text: str) -> Language:
    latin = [language for language in every() if language.spaced and language.markers]
    if len(latin) < 2:
        return REGISTRY[FALLBACK]  # one Latin-script language: nothing to tell apart
    counts: dict[str, int] = {}
    for word in _LETTERS_RE.findall(text.casefold()):
        for language in latin:
            if word in language.markers:
                counts[language.code] = counts.get(language.code, 0) + 1
    best = max(counts, key=lambda code: (counts[code], code == FALLBACK), default=FALLBACK)
    return REGISTRY[best]
