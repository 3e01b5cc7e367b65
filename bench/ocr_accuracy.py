"""How well ``cvagent import`` reads scanned resumes: the import corpus drawn as page images.

Every PDF of ``tests/formats/import_corpus`` (both splits; its README says which file is
held out) is rasterized with pypdfium2 at each ``--dpi`` and saved as an image-only PDF
(grayscale JPEG pages, what a scanner or a "print as image" gives), then imported: with no
text layer, the reader runs OCR (the ``ocr`` extra).  Per file, against the same truth as
``bench/import_accuracy.py``: the name, the section titles that are headings, text
coverage, and the same coverage of the original PDF's text layer beside it; seconds per
page, wall and CPU, with and without the engine's start, and (``--reference``) against
RapidOCR's own pipeline run on the same pictures in the same run, a ratio that a loaded
machine changes less than the seconds.  ``--scanner`` draws each page as an office scanner
gives it back (turned a little, grey paper, blur, noise, JPEG 60: ``scanned_look``), the
same picture for a file in every run.  Run it on one core to check the 3 s target:

    taskset -c 0 python bench/ocr_accuracy.py --reference --json bench/results/ocr_accuracy.json
    python bench/ocr_accuracy.py --split dev --limit 5 --per-file
    python bench/ocr_accuracy.py --split dev --dpi 150 --only chromium-canva/ --per-file
    python bench/ocr_accuracy.py --split dev --dpi 150 --scanner --per-file
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
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import import_accuracy as ia  # noqa: E402


def image_only_pdf(
    data: bytes, dpi: int, pages: int | None = None, scanner: int | None = None
) -> bytes:
    """The PDF ``data`` with each page (the first ``pages``) drawn at ``dpi`` as a grayscale
    image, and no text layer.  ``scanner`` (a seed) makes each page look put through an
    office scanner instead of printed to an image: see ``scanned_look``."""
    import pypdfium2

    document = pypdfium2.PdfDocument(data)
    try:
        images = [
            document[i].render(scale=dpi / 72, grayscale=True).to_pil().convert("L")
            for i in range(min(len(document), pages or len(document)))
        ]
    finally:
        document.close()
    quality = 85
    if scanner is not None:
        images = [scanned_look(image, dpi, scanner + i) for i, image in enumerate(images)]
        quality = 60
    out = io.BytesIO()
    images[0].save(
        out, "PDF", resolution=float(dpi), save_all=True, append_images=images[1:], quality=quality
    )
    return out.getvalue()


def scanned_look(image: Any, dpi: int, seed: int) -> Any:
    """A page image as a flatbed scanner or a copier's scan-to-PDF gives it back: turned by
    up to 0.6 degrees either way, off-white paper (an ink of 20-40 grey, not black),
    the slight blur of the optics (a Gaussian of 0.35 px at 150 dpi, scaled with the
    resolution), sensor noise (sigma 6), saved as JPEG at quality 60.  ``seed`` fixes each
    draw, so a file's scan is the same in every run."""
    import numpy as np
    from PIL import Image, ImageFilter

    rng = np.random.default_rng(seed)
    angle = float(rng.uniform(-0.6, 0.6))
    paper, ink = int(rng.integers(228, 246)), int(rng.integers(20, 41))
    page = image.rotate(angle, resample=Image.Resampling.BICUBIC, expand=False, fillcolor=255)
    page = page.filter(ImageFilter.GaussianBlur(0.35 * dpi / 150))
    pixels = np.asarray(page, dtype=np.float32) / 255
    pixels = ink + (paper - ink) * pixels + rng.normal(0, 6, pixels.shape)
    return Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8), "L")


@dataclass
class OcrScore:
    file: str
    split: str
    lang: str
    dpi: int
    pages: int
    name: bool
    scanner: bool  # the pages made to look scanned (``scanned_look``), not printed
    name_read: str  # what was read where the name was wrong ("" when it was right)
    sections_found: int
    sections_total: int
    bullets_exact: int
    entries_total: int
    coverage: float
    text_layer_coverage: float
    wall_per_page: float
    cpu_per_page: float
    start_cpu: float = 0.0  # the engine's start, in cpu_per_page's file total
    reference_cpu_per_page: float = 0.0  # stock RapidOCR on the same pictures, same run
    error: str = ""


class _Timed:
    """``ocr._engine`` with its start-up CPU time counted (and the thread count fixed)."""

    def __init__(self, threads: int) -> None:
        from cvagent_cli.formats.reading import ocr

        self.make, self.threads, self.cpu = ocr._engine, threads, 0.0
        ocr._engine = self

    def __call__(self, source: str, _threads: int) -> object:
        cpu = time.process_time()
        engine = self.make(source, self.threads)
        self.cpu += time.process_time() - cpu
        return engine


def stock_rapidocr_cpu(scanned: bytes, dpi: int, threads: int) -> float:
    """The reference: CPU seconds a page of RapidOCR's own pipeline takes on the same
    page pictures (its default detector size and batches, no direction classifier, the
    character boxes asked for: what cvagent ran before it drove the engine itself),
    engine start left out."""
    import pypdfium2
    from rapidocr_onnxruntime import RapidOCR

    engine = RapidOCR(use_cls=False, intra_op_num_threads=threads, inter_op_num_threads=threads)
    document = pypdfium2.PdfDocument(scanned)
    try:
        cpu = time.process_time()
        for page in document:
            engine(page.render(scale=dpi / 72).to_numpy()[:, :, :3], return_word_box=True)
        return (time.process_time() - cpu) / len(document)
    finally:
        document.close()


