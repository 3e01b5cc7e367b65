"""Which paragraphs are the name, a section (``##``) and an entry (``###``): the pass every
reader shares, after it has turned its file into ``Para`` (see ``structure``).

- the name: a first paragraph set larger than the body, or bold / a plain name at the top;
- a section (``##``): a short standalone line that is a known section name (Experience,
  工作经历 …), or that looks like the ones that are (same size, weight and case);
  a line naming a kind of section ("Projects Experience") only in the document's section
  look; a line the document prints more than once ("Highlights" under every entry) is a
  label, never a section; a list or a line with a number in it is never one;
- an entry (``###``): a short bold line inside a section (or one set larger than the body
  with its dates under it, or a plain one with its dates under it in a section of jobs,
  projects or schools: a CJK font with no bold), or the bold lead of a line whose rest is
  a date ("**Data Analyst — Acme** Jan 2022 – Present"); never contact details, a line of
  a contact or skills section, a line under an entry heading that is its role or degree,
  or one of a run of bold lines with nothing between them (a list of awards);
- bullets: lines that start with a bullet glyph;
- a duration printed over an entry's dates ("3 years 8 months") joins them on their line;
  an entry heading wrapped round the dates split off its row ("…, Boul-" / dates /
  "der, CO.") is joined back; a section title wrapped over two lines is one title.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from cvagent_cli.document import person
from cvagent_cli.document.basics import EMAIL_RE
from cvagent_cli.document.entry_words import is_place, names_employer_or_role
from cvagent_cli.document.kinds import (
    ENTRY_SECTION_KINDS,
    classify_title,
    is_standalone_title,
    names_an_entry,
)
from cvagent_cli.formats.reading.structure import (
    Para,
    all_caps,
    body_size,
    headingish,
    is_date_text,
    plain,
    strip_glyph,
    style_of,
)
from cvagent_cli.script import HAN_RE


def assign_roles(paras: list[Para]) -> list[Para]:
    """Decide title / h2 / h3 for paragraphs whose reader left them as ``text``."""
    body = body_size(paras)
    out: list[Para] = []
    for para in paras:  # glyph bullets, and entry lines with a bold lead + a date
        if para.role == "text":
            is_bullet, rest = strip_glyph(para.text)
            if is_bullet:
                para.role, para.text = "bullet", rest
        out.append(para)
    paras = _join_durations(_join_wrapped_titles(out))
    bigger = body and max((p.size for p in paras), default=0) > body + 0.5
    if not any(p.role == "title" for p in paras):
        for index, para in enumerate(paras[:3]):
            if para.role not in ("text", "h2") or not headingish(para):
                continue
            text = plain(para.text)
            larger = bigger and para.size >= max(p.size for p in paras) - 0.1
            if classify_title(text) == "other" and (
                larger or person.clean_name(text) or (index == 0 and para.bold)
            ):
                para.role = "title"
            break
    _mark_headings(paras, body)
    return _rejoin_wrapped_headings(paras)


def _rejoin_wrapped_headings(paras: list[Para]) -> list[Para]:
    """An entry heading that stops open ("…, Boulder," / "…, Boul-") over the dates split
    off its row: the short line after the dates is the rest of it, wrapped in its column
    ("CO." / "der, CO.")."""
    out: list[Para] = []
    skip: set[int] = set()
    for index, para in enumerate(paras):
        if index in skip:
            continue
        out.append(para)
        text = para.text.rstrip()
        if para.role != "h3" or para.lead or not re.search(r"(?:,|\w-)$", text):
            continue
        if index + 2 >= len(paras):
            continue
        dates, rest = paras[index + 1], paras[index + 2]
        tail = rest.text.strip()
        if (
            (dates.role == "date" or is_date_text(dates.text))
            and rest.role in ("text", "date")
            and "*" not in tail
            and 0 < len(tail.split()) <= 3
            and not is_date_text(tail)
        ):
            broken = text.endswith("-") and tail[:1].islower()
            para.text = text[:-1] + tail if broken else f"{text} {tail}"
            skip.add(index + 2)
    return out


_OPEN_END_RE = re.compile(r"^[^*]{1,20}(?:\s[&/+]|\sand|[与及和])$", re.IGNORECASE)


def _join_wrapped_titles(paras: list[Para]) -> list[Para]:
    """A heading that ends open ("Honors &", "Languages and") wrapped in a narrow margin
    column: its next line in the same style, one or two paragraphs on (the reading order
    may put the column's first row between), is the rest of it.  So is the next line in
    the same style when the two together, and not the first alone, are a section name
    ("ACADEMIC" / "BACKGROUND")."""
    out: list[Para] = []
    skip: set[int] = set()
    for index, para in enumerate(paras):
        if index in skip:
            continue
        text = plain(para.text)
        nxt = paras[index + 1] if index + 1 < len(paras) else None
        if (  # "ACADEMIC" / "BACKGROUND": a section name only when joined
            nxt is not None
            and para.role == nxt.role == "text"
            and headingish(para)
            and headingish(nxt)
            and style_of(nxt) == style_of(para)
            and not _exact(text)
            and _exact(f"{text} {plain(nxt.text)}")
        ):
            para.text = f"{text} {plain(nxt.text)}"
            skip.add(index + 1)
        elif para.role == "text" and headingish(para) and _OPEN_END_RE.match(para.text.strip()):
            for ahead in range(index + 1, min(index + 3, len(paras))):
                rest = paras[ahead]
                if rest.role == "text" and headingish(rest) and style_of(rest) == style_of(para):
                    if "*" not in rest.text and len(rest.text.split()) <= 3:
                        para.text = f"{text} {plain(rest.text)}"
                        skip.add(ahead)
                    break
        out.append(para)
    return out


_DURATION_RE = re.compile(
    r"^\d+\s*(?:years?|yrs?|months?|mos?)(?:\s*\d+\s*(?:months?|mos?))?$"
    r"|^\d+\s*年(?:\s*\d+\s*个?月)?$|^\d+\s*个?月$",
    re.IGNORECASE,
)


def _join_durations(paras: list[Para]) -> list[Para]:
    """A duration printed over an entry's dates ("3 years 8 months" / "Apr, 2019 - Dec,
    2022") goes after them, on their line: "Apr, 2019 - Dec, 2022 (3 years 8 months)"."""
    out: list[Para] = []
    for index, para in enumerate(paras):
        following = paras[index + 1] if index + 1 < len(paras) else None
        if (
            para.role == "text"
            and following is not None
            and _DURATION_RE.match(plain(para.text))
            and (following.role == "date" or is_date_text(following.text))
        ):
            following.text = f"{following.text.strip()} ({plain(para.text)})"
            continue
        out.append(para)
    return out


@dataclass
class _Looks:
    """How a document sets its section names, and the lines it repeats."""

    distinctive: set[tuple[float, bool, bool]]  # styles that mark a section by themselves
    look: tuple[float, bool, bool] | None  # the style most exact section names share
    repeated: set[str]  # heading-looking lines printed more than once (case-folded)


def _looks(paras: list[Para], body: float) -> _Looks:
    # The look of a section heading: the style shared by the lines that are section names.
    styles: Counter[tuple[float, bool, bool]] = Counter()
    for para in paras:
        if (
            para.role == "text"
            and headingish(para)
            and _emphasised(para, body)
            and _exact(plain(para.text))
        ):
            styles[style_of(para)] += 1
    # A style only marks sections by itself when it is not just bold body text, which
    # entries ("**Data Analyst — Acme**") use as well.
    distinctive = {s for s in styles if s[0] > round(body) or s[2]}
    look = None
    if styles:
        style, count = styles.most_common(1)[0]
        look = style if count >= 2 and count * 2 > sum(styles.values()) else None
    # "Highlights" under every entry: a label, never a section, which a document names once
    seen = Counter(plain(p.text).casefold() for p in paras if p.role == "text" and headingish(p))
    return _Looks(distinctive, look, {text for text, n in seen.items() if n > 1})


def _mark_headings(paras: list[Para], body: float) -> None:
    """Sections (h2) and entries (h3) among the paragraphs left as text."""
    looks = _looks(paras, body)
    in_section = any(p.role == "h2" for p in paras[:1])
    kind = "other"  # the kind of the section the paragraph is in
    # The size of the entry heading whose rows (dates, a "City, ST") are all that follow it
    # so far; 0 once a bullet or a sentence follows.
    open_entry = 0.0
    candidates: list[int] = []  # the lines that looked like entry headings
    for index, para in enumerate(paras):
        if para.role == "h2":
            in_section, kind = True, classify_title(plain(para.text))
        if para.role != "text":
            if para.role == "h3":
                open_entry = para.size or 1.0
            elif not (open_entry and para.role == "date"):
                open_entry = 0.0
            continue
        boxed = _boxed(para)
        text = plain(para.text.strip().split("\n")[0]) if boxed else plain(para.text)
        dated = _dated_after(paras, index)
        # a plain line with its dates under it in a section of jobs, projects or schools:
        # an entry ("数据分析师, 北辰金融信息服务有限公司", a project's name)
        plain_entry = (
            dated
            and not open_entry
            and headingish(para)
            and (
                kind in ENTRY_SECTION_KINDS
                or (kind == "education" and names_employer_or_role(text))
            )
        )
        if (headingish(para) or boxed) and (
            _emphasised(para, body) or _plain_section(para) or plain_entry
        ):
            known = classify_title(text) != "other"
            # a section word printed over and over, not over a date of its own: a label
            # ("Highlights" under every entry); contact details are never headings
            repeated = text.casefold() in looks.repeated
            if (repeated and not dated and (known or text[-1] in ":：")) or _contact_item(text):
                open_entry = open_entry if _row_text(text) else 0.0
                continue
            if headingish(para) and not repeated and _is_section(paras, index, looks, in_section):
                para.role, in_section, kind, open_entry = "h2", True, classify_title(text), 0.0
                continue
            # Inside a section, a bold line naming a kind of thing ("… 实习生", "Projects at
            # Acme") is an entry, as the analyzer reads it; only exact names stand alone.
            # So is a line set larger than the body with its dates under it (a CJK font with
            # no bold).  Not in a section that holds no entries (contact details, skills),
            # and not a line under an entry heading and its dates that is set smaller than
            # it, or has no dates of its own: that is the entry's role or degree.
            entryish = para.bold or plain_entry or (dated and para.size > body + 0.5)
            if in_section and entryish and kind not in _NO_ENTRIES:
                candidates.append(index)
                if not open_entry or (dated and para.size >= open_entry - 0.5):
                    para.role, open_entry = "h3", para.size or 1.0
                    if plain_entry and not para.bold:  # the whole line, not its bold lead
                        para.text, para.lead = plain(para.text), ""
                    if boxed:  # "Acme Corp" over "Boulder, CO" in one box: one heading
                        comma = "，" if HAN_RE.search(para.text) else ", "
                        para.text = comma.join(line.strip() for line in para.text.split("\n"))
                    continue
        if in_section and para.lead and is_date_text(para.text[len(para.lead) + 4 :]):
            para.role, open_entry = "h3", para.size or 1.0
            continue
        open_entry = open_entry if _row_text(text) else 0.0
    _unlist(paras, candidates)


def _is_section(paras: list[Para], index: int, looks: _Looks, in_section: bool) -> bool:
    """An exact section name, a line in a style only sections use, or a line naming a kind
    of section ("Projects Experience") in the document's section look: outside a section,
    or not bold, or over the section's first entry.  A section word inside a line set
    unlike the document's section names ("运维工程师 at 知行教育科技有限公司" among bold
    capitals) does not make it a section."""
    para = paras[index]
    text = plain(para.text)
    if _exact(text):
        return True
    if _listlike(text):
        return False
    if style_of(para) in looks.distinctive:
        return True
    worded = classify_title(text) != "other" and looks.look in (None, style_of(para))
    return worded and (not (in_section and para.bold) or _heads_entry(paras, index))


_LIST_SEPARATOR_RE = re.compile(r"\s*[,，、;；]\s*")


def _listlike(text: str) -> bool:
    """A line no section title is, however it is set: a list ("Python, Go, SQL", "熟悉
    Java、Spring Boot") unless each item names a section ("Honors, Awards"), or a line
    with a number in it ("国家奖学金（2018）")."""
    if re.search(r"\d", text):
        return True
    parts = [p for p in _LIST_SEPARATOR_RE.split(text) if p]
    return len(parts) > 1 and any(classify_title(p) == "other" for p in parts)


def _dated_after(paras: list[Para], index: int) -> bool:
    """A date follows the line, right under it or under one more short line."""
    for para in paras[index + 1 : index + 3]:
        if para.role == "date" or (para.role == "text" and is_date_text(para.text)):
            return True
        if para.role != "text" or not headingish(para):
            return False
    return False


def _heads_entry(paras: list[Para], index: int) -> bool:
    """The next line is set like this one and is no section word, with its dates under
    it: the line is a section title over its first entry ("Projects Experience" over
    "Sparrow CI"), both in bold body type."""
    if index + 1 >= len(paras):
        return False
    following = paras[index + 1]
    return (
        following.role == "text"
        and headingish(following)
        and round(following.size) == round(paras[index].size)
        and not names_an_entry(plain(paras[index].text))
        and classify_title(plain(following.text)) == "other"
        and _dated_after(paras, index + 1)
    )


def _unlist(paras: list[Para], candidates: list[int]) -> None:
    """Lines that looked like entry headings one right after another, in one style and
    with nothing between them (award names in bold), are a list: none is an entry."""
    runs: list[list[int]] = []
    for index in candidates:
        if (
            runs
            and runs[-1][-1] == index - 1
            and style_of(paras[index]) == style_of(paras[index - 1])
        ):
            runs[-1].append(index)
        else:
            runs.append([index])
    for run in runs:
        if len(run) > 1:
            for index in run:
                paras[index].role = "text"


#: Sections whose lines are never entries: contact details, a summary, skills lists.
_NO_ENTRIES = frozenset({"contact", "summary", "skills", "languages", "interests"})
_CITY_RE = re.compile(
    r"^[A-Z][\w.'’-]*(?: [A-Z][\w.'’-]*)*, (?:[A-Z]{2}|[A-Z][a-z]+(?: [A-Z][a-z]+)*)$"
)
_PHONE_ONLY_RE = re.compile(r"^\+?[\d\s().\-/]{7,}$")


def _boxed(para: Para) -> bool:
    """Two lines, the second a place: an entry's name and place set in one box."""
    lines = para.text.strip().split("\n")
    return len(lines) == 2 and headingish(Para(lines[0])) and _place(plain(lines[1]))


def _contact_item(text: str) -> bool:
    """An e-mail address, a web address or a phone number: contact details, never a
    heading."""
    return bool(
        EMAIL_RE.fullmatch(text)
        or re.fullmatch(r"(?:https?://|www\.)\S+", text)
        or (_PHONE_ONLY_RE.match(text) and sum(c.isdigit() for c in text) >= 7)
    )


def _place(text: str) -> bool:
    """A place on a line of its own: "Boulder, CO", "Dublin, Ireland", "杭州"."""
    return bool(_CITY_RE.match(text)) or bool(HAN_RE.match(text) and is_place(text))


def _row_text(text: str) -> bool:
    """Dates or a place: what an entry heading's rows hold."""
    return is_date_text(text) or _place(text)


def _exact(text: str) -> bool:
    return is_standalone_title(text.rstrip(":："))


def _emphasised(para: Para, body: float) -> bool:
    return (
        para.bold
        or para.caps
        or (bool(body) and para.size > body + 0.5)
        or all_caps(plain(para.text))
    )


def _plain_section(para: Para) -> bool:
    """A plain line that is exactly a section name ("工作经历", "Education") stands alone."""
    text = plain(para.text).rstrip(":：")
    return len(text) <= 30 and _exact(text)
