"""JSON Resume (https://jsonresume.org, schema v1.0.0) out: the structured resume as the
schema's fields (``jsonresume_read.py`` reads it back in).

``to_json_resume`` maps the structured resume (``resume_data``) onto the schema's fields;
what no field holds goes to documented places, so nothing is dropped:

- ``meta.cvagent``: the section titles and their order (``sections``; a section with no
  JSON Resume field keeps its Markdown there), contact lines no ``basics`` field holds
  (``contact``), the resume's language and date style;
- extra properties on an item, which the schema allows on every item: ``location``,
  ``summary`` and ``highlights`` on ``education`` (and ``location`` on ``projects`` and
  ``volunteer``), ``dateNote`` ("(expected)") on any entry, ``highlightLevels`` (below).

Nested bullets: ``highlights`` lists every bullet once, in the resume's order, a nested one
after its parent; when any is nested, ``highlightLevels`` gives each one's depth (0 at the
top, 1 under the bullet before it …), so a theme shows them all and the import nests them
again.  Dates pass the schema's format checks: ISO 8601 (``2019-03``, ``2019``), and a
certificate's ``date`` (``format: date``) only as a whole day; a year or month stays in its
name as written.

"""

from __future__ import annotations

import json
import re
from typing import Any

from cvagent_cli.document.dates import (
    YearMonth,
    find_dates,
    find_ranges,
)
from cvagent_cli.document.entry_words import Heading, parse_degree, read_degree, read_heading
from cvagent_cli.formats.interchange import resume_data as rd

SCHEMA_URL = "https://raw.githubusercontent.com/jsonresume/resume-schema/v1.0.0/schema.json"
SECTION_FIELDS = (
    "work",
    "volunteer",
    "education",
    "awards",
    "certificates",
    "publications",
    "skills",
    "languages",
    "interests",
    "references",
    "projects",
)
#: The order sections take when a file does not say (``meta.cvagent.sections``).
DEFAULT_ORDER = (
    "summary",
    "work",
    "projects",
    "education",
    "skills",
    "volunteer",
    "awards",
    "certificates",
    "publications",
    "languages",
    "interests",
    "references",
)
_NETWORKS = {
    "linkedin.com": "LinkedIn",
    "github.com": "GitHub",
    "gitlab.com": "GitLab",
    "twitter.com": "Twitter",
    "x.com": "X",
    "stackoverflow.com": "StackOverflow",
    "medium.com": "Medium",
    "behance.net": "Behance",
    "dribbble.com": "Dribbble",
    "orcid.org": "ORCID",
    "scholar.google.com": "Google Scholar",
    "researchgate.net": "ResearchGate",
    "youtube.com": "YouTube",
    "instagram.com": "Instagram",
    "zhihu.com": "Zhihu",
    "juejin.cn": "Juejin",
    "gitee.com": "Gitee",
}
PROFILE_URLS = {
    "linkedin": "https://linkedin.com/in/{}",
    "github": "https://github.com/{}",
    "gitlab": "https://gitlab.com/{}",
    "twitter": "https://twitter.com/{}",
    "x": "https://x.com/{}",
}


# == Markdown → JSON Resume ========================================================
def to_json_resume(data: rd.ResumeData) -> dict[str, Any]:
    """The JSON Resume document for ``data`` (valid against schema v1.0.0)."""
    lang = data.language
    b = data.basics
    basics: dict[str, Any] = {}
    _put(basics, "name", b.name)
    _put(basics, "label", b.label)
    _put(basics, "email", b.email)
    _put(basics, "phone", b.phone)
    _put(basics, "url", web_url(b.website) if b.website else "")
    if b.location:
        city, _, region = b.location.partition(", ")
        basics["location"] = {"city": city} | ({"region": region} if region else {})
    profiles = [_profile(link) for link in b.links]
    if profiles:
        basics["profiles"] = profiles
    out: dict[str, Any] = {"$schema": SCHEMA_URL, "basics": basics}
    sections: list[dict[str, Any]] = []
    summary_taken = False
    for part in data.parts:
        meta: dict[str, Any] = {"title": part.title}
        target = part.field
        if target == "label" and not b.label:
            meta["field"] = "label"
            _put(basics, "label", part.text[0])
            sections.append(meta)
            continue
        if target == "label":
            target = "summary"  # a headline stated twice: this one is kept as text
        if target == "summary" and summary_taken:
            target = None
        if target == "basics":
            meta["field"] = "basics"
            sections.append(meta)
            continue
        if target is None:
            meta["markdown"] = part.markdown or "\n\n".join(part.text)
            sections.append(meta)
            continue
        meta["field"] = target
        if part.unplaced:
            meta["unplaced"] = part.unplaced
        if target == "summary":
            summary_taken = True
            _put(basics, "summary", "\n\n".join(part.text))
            sections.append(meta)
            continue
        if part.text:
            meta["intro"] = part.text
        items = _entries(part, lang) if target in rd.ENTRY_FIELDS else _items(part, lang)
        meta["count"] = len(items)
        if target in rd.ENTRY_FIELDS and part.entries:
            meta["order"] = _order(part, lang)
        elif target not in rd.ENTRY_FIELDS:
            meta["layout"] = part.layout
            if part.header:
                meta["header"] = part.header
        out.setdefault(target, []).extend(items)
        sections.append(meta)
    cvagent: dict[str, Any] = {"language": lang, "sections": sections}
    if data.date_style:
        cvagent["dateStyle"] = data.date_style
    if data.present:
        cvagent["present"] = data.present
    if b.extra:
        cvagent["contact"] = b.extra
    out["meta"] = {"version": "v1.0.0", "cvagent": cvagent}
    return out


