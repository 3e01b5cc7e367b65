"""A PDF's lines joined into paragraphs: wrapped lines into one (re-joining a word
hyphenated at a line end, no space at a CJK wrap or inside a wrapped address), broken
lines kept apart, bold runs kept as ``**bold**``, bullets and their depth."""

from __future__ import annotations

import itertools
import re
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, replace

from cvagent_cli.document.kinds import is_standalone_title
from cvagent_cli.formats.reading.pdf_glyphs import SOFT_HYPHEN
from cvagent_cli.formats.reading.pdf_header import SPLIT_CONTACT_RE, continues
from cvagent_cli.formats.reading.pdf_layout import Line, cjk
from cvagent_cli.formats.reading.pdf_lines import PageLine
from cvagent_cli.formats.reading.structure import Para, is_date_text, plain
from cvagent_cli.script import CJK_SYMBOLS, FULLWIDTH_PUNCT

_CJK_PUNCT_RE = re.compile(f"[{CJK_SYMBOLS}{FULLWIDTH_PUNCT}]")


@dataclass(frozen=True)
class _Words:
    """The document's own words, as evidence for re-joining words split at a line end."""

    plain: frozenset[str]
    compounds: frozenset[str]
    hyphenating: bool  # the producer hyphenates words (TeX, a justified paragraph)

    @classmethod
    def of(cls, lines: Sequence[Line], hyphenating: bool) -> _Words:
        texts = {w.text.lower().strip(".,;:()") for ln in lines for w in ln.words}
        compounds = {t for t in texts if re.search(r"[^\W\d_]-[^\W\d_]", t)}
        return cls(frozenset(texts), frozenset(compounds), hyphenating)


def _joiner(prev: str, nxt: str, words: _Words) -> tuple[str, str]:
    """(prev with its end fixed, the separator) for a wrapped line: no space at a CJK
    wrap or inside a wrapped e-mail address or URL; a soft hyphen re-joins a word, and so does a hyphen where the document shows it
    splits words ("manage-" "ment": a TeX or justified paragraph, or "management" elsewhere),
    unless the hyphenated form is printed elsewhere ("full-stack")."""
    if prev.endswith(SOFT_HYPHEN):
        return prev[:-1], ""
    if (
        (cjk(prev[-1:]) and cjk(nxt[:1]))
        or _CJK_PUNCT_RE.match(prev[-1:] + " ")
        or (_CJK_PUNCT_RE.match(nxt[:1] + " "))
    ):
        return prev, ""
    match = re.search(r"([^\W\d_]+)-$", prev)
    if match and nxt[:1].islower():
        tail = re.split(r"[^\w]", nxt, maxsplit=1)[0]
        head = match.group(1)
        if (head + tail).lower() in words.plain or (
            words.hyphenating and f"{head}-{tail}".lower() not in words.compounds
        ):
            return prev[:-1], ""
    if prev.endswith(("/", "-")) and not prev.endswith(" -"):
        return prev, ""
    token = prev.split()[-1] if prev.split() else ""
    local, at, domain = token.rpartition("@")
    cut = "." not in domain or re.search(r"\.[A-Za-z]?$", domain)
    if at and local and cut and nxt[:1].isalnum():
        # "priyanka.fennimore@exa" "mple.net", "mingxuan62@example.c" "om": an address cut
        # before its domain is whole
        return prev, ""
    return prev, " "


def _runs(tokens: list[tuple[str, bool, str]]) -> tuple[str, str]:
    """Inline Markdown for (separator, bold, text) tokens, and the bold lead-in when the
    text starts bold and goes on in regular weight."""
    parts: list[tuple[bool, str]] = []
    for sep, bold, text in tokens:
        if parts and parts[-1][0] == bold:
            parts[-1] = (parts[-1][0], parts[-1][1] + sep + text)
        else:
            if parts and sep:
                parts[-1] = (parts[-1][0], parts[-1][1] + sep)
            parts.append((bold, text))
    if len(parts) == 1 or not any(b for b, _ in parts):
        return "".join(t for _, t in parts), ""
    out = ""
    for bold, chunk in parts:
        core = chunk.strip()
        pad = chunk[len(chunk.rstrip()) :]
        out += (f"**{core}**" if bold and core else core) + pad
    lead = parts[0][1].strip() if parts[0][0] else ""
    return out, lead


def _paragraph(group: list[PageLine], known: _Words) -> Para | None:
    """One paragraph from its lines: wrapped lines joined, broken lines kept apart."""
    right = max(ln.x1 for ln in group)
    ends = [ln.x1 for ln in group[:-1]]
    justified = len(ends) >= 2 and max(ends) - min(ends) < 1.0
    evidence = replace(known, hyphenating=known.hyphenating or justified)
    tokens: list[tuple[str, bool, str]] = []
    for i, line in enumerate(group):
        if i:
            prev = group[i - 1]
            first = line.words[0]
            # wrapped, not broken: the next line's first word would not have fit in the
            # column (or the paragraph is justified: its lines all end at one place)
            fits = prev.x1 + (first.x1 - first.x0) + 0.3 * line.size <= (prev.edge or right)
            wrapped = not fits or (justified and prev.x1 >= right - 1.0)
            head, sep = tokens[-1][2], "\n"
            if line.role == "header":  # grouped only when it continues the line above
                head, sep = _joiner(head, first.text, evidence)
                sep = "" if SPLIT_CONTACT_RE.search(head) else sep
            elif wrapped:
                head, sep = _joiner(head, first.text, evidence)
            tokens[-1] = (tokens[-1][0], tokens[-1][1], head)
        else:
            sep = ""
        for j, word in enumerate(line.words):
            tokens.append((sep if j == 0 else " ", word.bold, word.text))
    tokens = [(s, b, t.replace(SOFT_HYPHEN, "")) for s, b, t in tokens]
    tokens = [tok for tok in tokens if tok[2]]
    if not tokens:
        return None
    words = [w for ln in group for w in ln.words if w.text != "|"]
    all_bold = all(w.bold for w in words)
    if all_bold or not any(w.bold for w in words):
        text, lead = "".join(s + t for s, _, t in tokens), ""
    else:
        text, lead = _runs(tokens)
        text = text.replace("\n", " ")
    return Para(
        text=text,
        role="bullet" if group[0].bullet else "text",
        bold=all_bold,
        size=statistics.median(w.size for w in words) if words else 0.0,
        caps=bool(words) and all(w.caps for w in words),
        lead=lead,
        page=group[0].page,
    )


