"""Scanned (image-only) PDFs read by OCR, the `ocr` extra (documents/reading/ocr.py).

Two corpus pages of the dev split are drawn as images (what a scanner gives) and imported:
the name and the section titles must come out as with the text layer.  The full measure
(both splits, 150 and 300 dpi, seconds per page) is bench/ocr_accuracy.py.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from cvagent_cli.errors import InputError
from cvagent_cli.formats.reading import ocr, ocr_page
from cvagent_cli.formats.reading.importer import import_bytes
from cvagent_cli.formats.reading.pdf_layout import make_lines
from cvagent_cli.formats.reading.structure import Recognition

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

from ocr_accuracy import image_only_pdf  # noqa: E402

CORPUS = ROOT / "tests" / "formats" / "import_corpus"


@pytest.mark.parametrize(
    "name",
    [
        "rendercv-classic/en-01",
        "rendercv-sb2nov/zh-01",
        "libreoffice-wps-habits/zh-01",  # the name only in a "姓　　名" grid, a 照片 box above
    ],
)
def test_a_scanned_page_reads_its_name_and_section_titles(name: str) -> None:
    pytest.importorskip("rapidocr_onnxruntime", reason="the ocr extra (in the test extra)")
    truth = json.loads((CORPUS / f"{name}.truth.json").read_text(encoding="utf-8"))
    scan = image_only_pdf((CORPUS / f"{name}.pdf").read_bytes(), dpi=200, pages=1)
    calls: list[tuple[int, int]] = []
    result = import_bytes(scan, "scan.pdf", ".pdf", lambda done, total: calls.append((done, total)))
    headings = [ln.lstrip("#").strip() for ln in result.markdown.splitlines() if ln.startswith("#")]
    assert headings[0].replace(" ", "") == truth["name"].replace(" ", "")
    titles = [t for t in truth["sections"] if t in result.markdown]  # those on page 1
    found = [t for t in titles if t in headings]
    assert len(titles) >= 2 and len(found) >= 0.9 * len(titles), (found, titles)
    assert calls == [(0, 1), (1, 1)]
    assert any("read by OCR" in w for w in result.warnings)


def test_english_at_150_dpi_keeps_the_spaces_between_its_words() -> None:
    # the model drops most spaces of 10 pt English at 150 dpi ("forturning"): 54% of the
    # words came out whole before word breaks were read from the picture
    pytest.importorskip("rapidocr_onnxruntime", reason="the ocr extra (in the test extra)")
    import import_accuracy as ia

    truth = json.loads((CORPUS / "latex-jake/en-01.truth.json").read_text(encoding="utf-8"))
    scan = image_only_pdf((CORPUS / "latex-jake/en-01.pdf").read_bytes(), dpi=150, pages=1)
    markdown = import_bytes(scan, "scan.pdf", ".pdf").markdown
    want, got = ia.tokens(truth["text"]), ia.tokens(markdown)
    kept = sum(min(n, got[t]) for t, n in want.items())
    assert kept >= 0.95 * sum(want.values()), markdown


def test_without_the_ocr_extra_a_scan_is_refused_with_the_install_hint(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "rapidocr_onnxruntime", None)  # import fails
    scan = image_only_pdf((CORPUS / "rendercv-classic/en-01.pdf").read_bytes(), dpi=50, pages=1)
    with pytest.raises(InputError, match=r"has no text layer .*OCR is not installed") as err:
        import_bytes(scan, "scan.pdf", ".pdf")
    assert "[ocr]" in (err.value.hint or "")


def test_a_long_scan_is_read_up_to_the_page_budget_with_a_warning(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    read_pages: list[int] = []

    def page_glyphs(engine: object, page: object) -> ocr.ScannedPage:
        read_pages.append(1)
        return ocr.ScannedPage([])

    monkeypatch.setattr(ocr, "_engine", lambda source, threads: object())
    monkeypatch.setattr(ocr, "page_glyphs", page_glyphs)
    pages = 8
    scan = image_only_pdf((CORPUS / "rendercv-classic/en-01.pdf").read_bytes(), dpi=30)
    scan = _repeat_pages(scan, pages)
    recognition = Recognition()
    calls: list[tuple[int, int]] = []
    numbers = list(range(pages))
    read = ocr.read_pages(scan, "scan.pdf", numbers, recognition, lambda d, t: calls.append((d, t)))
    assert len(read) == len(read_pages) == ocr.OCR_PAGE_BUDGET < pages
    assert calls == [(i, ocr.OCR_PAGE_BUDGET) for i in range(ocr.OCR_PAGE_BUDGET + 1)]
    assert any(f"only the first {ocr.OCR_PAGE_BUDGET} pages" in w for w in recognition.warnings)


def test_in_a_pdf_whose_second_page_is_a_scan_only_that_page_is_read_by_ocr() -> None:
    pytest.importorskip("rapidocr_onnxruntime", reason="the ocr extra (in the test extra)")
    import pdfplumber

    with pdfplumber.open(io.BytesIO(MIXED_SOURCE.read_bytes())) as pdf:
        words = pdf.pages[1].extract_text().split()
    calls: list[tuple[int, int]] = []
    result = import_bytes(_mixed_pdf(), "mixed.pdf", ".pdf", lambda d, t: calls.append((d, t)))
    assert calls == [(0, 1), (1, 1)]  # one page read by OCR
    long_words = [w for w in words if len(w) >= 8 and w.isalpha()][:8]
    found = [w for w in long_words if w in result.markdown]
    assert len(long_words) >= 4 and len(found) >= 0.75 * len(long_words), (found, long_words)
    assert "# Odalys Valderrama" in result.markdown  # page 1 from its text layer
    assert any("read by OCR from 1 page image" in w for w in result.warnings)


def test_without_the_ocr_extra_a_pdf_with_one_scanned_page_imports_the_others(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "rapidocr_onnxruntime", None)  # import fails
    result = import_bytes(_mixed_pdf(), "mixed.pdf", ".pdf")
    assert "# Odalys Valderrama" in result.markdown
    (warning,) = [w for w in result.warnings if "page 2 of mixed.pdf" in w]
    assert "no text layer" in warning and "[ocr]" in warning


def test_a_page_with_a_typed_header_over_a_scan_is_read_by_ocr_below_the_header(
    tmp_path: Path,
) -> None:
    # a scanned page (a picture over most of it) whose text layer is only a line typed on
    # top: the scan is read by OCR, the typed line from the text layer, once
    pytest.importorskip("rapidocr_onnxruntime", reason="the ocr extra (in the test extra)")
    typst = pytest.importorskip("typst")
    import pypdfium2

    source = CORPUS / "latex-jake/en-01"
    truth = json.loads(source.with_suffix(".truth.json").read_text(encoding="utf-8"))
    page = pypdfium2.PdfDocument(source.with_suffix(".pdf").read_bytes())[0]
    page.render(scale=150 / 72, grayscale=True).to_pil().save(tmp_path / "scan.png")
    (tmp_path / "page.typ").write_text(
        "#set page(width: 612pt, height: 792pt, margin: 0pt)\n"
        "#place(top + left, dx: 40pt, dy: 14pt, text(9pt)[Received 2026-03-02, file 4471])\n"
        '#place(top + left, dx: 26pt, dy: 40pt, image("scan.png", width: 560pt))\n',
        encoding="utf-8",
    )
    pdf = typst.compile(str(tmp_path / "page.typ"), root=str(tmp_path), format="pdf")
    calls: list[tuple[int, int]] = []
    result = import_bytes(pdf, "scan.pdf", ".pdf", lambda d, t: calls.append((d, t)))
    assert calls == [(0, 1), (1, 1)]
    assert result.markdown.count("4471") == 1  # typed, and seen by OCR: read once
    words = [w.lower() for w in truth["text"].split() if len(w) >= 8 and w.isalpha()][:12]
    found = [w for w in words if w in result.markdown.lower()]  # (titles set in capitals)
    assert len(found) >= 0.75 * len(words), (found, words)


MIXED_SOURCE = CORPUS / "jsonresume-stackoverflow/en-01.pdf"


def _mixed_pdf() -> bytes:
    """A two-page resume whose second page is a scan (drawn at 150 dpi, no text layer)."""
    import pypdfium2

    original = MIXED_SOURCE.read_bytes()
    scanned = pypdfium2.PdfDocument(image_only_pdf(original, dpi=150))
    mixed = pypdfium2.PdfDocument(original)
    mixed.del_page(1)
    mixed.import_pages(scanned, [1])
    buffer = io.BytesIO()
    mixed.save(buffer)
    return buffer.getvalue()


def _repeat_pages(pdf: bytes, count: int) -> bytes:
    import pypdfium2

    source = pypdfium2.PdfDocument(pdf)
    out = pypdfium2.PdfDocument.new()
    for _ in range(count):
        out.import_pages(source, [0])
    buffer = io.BytesIO()
    out.save(buffer)
    return buffer.getvalue()


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pty")
@pytest.mark.parametrize(
    ("command", "markdown"),
    [(["import"], True), (["analyze"], False), (["chat", "-m", "shorter summary"], True)],
)
def test_a_scan_shows_a_page_bar_on_a_terminal_and_says_ocr_read_it(
    tmp_path: Path, command: list[str], markdown: bool
) -> None:
    pytest.importorskip("rapidocr_onnxruntime", reason="the ocr extra (in the test extra)")
    pexpect = pytest.importorskip("pexpect")
    scan = tmp_path / "scan.pdf"
    scan.write_bytes(image_only_pdf((CORPUS / "rendercv-classic/en-01.pdf").read_bytes(), 150, 1))
    child = pexpect.spawn(
        sys.executable,
        ["-m", "cvagent_cli", command[0], str(scan), *command[1:]],
        env=_env(),
        cwd=str(tmp_path),
        encoding="utf-8",
        timeout=300,
        dimensions=(40, 120),
    )
    out = child.read()
    child.close()
    assert "reading the scanned pages (OCR)" in out and "0/1 pages" in out, out
    # the warning that stays after the bar is gone (wrapped to the terminal's width)
    assert "read by OCR" in " ".join(out.split()), out
    if command[0] == "analyze":
        assert child.exitstatus == 0, out
        assert "Anselm Eberhardt" in out  # the report, of the text OCR read
    if markdown:  # (chat with no model imports, then stops: exit 3)
        assert "# Anselm Eberhardt" in (tmp_path / "scan.md").read_text(encoding="utf-8")


@pytest.mark.slow
def test_analyze_of_a_scan_in_a_pipe_draws_no_bar_and_warns_once(tmp_path: Path) -> None:
    pytest.importorskip("rapidocr_onnxruntime", reason="the ocr extra (in the test extra)")
    scan = tmp_path / "scan.pdf"
    scan.write_bytes(image_only_pdf((CORPUS / "rendercv-classic/en-01.pdf").read_bytes(), 150, 1))
    done = subprocess.run(
        [sys.executable, "-m", "cvagent_cli", "analyze", str(scan)],
        env=_env(),
        cwd=str(tmp_path),
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "pages" not in done.stderr and "\x1b" not in done.stderr
    warnings = [ln for ln in done.stderr.splitlines() if "read by OCR" in ln]
    assert len(warnings) == 1 and warnings[0].startswith("cvagent: warning: "), done.stderr


def _env() -> dict[str, str]:
    env = dict(os.environ, NO_COLOR="1", PYTHONIOENCODING="utf-8")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    return env


def _line(widths_and_gaps: list[tuple[int, int]], left: int = 4) -> tuple[np.ndarray, list[float]]:
    """A line's picture: black letters (width, gap after it) 12 px high on white, 20 px
    high in all, and each letter's centre."""
    crop = np.full((20, 400), 255, dtype=np.uint8)
    centers, x = [], left
    for width, gap in widths_and_gaps:
        crop[4:16, x : x + width] = 0
        centers.append(x + width / 2)
        x += width + gap
    return crop, centers


