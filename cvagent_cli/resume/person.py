"""The person's name: cleaned from the places real resumes put it, or refused.

A candidate (front matter, the title heading, an HTML banner, a labelled line …) is cleaned
of markup and of the words around a name ("X的简历", "Kofi Mensah's Resume",
"NAME | COUNTRY | CITY") and kept only when it *looks* like a name: two to four Chinese
characters, or a few capitalised words.  Refusing is the point: a document title ("简历",
"Résumé"), a section title, a sentence ("This is my CV for …") or an HTML tag is never a name.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable

from cvagent_cli.resume.kinds import classify_title, strip_decoration

_TAG_RE = re.compile(r"<[^<>]*>")
_MARKUP_RE = re.compile(r"[*_`#>~]+")
_GENERIC_WORDS = frozenset(
    "resume résumé cv curriculum vitae 简历 个人简历 求职简历 我的简历 履历 个人 求职 我的 my the of".split()
)
# "韩梓萱的简历", "韩梓萱的个人简历", "Kofi Mensah's Resume", "Resume of X", "Resume - X".
_ZH_OF_RESUME_RE = re.compile(r"^(.+?)\s*(?:的)?(?:个人|求职)?(?:简历|履历)$")
_EN_OF_RESUME_RE = re.compile(
    r"^(.+?)(?:['’]s?)\s+(?:resume|résumé|cv|curriculum vitae)$", re.IGNORECASE
)
_RESUME_OF_RE = re.compile(
    r"^(?:resume|résumé|cv|curriculum vitae|简历)\s*(?:of|[-–—:：|｜])\s*(.+)$", re.IGNORECASE
)
_ASIDE_RE = re.compile(r"\s*[(（][^()（）]{1,20}[)）]\s*$")
_PARTS_RE = re.compile(r"\s*[|｜]\s*|\s+[-–—·•]\s+|\s*[/／]\s*|\s{3,}")
_LATIN_WORD_RE = re.compile(r"^(?:[A-ZÀ-Þ][A-Za-zÀ-ÿ'’.-]*|[A-ZÀ-Þ]\.)$")
_PARTICLES = frozenset("van von der den de del della da di la le du bin al el ibn dos das".split())
_LABEL_RE = re.compile(
    r"(?:^|[|｜\s•·-])[*_]*(?:full\s*name|name|姓\s*名)\s*[*_]*\s*[:：|｜]\s*[*_]*\s*([^|｜\n,，;；]{1,40})",
    re.IGNORECASE | re.MULTILINE,
)
_FIRST_LAST_RE = (
    re.compile(r"(?:first|given)\s*name\s*[*_:：]*\s*\n*\s*([A-ZÀ-Þ][\w'’-]+)", re.IGNORECASE),
    re.compile(r"(?:last|family|sur)\s*name\s*[*_:：]*\s*\n*\s*([A-ZÀ-Þ][\w'’-]+)", re.IGNORECASE),
)
# "宋嘉禾/男/1998", "宋嘉禾 | 男 | 28岁": a name followed by a gender.
_NAME_GENDER_RE = re.compile(r"(?m)^[\s*+-]*([\u4e00-\u9fff]{2,4})\s*[/|｜,，、]\s*[男女]")
# Pandoc title block: "% Viktor Novak" on the first line.
_PANDOC_TITLE_RE = re.compile(r"\A\s*%\s*([^\n]+)")


def _plain(text: str) -> str:
    text = html.unescape(_TAG_RE.sub(" ", text))
    return " ".join(strip_decoration(_MARKUP_RE.sub(" ", text)).split())


def clean_name(raw: object) -> str | None:
    """The name in ``raw`` when it holds one, else None."""
    if not isinstance(raw, str):
        return None
    text = _plain(raw).strip(" :：,，.-")
    text = _ASIDE_RE.sub("", text)  # "黎景行 (3年开发)", "Ana Ruiz (she/her)"
    if not text:
        return None
    for regex in (_RESUME_OF_RE, _ZH_OF_RESUME_RE, _EN_OF_RESUME_RE):
        match = regex.match(text)
        if match:
            text = match.group(1).strip(" :：,，-")
            break
    for part in _PARTS_RE.split(text):
        part = part.strip()
        if part:
            return part if looks_like_name(part) else None
    return None


_CREDENTIALS_RE = re.compile(
    r",\s*(?:ph\.?d|mba|md|cpa|pmp|msc|bsc|jr|sr|ii|iii)\.?$", re.IGNORECASE
)


# A job title is not a name ("title: QA Automation Engineer" in front matter, "# 前端工程师").
_ROLE_WORDS = frozenset(
    "engineer developer manager designer analyst scientist intern consultant specialist "
    "architect director officer administrator programmer researcher assistant associate "
    "lead head accountant teacher nurse technician coordinator representative executive "
    "qa ui ux senior junior principal staff frontend backend full-stack fullstack".split()
)
_ZH_ROLE_RE = re.compile(
    r"工程师|经理|总监|专员|主管|开发|设计|运营|产品|实习|助理|老师|教师|分析|架构|测试|前端|后端|算法"
)


def _is_cjk_name(text: str) -> bool:
    """Two to four Han characters, or a transliterated name with a middle dot (阿依·买买提).
    Checked by hand: a regex over the Han range costs ~5 ms to compile at start-up."""
    parts = re.split("[·•]", text, maxsplit=1)
    if not 2 <= len(parts[0]) <= 4 or (len(parts) == 2 and not 1 <= len(parts[1]) <= 6):
        return False
    return all("\u4e00" <= ch <= "\u9fff" for part in parts for ch in part)


def is_generic_title(text: str) -> bool:
    """ "Resume", "简历 / Resume", "## Résumé": a document title, not a name."""
    words = [w for w in re.split(r"[\s/|｜·•:：-]+", _plain(text).casefold()) if w]
    return bool(words) and all(w in _GENERIC_WORDS for w in words)


def looks_like_name(text: str) -> bool:
    if _is_cjk_name(text):
        return (
            text not in _GENERIC_WORDS
            and not _ZH_ROLE_RE.search(text)
            and classify_title(text) == "other"
        )
    text = _CREDENTIALS_RE.sub("", text)
    if "," in text:  # "Stockholm, Sweden", "Oakland, CA": a place
        return False
    words = text.split()
    if not 2 <= len(words) <= 5 or len(text) > 50:
        return False
    if all(w.casefold() in _GENERIC_WORDS for w in words):
        return False
    if any(ch.isdigit() or ch in "@/\\:" for ch in text):
        return False
    if not all(_LATIN_WORD_RE.match(w) or w in _PARTICLES for w in words):
        return False
    if any(w.casefold().strip(".") in _ROLE_WORDS for w in words):
        return False
    return classify_title(text) == "other"


def first(candidates: Iterable[object]) -> str | None:
    for candidate in candidates:
        name = clean_name(candidate)
        if name:
            return name
    return None


def from_text(text: str) -> str | None:
    """A name stated in running text: a label, split first/last fields, a name/gender list,
    a pandoc title block."""
    for match in _LABEL_RE.finditer(text):
        name = clean_name(match.group(1))
        if name:
            return name
    given, family = (regex.search(text) for regex in _FIRST_LAST_RE)
    if given and family:
        name = clean_name(f"{given.group(1)} {family.group(1)}")
        if name:
            return name
    match = _NAME_GENDER_RE.search(text)
    if match and looks_like_name(match.group(1)):
        return match.group(1)
    match = _PANDOC_TITLE_RE.match(text)
    return clean_name(match.group(1)) if match else None


def from_lines(text: str, limit: int = 3) -> str | None:
    """The first of the opening lines that is nothing but a name (a banner or a bold line)."""
    seen = 0
    for line in text.splitlines():
        if not _plain(line):
            continue
        name = clean_name(line)
        if name:
            return name
        seen += 1
        if seen >= limit:
            break
    return None
