"""JSON Resume (https://jsonresume.org, schema v1.0.0) in: ``to_markdown`` reads a JSON
Resume file from any tool as resume Markdown (``jsonresume.py`` writes one).  Lenient about
what other tools write (dates like ``2019-03-01T00:00:00Z`` or ``"Present"``, numbers for
strings), strict about shape (a section that is not a list is an ``InputError`` naming it);
what cvagent itself wrote in ``meta.cvagent`` (section titles and order, contact lines) is
put back where it was.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from cvagent_cli import languages
from cvagent_cli.document.dates import (
    PRESENT_WORDS,
    SPAN_FORMATS,
    parse_date,
)
from cvagent_cli.errors import InputError
from cvagent_cli.formats.interchange.jsonresume import (
    DEFAULT_ORDER,
    PROFILE_URLS,
    SECTION_FIELDS,
    web_url,
)
from cvagent_cli.languages import Language
from cvagent_cli.script import HAN_RE


def load(data: bytes | str, source: str) -> dict[str, Any]:
    """The JSON object in ``data``, or an ``InputError`` saying in one line what is wrong."""
    try:
        text = data.decode("utf-8-sig") if isinstance(data, bytes) else data
    except UnicodeDecodeError:
        raise InputError(f"{source}: not UTF-8 text, so not a JSON Resume file") from None
    too_deep = False
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"{source}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})",
            hint="fix the JSON, e.g. with a JSON linter, and import it again",
        ) from None
    except RecursionError:  # the parser recurses once per level: ~1,000 levels stop it
        obj, too_deep = None, True
    if too_deep or _depth(obj) > MAX_DEPTH:
        raise InputError(
            f"{source}: lists or objects nested more than {MAX_DEPTH} levels deep; "
            "a JSON Resume file needs about 5",
            hint="see https://jsonresume.org/schema for the format",
        )
    if not isinstance(obj, dict):
        raise InputError(f"{source}: a JSON Resume file is one JSON object, not {_a(_kind(obj))}")
    known = {"basics", "meta", "$schema", *SECTION_FIELDS}
    if not known & set(obj):
        raise InputError(
            f"{source}: no JSON Resume fields (basics, work, education …)",
            hint="see https://jsonresume.org/schema for the format",
        )
    return obj


#: Deeper than any JSON Resume file (basics.location is 3 levels, meta.cvagent's parts 5):
#: refused before anything walks the data, so no reader meets a 2,000-level list.
MAX_DEPTH = 32


def _depth(value: object) -> int:
    """How deeply lists and objects nest in ``value`` (a scalar is 0), without recursion."""
    deepest = 0
    stack: list[tuple[object, int]] = [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, (dict, list)):
            level += 1
            deepest = max(deepest, level)
            if deepest > MAX_DEPTH:
                break
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, level) for child in children)
    return deepest


def _a(kind: str) -> str:
    """ "an object", "a list": the kind with its article."""
    if kind == "null":
        return kind
    return f"an {kind}" if kind[:1] in "aeiou" else f"a {kind}"


def _kind(value: object) -> str:
    names = {dict: "object", list: "list", str: "string", int: "number", float: "number"}
    return (names | {bool: "boolean"}).get(
        type(value), "null" if value is None else type(value).__name__
    )


class _Reader:
    """Typed access to a JSON Resume object that names the field at fault."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.notes: list[str] = []

    def fail(self, where: str, expected: str, value: object) -> InputError:
        return InputError(
            f"{self.source}: {where} should be {expected}, not {_a(_kind(value))}",
            hint="see https://jsonresume.org/schema for the format",
        )

    def obj(self, value: object, where: str) -> dict[str, Any]:
        if value is None:
            return {}
        if not isinstance(value, dict):
            raise self.fail(where, "an object", value)
        return value

    def items(self, value: object, where: str) -> list[dict[str, Any]]:
        if value is None:
            return []
        if not isinstance(value, list):
            raise self.fail(where, "a list", value)
        return [self.obj(v, f"{where}[{i}]") for i, v in enumerate(value)]

    def text(self, value: object, where: str) -> str:
        if value is None:
            return ""
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            raise self.fail(where, "text", value)
        return " ".join(str(value).split()) if "\n" not in str(value) else str(value).strip()

    def texts(self, value: object, where: str) -> list[str]:
        if value is None:
            return []
        if isinstance(value, str):
            return [value.strip()] if value.strip() else []
        if not isinstance(value, list):
            raise self.fail(where, "a list of text", value)
        return [t for i, v in enumerate(value) if (t := self.text(v, f"{where}[{i}]"))]