def _read(text: str, crop: np.ndarray, centers: list[float]) -> list[str]:
    box = np.array([[0, 0], [crop.shape[1], 0], [crop.shape[1], 20], [0, 20]], dtype=np.float32)
    glyphs = ocr_page.line_glyphs(text, centers, crop, box)
    return [line.text() for line in make_lines(glyphs, [], 0)]


def test_a_word_break_the_model_did_not_read_comes_from_the_blank_run_in_the_picture() -> None:
    # "Led40teams": the model dropped the spaces; letters sit 1 px apart, words 5 px
    # (a space is about a third of the ink's height, 12 px)
    crop, centers = _line([(6, 1), (6, 1), (6, 5), (6, 1), (6, 5), *[(6, 1)] * 5])
    assert _read("Led40teams", crop, centers) == ["Led 40 teams"]


def test_letters_spaced_apart_stay_one_word() -> None:
    # "SUMMARY" letter-spaced by 4 px (a third of the ink's height) is one word
    crop, centers = _line([(6, 4)] * 7)
    assert _read("SUMMARY", crop, centers) == ["SUMMARY"]


def test_a_round_bullet_read_as_a_letter_is_a_mark() -> None:
    # "oLed 40teams": the engine read the round bullet as the letter o, and one space
    crop, centers = _line([(6, 8), (6, 1), (6, 1), (6, 5), (6, 1), (6, 5), *[(6, 1)] * 5])
    box = np.array([[0, 0], [400, 0], [400, 20], [0, 20]], dtype=np.float32)
    glyphs = ocr_page.line_glyphs("oLed 40teams", [*centers[:4], 0.0, *centers[4:]], crop, box)
    (line,) = make_lines(glyphs, [], 0)
    assert line.bullet
    assert line.text() == "Led 40 teams"


