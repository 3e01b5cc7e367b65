"""Per-bullet truth for "this bullet states a metric" (data: metric_bullets.jsonl).

The floors are the targets for the metric grammar (precision 98%, recall 95%), asserted on
both splits; the per-bullet table of docs/developer-guide.md reports the same figures
(``python -m tests.analysis.metric_accuracy``).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from cvagent_cli.analysis.rules import build_context
from cvagent_cli.analysis.rules.impact import measured_items
from cvagent_cli.document.document import ResumeDocument
from tests.analysis.metric_accuracy import Tally, held_out, load, measure

ROOT = Path(__file__).resolve().parents[2]
PRECISION_FLOOR, RECALL_FLOOR = 0.98, 0.95


@pytest.fixture(scope="module", params=[False, True], ids=["tuning", "held-out"])
def tally(request: pytest.FixtureRequest) -> Tally:
    return measure(request.param)


def test_written_cases_are_many_and_in_both_languages() -> None:
    written = Counter((r["lang"], r["metric"]) for r in load() if r["source"] == "written")
    assert written["en", False] + written["zh", False] >= 300
    assert written["en", True] + written["zh", True] >= 300
    assert min(written.values()) >= 100


def test_every_corpus_and_sample_bullet_is_labelled_as_it_reads_today() -> None:
    labelled = {r["id"]: r["text"] for r in load() if r["source"] != "written"}
    current = {}
    for folder in ("tests/analysis/corpus", "sample_resumes"):
        for path in sorted((ROOT / folder).glob("*.md")):
            ctx = build_context(ResumeDocument.from_path(path))
            prefix = "corpus" if folder.startswith("tests") else "sample_resumes"
            for item in measured_items(ctx):
                current[f"{prefix}/{path.name}:{item.line}"] = item.text
    assert labelled == current


def test_spans_are_in_their_text_and_only_on_metrics() -> None:
    for row in load():
        assert all(span in row["text"] for span in row["spans"]), row["id"]
        assert bool(row["spans"]) == row["metric"], row["id"]


def test_the_split_is_fixed_by_the_id_hash() -> None:
    rows = load()
    share = sum(held_out(r["id"]) for r in rows) / len(rows)
    assert 0.25 <= share <= 0.31
    assert held_out("written/en-neg-001") == held_out("written/en-neg-001")


def test_precision_and_recall_meet_their_floors(tally: Tally) -> None:
    assert tally.precision >= PRECISION_FLOOR, f"{tally.fp} false metrics"
    assert tally.recall >= RECALL_FLOOR, f"{tally.fn} missed metrics"


def test_a_metric_is_found_where_the_label_puts_it(tally: Tally) -> None:
    assert len(tally.wrong_span) <= 0.02 * tally.tp
