"""Job descriptions: the keywords a JD asks for, and how many of them a resume mentions.

Keywords come from a curated lexicon (rules/lexicon.py: EN technologies and practices with
aliases, a few soft skills, Chinese terms) plus technical-looking tokens (PostgreSQL, AWS,
H5, Protocol Buffers) found in the JD's requirement and responsibility bullets.

Matching decisions, all tested:
- whole words, with symbols kept: "C" never matches "C++"/"C#", "Java" never "JavaScript",
  "Go" (case-sensitive) never "going", "Google" or "go-to-market";
- aliases are one keyword: k8s ≡ Kubernetes, JS ≡ JavaScript, Postgres ≡ PostgreSQL,
  golang ≡ Go, and "React.js"/"ReactJS" count as React ("React Native" is its own term);
- Chinese terms match as substrings, since Chinese has no spaces between words.
Ranking: required (Requirements/任职要求) > responsibilities > elsewhere > nice-to-have
(加分项, "…优先", "preferred", "a plus"), then frequency, then first appearance; ≤ 40 kept.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from cvagent_cli.analysis.rules import CJK_RE
from cvagent_cli.analysis.rules.lexicon import (
    CASE_SENSITIVE_TERMS,
    SHORT_AMBIGUOUS,
    TECH_TERMS,
    ZH_TERMS,
)
from cvagent_cli.analysis.schema import JDCoverage, KeywordHit
from cvagent_cli.document.document import ResumeDocument
from cvagent_cli.store.textio import read_text_file

MAX_KEYWORDS = 40
REQUIRED, DUTIES, OTHER, NICE = 0, 1, 2, 3
_TIER_RES = (
    (NICE, re.compile(r"nice|preferred|bonus|plus|加分|优先", re.IGNORECASE)),
    (
        REQUIRED,
        re.compile(
            r"require|qualif|must|need|looking for|you have|who you are|skills|要求|资格|条件",
            re.IGNORECASE,
        ),
    ),
    (
        DUTIES,
        re.compile(
            r"responsib|what you.ll do|the role|duties|you will|职责|工作内容|职位描述|岗位描述",
            re.IGNORECASE,
        ),
    ),
)
_NICE_CLAUSE_RE = re.compile(r"优先|加分|preferred|a plus|nice to have|bonus", re.IGNORECASE)
_CLAUSE_RE = re.compile(r"[，,;；。!！]|\s-\s")
# Technical-looking tokens: inner capitals (PostgreSQL), acronyms (AWS, H5), or runs of
# capitalised words after the first word of a clause (Protocol Buffers).
_TOKEN_RE = re.compile(
    r"(?<![\w.])(?:[A-Za-z]+[A-Z][A-Za-z0-9]*|[A-Z][A-Z0-9]{1,6}|[A-Z][a-z]+(?:\s[A-Z][a-z]+)*)(?![\w])"
)
_STOP = frozenset(
    """
