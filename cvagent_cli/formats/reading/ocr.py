"""Image-only PDF pages (a scan, a design tool's text drawn as outlines) read by OCR.

The optional ``ocr`` extra installs RapidOCR (``rapidocr-onnxruntime``, Apache-2.0), whose
wheel carries PP-OCRv4's detection and recognition models for Chinese and English: nothing
is downloaded when it runs.  pypdfium2 (installed with pdfplumber) draws each page; the
engine finds its text lines and places every character in them.  Each character becomes a
``Glyph`` like the ones a text layer gives, so ``pdf_import`` reads columns, rows, headings
and bullets of a scanned page the same way as of any other.

What OCR cannot see is left as a text layer would leave it: no bold, no font names; sizes
come from the height of each line.  The reader notes that the text came from OCR.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cvagent_cli.errors import InputError
from cvagent_cli.formats.reading.pdf_glyphs import Glyph
from cvagent_cli.formats.reading.pdf_layout import cjk
from cvagent_cli.formats.reading.structure import Recognition
from cvagent_cli.install import extra_install_command

#: Pages read by OCR: about 1–3 s each on one core, where a text layer takes 0.15 s.  A
#: resume has one to three; a longer scan is read up to here, with a warning.
OCR_PAGE_BUDGET = 6
#: The resolution a page is drawn at for the engine: the resolution of its scan (drawing a
#: 150 dpi scan larger only blurs it), between these bounds; this one when it has no picture.
OCR_DPI = 200
_DPI_RANGE = (100, 300)
#: Called before each page is read and once at the end: (pages done, pages to read).
PageProgress = Callable[[int, int], None]
#: A bullet as OCR reads it at the start of a line.
_BULLETS = frozenset("·•●◦▪■□◆◇►▶▸➢➤✓✔-–*")
#: Round bullets as the engine reads them when a letter follows without a space.
_ROUND_BULLETS = frozenset("oO0○◦。°")
#: In a line read with no space, a gap between two letters wider than this share of the
#: line's height is a word break (inside a word the engine's boxes leave up to ~0.13; a
#: dropped space ~0.23 or more, at 150 dpi).
_SPACE_GAP = 0.22
#: The width of a word space, as a share of the line box's height.
_NARROW_SPACE = 0.25
#: The share of a line box's height that is the font size (the box has room above and below).
_SIZE_OF_HEIGHT = 0.8


def ocr_hint() -> str:
    return extra_install_command("ocr")


def _engine(source: str, threads: int) -> Any:
    try:
        from rapidocr_onnxruntime import RapidOCR  # lazy: onnxruntime and OpenCV are heavy
    except ImportError:
        raise InputError(
            f"{source} has no text layer (a scanned or image-only PDF), and OCR is not installed",
            hint=f"install the ocr extra: {ocr_hint()}; or export the PDF again from the "
            "program that made it, or type the text into a .md file",
        ) from None
    # Resumes are upright: the text-direction classifier only costs time.
    # Lines are found on the page drawn at most 1,280 px high (a 10 pt line is then ~17 px,
    # plenty to find it) and read from the page at OCR_DPI.
    return RapidOCR(
        use_cls=False,
        det_limit_type="max",
        det_limit_side_len=1280,
        intra_op_num_threads=threads or -1,
        inter_op_num_threads=threads or -1,
    )


def read_pages(
    data: bytes,
    source: str,
    count: int,
    recognition: Recognition,
    progress: PageProgress | None = None,
    threads: int = 0,
) -> list[list[Glyph]]:
    """The glyphs OCR reads on the first ``count`` pages of the PDF ``data`` (at most
    ``OCR_PAGE_BUDGET``); ``threads`` 0 lets the engine use every core.  Without the extra
    this refuses the file, saying how to install it."""
    engine = _engine(source, threads)
    import pypdfium2  # lazy: installed with pdfplumber, needed only here

    budget = min(count, OCR_PAGE_BUDGET)
    pages: list[list[Glyph]] = []
    document = pypdfium2.PdfDocument(data)
    try:
        for number in range(budget):
            if progress is not None:
                progress(number, budget)
            pages.append(page_glyphs(engine, document[number]))
    finally:
        document.close()
    if progress is not None:
        progress(budget, budget)
    recognition.images = 0  # the page pictures were read, not skipped
    recognition.warnings.append(
        f"no text layer: the text was read by OCR from {budget} page "
        f"{'image' if budget == 1 else 'images'}; check the name, numbers and dates "
        "against the original"
    )
    if count > budget:
        recognition.warnings.append(
            f"only the first {budget} pages were read by OCR (about 2 s a page); "
            "export the PDF with its text layer to import the rest"
        )
    return pages


def page_glyphs(engine: Any, page: Any) -> list[Glyph]:
    """The glyphs of one pypdfium2 page, in PDF points from the page's top-left corner."""
    scale = scan_dpi(page) / 72
    pixels = page.render(scale=scale).to_numpy()
    if pixels.ndim == 3 and pixels.shape[2] == 4:
        pixels = pixels[:, :, :3]  # BGRx → BGR, what the engine reads
    found, _ = engine(pixels, return_word_box=True)
    glyphs: list[Glyph] = []
    for row in found or ():
        box, chars, char_boxes = row[0], row[4], row[3]
        if len(chars) != len(char_boxes):
            continue  # the engine could not place this line's characters
        glyphs += _line_glyphs(box, chars, char_boxes, scale)
    return glyphs


