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
    "interests",
    "references",
    "courses",
    "other",
]

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
        "open source contributions",
        "open-source contributions",
        "open source projects",
        "open source work",
        "code samples",
        "code sample",
        "writing samples",
        "portfolio",
        "selected work",
        "work samples",
        "开源贡献",
        "开源",
        "开源经历",
        "开源作品",
        "代码示例",
        "作品",
        "作品集",
        "个人作品",
        "项目作品",
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
        "honors and awards",
        "honours and awards",
        "awards and achievements",
        "scholarships",
        "scholarships and awards",
        "prizes",
        "competitions",
        "获奖荣誉",
        "荣誉奖励",
        "所获奖项",
        "奖学金",
        "竞赛获奖",
        "竞赛经历",
        "获奖与荣誉",
        "荣誉与奖项",
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
        "professional certifications",
        "certifications and licenses",
        "licenses & certifications",
        "credentials",
        "courses and certifications",
        "资格认证",
        "职业资格",
        "证书资质",
        "执业资格",
        "资质证书",
        "技能认证",
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
        "selected publications",
        "papers and publications",
        "conference talks",
        "speaking",
        "speaking engagements",
        "presentations",
        "invited talks",
        "patents and publications",
        "论文发表",
        "发表文章",
        "学术论文",
        "科研论文",
        "出版物",
        "著作",
        "论文与专利",
        "专利与论文",
        "发明专利",
        "知识产权",
        "演讲",
        "技术分享",
        "公开演讲",
        "分享与演讲",
        "讲座",
        "专利成果",
        "学术报告",
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
        "language proficiency",
        "foreign languages",
        "english",
        "english proficiency",
        "english skills",
        "english level",
        "英语",
        "英语能力",
        "英语水平",
        "外语水平",
        "语言水平",
        "日语能力",
        "日语",
        "德语",
        "法语",
        "韩语",
        "idiomas",
        "langues",
        "sprachen",
        "lingue",
        "languages",
        "language skills",
        "language",
        "语言能力",
        "语言",
        "外语能力",
        "外语",
    ),
    "volunteer": (
        "volunteer work",
        "volunteering experience",
        "community service",
        "social impact",
        "volunteer and community",
        "志愿活动",
        "公益活动",
        "公益经历",
        "公益",
        "社会活动",
        "社会工作",
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

_SYNONYMS["interests"] = (
    "interests",
    "hobbies",
    "hobbies and interests",
    "interests and hobbies",
    "personal interests",
    "outside interests",
    "other interests",
    "兴趣爱好",
    "爱好",
    "个人爱好",
    "兴趣",
    "业余爱好",
    "爱好特长",
    "兴趣特长",
)
_SYNONYMS["references"] = (
    "references",
    "referees",
    "reference",
    "references available upon request",
    "推荐人",
    "证明人",
    "推荐信",
)
_SYNONYMS["courses"] = (
    "courses",
    "coursework",
    "relevant coursework",
    "relevant courses",
    "selected coursework",
    "online courses",
    "training",
    "trainings",
    "professional development",
    "continuing education",
    "主修课程",
    "相关课程",
    "课程",
    "主要课程",
    "专业课程",
    "培训经历",
    "培训",
    "在线课程",
)

TITLE_KINDS: dict[str, str] = {syn: kind for kind, syns in _SYNONYMS.items() for syn in syns}
#: Section names that are also ordinary items of a section: a language's name titles a
#: languages section when it is written as a heading (``## English``), but a line "English"
#: alone is one of the languages listed under ``## Languages``, not a section of its own.
_ALSO_ITEMS = frozenset({"english", "英语", "日语", "德语", "法语", "韩语"})


#: What joins two section names into one title ("Honors & Awards", "证书和奖项", "工作/实习").
_TITLE_JOINER_RE = re.compile(r"\s*(?:&|＆|\+|/|／|、|\band\b|和|与|及)\s*", re.IGNORECASE)


def is_standalone_title(title: str) -> bool:
    """Whether ``title``, on a line of its own without heading markup, names a section:
    a section name, or two or three of them joined ("Publications & Patents")."""
    norm = normalize_title(title)
    if norm in TITLE_KINDS:
        return norm not in _ALSO_ITEMS
    parts = [normalize_title(p) for p in _TITLE_JOINER_RE.split(title.strip()) if p]
    return 2 <= len(parts) <= 3 and all(p in TITLE_KINDS and p not in _ALSO_ITEMS for p in parts)


# Ordered: the first keyword contained in a title decides (more specific first).
_KEYWORDS: tuple[tuple[str, str], ...] = (
    ("project", "projects"),
    ("项目", "projects"),
    ("open source", "projects"),
    ("open-source", "projects"),
    ("开源", "projects"),
    ("portfolio", "projects"),
    ("作品", "projects"),
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
    ("patent", "publications"),
    ("专利", "publications"),
    ("talks", "publications"),
    ("speaking", "publications"),
    ("演讲", "publications"),
    ("course", "courses"),
    ("课程", "courses"),
    ("培训", "courses"),
    ("interest", "interests"),
    ("hobb", "interests"),
    ("爱好", "interests"),
    ("兴趣", "interests"),
    ("referee", "references"),
    ("reference", "references"),
    ("推荐人", "references"),
    ("licen", "certifications"),
    ("资格", "certifications"),
    ("scholarship", "awards"),
    ("language", "languages"),
    ("语言", "languages"),
    ("volunteer", "volunteer"),
    ("志愿", "volunteer"),
    ("公益", "volunteer"),
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
    if norm in TITLE_KINDS:
        return TITLE_KINDS[norm]
    if norm.replace(" and ", " ").replace(" & ", " ") in TITLE_KINDS:
        return TITLE_KINDS[norm.replace(" and ", " ")]
    compact = norm.replace(" ", "")
    if compact in TITLE_KINDS:
        return TITLE_KINDS[compact]
    # Long titles are usually a job or project line ("Acme Corp — Senior Engineer").
    if len(norm) > 40:
        return "other"
    for keyword, kind in _KEYWORDS:
        if keyword in norm:
            return kind
    return "other"


# Kinds whose sections hold entries (a job, a project, a role).
ENTRY_SECTION_KINDS = frozenset({"experience", "projects", "volunteer"})
# "Project: Chat App", "项目一：电商平台", "Open Source Contributor at Mozilla",
# "Experience Design Intern, Figma", "Acme — Engineer (2019 – 2021)": a title that names one
# thing, by a separator with more words after it, " at ", a numbered project or a year.
_ENTRY_TITLE_RE = re.compile(
    r"[:：|｜—–@,，]\s*\S|\s-\s+\S|\bat\s+[A-Z]|项目\s*[一二三四五六七八九十\d]|(?:19|20)\d\d"
)


def names_an_entry(title: str) -> bool:
    """A heading that names a single project or job rather than a kind of section."""
    norm = normalize_title(title)
    if norm in TITLE_KINDS or norm.replace(" ", "") in TITLE_KINDS:
        return False
    return bool(_ENTRY_TITLE_RE.search(strip_decoration(title)))
