"""The DOCX export drawn by LibreOffice against cvagent's PDF (issue 31): every sample ×
template, the page count of each, the lines on the DOCX's last page, and the header's
height (from the top of the name to the top of the first section title) in both.

LibreOffice draws a DOCX with the fonts it finds, so it is drawn twice:

- ``machine``: this machine's fonts as they are (where Noto Sans is not installed,
  LibreOffice takes a stand-in, as a recruiter's Word does);
- ``pdf``: with the PDF's own fonts added (a fontconfig file, ``FONTCONFIG_FILE``, that
  adds the folder of the fonts the PDF embeds, rendercv-fonts' Noto Sans and Noto Sans SC).

``python bench/docx_parity.py`` prints one table per font setup and the totals: pages
equal x/27, DOCX ending on a page of one line.  ``--keep DIR`` keeps the files (the PDF,
the DOCX and LibreOffice's PDF of it) to look at; ``--fonts machine`` or ``--fonts pdf``
draws with one setup only.  Needs ``soffice``; an accuracy measure, not a timing one
(about a minute and a half per setup).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
sys.dont_write_bytecode = True

SAMPLES = sorted((ROOT / "sample_resumes").glob("*.md"))


@dataclass
class Drawn:
    """What pdfplumber reads of one PDF: pages, lines on the last page, header height."""

    pages: int
    last_lines: int
    header: float | None  # points from the name's top to the first section title's top


def measure(data: bytes, first_heading: str) -> Drawn:
    import io

    import pdfplumber

    with pdfplumber.open(io.BytesIO(data)) as pdf:
        lines = [line for line in pdf.pages[0].extract_text_lines() if line["text"].strip()]
        header = None
        for line in lines:
            if line["text"].replace(" ", "").startswith(first_heading.replace(" ", "")):
                header = float(line["top"] - lines[0]["top"])
                break
        last = [line for line in pdf.pages[-1].extract_text_lines() if line["text"].strip()]
        return Drawn(len(pdf.pages), len(last), header)


def fontconfig(folder: Path) -> Path:
    """A fontconfig file: the machine's configuration plus the PDF's font folder."""
    from cvagent_cli.formats.writing.pdf_export import font_dir

    conf = folder / "fonts.conf"
    conf.write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n'
        '  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>\n'
        f"  <dir>{font_dir()}</dir>\n  <cachedir>{folder / 'fc-cache'}</cachedir>\n"
        "</fontconfig>\n",
        encoding="utf-8",
    )
    return conf


def soffice(files: list[Path], out: Path, profile: Path, conf: Path | None) -> None:
    """LibreOffice's PDF of each DOCX in ``files`` into ``out`` (one process for all)."""
    env = dict(os.environ)
    if conf is not None:
        env["FONTCONFIG_FILE"] = str(conf)
    command = ["soffice", f"-env:UserInstallation={profile.as_uri()}", "--headless"]
    command += ["--convert-to", "pdf", "--outdir", str(out), *map(str, files)]
    subprocess.run(command, check=True, capture_output=True, timeout=900, env=env)


def first_heading(markdown: str) -> str:
    from cvagent_cli.formats.writing.layout import Heading, plain, read_layout

    layout = read_layout(markdown)
    return next(plain(b.runs) for b in layout.blocks if isinstance(b, Heading))


def write_all(folder: Path) -> dict[str, tuple[Drawn, str]]:
    """The PDF and the DOCX of every sample × template in ``folder``; the PDF measured."""
    from cvagent_cli.formats.writing.docx_export import render_docx
    from cvagent_cli.formats.writing.pdf_export import render_pdf
    from cvagent_cli.formats.writing.templates import TEMPLATES

    found = {}
    for path in SAMPLES:
        markdown = path.read_text(encoding="utf-8")
        heading = first_heading(markdown)
        for template in TEMPLATES:
            name = f"{path.stem}-{template}"
            pdf = render_pdf(markdown, template)
            (folder / f"{name}.pdf").write_bytes(pdf)
            (folder / f"{name}.docx").write_bytes(render_docx(markdown, template))
            found[name] = (measure(pdf, heading), heading)
    return found


def table(found: dict[str, tuple[Drawn, str]], drawn: Path, setup: str) -> tuple[int, int]:
    print(f"\n### LibreOffice with the {setup} fonts\n")
    print(
        "| resume | template | PDF pages | DOCX pages | DOCX last page lines | header PDF | header DOCX |"
    )
    print("|---|---|---|---|---|---|---|")
    same = one_line = 0
    for name, (pdf, heading) in found.items():
        docx = measure((drawn / f"{name}.pdf").read_bytes(), heading)
        same += docx.pages == pdf.pages
        one_line += docx.last_lines == 1
        sample, template = name.rsplit("-", 1)
        mark = "" if docx.pages == pdf.pages else " **≠**"
        heights = [f"{h:.1f}" if h is not None else "?" for h in (pdf.header, docx.header)]
        print(
            f"| {sample} | {template} | {pdf.pages} | {docx.pages}{mark} | {docx.last_lines} | "
            f"{heights[0]} | {heights[1]} |"
        )
    print(f"\npages equal: {same}/{len(found)}; DOCX ending on a one-line page: {one_line}")
    return same, one_line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fonts", choices=("machine", "pdf", "both"), default="both")
    parser.add_argument("--keep", type=Path, help="keep the files in this folder")
    args = parser.parse_args()
    if not shutil.which("soffice"):
        sys.exit("docx_parity needs LibreOffice's soffice")
    with tempfile.TemporaryDirectory(prefix="cvagent-parity-") as temp:
        folder = args.keep or Path(temp)
        folder.mkdir(parents=True, exist_ok=True)
        found = write_all(folder)
        docx_files = [folder / f"{name}.docx" for name in found]
        setups = ("machine", "pdf") if args.fonts == "both" else (args.fonts,)
        for setup in setups:
            drawn = folder / f"soffice-{setup}"
            drawn.mkdir(exist_ok=True)
            conf = fontconfig(Path(temp)) if setup == "pdf" else None
            soffice(docx_files, drawn, Path(temp) / f"profile-{setup}", conf)
            table(found, drawn, setup)


if __name__ == "__main__":
    main()
