"""Image-only PDF pages (a scan, a design tool's text drawn as outlines) read by OCR.

The optional ``ocr`` extra installs RapidOCR (``rapidocr-onnxruntime``, Apache-2.0), whose
wheel carries PP-OCRv4's detection and recognition models for Chinese and English: nothing
is downloaded when it runs.  pypdfium2 (installed with pdfplumber) draws each page that
needs it (every page of a PDF with no text at all; in a PDF with a text layer, the scans
among its pages: ``pdf_import._scanned``); ``ocr_page`` finds the text lines, reads them and
places every character by the page's own pixels.  Each character becomes a ``Glyph`` like
the ones a text layer gives, so ``pdf_import`` reads columns, rows, headings and bullets of
a scanned page the same way as of any other.

What OCR cannot see is left as a text layer would leave it: no bold, no font names; sizes
come from the height of each line's ink.  The reader notes that the text came from OCR.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from cvagent_cli.errors import InputError
from cvagent_cli.formats.reading.pdf_glyphs import Glyph
from cvagent_cli.formats.reading.structure import Recognition
from cvagent_cli.install import extra_install_command

#: Pages read by OCR: about 3 s each on one core, where a text layer takes 0.15 s.  A
#: resume has one to three; a longer scan is read up to here, with a warning.
OCR_PAGE_BUDGET = 6
#: The resolution a page is drawn at for the engine: the resolution of its scan (drawing a
#: 150 dpi scan larger only blurs it), between these bounds; this one when it has no picture.
OCR_DPI = 200
_DPI_RANGE = (100, 300)
#: Called before each page is read and once at the end: (pages done, pages to read).
PageProgress = Callable[[int, int], None]


def ocr_hint() -> str:
    return extra_install_command("ocr")


class OcrNotInstalled(InputError):
    """A page needs OCR, and the ocr extra is not installed."""


def _engine(source: str, threads: int) -> Any:
    try:
        from rapidocr_onnxruntime import RapidOCR  # lazy: onnxruntime and OpenCV are heavy
    except ImportError:
        raise OcrNotInstalled(
            f"{source} has no text layer (a scanned or image-only PDF), and OCR is not installed",
            hint=f"install the ocr extra: {ocr_hint()}; or export the PDF again from the "
            "program that made it, or type the text into a .md file",
        ) from None
    # Resumes are upright: the text-direction classifier only costs time.  Lines are read
    # one at a time (a batch pads each line to the longest one: 1.6× the time); ocr_page
    # finds them on a smaller picture of the page than the one it reads them from.
    engine = RapidOCR(
        use_cls=False,
        rec_batch_num=1,
        intra_op_num_threads=threads or -1,
        inter_op_num_threads=threads or -1,
    )
    # The recognizer pads every line to at least 320 px wide at its 48 px height, so a
    # short line ("2019 – 2021", a heading) cost as much as a long one; its model takes any
    # width, and read on its own width a line costs its own length: 12% less time on the
    # dev pages, with the same reading but for a few spaces it now sees ("Raleigh, NC").
    channels, height, _ = engine.text_rec.rec_image_shape
    engine.text_rec.rec_image_shape = [channels, height, height]
    engine.text_rec.postprocess_op = KeptScores(engine.text_rec.postprocess_op)
    return engine


class KeptScores:
    """The recognizer's decoder, keeping the scores it decoded last: for each column of
    the line's picture, every character's probability (``ocr_page.other_choices`` reads
    the characters it hesitated over)."""

    def __init__(self, decode: Any) -> None:
        self.decode = decode
        self.character: list[str] = decode.character
        self.scores: Any = None

    def __call__(self, preds: Any, *args: Any, **kwargs: Any) -> Any:
        self.scores = preds
        return self.decode(preds, *args, **kwargs)


@dataclass
class ScannedPage:
    """What OCR reads on a page picture: its glyphs, and the rules drawn on it as
    pdfplumber's line objects (a ruled table's grid), in points."""

    glyphs: list[Glyph]
    rules: list[dict[str, Any]] = field(default_factory=list)


def read_pages(
    data: bytes,
    source: str,
    numbers: list[int],
    recognition: Recognition,
    progress: PageProgress | None = None,
    threads: int = 0,
) -> dict[int, ScannedPage]:
    """What OCR reads on the pages ``numbers`` of the PDF ``data`` (the first
    ``OCR_PAGE_BUDGET`` of them), by page number; ``threads`` 0 lets the engine use every
    core.  Without the extra this refuses the file, saying how to install it."""
    engine = _engine(source, threads)
    import pypdfium2  # lazy: installed with pdfplumber, needed only here

    chosen = numbers[:OCR_PAGE_BUDGET]
    pages: dict[int, ScannedPage] = {}
    document = pypdfium2.PdfDocument(data)
    try:
        for done, number in enumerate(chosen):
            if progress is not None:
                progress(done, len(chosen))
            pages[number] = page_glyphs(engine, document[number])
    finally:
        document.close()
    if progress is not None:
        progress(len(chosen), len(chosen))
    count = len(chosen)
    recognition.warnings.append(
        f"no text layer: the text was read by OCR from {count} page "
        f"{'image' if count == 1 else 'images'}; check the name, numbers and dates "
        "against the original"
    )
    if len(numbers) > count:
        recognition.warnings.append(
            f"only the first {count} pages were read by OCR (about 3 s a page); "
            "export the PDF with its text layer to import the rest"
        )
    return pages


def page_glyphs(engine: Any, page: Any) -> ScannedPage:
    """What OCR reads on one pypdfium2 page, in PDF points from the page's top-left
    corner."""
    from cvagent_cli.formats.reading.ocr_page import picture_glyphs  # lazy: numpy, OpenCV

    scale = scan_dpi(page) / 72
    gray = page.render(scale=scale, grayscale=True).to_numpy()
    if gray.ndim == 3:
        gray = gray[:, :, 0]
    glyphs, rules = picture_glyphs(engine, gray, scale)
    return ScannedPage(glyphs, rules)


def scan_dpi(page: Any) -> float:
    """The resolution of the largest picture on the page (the scan), within ``_DPI_RANGE``."""
    # lazy: pypdfium2 loads only when a scanned page is drawn for OCR
    import pypdfium2

    best, area = float(OCR_DPI), 0.0
    for image in page.get_objects(filter=[pypdfium2.raw.FPDF_PAGEOBJ_IMAGE], max_depth=2):
        left, bottom, right, top = image.get_bounds()
        width_px, _ = image.get_px_size()
        if (right - left) * (top - bottom) > area and right - left > 1:
            area = (right - left) * (top - bottom)
            best = width_px * 72 / (right - left)
    low, high = _DPI_RANGE
    return min(max(best, low), high)
