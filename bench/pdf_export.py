"""8. PDF export time per resume, on one core, against ``import litellm`` in the same run.

A child process pinned to one CPU (``sched_setaffinity``) exports every sample resume in
every template (``export_pdf``: reading the Markdown, laying it out, the glyph check, the
typst compile and the tighter pass when a last page holds a small tail), round after round,
after one warm-up export per template (imports, the fonts read once per process).  The
figure is the median time of one resume's export; the first export of the process (what a
one-off ``cvagent export`` pays on top of start-up) is reported beside it.

``python bench/pdf_export.py`` prints the raw JSON.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.dont_write_bytecode = True

from common import SAMPLES, Context, Figure, Stat, ratio  # noqa: E402

TARGET_S = 0.3


def worker(rounds: int) -> dict:
    try:
        cpus = sorted(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpus[-1]})
        cpu: int | None = cpus[-1]
    except (AttributeError, OSError):
        cpu = None
    texts = [(p.name, p.read_text(encoding="utf-8")) for p in sorted(SAMPLES.glob("*.md"))]
    t = time.perf_counter()
    from cvagent_cli.formats.writing.pdf_export import export_pdf
    from cvagent_cli.formats.writing.templates import TEMPLATES

    export_pdf(texts[0][1], TEMPLATES[0])
    first = time.perf_counter() - t
    for template in TEMPLATES:
        export_pdf(texts[-1][1], template)  # warm-up
    times: list[float] = []
    tighter = 0
    for _ in range(rounds):
        for template in TEMPLATES:
            for _name, text in texts:
                t = time.perf_counter()
                result = export_pdf(text, template)
                times.append(time.perf_counter() - t)
                tighter += result.space < 1.0
    return {"cpu": cpu, "first_s": first, "seconds": times, "tighter": tighter}


def measure(rounds: int) -> dict:
    done = subprocess.run(
        [sys.executable, __file__, "--worker", str(rounds)],
        capture_output=True,
        text=True,
        timeout=900,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def run(ctx: Context) -> list[Figure]:
    data = measure(ctx.reps(3, 1))
    ctx.details["pdf_export"] = data
    per_resume = Stat.of(data["seconds"])
    lit = ctx.litellm_import.median if ctx.litellm_import else None
    return [
        Figure(
            "pdf_export",
            "PDF export per resume, one core (every sample × template)",
            "s",
            per_resume,
            "litellm import",
            lit,
            ratio(per_resume.median, lit),
            target=f"≤ {TARGET_S} s",
            met=None if ctx.quick else per_resume.median <= TARGET_S,
            note=(
                f"first export of the process {data['first_s']:.2f} s (fonts, imports); "
                f"{data['tighter']} of {len(data['seconds'])} kept a tighter layout"
            ),
        )
    ]


if __name__ == "__main__":
    if sys.argv[1:2] == ["--worker"]:
        print(json.dumps(worker(int(sys.argv[2]))))
    else:
        print(json.dumps(measure(3), indent=1))