#: Item properties each section's writer reads (the rest is reported as not imported).
_READ = {
    "work": {
        "name",
        "position",
        "location",
        "startDate",
        "endDate",
        "summary",
        "highlights",
        "highlightLevels",
        "url",
        "description",
        "dateNote",
    },
    "volunteer": {
        "organization",
        "position",
        "location",
        "startDate",
        "endDate",
        "summary",
        "highlights",
        "url",
        "dateNote",
        "highlightLevels",
    },
    "education": {
        "institution",
        "area",
        "studyType",
        "startDate",
        "endDate",
        "score",
        "courses",
        "url",
        "location",
        "summary",
        "highlights",
        "dateNote",
        "highlightLevels",
    },
    "projects": {
        "name",
        "description",
        "highlights",
        "keywords",
        "startDate",
        "endDate",
        "url",
        "roles",
        "entity",
        "type",
        "location",
        "summary",
        "dateNote",
        "highlightLevels",
    },
    "skills": {"name", "level", "keywords"},
    "interests": {"name", "keywords"},
    "languages": {"language", "fluency"},
    "references": {"name", "reference"},
    "awards": {"title", "date", "awarder", "summary"},
    "certificates": {"name", "date", "issuer", "url"},
    "publications": {"name", "publisher", "releaseDate", "url", "summary"},
}


def to_markdown(
    obj: dict[str, Any], source: str = "resume.json", *, markdown_text: bool = False
) -> tuple[str, list[str]]:
    """Resume Markdown for a JSON Resume object, and notes on anything not imported.
    ``markdown_text``: its strings are inline Markdown already (a rendercv file's), kept
    as they are, not plain text to escape."""
    r = _Reader(source)
    basics = r.obj(obj.get("basics"), "basics")
    meta = r.obj(obj.get("meta"), "meta")
    ext = r.obj(meta.get("cvagent"), "meta.cvagent")
    code = ext.get("language")
    lang = languages.REGISTRY[code] if code in languages.REGISTRY else _language(obj)
    writer = _Writer(
        r, lang, str(ext.get("dateStyle") or ""), str(ext.get("present") or ""), markdown_text
    )
    for key in obj:
        if key not in {"basics", "meta", "$schema", *SECTION_FIELDS}:
            r.notes.append(f"'{key}' is not a JSON Resume field; not imported")
    arrays = {f: r.items(obj.get(f), f) for f in SECTION_FIELDS}
    sections = r.items(ext.get("sections"), "meta.cvagent.sections")
    contact_lines = r.texts(ext.get("contact"), "meta.cvagent.contact")
    # a headline written as a section ("## 求职意向") goes back there, not in the header
    in_section = any(s.get("field") == "label" for s in sections)
    out, contact = writer.header(
        {k: v for k, v in basics.items() if k != "label" or not in_section}, contact_lines
    )
    if not any(s.get("field") == "basics" for s in sections) and contact:
        out += [contact, ""]
    used = dict.fromkeys(SECTION_FIELDS, 0)
    wrote_summary = False
    planned = list(sections)
    fields_named = {str(s.get("field")) for s in sections}
    for unlisted in DEFAULT_ORDER:  # sections the file has that meta.cvagent does not list
        if unlisted not in fields_named and (
            arrays.get(unlisted) or (unlisted == "summary" and basics.get("summary"))
        ):
            planned.append({"field": unlisted})
    # the last section of a field takes whatever items the counts leave over
    last_of = {str(s.get("field")): i for i, s in enumerate(planned) if s.get("field")}
    for i, section in enumerate(planned):
        field = section.get("field")
        title = r.text(section.get("title"), f"meta.cvagent.sections[{i}].title")
        if not field:
            markdown = r.text(section.get("markdown"), f"meta.cvagent.sections[{i}].markdown")
            out += [f"## {title or 'Other'}", "", markdown, ""]
            continue
        field = str(field)
        title = title or _export_title(lang, field)
        if field == "summary":
            if not wrote_summary:
                out += [f"## {title}", ""]
                if basics.get("summary"):
                    out += [
                        writer.escape_block(r.text(basics.get("summary"), "basics.summary")),
                        "",
                    ]
                out += _unplaced(r, section, i, writer.escape)
            wrote_summary = True
            continue
        if field == "label":
            headline = r.text(basics.get("label"), "basics.label")
            out += [f"## {title}", ""] + ([writer.escape_block(headline), ""] if headline else [])
            continue
        if field == "basics":
            out += [f"## {title}", ""] + ([contact, ""] if contact else [])
            contact = ""
            continue
        if field not in arrays:
            r.notes.append(f"meta.cvagent.sections[{i}]: unknown field '{field}'; skipped")
            continue
        items = arrays[field]
        start = used[field]
        count = section.get("count")
        end = len(items) if i == last_of[field] or not isinstance(count, int) else start + count
        chunk = items[start:end]
        used[field] = start + len(chunk)
        intro = r.texts(section.get("intro"), f"meta.cvagent.sections[{i}].intro")
        unplaced = _unplaced(r, section, i, writer.escape)
        if not chunk and not intro and not unplaced and "title" not in section:
            continue
        out += [f"## {title}", ""]
        for paragraph in intro:
            out += [writer.escape_block(paragraph), ""]
        if chunk:
            out += writer.section(field, chunk, start, section)
        out += unplaced
    for key in basics:
        if key not in {
            "name",
            "label",
            "email",
            "phone",
            "url",
            "summary",
            "location",
            "profiles",
            "image",
        }:
            r.notes.append(f"basics.{key} is not a JSON Resume field; not imported")
    if basics.get("image"):
        r.notes.append("basics.image (a photo) is not imported: resume Markdown has no photo")
    text = "\n".join(out).rstrip("\n") + "\n"
    return re.sub(r"\n{3,}", "\n\n", text), r.notes


