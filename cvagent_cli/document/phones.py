"""Phone numbers, found with Google's libphonenumber (the ``phonenumbers`` package).

Hand-written patterns covered Chinese mobiles and North American numbers and missed the
rest ("(+212) 644397973", "(080) 3717-4344", a bare "8866020042"); libphonenumber knows every
country's numbering plan, so a number is kept only when it is valid for its region.  The
region is guessed from the resume: an explicit ``+country`` prefix decides by itself, otherwise
the places the resume names and its language.

Importing ``phonenumbers`` costs ~25 ms, so it happens inside ``find_phones`` and only when
the text holds a run of digits long enough to be a phone.
"""

from __future__ import annotations

import re

from cvagent_cli import languages
from cvagent_cli.document.dates import find_ranges

# Regions guessed from place names (lower-case substrings) and from the resume's language.
_PLACES: tuple[tuple[str, str], ...] = (
    ("china", "CN"), ("中国", "CN"), ("hong kong", "HK"), ("香港", "HK"), ("taiwan", "TW"),
    ("台湾", "TW"), ("singapore", "SG"), ("新加坡", "SG"), ("japan", "JP"), ("tokyo", "JP"),
    ("osaka", "JP"), ("日本", "JP"), ("korea", "KR"), ("seoul", "KR"), ("india", "IN"),
    ("bengaluru", "IN"), ("bangalore", "IN"), ("mumbai", "IN"), ("delhi", "IN"),
    ("hyderabad", "IN"), ("pune", "IN"), ("chennai", "IN"), ("egypt", "EG"), ("cairo", "EG"),
    ("alexandria", "EG"), ("morocco", "MA"), ("rabat", "MA"), ("casablanca", "MA"),
    ("nigeria", "NG"), ("lagos", "NG"), ("ghana", "GH"), ("accra", "GH"), ("kenya", "KE"),
    ("nairobi", "KE"), ("united kingdom", "GB"), (", uk", "GB"), ("london", "GB"),
    ("england", "GB"), ("germany", "DE"), ("berlin", "DE"), ("munich", "DE"),
    ("hamburg", "DE"), ("france", "FR"), ("paris", "FR"), ("lyon", "FR"), ("spain", "ES"),
    ("madrid", "ES"), ("italy", "IT"), ("milan", "IT"), ("rome", "IT"), ("portugal", "PT"),
    ("porto", "PT"), ("lisbon", "PT"), ("poland", "PL"), ("warsaw", "PL"), ("netherlands", "NL"),
    ("amsterdam", "NL"), ("sweden", "SE"), ("stockholm", "SE"), ("canada", "CA"),
    ("toronto", "CA"), ("montréal", "CA"), ("montreal", "CA"), ("vancouver", "CA"),
    ("australia", "AU"), ("sydney", "AU"), ("melbourne", "AU"), ("brazil", "BR"),
    ("são paulo", "BR"), ("mexico", "MX"), ("méxico", "MX"), ("pakistan", "PK"),
    ("karachi", "PK"), ("lahore", "PK"), ("vietnam", "VN"), ("hanoi", "VN"),
    ("indonesia", "ID"), ("jakarta", "ID"), ("philippines", "PH"), ("manila", "PH"),
    ("turkey", "TR"), ("istanbul", "TR"), ("russia", "RU"), ("moscow", "RU"),
    ("ukraine", "UA"), ("kyiv", "UA"),
)  # fmt: skip
# A digit run that could be a phone: 7+ digits with spaces, dots, dashes or brackets between.
_CANDIDATE_RE = re.compile(r"\+?\(?\+?\d[\d\s().-]{5,}\d")
_INTERNATIONAL_RE = re.compile(r"\(?\+\d")
# Masked numbers: digits hidden behind x or * ("189****9173", "1xx-xxxx-xxxx",
# "+1 (xxx) xxx-4412").  Kept apart: present, but not a number anyone can call.
_MASKED_RE = re.compile(
    r"(?<![\w*])\+?\(?[\dxX*]{1,4}\)?(?:[\s.-]?\(?[\dxX*]{2,4}\)?){2,4}(?![\w*])"
)
_PHONE_LABEL_RE = re.compile(
    r"(?i)(?:\b(?:phone|mobile|tel|cell)|电话|手机|联系方式|📞|📱|☎|:iphone:|:phone:)"
    r"[\s*_:：]*(?:\+\d{1,3}[\s-]*)?\(?$"
)
_COUNTRY_PREFIX_RE = re.compile(r"\(?\+\d{1,3}\)?[\s.-]*$")


