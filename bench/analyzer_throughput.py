"""5. Analyzer throughput on one core, and how it scales with resume length.

Runs in a child process pinned to one CPU (``sched_setaffinity``) with nothing else
loaded: parse (``ResumeDocument.from_text``) + ``analyze`` over every sample resume
(the ``jd_*`` job descriptions and the README excluded), round after round.

Scaling: sample.md made 10× and 100× longer by repeating the body of its Experience
section (the repeat count is chosen so the whole file is as close as possible to
10×/100× the characters); time per parse + analyze against the 1× file.

``python bench/analyzer_throughput.py --worker SECONDS ROUNDS`` prints the raw JSON.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.dont_write_bytecode = True  # run as a script by the runner: no bench/__pycache__

from common import SAMPLE, SAMPLES, Context, Figure, Sandbox, Stat  # noqa: E402

RATE_TARGET = 500.0
SCALE_TARGET = 1.2  # time ratio / length ratio for the 10× resume (10× length ≤ 12× time)
TODAY = date(2025, 6, 1)  # analyze() reads today's date; fix it for reproducible work


def sample_texts() -> list[tuple[str, str]]:
    return [
        (p.name, p.read_text(encoding="utf-8"))
        for p in sorted(SAMPLES.glob("*.md"))  # job descriptions live in jobs/
    ]


def longer(text: str, factor: int) -> tuple[str, int]:
    """``text`` with its Experience body repeated so the file is ~``factor``× as long."""
    from cvagent_cli.resume.document import ResumeDocument

    if factor == 1:
        return text, 1
    doc = ResumeDocument.from_text(text)
    exp = doc.find_section("experience")
    lines = text.splitlines(keepends=True)
    head, body, tail = (
        "".join(lines[: exp.start_line]),
        "".join(lines[exp.start_line : exp.end_line]),
        "".join(lines[exp.end_line :]),
    )
    copies = max(1, round((factor * len(text) - len(head) - len(tail)) / len(body)))
    return head + body * copies + tail, copies


def pin_one_core() -> int | None:
    try:
        cpus = sorted(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpus[-1]})
        return cpus[-1]
    except (AttributeError, OSError):
        return None


def worker(seconds: float, rounds: int) -> dict:
    cpu = pin_one_core()
    from cvagent_cli.resume.analyzer import analyze
    from cvagent_cli.resume.document import ResumeDocument

    texts = sample_texts()

    def one(name: str, text: str) -> None:
        analyze(ResumeDocument.from_text(text, source=name), today=TODAY)

    for name, text in texts:  # warm-up: imports, regex compilation, caches
        one(name, text)
    rates = []
    for _ in range(rounds):
        count, start = 0, time.perf_counter()
        while True:
            for name, text in texts:
                one(name, text)
            count += len(texts)
            elapsed = time.perf_counter() - start
            if elapsed >= seconds:
                break
        rates.append(count / elapsed)

    base = SAMPLE.read_text(encoding="utf-8")
    scaling = {}
    for factor, repeats in ((1, max(3, rounds)), (10, max(3, rounds)), (100, max(2, rounds // 2))):
        text, copies = longer(base, factor)
        one("warm", text)
        times = []
        for _ in range(repeats):
            inner = 20 if factor == 1 else 1  # 1×: time a batch, the clock is too coarse for one
            t = time.perf_counter()
            for _ in range(inner):
                one("scaled", text)
            times.append((time.perf_counter() - t) / inner)
        scaling[str(factor)] = {
            "chars": len(text),
            "length_ratio": len(text) / len(base),
            "experience_copies": copies,
            "seconds": times,
        }
    return {"cpu": cpu, "files": [n for n, _ in texts], "rates_per_s": rates, "scaling": scaling}


def run(ctx: Context) -> list[Figure]:
    seconds, rounds = (1.0, 7) if not ctx.quick else (0.3, 2)
    with Sandbox() as sb:
        proc = subprocess.run(
            [sys.executable, str(Path(__file__).resolve()), "--worker", str(seconds), str(rounds)],
            env=sb.env(),
            capture_output=True,
            text=True,
            timeout=900,
        )
    if proc.returncode != 0:
        raise RuntimeError(f"analyzer worker exited {proc.returncode}:\n{proc.stderr[-2000:]}")
    data = json.loads(proc.stdout.strip().splitlines()[-1])
    ctx.details["analyzer"] = data
    rate = Stat.of(data["rates_per_s"])
    times = {k: Stat.of(v["seconds"]) for k, v in data["scaling"].items()}
    ctx.log(
        f"  {len(data['files'])} sample resumes on CPU {data['cpu']}: {rate.median:.0f}/s; "
        + ", ".join(f"{k}×: {times[k].median * 1000:.1f} ms" for k in times)
    )
    cal = ctx.calibration.median if ctx.calibration else None
    figures = [
        Figure(
            "analyzer_rate",
            f"analyzer: resumes/s, one core ({len(data['files'])} samples)",
            "per_s",
            rate,
            "CPU workload" if cal else "",
            cal * 1000 if cal else None,
            (1 / rate.median) / cal if cal else None,
            target=f"≥ {RATE_TARGET:.0f}/s",
            met=None if ctx.quick else rate.median >= RATE_TARGET,
            reference_unit="ms",
            note="ratio = time per resume / CPU workload",
        ),
    ]
    base = times["1"].median
    figures.append(Figure("analyzer_1x", "analyzer: sample.md (1×)", "s", times["1"]))
    for factor in ("10", "100"):
        info = data["scaling"][factor]
        t = times[factor]
        time_ratio = t.median / base
        per_length = time_ratio / info["length_ratio"]
        target = (
            f"≤ {SCALE_TARGET * 10:.0f}× time (×{SCALE_TARGET} per length)"
            if factor == "10"
            else ""
        )
        figures.append(
            Figure(
                f"analyzer_{factor}x",
                f"analyzer: {factor}× longer resume",
                "s",
                t,
                "1×",
                base,
                time_ratio,
                target=target,
                met=(None if ctx.quick else per_length <= SCALE_TARGET) if factor == "10" else None,
                note=f"{info['length_ratio']:.1f}× the characters ({info['experience_copies']} copies of Experience); "
                f"time ratio / length ratio = {per_length:.2f}",
            )
        )
    return figures


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "--worker":
        print(json.dumps(worker(float(sys.argv[2]), int(sys.argv[3]))))
    else:
        sys.exit(__doc__)
