"""Per-bullet accuracy of "this bullet states a metric" (tests/analysis/metric_bullets.jsonl).

Each line of the data is one bullet: ``id``, ``source`` (``written``: hard cases written for
this test; ``corpus`` / ``sample_resumes``: the experience, project and achievement bullets of
tests/analysis/corpus and sample_resumes, ``id`` = file:line), ``lang``, ``shape`` (what kind of
case it is), ``text``, ``metric`` (a careful reader's yes/no) and ``spans`` (for a yes: the
words that measure).  Every person and number is invented.

The split is fixed by a rule, not chosen: a bullet is held out when the SHA-1 of its id,
read as a number, is 0–27 mod 100 (about 28%).  Work on the rules with the tuning split
(``python -m tests.analysis.metric_accuracy`` prints its misses); the held-out split is printed
as counts only (``--holdout``), measured once per batch of changes.
"""

from __future__ import annotations

import hashlib
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

from cvagent_cli.analysis.rules.metrics import find_metrics, has_metric

DATA = Path(__file__).resolve().parent / "metric_bullets.jsonl"
HOLDOUT_PERCENT = 28


def load() -> list[dict]:
    return [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line]


def held_out(bullet_id: str) -> bool:
    digest = hashlib.sha1(bullet_id.encode("utf-8")).hexdigest()
    return int(digest, 16) % 100 < HOLDOUT_PERCENT


@dataclass
class Tally:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0
    misses: list[str] = field(default_factory=list)
    wrong_span: list[str] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0

    @property
    def total(self) -> int:
        return self.tp + self.fp + self.fn + self.tn


def _overlaps(found: list[tuple[int, int]], text: str, spans: list[str]) -> bool:
    """Some metric found lies inside (or over) a labelled span: right for the right reason."""
    for span in spans:
        start = text.find(span)
        end = start + len(span)
        if any(s < end and start < e for s, e in found):
            return True
    return not spans


def measure(holdout: bool) -> Tally:
    tally = Tally()
    for row in load():
        if held_out(row["id"]) != holdout:
            continue
        said = has_metric(row["text"])
        if said and row["metric"]:
            tally.tp += 1
            if not _overlaps(find_metrics(row["text"]), row["text"], row["spans"]):
                tally.wrong_span.append(f"{row['id']}: {row['text']}")
        elif said:
            tally.fp += 1
            tally.misses.append(f"false metric  {row['id']}: {row['text']}")
        elif row["metric"]:
            tally.fn += 1
            tally.misses.append(f"missed metric {row['id']}: {row['text']} {row['spans']}")
        else:
            tally.tn += 1
    return tally


def line(name: str, t: Tally) -> str:
    return (
        f"{name}: {t.total} bullets, precision {t.precision:.1%}, recall {t.recall:.1%} "
        f"(tp {t.tp}, fp {t.fp}, fn {t.fn}, tn {t.tn}; found at the wrong place {len(t.wrong_span)})"
    )


if __name__ == "__main__":
    if "--holdout" in sys.argv:
        print(line("held-out", measure(True)))  # counts only: its misses are not for tuning
    else:
        tuning = measure(False)
        print(line("tuning", tuning))
        for miss in tuning.misses + [f"wrong place   {w}" for w in tuning.wrong_span]:
            print(" -", miss)
