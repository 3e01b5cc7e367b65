"""HTML → paragraphs with the stdlib parser: h1–h6, p/div, li, a, strong/b, tables, and the
inline styles a Google Docs or Word "save as web page" export uses for bold and size.
What a browser does not show is left out: scripts, styles, templates, comments, and
elements marked ``hidden`` or styled ``display: none`` / ``visibility: hidden``."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from cvagent_cli.formats.reading.structure import Para, Recognition, shift_headings

_BLOCKS = {
    "p",
    "div",
    "li",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "tr",
    "td",
    "th",
    "section",
    "header",
    "article",
    "blockquote",
    "dt",
    "dd",
    "title",
    "ul",
    "ol",
    "table",
    "body",
}
_SKIP = {"script", "style", "head", "noscript", "template", "svg"}
# Elements with no end tag: one of them inside a hidden element opens nothing.
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
         "track", "wbr", "param"}  # fmt: skip
# What a browser does not show: ``hidden`` and these styles hide the element and all in it.
_HIDDEN_STYLE_RE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.I)
_BOLD_STYLE_RE = re.compile(r"font-weight\s*:\s*(bold|[6-9]00)", re.I)
_SIZE_RE = re.compile(r"font-size\s*:\s*([\d.]+)\s*(pt|px|em|rem)", re.I)


def _size(style: str) -> float:
    match = _SIZE_RE.search(style)
    if not match:
        return 0.0
    value, unit = float(match.group(1)), match.group(2).lower()
    return {"pt": value, "px": value * 0.75, "em": value * 12, "rem": value * 12}[unit]


def _names(text: str, href: str) -> bool:
    """The link's text is its address: "github.com/x" for https://github.com/x, a phone
    number as written for its ``tel:`` address."""
    if href.startswith("tel:"):
        digits = re.sub(r"\D", "", text)
        return len(digits) >= 7 and re.sub(r"\D", "", href).endswith(digits)
    bare = re.sub(r"^https?://(?:www\.)?", "", href).rstrip("/")
    return href.rstrip("/") in text or (bool(bare) and bare in text)


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.paras: list[Para] = []
        self.recognition = Recognition()
        self.skip = 0
        self.pieces: list[tuple[str, bool, float]] = []
        self.bold: list[bool] = []  # one entry per open inline/block element
        self.stack: list[str] = []
        self.sizes: list[float] = []
        self.lists = 0
        self.heading = 0
        self.link: str | None = None
        self.link_text = ""
        self.table: list[list[str]] | None = None
        self.cell: list[str] | None = None
        self.title_seen = False
        self.hidden: list[str] = []  # the open elements of a hidden one, itself first

    # -- helpers
    def _flush(self) -> None:
        text = "".join(t for t, _, _ in self.pieces)
        if self.table is not None and self.cell is not None:
            self.cell.append(" ".join(text.split()))
            self.pieces = []
            return
        pieces = self.pieces
        visible = [(t, b, s) for t, b, s in self.pieces if t.strip()]
        self.pieces = []
        if not visible:
            return
        all_bold = all(b for _, b, _ in visible)
        size = max(s for _, _, s in visible)
        md = self._markdown(pieces, all_bold)
        lines = [" ".join(ln.split()) for ln in md.split("\n")]
        md = "\n".join(ln for ln in lines if ln)
        if not md:
            return
        role = "text"
        if self.heading:
            role = f"h{self.heading}"
            md = md.replace("**", "")
        elif "li" in self.stack:
            role = "bullet"
        lead = ""
        if not all_bold and visible[0][1]:
            match = re.match(r"\*\*(.+?)\*\*", md)
            lead = match.group(1) if match else ""
        self.paras.append(
            Para(
                text=md,
                role=role,
                bold=all_bold,
                size=size,
                depth=max(self.lists - 1, 0),
                lead=lead,
            )
        )

    @staticmethod
    def _markdown(pieces: list[tuple[str, bool, float]], all_bold: bool) -> str:
        if all_bold:
            return "".join(t for t, _, _ in pieces).strip()
        out = ""
        for text, bold, _ in pieces:
            if bold and text.strip():
                left = text[: len(text) - len(text.lstrip())]
                right = text[len(text.rstrip()) :]
                if out.endswith("**") and not left:
                    out = out[:-2] + text.strip() + "**" + right
                else:
                    out += f"{left}**{text.strip()}**{right}"
            else:
                out += text
        return out.strip()

    def _is_bold(self) -> bool:
        return any(self.bold)

    def _cur_size(self) -> float:
        return next((s for s in reversed(self.sizes) if s), 0.0)

    # -- parser callbacks
    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIP:
            self.skip += 1
            return
        if self.skip:
            return
        attr = {k: v or "" for k, v in attrs}
        style = attr.get("style", "")
        if self.hidden or "hidden" in attr or _HIDDEN_STYLE_RE.search(style):
            if tag not in _VOID:  # a recruiter sees none of it, so neither does the import
                self.hidden.append(tag)
            return
        if tag == "br":
            self.pieces.append(("\n", self._is_bold(), self._cur_size()))
            return
        if tag == "img":
            self.recognition.images += 1
            return
        if tag in ("hr", "meta", "link", "input"):
            return
        if tag in _BLOCKS:
            self._flush()
        if tag in ("ul", "ol"):
            self.lists += 1
        if re.fullmatch(r"h[1-6]", tag):
            self.heading = int(tag[1])
        if tag == "table":
            self.table = []
        elif tag == "tr" and self.table is not None:
            self.table.append([])
        elif tag in ("td", "th") and self.table is not None:
            self.cell = []
        if tag == "a":
            self.link = attr.get("href", "")
            self.link_text = ""
        self.stack.append(tag)
        self.bold.append(tag in ("b", "strong", "th") or bool(_BOLD_STYLE_RE.search(style)))
        self.sizes.append(_size(style))

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP:
            self.skip = max(0, self.skip - 1)
            return
        if self.hidden:
            if tag in self.hidden:  # an end tag closes what it encloses, as in the stack
                while self.hidden.pop() != tag:
                    pass
            return
        if self.skip or tag not in self.stack:
            return
        if tag == "a" and self.link is not None:
            href = self.link
            if href.startswith("mailto:"):
                href = href[len("mailto:") :]
            text = self.link_text.strip()
            if href and text and not _names(text, href) and not href.startswith("#"):
                self.pieces.append((f" ({href})" if text else href, False, self._cur_size()))
            self.link = None
        if tag in _BLOCKS:
            self._flush()
        while self.stack:
            popped = self.stack.pop()
            self.bold.pop()
            self.sizes.pop()
            if popped == tag:
                break
        if tag in ("ul", "ol"):
            self.lists = max(0, self.lists - 1)
        if re.fullmatch(r"h[1-6]", tag):
            self.heading = 0
        if tag in ("td", "th") and self.table is not None and self.cell is not None:
            if self.table:
                self.table[-1].append(" ".join(self.cell).strip())
            self.cell = None
        if tag == "table" and self.table is not None:
            rows = [r for r in self.table if any(c for c in r)]
            self.table = None
            if rows:
                self._table(rows)

    def _table(self, rows: list[list[str]]) -> None:
        if len(rows) >= 2 and all(len(c) <= 200 for r in rows for c in r):
            self.paras.append(Para(text="", role="table", rows=rows))
        else:  # a layout table: its cells as paragraphs
            note = "a layout table (e.g. two columns): read cell by cell, left to right"
            if note not in self.recognition.notes:
                self.recognition.notes.append(note)
            self.paras += [Para(text=c) for r in rows for c in r if c]

    def handle_data(self, data: str) -> None:
        if self.skip or self.hidden:
            return
        if "title" in self.stack:
            return
        text = re.sub(r"[ \t\r\n]+", " ", data)
        if self.link is not None:
            self.link_text += text
        self.pieces.append((text, self._is_bold(), self._cur_size()))

    def close(self) -> None:
        super().close()
        self._flush()


def html_paragraphs(text: str, source: str) -> tuple[list[Para], Recognition]:
    reader = _Reader()
    reader.feed(text)
    reader.close()
    return shift_headings(reader.paras), reader.recognition
