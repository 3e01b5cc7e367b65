"""Which files a command line names, and one result per file."""

from __future__ import annotations

import sys
from datetime import date

import pytest

from cvagent_cli.cli import batch
from cvagent_cli.cli.batch import analyze_each, collect_inputs
from cvagent_cli.errors import InputError
from tests.conftest import SAMPLES

TODAY = date(2025, 6, 1)


def test_a_folder_gives_its_markdown_files_and_names_what_it_skipped(tmp_path):
    for name in ("b.md", "a.markdown", "README.md", "notes.pdf", "photo.png", ".a.md.tmp"):
        (tmp_path / name).write_text("# A\n", encoding="utf-8")
    (tmp_path / "jobs").mkdir()
    (tmp_path / "jobs" / "job.md").write_text("# Job\n", encoding="utf-8")
    inputs = collect_inputs([str(tmp_path)], stdin_is_tty=True)
    # every Markdown file, README included: no file is left out by its name
    assert [p.rsplit("/", 1)[-1] for p in inputs.items] == ["README.md", "a.markdown", "b.md"]
    assert sorted(p.name for p in inputs.skipped) == ["notes.pdf", "photo.png"]


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX symbolic links")
def test_a_looping_link_in_a_folder_is_a_failed_file_not_skipped_silently(tmp_path):
    """The batch names it (and so exits 2), like any unreadable file."""
    (tmp_path / "a.md").symlink_to(tmp_path / "b.md")
    (tmp_path / "b.md").symlink_to(tmp_path / "a.md")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub.md").symlink_to(tmp_path / "sub")  # a link to a folder: not a file
    (tmp_path / "good.md").write_text("# Ann Lee\n\n## Experience\n\n- Built it\n", "utf-8")
    items = collect_inputs([str(tmp_path)], stdin_is_tty=True).items
    assert [p.rsplit("/", 1)[-1] for p in items] == ["a.md", "b.md", "good.md"]
    results = list(analyze_each(items, None))
    assert "loops" in str(results[0].error) and results[2].report is not None


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


# -- --jobs: worker processes -------------------------------------------------------------
def _folder_of_mixed_sizes(folder, count=30):
    """Resumes whose analysis takes very different times: the first chunk holds long ones,
    so later chunks finish first and the results arrive out of order inside the pool."""
    samples = sorted(p for p in SAMPLES.glob("*.md"))
    paths = []
    for i in range(count):
        text = samples[i % len(samples)].read_text(encoding="utf-8")
        if i < 3:
            text += "\n" + text.split("\n", 1)[1] * 15  # ~16× as long
        path = folder / f"r{i:03d}.md"
        path.write_text(text, encoding="utf-8")
        paths.append(str(path))
    return paths


def _as_json(results):
    return [
        (r.source, r.report.model_dump_json() if r.report else None, r.error and str(r.error))
        for r in results
    ]


@pytest.mark.slow
def test_jobs_give_the_sequential_results_in_the_sequential_order(tmp_path, monkeypatch):
    items = _folder_of_mixed_sizes(tmp_path)
    pooled = []
    real = batch._pooled
    monkeypatch.setattr(batch, "_pooled", lambda *a, **k: pooled.append(1) or real(*a, **k))
    one = list(analyze_each(items, None, jobs=1, today=TODAY))
    two = list(analyze_each(items, None, jobs=2, keep_doc=False, today=TODAY))
    assert pooled == [1]  # the pool ran
    assert [r.source for r in two] == items
    assert _as_json(two) == _as_json(one)
    assert all(r.doc is None for r in two)  # keep_doc=False: no document sent back


@pytest.mark.slow
def test_an_unreadable_file_in_a_worker_is_its_own_result(tmp_path):
    items = _folder_of_mixed_sizes(tmp_path)
    (tmp_path / "r005.md").write_bytes(b"\x00\x01binary")
    results = list(analyze_each(items, None, jobs=2, today=TODAY))
    assert [r.source for r in results] == items
    bad = results[5]
    assert isinstance(bad.error, InputError) and bad.report is None
    assert "binary" in bad.error.message and bad.error.hint  # the hint survives the pickle
    assert all(r.report is not None for i, r in enumerate(results) if i != 5)


def test_a_handful_of_files_or_stdin_never_starts_a_pool(tmp_path, monkeypatch):
    items = _folder_of_mixed_sizes(tmp_path, count=batch.MIN_POOL_FILES - 1)
    monkeypatch.setattr(batch, "_pooled", lambda *a, **k: pytest.fail("pool started"))
    assert len(list(analyze_each(items, None, jobs=4))) == len(items)
    assert batch._chunk_size(10_000, 2) == batch.MAX_CHUNK
    assert batch._chunk_size(30, 2) == 3


# -- the size budget (10 MB took 28 s and 500 MB) ---------------------------------------------
def test_a_file_far_over_the_budget_is_refused_unread(tmp_path, monkeypatch):
    monkeypatch.setattr(batch, "MAX_ANALYZED_CHARS", 1_000)
    big = tmp_path / "big.md"
    big.write_text("# Ann Lee\n\n" + "- Built the API\n" * 400, encoding="utf-8")
    read: list[str] = []
    results = list(analyze_each([str(big)], None, read=lambda item: read.append(item) or 0))
    assert read == []
    assert results[0].error is not None and "cvagent analyzes resumes of up to" in str(
        results[0].error
    )


def test_text_over_the_budget_is_one_error_and_the_others_go_on(tmp_path, monkeypatch):
    monkeypatch.setattr(batch, "MAX_ANALYZED_CHARS", 1_000)
    long = tmp_path / "long.md"
    long.write_text("# Ann Lee\n\n" + "- Built the API\n" * 80, encoding="utf-8")  # 1,291 chars
    short = tmp_path / "short.md"
    short.write_text("# Ann Lee\n\n## Experience\n\n- Built the API\n", encoding="utf-8")
    results = list(analyze_each([str(long), str(short)], None))
    assert results[0].error is not None and "1,291 characters long" in str(results[0].error)
    assert results[1].report is not None


def test_piped_text_over_the_budget_is_refused_before_it_is_parsed(monkeypatch):
    import io
    import sys

    from cvagent_cli.analysis import analyzer
    from cvagent_cli.document.document import ResumeDocument
    from cvagent_cli.formats.opening import read_resume

    monkeypatch.setattr(analyzer, "MAX_ANALYZED_CHARS", 1_000)
    data = ("# Ann Lee\n\n" + "- Built the API\n" * 80).encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    monkeypatch.setattr(ResumeDocument, "from_decoded", None)  # parsing would fail loudly
    with pytest.raises(InputError, match="standard input is 1,291 characters long"):
        read_resume("-")


def test_a_folder_gives_no_json_file_but_a_named_one_is_read(tmp_path, capsys):
    """A package.json beside resume.md is not analyzed as a resume."""
    from cvagent_cli.cli.analyze import _inputs

    (tmp_path / "resume.md").write_text("# Ann Lee\n", encoding="utf-8")
    (tmp_path / "package.json").write_text('{"name": "x"}', encoding="utf-8")
    assert [p.rsplit("/", 1)[-1] for p in _inputs([str(tmp_path)])] == ["resume.md"]
    assert "skipped package.json: not a resume file" in capsys.readouterr().err
    named = str(tmp_path / "package.json")
    assert _inputs([named]) == [named]
