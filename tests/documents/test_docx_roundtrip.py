from pathlib import Path

import pytest

from cvagent_cli.documents.docx_export import render_docx
from cvagent_cli.documents.docx_import import docx_to_markdown
from cvagent_cli.errors import InputError
from cvagent_cli.resume.analyzer import analyze
from cvagent_cli.resume.document import ResumeDocument
from tests.documents.test_html_export import SAMPLES

# Known gaps measured 2026-11-23 (tables and multi-line entries are not rebuilt yet): strict,
# so a fix turns these red and the marker must go.
KNOWN_GAPS = {"en_mid_data_analyst.md", "en_product_manager_table.md", "zh_new_grad.md"}


@pytest.mark.parametrize(
    "sample",
    [
        pytest.param(p, marks=pytest.mark.xfail(strict=True, reason="round-trip gap"))
        if p.name in KNOWN_GAPS
        else p
        for p in SAMPLES
    ],
    ids=lambda p: p.name,
)
def test_docx_round_trip_keeps_sections_and_score(sample: Path) -> None:
    original = sample.read_text(encoding="utf-8")
    back = docx_to_markdown(render_docx(original))
    a = ResumeDocument.from_text(original)
    b = ResumeDocument.from_text(back)
    assert [s.title for s in a.sections] == [s.title for s in b.sections]
    assert abs(analyze(a, None).score - analyze(b, None).score) <= 5


def test_corrupt_docx_is_a_clear_input_error() -> None:
    with pytest.raises(InputError, match="not a readable DOCX"):
        docx_to_markdown(b"PK\x03\x04 not really a zip")
