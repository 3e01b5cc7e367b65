"""rendercv's input file (``cv.yaml``, rendercv 2.3 to 2.8) in: ``to_markdown`` reads it as
resume Markdown (``rendercv_yaml.py`` writes one).

The file is mapped onto a JSON Resume object, which ``jsonresume_read`` writes as Markdown,
so both formats come back in one way: experience entries as ``work``, education as
``education``, normal entries as ``projects``, with their dates, place, summary and
highlights (rendercv's sub-bullets, "parent - child", as nested bullets); sections of
text, bullets, numbered items, one-line entries ("**Label:** details") and publications
as their Markdown.  rendercv's strings are Markdown already, so bold and links are kept.
The header: name, headline, location, e-mail, phone, website, social networks (as the
address rendercv links them to) and custom connections.  The locale and the date template
give the language and the date style.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from cvagent_cli import languages
from cvagent_cli.errors import InputError
from cvagent_cli.formats.interchange import jsonresume_read
from cvagent_cli.formats.interchange.rendercv_yaml import (
    DATE_TEMPLATES,
    LOCALES,
    NETWORK_URLS,
    SUB_BULLET,
)

_HINT = "see https://docs.rendercv.com for the format"


def load(data: bytes, source: str) -> dict[str, Any]:
    """The rendercv file's top-level mapping, or an ``InputError`` saying in one line what
    is wrong."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(f"{source}: not UTF-8 text, so not a rendercv file") from None
    try:
        obj = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark else ""
        problem = getattr(exc, "problem", None) or "not YAML"
        raise InputError(
            f"{source}: not valid YAML{where}: {problem}", hint="fix the YAML and import it again"
        ) from None
    if not isinstance(obj, dict) or not isinstance(obj.get("cv"), dict):
        raise InputError(f"{source}: not a rendercv file (no 'cv:' section)", hint=_HINT)
    return obj


def to_markdown(obj: dict[str, Any], source: str = "cv.yaml") -> tuple[str, list[str]]:
    """Resume Markdown for a rendercv file's mapping, and notes on anything not imported."""
    return jsonresume_read.to_markdown(to_json_resume(obj, source), source, markdown_text=True)


def to_json_resume(obj: dict[str, Any], source: str = "cv.yaml") -> dict[str, Any]:
    """The JSON Resume object (with cvagent's ``meta.cvagent``) a rendercv file holds."""
    cv = obj["cv"]
    locale, design = _mapping(obj.get("locale")), _mapping(obj.get("design"))
    templates = _mapping(design.get("templates"))
    code = {v: k for k, v in LOCALES.items()}.get(str(locale.get("language") or ""))
    key_colon = languages.get(code or languages.FALLBACK).labels.key_colon
    out: dict[str, Any] = {"basics": {}}
    ext: dict[str, Any] = {"sections": []}
    if code:
        ext["language"] = code
    style = {v: k for k, v in DATE_TEMPLATES.items()}.get(str(templates.get("single_date")))
    if style:
        ext["dateStyle"] = style
    if isinstance(locale.get("present"), str):
        ext["present"] = locale["present"]
    contact = _basics(cv, out["basics"])
    if contact:
        ext["contact"] = contact
    sections = cv.get("sections")
    if sections is not None and not isinstance(sections, dict):
        raise InputError(f"{source}: cv.sections should be a mapping of titles", hint=_HINT)
    for title, entries in (sections or {}).items():
        if not isinstance(entries, list):
            raise InputError(f"{source}: cv.sections.{title} should be a list", hint=_HINT)
        field, items, markdown = _section(entries, key_colon)
        meta: dict[str, Any] = {"title": str(title)}
        if field:
            meta |= {"field": field, "count": len(items)}
            out.setdefault(field, []).extend(items)
        else:
            meta["markdown"] = markdown
        ext["sections"].append(meta)
    out["meta"] = {"cvagent": ext}
    return out


