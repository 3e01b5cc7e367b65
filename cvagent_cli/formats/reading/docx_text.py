"""What the text of a Word paragraph says, before its role is decided: a bullet character
at its start (a typed "•", a Symbol or Wingdings character, U+F0B7), its bold runs as
Markdown, table cells that are label and value ("姓名 | 林晓蕾"), and whether a line of the
page header or footer adds anything to the body.
"""

from __future__ import annotations

import itertools
import re

from cvagent_cli import languages
from cvagent_cli.document.kinds import classify_title, is_standalone_title
from cvagent_cli.document.title_words import TITLE_WORDS
from cvagent_cli.formats.reading.docx_styles import SYMBOL_FONTS
from cvagent_cli.formats.reading.structure import BULLET_GLYPHS, plain
from cvagent_cli.script import HAN, HAN_RE

Piece = tuple[str, bool, float, str, bool]  # text, bold, size, font, caps

TYPED_GLYPHS = set(BULLET_GLYPHS)  # "-", "*" and "+" too, when a space or tab follows
#: A number typed before a tab ("1.<TAB>Cut costs …"): a list item Word did not number.
TYPED_NUMBER_RE = re.compile(r"^\s*(?:\d{1,2}[.)、]|\(\d{1,2}\)|[a-z][.)])\t")
PRIVATE_USE_RE = re.compile(r"[\uf000-\uf0ff]")
CONTACT_RE = re.compile(
    r"@|\+?\d[\d\s().-]{6,}\d|https?://|www\.|linkedin|github|电话|手机|邮箱", re.IGNORECASE
)
#: Label cells of a 基本信息 / personal-details grid ("姓名 | 林晓蕾 | 性别 | 女"), and the
#: box left for the photo ("照片").
LABELS = frozenset(languages.words_of(lambda x: x.contact.form_labels))
#: The label of a person's name in such a grid or a "Name:" line, lower case
NAME_LABELS = frozenset(languages.words_of(lambda x: x.contact.name_labels))
_NAME_FIELD_RE = re.compile(
    # the value ends at the next cell, a wide gap or the next "label:" of the line
    r"(?:^|[|｜]\s*)(?:full\s*name|name|姓\s*名)\s*[:：]\s*([^|｜\n]{1,40}?)\s*"
    r"(?=[|｜\n\u3000]|\s{2,}|\s\S{1,15}[:：]|$)",
    re.IGNORECASE,
)
WORD_RE = re.compile(f"[{HAN}]+|" r"[^\W_]+(?:[.@+'’-][^\W_]+)*")


#: What a resume written without spaces calls itself ("个人简历"), longest first: cut out of
#: a line as it is, since no space sets it apart (a spaced one is a word of ``TITLE_WORDS``).
_UNSPACED_TITLES = sorted(
    languages.words_of(lambda x: () if x.spaced else x.resume_titles), key=lambda w: (-len(w), w)
)


def says_nothing_new(line: str, body: str) -> bool:
    """Every word of a header line is already in the body (lower-cased), apart from
    "Resume" and the like: a running head repeating the name."""
    line = line.lower()
    for generic in _UNSPACED_TITLES:
        line = line.replace(generic, " ")
    words = [w for w in WORD_RE.findall(line) if w not in TITLE_WORDS]
    return all(w in body for w in words)


