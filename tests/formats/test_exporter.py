"""The one door out: ``formats.exporter`` picks the writer by the target's extension, for
``cvagent export`` and the chat's ``/export`` alike.  Invented people only."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cvagent_cli.errors import InputError
from cvagent_cli.formats.exporter import check_target, export_file, export_text

RESUME = "# Ana Ruiz\n\nTitle: Data Analyst\n\n## Experience\n\n### Analyst — Acme, 2020 – 2022\n\n- Built dashboards\n"


@pytest.mark.parametrize(
    ("name", "template"),
    [("cv.html", "modern"), ("cv.docx", "compact"), ("cv.json", None), ("cv.yaml", None)],
)
def test_the_extension_picks_the_writer_and_whether_a_template_applies(
    tmp_path: Path, name: str, template: str | None
) -> None:
    exported = export_text(RESUME, tmp_path / name, template=template or "classic")
    assert exported.target.exists()
    assert exported.template == template


def test_data_formats_say_what_they_leave_out(tmp_path: Path) -> None:
    with_intro = RESUME.replace(
        "## Experience\n\n", "## Experience\n\nSix years in retail data.\n\n"
    )
    exported = export_text(with_intro, tmp_path / "cv.yaml")
    # rendercv has no place for a section's text above its entries; the headline has one
    assert exported.left_out == ["the text above the entries of 'Experience'"]
    assert "headline: Data Analyst" in exported.target.read_text(encoding="utf-8")
    data = json.loads(export_text(RESUME, tmp_path / "cv.json").target.read_text())
    assert data["work"][0]["highlights"] == ["Built dashboards"]


def test_a_bad_target_is_refused_before_anything_is_read_or_written(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"cannot export to '\.xyz'"):
        check_target(tmp_path / "cv.xyz")
    with pytest.raises(InputError, match=r"cannot export to '\.odt'"):
        export_file(tmp_path / "missing.md", tmp_path / "cv.odt")
    assert sorted(p.name for p in tmp_path.iterdir()) == []
    kept = tmp_path / "cv.json"
    kept.write_text("keep")
    with pytest.raises(InputError):
        check_target(kept)
    assert check_target(kept, force=True) == kept
