"""The paper of an export: ``--paper``, else the ``paper`` setting, else the resume's own
country's (``choose_paper``: Letter for the US and Canada, else A4), and the PDF on it."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from cvagent_cli.errors import ConfigError
from cvagent_cli.formats.writing.options import PAPER_SIZES, WriteOptions, choose_paper
from cvagent_cli.formats.writing.pdf_export import render_pdf
from cvagent_cli.settings import load_settings

SAMPLES = Path("sample_resumes")


def page_size(data: bytes) -> tuple[float, float]:
    import pdfplumber

    with pdfplumber.open(io.BytesIO(data)) as pdf:
        return round(float(pdf.pages[0].width), 2), round(float(pdf.pages[0].height), 2)


def resume(header: str) -> str:
    return f"# Ada Example\n\n{header}\n\n## Skills\n\n- Go\n"


@pytest.mark.parametrize(
    ("header", "paper"),
    [
        ("ada@example.com | +1 555-010-2000", "letter"),  # +1: the US or Canada
        ("Toronto, ON | ada@example.com", "letter"),
        ("Austin, TX | ada@example.com", "letter"),
        ("ada@example.com | (512) 555-0199", "letter"),  # a US number without +1
        ("Berlin, Germany | +49 30 1234567", "a4"),
        ("London, UK | 020 7946 0000", "a4"),
        ("ada@example.com", "a4"),  # nothing to tell: A4, the paper of most of the world
        ("Seattle, WA | +44 7700 900123", "a4"),  # the phone's code decides first
    ],
)
def test_the_paper_nobody_chose_is_the_resume_s_country_s(header: str, paper: str) -> None:
    assert choose_paper(resume(header)) == paper


def test_a_chinese_resume_is_a4_and_the_configured_paper_wins() -> None:
    zh = (SAMPLES / "zh_new_grad.md").read_text(encoding="utf-8")
    assert choose_paper(zh) == "a4"
    assert choose_paper(zh, "letter") == "letter"
    assert choose_paper(resume("+1 555-010-2000"), "a4") == "a4"


@pytest.mark.parametrize(
    ("sample", "paper", "size"),
    [
        ("en_senior_backend", None, PAPER_SIZES["letter"]),
        ("zh_mid_java_table", None, PAPER_SIZES["a4"]),
        ("en_senior_backend", "a4", PAPER_SIZES["a4"]),
        ("zh_mid_java_table", "letter", PAPER_SIZES["letter"]),
    ],
)
def test_the_pdf_is_set_on_its_paper(
    sample: str, paper: str | None, size: tuple[float, float]
) -> None:
    text = (SAMPLES / f"{sample}.md").read_text(encoding="utf-8")
    assert page_size(render_pdf(text, options=WriteOptions(paper=paper))) == pytest.approx(
        size, abs=0.5
    )


def test_the_paper_setting_comes_from_the_environment_or_the_config_file(tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text("paper: letter\n", encoding="utf-8")
    assert load_settings(config_file=config, environ={}).paper == "letter"
    assert load_settings(config_file=config, environ={"CVAGENT_PAPER": "a4"}).paper == "a4"
    assert load_settings(config_file=tmp_path / "none.yaml", environ={}).paper is None
    with pytest.raises(ConfigError, match="paper"):
        load_settings(config_file=config, environ={"CVAGENT_PAPER": "a5"})
