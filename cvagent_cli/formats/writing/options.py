"""What the user chooses about an exported file beyond its template: the paper, and
whether the file carries its own Markdown source (so importing it gives the resume back
exactly).  ``cvagent export`` and the chat's ``/export`` build one; every writer takes it.

The paper nobody chose is the resume's own country's (``choose_paper``): Letter where the
resume's phone or address is in the United States or Canada, else A4."""

from __future__ import annotations

import re
from dataclasses import dataclass

from cvagent_cli.document.document import ResumeDocument

#: The paper sizes a PDF or DOCX can be set on.
PAPERS = ("a4", "letter")
#: What typst calls each paper, and its size in points (width, height).
PAPER_SIZES = {"a4": (595.28, 841.89), "letter": (612.0, 792.0)}
#: Where an entry's dates go: right-aligned on the title's row (the default look), or
#: right after the title ("Senior Engineer — Acme · 2019 – 2021"), which every PDF text
#: reader (poppler's default mode too) reads next to the title.
DATES = ("right", "inline")


@dataclass(frozen=True)
class WriteOptions:
    paper: str | None = None  # a4 or letter; None: chosen from the resume (``choose_paper``)
    embed_source: bool = True  # a PDF or DOCX carries the resume's Markdown inside
    dates: str = "right"  # right or inline (``DATES``): where an entry's dates go (PDF, DOCX, HTML)


DEFAULT_OPTIONS = WriteOptions()

# Where Letter is the paper: the states of the US (and DC) and the provinces and
# territories of Canada, as an address ends ("Austin, TX", "Toronto, ON"), and the names.
_LETTER_CODES = frozenset(
    "AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV "
    "NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY "
    "AB BC MB NB NL NS NT NU ON PE QC SK YT".split()
)
_LETTER_CODE_RE = re.compile(r",\s*([A-Z]{2})\b(?!\s*[a-z])")
_LETTER_NAME_RE = re.compile(
    r"\b(?:USA|U\.S\.A?\.|United States|Canada|Toronto|Montr[eé]al|Vancouver)\b"
)
_COUNTRY_CODE_RE = re.compile(r"^\s*\(?\+\s*(\d{1,3})")


def choose_paper(resume: str | ResumeDocument, configured: str | None = None) -> str:
    """The paper of an export: ``configured`` (``--paper``, the ``paper`` setting) when
    given; else Letter for a resume whose phone has the +1 code, or whose address is in
    the US or Canada, or whose unprefixed phone is a US number; else A4."""
    if configured:
        return configured
    doc = resume if isinstance(resume, ResumeDocument) else ResumeDocument.from_text(resume)
    basics = doc.basics
    phone = basics.phone or ""
    prefix = _COUNTRY_CODE_RE.match(phone)
    if prefix:
        return "letter" if prefix.group(1) == "1" else "a4"
    if doc.language != "en":
        return "a4"
    places = basics.location or ""
    if any(code in _LETTER_CODES for code in _LETTER_CODE_RE.findall(places)):
        return "letter"
    if _LETTER_NAME_RE.search(places):
        return "letter"
    return "letter" if phone and _us_number(phone) else "a4"


def _us_number(phone: str) -> bool:
    import phonenumbers  # lazy: ~25 ms, and only for a phone with no country code

    try:
        return bool(phonenumbers.is_valid_number(phonenumbers.parse(phone, "US")))
    except phonenumbers.NumberParseException:
        return False
