"""Every analyzer rule in one table: id, severity and what it checks; the fix it suggests is
in each language's table (``Language.fixes``, ``cvagent_cli/languages/``).

The rule modules decide *whether* a rule fires and word the *message* (it quotes the user's
text and counts); what the rule is called and how serious it is live here, what to do about
it in the language files, and ``docs/reference/rules.md`` is generated from both.

A fix is a ``str.format`` template.  Its fields are the rule's own (``{core_zh}``: the bullet
without its opener; ``{swapped}``: the user's date range turned round) plus the language's
:func:`constant_fields`.  A rule may pass a field as a zero-argument callable: it is called
only when the template shown uses it, so an example is built in one language only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cvagent_cli import languages
from cvagent_cli.analysis.schema import Severity
from cvagent_cli.languages import Language


def constant_fields(language: Language) -> dict[str, str]:
    """The fields every fix template of ``language`` may use."""
    return {"verbs": language.wording.strong_verbs, "standard": language.sections.standard}


#: the fields rules fill in, as the reference page explains them
FIELDS: dict[str, str] = {
    "name": "the name found elsewhere in the resume",
    "example": "the bullet's own words, without a pronoun or weak opener, capitalised",
    "core_en": "the bullet's own words without its pronoun or weak opener (English)",
    "core_zh": "the bullet's own words without 我/本人 or its weak opener (Chinese, shortened)",
    "rewritten": "the bullet with its first-person pronoun dropped",
    "active": "the user's passive sentence made active",
    "quoted": "the clichés found, quoted",
    "quoted_zh": "the clichés found, quoted the Chinese way",
    "word": "the present-tense opening verb",
    "past": "its past tense",
    "swapped": "the user's date range with its ends exchanged",
    "usual": "the date format most of the resume's dates use",
    "usual_line": "a line that uses it",
    "usual_raw": "the date as written on that line",
}


@dataclass(frozen=True)
class RuleSpec:
    id: str
    severity: Severity
    checks: (
        str  # what the rule looks for, in one line; fields: the thresholds (rules/descriptions.py)
    )
    severity_note: str = ""  # when a finding's severity differs from ``severity``

    @property
    def category(self) -> str:
        return self.id.split(".")[0]

    def template(self, language: Language, *, plain: bool = False) -> tuple[str, Language]:
        """The fix's template in ``language`` and the language it is written in: the
        fallback language's where ``language`` has none (``plain``: the fix for when no
        example can be built, else the usual one)."""
        fallback = languages.get(languages.FALLBACK)
        if plain:
            for source in (language, fallback):
                if self.id in source.plain_fixes:
                    return source.plain_fixes[self.id], source
        elif self.id in language.fixes:
            return language.fixes[self.id], language
        return fallback.fixes[self.id], fallback

    def fix(self, language: Language, *, plain: bool = False, **fields: Any) -> str:
        """The suggestion in ``language``, filled in from ``fields``."""
        template, source = self.template(language, plain=plain)
        if "{" not in template:
            return template  # most fixes: no fields to fill, nothing to build
        return template.format_map(_Fields(constant_fields(source), **fields))


class _Fields(dict[str, Any]):
    """Template fields; a callable value is called when the template asks for it."""

    def __getitem__(self, key: str) -> Any:
        value = super().__getitem__(key)
        return value() if callable(value) else value


_SPECS = (
    # -- completeness -------------------------------------------------------------------
    RuleSpec(
        "completeness.not-a-resume",
        "error",
        "The file does not look like a resume (an invoice, a letter, a paper): reported first.",
    ),
    RuleSpec(
        "completeness.missing-name",
        "error",
        "No candidate name at the top (heading, first line, front matter or a 姓名 label).",
    ),
    RuleSpec(
        "completeness.generic-title",
        "warning",
        'The top heading is a generic title ("Resume", "简历") while the name is elsewhere.',
    ),
    RuleSpec(
        "completeness.missing-email",
        "error",
        "No email address.",
    ),
    RuleSpec(
        "completeness.masked-phone",
        "warning",
        "The only phone number is masked (138****1234).",
    ),
    RuleSpec(
        "completeness.missing-phone",
        "warning",
        "No phone number.",
    ),
    RuleSpec(
        "completeness.missing-link",
        "info",
        "No LinkedIn, GitHub or personal website link.",
    ),
    RuleSpec(
        "completeness.no-experience",
        "error",
        "No experience or projects section.",
    ),
    RuleSpec(
        "completeness.no-education",
        "warning",
        "No education section.",
    ),
    RuleSpec(
        "completeness.no-skills",
        "warning",
        "No skills section (ATS keyword matching relies on it).",
    ),
    RuleSpec(
        "completeness.no-summary",
        "info",
        "No summary although the resume shows {EXPERIENCED_ENTRIES} or more jobs or {EXPERIENCED_MONTHS} months of experience.",
    ),
    # -- impact -------------------------------------------------------------------------
    RuleSpec(
        "impact.no-metric",
        "warning",
        "An experience, project or volunteer bullet carries no number (scale, result, time).",
    ),
    RuleSpec(
        "impact.weak-opener",
        "warning",
        'A bullet opens with a duty ("Responsible for", "Helped", 负责, 参与) instead of a result.',
    ),
    RuleSpec(
        "impact.no-action-verb",
        "info",
        "An English experience or project bullet does not start with an action verb.",
    ),
    # -- clarity ------------------------------------------------------------------------
    RuleSpec(
        "clarity.too-long",
        "warning",
        "An experience or project bullet is over {longest_bullet}.",
    ),
    RuleSpec(
        "clarity.too-short",
        "warning",
        "An experience or project bullet is under {shortest_bullet}.",
    ),
    RuleSpec(
        "clarity.first-person",
        "warning",
        'A first-person pronoun ("I", "my", "we", 我, 本人) in a bullet or paragraph.',
        severity_note="info outside experience, project and volunteer sections, and for "
        '"we"/"our" alone',
    ),
    RuleSpec(
        "clarity.passive-voice",
        "info",
        'Passive voice ("was handled by me") in English work or summary text.',
    ),
    RuleSpec(
        "clarity.buzzword",
        "warning",
        'Clichés that claim a trait without evidence ("results-driven", 责任心强); one finding per line.',
    ),
    RuleSpec(
        "clarity.repeated-opener",
        "info",
        "{REPEAT_LIMIT} or more bullets of one section start with the same verb.",
    ),
    RuleSpec(
        "clarity.mixed-tense",
        "warning",
        "A past role mixes past-tense and present-tense bullets (English).",
    ),
    # -- dates --------------------------------------------------------------------------
    RuleSpec(
        "dates.end-before-start",
        "error",
        "A date range ends before it starts.",
    ),
    RuleSpec(
        "dates.future",
        "info",
        "A date lies more than a year in the future.",
    ),
    RuleSpec(
        "dates.missing",
        "warning",
        "An experience or education entry with bullets has no dates.",
    ),
    RuleSpec(
        "dates.inconsistent-format",
        "warning",
        "Two or more date formats are mixed (a bare year aside).",
    ),
    RuleSpec(
        "dates.not-reverse-chronological",
        "warning",
        "Experience or education entries are not listed most recent first.",
    ),
    RuleSpec(
        "dates.gap",
        "warning",
        "More than {GAP_MONTHS} months between jobs, not counting time in education.",
    ),
    # -- ats ----------------------------------------------------------------------------
    RuleSpec(
        "ats.too-long",
        "warning",
        "Over {MAX_WORDS:,} words in an English resume, or over an estimated {MAX_PAGES:g} pages "
        "({WORDS_PER_PAGE_EN} English words or {CJK_CHARS_PER_PAGE} CJK characters a page).",
    ),
    RuleSpec(
        "ats.too-short",
        "warning",
        "Under {MIN_WORDS} words.",
    ),
    RuleSpec(
        "ats.table",
        "warning",
        "A Markdown table (ATS parsers drop or scramble cells).",
    ),
    RuleSpec(
        "ats.code-block",
        "info",
        "A fenced code block.",
    ),
    RuleSpec(
        "ats.html",
        "warning",
        "HTML blocks or inline tags (<br>, <span>).",
    ),
    RuleSpec(
        "ats.no-headings",
        "warning",
        "No headings at all, so no sections an ATS can find.",
    ),
    RuleSpec(
        "ats.unknown-heading",
        "info",
        "A top-level heading that is not a standard section name (the title line aside).",
    ),
    RuleSpec(
        "ats.heading-skip",
        "info",
        "A heading level is skipped (## then ####).",
    ),
    RuleSpec(
        "ats.duplicate",
        "warning",
        "The same bullet or paragraph twice (ignoring case, punctuation and spacing).",
    ),
    RuleSpec(
        "ats.control-chars",
        "warning",
        "Invisible control characters in the text.",
    ),
    RuleSpec(
        "ats.front-matter-error",
        "warning",
        "YAML front matter that does not parse.",
    ),
    RuleSpec(
        "ats.long-line",
        "info",
        "A line over {LONG_LINE} characters.",
    ),
)

#: rule id -> its spec, in report-category order
RULES: dict[str, RuleSpec] = {spec.id: spec for spec in _SPECS}
