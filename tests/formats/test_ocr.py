"""Scanned (image-only) PDFs read by OCR, the `ocr` extra (documents/reading/ocr.py).

Two corpus pages of the dev split are drawn as images (what a scanner gives) and imported:
the name and the section titles must come out as with the text layer.  The full measure
(both splits, 150 and 300 dpi, seconds per page) is bench/ocr_accuracy.py.
"""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path

import pytest

from cvagent_cli.errors import InputError
from cvagent_cli.formats.reading import ocr
from cvagent_cli.formats.reading.importer import import_bytes
from cvagent_cli.formats.reading.pdf_layout import make_lines
from cvagent_cli.formats.reading.structure import Recognition

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

from ocr_accuracy import image_only_pdf  # noqa: E402

CORPUS = ROOT / "tests" / "formats" / "import_corpus"


@pytest.mark.parametrize("name", ["rendercv-classic/en-01", "rendercv-sb2nov/zh-01"])
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


def test_without_the_ocr_extra_a_scan_is_refused_with_the_install_hint(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "rapidocr_onnxruntime", None)  # import fails
    scan = image_only_pdf((CORPUS / "rendercv-classic/en-01.pdf").read_bytes(), dpi=50, pages=1)
    with pytest.raises(InputError, match=r"has no text layer .*OCR is not installed") as err:
        import_bytes(scan, "scan.pdf", ".pdf")
    assert "[ocr]" in (err.value.hint or "")


class _Engine:
    """RapidOCR's answer for a page: one line, its characters boxed."""

    def __call__(self, pixels: object, return_word_box: bool) -> tuple[list, list]:
        chars = list("Page one")
        boxes = [
            [[10 + 8 * i, 10], [16 + 8 * i, 10], [16 + 8 * i, 30], [10 + 8 * i, 30]]
            for i in range(8)
        ]
        return [[[[10, 10], [80, 10], [80, 30], [10, 30]], "Page one", 0.99, boxes, chars, []]], []


def test_a_long_scan_is_read_up_to_the_page_budget_with_a_warning(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(ocr, "_engine", lambda source, threads: _Engine())
    pages = 8
    scan = image_only_pdf((CORPUS / "rendercv-classic/en-01.pdf").read_bytes(), dpi=30)
    scan = _repeat_pages(scan, pages)
    recognition = Recognition()
    calls: list[tuple[int, int]] = []
    read = ocr.read_pages(scan, "scan.pdf", pages, recognition, lambda d, t: calls.append((d, t)))
    assert len(read) == ocr.OCR_PAGE_BUDGET < pages
    assert calls == [(i, ocr.OCR_PAGE_BUDGET) for i in range(ocr.OCR_PAGE_BUDGET + 1)]
    assert any(f"only the first {ocr.OCR_PAGE_BUDGET} pages" in w for w in recognition.warnings)


def _repeat_pages(pdf: bytes, count: int) -> bytes:
    import pypdfium2

    source = pypdfium2.PdfDocument(pdf)
    out = pypdfium2.PdfDocument.new()
    for _ in range(count):
        out.import_pages(source, [0])
    buffer = io.BytesIO()
    out.save(buffer)
    return buffer.getvalue()


def test_characters_join_into_words_at_the_engine_spaces_and_a_round_bullet_is_a_mark() -> None:
    # "oLed 40 teams": the engine's boxes leave gaps inside words, and read the round
    # bullet as the letter o; at 72 dpi a pixel is a point.
    chars = list("oLed 40 teams")
    x = [0, 14, 20, 27, 34, 40, 46, 53, 60, 66, 72, 78, 84]
    boxes = [[[x0, 0], [x0 + 5, 0], [x0 + 5, 12], [x0, 12]] for x0 in x]
    glyphs = ocr._line_glyphs([[0, 0], [90, 0], [90, 12], [0, 12]], chars, boxes, scale=1.0)
    assert glyphs[0].kind == "mark"
    (line,) = make_lines(glyphs, [], 0)
    assert line.bullet
    assert line.text() == "Led 40 teams"


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pty")
def test_cvagent_import_of_a_scan_shows_a_page_bar_on_a_terminal(tmp_path: Path) -> None:
    pytest.importorskip("rapidocr_onnxruntime", reason="the ocr extra (in the test extra)")
    pexpect = pytest.importorskip("pexpect")
    scan = tmp_path / "scan.pdf"
    scan.write_bytes(image_only_pdf((CORPUS / "rendercv-classic/en-01.pdf").read_bytes(), 150, 1))
    env = dict(os.environ, NO_COLOR="1", PYTHONIOENCODING="utf-8")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    child = pexpect.spawn(
        sys.executable,
        ["-m", "cvagent_cli", "import", str(scan)],
        env=env,
        cwd=str(tmp_path),
        encoding="utf-8",
        timeout=300,
        dimensions=(40, 120),
    )
    out = child.read()
    child.close()
    assert child.exitstatus == 0, out
    assert "reading the scanned pages (OCR)" in out and "0/1 pages" in out
    assert "read by OCR" in out  # the warning that stays after the bar is gone
    assert "# Anselm Eberhardt" in (tmp_path / "scan.md").read_text(encoding="utf-8")


def test_a_wide_space_box_is_narrowed_to_a_word_space() -> None:
    # "WORK EXPERIENCE" with the space boxed 8 pt wide on a 12 pt line: read as two cells
    # ("WORK | EXPERIENCE") unless the space is made a space wide.
    chars = list("WO KE")
    x = [0, 6, 12, 20, 26]
    boxes = [[[x0, 0], [x0 + 5, 0], [x0 + 5, 12], [x0, 12]] for x0 in x]
    glyphs = ocr._line_glyphs([[0, 0], [31, 0], [31, 12], [0, 12]], chars, boxes, scale=1.0)
    (line,) = make_lines(glyphs, [], 0)
    first, second = line.words
    assert second.x0 - first.x1 <= 0.25 * 12 + 1e-9
