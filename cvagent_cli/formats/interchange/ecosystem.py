"""The ecosystem formats (JSON Resume, rendercv YAML), chosen by the file extension:
``render`` writes one (``exporter`` writes the file), ``import_json`` and
``import_rendercv`` read them (for ``reading/importer``)."""

from __future__ import annotations

from pathlib import Path

from cvagent_cli.document.document import ResumeDocument
from cvagent_cli.formats.interchange import (
    jsonresume,
    jsonresume_read,
    rendercv_read,
    rendercv_yaml,
    resume_data,
)

#: Export extensions and the format each one writes.
EXPORT_SUFFIXES = {".json": "jsonresume", ".yaml": "rendercv", ".yml": "rendercv"}


def is_data_export(target: Path) -> bool:
    return target.suffix.lower() in EXPORT_SUFFIXES


def render(markdown: str, suffix: str, *, source: str = "<text>") -> tuple[str, list[str]]:
    """The file's text for resume Markdown ``markdown``, and what it leaves out."""
    data = resume_data.read(ResumeDocument.from_text(markdown, source=source))
    if EXPORT_SUFFIXES[suffix.lower()] == "jsonresume":
        return jsonresume.dumps(jsonresume.to_json_resume(data)), []
    file = rendercv_yaml.to_rendercv(data)
    return file.dump(), file.left_out


def import_json(data: bytes, source: str) -> tuple[str, list[str]]:
    """Resume Markdown from a JSON Resume file, and notes on what was not imported."""
    return jsonresume_read.to_markdown(jsonresume_read.load(data, source), source)


def import_rendercv(data: bytes, source: str) -> tuple[str, list[str]]:
    """Resume Markdown from a rendercv YAML file, and notes on what was not imported."""
    return rendercv_read.to_markdown(rendercv_read.load(data, source), source)