def _put(obj: dict[str, Any], key: str, value: Any) -> None:
    if value:
        obj[key] = value


def web_url(text: str) -> str:
    return text if re.match(r"^[a-z][a-z0-9+.-]*://", text, re.I) else "https://" + text


def _profile(link: str) -> dict[str, str]:
    url = web_url(link)
    host = re.sub(r"^[a-z]+://(?:www\.)?", "", url, flags=re.I).split("/")[0].lower()
    network = next((n for h, n in _NETWORKS.items() if host == h or host.endswith("." + h)), host)
    path = [p for p in url.split("://", 1)[-1].split("/")[1:] if p]
    profile = {"network": network}
    if path:
        profile["username"] = path[-1]
    profile["url"] = url
    return profile


def _iso(ym: YearMonth | None) -> str:
    if ym is None:
        return ""
    return f"{ym.year:04d}-{ym.month:02d}" if ym.month else f"{ym.year:04d}"


def _dated(item: dict[str, Any], entry: rd.EntryData) -> None:
    _put(item, "startDate", _iso(entry.dates.start))
    if not entry.dates.current:
        _put(item, "endDate", _iso(entry.dates.end))
    _put(item, "dateNote", entry.date_note)


def _order(part: rd.Part, lang: str) -> str:
    if part.field == "education":
        firsts = [read_degree(e.title).degree_first for e in part.entries if e.title]
        return "degree-first" if firsts and sum(firsts) * 2 >= len(firsts) else "institution-first"
    if part.field == "projects":
        return "name"
    firsts = [read_heading(e.title, lang).role_first for e in part.entries if e.title]
    return "position-first" if firsts and sum(firsts) * 2 >= len(firsts) else "organisation-first"


def _entries(part: rd.Part, lang: str) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for entry in part.entries:
        item: dict[str, Any] = {}
        summary = "\n\n".join(entry.summary)
        if part.field == "education":
            degree = read_degree(entry.title)
            lines = summary.split("\n")
            found = parse_degree(lines[0]) if not degree.study_type and summary else None
            if found:  # "Ohio State University" over "Bachelor of Arts, Communication"
                degree.study_type, degree.area = found
                summary = "\n".join(lines[1:]).strip()
            _put(item, "institution", degree.institution)
            _put(item, "area", degree.area)
            _put(item, "studyType", degree.study_type)
            _dated(item, entry)
            _put(item, "location", entry.location or degree.location)
            _put(item, "summary", summary)
            _highlights(item, entry)
        elif part.field == "projects":
            _put(item, "name", entry.title)
            _put(item, "description", summary)
            _dated(item, entry)
            _put(item, "location", entry.location)
            _highlights(item, entry)
        else:
            heading = read_heading(entry.title, lang) if entry.title else Heading()
            org_key = "organization" if part.field == "volunteer" else "name"
            _put(item, org_key, heading.organisation)
            _put(item, "position", heading.role)
            _put(item, "location", entry.location or heading.location)
            _dated(item, entry)
            _put(item, "summary", summary)
            _highlights(item, entry)
        items.append(item)
    return items


def _highlights(item: dict[str, Any], entry: rd.EntryData) -> None:
    """Every bullet once; their depths beside them when any is nested."""
    _put(item, "highlights", entry.bullets)
    if any(entry.levels):
        item["highlightLevels"] = list(entry.levels)


def _single_date(text: str) -> tuple[str, str]:
    """(text without its one date, ISO date) for an award or certificate line."""
    if find_ranges(text):
        return text, ""
    found = find_dates(text)
    if len(found) != 1:
        return text, ""
    d = found[0]
    rest = (text[: d.start].rstrip() + " " + text[d.end :].lstrip()).strip()
    rest = re.sub(r"\s*[(（]\s*[)）]", "", rest).strip(" ,，·|-—–:：")
    if not rest:
        return text, ""
    day = f"-{d.day:02d}" if d.day and d.date.month else ""
    return rest, _iso(d.date) + day


def _items(part: rd.Part, lang: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for text in part.items:
        label, rest = rd.split_label(text)
        if part.field in ("skills", "interests"):
            if label:
                out.append({"name": label, "keywords": rd.split_list(rest)})
            else:
                out.append({"name": text})
        elif part.field == "languages":
            lang_name, fluency = label, rest
            if not label:
                match = re.match(r"^(.+?)\s*(?:\s[-—–|]\s|[(（])\s*(.+?)[)）]?$", text)
                lang_name, fluency = (match.group(1), match.group(2)) if match else (text, "")
            item = {"language": lang_name.strip()}
            _put(item, "fluency", fluency.strip())
            out.append(item)
        elif part.field == "references":
            out.append({"name": label, "reference": rest} if label else {"reference": text})
        else:
            name, date = _single_date(text)
            if part.field == "certificates" and len(date) != len("2021-06-30"):
                # the schema's certificate date is a whole day (format: date): a year or a
                # month stays in the name, as written ("Tableau Desktop Specialist (2021)")
                name, date = text, ""
            key, date_key = {
                "awards": ("title", "date"),
                "certificates": ("name", "date"),
                "publications": ("name", "releaseDate"),
            }[part.field or "awards"]
            item = {key: name}
            _put(item, date_key, date)
            out.append(item)
    return out


def dumps(doc: dict[str, Any]) -> str:
    return json.dumps(doc, ensure_ascii=False, indent=2) + "\n"


# == JSON Resume → Markdown =========================================================