def measure(
    item: ia.Item,
    dpi: int,
    text_layer_coverage: float,
    timed: _Timed,
    reference: bool,
    scanner: bool = False,
) -> OcrScore:
    from cvagent_cli.formats.reading.importer import import_bytes

    key = item.path.relative_to(item.path.parents[1]).as_posix()
    seed = int(hashlib.sha1(key.encode()).hexdigest()[:8], 16) if scanner else None
    scanned = image_only_pdf(item.path.read_bytes(), dpi, scanner=seed)
    pages = int(item.truth.get("pages", 1))
    score = ia.FileScore(item.path.name, item.producer, item.lang, item.split, "ocr", pages)
    timed.cpu = 0.0
    wall, cpu = time.perf_counter(), time.process_time()
    error = ""
    try:
        markdown = import_bytes(scanned, item.path.name, ".pdf").markdown
    except Exception as exc:  # a file OCR cannot read scores zero
        markdown, error = "", f"{type(exc).__name__}: {exc}"[:200]
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    ia.score_markdown(markdown, item.truth, score)
    return OcrScore(
        file=key,
        split=item.split,
        lang=item.lang,
        dpi=dpi,
        scanner=scanner,
        name_read=next((m[6:] for m in score.misses if m.startswith("name: ")), ""),
        pages=pages,
        name=score.name,
        sections_found=score.sections_found,
        sections_total=score.sections_total,
        bullets_exact=score.bullets_exact,
        entries_total=score.entries_total,
        coverage=score.coverage,
        text_layer_coverage=text_layer_coverage,
        wall_per_page=wall / pages,
        cpu_per_page=cpu / pages,
        start_cpu=timed.cpu,
        reference_cpu_per_page=stock_rapidocr_cpu(scanned, dpi, timed.threads) if reference else 0,
        error=error,
    )


def summary(scores: list[OcrScore]) -> str:
    """The table: per split and resolution; CPU seconds a page with the engine's start
    (a one-page file pays it whole) and without it, and against stock RapidOCR on the same
    pictures in the same run (with ``--reference``)."""
    rows = [
        "| split | dpi | files | name | section titles | exact bullets | coverage (text layer) "
        "| CPU s/page (median, max) | without the engine start | × stock RapidOCR |"
    ]
    rows.append("|---|---|---|---|---|---|---|---|---|---|")
    for split in ("dev", "heldout"):
        for dpi, scanner in sorted({(s.dpi, s.scanner) for s in scores}):
            group = [
                s for s in scores if s.split == split and s.dpi == dpi and s.scanner == scanner
            ]
            if not group:
                continue
            found = sum(s.sections_found for s in group)
            total = sum(s.sections_total for s in group)
            cpu = [s.cpu_per_page for s in group]
            work = [s.cpu_per_page - s.start_cpu / s.pages for s in group]
            ratios = [
                w / s.reference_cpu_per_page
                for w, s in zip(work, group, strict=True)
                if s.reference_cpu_per_page
            ]
            rows.append(
                f"| {split} | {dpi}{' scanner' if scanner else ''} | {len(group)} | {sum(s.name for s in group)}/{len(group)} "
                f"| {found}/{total} ({found / max(total, 1):.1%}) "
                f"| {sum(s.bullets_exact for s in group)}/{sum(s.entries_total for s in group)} "
                f"| {statistics.mean(s.coverage for s in group):.1%} "
                f"({statistics.mean(s.text_layer_coverage for s in group):.1%}) "
                f"| {statistics.median(cpu):.2f}, {max(cpu):.2f} "
                f"| {statistics.median(work):.2f}, {max(work):.2f} "
                f"| {f'{statistics.median(ratios):.2f}' if ratios else '—'} |"
            )
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dpi", type=int, nargs="+", default=[150, 300])
    parser.add_argument(
        "--corpus",
        type=Path,
        default=ia.CORPUS,
        help="another corpus (import_corpus/make_extra.py)",
    )
    parser.add_argument("--split", choices=["dev", "heldout", "both"], default="both")
    parser.add_argument(
        "--limit", type=int, default=0, help="at most this many files a split, one a producer first"
    )
    parser.add_argument(
        "--threads", type=int, default=1, help="engine threads (1: the per-core target)"
    )
    parser.add_argument(
        "--reference",
        action="store_true",
        help="also time stock RapidOCR on the same pictures (the ratio column)",
    )
    parser.add_argument(
        "--only",
        metavar="TEXT",
        action="append",
        help="files whose path contains TEXT (repeatable)",
    )
    parser.add_argument(
        "--scanner",
        action="store_true",
        help="make each page look scanned (turned, grey paper, blur, noise, JPEG 60)",
    )
    parser.add_argument("--per-file", action="store_true")
    parser.add_argument("--json", type=Path, help="write every file's scores here")
    args = parser.parse_args(argv)
    items = [it for it in ia.load_corpus(args.corpus) if it.path.suffix == ".pdf"]
    if args.split != "both":
        items = [it for it in items if it.split == args.split]
    if args.only:
        items = [it for it in items if any(text in str(it.path) for text in args.only)]
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
    timed = _Timed(args.threads)
    text_layer = {s.file: s.coverage for s in ia.evaluate(items, "cvagent", ia.read_cvagent)}
    scores: list[OcrScore] = []
    for item in items:
        key = item.path.relative_to(item.path.parents[1]).as_posix()
        for dpi in args.dpi:
            score = measure(
                item, dpi, text_layer.get(key, 0.0), timed, args.reference, args.scanner
            )
            scores.append(score)
            if args.per_file:
                print(
                    f"{score.file} {dpi} dpi{' scanner' if args.scanner else ''}: "
                    f"name {score.name or score.name_read}, sections "
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
