"""Visual regression: page 1 of each template for an English and a Chinese sample, rendered
to PNG by typst, against the golden images in tests/formats/golden/.

A page may differ from its golden image in at most ``TOLERANCE`` of its pixels (a pixel
differs when a channel moves by more than ``THRESHOLD``): anti-aliasing may move a little
between machines, a layout change moves far more.  After a change made on purpose:

    pytest tests/formats/test_visual.py --update-golden

then look at every image that changed before committing it.  A missing golden image is a
failure, never written by the test itself without the flag.
"""

from __future__ import annotations

import io
from datetime import datetime, timezone
from pathlib import Path

import pytest

from cvagent_cli.formats.writing.pdf_export import render_png
from cvagent_cli.formats.writing.templates import TEMPLATES

GOLDEN = Path(__file__).parent / "golden"
SAMPLES = ("en_senior_backend", "zh_mid_java_table")
NOW = datetime(2026, 11, 25, 12, 0, tzinfo=timezone.utc)
PPI = 60
THRESHOLD = 48
TOLERANCE = 0.001


def differing_share(a: bytes, b: bytes) -> float:
    """The share of pixels that differ between two PNG images (1.0 when the sizes differ)."""
    from PIL import Image, ImageChops

    first = Image.open(io.BytesIO(a)).convert("RGB")
    second = Image.open(io.BytesIO(b)).convert("RGB")
    if first.size != second.size:
        return 1.0
    diff = ImageChops.difference(first, second).convert("L").point(lambda v: v > THRESHOLD)
    histogram = diff.histogram()
    return sum(histogram[1:]) / (first.size[0] * first.size[1])


@pytest.mark.parametrize("sample", SAMPLES)
@pytest.mark.parametrize("template", TEMPLATES)
def test_page_one_looks_like_its_golden_image(
    template: str, sample: str, request: pytest.FixtureRequest
) -> None:
    markdown = Path("sample_resumes", f"{sample}.md").read_text(encoding="utf-8")
    page = render_png(markdown, template, ppi=PPI, now=NOW)[0]
    golden = GOLDEN / f"{template}-{sample}.png"
    if request.config.getoption("--update-golden"):
        GOLDEN.mkdir(exist_ok=True)
        golden.write_bytes(page)
        return
    assert golden.exists(), f"no golden image {golden.name}: run pytest with --update-golden"
    share = differing_share(page, golden.read_bytes())
    assert share <= TOLERANCE, f"{share:.2%} of the pixels differ from {golden.name}"


def test_the_comparison_sees_a_changed_layout() -> None:
    markdown = Path("sample_resumes", "en_senior_backend.md").read_text(encoding="utf-8")
    classic = render_png(markdown, "classic", ppi=PPI, now=NOW)[0]
    moved = render_png(
        markdown.replace("## Summary", "## Summary\n\nOne more line."), ppi=PPI, now=NOW
    )
    assert differing_share(classic, classic) == 0
    assert differing_share(classic, moved[0]) > TOLERANCE
