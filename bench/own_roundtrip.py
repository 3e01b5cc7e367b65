"""cvagent's own PDF and DOCX, imported again: every sample × template × format.

With the Markdown source embedded (the default), does ``cvagent import`` give the file
back byte for byte?  Without it (``--no-source``: the page is read), how many of the
resume's section headings (##) and entry headings (###) come back?  And how many bytes
does the embedded source add to each file?

``python bench/own_roundtrip.py`` prints the table (about a minute: 54 PDF and DOCX
exports, twice each).  An accuracy measure, not a timing one.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.dont_write_bytecode = True


def _headings(markdown: str) -> tuple[list[str], list[str]]:
    from cvagent_cli.document.document import ResumeDocument

    doc = ResumeDocument.from_text(markdown)
    sections = [s.title for s in doc.sections if s.heading_line and s.level == 2]
    entries = [s.title for s in doc.sections if s.heading_line and s.level == 3]
    return sections, entries


def _kept(wanted: list[str], got: list[str]) -> int:
    left = list(got)
    found = 0
    for title in wanted:
        if title in left:
            left.remove(title)
            found += 1
    return found


def main() -> None:
    from cvagent_cli.formats.reading.importer import import_bytes
    from cvagent_cli.formats.writing.docx_export import render_docx
    from cvagent_cli.formats.writing.options import WriteOptions
    from cvagent_cli.formats.writing.pdf_export import render_pdf
    from cvagent_cli.formats.writing.templates import TEMPLATES

    render = {"pdf": render_pdf, "docx": render_docx}
    without = WriteOptions(embed_source=False)
    exact = total = 0
    kept = {"sections": [0, 0], "entries": [0, 0]}
    print("| sample | template | format | exact | added bytes | ## kept | ### kept |")
    print("|---|---|---|---|---|---|---|")
    for path in sorted((ROOT / "sample_resumes").glob("*.md")):
        text = path.read_text(encoding="utf-8")
        sections, entries = _headings(text)
        for template in TEMPLATES:
            for fmt, write in render.items():
                data = write(text, template)
                bare = write(text, template, options=without)
                same = import_bytes(data, path.name, f".{fmt}").markdown == text
                page = import_bytes(bare, path.name, f".{fmt}").markdown
                got_sections, got_entries = _headings(page)
                counts = (_kept(sections, got_sections), _kept(entries, got_entries))
                exact += same
                total += 1
                kept["sections"][0] += counts[0]
                kept["sections"][1] += len(sections)
                kept["entries"][0] += counts[1]
                kept["entries"][1] += len(entries)
                print(
                    f"| {path.stem} | {template} | {fmt} | {'yes' if same else 'NO'} | "
                    f"{len(data) - len(bare):+,} | {counts[0]}/{len(sections)} | "
                    f"{counts[1]}/{len(entries)} |"
                )
    print(f"\nexact round trips with the source: {exact}/{total}")
    for what, (got, of) in kept.items():
        print(f"from the page (--no-source): {what} kept {got}/{of}")


if __name__ == "__main__":
    main()
