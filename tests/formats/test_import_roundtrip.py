from pathlib import Path

import pytest

from cvagent_cli.document.document import ResumeDocument
from cvagent_cli.formats.reading.importer import import_bytes
from cvagent_cli.formats.writing.docx_export import render_docx
from cvagent_cli.formats.writing.html_export import render_html
from cvagent_cli.formats.writing.pdf_export import render_pdf
from tests.formats.test_html_export import SAMPLES
from tests.support.roundtrip import bullets, compare, contacts, printed, score, titles

RENDER = {"pdf": render_pdf, "docx": render_docx, "html": lambda md: render_html(md).encode()}


@pytest.mark.parametrize("fmt", ["pdf", "docx", "html"])
@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_export_then_import_keeps_the_resume(sample: Path, fmt: str) -> None:
    original = sample.read_text(encoding="utf-8")
    result = import_bytes(RENDER[fmt](original), sample.name, f".{fmt}", from_layout=True)
    a = ResumeDocument.from_text(original)
    b = ResumeDocument.from_text(result.markdown)
    assert titles(b) == titles(a)
    assert bullets(b) == bullets(a)
    assert contacts(b) == contacts(a)
    assert abs(score(b) - score(printed(original))) <= 5
    assert "\\." not in result.markdown and "\\@" not in result.markdown


def test_the_samples_are_all_there() -> None:
    assert len(SAMPLES) == 9


def test_compare_notices_a_lost_bullet_and_section() -> None:
    # the comparison itself must be able to fail
    original = SAMPLES[0].read_text(encoding="utf-8")
    lines = original.splitlines()
    first_bullet = next(i for i, ln in enumerate(lines) if ln.startswith("- "))
    damaged = "\n".join(lines[:first_bullet] + lines[first_bullet + 1 :])
    result = compare(original, damaged)
    assert not result.bullets and result.sections and not result.ok
    assert not compare(original, original.replace("**Skills**", "Skills stuff")).sections
