"""PDF import time per page, against a plain pdfplumber text extraction in the same run.

For every PDF of the import corpus (``tests/formats/import_corpus``, both splits: time is
not tuned on) and of ``tests/formats/pdf_layouts``: ``cvagent import``'s reader
(``import_bytes``: glyphs, layout, Markdown) and the reference, pdfplumber's
``extract_text()`` of each page, are timed in turn after one warm-up, ``--repeats`` times
each; a file's figure is its median seconds per page.  The table gives the median over the
files, the slowest file, and the ratio to the reference.

Target: median import ≤ 0.5 s per page.

    python bench/import_speed.py [--repeats 3] [--per-file]
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = (ROOT / "tests/formats/import_corpus", ROOT / "tests/formats/pdf_layouts")
TARGET = 0.5  # seconds per page, median over the files


def _plain(data: bytes) -> int:
    import pdfplumber

    with pdfplumber.open(io.BytesIO(data)) as pdf:
        for page in pdf.pages:
            page.extract_text()
        return len(pdf.pages)


def _timed(run, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def measure(repeats: int) -> list[tuple[str, int, float, float]]:
    """(file, pages, cvagent s/page, pdfplumber s/page) per PDF."""
    sys.path.insert(0, str(ROOT))
    from cvagent_cli.formats.reading.importer import import_bytes

    rows = []
    for path in sorted(p for folder in FOLDERS for p in folder.rglob("*.pdf")):
        data = path.read_bytes()
        pages = _plain(data)  # warm-up for both
        import_bytes(data, path.name, ".pdf")
        ours = _timed(lambda d=data, n=path.name: import_bytes(d, n, ".pdf"), repeats)
        plain = _timed(lambda d=data: _plain(d), repeats)
        rows.append((str(path.relative_to(ROOT)), pages, ours / pages, plain / pages))
    return rows


def report(rows: list[tuple[str, int, float, float]], per_file: bool) -> str:
    ours = statistics.median(r[2] for r in rows)
    plain = statistics.median(r[3] for r in rows)
    slowest = max(rows, key=lambda r: r[2])
    lines = [
        "| measure | value |",
        "|---|---|",
        f"| PDFs (pages) | {len(rows)} ({sum(r[1] for r in rows)}) |",
        f"| reference: pdfplumber extract_text, median s/page | {plain:.3f} |",
        f"| cvagent import, median s/page | {ours:.3f} |",
        f"| ratio to the reference | {ours / plain:.2f} |",
        f"| slowest file | {slowest[2]:.3f} s/page ({slowest[0]}) |",
        f"| target: median ≤ {TARGET} s/page | {'met' if ours <= TARGET else 'NOT met'} |",
    ]
    if per_file:
        lines += ["", "| file | pages | cvagent s/page | pdfplumber s/page | ratio |"]
        lines += ["|---|---|---|---|---|"]
        lines += [f"| {f} | {n} | {a:.3f} | {b:.3f} | {a / b:.2f} |" for f, n, a, b in rows]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--per-file", action="store_true")
    args = parser.parse_args()
    print(report(measure(args.repeats), args.per_file))


if __name__ == "__main__":
    main()
