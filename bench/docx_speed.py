"""How long a DOCX export takes (issue 31), every sample × template, in this process:

- ``docx``: ``render_docx`` of a resume no export has typeset yet (it typesets the PDF to
  learn the spacing the PDF settled on, ``docx_export.pdf_spacing``);
- ``docx after pdf``: the same DOCX when the PDF of the resume was exported just before
  (``/export resume.pdf`` then ``/export resume.docx`` in one chat session);
- ``pdf``: the PDF export (``render_document``), the reference the ratios are taken to.

Interleaved rounds after a warm-up; the median per export, and the ratio to the PDF's.
``python bench/docx_speed.py [--rounds N]``.  ``CVAGENT_BENCH_SRC=DIR`` times the package
found in ``DIR`` instead (an older commit's ``cvagent_cli``, for a before/after figure).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, os.environ.get("CVAGENT_BENCH_SRC") or str(ROOT))
sys.dont_write_bytecode = True

SAMPLES = sorted((ROOT / "sample_resumes").glob("*.md"))


def _forget() -> None:
    """Empty the DOCX writer's note of the PDF spacings (where the package has one)."""
    from cvagent_cli.formats.writing import docx_export

    settled = getattr(docx_export, "_SETTLED", None)
    if settled is not None:
        settled.__init__()


def _timed(export: Callable[..., object], markdown: str, suffix: str, template: str) -> float:
    start = time.perf_counter()
    export(markdown, suffix, template=template)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    from cvagent_cli.formats.writing.html_export import render_document
    from cvagent_cli.formats.writing.templates import TEMPLATES

    resumes = [(p.read_text(encoding="utf-8"), t) for p in SAMPLES for t in TEMPLATES]
    render_document(resumes[0][0], ".pdf")  # warm-up: fonts read, imports done
    render_document(resumes[0][0], ".docx")
    times: dict[str, list[float]] = {"docx": [], "docx after pdf": [], "pdf": []}
    for _ in range(args.rounds):
        for markdown, template in resumes:
            _forget()
            times["docx"].append(_timed(render_document, markdown, ".docx", template))
            _forget()
            times["pdf"].append(_timed(render_document, markdown, ".pdf", template))
            times["docx after pdf"].append(_timed(render_document, markdown, ".docx", template))
    pdf = statistics.median(times["pdf"])
    print(f"{len(resumes)} resumes × {args.rounds} rounds, median seconds per export")
    print("| export | median s | min–max s | × PDF |")
    print("|---|---|---|---|")
    for name, values in times.items():
        median = statistics.median(values)
        print(
            f"| {name} | {median:.3f} | {min(values):.3f}–{max(values):.3f} | {median / pdf:.2f} |"
        )


if __name__ == "__main__":
    main()
