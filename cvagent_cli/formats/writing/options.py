"""What the user chooses about an exported file beyond its template: the paper, and
whether the file carries its own Markdown source (so importing it gives the resume back
exactly).  ``cvagent export`` and the chat's ``/export`` build one; every writer takes it."""

from __future__ import annotations

from dataclasses import dataclass

#: The paper sizes a PDF or DOCX can be set on.
PAPERS = ("a4", "letter")


@dataclass(frozen=True)
class WriteOptions:
    paper: str | None = None  # a4 or letter; None: chosen from the resume (see the writers)
    embed_source: bool = True  # a PDF or DOCX carries the resume's Markdown inside


DEFAULT_OPTIONS = WriteOptions()
