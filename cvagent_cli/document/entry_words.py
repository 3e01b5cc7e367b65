"""The words of an entry's title: places, employers and schools, roles, degrees, and where
a title splits ("Data Analyst — Acme Corp, Seattle, WA").

``entries`` reads every entry's title with these; the importers' role pass asks the same
questions of a line ("is this a place?", "does it name an employer or a job?").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cvagent_cli import languages
from cvagent_cli.document.dates import DateRange, find_ranges
from cvagent_cli.document.person import is_role
from cvagent_cli.script import HAN

#: What separates the parts of an entry title, in the order they are looked for.
SEPARATORS = (" — ", " – ", " | ", "｜", " · ", " - ", " —", "— ")
#: A word that names an organisation: part of a word where words are not spaced ("公司"),
#: else a whole word ("Inc.", "University").
ORG_RE = re.compile(
    "|".join(
        languages.words_of(
            lambda language: () if language.spaced else language.entries.organisations
        )
    )
    + r"|\b(?:"
    + "|".join(
        languages.words_of(
            lambda language: language.entries.organisations if language.spaced else ()
        )
    )
    + r")\b\.?",
    re.IGNORECASE,
)
DEGREE_RE = re.compile(
    r"^(?P<degree>(?:B|M|Ph|D)\.?\s?(?:Sc|Eng|Ed|Phil|BA|FA|S|A|D)\.?(?![A-Za-z])|MBA|MPA|MFA|BFA|JD|MD|PhD|"
    r"Bachelor(?:'s)?(?: of [A-Z][a-z]+)?|Master(?:'s)?(?: of [A-Z][a-z]+)?|Doctor(?: of [A-Z][a-z]+)?|"
    r"Associate(?:'s)?(?: of [A-Z][a-z]+)?|Diploma)(?:\s+(?:in|of)\s+|,\s*|\s+)?(?P<area>.*)$"
)
ZH_DEGREE_RE = re.compile(
    r"^(?P<area>.*?)\s*(?P<degree>本科|硕士研究生|硕士|博士研究生|博士|学士|研究生|大专|专科|高中|MBA|EMBA)$"
)
_PLACE_RE = re.compile(
    r"^[A-Z][\w.'’-]*(?: [A-Z][\w.'’-]*)*(?:, [A-Z][\w.'’-]*(?: [A-Z][\w.'’-]*)*){0,2}$"
)
_ZH_PLACE_RE = re.compile(rf"^[{HAN}]{{2,6}}(?:市|省)?$")
# "University of California, San Diego": a campus after the comma is part of the name.
_OF_A_STATE_RE = re.compile(r"\bUniversity of [A-Z][\w.'’-]*(?: [A-Z][\w.'’-]*)?$")


def is_place(text: str) -> bool:
    """A town, region or country as an entry title ends with ("Seattle, WA", "杭州")."""
    text = text.strip()
    if not text or len(text) > 40:
        return False
    return (
        bool(_PLACE_RE.match(text) or _ZH_PLACE_RE.match(text))
        and not ORG_RE.search(text)
        and not is_role(text)
    )


def names_employer_or_role(text: str) -> bool:
    """The text names an organisation ("知行教育科技有限公司", "Acme Inc.") or a job
    ("Data Analyst", "运维工程师")."""
    return bool(ORG_RE.search(text)) or is_role(text)


def split_title(title: str) -> tuple[str, str, str]:
    """``title`` at its first separator: (left, separator, right)."""
    best: tuple[int, str] | None = None
    for sep in SEPARATORS:
        at = title.find(sep)
        if at > 0 and (best is None or at < best[0]):
            best = (at, sep)
    if best is None:
        return title, "", ""
    at, sep = best
    return title[:at].strip(), sep, title[at + len(sep) :].strip()


def split_place(name: str) -> tuple[str, str]:
    """An organisation and the place its name ends with ("Acme, Seattle, WA" → "Acme",
    "Seattle, WA"); a campus is part of a school's name ("University of California, San
    Diego")."""
    if ", " not in name:
        return name, ""
    head, tail = name.split(", ", 1)
    if not is_place(tail) or (_OF_A_STATE_RE.search(head) and ", " not in tail):
        return name, ""
    return head, tail