def _unplaced(
    r: _Reader, section: dict[str, Any], i: int, escape: Callable[[str], str]
) -> list[str]:
    lines = r.texts(section.get("unplaced"), f"meta.cvagent.sections[{i}].unplaced")
    return ["\n".join(escape(x) for x in lines), ""] if lines else []


def _export_title(lang: Language, field: str) -> str:
    """The title of a section the file does not name: the language's, else the fallback
    language's, else the language's word for contact details (``basics``, ``label``)."""
    fallback = languages.get(languages.FALLBACK).sections.export_titles
    return lang.sections.export_titles.get(field) or fallback.get(field) or lang.labels.contact


def _language(obj: dict[str, Any]) -> Language:
    text = json.dumps(obj, ensure_ascii=False)
    han = len(HAN_RE.findall(text))
    latin = len(re.findall(r"[A-Za-z]+", text))
    return languages.detect(text, han=han, words=han + latin)


_MD_SPECIAL_RE = re.compile(r"([*`<\[\]\\])|(?<![\w])_|_(?![\w])")
_LINE_START_RE = re.compile(r"^(\s*)(#{1,6}\s|[-+*]\s|>|\d{1,9}[.)]\s|={3,}|-{3,})")


def _escape(text: str) -> str:
    """Plain text safe inside a Markdown line: emphasis, code and link characters escaped."""
    text = _MD_SPECIAL_RE.sub(lambda m: "\\" + m.group(0), text)
    return _LINE_START_RE.sub(lambda m: m.group(1) + "\\" + m.group(2), text)


def _escape_block(text: str, escape: Callable[[str], str] = _escape) -> str:
    """A paragraph of plain text (its lines kept, "- " lines as bullets)."""
    out = []
    for line in text.splitlines():
        if line.startswith(("- ", "• ")):
            out.append("- " + escape(line[2:].strip()))
        else:
            out.append(escape(line.strip()))
    return "\n".join(out)


def _line_starts(text: str) -> str:
    """Inline Markdown kept as it is, but never read as a block (a heading, a list item)."""
    return _LINE_START_RE.sub(lambda m: m.group(1) + "\\" + m.group(2), text)