def scan_dpi(page: Any) -> float:
    """The resolution of the largest picture on the page (the scan), within ``_DPI_RANGE``."""
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


def _line_glyphs(
    box: list[list[float]], chars: list[str], char_boxes: list[Any], scale: float
) -> list[Glyph]:
    """One detected line as glyphs on the line's own top and bottom (so that it is one row).
    Each character reaches to the next one: the engine's character boxes leave gaps inside
    words, which the layout reader would take for word breaks.  A word break is where the
    engine read a space, or in a line where it read none (its model drops the spaces of small
    English text), where the gap is a space wide; a leading dot is a bullet mark."""
    top = min(p[1] for p in box) / scale
    bottom = max(p[1] for p in box) / scale
    size = round((bottom - top) * _SIZE_OF_HEIGHT, 1)
    spans = [(min(p[0] for p in b) / scale, max(p[0] for p in b) / scale) for b in char_boxes]
    # The model reads the spaces of a line, or (small English text) none at all: only then
    # is a wide gap taken for a space, as inside words its boxes leave gaps too.
    gap = _SPACE_GAP * (bottom - top) if all(ch.strip() for ch in chars) else float("inf")
    glyphs: list[Glyph] = []
    for i, (ch, (x0, x1)) in enumerate(zip(chars, spans, strict=True)):
        end = spans[i + 1][0] if i + 1 < len(spans) else x1
        kind = "space" if not ch.strip() else "text"
        if i == 0 and _bullet(chars):
            glyphs.append(_glyph("•", x0, x1, top, bottom, size, "mark"))
            continue
        prev = glyphs[-1] if glyphs else None
        if (
            prev is not None
            and prev.kind == "text"
            and kind == "text"
            and x0 - prev.x1 > gap
            and not (cjk(prev.text) or cjk(ch))
        ):
            prev.x1 = prev.x1 + 0.1  # the gap stays, a space glyph marks the break
            glyphs.append(_glyph(" ", prev.x1, x0, top, bottom, size, "space"))
        elif prev is not None and prev.kind != "mark":
            prev.x1 = max(prev.x1, x0)  # reach to this character
        glyphs.append(
            _glyph(ch, x0, max(x1, end) if kind == "space" else x1, top, bottom, size, kind)
        )
    _narrow_spaces(glyphs, bottom - top)
    return glyphs


def _narrow_spaces(glyphs: list[Glyph], height: float) -> None:
    """A space the engine boxed wide (its boxes are a few pixels coarse) made as wide as a
    space, the word before it reaching to it: otherwise the layout reader takes a word
    break in a heading ("WORK EXPERIENCE") for a gap between two cells.  A gap of a line's
    height or more is left as it is (a date set apart at the right margin)."""
    for prev, space, after in zip(glyphs, glyphs[1:], glyphs[2:], strict=False):
        if space.kind != "space" or prev.kind != "text" or after.kind != "text":
            continue
        gap = after.x0 - prev.x1
        if _NARROW_SPACE * height < gap < height:
            prev.x1 = after.x0 - _NARROW_SPACE * height
            space.x0, space.x1 = prev.x1, after.x0


def _bullet(chars: list[str]) -> bool:
    """Does the line start with a list marker?  A dot or a dash, or a round bullet that the
    engine read as a letter ("oPresented", "。负责") before a capital or a Chinese word."""
    if len(chars) < 2:
        return False
    first, second = chars[0], chars[1]
    if first in _BULLETS:
        return True
    return first in _ROUND_BULLETS and (second.isupper() or cjk(second))


def _glyph(
    text: str, x0: float, x1: float, top: float, bottom: float, size: float, kind: str
) -> Glyph:
    return Glyph(
        text=text,
        x0=x0,
        x1=max(x1, x0 + 0.1),
        top=top,
        bottom=bottom,
        size=size,
        font="ocr",
        bold=False,
        kind=kind,
        base=(top + bottom) / 2,
    )