def test_a_small_dot_left_of_a_line_is_its_bullet() -> None:
    # the detector leaves a bullet dot out of the line's box: it is found in the picture
    page = np.full((40, 400), 255, dtype=np.uint8)
    page[17:21, 10:14] = 0  # the dot, level with the text
    crop, centers = _line([(6, 1)] * 4, left=0)
    page[10:30, 30:] = crop[:, :370]
    glyphs = ocr_page.line_glyphs(
        "Item", centers, crop, np.array([[30, 10], [430, 10], [430, 30], [30, 30]], np.float32)
    )
    glyphs = ocr_page._bullet_left_of(page, glyphs[0], 1.0) + glyphs
    (line,) = make_lines(glyphs, [], 0)
    assert line.bullet and line.text() == "Item"


def test_a_word_gap_in_a_heading_does_not_split_it_into_cells() -> None:
    # "WORK EXPERIENCE": between the ink of two words lie the space and both letters' side
    # bearings, wider than half an em; the layout reader would read "WORK | EXPERIENCE"
    crop, centers = _line([(6, 1)] * 3 + [(6, 9)] + [(6, 1)] * 10)
    box = np.array([[0, 0], [400, 0], [400, 20], [0, 20]], dtype=np.float32)
    glyphs = ocr_page.line_glyphs("WORK EXPERIENCE", [*centers[:4], 0.0, *centers[4:]], crop, box)
    (line,) = make_lines(glyphs, [], 0)
    assert line.text() == "WORK EXPERIENCE"
    assert len(line.cells()) == 1
    assert len(line.edge_cells(lambda t: True)) == 1


