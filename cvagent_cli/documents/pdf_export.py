"""resume.md → PDF through typst (compiler in a wheel) with Noto Sans + Noto Sans SC fonts.

We emit plain Typst markup ourselves (universe packages cannot be downloaded at run time) and
check glyph coverage before compiling, because typst silently draws empty boxes otherwise.
"""

from __future__ import annotations

import re
from pathlib import Path

from cvagent_cli.documents.markdown_source import export_lines, table_rows
from cvagent_cli.documents.templates import check_template
from cvagent_cli.errors import ConfigError, InputError
from cvagent_cli.install import documents_hint

_SPECIAL = re.compile(r"([\\#$*_`<>@\[\]/~=\-+\"'])")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_LINK = re.compile(r"\[([^\]]+)\]\(([^)]+)\)")
PREAMBLE = (
    '#set page(paper: "a4", margin: 1.6cm)\n'
    '#set text(font: ("Noto Sans", "Noto Sans SC"), size: 10pt)\n'
    "#show heading.where(level: 1): set text(size: 20pt)\n"
    "#show heading.where(level: 2): it => block(above: 1em, below: 0.5em)"
    '[#text(size: 12pt, weight: "bold", it.body) #v(-0.6em) #line(length: 100%)]\n'
)
COMPACT_PREAMBLE = (
    '#set page(paper: "a4", margin: (x: 1.2cm, y: 1cm))\n'
    '#set text(font: ("Noto Sans", "Noto Sans SC"), size: 9pt)\n'
    "#set par(leading: 0.5em, spacing: 0.75em)\n"
    "#set list(spacing: 0.45em)\n"
    "#show heading.where(level: 1): set text(size: 16pt)\n"
    "#show heading.where(level: 2): it => block(above: 0.8em, below: 0.4em)"
    '[#text(size: 10.5pt, weight: "bold", it.body) #v(-0.6em) #line(length: 100%)]\n'
    "#show heading.where(level: 3): set block(above: 0.7em, below: 0.4em)\n"
)
PREAMBLES = {"classic": PREAMBLE, "compact": COMPACT_PREAMBLE}


def _font_dir() -> Path:
    try:
        import rendercv_fonts  # lazy: only in the `documents` extra
    except ImportError as exc:
        raise ConfigError("PDF export needs rendercv-fonts", hint=documents_hint()) from exc
    return Path(rendercv_fonts.__file__).parent / "Noto Sans"


def escape(text: str) -> str:
    """Escape Typst's markup characters so resume text is never read as code."""
    return _SPECIAL.sub(r"\\\1", text)


def _inline(text: str) -> str:
    out: list[str] = []
    pos = 0
    for match in _LINK.finditer(text):
        out.append(_bold(text[pos : match.start()]))
        out.append(f'#link("{match.group(2).replace(chr(34), "")}")[{escape(match.group(1))}]')
        pos = match.end()
    out.append(_bold(text[pos:]))
    return "".join(out)


def _bold(text: str) -> str:
    parts: list[str] = []
    pos = 0
    for match in _BOLD.finditer(text):
        parts.append(escape(text[pos : match.start()]))
        parts.append(f"#strong[{escape(match.group(1))}]")
        pos = match.end()
    parts.append(escape(text[pos:]))
    return "".join(parts)


def _typst_table(lines: list[str]) -> str:
    rows = table_rows(lines)
    width = max(len(r) for r in rows)
    cells = ", ".join(f"[{_inline(c)}]" for row in rows for c in row + [""] * (width - len(row)))
    return f"#table(columns: {width}, inset: 4pt, {cells})"


def to_typst(markdown: str, template: str = "classic") -> str:
    """Markdown resume → Typst markup: headings by level, `-` items as Typst list items,
    tables as tables; the lines of a paragraph stay lines (contact lines, entry dates)."""
    lines = [PREAMBLES[check_template(template)]]
    source = export_lines(markdown)
    i = 0
    while i < len(source):
        line = source[i].strip()
        heading = re.match(r"^(#{1,3})\s*(.+)$", line)
        if line.startswith("|"):
            block = []
            while i < len(source) and source[i].strip().startswith("|"):
                block.append(source[i])
                i += 1
            lines.append(_typst_table(block))
            continue
        if heading:
            lines.append(f"{'=' * len(heading.group(1))} {_inline(heading.group(2))}")
        elif re.match(r"^[-*+]\s+", line):
            lines.append(f"- {_inline(line[2:].strip())}")
        elif line:
            following = source[i + 1].strip() if i + 1 < len(source) else ""
            more = following and not re.match(r"^(#{1,3}\s|[-*+]\s|\|)", following)
            lines.append(_inline(line) + (" \\" if more else ""))
        else:
            lines.append("")
        i += 1
    return "\n".join(lines) + "\n"


def _check_glyphs(text: str, fonts: list[Path]) -> None:
    from fontTools.ttLib import TTFont  # lazy

    covered: set[int] = set()
    for font in fonts:
        covered.update(TTFont(str(font), lazy=True).getBestCmap())
    missing = sorted({ch for ch in text if not ch.isspace() and ord(ch) not in covered})
    if missing:
        raise InputError(
            f"the PDF fonts have no glyph for {''.join(missing[:10])!r}",
            hint="export to .docx or .html instead, or remove those characters",
        )


def render_pdf(markdown: str, template: str = "classic") -> bytes:
    """Markdown → PDF bytes; fails loudly instead of printing empty boxes for missing glyphs."""
    try:
        import typst  # lazy
    except ImportError as exc:
        raise ConfigError("PDF export needs typst", hint=documents_hint()) from exc
    folder = _font_dir()
    fonts = [folder / "NotoSans-Regular.ttf", folder / "NotoSansSC-Regular.ttf"]
    _check_glyphs(markdown.replace("**", ""), fonts)
    return typst.compile(to_typst(markdown, template).encode("utf-8"), font_paths=[str(folder)])
