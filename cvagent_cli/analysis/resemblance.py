"""Whether a document is a resume at all.

An invoice, a letter or a manual imported by mistake should be called what it is, not
scored as a resume whose "name" is the company at its top.  A resume is told by what
only resumes have: a section a resume has (Experience, Education, Skills, 工作经历 …),
as a heading or a line of its own, or a dated entry ("2019 – 2023", "2020.03 - 至今").
Contact details are not evidence: an invoice has a phone number and an email too.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from cvagent_cli.document.dates import find_ranges
from cvagent_cli.document.kinds import TITLE_KINDS, normalize_title

if TYPE_CHECKING:
    from cvagent_cli.document.document import ResumeDocument

NOT_A_RESUME = "this does not look like a resume"
WHY = "no section a resume has (Experience, Education, Skills …) and no dated entries"
_NOT_EVIDENCE = ("other", "contact")  # a name heading with contact lines is kind "contact"
_LINE_MARKUP_RE = re.compile(r"^[#>*_\s-]+|[*_:：\s]+$")


def looks_like_resume(doc: ResumeDocument) -> bool:
    if any(s.heading_line and s.kind not in _NOT_EVIDENCE for s in doc.sections):
        return True
    for line in doc.lines:
        text = _LINE_MARKUP_RE.sub("", line)
        if (
            text
            and len(text) <= 40
            and TITLE_KINDS.get(normalize_title(text), "other") not in _NOT_EVIDENCE
        ):
            return True
    return bool(find_ranges(doc.text))


def warning() -> str:
    """The one-line warning, for the import report and the analyzer."""
    return f"{NOT_A_RESUME}: {WHY}"
