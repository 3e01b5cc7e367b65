"""The Markdown source a PDF or DOCX carries inside (``writing/embedded_source.py`` puts it
there), read back so that importing cvagent's own export gives the resume back exactly.

The file may come from anyone, so the source is untrusted input: it is used only when it
passes the checks a Markdown file read from disk passes (size, encoding, no binary data)
plus the characters no resume may hold (``charset.forbidden_in_resume``: hidden text could
carry what the page does not show), and only when its words are the words on the page.  A
file edited after export (in Word, in a PDF editor) keeps the old source beside the new
text: then the page wins, and the report says why.

The words are compared as a multiset of tokens (NFKC, case-folded; a run of letters and
digits, or one CJK character), so reading order, line breaks and the separators the writers
draw do not matter, but an added, removed or changed word does.
"""

from __future__ import annotations

import io
import re
import unicodedata
import zipfile
import zlib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from cvagent_cli.charset import describe, forbidden_in_resume
from cvagent_cli.errors import InputError
from cvagent_cli.formats.writing.embedded_source import DOCX_NAMESPACE, MIME_TYPE
from cvagent_cli.formats.writing.layout import (
    Bullets,
    HeaderLine,
    Heading,
    Line,
    Name,
    Paragraph,
    Subheading,
    Table,
    read_layout,
)
from cvagent_cli.script import TERMINAL_WIDE
from cvagent_cli.store.textio import MAX_BYTES, decode_bytes

USED = "the Markdown source cvagent embedded in this file, returned exactly (--from-layout reads the page instead)"
#: How many name-tree nodes of a PDF are looked at: a real tree has one or two.
_NODE_BUDGET = 64
_TOKEN_RE = re.compile(rf"[{TERMINAL_WIDE}]|[^\W{TERMINAL_WIDE}]+")
_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_ITEM_RE = re.compile(r"customXml/item\d+\.xml")


@dataclass(frozen=True)
class Embedded:
    """What a file's embedded source came to: ``markdown`` to return (None: read the
    layout), and the note for the import report (None: the file carries no source), a
    warning when the source was there but could not be trusted."""

    markdown: str | None
    note: str | None
    warning: bool = False


NONE = Embedded(None, None)


def read_embedded(
    data: bytes, fmt: str, source: str, *, from_layout: bool = False, pages: int = 20
) -> Embedded:
    """The embedded Markdown of PDF or DOCX ``data`` when it may be returned as the import,
    else why not (the words of at most ``pages`` pages are compared: a longer file is read
    from its layout)."""
    raw = _find(data, fmt)
    if raw is None:
        return NONE
    if from_layout:
        return Embedded(
            None, "the Markdown source embedded in this file was ignored (--from-layout)"
        )
    try:
        markdown = _check(raw, source)
    except InputError as exc:
        return Embedded(
            None, f"the Markdown source embedded in this file was not used: {exc.message}", True
        )
    page = Counter(tokens(_visible_text(data, fmt, pages)))
    text = Counter(tokens(layout_text(markdown)))
    if page != text:
        return Embedded(None, _disagreement(page, text), True)
    return Embedded(markdown, USED)


def _find(data: bytes, fmt: str) -> bytes | None:
    try:
        return _pdf_source(data) if fmt == "pdf" else _docx_source(data) if fmt == "docx" else None
    except Exception:  # a damaged file: the layout reader says what is wrong with it
        return None


def _check(raw: bytes, source: str) -> str:
    """The embedded bytes as text, held to the rules of a Markdown file read from disk."""
    if len(raw) > MAX_BYTES:
        raise InputError(f"it is over {MAX_BYTES // 1_048_576} MB")
    try:
        text = raw.decode("utf-8")  # cvagent writes UTF-8 and nothing else
    except UnicodeDecodeError:
        raise InputError("it is not UTF-8 text") from None
    decode_bytes(raw, f"{source} (embedded source)")  # binary data, control characters
    bad = forbidden_in_resume(text)
    if bad:
        raise InputError(f"it holds {describe(bad[0])}, which no resume contains")
    if not text.strip():
        raise InputError("it is empty")
    return text


def _disagreement(page: Counter[str], text: Counter[str]) -> str:
    added = sorted((page - text).elements())
    gone = sorted((text - page).elements())
    shown = [f"'{w}' only on the page" for w in added[:3]] + [
        f"'{w}' only in the source" for w in gone[:3]
    ]
    return (
        "the Markdown source embedded in this file does not match its page (edited after "
        f"export?): read from the page instead ({', '.join(shown)})"
    )


# -- words ---------------------------------------------------------------------------------


def tokens(text: str) -> list[str]:
    """The words of ``text`` as the comparison counts them."""
    return _TOKEN_RE.findall(unicodedata.normalize("NFKC", text).casefold())


