"""Completeness: the contact details and sections every resume needs."""

from __future__ import annotations

import re

from cvagent_cli.analysis.rules import Context, RawFinding, make
from cvagent_cli.analysis.rules.lexicon import GENERIC_TITLES
from cvagent_cli.document.document import ResumeDocument

EXPERIENCED_ENTRIES = 2  # non-internship jobs …
EXPERIENCED_MONTHS = 60  # … or five years spanned: a summary is expected
_NAME_LABEL_RE = re.compile(
    r"(?:姓\s*名|\bName\b)\s*[:：|]\s*\|?\s*\**([^\s|*，,;；]{1,30})", re.IGNORECASE
)
_NOT_NAME_RE = re.compile(r"[@\d:：/|]|https?:|www\.")


def detect_name(doc: ResumeDocument) -> str | None:
    """The candidate's name; resume/person.py decides what counts as one (one owner)."""
    return doc.basics.name


def check(ctx: Context) -> list[RawFinding]:
    doc, say = ctx.doc, ctx.say
    basics = doc.basics
    findings: list[RawFinding] = []
    title = next((s for s in doc.sections if s.heading_line and s.level == 1), None)

    def add(rule: str, severity: str, message: str, en: str, zh: str) -> None:
        findings.append(make(f"completeness.{rule}", severity, message, say(en, zh)))  # type: ignore[arg-type]

    if detect_name(doc) is None:
        add(
            "missing-name",
            "error",
            "No name found at the top of the resume.",
            'Put your full name on the first line as a level-1 heading: "# Jane Doe".',
            "在第一行用一级标题写上姓名，例如：# 张丽",
        )
    elif title is not None and title.title.strip().casefold() in GENERIC_TITLES:
        add(
            "generic-title",
            "warning",
            f'The top heading is "{title.title}", not your name; ATS parsers take it as the name.',
            'Replace the title with your full name: "# Jane Doe" (the file name can say "resume").',
            f"把标题改为姓名。改为：# {detect_name(doc)}",
        )
    if not basics.email:
        add(
            "missing-email",
            "error",
            "No email address found; recruiters cannot reply.",
            'Add a professional email under your name: "jane.doe@example.com".',
            "在姓名下方添加邮箱，例如：邮箱：zhangli@example.com",
        )
    if not basics.phone and basics.masked_phone:
        add(
            "masked-phone",
            "warning",
            f"The phone number is masked ({basics.masked_phone}); recruiters cannot call it.",
            "Write the full number in the copy you send to employers; keep it masked only in public copies.",
            "投递给招聘方的版本请写完整手机号；仅在公开版本中打码。",
        )
    elif not basics.phone:
        add(
            "missing-phone",
            "warning",
            "No phone number found.",
            'Add a phone number with the country code, e.g. "+1 555-123-4567".',
            "添加手机号码，例如：电话：138-0000-0000",
        )
    if not basics.has_link:
        add(
            "missing-link",
            "info",
            "No LinkedIn, GitHub or personal website link.",
            'Add a link that backs up your work, e.g. "linkedin.com/in/jane-doe" or "github.com/janedoe".',
            "添加可以佐证经历的链接，例如：GitHub：github.com/zhangli 或个人作品集网址",
        )
    if not ctx.has_kind("experience") and not ctx.has_kind("projects"):
        add(
            "no-experience",
            "error",
            "No experience or projects section found.",
            'Add an "## Experience" section (or "## Projects" if you are starting out) with 3–5 bullets per role.',
            "添加“## 工作经历”或“## 项目经历”，每段经历写 3–5 条成果。",
        )
    if not ctx.has_kind("education"):
        add(
            "no-education",
            "warning",
            "No education section found.",
            'Add an "## Education" section: degree, school, years.',
            "添加“## 教育背景”：学校、专业、学历、起止时间，例如：2014.09 - 2018.06",
        )
    if not ctx.has_kind("skills"):
        add(
            "no-skills",
            "warning",
            "No skills section found; ATS keyword matching relies on it.",
            'Add a "## Skills" section grouping tools and methods, e.g. "Languages: Python, SQL".',
            "添加“## 专业技能”，分组列出工具与方法，例如：数据分析：Excel、SQL、Tableau",
        )
    if not ctx.has_kind("summary") and _experienced(ctx):
        add(
            "no-summary",
            "info",
            "No summary, although the resume shows several years of experience.",
            'Add a 2–3 line "## Summary": role, years, strongest results, e.g. "[Role], [N] years, [your strongest result from below]".',
            "添加 2–3 行“## 个人简介”，例如：[N] 年[岗位]经验，[下文中你最有力的一项成果]。",
        )
    return findings


def _experienced(ctx: Context) -> bool:
    titles = {s.id: s.title for s in ctx.doc.sections}
    jobs = [
        e
        for e in ctx.entries
        if e.kind == "experience"
        and (e.ranges or e.items)
        and not e.is_internship
        and not re.search(r"intern|实习", titles.get(e.root_id, ""), re.IGNORECASE)
    ]
    if len(jobs) >= EXPERIENCED_ENTRIES:
        return True
    ranges = [e.date_range for e in jobs if e.date_range and not e.date_range.reversed]
    if not ranges:
        return False
    span = max(r.end_index(ctx.today) for r in ranges) - min(r.start_index() for r in ranges) + 1
    return span >= EXPERIENCED_MONTHS
