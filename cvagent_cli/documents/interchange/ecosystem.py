"""``cvagent export -o resume.json|cv.yaml`` and ``cvagent import resume.json``: the
ecosystem formats (JSON Resume, rendercv YAML), chosen by the file extension."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from cvagent_cli.document.document import ResumeDocument
from cvagent_cli.documents.interchange import jsonresume, rendercv_yaml, resume_data
from cvagent_cli.store.textio import (
    check_output_path,
    new_file_mode,
    read_text_file,
    write_output,
)

#: Export extensions and the format each one writes.
EXPORT_SUFFIXES = {".json": "jsonresume", ".yaml": "rendercv", ".yml": "rendercv"}


@dataclass
class Exported:
    target: Path
    left_out: list[str] = field(default_factory=list)  # what the format has no place for


def is_data_export(target: Path) -> bool:
    return target.suffix.lower() in EXPORT_SUFFIXES


def render(markdown: str, suffix: str, *, source: str = "<text>") -> tuple[str, list[str]]:
    """The file's text for resume Markdown ``markdown``, and what it leaves out."""
    data = resume_data.read(ResumeDocument.from_text(markdown, source=source))
    if EXPORT_SUFFIXES[suffix.lower()] == "jsonresume":
        return jsonresume.dumps(jsonresume.to_json_resume(data)), []
    file = rendercv_yaml.to_rendercv(data)
    return file.dump(), file.left_out


def export_file(source: Path, target: Path, *, force: bool = False) -> Exported:
    """Write resume ``source`` as JSON Resume (``.json``) or rendercv YAML (``.yaml``);
    a new file gets ``source``'s permission bits.  ``export_text`` checks the target."""
    return export_text(
        read_text_file(source).text,
        target,
        force=force,
        source=str(source),
        new_mode=new_file_mode(source),
    )


def export_text(
    markdown: str,
    target: Path,
    *,
    force: bool = False,
    source: str = "<text>",
    new_mode: int | None = None,
) -> Exported:
    """Write resume Markdown ``markdown`` as ``target`` (``.json``, ``.yaml``), atomically."""
    check_output_path(target, overwrite=force)
    text, left_out = render(markdown, target.suffix, source=source)
    write_output(target, text.encode("utf-8"), new_mode=new_mode)
    return Exported(target, left_out)


def import_json(data: bytes, source: str) -> tuple[str, list[str]]:
    """Resume Markdown from a JSON Resume file, and notes on what was not imported."""
    return jsonresume.to_markdown(jsonresume.load(data, source), source)
