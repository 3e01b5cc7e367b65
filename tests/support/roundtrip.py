"""What a round trip (export, then import) must keep: the name and section titles in order,
every bullet (modulo whitespace), the contact fields, and the score within 5 points.

Used by the import and export tests and by bench/roundtrip.py."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from cvagent_cli.analysis.analyzer import analyze
from cvagent_cli.document.document import ResumeDocument
from cvagent_cli.formats.markdown_source import export_lines

TODAY = date(2026, 11, 23)
CONTACTS = ("name", "email", "phone", "linkedin", "github", "website")


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text.replace("**", ""))


def titles(doc: ResumeDocument) -> list[str]:
    """The name and the section titles (entries are not compared: the import makes
    "**Job — Company**" lines `###` headings, which a bold line over a date is not).  The
    name is the person's, not the `#` line: a PDF import titles "# 个人简历 … 姓名：张丽"
    with the name, as it should."""
    sections = [squash(s.title) for s in doc.sections if s.heading_line and s.level == 2]
    return [squash(doc.basics.name or ""), *sections]


def bullets(doc: ResumeDocument) -> list[str]:
    return [squash(b.text) for s in doc.sections for b in s.bullets]


def contacts(doc: ResumeDocument) -> set[str]:
    return {f for f in CONTACTS if getattr(doc.basics, f)}


def score(doc: ResumeDocument) -> int:
    return analyze(doc, None, today=TODAY).score


def printed(markdown: str) -> ResumeDocument:
    """The resume as the exporters print it (front matter and inline HTML tags dropped):
    the score of the import is compared with this one."""
    return ResumeDocument.from_text("\n".join(export_lines(markdown)) + "\n")


SCORE_TOLERANCE = 5


@dataclass
class Comparison:
    sections: bool
    bullets: bool
    contacts: bool
    score: bool
    score_before: int
    score_after: int

    @property
    def ok(self) -> bool:
        return self.sections and self.bullets and self.contacts and self.score


def compare(original: str, imported: str) -> Comparison:
    a = ResumeDocument.from_text(original)
    b = ResumeDocument.from_text(imported)
    before, after = score(printed(original)), score(b)
    return Comparison(
        sections=titles(a) == titles(b),
        bullets=bullets(a) == bullets(b),
        contacts=contacts(a) == contacts(b),
        score=abs(before - after) <= SCORE_TOLERANCE,
        score_before=before,
        score_after=after,
    )