def guess_regions(text: str, language: str) -> tuple[str, ...]:
    """Regions to read local numbers in, most likely first; US and CN as the last resort
    (the two numbering plans this tool's users write most)."""
    low = text.casefold()
    regions: list[str] = []
    for place, region in _PLACES:
        if place in low and region not in regions:
            regions.append(region)
    lang_region = languages.get(language).labels.phone_region
    if lang_region and lang_region not in regions:
        regions.insert(0, lang_region)
    regions = regions[:2]
    regions += [r for r in ("US", "CN") if r not in regions]
    return tuple(regions)


def has_phone_candidate(text: str) -> bool:
    """A run of digits long enough to be a phone number: the cheap test before the real one."""
    return bool(_CANDIDATE_RE.search(text))


def find_phones(
    text: str, regions: tuple[str, ...] = ("US",), limit: int | None = None
) -> list[str]:
    """Phone numbers as written, in order: valid for one of ``regions``, or possible for their
    region when a +country code or a "Phone:" label vouches for them ("+44 7700 900123",
    "Phone: (555) 284-9031": ranges kept for fiction or not yet allocated).

    Each digit run is checked on its own, and regions one by one until one accepts it:
    libphonenumber compiles a region's patterns on first use (~10 ms each), so a resume
    whose number carries its country code or a label never pays for the other regions.
    """
    if not _CANDIDATE_RE.search(text):
        return []
    from phonenumbers import Leniency, PhoneNumberMatcher  # ~20 ms: only when needed

    found: dict[int, str] = {}
    for candidate in _CANDIDATE_RE.finditer(text):
        snippet, offset = candidate.group(), candidate.start()
        if "/" in snippet or find_ranges(snippet):
            continue  # "06/2021 – 02/2021", "2019.07 - 2023.06"
        prefix = _COUNTRY_PREFIX_RE.search(text[max(0, offset - 8) : offset])
        if prefix and not _INTERNATIONAL_RE.match(snippet):
            offset -= len(prefix.group())  # "+1 " left outside by the digit run
            snippet = text[offset : candidate.end()]
        if _INTERNATIONAL_RE.match(snippet) or _labelled(text, offset):
            tries = [(regions[0], Leniency.POSSIBLE)]
        else:
            tries = [(region, Leniency.VALID) for region in regions]
        for region, leniency in tries:
            matches = list(PhoneNumberMatcher(snippet, region, leniency=leniency))
            for match in matches:
                _add(found, offset + match.start, match.raw_string)
            if matches:
                break
        if limit is not None and len(found) >= limit:
            break
    return [found[start] for start in sorted(found)]


def _add(found: dict[int, str], start: int, raw: str) -> None:
    """Keep ``raw`` unless it lies inside a longer number already found."""
    raw = raw.strip()
    for s, r in list(found.items()):
        if s <= start < s + len(r) or start <= s < start + len(raw):
            if len(raw) <= len(r):
                return
            del found[s]
    found[start] = raw


def find_masked(text: str) -> str | None:
    """A phone number shown with its digits hidden, if the text has one."""
    for match in _MASKED_RE.finditer(text):
        raw = match.group().strip()
        masks = sum(raw.count(c) for c in "xX*")
        digits = sum(c.isdigit() for c in raw)
        if masks < 3 or not 7 <= masks + digits <= 15:
            continue
        chinese_mobile = raw[0] == "1" and masks + digits == 11
        if chinese_mobile or _labelled(text, match.start()):
            return raw
    return None


def _labelled(text: str, start: int) -> bool:
    """A phone label or icon just before ``start`` ("电话：", "Phone:", "📞")."""
    return bool(_PHONE_LABEL_RE.search(text[max(0, start - 16) : start]))
