"""Basic information: name, email, phone, links and location from a resume's text."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from cvagent_cli import languages
from cvagent_cli.document import person
from cvagent_cli.document.phones import (
    find_masked,
    find_phones,
    guess_regions,
    has_phone_candidate,
)

#: Anything shaped like an e-mail address, for text to mask rather than read: the guard does
#: not check an address's digits as numbers, the metrics rule does not count them.  It takes
#: in every address ``EMAIL_RE`` finds (and "a@10.0.0.1" too), so the two never disagree
#: about an address the resume states.
EMAIL_LIKE = r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
#: The person's e-mail address: a domain of ASCII labels ending in a top-level name.
EMAIL_RE = re.compile(
    r"(?<![\w.+-])[\w.+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}(?![\w-])"
)
URL_RE = re.compile(
    r"(?:https?://)?(?:www\.)?(?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,}(?:/[^\s)\]>|,，;；]*)?",
    re.IGNORECASE,
)
_LOCATION_LABEL_RE = re.compile(
    r"(?:(?:"
    + "|".join(languages.words_of(lambda language: language.contact.location_labels))
    + r")\s*[:：|｜]|"
    + "|".join(languages.words_of(lambda language: language.contact.location_phrases))
    + r")\s*"
    r"([^|｜\n•·,，;；]+(?:,\s*[A-Z]{2}\b)?)",
    re.IGNORECASE,
)
_CITY_STATE_RE = re.compile(r"\b([A-Z][a-zA-Z]+(?: [A-Z][a-zA-Z]+)*, (?:[A-Z]{2}|[A-Z][a-z]+))\b")
#: Cities a resume names without a label, every language's.
_CITIES = languages.words_of(lambda language: language.contact.cities)
_NOT_WEBSITES = ("example.com/", "linkedin.com", "github.com")
_FILE_EXT_RE = re.compile(r"\.(?:md|js|ts|py|go|java|net|jsx|tsx|io)$", re.IGNORECASE)


_CONTACT_KEYS = frozenset(languages.words_of(lambda language: language.contact.front_matter_keys))


class BasicInfo(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)

    name: str | None = None
    email: str | None = None
    phone: str | None = None
    masked_phone: str | None = None  # shown with digits hidden (189****9173): not a number
    linkedin: str | None = None
    github: str | None = None
    website: str | None = None
    location: str | None = None
    links: list[str] = Field(default_factory=list)

    @property
    def has_link(self) -> bool:
        return bool(self.linkedin or self.github or self.website)


# Neither an address nor a link spans whitespace, and each holds its anchor: an "@", or a
# "." between a host character and two letters.  So the costly patterns run only over the
# whitespace-separated words that hold an anchor, found by a cheap search: the same
# matches at the same offsets as over the whole text, in a fraction of the time.
_AT_RE = re.compile("@")
# The dot comes first and the host character is looked *behind* it: a pattern that starts
# with a literal lets re skip ahead to each "." (~20× faster than trying every position).
_HOST_DOT_RE = re.compile(r"\.(?<=[A-Za-z0-9-]\.)[A-Za-z]{2}", re.IGNORECASE)  # as in URL_RE
_SPACE_RE = re.compile(r"\s")


def _matches(
    pattern: re.Pattern[str], anchor: re.Pattern[str], text: str
) -> Iterator[re.Match[str]]:
    """``pattern.finditer(text)``, searched only inside the words where ``anchor`` matches."""
    pos = 0
    while (hit := anchor.search(text, pos)) is not None:
        start = hit.start()
        while start and not text[start - 1].isspace():
            start -= 1
        space = _SPACE_RE.search(text, hit.end())
        pos = space.start() if space else len(text)
        yield from pattern.finditer(text, start, pos)


def _without_emails(text: str, emails: Iterable[re.Match[str]]) -> str:
    """``EMAIL_RE.sub(" ", text)``, given the email matches in ``text``."""
    parts: list[str] = []
    end = 0
    for match in emails:
        parts += (text[end : match.start()], " ")
        end = match.end()
    return "".join(parts) + text[end:] if parts else text


def _links(text: str) -> list[str]:
    links: list[str] = []
    for match in _matches(URL_RE, _HOST_DOT_RE, text):
        url = match.group().rstrip(".")
        if "@" in text[max(0, match.start() - 1) : match.start()]:
            continue  # the domain part of an email address
        if _FILE_EXT_RE.search(url) and "/" not in url:
            continue  # Node.js, ASP.NET, main.py: technologies, not links
        if "." not in url.split("//")[-1].split("/")[0]:
            continue
        links.append(url)
    return links


def extract_basic_info(
    header_text: str,
    full_text: str,
    front_matter: dict[str, Any] | None = None,
    *,
    names: Sequence[str | None] = (),
    language: str = "en",
) -> BasicInfo:
    """Find contact details, preferring the header (text before the first section).

    ``names`` are name candidates from the document's structure (its title heading, a name
    heading under a "Resume" title), most trusted first; front matter comes before them and
    names stated in the text ("姓名：…", a bold first line) after.
    """
    fm = front_matter or {}
    # Only contact-like keys: a free-text field (an "ai_instructions:" payload) is no
    # source of the person's own phone number.
    fm_text = "\n".join(
        str(v)
        for k, v in fm.items()
        if isinstance(v, (str, int)) and str(k).casefold() in _CONTACT_KEYS
    )
    text = header_text if header_text.strip() else full_text[:2000]
    search_space = header_text + "\n" + full_text[:4000]
    email_matches = list(_matches(EMAIL_RE, _AT_RE, search_space))  # for emails and links
    emails = [m.group() for m in email_matches]
    phone_text = fm_text + "\n" + text
    phones: list[str] = []
    if has_phone_candidate(phone_text + full_text[:4000]):  # skip the region guess otherwise
        regions = guess_regions(phone_text, language)  # places are named in the header
        phones = find_phones(phone_text, regions, limit=1) or find_phones(
            full_text[:4000], regions, limit=1
        )
    masked = (
        None
        if phones or fm.get("phone")
        else find_masked(phone_text) or find_masked(full_text[:4000])
    )
    links = _links(_without_emails(search_space, email_matches))
    name = (
        person.first([fm.get("name"), fm.get("title"), *names])
        or person.family_first(fm.get("name") or (names[0] if names else None))
        or person.from_text(text)
        or person.from_lines(text)
        or person.from_text(full_text[:3000])
    )
    info = BasicInfo(
        name=name,
        email=_str(fm.get("email")) or (emails[0] if emails else None),
        phone=_str(fm.get("phone")) or (phones[0] if phones else None),
        masked_phone=masked,
        location=_str(fm.get("location")) or _location(text),
    )
    for link in links + [
        v for v in fm.values() if isinstance(v, str) and "." in v and " " not in v and "@" not in v
    ]:
        low = link.lower()
        if "linkedin.com" in low and not info.linkedin:
            info.linkedin = link
        elif "github.com" in low and not info.github:
            info.github = link
        elif (
            not info.website
            and not any(n in low for n in _NOT_WEBSITES)
            and "@" not in link
            and (
                low.startswith(("http", "www."))
                or low.count("/")
                or low.endswith((".dev", ".me", ".io", ".com", ".cn", ".net", ".org", ".site"))
            )
        ):
            info.website = link
        if link not in info.links:
            info.links.append(link)
    return info


def _str(value: object) -> str | None:
    return str(value).strip() if value not in (None, "") else None


def _location(text: str) -> str | None:
    match = _LOCATION_LABEL_RE.search(text)
    if match:
        return match.group(1).strip()
    match = _CITY_STATE_RE.search(text)
    if match:
        return match.group(1)
    for city in _CITIES:
        if city in text:
            return city
    return None
