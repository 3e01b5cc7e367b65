"""DOCX → resume Markdown from Word paragraph styles (headings, list items) and bold runs."""

from __future__ import annotations

import io

from cvagent_cli.errors import InputError


def docx_to_markdown(data: bytes, source: str = "<docx>") -> str:
    """Headings keep their level, list paragraphs become `-` items; bold runs stay bold."""
    from cvagent_cli.documents.docx_export import _require_docx

    docx = _require_docx()
    try:
        document = docx.Document(io.BytesIO(data))
    except Exception as exc:  # python-docx raises several unrelated types on a broken zip
        raise InputError(f"{source}: not a readable DOCX file ({type(exc).__name__})") from exc
    lines: list[str] = []
    for paragraph in document.paragraphs:
        text = "".join(
            f"**{run.text}**" if run.bold and run.text.strip() else run.text
            for run in paragraph.runs
        ).strip()
        if not text:
            continue
        style = (paragraph.style.name if paragraph.style is not None else "").lower()
        if style in ("title", "heading 1"):
            lines += [f"# {text.replace('**', '')}", ""]
        elif style == "heading 2":
            lines += [f"## {text.replace('**', '')}", ""]
        elif style.startswith("heading"):
            lines += [f"### {text.replace('**', '')}", ""]
        elif "list" in style or (
            paragraph._p.pPr is not None and paragraph._p.pPr.numPr is not None
        ):
            lines.append(f"- {text}")
        else:
            if lines and lines[-1].startswith("- "):
                lines.append("")
            lines += [text, ""]
    if not lines:
        raise InputError(f"{source}: the DOCX has no text")
    return "\n".join(lines).rstrip() + "\n"
