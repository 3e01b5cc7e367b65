"""How well ``cvagent import`` reads scanned resumes: the import corpus drawn as page images.

Every PDF of ``tests/formats/import_corpus`` (both splits; its README says which file is
held out) is rasterized with pypdfium2 at each ``--dpi`` and saved as an image-only PDF
(grayscale JPEG pages, what a scanner or a "print as image" gives), then imported: with no
text layer, the reader runs OCR (the ``ocr`` extra).  Per file, against the same truth as
``bench/import_accuracy.py``: the name, the section titles that are headings, text
coverage, and the same coverage of the original PDF's text layer beside it; seconds per
page, wall and CPU.  Run it on one core to check the 3 s target:

    taskset -c 0 python bench/ocr_accuracy.py --dpi 150 300 --json bench/results/ocr_accuracy.json
    python bench/ocr_accuracy.py --split dev --limit 5 --per-file
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import statistics
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import import_accuracy as ia  # noqa: E402


def image_only_pdf(data: bytes, dpi: int, pages: int | None = None) -> bytes:
    """The PDF ``data`` with each page (the first ``pages``) drawn at ``dpi`` as a grayscale
    image, and no text layer."""
    import pypdfium2

    document = pypdfium2.PdfDocument(data)
    try:
        images = [
            document[i].render(scale=dpi / 72, grayscale=True).to_pil().convert("L")
            for i in range(min(len(document), pages or len(document)))
        ]
    finally:
        document.close()
    out = io.BytesIO()
    images[0].save(
        out, "PDF", resolution=float(dpi), save_all=True, append_images=images[1:], quality=85
    )
    return out.getvalue()


@dataclass
class OcrScore:
    file: str
    split: str
    lang: str
    dpi: int
    pages: int
    name: bool
    sections_found: int
    sections_total: int
    coverage: float
    text_layer_coverage: float
    wall_per_page: float
    cpu_per_page: float
    error: str = ""


def measure(item: ia.Item, dpi: int, text_layer_coverage: float) -> OcrScore:
    from cvagent_cli.formats.reading.importer import import_bytes

    scanned = image_only_pdf(item.path.read_bytes(), dpi)
    pages = int(item.truth.get("pages", 1))
    score = ia.FileScore(item.path.name, item.producer, item.lang, item.split, "ocr", pages)
    wall, cpu = time.perf_counter(), time.process_time()
    error = ""
    try:
        markdown = import_bytes(scanned, item.path.name, ".pdf").markdown
    except Exception as exc:  # a file OCR cannot read scores zero
        markdown, error = "", f"{type(exc).__name__}: {exc}"[:200]
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    ia.score_markdown(markdown, item.truth, score)
    return OcrScore(
        file=item.path.relative_to(item.path.parents[1]).as_posix(),
        split=item.split,
        lang=item.lang,
        dpi=dpi,
        pages=pages,
        name=score.name,
        sections_found=score.sections_found,
        sections_total=score.sections_total,
        coverage=score.coverage,
        text_layer_coverage=text_layer_coverage,
        wall_per_page=wall / pages,
        cpu_per_page=cpu / pages,
        error=error,
    )


def summary(scores: list[OcrScore]) -> str:
    rows = [
        "| split | dpi | files | name | section titles | coverage (text layer) | s/page wall | s/page CPU (median, max) |"
    ]
    rows.append("|---|---|---|---|---|---|---|---|")
    for split in ("dev", "heldout"):
        for dpi in sorted({s.dpi for s in scores}):
            group = [s for s in scores if s.split == split and s.dpi == dpi]
            if not group:
                continue
            found = sum(s.sections_found for s in group)
            total = sum(s.sections_total for s in group)
            cpu = [s.cpu_per_page for s in group]
            rows.append(
                f"| {split} | {dpi} | {len(group)} | {sum(s.name for s in group)}/{len(group)} "
                f"| {found}/{total} ({found / max(total, 1):.1%}) "
                f"| {statistics.mean(s.coverage for s in group):.1%} "
                f"({statistics.mean(s.text_layer_coverage for s in group):.1%}) "
                f"| {statistics.median(s.wall_per_page for s in group):.2f} "
                f"| {statistics.median(cpu):.2f}, {max(cpu):.2f} |"
            )
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dpi", type=int, nargs="+", default=[150, 300])
    parser.add_argument("--split", choices=["dev", "heldout", "both"], default="both")
    parser.add_argument(
        "--limit", type=int, default=0, help="at most this many files a split, one a producer first"
    )
    parser.add_argument(
        "--threads", type=int, default=1, help="engine threads (1: the per-core target)"
    )
    parser.add_argument("--per-file", action="store_true")
    parser.add_argument("--json", type=Path, help="write every file's scores here")
    args = parser.parse_args(argv)
    items = [it for it in ia.load_corpus() if it.path.suffix == ".pdf"]
    if args.split != "both":
        items = [it for it in items if it.split == args.split]
    if args.limit:
        seen: dict[tuple[str, str], int] = {}  # per split, producer and language
        order = []
        for it in items:  # round robin over producers: the first file of each, then the second
            key = (it.split, it.producer + it.lang)
            rank = seen[key] = seen.get(key, -1) + 1
            order.append((rank, it))
        # producers and languages in the order of a hash of their names: a spread of kinds
        order.sort(
            key=lambda pair: (
                pair[0],
                hashlib.sha1((pair[1].producer + pair[1].lang).encode()).hexdigest(),
            )
        )
        items = [
            it for s in ia.SPLITS for it in [x for _, x in order if x.split == s][: args.limit]
        ]
    from cvagent_cli.formats.reading import ocr

    engine = ocr._engine
    ocr._engine = lambda source, _threads: engine(source, args.threads)
    text_layer = {s.file: s.coverage for s in ia.evaluate(items, "cvagent", ia.read_cvagent)}
    scores: list[OcrScore] = []
    for item in items:
        key = item.path.relative_to(item.path.parents[1]).as_posix()
        for dpi in args.dpi:
            score = measure(item, dpi, text_layer.get(key, 0.0))
            scores.append(score)
            if args.per_file:
                print(
                    f"{score.file} {dpi} dpi: name {score.name}, sections "
                    f"{score.sections_found}/{score.sections_total}, coverage "
                    f"{score.coverage:.0%} ({score.text_layer_coverage:.0%}), "
                    f"{score.cpu_per_page:.2f} s/page CPU {score.error}",
                    flush=True,
                )
    print(summary(scores))
    if args.json:
        args.json.write_text(json.dumps([asdict(s) for s in scores], indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
