"""The analysis report: findings, scores and JD coverage.

These pydantic models are also the documented ``--json`` schema (one object per file).
Bump ``SCHEMA_VERSION`` on any incompatible change.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from cvagent_cli.document.basics import BasicInfo

SCHEMA_VERSION = 1

Severity = Literal["error", "warning", "info"]
Category = Literal["completeness", "impact", "clarity", "dates", "ats"]
CATEGORIES: tuple[Category, ...] = ("completeness", "impact", "clarity", "dates", "ats")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Finding(_Model):
    """One problem found by one rule, located as precisely as the rule can."""

    rule_id: str = Field(description="stable rule identifier, e.g. impact.no-metric")
    severity: Severity
    category: Category
    section_id: str | None = Field(None, description="id of the section, e.g. experience/acme-corp")
    line: int | None = Field(None, description="1-based line number in the file")
    text: str | None = Field(None, description="the offending text, shortened")
    message: str
    suggestion: str


class CategoryScore(_Model):
    category: Category
    score: int = Field(ge=0, le=100)
    weight: float
    findings: int
    explanation: str = Field(description="how the score was computed, in one line")


class KeywordHit(_Model):
    keyword: str
    sections: list[str] = Field(description="ids of the sections that mention the keyword")


class JDCoverage(_Model):
    source: str
    keywords: list[str]
    matched: list[KeywordHit]
    missing: list[str]
    coverage: float = Field(ge=0, le=100, description="matched / keywords, in percent")


class Stats(_Model):
    words: int
    lines: int
    estimated_pages: float
    sections: int
    bullets: int
    #: the resume's language: a code of cvagent_cli/languages ("en", "zh")
    language: str


class SectionOutline(_Model):
    id: str
    title: str
    kind: str
    level: int
    lines: list[int]
    bullets: int
    chars: int


class LLMReview(_Model):
    """``analyze --llm --json``: the model's review of the resume."""

    model: str = Field(description="the model that wrote the review, in litellm form")
    text: str = Field(description="the review, in Markdown")
    stopped: str | None = Field(
        None, description="why the review was cut short (the model looped or copied the resume)"
    )
    prompt_tokens: int
    completion_tokens: int
    cost_usd: float | None = Field(None, description="null when the model's price is unknown")


class AnalysisReport(_Model):
    schema_version: int = SCHEMA_VERSION
    source: str
    score: int = Field(ge=0, le=100)
    categories: list[CategoryScore]
    findings: list[Finding]
    stats: Stats
    basics: BasicInfo
    sections: list[SectionOutline]
    jd: JDCoverage | None = None
    scoring: str = Field(description="the scoring formula, in words")
    review: LLMReview | None = Field(default=None, description="the model's review, with --llm")

    def category(self, name: str) -> CategoryScore:
        return next(c for c in self.categories if c.category == name)

    def findings_for(self, section_id: str | None) -> list[Finding]:
        if section_id is None:
            return list(self.findings)
        return [
            f
            for f in self.findings
            if f.section_id
            and (f.section_id == section_id or f.section_id.startswith(section_id + "/"))
        ]
