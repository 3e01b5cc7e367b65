"""Section kinds from English and Chinese heading synonyms."""

from __future__ import annotations

import re
from typing import Literal

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
    "other",
]

KINDS: tuple[str, ...] = SectionKind.__args__  # type: ignore[attr-defined]

# Exact titles (after normalization) first; the keyword table catches variants.
_SYNONYMS: dict[str, tuple[str, ...]] = {
    "contact": (
        "contact",
        "contact information",
        "contact info",
        "contact details",
        "personal information",
        "personal details",
        "personal info",
        "basic information",
        "basic info",
        "联系方式",
        "联系信息",
        "个人信息",
        "基本信息",
        "个人资料",
        "基本资料",
        "个人概况",
    ),
    "summary": (
        "summary",
        "professional summary",
        "profile",
        "professional profile",
        "about",
        "about me",
        "objective",
        "career objective",
        "career summary",
        "executive summary",
        "overview",
        "summary of qualifications",
        "highlights",
        "个人简介",
        "自我评价",
        "自我描述",
        "个人描述",
        "个人评价",
        "个人总结",
        "个人优势",
        "求职意向",
        "职业目标",
        "简介",
        "概述",
        "自我介绍",
        "关于我",
        "关于",
        "career profile",
        "personal statement",
        "个人概述",
    ),
    "experience": (
        "experience",
        "work experience",
        "professional experience",
        "employment",
        "employment history",
        "work history",
        "career history",
        "relevant experience",
        "internships",
        "internship",
        "internship experience",
        "work",
        "career",
        "工作经历",
        "工作经验",
        "实习经历",
        "实习经验",
        "职业经历",
        "工作履历",
        "任职经历",
        "从业经历",
        "工作与实习经历",
        "实践经历",
    ),
    "projects": (
        "projects",
        "project",
        "project experience",
        "personal projects",
        "selected projects",
        "side projects",
        "open source",
        "open-source",
        "key projects",
        "项目经历",
        "项目经验",
        "项目",
        "主要项目",
        "个人项目",
        "开源项目",
        "项目介绍",
    ),
    "education": (
        "education",
        "academic background",
        "education and training",
        "academics",
        "qualifications",
        "教育经历",
        "教育背景",
        "学历",
        "教育",
        "学习经历",
        "教育情况",
    ),
    "skills": (
        "skills",
        "technical skills",
        "core skills",
        "key skills",
        "skills and tools",
        "technologies",
        "tech stack",
        "competencies",
        "core competencies",
        "tools",
        "expertise",
        "skill",
        "专业技能",
        "技能特长",
        "技能",
        "技术栈",
        "个人技能",
        "专业能力",
        "技能清单",
        "掌握技能",
        "技术能力",
    ),
    "awards": (
        "awards",
        "honors",
        "honours",
        "awards and honors",
        "achievements",
        "recognition",
        "获奖情况",
        "获奖经历",
        "荣誉奖项",
        "所获荣誉",
        "荣誉",
        "奖项",
        "获奖",
        "荣誉证书",
    ),
    "certifications": (
        "certifications",
        "certificates",
        "certification",
        "licenses",
        "licenses and certifications",
        "证书",
        "专业证书",
        "认证",
        "证书认证",
        "技能证书",
        "资格证书",
        "证书与资质",
    ),
    "publications": (
        "publications",
        "papers",
        "research",
        "patents",
        "talks",
        "publications and talks",
        "论文",
        "发表论文",
        "科研成果",
        "学术成果",
        "专利",
        "研究经历",
        "科研经历",
    ),
    "languages": (
        "languages",
        "language skills",
        "language",
        "语言能力",
        "语言",
        "外语能力",
        "外语",
    ),
    "volunteer": (
        "volunteer",
        "volunteering",
        "volunteer experience",
        "community",
        "community involvement",
        "leadership",
        "activities",
        "extracurricular activities",
        "志愿者经历",
        "志愿经历",
        "志愿服务",
        "社会实践",
        "校园经历",
        "社团经历",
        "学生工作",
        "校园活动",
    ),
}

_EXACT: dict[str, str] = {syn: kind for kind, syns in _SYNONYMS.items() for syn in syns}

# Ordered: the first keyword contained in a title decides (more specific first).
_KEYWORDS: tuple[tuple[str, str], ...] = (
    ("project", "projects"),
    ("项目", "projects"),
    ("intern", "experience"),
    ("实习", "experience"),
    ("experience", "experience"),
    ("employment", "experience"),
    ("工作", "experience"),
    ("经历", "experience"),
    ("education", "education"),
    ("教育", "education"),
    ("学历", "education"),
    ("skill", "skills"),
    ("competenc", "skills"),
    ("技能", "skills"),
    ("技术", "skills"),
    ("award", "awards"),
    ("honor", "awards"),
    ("honour", "awards"),
    ("荣誉", "awards"),
    ("奖", "awards"),
    ("certif", "certifications"),
    ("证书", "certifications"),
    ("publication", "publications"),
    ("论文", "publications"),
    ("language", "languages"),
    ("语言", "languages"),
    ("volunteer", "volunteer"),
    ("志愿", "volunteer"),
    ("summary", "summary"),
    ("profile", "summary"),
    ("objective", "summary"),
    ("评价", "summary"),
    ("contact", "contact"),
    ("联系", "contact"),
    ("个人信息", "contact"),
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
    if norm in _EXACT:
        return _EXACT[norm]
    if norm.replace(" and ", " ").replace(" & ", " ") in _EXACT:
        return _EXACT[norm.replace(" and ", " ")]
    compact = norm.replace(" ", "")
    if compact in _EXACT:
        return _EXACT[compact]
    # Long titles are usually a job or project line ("Acme Corp — Senior Engineer").
    if len(norm) > 40:
        return "other"
    for keyword, kind in _KEYWORDS:
        if keyword in norm:
            return kind
    return "other"


def is_known_section_title(title: str) -> bool:
    return classify_title(title) != "other"