@dataclass
class Heading:
    """An entry title read as organisation, role and place (``role_first``: which came first)."""

    organisation: str = ""
    role: str = ""
    location: str = ""
    role_first: bool = True


def read_heading(title: str, language: str) -> Heading:
    """Employer and position from an entry title."""
    left, sep, right = split_title(title)
    if not sep:
        role_first = languages.get(language).sections.role_first
        if "，" not in left and ", " in left and role_first:
            a, b = left.split(", ", 1)
            if is_role(a):
                return Heading(organisation=b, role=a, role_first=True)
        if not role_first and " " in left and not ORG_RE.search(left.rsplit(" ", 1)[1]):
            a, b = left.rsplit(" ", 1)
            if ORG_RE.search(a) or is_role(b):
                return Heading(organisation=a, role=b, role_first=False)
        return Heading(organisation=left, role_first=False)
    role_first = languages.get(language).sections.role_first
    if ORG_RE.search(left) and not ORG_RE.search(right):
        role_first = False
    elif is_role(left) and not is_role(right):
        role_first = True
    elif is_role(right) and not is_role(left):
        role_first = False
    role, org = (left, right) if role_first else (right, left)
    org, location = split_place(org)
    return Heading(organisation=org, role=role, location=location, role_first=role_first)


@dataclass
class Degree:
    institution: str = ""
    study_type: str = ""
    area: str = ""
    location: str = ""
    degree_first: bool = False


def read_degree(title: str) -> Degree:
    """School, degree and field from an education entry's title."""
    left, sep, right = split_title(title)
    sides = [left, right] if sep else [left]
    for i, side in enumerate(sides):
        match = DEGREE_RE.match(side) or ZH_DEGREE_RE.match(side)
        if match and (len(sides) == 2 or not ORG_RE.search(side)):
            other, location = split_place(sides[1 - i] if len(sides) == 2 else "")
            return Degree(
                institution=other,
                study_type=match.group("degree").strip(),
                area=match.group("area").strip(" ,，"),
                location=location,
                degree_first=i == 0,
            )
    institution, location = split_place(title)
    return Degree(institution=institution, location=location)


def parse_degree(text: str) -> tuple[str, str] | None:
    """(degree, area) of a line that is a degree ("Bachelor of Arts, Communication")."""
    match = DEGREE_RE.match(text) or ZH_DEGREE_RE.match(text)
    if not match or ORG_RE.search(text):
        return None
    return match.group("degree").strip(), match.group("area").strip(" ,，")


def title_place(title: str, kind: str, language: str) -> str:
    """The place at the end of an entry title ("… — Northwind Payments, Seattle, WA" →
    "Seattle, WA"; a school's for an education entry); "" when the title names none."""
    if kind == "education":
        return read_degree(title).location
    return read_heading(title, language).location


_BRACKETS_RE = re.compile(r"[(（\[【]\s*[)）\]】]")
_NOTE_RE = re.compile(r"^\s*([(（][^()（）]{1,20}[)）])")


def take_dates(text: str) -> tuple[str, DateRange | None, str]:
    """``text`` without its first date range, the range, and a note in brackets right
    after it ("(expected)"): "Acme — Engineer (2019 – 2021)" → "Acme — Engineer"."""
    ranges = find_ranges(text)
    if not ranges:
        return text.strip(), None, ""
    found = ranges[0]
    before, after = text[: found.offset], text[found.offset + len(found.raw) :]
    note = ""
    match = _NOTE_RE.match(after)
    if match and not _BRACKETS_RE.search(before[-2:] + after[:2]):
        note = match.group(1)
        after = after[match.end() :]
    rest = (before.rstrip() + " " + after.lstrip()).strip()
    rest = _BRACKETS_RE.sub("", rest)
    rest = re.sub(r"\s*[(（]\s*[)）]", "", rest)
    return rest.strip(" |｜,，·•—–-:：").strip(), found, note
