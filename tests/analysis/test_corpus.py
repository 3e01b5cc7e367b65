"""Accuracy on real-world resume shapes, against the targets, printed as a table.

The corpus (tests/analysis/corpus/, invented people in the shapes of public Markdown resumes)
and its labels are described in corpus_labels.yaml; the analyzer accuracy table of
docs/developer-guide.md is this test's output.
"""

from __future__ import annotations

import pytest

from tests.analysis.corpus_accuracy import CORPUS, Score, load_labels, measure, table

TARGETS = {"name": 0.95, "email": 0.97, "phone": 0.97, "sections": 0.97, "metric": 0.92}
MAX_OTHER_SHARE = 0.05


@pytest.fixture(scope="module")
def score() -> Score:
    return measure()


def test_corpus_is_large_and_half_chinese() -> None:
    labels = load_labels()
    assert len(labels) >= 40
    assert sum(1 for name in labels if name.startswith("zh_")) >= len(labels) / 2
    assert sorted(labels) == sorted(p.name for p in CORPUS.glob("*.md"))


@pytest.mark.parametrize("field", sorted(TARGETS))
def test_extraction_meets_its_target_on_the_corpus(score: Score, field: str) -> None:
    assert score.rate(field) >= TARGETS[field], "\n".join(score.misses)


def test_few_top_level_sections_are_left_as_other(score: Score) -> None:
    assert score.other_share <= MAX_OTHER_SHARE, "\n".join(score.misses)


def test_accuracy_table_is_printed(score: Score, capsys: pytest.CaptureFixture[str]) -> None:
    rendered = table(score)
    with capsys.disabled():
        print(f"\nAccuracy on {len(load_labels())} corpus resumes:\n{rendered}")
    assert rendered.count("\n") == 7