def test_a_short_line_is_read_at_its_own_width_not_padded_to_a_long_one() -> None:
    # RapidOCR pads every line to at least 320 columns at its 48 px height: a date or a
    # heading cost as much as a full line (12% of the recognition time on the dev pages)
    pytest.importorskip("rapidocr_onnxruntime", reason="the ocr extra (in the test extra)")
    import cv2

    engine = ocr._engine("scan.pdf", 1)
    widths: list[int] = []
    run = engine.text_rec.session.session.run

    def recorded(names: object, feed: dict[str, np.ndarray]) -> object:
        widths.append(next(iter(feed.values())).shape[-1])
        return run(names, feed)

    engine.text_rec.session.session.run = recorded
    page = np.full((80, 400), 255, np.uint8)
    cv2.putText(page, "2019-2021", (10, 55), cv2.FONT_HERSHEY_SIMPLEX, 1.2, 0, 3)
    line = page[20:70, 5:230]  # about 4.5 times as wide as it is high
    read, _ = engine.text_rec([cv2.cvtColor(line, cv2.COLOR_GRAY2BGR)], True)
    assert read[0][0].replace(" ", "") == "2019-2021"
    assert widths == [48 * line.shape[1] // line.shape[0]]  # 216, not 320


def test_the_rules_painted_out_of_a_scan_are_kept_as_lines_in_points() -> None:
    page = np.full((300, 400), 255, np.uint8)
    for y in (50, 100, 150):  # a grid of two rows and three columns, 2 px rules
        page[y : y + 2, 20:380] = 0
    for x in (20, 150, 378):
        page[50:152, x : x + 2] = 0
    page[70:80, 40:120] = 0  # a word in a cell: not a rule
    clean, drawn = ocr_page.without_rules(page, 2.0)
    assert (clean[50:52, 20:380] == 255).mean() > 0.99 and clean[70:80, 40:120].max() == 0
    across = sorted(d["top"] for d in drawn if d["top"] == d["bottom"])
    down = sorted(d["x0"] for d in drawn if d["x0"] == d["x1"])
    assert across == pytest.approx([25.5, 50.5, 75.5]) and down == pytest.approx(
        [10.5, 75.5, 189.5]
    )


@pytest.mark.slow
def test_a_scanned_details_grid_of_narrow_cells_reads_its_rows_and_the_name(tmp_path: Path) -> None:
    # the grid's rules are painted out for the recognizer and kept as the table's grid:
    # a label or a value wrapped in its narrow cell ("Nam" / "e") is one cell
    pytest.importorskip("rapidocr_onnxruntime", reason="the ocr extra (in the test extra)")
    typst = pytest.importorskip("typst")
    source = (
        "#set page(width: 595pt, height: 842pt, margin: 60pt)\n#set text(size: 10pt)\n"
        "#align(center, text(16pt)[Resume])\n*Personal Details*\n"
        "#table(columns: (40pt, 70pt, 40pt, 80pt, 40pt, 80pt), stroke: 0.7pt,\n"
        "  [Name], [Anouk Thornquist], [Phone], [(303) 555-0176], [Email],"
        " [anouk.t\\@example.net],\n"
        "  [City], [Madison, WI], [Role], [Platform Web Engineer], [Site], [anouktho.example])\n"
        "*Experience*\n\n*Brambleway Logistics* #h(1fr) 2021 – 2024\n"
        "- Built a deploy pipeline used by eighteen teams across two regions.\n"
    )
    (tmp_path / "grid.typ").write_text(source, encoding="utf-8")
    pdf = typst.compile(str(tmp_path / "grid.typ"), format="pdf")
    md = import_bytes(image_only_pdf(pdf, dpi=150), "scan.pdf", ".pdf").markdown
    assert md.startswith("# Anouk Thornquist\n"), md[:300]
    assert "Name | Anouk Thornquist | Phone | (303) 555-0176" in md, md[:300]