def leading_glyph(pieces: list[Piece]) -> tuple[bool, list[Piece]]:
    """(True, pieces without it) when the line starts with a bullet character: a typed
    "•", a Symbol/Wingdings character (``w:sym``, or "Ø" typed in Wingdings), or a
    private-use glyph such as U+F0B7, followed by a space or a tab."""
    index = next((i for i, pc in enumerate(pieces) if pc[0].strip()), None)
    if index is None:
        return False, pieces
    text, bold, size, font, caps = pieces[index]
    stripped = text.lstrip()
    first = stripped[0]
    symbolic = font.startswith(SYMBOL_FONTS) or bool(PRIVATE_USE_RE.match(first))
    if not (symbolic or first in TYPED_GLYPHS):
        return False, pieces
    rest = stripped[1:]
    after = rest or "".join(pc[0] for pc in pieces[index + 1 :])
    if first in TYPED_GLYPHS and not symbolic and not after[:1].isspace():
        return False, pieces  # "·NET", "–40%": not a bullet without a space after it
    if not "".join(pc[0] for pc in pieces[index + 1 :]).strip() and not rest.strip():
        return False, pieces
    return True, [*pieces[:index], (rest.lstrip(), bold, size, font, caps), *pieces[index + 1 :]]


def inline(pieces: list[tuple[str, bool, float]]) -> tuple[str, bool, str]:
    """(inline Markdown, all bold, bold lead-in)."""
    visible = [(t, b) for t, b, _ in pieces if t.strip()]
    if not visible:
        return "", False, ""
    if all(b for _, b in visible):
        return "".join(t for t, _, _ in pieces).strip(), True, ""
    text = ""
    for chunk, bold, _ in pieces:
        if bold and chunk.strip():
            core = chunk.strip()
            left = chunk[: len(chunk) - len(chunk.lstrip())]
            right = chunk[len(chunk.rstrip()) :]
            if text.endswith("**") and not left:
                text = text[:-2] + core + "**" + right  # two bold runs in a row
            else:
                text += f"{left}**{core}**{right}"
        else:
            text += chunk
    lead = ""
    _first_text, first_bold = visible[0]
    if first_bold:
        match = re.match(r"\*\*(.+?)\*\*", text.strip())
        lead = match.group(1) if match else ""
    return text.strip(), False, lead


def section_like(text: str, bold: bool) -> bool:
    """A numbered paragraph that is a title ("1. Education" in bold), not a list item."""
    return bold and len(plain(text)) <= 40 and classify_title(plain(text)) != "other"


def section_name(text: str) -> bool:
    return is_standalone_title(plain(text).rstrip(":："))


def all_bold(text: str) -> bool:
    text = text.strip()
    return text.startswith("**") and text.endswith("**") and text.count("**") == 2


def pairs(cells: list[tuple[str, bool]], *, known: bool) -> bool:
    """Whether ``cells`` are label, value, label, value …: labels a personal-details grid
    uses (姓名, 电话, Email) or that end in a colon; or, when not ``known``, short bold
    cells each followed by a plain one ("**Languages** | Python, SQL")."""
    if len(cells) < 2 or len(cells) % 2:
        return False
    for (label, bold), (_, value_bold) in zip(cells[::2], cells[1::2], strict=True):
        key = plain(label).rstrip(":：").strip()
        named = key.lower() in LABELS or (plain(label).endswith(("：", ":")) and 0 < len(key) <= 12)
        if not (named if known else bold and not value_bold and len(key) <= 25):
            return False
    return True


def joined_pairs(texts: list[str]) -> str:
    def pair(label: str, value: str) -> str:
        key = plain(label).rstrip(":：").strip()
        colon = "：" if HAN_RE.search(key) else ": "
        return f"{key}{colon}{value}"

    return " | ".join(pair(k, v) for k, v in zip(texts[::2], texts[1::2], strict=True))


def name_field(rows: list[list[str]], lines: list[str]) -> str:
    """The value of a Name / 姓名 field: in a details table ("Name | Ravi Eberhardt") or a
    line ("姓名：林晓蕾 | 性别：女"); "" when there is none."""
    for row in rows:
        for label, value in itertools.pairwise(row):
            key = " ".join(plain(label).rstrip(":：").split()).casefold()
            if key in NAME_LABELS and value.strip():
                return value.strip()
    for line in lines:
        match = _NAME_FIELD_RE.search(plain(line))
        if match:
            return match.group(1).strip()
    return ""
