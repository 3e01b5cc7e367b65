"""rendercv's input file (``cv.yaml``), so a resume can be rendered with any rendercv theme.

The structured resume (``resume_data``) maps onto rendercv 2.3's data model: ``cv`` with
name, location, email, phone, website and social networks, and ``sections`` (title → a list
of entries of one type each: ExperienceEntry, EducationEntry, NormalEntry, OneLineEntry,
BulletEntry, or TextEntry strings); ``design.theme`` is ``classic``.  What rendercv has no
place for (a headline, contact lines other than these, links on a network rendercv does not
know, a phone number that is not a valid international number) is listed in
``RendercvFile.left_out`` so the command can say so.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import yaml

from cvagent_cli.document.dates import YearMonth
from cvagent_cli.document.entry_words import read_degree, read_heading
from cvagent_cli.formats.interchange import resume_data as rd

#: The social networks rendercv 2.3 knows (``SocialNetwork.network``), by host.
NETWORKS = {
    "linkedin.com": "LinkedIn",
    "github.com": "GitHub",
    "gitlab.com": "GitLab",
    "imdb.com": "IMDB",
    "instagram.com": "Instagram",
    "orcid.org": "ORCID",
    "stackoverflow.com": "StackOverflow",
    "researchgate.net": "ResearchGate",
    "youtube.com": "YouTube",
    "scholar.google.com": "Google Scholar",
    "t.me": "Telegram",
    "leetcode.com": "Leetcode",
    "x.com": "X",
    "twitter.com": "X",
}


@dataclass
class RendercvFile:
    data: dict[str, Any]
    left_out: list[str] = field(default_factory=list)

    def dump(self) -> str:
        return yaml.dump(self.data, Dumper=_Dumper, allow_unicode=True, sort_keys=False, width=1000)


class _Dumper(yaml.SafeDumper):
    pass


def _str_presenter(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _str_presenter)


def to_rendercv(data: rd.ResumeData, theme: str = "classic") -> RendercvFile:
    out = RendercvFile({})
    b = data.basics
    cv: dict[str, Any] = {}
    if b.name:
        cv["name"] = b.name
    if b.location:
        cv["location"] = b.location
    if b.email:
        cv["email"] = b.email
    phone = _phone(b.phone, "CN" if data.language == "zh" else "US")
    if phone:
        cv["phone"] = phone
    elif b.phone:
        out.left_out.append(f"phone {b.phone} (rendercv takes a valid international number)")
    if b.website:
        cv["website"] = _url(b.website)
    networks = []
    for link in b.links:
        network = _network(link)
        if network:
            networks.append(network)
        else:
            out.left_out.append(f"link {link} (not a network rendercv knows)")
    if networks:
        cv["social_networks"] = networks
    if b.label:
        out.left_out.append(f"headline '{b.label}' (rendercv has no field for it)")
    out.left_out += [f"contact line '{x}'" for x in b.extra]
    sections: dict[str, list[Any]] = {}
    for part in data.parts:
        if part.field == "basics":
            continue
        entries = _section(part, data.language, out.left_out)
        if not entries:
            continue
        title = part.title
        n = 2
        while title in sections:
            title, n = f"{part.title} ({n})", n + 1
        sections[title] = entries
    if sections:
        cv["sections"] = sections
    out.data = {"cv": cv, "design": {"theme": theme}}
    return out


def _phone(text: str, region: str) -> str:
    """``text`` in international form when it is a valid number (rendercv checks)."""
    if not text:
        return ""
    import phonenumbers

    try:
        number = phonenumbers.parse(text, region)
    except phonenumbers.NumberParseException:
        return ""
    if not phonenumbers.is_valid_number(number):
        return ""
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.INTERNATIONAL)


def _url(text: str) -> str:
    return text if re.match(r"^[a-z][a-z0-9+.-]*://", text, re.I) else "https://" + text


def _network(link: str) -> dict[str, str] | None:
    url = _url(link)
    rest = re.sub(r"^[a-z]+://(?:www\.)?", "", url, flags=re.I)
    host, _, path = rest.partition("/")
    name = NETWORKS.get(host.lower())
    parts = [p for p in path.split("/") if p]
    if not name or not parts:
        return None
    username = parts[-1] if name != "Google Scholar" else path
    return {"network": name, "username": username}


def _date(ym: YearMonth | None) -> str | int | None:
    if ym is None:
        return None
    return f"{ym.year:04d}-{ym.month:02d}" if ym.month else ym.year


def _dated(item: dict[str, Any], entry: rd.EntryData) -> None:
    start = _date(entry.dates.start)
    end = entry.dates.end
    if (
        start is not None
        and end is not None
        and entry.dates.start
        and _reversed(entry.dates.start, end)
    ):
        # rendercv refuses an end before the start; its free-text date shows it as written
        item["date"] = f"{start} – {_date(end)}"
    elif start is not None:
        item["start_date"] = start
        item["end_date"] = "present" if entry.dates.current else _date(entry.dates.end)
        if item["end_date"] is None:
            del item["end_date"]


def _reversed(start: YearMonth, end: YearMonth) -> bool:
    if start.month is None or end.month is None:
        return end.year < start.year
    return end.index() < start.index()


def _common(item: dict[str, Any], entry: rd.EntryData, location: str = "") -> dict[str, Any]:
    _dated(item, entry)
    if entry.location or location:
        item["location"] = entry.location or location
    summary = "\n\n".join(entry.summary)
    if entry.date_note:
        summary = f"{entry.date_note}\n\n{summary}".strip()
    if summary:
        item["summary"] = summary
    if entry.bullets:
        item["highlights"] = list(entry.bullets)
    return item


def _section(part: rd.Part, lang: str, left_out: list[str]) -> list[Any]:
    if part.field in (None, "summary", "label"):
        return _text_entries(part.markdown or "\n\n".join(part.text))
    intro = list(part.text)
    if part.field in rd.ENTRY_FIELDS:
        if intro:
            left_out.append(f"the text above the entries of '{part.title}'")
        return _entry_section(part, lang)
    items = part.items
    if part.field in ("skills", "interests", "languages"):
        pairs = [rd.split_label(x) for x in items]
        if pairs and all(label for label, _ in pairs):
            return [{"label": label, "details": details} for label, details in pairs]
    return [{"bullet": x} for x in items]


def _entry_section(part: rd.Part, lang: str) -> list[dict[str, Any]]:
    entries = part.entries
    if entries and not any(e.title for e in entries):
        return [{"bullet": b} for e in entries for b in e.bullets]
    if part.field == "education":
        degrees = [read_degree(e.title) for e in entries]
        if all(d.institution and d.area for d in degrees):
            out = []
            for e, d in zip(entries, degrees, strict=True):
                item: dict[str, Any] = {"institution": d.institution, "area": d.area}
                if d.study_type:
                    item["degree"] = d.study_type
                out.append(_common(item, e, d.location))
            return out
    elif part.field in ("work", "volunteer"):
        heads = [read_heading(e.title, lang) for e in entries]
        if all(h.organisation and h.role for h in heads):
            return [
                _common({"company": h.organisation, "position": h.role}, e, h.location)
                for e, h in zip(entries, heads, strict=True)
            ]
    return [_common({"name": e.title or part.title}, e) for e in entries]


def _text_entries(markdown: str) -> list[Any]:
    """A section rendercv has no entry type for, as its paragraphs (TextEntry) or bullets."""
    blocks = [b.strip() for b in re.split(r"\n\s*\n", markdown) if b.strip()]
    lines = [ln for b in blocks for ln in b.splitlines()]
    if lines and all(re.match(r"^\s*[-*+]\s", ln) for ln in lines):
        return [{"bullet": rd.flat(re.sub(r"^\s*[-*+]\s+", "", ln))} for ln in lines]
    out = []
    for block in blocks:
        text = "\n".join(
            re.sub(r"^#{1,6}\s+", "", ln).strip() for ln in block.splitlines() if ln.strip()
        )
        out.append(
            rd.flat(text) if "\n" not in text else "\n".join(rd.flat(x) for x in text.splitlines())
        )
    return out