def layout_text(markdown: str) -> str:
    """The text the PDF and DOCX writers print for ``markdown`` (``layout.read_layout``)."""
    lines: list[Line] = []
    for block in read_layout(markdown).blocks:
        if isinstance(block, Name | Heading):
            lines.append(block.runs)
        elif isinstance(block, HeaderLine):
            lines += block.items
        elif isinstance(block, Subheading):
            lines += [block.title, block.dates]
        elif isinstance(block, Paragraph):
            lines += block.lines
        elif isinstance(block, Bullets):
            lines += [item.runs for item in block.items]
        elif isinstance(block, Table):
            lines += [cell for row in block.rows for cell in row]
    return "\n".join("".join(run.text for run in line) for line in lines)


def _visible_text(data: bytes, fmt: str, pages: int) -> str:
    if fmt == "pdf":
        from pdfminer.high_level import extract_text  # lazy: heavy

        return extract_text(io.BytesIO(data), maxpages=pages)
    with zipfile.ZipFile(io.BytesIO(data)) as package:
        body = _xml(package, "word/document.xml")
    marks = (f"{_W}t", f"{_W}tab", f"{_W}br", f"{_W}cr", f"{_W}noBreakHyphen")
    return "\n".join("".join(_docx_char(t) for t in p.iter(*marks)) for p in body.iter(f"{_W}p"))


def _docx_char(element: Any) -> str:
    """What a run's element prints: its text; a non-breaking hyphen (the writer's, inside
    addresses) a hyphen; a tab or break a space."""
    if element.tag == f"{_W}noBreakHyphen":
        return "-"
    return str(element.text or " ")


# -- PDF -----------------------------------------------------------------------------------


def _pdf_source(data: bytes) -> bytes | None:
    """The first Markdown file embedded in the PDF (by MIME type or a ``.md`` name)."""
    # lazy: pdfminer loads only when a PDF is read
    from pdfminer.pdfdocument import PDFDocument
    from pdfminer.pdfparser import PDFParser
    from pdfminer.pdftypes import PDFStream, resolve1

    document = PDFDocument(PDFParser(io.BytesIO(data)))
    if document.encryption:  # cvagent never encrypts: not its file
        return None
    names = resolve1(document.catalog.get("Names"))
    tree = resolve1(names.get("EmbeddedFiles")) if isinstance(names, dict) else None
    for name, spec in _name_tree(tree):
        spec = resolve1(spec)
        if not isinstance(spec, dict):
            continue
        stream = resolve1((resolve1(spec.get("EF")) or {}).get("F"))
        if not isinstance(stream, PDFStream):
            continue
        subtype = getattr(resolve1(stream.attrs.get("Subtype")), "name", "")
        if subtype == MIME_TYPE or name.lower().endswith(".md"):
            return _inflate(stream)
    return None


def _name_tree(node: Any) -> Iterator[tuple[str, Any]]:
    """(name, value) of a PDF name tree, at most ``_NODE_BUDGET`` nodes deep and wide."""
    # lazy: pdfminer loads only when a PDF is read
    from pdfminer.pdftypes import resolve1

    pending, seen = [node], 0
    while pending and seen < _NODE_BUDGET:
        node = resolve1(pending.pop(0))
        seen += 1
        if not isinstance(node, dict):
            continue
        pairs = resolve1(node.get("Names")) or []
        for i in range(0, len(pairs) - 1, 2):
            key = resolve1(pairs[i])
            yield (key.decode("latin-1") if isinstance(key, bytes) else str(key)), pairs[i + 1]
        pending += list(resolve1(node.get("Kids")) or [])


def _inflate(stream: Any) -> bytes | None:
    """The stream's bytes, inflated to at most ``MAX_BYTES`` + 1 (a small stream can inflate
    to gigabytes); None for filters cvagent does not write."""
    # lazy: pdfminer loads only when a PDF is read
    from pdfminer.pdftypes import resolve1

    filters = [getattr(resolve1(f), "name", f) for f, _ in stream.get_filters()]
    raw = stream.rawdata or b""
    if not filters:
        return bytes(raw[: MAX_BYTES + 1])
    if filters != ["FlateDecode"]:
        return None
    return zlib.decompressobj().decompress(raw, MAX_BYTES + 1)


# -- DOCX ----------------------------------------------------------------------------------


def _xml(package: zipfile.ZipFile, name: str) -> Any:
    from lxml import etree  # lazy: python-docx's parser library

    if package.getinfo(name).file_size > MAX_BYTES:
        raise InputError(f"{name} is too large")
    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False)
    return etree.fromstring(package.read(name), parser)


def _docx_source(data: bytes) -> bytes | None:
    """The text of the custom XML part whose root is cvagent's ``<source>``."""
    with zipfile.ZipFile(io.BytesIO(data)) as package:
        for name in package.namelist():
            if not _ITEM_RE.fullmatch(name):
                continue
            root = _xml(package, name)
            if root.tag == f"{{{DOCX_NAMESPACE}}}source":
                return str(root.text or "").encode("utf-8")
    return None
