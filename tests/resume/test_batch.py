"""Which files a command line names, and one result per file."""

from __future__ import annotations

import pytest

from cvagent_cli.errors import InputError
from cvagent_cli.resume.batch import analyze_each, collect_inputs


def test_a_folder_gives_its_markdown_files_and_names_what_it_skipped(tmp_path):
    for name in ("b.md", "a.markdown", "README.md", "notes.pdf", "photo.png", ".a.md.tmp"):
        (tmp_path / name).write_text("# A\n", encoding="utf-8")
    (tmp_path / "jobs").mkdir()
    (tmp_path / "jobs" / "job.md").write_text("# Job\n", encoding="utf-8")
    inputs = collect_inputs([str(tmp_path)], stdin_is_tty=True)
    # every Markdown file, README included: no file is left out by its name
    assert [p.rsplit("/", 1)[-1] for p in inputs.items] == ["README.md", "a.markdown", "b.md"]
    assert sorted(p.name for p in inputs.skipped) == ["notes.pdf", "photo.png"]


def test_nothing_given_reads_stdin_only_when_it_is_piped():
    assert collect_inputs([], stdin_is_tty=False).items == ["-"]
    with pytest.raises(InputError, match="no resume given"):
        collect_inputs([], stdin_is_tty=True)


def test_a_bad_file_is_a_result_and_the_others_go_on(tmp_path):
    good = tmp_path / "good.md"
    good.write_text("# Ann Lee\n\n## Experience\n\n- Built the API\n", encoding="utf-8")
    bad = tmp_path / "bad.md"
    bad.write_bytes(b"\x00\x01binary")
    results = list(analyze_each([str(bad), str(good)], None))
    assert [r.source for r in results] == [str(bad), str(good)]
    assert results[0].error is not None and results[0].report is None
    assert results[1].error is None and results[1].report is not None