a an and or the with for in on at of to we you our your us they it this that experience strong deep working
production hands familiarity contributions knowledge proficiency ability excellent good great team teams
engineer engineers engineering senior junior lead company location type full time hybrid remote office
benefits salary equity about role job requirements nice have bonus plus must will can who what why how
years year ok ceo cto pto usa us eu bachelor master degree phd bs ms ba ma it hr api id
""".split()
)


@dataclass
class Keyword:
    name: str
    forms: tuple[str, ...]
    tier: int = OTHER
    count: int = 0
    first: int = 0


_WORD_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")


@dataclass(frozen=True)
class _Form:
    """One spelling of a keyword: a regex that starts with the literal (so the regex engine
    can scan for it quickly) plus the characters that must not precede it, checked by hand."""

    regex: re.Pattern[str]
    left: frozenset[str]
    probe: str  # a substring every match contains: a cheap "could it be here?" test
    exact: bool


def _compile(form: str) -> _Form:
    if CJK_RE.search(form):
        return _Form(re.compile(re.escape(form)), frozenset(), form, True)
    body = r"[\s-]+".join(re.escape(part) for part in form.split())
    left = _WORD_CHARS if form.startswith(".") else _WORD_CHARS | {"."}
    right = r"(?![A-Za-z0-9_+#])(?!\.[A-Za-z0-9])"
    if form in SHORT_AMBIGUOUS:  # "C-level", "R&D", "Daniel R. Okafor", "C 端", "Go-to-market"
        left, right = left | set("&/-"), right + r"(?![-&'’])(?!\.\s?[A-Z])(?!\s?端)"
    exact = form in CASE_SENSITIVE_TERMS
    probe = form.split()[0] if exact else form.split()[0].lower()
    return _Form(
        re.compile(body + right, 0 if exact else re.IGNORECASE), frozenset(left), probe, exact
    )


def _lexicon() -> list[Keyword]:
    return [Keyword(spec.split("|")[0], tuple(spec.split("|"))) for spec in TECH_TERMS + ZH_TERMS]


class _Matcher:
    def __init__(self, keywords: list[Keyword]) -> None:
        self.entries = [
            (keyword, [_compile(form) for form in keyword.forms]) for keyword in keywords
        ]

    @staticmethod
    def _matches(form: _Form, text: str, lowered: str):  # type: ignore[no-untyped-def]
        if form.probe not in (text if form.exact else lowered):
            return
        for match in form.regex.finditer(text):
            if match.start() == 0 or text[match.start() - 1] not in form.left:
                yield match

    def present(self, text: str) -> list[Keyword]:
        """Keywords mentioned anywhere in ``text`` (stops at each keyword's first hit)."""
        lowered = text.lower()
        return [
            keyword
            for keyword, forms in self.entries
            if any(next(self._matches(form, text, lowered), None) is not None for form in forms)
        ]

    def spans(self, text: str) -> list[tuple[int, int, Keyword]]:
        """Every match, minus those inside a longer match of another keyword
        ("React" inside "React Native", "CI" inside "CI/CD")."""
        lowered = text.lower()
        found = sorted(
            (
                (m.start(), m.end(), keyword)
                for keyword, forms in self.entries
                for form in forms
                for m in self._matches(form, text, lowered)
            ),
            key=lambda s: (s[0], s[0] - s[1]),
        )
        kept: list[tuple[int, int, Keyword]] = []
        reach, owner = -1, None
        for start, end, keyword in found:
            if end <= reach and keyword is not owner:
                continue
            if kept and kept[-1][0] == start and kept[-1][2] is keyword:
                continue
            kept.append((start, end, keyword))
            if end > reach:
                reach, owner = end, keyword
        return kept

    def find(self, text: str) -> list[tuple[int, Keyword]]:
        return [(start, keyword) for start, _, keyword in self.spans(text)]


_LEXICON_MATCHER: _Matcher | None = None


def _lexicon_matcher() -> _Matcher:
    global _LEXICON_MATCHER  # ~400 spellings: compile once per process
    if _LEXICON_MATCHER is None:
        _LEXICON_MATCHER = _Matcher(_lexicon())
    return _LEXICON_MATCHER


class JobDescription:
    def __init__(self, text: str, source: str, keywords: list[Keyword]) -> None:
        self.text = text
        self.source = source
        self.keyword_details = keywords

    @property
    def keywords(self) -> list[str]:
        return [k.name for k in self.keyword_details]

    @classmethod
    def from_path(cls, path: Path | str) -> JobDescription:
        return cls.from_text(read_text_file(Path(path), what="job description").text, str(path))

    @classmethod
    def from_text(cls, text: str, source: str = "<jd>") -> JobDescription:
        doc = ResumeDocument.from_text(text, source=source)
        names = {k.name.casefold(): k.name for k in _lexicon()}
        found: dict[str, Keyword] = {}
        position = 0
        for section in doc.sections:
            tier = next((t for t, regex in _TIER_RES if regex.search(section.title)), OTHER)
            for item in sorted(section.bullets + section.paragraphs, key=lambda b: b.line):
                for clause in _CLAUSE_RE.split(item.text):
                    clause_tier = NICE if _NICE_CLAUSE_RE.search(clause) else tier
                    spans = _lexicon_matcher().spans(clause)
                    hits = [(start, k.name, k.forms) for start, _, k in spans]
                    if tier != OTHER:  # "About us" and "Benefits" name no skills
                        hits += [(pos, tok, (tok,)) for pos, tok in _tokens(clause, names, spans)]
                    for pos, name, forms in sorted(hits, key=lambda h: h[0]):
                        keyword = found.setdefault(
                            name.casefold(), Keyword(name, forms, clause_tier, 0, position + pos)
                        )
                        keyword.tier = min(keyword.tier, clause_tier)
                        keyword.count += 1
                    position += len(clause) + 1
        ranked = sorted(found.values(), key=lambda k: (k.tier, -k.count, k.first))[:MAX_KEYWORDS]
        return cls(text, source, ranked)

    def coverage(self, doc: ResumeDocument) -> JDCoverage:
        matcher = _Matcher(self.keyword_details)
        where: dict[str, list[str]] = {}
        for section in doc.sections:  # own spans: each line is searched once
            text = doc.span_text(section.start_line, max(section.start_line, section.own_end_line))
            for keyword in matcher.present(text):
                where.setdefault(keyword.name, []).append(section.id)
        matched = [
            KeywordHit(keyword=k.name, sections=where[k.name])
            for k in self.keyword_details
            if k.name in where
        ]
        missing = [k.name for k in self.keyword_details if k.name not in where]
        total = len(self.keyword_details)
        return JDCoverage(
            source=self.source,
            keywords=self.keywords,
            matched=matched,
            missing=missing,
            coverage=round(100 * len(matched) / total, 1) if total else 0.0,
        )


def _tokens(
    clause: str, known: dict[str, str], taken: list[tuple[int, int, Keyword]]
) -> list[tuple[int, str]]:
    tokens: list[tuple[int, str]] = []
    first = True
    for match in _TOKEN_RE.finditer(clause):
        token = match.group()
        at_start = first and not clause[: match.start()].strip(" *-•0123456789.、)）")
        first = False
        words = token.split()
        if at_start and len(words) == 1 and token[1:].islower():
            continue  # an ordinary capitalised first word ("Experience with …")
        if token.casefold() in known or any(w.casefold() in _STOP for w in words) or len(token) < 2:
            continue
        end = match.start() + len(token)
        if any(start < end and match.start() < stop for start, stop, _ in taken):
            continue  # part of a lexicon term: "CI" in "CI/CD"
        if _lexicon_matcher().find(token):
            continue  # contains a lexicon term
        tokens.append((match.start(), token))
    return tokens
