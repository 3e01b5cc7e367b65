"""Measures of an exported PDF, shared by ``tests/formats/test_typesetting.py``,
``tests/formats/test_reading_order.py`` and ``bench/pdf_typesetting.py``:

- whether text extraction keeps each entry's dates (and place) next to its title, as an
  applicant tracking system reads a PDF: pdfminer's layout analysis with its default
  ``LAParams`` (what pdfplumber and many ATS build on) and poppler's ``pdftotext`` in its
  three modes (``EXTRACTORS``);
- the pitch of list lines (from one baseline to the next);
- a resume of entries with bullet and paragraph bodies, for page-break trials."""

from __future__ import annotations

import io
import re
import statistics
import subprocess
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from cvagent_cli.formats.writing.layout import Subheading, plain, read_layout, where

#: Whitespace, brackets and the separators a row prints between its parts.
_SQUASH_RE = re.compile(r"[\s()（）|｜·•]+")


def squash(text: str) -> str:
    return _SQUASH_RE.sub("", text)


@dataclass(frozen=True)
class DatedEntry:
    title: str  # as written, the place included
    dates: str
    head: str  # the title without the place a template may move beside the dates
    where: str  # that place and the dates ("Seattle, WA · Mar 2019 – Present")

    def adjacent(self, flat: str) -> bool:
        """True when squashed text ``flat`` holds the title followed by its dates (the
        place moved beside them or not)."""
        return squash(self.title + self.dates) in flat or squash(self.head + self.where) in flat


def dated_entries(markdown: str) -> list[DatedEntry]:
    """Every entry row of ``markdown``'s layout that has dates."""
    return [
        DatedEntry(plain(b.title), plain(b.dates), plain(b.head), plain(where(b)))
        for b in read_layout(markdown).blocks
        if isinstance(b, Subheading) and b.dates
    ]


def pdfminer_text(data: bytes) -> str:
    from pdfminer.high_level import extract_text  # lazy, like every PDF library

    return str(extract_text(io.BytesIO(data)))


def pdftotext_text(data: bytes, *options: str) -> str:
    """poppler's text of ``data``: its reading order by default, ``-layout`` or ``-raw``."""
    done = subprocess.run(
        ["pdftotext", *options, "-enc", "UTF-8", "-", "-"],
        input=data,
        capture_output=True,
        check=True,
    )
    return done.stdout.decode("utf-8")


#: The readings of a PDF that ``apart`` is measured with, by name.
EXTRACTORS: dict[str, Callable[[bytes], str]] = {
    "pdfminer": pdfminer_text,
    "pdftotext": pdftotext_text,  # poppler's reading order (no option)
    "pdftotext -layout": lambda data: pdftotext_text(data, "-layout"),
    "pdftotext -raw": lambda data: pdftotext_text(data, "-raw"),
}


def apart(data: bytes, markdown: str, extract: Callable[[bytes], str]) -> list[DatedEntry]:
    """The dated entries of ``markdown`` whose dates the extracted text of ``data`` (its
    PDF) does not put right after the title."""
    flat = squash(extract(data))
    return [entry for entry in dated_entries(markdown) if not entry.adjacent(flat)]


def lines_of(page: Any) -> list[tuple[float, float, str, float, bool]]:
    """A page's text lines, top to bottom: (baseline, x0 of the first character, its text,
    x0 of the second, whether it is set at the body size).  By baseline: a bullet drawn in
    another font than its text has another ``top``."""
    sizes = [round(c["size"], 1) for c in page.chars if not c["text"].isspace()]
    body = statistics.mode(sizes)
    rows: dict[float, list[dict[str, Any]]] = defaultdict(list)
    for char in page.chars:
        if not char["text"].isspace():
            base = page.height - char["matrix"][5]
            key = next((k for k in rows if abs(k - base) < 1.5), base)
            rows[key].append(char)
    out = []
    for top in sorted(rows):
        chars = sorted(rows[top], key=lambda c: c["x0"])
        second = chars[1]["x0"] if len(chars) > 1 else chars[0]["x0"]
        at_body = all(round(c["size"], 1) == body for c in chars)
        out.append((top, chars[0]["x0"], chars[0]["text"], second, at_body))
    return out


def pitches(data: bytes) -> dict[str, list[float]]:
    """Line-to-line distances inside a bullet, between bullets, and after a first bullet."""
    import pdfplumber

    found: dict[str, list[float]] = {"inside": [], "between": [], "after first": []}
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        for page in pdf.pages:
            lines = lines_of(page)
            body_x: float | None = None  # where the text of the bullet being read starts
            first = False  # in the list's first bullet
            for (top, x0, text, second, body), (
                next_top,
                next_x0,
                next_text,
                _,
                next_body,
            ) in pairwise(lines):
                if not (body and next_body):  # a section title between
                    body_x = None
                    continue
                if text == "•":
                    first = body_x is None
                    body_x = second
                elif body_x is None or abs(x0 - body_x) > 1:
                    body_x = None
                    continue
                gap = round(next_top - top, 2)
                if next_text == "•":
                    found["after first" if first else "between"].append(gap)
                elif abs(next_x0 - body_x) <= 1:
                    found["inside"].append(gap)
                else:
                    body_x = None
    return found


TRIAL_ENTRIES = """
### Staff Engineer — Northwind Payments, Seattle, WA
Mar 2019 – Present

- Led the move of the ledger to event sourcing, cutting reconciliation time from 6 hours to 20 minutes.
- Mentored 5 engineers; two were promoted to senior within 18 months.
- Wrote the on-call handbook the payments group still uses.

### Senior Engineer — Cascade Logistics, Bellevue, WA
Jun 2015 – Feb 2019

Owned the routing service end to end: its data model, its deployment and its on-call rota.
Rewrote the nightly batch as a stream, so that dispatchers saw new orders within a minute
instead of the next morning, and retired three legacy servers on the way.

### Engineer — Bluefin Analytics, Portland, OR
Aug 2013 – May 2015

- Built the first version of the metrics pipeline in Python and Kafka.
- Cut the dashboard's load time from 9 seconds to 1.2 seconds.

### Research Assistant — University of Washington, Seattle, WA
Sep 2011 – Jun 2013

Studied queueing in distributed logs with two professors; co-wrote a workshop paper on
back-pressure in log shippers and kept the lab's cluster of 40 machines running.
"""

TRIAL_TAIL = """
## Education

### B.S. in Computer Science — University of Washington, Seattle, WA
Sep 2009 – Jun 2013

## Skills

- Languages: Go, Python, Java, SQL
- Data: PostgreSQL, Kafka, Redis, BigQuery
- Cloud: AWS, Kubernetes, Terraform
- Practices: code review, incident command, design docs
"""


#: The first words of the trial resume's entry titles and of its Skills bullets.
TRIAL_TITLES = ("Staff Engineer", "Senior Engineer", "Engineer —", "Research Assistant", "B.S. in")
TRIAL_SKILLS = ("• Languages:", "• Data:", "• Cloud:", "• Practices:")


def trial_resume(padding: int) -> str:
    summary = "\n\n".join(
        f"Paragraph {i}: an engineer who builds payment and logistics systems that stay up, "
        "and who writes down how they work so the next person can run them."
        for i in range(padding)
    )
    return (
        "# Ada Example\n\nada@example.com | +1 555-010-2000\n\n## Summary\n\n"
        f"{summary}\n\n## Experience\n{TRIAL_ENTRIES}\n## Projects\n{TRIAL_ENTRIES}{TRIAL_TAIL}"
    )