def _mapping(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _first(value: object) -> tuple[str, list[str]]:
    """A field that may be a list (rendercv 2.8's e-mails, phones, websites): the first,
    and the others."""
    values = [str(v) for v in value] if isinstance(value, list) else [str(value)] if value else []
    return (values[0], values[1:]) if values else ("", [])


def _basics(cv: dict[str, Any], basics: dict[str, Any]) -> list[str]:
    """Fill ``basics`` from the header; the contact lines no field takes."""
    extra: list[str] = []
    for key, target in (("name", "name"), ("headline", "label"), ("label", "label")):
        if cv.get(key) and target not in basics:
            basics[target] = str(cv[key])
    if cv.get("location"):
        basics["location"] = {"city": str(cv["location"])}
    for key, target in (("email", "email"), ("phone", "phone"), ("website", "url")):
        first, rest = _first(cv.get(key))
        if first:
            basics[target] = first.removeprefix("tel:")
        extra += rest
    profiles = []
    for network in cv.get("social_networks") or []:
        if not isinstance(network, dict):
            continue
        name, user = str(network.get("network") or ""), str(network.get("username") or "")
        prefix = NETWORK_URLS.get(name)
        if prefix and user:
            profiles.append({"network": name, "username": user, "url": prefix + user})
        elif user:
            extra.append(f"{name}: {user}" if name else user)
    for connection in cv.get("custom_connections") or []:
        if not isinstance(connection, dict):
            continue
        text, url = str(connection.get("placeholder") or ""), str(connection.get("url") or "")
        icon = str(connection.get("fontawesome_icon") or "")
        if icon == "phone" and text and "phone" not in basics:
            basics["phone"] = text
        elif url and _bare(url) == text:
            profiles.append({"url": url})
        elif url:
            extra.append(f"[{text or url}]({url})")
        elif text:
            extra.append(text)
    if profiles:
        basics["profiles"] = profiles
    return extra


def _bare(url: str) -> str:
    return re.sub(r"^https?://(?:www\.)?", "", url, flags=re.I).rstrip("/")


def _kind(entry: object) -> str:
    """rendercv's entry type, told by its keys as rendercv tells it."""
    if not isinstance(entry, dict):
        return "text"
    for kind, keys in (
        ("bullet", {"bullet"}),
        ("numbered", {"number"}),
        ("reversed", {"reversed_number"}),
        ("one_line", {"label", "details"}),
        ("experience", {"company", "position"}),
        ("education", {"institution", "area"}),
        ("publication", {"title", "authors"}),
        ("normal", {"name"}),
    ):
        if keys <= set(entry):
            return kind
    return "text"


#: Entry types that become JSON Resume entries, by field.
_FIELDS = {"experience": "work", "education": "education", "normal": "projects"}


def _section(entries: list[Any], colon: str) -> tuple[str | None, list[dict[str, Any]], str]:
    """(the JSON Resume field, its items) for a section of entries, or (None, [], its
    Markdown) for a section of text, bullets or one-line entries."""
    kinds = {_kind(e) for e in entries}
    field = _FIELDS.get(next(iter(kinds))) if len(kinds) == 1 else None
    if field:
        return field, [_entry(e, field) for e in entries], ""
    out: list[str] = []
    for number, entry in enumerate(entries, start=1):
        kind = _kind(entry)
        if kind == "text" or not isinstance(entry, dict):
            out += ["", str(entry).strip(), ""]
        elif kind == "bullet":
            out.append(f"- {entry['bullet']}")
        elif kind in ("numbered", "reversed"):
            out.append(f"{number}. {entry.get('number') or entry.get('reversed_number')}")
        elif kind == "one_line":
            out.append(f"- **{entry['label']}{colon}** {entry['details']}")
        else:
            out.append(f"- {_publication(entry)}")
    return None, [], re.sub(r"\n{3,}", "\n\n", "\n".join(out)).strip("\n")


def _publication(entry: dict[str, Any]) -> str:
    authors = entry.get("authors")
    names = ", ".join(map(str, authors)) if isinstance(authors, list) else str(authors or "")
    where = str(entry.get("journal") or "")
    date = str(entry.get("date") or "")
    text = " — ".join(x for x in (str(entry.get("title") or ""), names, where) if x)
    return f"{text} ({date})" if date else text


def _entry(entry: dict[str, Any], field: str) -> dict[str, Any]:
    """One experience, education or normal entry as a JSON Resume item."""
    item: dict[str, Any] = {}
    if field == "work":
        item["name"], item["position"] = str(entry["company"]), str(entry["position"])
    elif field == "education":
        item["institution"], item["area"] = str(entry["institution"]), str(entry["area"])
        if entry.get("degree"):
            item["studyType"] = str(entry["degree"])
    else:
        item["name"] = str(entry["name"])
    if entry.get("location"):
        item["location"] = str(entry["location"])
    start, end, date = entry.get("start_date"), entry.get("end_date"), entry.get("date")
    if start is not None:
        item["startDate"] = str(start)
        item["endDate"] = str(end) if end is not None else "present"
    elif date is not None:
        item["dateNote"] = str(date)  # rendercv's free-text date, as written
    if entry.get("summary"):
        item["summary"] = str(entry["summary"]).strip()
    highlights, levels = _highlights(entry.get("highlights"))
    if highlights:
        item["highlights"] = highlights
        if any(levels):
            item["highlightLevels"] = levels
    return item


def _highlights(value: object) -> tuple[list[str], list[int]]:
    """rendercv's highlights as bullets and their depths: "parent - child" is a parent
    and a sub-bullet (``SUB_BULLET``), as rendercv draws it."""
    bullets: list[str] = []
    levels: list[int] = []
    for raw in value if isinstance(value, list) else []:
        for depth, text in enumerate(str(raw).split(SUB_BULLET)):
            bullets.append(text.replace("\u00a0- ", " - ").strip())
            levels.append(min(depth, 1))
    return bullets, levels