_ISO_RE = re.compile(r"^\s*(\d{4})(?:-(\d{1,2}))?(?:-(\d{1,2}))?(?:[T ][\d:.]+Z?)?\s*$")
# The range-end words of document/dates.py.  An endDate of "currently", "目前" or "今天" has
# always been kept as written (with a note), and still is: importing it is unchanged.
_PRESENT_RE = re.compile(
    r"^\s*("
    + "|".join(w for w in PRESENT_WORDS if w not in {"currently", "目前", "今天"})
    + r")\s*$",
    re.I,
)
#: The months of the "Mon YYYY" style, for a language that has no abbreviations of its own
_MONTHS = languages.get(languages.FALLBACK).dates.abbreviations


class _Writer:
    def __init__(
        self,
        reader: _Reader,
        lang: Language,
        style: str,
        present: str,
        markdown_text: bool = False,
    ) -> None:
        self.r = reader
        self.escape: Callable[[str], str] = _line_starts if markdown_text else _escape
        self.lang = lang
        self.labels = labels = lang.labels
        self.style = style if style and style != "YYYY" else labels.date_format
        self.present = present or labels.present
        self.dash = labels.dash
        self.months = lang.dates.abbreviations or _MONTHS

    def escape_block(self, text: str) -> str:
        return _escape_block(text, self.escape)

    # -- dates ------------------------------------------------------------------
    def date(self, value: object, where: str) -> tuple[str, bool]:
        """(the date as the resume writes it, is it "present").  A date no grammar reads
        is kept as written."""
        text = self.r.text(value, where)
        if not text:
            return "", False
        if _PRESENT_RE.match(text):
            return self.present, True
        match = _ISO_RE.match(text)
        if match:
            y, m, d = (int(g) if g else None for g in match.groups())
            return self.format(y or 0, m, d), False
        parsed = parse_date(text)
        if parsed and parsed[1] not in SPAN_FORMATS:  # "Spring 2022" stays as written
            ym = parsed[0]
            return self.format(ym.year, ym.month, None), False
        self.r.notes.append(f"{where}: '{text}' is not an ISO 8601 date; kept as written")
        return self.escape(text), False

    def format(self, year: int, month: int | None, day: int | None) -> str:
        if not month or not 1 <= month <= 12:
            return f"{year}"
        style = self.style
        if style == "Mon YYYY":
            mon = self.months[month - 1]
            return f"{mon} {day}, {year}" if day else f"{mon} {year}"
        if style == "YYYY年M月":
            return f"{year}年{month}月" + (f"{day}日" if day else "")
        if style == "MM/YYYY":
            return f"{month:02d}/{year}" if not day else f"{year}-{month:02d}-{day:02d}"
        if style == "MM.YYYY":
            return f"{month:02d}.{year}" if not day else f"{year}.{month:02d}.{day:02d}"
        sep = {"YYYY-MM": "-", "YYYY/MM": "/"}.get(style, ".")
        return f"{year}{sep}{month:02d}" + (f"{sep}{day:02d}" if day else "")

    def span(self, item: dict[str, Any], where: str) -> str:
        start, _ = self.date(item.get("startDate"), f"{where}.startDate")
        end, is_present = self.date(item.get("endDate"), f"{where}.endDate")
        note = self.r.text(item.get("dateNote"), f"{where}.dateNote")
        if not start and not end:
            return note
        if start and (not end or is_present):
            text = f"{start}{self.dash}{self.present}"
        elif start:
            text = f"{start}{self.dash}{end}"
        else:
            text = end
        return f"{text} {note}".strip()

    # -- the header -------------------------------------------------------------
    def header(self, basics: dict[str, Any], extra: list[str]) -> tuple[list[str], str]:
        """The name heading, and the contact lines (label and place, email, phone, links)."""
        r = self.r
        name = r.text(basics.get("name"), "basics.name")
        label = r.text(basics.get("label"), "basics.label")
        loc = r.obj(basics.get("location"), "basics.location")
        place = ", ".join(
            t
            for k in ("address", "city", "region", "postalCode", "countryCode")
            if (t := r.text(loc.get(k), f"basics.location.{k}"))
        )
        email = r.text(basics.get("email"), "basics.email")
        phone = r.text(basics.get("phone"), "basics.phone")
        url = r.text(basics.get("url"), "basics.url")
        links = []
        for i, p in enumerate(r.items(basics.get("profiles"), "basics.profiles")):
            where = f"basics.profiles[{i}]"
            link = r.text(p.get("url"), f"{where}.url")
            network = r.text(p.get("network"), f"{where}.network")
            user = r.text(p.get("username"), f"{where}.username")
            if link and user and "/" not in _strip_scheme(link):  # "https://twitter.com"
                link = f"{link.rstrip('/')}/{user}"
            if not link and user:
                pattern = PROFILE_URLS.get(network.casefold())
                link = (
                    pattern.format(user) if pattern else f"{network}: {user}" if network else user
                )
            if link:
                links.append(_strip_scheme(link))
        lines = [f"# {self.escape(name) if name else 'Resume'}", ""]
        first = " | ".join(self.escape(t) for t in (label, place) if t)
        labels = self.labels
        contact = []
        if email:
            contact.append(labels.email + labels.colon + email)
        if phone:
            contact.append(labels.phone + labels.colon + phone)
        contact += links
        if url:
            contact.append(_strip_scheme(url))
        body = [x for x in (first, " | ".join(contact)) if x]
        body += [self.escape(x) for x in extra]
        return lines, "\n".join(body)

    # -- sections ---------------------------------------------------------------
    def section(
        self, field: str, items: list[dict[str, Any]], offset: int, meta: dict[str, Any]
    ) -> list[str]:
        for i, item in enumerate(items):
            unknown = set(item) - _READ[field]
            for key in sorted(unknown):
                self.r.notes.append(f"{field}[{offset + i}].{key} is not imported")
        if field in ("work", "volunteer", "education", "projects"):
            out: list[str] = []
            for i, item in enumerate(items):
                out += self.entry(
                    field, item, f"{field}[{offset + i}]", str(meta.get("order") or "")
                )
            return out
        lines = [self.item(field, item, f"{field}[{offset + i}]") for i, item in enumerate(items)]
        layout = meta.get("layout") or "bullets"
        if layout == "table":
            header = self.r.texts(meta.get("header"), "meta.cvagent.sections.header")[:2] or [
                "",
                "",
            ]
            rows = [f"| {' | '.join(self.escape(h) for h in header)} |", "|---|---|"]
            for line in lines:
                left, _, right = _unbold(line).partition(self._colon_split(line))
                rows.append(f"| {left.strip()} | {right.strip()} |")
            return [*rows, ""]
        if layout == "lines":
            return ["\n".join(lines), ""]
        return [*(f"- {line}" for line in lines), ""]

    @staticmethod
    def _colon_split(line: str) -> str:
        plain = _unbold(line)
        return "：" if "：" in plain.split(":")[0] else ":"

    def entry(self, field: str, item: dict[str, Any], where: str, order: str) -> list[str]:
        def t(key: str) -> str:
            return self.r.text(item.get(key), f"{where}.{key}")

        location = t("location")
        labels = self.labels
        heading = ""
        date_line = self.span(item, where)
        if field == "education":
            degree, area, school = t("studyType"), t("area"), t("institution")
            if order == "degree-first" or (not order and labels.degree_first):
                what = f"{degree} in {area}" if degree and area else degree or area
                where_ = ", ".join(x for x in (school, location) if x)
                heading = " — ".join(x for x in (what, where_) if x)
            else:
                what = (
                    labels.degree_in.format(degree=degree, area=area)
                    if degree and area
                    else degree or area
                )
                heading = " — ".join(x for x in (school, what) if x)
                if location:
                    date_line = " | ".join(x for x in (date_line, location) if x)
        elif field == "projects":
            heading = t("name")
            entity = t("entity")
            if entity:
                heading = f"{heading} — {entity}" if heading else entity
            if location:
                date_line = " | ".join(x for x in (date_line, location) if x)
        else:
            org = t("organization" if field == "volunteer" else "name")
            position = t("position")
            role_first = order == "position-first" or (not order and self.lang.sections.role_first)
            if role_first:
                where_ = ", ".join(x for x in (org, location) if x)
                heading = " — ".join(x for x in (position, where_) if x)
            else:
                heading = " — ".join(x for x in (org, position) if x)
                if location:
                    date_line = " | ".join(x for x in (date_line, location) if x)
        url = t("url")
        lines: list[str] = []
        if heading:
            lines.append(f"### {self.escape(heading)}")
        if date_line:
            lines.append(self.escape(date_line) if not heading else date_line)
        if lines:
            lines.append("")
        if url:
            lines += [f"<{web_url(url)}>", ""]
        for key in ("description", "summary"):
            if t(key):
                lines += [self.escape_block(t(key)), ""]
        extra: list[str] = []
        if field == "education":
            if t("score"):
                extra.append(labels.score + labels.colon + t("score"))
            courses = self.r.texts(item.get("courses"), f"{where}.courses")
            if courses:
                extra.append(labels.courses + labels.colon + labels.joiner.join(courses))
        if field == "projects":
            roles = self.r.texts(item.get("roles"), f"{where}.roles")
            if roles:
                extra.append(labels.roles + labels.colon + ", ".join(roles))
            keywords = self.r.texts(item.get("keywords"), f"{where}.keywords")
            if keywords:
                extra.append(labels.keywords + labels.colon + ", ".join(keywords))
        highlights = self.r.texts(item.get("highlights"), f"{where}.highlights")
        bullets = [*extra, *highlights]
        levels = [0] * len(extra) + self.levels(item.get("highlightLevels"), len(highlights))
        lines += [
            f"{'  ' * level}- {self.escape(b)}" for b, level in zip(bullets, levels, strict=True)
        ]
        if bullets:
            lines.append("")
        return lines

    @staticmethod
    def levels(value: object, count: int) -> list[int]:
        """The depths of ``count`` highlights (``highlightLevels``, cvagent's own): a
        bullet nests at most one level under the one before it; anything else is flat."""
        given = value if isinstance(value, list) and len(value) == count else []
        out: list[int] = []
        for level in given:
            depth = level if isinstance(level, int) and not isinstance(level, bool) else 0
            out.append(max(0, min(depth, out[-1] + 1 if out else 0)))
        return out or [0] * count

    def item(self, field: str, item: dict[str, Any], where: str) -> str:
        def t(key: str) -> str:
            return self.r.text(item.get(key), f"{where}.{key}")

        labels = self.labels
        colon, joiner = labels.key_colon, labels.joiner
        if field in ("skills", "interests"):
            name = t("name")
            if t("level"):
                name = f"{name} ({t('level')})" if name else t("level")
            keywords = self.r.texts(item.get("keywords"), f"{where}.keywords")
            if keywords and name:
                return f"**{self.escape(name)}{colon}** " + self.escape(joiner.join(keywords))
            return self.escape(name or joiner.join(keywords))
        if field == "languages":
            language, fluency = t("language"), t("fluency")
            sep = labels.colon
            return self.escape(f"{language}{sep}{fluency}" if fluency else language)
        if field == "references":
            name, ref = t("name"), t("reference")
            sep = labels.colon
            return self.escape(f"{name}{sep}{ref}" if name and ref else name or ref)
        key, date_key, by_key = {
            "awards": ("title", "date", "awarder"),
            "certificates": ("name", "date", "issuer"),
            "publications": ("name", "releaseDate", "publisher"),
        }[field]
        name, by = t(key), t(by_key)
        date, _ = self.date(item.get(date_key), f"{where}.{date_key}")
        text = " — ".join(x for x in (name, by) if x)
        text = self.escape(text)
        if t("url"):
            text = f"[{text}]({web_url(t('url'))})" if text else f"<{web_url(t('url'))}>"
        if date:
            text = labels.dated.format(text=text, date=date)
        if t("summary"):
            text += labels.colon + self.escape(t("summary"))
        return text


def _unbold(text: str) -> str:
    return text.replace("**", "")


def _strip_scheme(url: str) -> str:
    return re.sub(r"^https?://(?:www\.)?", "", url).rstrip("/")
