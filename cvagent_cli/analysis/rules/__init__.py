"""Shared ground for the analyzer rules: a per-document context built once, plus helpers.

Every rule module exposes ``check(ctx) -> list[RawFinding]``.  The context precomputes what
several rules need (the effective kind of each section, every bullet and paragraph as an
``Item``), in one linear pass, so no rule has to rescan the document per bullet; the
entries (jobs, schools, projects with their date ranges) are the document's own
(``ResumeDocument.entries``), as the exporters read them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from cvagent_cli import languages
from cvagent_cli.analysis.rules.catalogue import RULES
from cvagent_cli.analysis.schema import Finding, Severity
from cvagent_cli.document.document import ResumeDocument, Section
from cvagent_cli.document.entries import Entry
from cvagent_cli.document.lazy import cached_property
from cvagent_cli.languages import WORD_RE, Language, Verbs
from cvagent_cli.script import IDEOGRAPH_RE

IMPACT_KINDS = frozenset({"experience", "projects", "volunteer"})
#: A word of an internship, in any language ("Data Intern", "实习生").
INTERN_RE = re.compile(
    "|".join(languages.words_of(lambda language: language.sections.internship)), re.IGNORECASE
)
CJK_RE = IDEOGRAPH_RE
EN_WORD_RE = WORD_RE
_FIRST_WORD_RE = re.compile(r"[A-Za-z][A-Za-z'’-]*")
# "Tech: Go, Kafka" / "技术栈：Spring Boot": a label, not an achievement.
_LABEL_RE = re.compile(r"^\s*([^:：]{1,24})[:：]\s*\S")
# "[a-z][a-z]*", not "[a-z]+": re skips ahead to the first possible character only when a
# pattern starts with a plain character class, not a repeat (~2× faster on a bullet).
_TOKEN_RE = re.compile(r"[a-z][a-z]*(?:['’][a-z]+)?")
_MARKUP_RE = re.compile(r"^[\s#>*_`~\-+|]+|[\s*_`~|]+$")


@dataclass(frozen=True)
class Item:
    """One bullet or paragraph with the section that holds it and its effective kind."""

    section: Section
    kind: str
    line: int
    text: str
    is_bullet: bool
    language: Language  # the line's own: an English bullet in a Chinese resume is English

    @cached_property
    def lower(self) -> str:
        return self.text.lower()

    @cached_property
    def tokens(self) -> frozenset[str]:
        """Lower-case English words: a cheap set test before a rule runs its full regex."""
        return frozenset(_TOKEN_RE.findall(self.lower))

    # Read by several rules (impact and clarity each skip labels and look at the opening
    # verb), so each is worked out once per item rather than once per rule.
    @cached_property
    def label(self) -> bool:
        """A "Tech: Go, Kafka" line (``is_label``)."""
        return is_label(self.text, self.language)

    @cached_property
    def first_word(self) -> str:
        return first_word(self.text)

    @cached_property
    def first_lemma(self) -> str | None:
        """``lemma(first_word)``: the opening action verb's base form, if it is one."""
        verbs = self.language.wording.verbs
        return lemma(self.first_word, verbs) if verbs else None


@dataclass
class Context:
    doc: ResumeDocument
    language: Language
    today: date
    kinds: dict[str, str]
    roots: dict[str, str]
    items: list[Item]
    entries: list[Entry]
    extras: dict[str, object] = field(default_factory=dict)  # results rules share (impact stats)
    owner: list[Section | None] = field(default_factory=list)  # line -> innermost section
    bullets: dict[int, Item] = field(default_factory=dict)  # line -> the bullet's item

    def section_at(self, line: int) -> Section | None:
        """O(1), unlike ``ResumeDocument.section_at`` which scans every section."""
        return self.owner[line] if 0 < line < len(self.owner) else None

    def items_of(self, entry: Entry) -> list[Item]:
        """The bullets of ``entry``, as items."""
        return [self.bullets[b.line] for b in entry.bullets if b.line in self.bullets]

    def has_kind(self, kind: str) -> bool:
        return kind in self.kinds.values()

    def report(
        self,
        rule_id: str,
        message: str,
        *,
        fix: Mapping[str, object] | None = None,
        plain: bool = False,
        language: Language | None = None,
        severity: Severity | None = None,
        section: Section | str | None = None,
        line: int | None = None,
        text: str | None = None,
    ) -> RawFinding:
        """A finding of ``rule_id`` with its severity and fix from the catalogue.

        ``fix`` fills the fix template's fields (see ``catalogue``); ``plain`` picks the fix
        for when no example could be built; ``language`` overrides the resume's (a
        Chinese bullet in an English resume); ``severity`` overrides the catalogue's."""
        spec = RULES[rule_id]
        return make(
            rule_id,
            severity or spec.severity,
            message,
            spec.fix(language or self.language, plain=plain, **(fix or {})),
            section=section,
            line=line,
            text=text,
        )

    def report_item(self, rule_id: str, item: Item, message: str, **kwargs: Any) -> RawFinding:
        """``report`` located at one bullet or paragraph."""
        return self.report(
            rule_id, message, section=item.section, line=item.line, text=item.text, **kwargs
        )