def _icon_heading(line: PageLine, body: float) -> bool:
    """A line that starts with a mark (an icon font's glyph, an unknown glyph) and is a
    section title set apart like one ("  EXPERIENCE" in 13 pt over a 10.5 pt body): the
    mark is the title's icon, as builders put one before every section name."""
    text = line.text().strip()
    capitals = text.isupper() and any(c.isalpha() for c in text)
    return is_standalone_title(text.rstrip(":：")) and (
        line.size > body + 0.5 or (line.bold and capitals)
    )


def _title_line(line: PageLine) -> bool:
    """A line that is a section name and nothing else ("Education", "工作经历"): groff's
    ``.SH`` and many builders set it in the body's size and weight, so nothing but its
    words tells it from the bold entry line under it ("Front Range University")."""
    return is_standalone_title(line.text().strip().rstrip(":：").strip())


def _dated(groups: list[tuple[list[PageLine], float]], group: list[PageLine]) -> bool:
    """The group is one line and a date split off its row (or the next row) follows it."""
    if len(group) > 1 or group[0].bullet:
        return False
    index = next(i for i, (g, _) in enumerate(groups) if g is group)
    for following, _ in groups[index + 1 : index + 3]:
        line = following[0]
        if line.bullet:
            return False
        if line.fixed and is_date_text(line.text()):
            return True
    return False


def join_paragraphs(lines: list[PageLine], hyphenating: bool) -> list[Para]:
    if not lines:
        return []
    gaps = [
        b.top - a.bottom
        for a, b in itertools.pairwise(lines)
        if a.page == b.page and abs(a.size - b.size) < 0.5 and 0 <= b.top - a.bottom < 2 * a.size
    ]
    # The gap between the lines of one paragraph: the small gaps (a quartile, so a page of
    # one-line paragraphs does not make the paragraph gap look usual).
    size = statistics.median(ln.size for ln in lines)
    for line in lines:
        if line.bullet and _icon_heading(line, size):
            line.bullet = False  # an icon before a section title, not a list item
    usual = min(sorted(gaps)[len(gaps) // 4], 0.5 * size) if gaps else 0.3 * size
    groups: list[tuple[list[PageLine], float]] = []  # (lines, text x)
    for line in lines:
        last = groups[-1][0][-1] if groups else None
        if (
            last is not None
            and line.role == last.role
            and line.page == last.page
            and (
                line.role == "title"
                or (
                    line.role == "header"
                    and abs(line.size - last.size) < 0.5
                    and continues(last.text(), line.text())
                )
            )
        ):
            groups[-1][0].append(line)
            continue
        if groups and not (line.bullet or line.fixed or line.role):
            prev_lines, prev_x = groups[-1]
            prev = prev_lines[-1]
            if (
                not prev.fixed
                and not prev.role
                and prev.page == line.page
                and line.top - prev.bottom <= usual + 0.3 * line.size
                and abs(line.x0 - prev_x) < 0.8 * line.size
                and abs(line.size - prev.size) < 0.5
                and line.bold == prev.bold
                and not (line.bold and (_title_line(line) or _title_line(prev_lines[0])))
            ):
                prev_lines.append(line)
                continue
        groups.append(([line], line.text_x0))
    known = _Words.of(lines, hyphenating)
    paras: list[Para] = []
    glyph_x: float | None = None
    for group, _ in groups:
        para = _paragraph(group, known)
        if para is None:
            continue
        first = group[0]
        if first.role == "title":
            # a name wrapped at a hyphen ("Dun-" / "more"): a word broken, not a double name
            # ("Nakashima-Ford" goes on in a capital)
            text = (
                re.sub(r"(?<=[^\W\d_])-(?=[a-z])", "", para.text) if len(group) > 1 else para.text
            )
            para.role, para.text = "title", plain(text)
        elif first.role == "header":
            para.role = "header"
        elif para.lead and group is not groups[-1][0] and _dated(groups, group):
            # "**Company,** Role | Place" over the date printed on its row: the whole row
            # is the entry's heading, the date the line under it.
            para.role, para.text, para.lead = "h3", plain(para.text), ""
        elif first.role in ("row", "date"):
            para.role = first.role  # text under its entry, never a heading
        if first.bullet:
            glyph_x = first.bullet_x if glyph_x is None else glyph_x
            # a nested item is indented by an em or a few; one much further right starts
            # the next column of a list set in columns
            indent = first.bullet_x - glyph_x
            para.depth = 1 if 0.8 * para.size < indent <= 5 * para.size else 0
        else:
            glyph_x = None
        paras.append(para)
    return paras
