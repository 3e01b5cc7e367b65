"""Analyzer speed of this checkout against another commit, in paired runs on one core.

    python bench/analyzer_ab.py REF [PAIRS]      # e.g. python bench/analyzer_ab.py 5027207 10

``cvagent_cli/`` of ``REF`` is exported (``git archive``) to a temporary folder; then, PAIRS
times, the two versions each run a child process pinned to one CPU that parses and analyzes
the 9 sample resumes 20 times, five batches in a row, and reports the CPU time
(``time.process_time``) of its fastest batch: the batch least disturbed by other work on a
shared machine.  The two run in turn, in alternating order.  The figure is the median of
the per-pair ratios, this checkout's time over REF's: 1.05 means 5% slower, throughput
within 5% is a ratio ≤ 1.05.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

WORKER = r"""
import json, os, sys, time
from datetime import date
from pathlib import Path
try:
    cpus = sorted(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpus[-1]})
except (AttributeError, OSError):
    pass
from cvagent_cli.analysis.analyzer import analyze
from cvagent_cli.document.document import ResumeDocument
texts = [(p.name, p.read_text(encoding="utf-8")) for p in sorted(Path(sys.argv[1]).glob("*.md"))]
def one():
    for name, text in texts:
        analyze(ResumeDocument.from_text(text, source=name), today=date(2025, 6, 1))
one(); one()
batches = []
for _ in range(5):
    start = time.process_time()
    for _ in range(20):
        one()
    batches.append((time.process_time() - start) / (20 * len(texts)))
print(json.dumps({"module": __import__("cvagent_cli").__file__, "seconds": min(batches)}))
"""


def run(code_dir: Path) -> float:
    env = dict(os.environ, PYTHONPATH=str(code_dir))
    out = subprocess.run(
        [sys.executable, "-c", WORKER, str(ROOT / "sample_resumes")],
        env=env,
        cwd=code_dir,  # "-c" puts the working folder first on sys.path
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    data = json.loads(out.strip().splitlines()[-1])
    if not data["module"].startswith(str(code_dir)):
        raise RuntimeError(f"imported {data['module']}, not the code under {code_dir}")
    return float(data["seconds"])


def main(ref: str, pairs: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", ref, "cvagent_cli"], capture_output=True, check=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(base)], input=archive, check=True)
        ratios = []
        for i in range(pairs):
            order = [("ref", base), ("here", ROOT)]
            times = {name: run(where) for name, where in (order if i % 2 == 0 else order[::-1])}
            ratios.append(times["here"] / times["ref"])
            print(
                f"pair {i + 1}: {ref} {times['ref'] * 1000:.3f} ms, this checkout "
                f"{times['here'] * 1000:.3f} ms per resume, ratio {ratios[-1]:.3f}",
                flush=True,
            )
    print(
        f"median time ratio (this checkout / {ref}): {statistics.median(ratios):.3f} "
        f"(min {min(ratios):.3f}, max {max(ratios):.3f}, {pairs} pairs)"
    )


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 10)
