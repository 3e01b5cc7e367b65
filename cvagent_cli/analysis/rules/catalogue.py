"""Every analyzer rule in one table: id, severity, what it checks, and the fix it suggests.

The rule modules decide *whether* a rule fires and word the *message* (it quotes the user's
text and counts); what the rule is called, how serious it is and what to do about it live
here, in English and Chinese, and ``docs/reference/rules.md`` is generated from this table.

A fix is a ``str.format`` template.  Its fields are the rule's own (``{core_zh}``: the bullet
without its opener; ``{swapped}``: the user's date range turned round) plus
:data:`CONSTANT_FIELDS`.  A rule may pass a field as a zero-argument callable: it is called
only when the template shown uses it, so an example is built in one language only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cvagent_cli.analysis.rules.lexicon import (
    STANDARD_SECTIONS_EN,
    STANDARD_SECTIONS_ZH,
    STRONG_VERBS_EN,
    STRONG_VERBS_ZH,
)
from cvagent_cli.analysis.schema import Severity

#: fields every fix template may use
CONSTANT_FIELDS: dict[str, str] = {
    "verbs_en": STRONG_VERBS_EN,
    "verbs_zh": STRONG_VERBS_ZH,
    "standard_en": STANDARD_SECTIONS_EN,
    "standard_zh": STANDARD_SECTIONS_ZH,
}

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
    fix_en: str
    fix_zh: str | None = None  # for Chinese resumes; None: the English text serves both
    plain_en: str | None = None  # the fix when no example can be built from the user's words
    plain_zh: str | None = None
    severity_note: str = ""  # when a finding's severity differs from ``severity``

    @property
    def category(self) -> str:
        return self.id.split(".")[0]

    def fix(self, lang: str, *, plain: bool = False, **fields: Any) -> str:
        """The suggestion in ``lang`` ("en"/"zh"), filled in from ``fields``."""
        zh = lang == "zh"
        if plain:
            template = (self.plain_zh if zh else None) or self.plain_en or self.fix_en
        else:
            template = (self.fix_zh if zh else None) or self.fix_en
        if "{" not in template:
            return template  # most fixes: no fields to fill, nothing to build
        return template.format_map(_Fields(CONSTANT_FIELDS, **fields))


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
        "Check that this is the right file: a resume has sections such as Experience, "
        "Education and Skills, with dates.",
        "请确认文件是否正确：简历应有工作经历、教育背景、专业技能等部分，并写明起止时间。",
    ),
    RuleSpec(
        "completeness.missing-name",
        "error",
        "No candidate name at the top (heading, first line, front matter or a 姓名 label).",
        'Put your full name on the first line as a level-1 heading: "# Jane Doe".',
        "在第一行用一级标题写上姓名，例如：# 张丽",
    ),
    RuleSpec(
        "completeness.generic-title",
        "warning",
        'The top heading is a generic title ("Resume", "简历") while the name is elsewhere.',
        'Replace the title with your full name: "# Jane Doe" (the file name can say "resume").',
        "把标题改为姓名。改为：# {name}",
    ),
    RuleSpec(
        "completeness.missing-email",
        "error",
        "No email address.",
        'Add a professional email under your name: "jane.doe@example.com".',
        "在姓名下方添加邮箱，例如：邮箱：zhangli@example.com",
    ),
    RuleSpec(
        "completeness.masked-phone",
        "warning",
        "The only phone number is masked (138****1234).",
        "Write the full number in the copy you send to employers; keep it masked only in public copies.",
        "投递给招聘方的版本请写完整手机号；仅在公开版本中打码。",
    ),
    RuleSpec(
        "completeness.missing-phone",
        "warning",
        "No phone number.",
        'Add a phone number with the country code, e.g. "+1 555-123-4567".',
        "添加手机号码，例如：电话：138-0000-0000",
    ),
    RuleSpec(
        "completeness.missing-link",
        "info",
        "No LinkedIn, GitHub or personal website link.",
        'Add a link that backs up your work, e.g. "linkedin.com/in/jane-doe" or "github.com/janedoe".',
        "添加可以佐证经历的链接，例如：GitHub：github.com/zhangli 或个人作品集网址",
    ),
    RuleSpec(
        "completeness.no-experience",
        "error",
        "No experience or projects section.",
        'Add an "## Experience" section (or "## Projects" if you are starting out) with 3–5 bullets per role.',
        "添加“## 工作经历”或“## 项目经历”，每段经历写 3–5 条成果。",
    ),
    RuleSpec(
        "completeness.no-education",
        "warning",
        "No education section.",
        'Add an "## Education" section: degree, school, years.',
        "添加“## 教育背景”：学校、专业、学历、起止时间，例如：2014.09 - 2018.06",
    ),
    RuleSpec(
        "completeness.no-skills",
        "warning",
        "No skills section (ATS keyword matching relies on it).",
        'Add a "## Skills" section grouping tools and methods, e.g. "Languages: Python, SQL".',
        "添加“## 专业技能”，分组列出工具与方法，例如：数据分析：Excel、SQL、Tableau",
    ),
    RuleSpec(
        "completeness.no-summary",
        "info",
        "No summary although the resume shows {EXPERIENCED_ENTRIES} or more jobs or {EXPERIENCED_MONTHS} months of experience.",
        'Add a 2–3 line "## Summary": role, years, strongest results, e.g. "[Role], [N] years, [your strongest result from below]".',
        "添加 2–3 行“## 个人简介”，例如：[N] 年[岗位]经验，[下文中你最有力的一项成果]。",
    ),
    # -- impact -------------------------------------------------------------------------
    RuleSpec(
        "impact.no-metric",
        "warning",
        "An experience, project or volunteer bullet carries no number (scale, result, time).",
        'Add the number only you know — how much, how many, how fast — e.g. "{example} — [how many / how much / how fast: N, X%]".',
        "补充量化结果（规模、比例、时间），方括号换成你的真实数字。"
        "改为：{core_zh}，[结果：规模 / 比例 / 时间，如 N 人、X%、N 小时]",
    ),
    RuleSpec(
        "impact.weak-opener",
        "warning",
        'A bullet opens with a duty ("Responsible for", "Helped", 负责, 参与) instead of a result.',
        "Say what you did yourself with a verb that is true of your part ({verbs_en}… "
        'only if they are), and end with the result, e.g. "[your verb] {core_en}, [result: X% / N]".',
        "写清你本人做了什么：只在属实时才用{verbs_zh}等动词，并写出结果。"
        "改为：{core_zh}，[你具体做了什么]，使[指标]提升[X%]",
    ),
    RuleSpec(
        "impact.no-action-verb",
        "info",
        "An English experience or project bullet does not start with an action verb.",
        "Lead with a past-tense action verb for what you did ({verbs_en}… only if "
        'true), e.g. "[verb] {core_en}" instead of a noun phrase.',
        "以动词开头描述你做了什么（{verbs_zh}…，只用属实的）。改为：[动词]{core_zh}，使[指标]提升[X%]",
    ),
    # -- clarity ------------------------------------------------------------------------
    RuleSpec(
        "clarity.too-long",
        "warning",
        "An experience or project bullet is over {MAX_WORDS_EN} words ({MAX_CHARS_ZH} Chinese characters).",
        "Split it into two bullets or cut it to one action, one method and one result (under 25 words).",
        "拆成两条，或精简为“动作 + 方法 + 结果”，控制在 60 字以内。"
        "改为：{core_zh}，通过[方法]，使[指标]提升[X%]",
    ),
    RuleSpec(
        "clarity.too-short",
        "warning",
        "An experience or project bullet is under {MIN_WORDS_EN} words ({MIN_CHARS_ZH} Chinese characters).",
        'Expand it with what you did, how, and the result, e.g. "{example} [how], [result: N / X%]".',
        "补充做了什么、怎么做、结果如何。改为：{core_zh}，通过[方法]，使[指标]提升[X%]",
    ),
    RuleSpec(
        "clarity.first-person",
        "warning",
        'A first-person pronoun ("I", "my", "we", 我, 本人) in a bullet or paragraph.',
        'Drop the pronoun and start with the verb: "{rewritten}".',
        "去掉“我/本人”，直接以动词开头。改为：{core_zh}",
        plain_en="Rewrite it without the pronoun: start with the verb for what you did.",
        plain_zh="去掉句中的“我/本人”，直接以动词开头，写你做了什么。",
        severity_note="info outside experience, project and volunteer sections, and for "
        '"we"/"our" alone',
    ),
    RuleSpec(
        "clarity.passive-voice",
        "info",
        'Passive voice ("was handled by me") in English work or summary text.',
        'Make yourself the subject: "{active}".',
        plain_en="If the work was yours, make yourself the subject: start with the verb for what you did.",
    ),
    RuleSpec(
        "clarity.buzzword",
        "warning",
        'Clichés that claim a trait without evidence ("results-driven", 责任心强); one finding per line.',
        "Replace {quoted} with a fact that shows it: [what you did], [result: X% / N].",
        "删去{quoted_zh}，用事实证明。改为：[你做了什么]，使[指标]提升[X%]",
    ),
    RuleSpec(
        "clarity.repeated-opener",
        "info",
        "{REPEAT_LIMIT} or more bullets of one section start with the same verb.",
        "Vary the verbs: led, built, cut, shipped, designed, grew, automated…",
        "换用不同的动词开头：主导、设计、搭建、推动、优化、落地……",
    ),
    RuleSpec(
        "clarity.mixed-tense",
        "warning",
        "A past role mixes past-tense and present-tense bullets (English).",
        'Use the past tense for roles you have left: "{word}" → "{past}".',
    ),
    # -- dates --------------------------------------------------------------------------
    RuleSpec(
        "dates.end-before-start",
        "error",
        "A date range ends before it starts.",
        'Fix the range so that it runs from the earlier date to the later one, e.g. "{swapped}" if the dates are otherwise right.',
        "修正起止时间，早的在前。若日期本身无误，改为：{swapped}",
    ),
    RuleSpec(
        "dates.future",
        "info",
        "A date lies more than a year in the future.",
        'Check the year; for an expected graduation write "(expected)" after the date.',
        "请检查年份；预计毕业可在日期后写“（预计）”。",
    ),
    RuleSpec(
        "dates.missing",
        "warning",
        "An experience or education entry with bullets has no dates.",
        "Add a start and end month under the title, written {usual} like your other dates, "
        'e.g. "[start month and year] – [end month and year, or Present]".',
        "在标题下补充起止时间，与其他日期一样写作 {usual}，例如：[开始年月] - [结束年月 / 至今]",
        plain_en="Add a start and end month under the title, "
        'e.g. "[start month and year] – [end month and year, or Present]".',
        plain_zh="在标题下补充起止时间，例如：[开始年月] - [结束年月 / 至今]",
    ),
    RuleSpec(
        "dates.inconsistent-format",
        "warning",
        "Two or more date formats are mixed (a bare year aside).",
        'Use one format everywhere: most of your dates are "{usual}", as on line {usual_line}: "{usual_raw}".',
        "全文统一一种日期格式：多数日期写作 {usual}，如第 {usual_line} 行：{usual_raw}",
    ),
    RuleSpec(
        "dates.not-reverse-chronological",
        "warning",
        "Experience or education entries are not listed most recent first.",
        "List the most recent entry first; recruiters read the top one most carefully.",
        "按时间倒序排列，最近的经历放在最前面。",
    ),
    RuleSpec(
        "dates.gap",
        "warning",
        "More than {GAP_MONTHS} months between jobs, not counting time in education.",
        'If the break was intentional, say so in one line, e.g. "Career break — [reason], [start] – [end]".',
        "如有空档期，可用一行说明，例如：[开始] - [结束] 职业间隔（[原因]）",
    ),
    # -- ats ----------------------------------------------------------------------------
    RuleSpec(
        "ats.too-long",
        "warning",
        "Over {MAX_WORDS:,} words in an English resume, or over an estimated {MAX_PAGES:g} pages "
        "({WORDS_PER_PAGE_EN} English words or {CJK_CHARS_PER_PAGE} CJK characters a page).",
        "Cut to 1–2 pages: keep the last 10 years and 3–5 bullets per role.",
        "精简到 1–2 页：保留近 10 年经历，每段 3–5 条成果。",
    ),
    RuleSpec(
        "ats.too-short",
        "warning",
        "Under {MIN_WORDS} words.",
        "Add experience bullets with results and a skills section (aim for 350–700 words).",
        "补充工作经历中的成果描述与专业技能，建议 600–1200 字。",
    ),
    RuleSpec(
        "ats.table",
        "warning",
        "A Markdown table (ATS parsers drop or scramble cells).",
        'Turn the table into plain lines, e.g. "- Analytics: SQL, Amplitude, Looker".',
        "把表格改成普通列表，例如：- 电话：138-0000-0000",
    ),
    RuleSpec(
        "ats.code-block",
        "info",
        "A fenced code block.",
        "Move code samples to a GitHub link and keep the resume to prose and bullets.",
    ),
    RuleSpec(
        "ats.html",
        "warning",
        "HTML blocks or inline tags (<br>, <span>).",
        "Use plain Markdown instead: a line break instead of <br>, **bold** instead of <span>.",
        "改用纯 Markdown：用换行代替 <br>，用 **加粗** 代替 <span>。",
    ),
    RuleSpec(
        "ats.no-headings",
        "warning",
        "No headings at all, so no sections an ATS can find.",
        'Mark each section with a Markdown heading: "## Experience", "## Education", "## Skills".',
        "用 Markdown 标题标出各部分，例如：## 工作经历、## 教育背景、## 专业技能",
    ),
    RuleSpec(
        "ats.unknown-heading",
        "info",
        "A top-level heading that is not a standard section name (the title line aside).",
        "Use a standard heading an ATS recognises ({standard_en}) or drop the section.",
        "使用 ATS 能识别的标准标题（{standard_zh}），或删除该部分。",
    ),
    RuleSpec(
        "ats.heading-skip",
        "info",
        "A heading level is skipped (## then ####).",
        "Do not skip levels: use ## for sections and ### for the entries inside them.",
    ),
    RuleSpec(
        "ats.duplicate",
        "warning",
        "The same bullet or paragraph twice (ignoring case, punctuation and spacing).",
        "Keep it once, in the most relevant role, and write a different result here.",
        "只保留一处，另一处改写为该段经历独有的成果。",
    ),
    RuleSpec(
        "ats.control-chars",
        "warning",
        "Invisible control characters in the text.",
        "Remove them (they usually come from copy-pasting out of a PDF or Word file).",
    ),
    RuleSpec(
        "ats.front-matter-error",
        "warning",
        "YAML front matter that does not parse.",
        "Fix the YAML between the --- lines, e.g. quote values that contain a colon.",
    ),
    RuleSpec(
        "ats.long-line",
        "info",
        "A line over {LONG_LINE} characters.",
        "Break long paragraphs into bullets of one idea each.",
        "把长段落拆成每条一个要点的列表。",
    ),
)

#: rule id -> its spec, in report-category order
RULES: dict[str, RuleSpec] = {spec.id: spec for spec in _SPECS}
