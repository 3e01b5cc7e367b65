"""rendercv's input file (``cv.yaml``), so a resume can be rendered with any rendercv theme.

The structured resume (``resume_data``) maps onto rendercv 2.8's data model: ``cv`` with
name, headline, location, email, phone, website, social networks and custom connections
(the contact details no other field holds: a link on a network rendercv does not know, a
phone number that is not a valid international one, lines such as "工作年限：5 年"), and
``sections`` (title → a list of entries of one type each: ExperienceEntry, EducationEntry,
NormalEntry, OneLineEntry, BulletEntry, or TextEntry strings); ``design.theme`` is
``classic``.  Highlights and text keep their bold, italics and links as rendercv's
Markdown; a nested bullet is written with rendercv's sub-bullet syntax ("parent - child":
one level, deeper ones at that level), and a " - " in the text itself is kept from being
read as one (its space is a no-break space).  A Chinese resume gets rendercv's
``mandarin_chinese`` locale ("至今", "最后更新于") and its own date style
(``design.templates.single_date``: "2019.03").

rendercv 2.3 reads the same file where it can: it ignores ``headline`` and
``custom_connections`` and shows the dates in English, and it refuses the 2.8 locale, so
a Chinese resume's file needs 2.8.  ``RendercvFile.left_out`` lists what has no place at
all (the text above a section's entries) so the command can say so.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import yaml

from cvagent_cli import languages
from cvagent_cli.document.dates import YearMonth
from cvagent_cli.document.entry_words import read_degree, read_heading
from cvagent_cli.document.inline import HTML_TAG_RE
from cvagent_cli.formats.interchange import resume_data as rd

#: The social networks rendercv 2.3 and 2.8 both know (``SocialNetwork.network``), by host.
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

#: The address rendercv links a network's username to (``SocialNetwork``'s URLs).
NETWORK_URLS = {
    "LinkedIn": "https://linkedin.com/in/",
    "GitHub": "https://github.com/",
    "GitLab": "https://gitlab.com/",
    "IMDB": "https://imdb.com/name/",
    "Instagram": "https://instagram.com/",
    "ORCID": "https://orcid.org/",
    "StackOverflow": "https://stackoverflow.com/users/",
    "ResearchGate": "https://researchgate.net/profile/",
    "YouTube": "https://youtube.com/@",
    "Google Scholar": "https://scholar.google.com/citations?user=",
    "Telegram": "https://t.me/",
    "Leetcode": "https://leetcode.com/u/",
    "X": "https://x.com/",
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


#: cvagent's date styles (``document.dates``) as rendercv 2.8's date template; "Mon YYYY"
#: is rendercv's own default and is left unsaid.
DATE_TEMPLATES = {
    "YYYY.MM": "YEAR.MONTH_IN_TWO_DIGITS",
    "YYYY-MM": "YEAR-MONTH_IN_TWO_DIGITS",
    "YYYY/MM": "YEAR/MONTH_IN_TWO_DIGITS",
    "YYYY年M月": "YEAR年MONTH月",
    "MM/YYYY": "MONTH_IN_TWO_DIGITS/YEAR",
    "MM.YYYY": "MONTH_IN_TWO_DIGITS.YEAR",
}
#: rendercv's locale for a resume's language, by code (English is its default).
LOCALES = {
    language.code: language.labels.rendercv_locale
    for language in languages.every()
    if language.labels.rendercv_locale
}
#: rendercv's sub-bullet separator inside a highlight.
SUB_BULLET = " - "


def to_rendercv(data: rd.ResumeData, theme: str = "classic") -> RendercvFile:
    out = RendercvFile({})
    b = data.basics
    cv: dict[str, Any] = {}
    if b.name:
        cv["name"] = b.name
    if b.label:
        cv["headline"] = b.label
    if b.location:
        cv["location"] = b.location
    if b.email:
        cv["email"] = b.email
    phone = _phone(b.phone, languages.get(data.language).labels.phone_region or "US")
    connections: list[dict[str, Any]] = []
    if phone:
        cv["phone"] = phone
    elif b.phone:  # rendercv takes a valid international number only
        connections.append(_connection(b.phone, None, "phone"))
    if b.website:
        cv["website"] = _url(b.website)
    networks = []
    for link in b.links:
        network = _network(link)
        if network:
            networks.append(network)
        else:
            connections.append(_connection(_bare(link), _url(link), "link"))
    if networks:
        cv["social_networks"] = networks
    connections += [_connection(line, None, "circle-info") for line in b.extra]
    if connections:
        cv["custom_connections"] = connections
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
    design: dict[str, Any] = {"theme": theme}
    if data.date_style in DATE_TEMPLATES and data.language in LOCALES:
        design["templates"] = {"single_date": DATE_TEMPLATES[data.date_style]}
    out.data = {"cv": cv, "design": design}
    if data.language in LOCALES:
        out.data["locale"] = {"language": LOCALES[data.language]}
    return out


def _connection(text: str, url: str | None, icon: str) -> dict[str, Any]:
    """A custom connection (rendercv 2.8): the text shown, its link, a Font Awesome icon."""
    return {"placeholder": text, "url": url, "fontawesome_icon": icon}


def _bare(link: str) -> str:
    return re.sub(r"^https?://(?:www\.)?", "", link, flags=re.I).rstrip("/")


def _phone(text: str, region: str) -> str:
    """``text`` in international form when it is a valid number (rendercv checks)."""
    if not text:
        return ""
    # lazy: phonenumbers' metadata loads only when a phone number is formatted
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
        item["highlights"] = highlights(entry)
    return item


def highlights(entry: rd.EntryData) -> list[str]:
    """The entry's bullets as rendercv's highlights, in its Markdown: a nested bullet joins
    the top-level one before it as a sub-bullet ("parent - child")."""
    marked = entry.marked if len(entry.marked) == len(entry.bullets) else entry.bullets
    levels = entry.levels if len(entry.levels) == len(entry.bullets) else [0] * len(marked)
    out: list[str] = []
    for text, level in zip(marked, levels, strict=True):
        text = markdown(text).replace(SUB_BULLET, "\u00a0- ")
        if level and out:
            out[-1] += SUB_BULLET + text
        else:
            out.append(text)
    return out


_AUTOLINK_RE = re.compile(r"<((?:https?|mailto):[^<>\s]+)>")


def markdown(source: str) -> str:
    """Inline Markdown as rendercv reads it (bold, italics, code, links): an autolink as
    a link, images as their text, HTML tags and strikethrough marks dropped."""
    text = _AUTOLINK_RE.sub(lambda m: f"[{_bare(m.group(1))}]({m.group(1)})", source)
    text = re.sub(r"!\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"~~(.+?)~~", r"\1", HTML_TAG_RE.sub("", text))
    return " ".join(text.split())


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
