"""The gallery (docs/gallery.md, docs/gallery/*.png) shows what the code draws today: the
page is the one docs/generate_gallery.py writes, and every image matches a fresh rendering
within the tolerance of the golden images (tests/formats/test_visual.py).  After a change
to a template or a writer, the failure names the one command that makes them again."""

from __future__ import annotations

import importlib.util
from types import ModuleType

import pytest

from tests.conftest import ROOT
from tests.formats.test_visual import TOLERANCE, differing_share

REGENERATE = "python docs/generate_gallery.py"


def _gallery() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "generate_gallery", ROOT / "docs/generate_gallery.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GALLERY = _gallery()
PAIRS = [(t, s) for t in GALLERY.templates() for s in GALLERY.SAMPLES]


def _out_of_date(name: str, why: str) -> str:
    return f"docs/gallery/{name} {why}: the gallery is out of date; run `{REGENERATE}` and look at the images"


def test_the_gallery_page_is_the_generated_one() -> None:
    with_docx = (GALLERY.IMAGES / GALLERY.image_name(*PAIRS[0], "docx")).exists()
    assert GALLERY.PAGE.read_text(encoding="utf-8") == GALLERY.page_text(with_docx), (
        f"docs/gallery.md is out of date: run `{REGENERATE}`"
    )
    assert GALLERY.COMMAND == REGENERATE


@pytest.mark.parametrize(("template", "sample"), PAIRS)
def test_every_pdf_image_is_what_the_code_draws(template: str, sample: str) -> None:
    name = GALLERY.image_name(template, sample, "pdf")
    stored = GALLERY.IMAGES / name
    assert stored.exists(), _out_of_date(name, "is missing")
    share = differing_share(GALLERY.pdf_page(template, sample), stored.read_bytes())
    assert share <= TOLERANCE, _out_of_date(name, f"differs in {share:.2%} of its pixels")


@pytest.mark.slow  # LibreOffice starts as a process
def test_every_word_image_is_what_libreoffice_draws_of_the_code() -> None:
    if not GALLERY.can_draw_docx():
        pytest.skip("LibreOffice (soffice) or pdftoppm is not installed")
    for name, page in GALLERY.docx_pages(PAIRS).items():
        stored = GALLERY.IMAGES / name
        assert stored.exists(), _out_of_date(name, "is missing")
        share = differing_share(page, stored.read_bytes())
        assert share <= TOLERANCE, _out_of_date(name, f"differs in {share:.2%} of its pixels")


def test_the_images_are_small_and_every_one_is_on_the_page() -> None:
    from PIL import Image

    page = GALLERY.PAGE.read_text(encoding="utf-8")
    images = sorted(GALLERY.IMAGES.glob("*.png"))
    assert len(images) in (len(PAIRS), 2 * len(PAIRS))
    for image in images:
        assert f"(gallery/{image.name})" in page
        assert image.stat().st_size < 80_000, image.name
        with Image.open(image) as opened:
            assert opened.size[0] <= 80 * 210 / 25.4  # 80 dpi across an A4 page


def test_the_readme_and_the_user_guide_link_the_gallery() -> None:
    assert "(docs/gallery.md)" in (ROOT / "README.md").read_text(encoding="utf-8")
    assert "(gallery.md)" in (ROOT / "docs/user-guide.md").read_text(encoding="utf-8")