def effective_kinds(doc: ResumeDocument) -> tuple[dict[str, str], dict[str, str]]:
    """Kind per section id, and root id per section id.

    A sub-heading inherits its top-level section's kind: "星河电商科技有限公司 — 前端技术负责人"
    under 工作经历 is an experience entry even though its own title contains "技术".
    """
    by_id = {s.id: s for s in doc.sections}
    kinds: dict[str, str] = {}
    roots: dict[str, str] = {}
    for section in doc.sections:  # parents come before their children
        parent = by_id.get(section.parent_id) if section.parent_id else None
        if parent is None:
            roots[section.id] = section.id
            kinds[section.id] = section.kind
            continue
        roots[section.id] = roots[parent.id]
        inherited = kinds[parent.id]
        kinds[section.id] = inherited if inherited not in ("other", "contact") else section.kind
    return kinds, roots


def build_context(doc: ResumeDocument, today: date | None = None) -> Context:
    kinds, roots = effective_kinds(doc)
    language = languages.get(doc.language)
    items: list[Item] = []
    for section in doc.sections:
        kind = kinds[section.id]
        for bullet in section.bullets:
            line_language = languages.of_line(bullet.text, language)
            items.append(Item(section, kind, bullet.line, bullet.text, True, line_language))
        for para in section.paragraphs:
            line_language = languages.of_line(para.text, language)
            items.append(Item(section, kind, para.line, para.text, False, line_language))
    items.sort(key=lambda it: it.line)
    owner: list[Section | None] = [None] * (len(doc.lines) + 2)
    for section in doc.sections:  # own spans do not overlap: linear overall
        for number in range(section.start_line, min(section.own_end_line, len(doc.lines)) + 1):
            owner[number] = section
    return Context(
        doc,
        language,
        today or date.today(),
        kinds,
        roots,
        items,
        doc.entries,
        owner=owner,
        bullets={item.line: item for item in items if item.is_bullet},
    )


def is_internship(entry: Entry) -> bool:
    return bool(INTERN_RE.search(entry.text))


def entry_label(ctx: Context, entry: Entry) -> str:
    """What a finding quotes of an entry: its heading, or a list's first line."""
    return entry.text or clean_line(ctx.doc.line(entry.line))


# -- text helpers -----------------------------------------------------------------------
def clean_line(text: str) -> str:
    return _MARKUP_RE.sub("", text).replace("**", "").replace("<br>", "").strip()


def shorten(text: str, width: int = 80) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1].rstrip() + "…"


def en_words(text: str) -> list[str]:
    return EN_WORD_RE.findall(text)


def first_word(text: str) -> str:
    """The first English word, skipping a leading "I" (the pronoun rule reports that)."""
    words: list[str] = _FIRST_WORD_RE.findall(text[:60])
    if words and words[0] == "I" and len(words) > 1:
        return words[1]
    return words[0] if words else ""


def lemma(word: str, verbs: Verbs) -> str | None:
    """The action-verb base of ``word`` ("Led" → lead, "shipped" → ship), or None: English
    inflections, the only language with ``verbs`` so far."""
    w = word.lower()
    if w in verbs.irregular_past:
        return verbs.irregular_past[w]
    candidates = [w]
    if w.endswith("ied"):
        candidates.append(w[:-3] + "y")
    if w.endswith("ed"):
        candidates += [w[:-2], w[:-1], w[:-3]]
    if w.endswith("ies"):
        candidates.append(w[:-3] + "y")
    if w.endswith("es"):
        candidates.append(w[:-2])
    if w.endswith("s"):
        candidates.append(w[:-1])
    if w.endswith("ing"):
        candidates += [w[:-3], w[:-3] + "e", w[:-4]]
    return next((c for c in candidates if c in verbs.action), None)


def is_label(text: str, language: Language) -> bool:
    if ":" not in text and "：" not in text:
        return False  # what _LABEL_RE needs first, at a fraction of its cost
    match = _LABEL_RE.match(text)
    if not match:
        return False
    prefix = match.group(1).strip()
    if not language.spaced:
        return len(prefix) <= 8  # characters: no spaces to count words by
    words = prefix.split()
    verbs = language.wording.verbs
    return 0 < len(words) <= 4 and (verbs is None or lemma(words[0], verbs) is None)


@dataclass(frozen=True, slots=True)
class RawFinding:
    """A finding as rules emit it: a plain record, ~20× cheaper to create than the pydantic
    ``Finding``.  A 5 MB resume yields ~10^5 of them; only the few the report keeps become
    ``Finding`` models (``to_model``), and that validates them."""

    rule_id: str
    severity: Severity
    category: str
    section_id: str | None
    line: int | None
    text: str | None
    message: str
    suggestion: str

    def to_model(self) -> Finding:
        return Finding(
            rule_id=self.rule_id,
            severity=self.severity,
            category=self.category,  # type: ignore[arg-type]
            section_id=self.section_id,
            line=self.line,
            text=self.text,
            message=self.message,
            suggestion=self.suggestion,
        )


def make(
    rule_id: str,
    severity: Severity,
    message: str,
    suggestion: str,
    *,
    section: Section | str | None = None,
    line: int | None = None,
    text: str | None = None,
) -> RawFinding:
    section_id = section.id if isinstance(section, Section) else section
    return RawFinding(
        rule_id,
        severity,
        rule_id.split(".")[0],
        section_id,
        line,
        shorten(text) if text else None,
        message,
        suggestion,
    )
