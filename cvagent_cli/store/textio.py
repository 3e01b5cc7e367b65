"""Reading resume files without losing a byte.

Decoding remembers the encoding, the byte-order mark and the newline style, so that an
unedited document encodes back to exactly the bytes it came from, and an edited one keeps
the user's conventions.  Writing them back, atomically, is ``store/atomic.py``'s.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from cvagent_cli.errors import InputError
from cvagent_cli.script import (
    CJK_SYMBOLS,
    FULLWIDTH,
    GENERAL_PUNCT,
    HAN_SUPPLEMENTARY,
    IDEOGRAPHS,
    KANA,
)
from cvagent_cli.wording import plural

_log = logging.getLogger(__name__)

MAX_BYTES = 10 * 1024 * 1024  # a resume is a few KB; 10 MB is certainly not a resume


class UnencodableTextError(InputError):
    """An edit added characters the file's legacy encoding (Windows-1252, Latin-1) lacks."""


CONVERT_HINT = (
    "cvagent reads Markdown or text; a PDF, Word (.docx) or HTML resume imports with "
    "`cvagent import FILE`"
)

_BOMS: list[tuple[bytes, str]] = [
    (b"\xef\xbb\xbf", "utf-8"),
    (b"\xff\xfe\x00\x00", "utf-32-le"),
    (b"\x00\x00\xfe\xff", "utf-32-be"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
]

# Magic numbers of the files people pass by mistake instead of their Markdown resume.
_MAGIC: list[tuple[bytes, str]] = [
    (b"%PDF", "a PDF file"),
    (b"PK\x03\x04", "a ZIP archive (a DOCX, ODT or Pages file is one)"),
    (b"\xd0\xcf\x11\xe0", "a legacy Word/Office document"),
    (b"{\\rtf", "an RTF document"),
    (b"\x89PNG", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF8", "a GIF image"),
]

NEWLINE_RE = re.compile(r"\r\n|\r|\n")
CONTROL_RE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
# What GB18030 text decodes to: ideographs, CJK and full-width punctuation, dashes and quotes.
_CJK_RE = re.compile(f"[{GENERAL_PUNCT}{CJK_SYMBOLS}{IDEOGRAPHS}{FULLWIDTH}{HAN_SUPPLEMENTARY}]")


@dataclass(frozen=True)
class TextFormat:
    """How a text was stored: enough to write it back the same way."""

    encoding: str = "utf-8"
    bom: bytes = b""
    newline: str = "\n"

    def encode(self, text: str) -> bytes:
        try:
            return self.bom + text.encode(self.encoding)
        except UnicodeEncodeError:
            missing = "".join(self.unencodable(text)[:5])
            raise UnencodableTextError(
                f"the text cannot be saved in the file's {self.encoding} encoding: "
                f"{missing!r} has no {self.encoding} form",
                hint="use characters the file's encoding has, or save the file as UTF-8",
            ) from None

    def unencodable(self, text: str) -> list[str]:
        """Distinct characters of ``text`` this format cannot store (Windows-1252 has no 中)."""
        seen: list[str] = []
        for char in text:
            if char not in seen:
                try:
                    char.encode(self.encoding)
                except UnicodeEncodeError:
                    seen.append(char)
        return seen


@dataclass(frozen=True)
class DecodedText:
    text: str
    format: TextFormat
    control_chars: int = 0


def detect_newline(text: str) -> str:
    crlf = text.count("\r\n")
    lf = text.count("\n") - crlf
    cr = text.count("\r") - crlf
    if crlf > lf and crlf >= cr:
        return "\r\n"
    if cr > lf and cr > crlf:
        return "\r"
    return "\n"


def split_lines(text: str) -> list[str]:
    """Split keeping line ends; only CR, LF and CRLF end a line (as in markdown-it)."""
    if not text:
        return []
    if "\r" not in text:  # the usual case: str.split is ~10× faster than the regex
        parts = [line + "\n" for line in text.split("\n")]
        last = parts.pop()
        if last != "\n":
            parts.append(last[:-1])
        return parts
    parts = []
    start = 0
    for match in NEWLINE_RE.finditer(text):
        parts.append(text[start : match.end()])
        start = match.end()
    if start < len(text):
        parts.append(text[start:])
    return parts


def convert_hint(what: str, source: str = "FILE") -> str:
    """How to get Markdown out of this kind of file (``cvagent import`` reads PDF, DOCX and
    HTML; no OCR for images; legacy Office formats must be saved as .docx first)."""
    target = "-" if source.startswith("<") else source  # <stdin>
    if "image" in what:
        return "cvagent reads text, not images (there is no OCR): copy the resume's text into a .md file"
    if "legacy Word" in what or "RTF" in what:
        return "save it as .docx in Word or LibreOffice, then `cvagent import` it"
    if "ZIP" in what:
        return f"a .docx imports with `cvagent import {target}`; save an .odt or .pages file as .docx first"
    return f"import it: `cvagent import {target}` writes the Markdown (chat on a PDF or DOCX imports it too)"


def _describe_binary(data: bytes) -> str | None:
    for magic, what in _MAGIC:
        if data.startswith(magic):
            return what
    return None


def _looks_like_gb(text: str) -> bool:
    non_ascii = [c for c in text if ord(c) > 127]
    if not non_ascii:
        return True
    cjk = sum(1 for c in non_ascii if _CJK_RE.match(c))
    if cjk / len(non_ascii) < 0.9:
        return False
    # Windows-1252 English read as GB18030 also yields only CJK characters ("I\x92m" is
    # one), but each stands alone inside a Latin word, where real Chinese comes in runs;
    # and they are rare ones, where real Chinese is mostly the 6,763 common GB2312 ones.
    return _isolated_cjk_share(text) < 0.5 and _gb2312_share(text) >= 0.6


def _gb2312_share(text: str) -> float:
    """Share of two-byte characters that are in GB2312 (both bytes 0xA1-0xFE)."""
    total = common = 0
    for char in text:
        if ord(char) < 128:
            continue
        encoded = char.encode("gb18030")
        if len(encoded) != 2:
            continue  # four-byte characters (rare names, 𠀋) say nothing either way
        total += 1
        common += encoded[0] >= 0xA1 and encoded[1] >= 0xA1
    return common / total if total else 1.0


def _isolated_cjk_share(text: str) -> float:
    """Share of CJK characters with an ASCII letter on one side and no CJK on either."""
    total = isolated = 0
    for i, char in enumerate(text):
        if not _CJK_RE.match(char):
            continue
        total += 1
        left = text[i - 1] if i else ""
        right = text[i + 1] if i + 1 < len(text) else ""
        if any(_CJK_RE.match(c) for c in (left, right) if c):
            continue
        if any(c.isascii() and c.isalpha() for c in (left, right)):
            isolated += 1
    return isolated / total if total else 0.0


# What a Western (Windows-1252 / Latin-1) resume holds beyond ASCII: accented Latin
# letters and typographic punctuation.  C1 control characters (U+0080-U+009F) never.
_WESTERN_PUNCT = set(
    "\u00a0\u2018\u2019\u201a\u201c\u201d\u201e\u2013\u2014\u2022\u2026\u20ac"
    "\u2122\u00a9\u00ae\u00b0\u00b7\u00a7\u00b6\u00ab\u00bb\u00d7\u00bd"
    "\u00bc\u00be\u00b2\u00b3\u00b9\u00a3\u00a5\u00a2\u2020\u2021\u2030"
    "\u2039\u203a\u00b4\u00a8\u00af\u00b8\u02c6\u02dc\u00ac\u00b1\u00b5\u00bf\u00a1"
)
# A valid UTF-8 multi-byte sequence; in real Windows-1252 text these are rare ("Ã©").
_UTF8_SEQ = re.compile(
    rb"[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}"
)
_HIGH_RUN = re.compile(rb"[\x80-\xff]+")


def _looks_western(text: str, data: bytes) -> bool:
    non_ascii = [c for c in text if ord(c) > 127]
    if not non_ascii:
        return True
    plausible = sum(
        1
        for c in non_ascii
        if c in _WESTERN_PUNCT or (c.isalpha() and ord(c) < 0x250)  # Latin letters
    )
    if plausible / len(non_ascii) < 0.9:
        return False
    # UTF-8 with a few broken bytes would read as mojibake ("CafÃ©"): refuse, do not guess.
    runs = _HIGH_RUN.findall(data)
    utf8_like = sum(1 for run in runs if _UTF8_SEQ.fullmatch(run))
    return utf8_like * 2 <= len(runs)


#: tried in order when there is no byte-order mark; the first plausible reading wins.
#: Windows-1252 comes before Latin-1: it decodes the same letters and also the curly quotes
#: and dashes Word writes in 0x80-0x9F, where Latin-1 only has control characters.
FALLBACK_ENCODINGS = ("utf-8", "gb18030", "cp1252", "latin-1")


def _plausible(encoding: str, text: str, data: bytes) -> bool:
    if encoding == "utf-8":
        return True  # valid UTF-8 is almost never an accident
    if encoding == "gb18030":
        return _looks_like_gb(text)
    return _looks_western(text, data)


def decode_bytes(data: bytes, source: str = "<input>") -> DecodedText:
    """Decode resume bytes, or raise ``InputError`` saying what the input really is."""
    what = _describe_binary(data)
    if what:
        raise InputError(
            f"{source} is {what}, not a Markdown or text resume", hint=convert_hint(what, source)
        )
    if len(data) > MAX_BYTES:
        raise InputError(
            f"{source} is {len(data) / 1_048_576:.1f} MB; a resume should be a few KB "
            f"(limit {MAX_BYTES // 1_048_576} MB)"
        )
    text: str | None = None
    fmt: TextFormat | None = None
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                text = data[len(bom) :].decode(encoding)
            except UnicodeDecodeError:
                raise InputError(
                    f"{source} starts with a {encoding} byte-order mark but is not valid {encoding}"
                ) from None
            fmt = TextFormat(encoding=encoding, bom=bom)
            break
    if text is None and b"\x00" in data:
        text, fmt = _bomless_utf16(data)
        if text is None:
            raise InputError(f"{source} looks like a binary file, not text", hint=CONVERT_HINT)
    if text is None:
        for encoding in FALLBACK_ENCODINGS:
            try:
                candidate = data.decode(encoding)
            except UnicodeDecodeError:
                continue
            if _plausible(encoding, candidate, data):
                text, fmt = candidate, TextFormat(encoding=encoding)
                break
    if text is None or fmt is None:
        raise _undecodable(data, source)
    controls = len(CONTROL_RE.findall(text))
    if controls and controls > max(8, len(text) // 100):
        raise InputError(f"{source} looks like a binary file, not text", hint=CONVERT_HINT)
    fmt = TextFormat(encoding=fmt.encoding, bom=fmt.bom, newline=detect_newline(text))
    return DecodedText(text=text, format=fmt, control_chars=controls)


def _bomless_utf16(data: bytes) -> tuple[str | None, TextFormat | None]:
    """UTF-16 saved without a byte-order mark (Windows' "Unicode" without one): the zero
    high bytes of its ASCII characters sit at every other position, and never at the
    other ones, where a binary file has them anywhere."""
    pairs = len(data) // 2
    if len(data) % 2 or pairs < 8:
        return None, None
    even, odd = data[0::2].count(0), data[1::2].count(0)
    for encoding, high, low in (("utf-16-le", odd, even), ("utf-16-be", even, odd)):
        if high >= pairs // 10 and low * 10 <= high:  # 一 (U+4E00) has a zero low byte
            try:
                return data.decode(encoding), TextFormat(encoding=encoding)
            except UnicodeDecodeError:
                return None, None
    return None, None


#: Encodings cvagent does not read but can name, so the hint says how to convert the file:
#: (codec, what it is, the characters 90% of its non-ASCII text must be).
_NAMED_ENCODINGS = (
    (
        "shift_jis",
        "Shift-JIS (Japanese)",
        re.compile(f"[{KANA}{IDEOGRAPHS}{CJK_SYMBOLS}{FULLWIDTH}]"),
    ),
    ("big5", "Big5 (Traditional Chinese)", re.compile(f"[{IDEOGRAPHS}{CJK_SYMBOLS}{FULLWIDTH}]")),
)


def _undecodable(data: bytes, source: str) -> InputError:
    """The error for bytes no encoding cvagent reads fits: the encoding it looks like, when
    it is a known one, else where the first byte that is not UTF-8 is."""
    name = Path(source).name if not source.startswith("<") else "resume.md"
    for codec, what, script in _NAMED_ENCODINGS:
        try:
            text = data.decode(codec)
        except UnicodeDecodeError:
            continue
        wide = [c for c in text if ord(c) > 127]
        if wide and sum(1 for c in wide if script.match(c)) >= 0.9 * len(wide):
            return InputError(
                f"{source} looks like {what} text; cvagent reads UTF-8, UTF-16, GB18030/GBK "
                "and Windows-1252",
                hint=f"save it as UTF-8, e.g. `iconv -f {codec.upper().replace('_', '-')} "
                f"-t UTF-8 {name} > utf8-{name}`",
            )
    try:
        data.decode("utf-8")
        where = ""
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = len(
            data[data.rfind(b"\n", 0, exc.start) + 1 : exc.start].decode("utf-8", "replace")
        )
        bad = data.decode("utf-8", "replace").count("\ufffd") - data.count("\ufffd".encode())
        where = (
            f" ({plural(bad, 'byte')} not UTF-8, the first at line {line}, column {column + 1}, "
            f"byte {exc.start})"
        )
    return InputError(
        f"{source} is not UTF-8, UTF-16, GB18030/GBK or Windows-1252/Latin-1 text{where}",
        hint="save it as UTF-8 in your editor (a PDF, Word or HTML resume imports with "
        "`cvagent import FILE`)",
    )


def check_not_blank(decoded: DecodedText, source: str, what: str = "resume") -> DecodedText:
    """Refuse an empty or whitespace-only text; ``what`` it should have been (a resume, a
    job description) is named in the error."""
    if not decoded.text.strip():
        state = "empty" if not decoded.text else "blank (whitespace only)"
        raise InputError(f"{source} is {state}; there is no {what} to read")
    return decoded


def missing_file(path: Path) -> InputError:
    """Why ``path``, which does not exist as far as ``Path.exists`` can tell, cannot be
    opened: no such file, a symbolic link that loops, or one to a file that is gone."""
    try:
        os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return InputError(
                f"{path}: a symbolic link that loops (it leads back to itself)",
                hint="point the link at the real file (ls -l shows where it leads)",
            )
    if path.is_symlink():
        with contextlib.suppress(OSError):
            return InputError(
                f"{path}: a symbolic link to {os.readlink(path)}, which does not exist",
                hint="point the link at the real file, or name the file itself",
            )
    return InputError(f"{path}: no such file")


def read_text_file(path: Path, *, allow_blank: bool = False, what: str = "resume") -> DecodedText:
    """Read and decode a resume or JD file (``what`` it is, for the errors) with one clear
    error per failure."""
    path = Path(path)
    shown = str(path)
    if not path.exists():
        raise missing_file(path)
    if path.is_dir():
        raise InputError(f"{shown} is a folder, not a file")
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise InputError(
                f"{shown} is {size / 1_048_576:.1f} MB; a resume should be a few KB "
                f"(limit {MAX_BYTES // 1_048_576} MB)"
            )
        data = path.read_bytes()
    except PermissionError:
        raise InputError(f"{shown}: permission denied") from None
    except OSError as exc:
        raise InputError(f"{shown}: cannot read ({exc.strerror or exc})") from None
    decoded = decode_bytes(data, shown)
    return decoded if allow_blank else check_not_blank(decoded, shown, what)


def read_stdin(*, allow_blank: bool = False) -> DecodedText:
    data = sys.stdin.buffer.read(MAX_BYTES + 1)
    decoded = decode_bytes(data, "standard input")
    return decoded if allow_blank else check_not_blank(decoded, "standard input")
