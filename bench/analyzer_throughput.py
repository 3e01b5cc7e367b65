"""5. Analyzer throughput on one core, and how it scales with resume length.

Runs in a child process pinned to one CPU (``sched_setaffinity``) with nothing else
loaded: parse (``ResumeDocument.from_text``) + ``analyze`` over every sample resume
(the ``jd_*`` job descriptions and the README excluded), round after round.

Scaling: sample.md made 10× and 100× longer by repeating the body of its Experience
section (the repeat count is chosen so the whole file is as close as possible to
10×/100× the characters); time per parse + analyze against the 1× file, the lengths
timed in turn in each repetition.

Batch (``cvagent analyze FOLDER --json``, whole processes, output to a file): a folder of
2,000 copies of the samples with ``--jobs 2`` against ``--jobs 1`` in the same rounds
(interleaved), the pool's break-even point (``--jobs 2`` against ``--jobs 1`` at
``MIN_POOL_FILES`` files, where the pool starts), and the peak RSS of ``--jobs 2`` at 200
and at 2,000 files: results are streamed, so memory must not grow with the folder.

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

from common import (  # noqa: E402
    SAMPLE,
    SAMPLES,
    Context,
    Figure,
    Sandbox,
    Stat,
    check_ok,
    find_cvagent,
    run_measured,
    run_rss,
)

RATE_TARGET = 500.0
SCALE_TARGET = 1.2  # time ratio / length ratio for the 10× resume (10× length ≤ 12× time)
TODAY = date(2025, 6, 1)  # analyze() reads today's date; fix it for reproducible work
BATCH_FILES, SMALL_BATCH = 2000, 200  # quick: 400 and 100
SPEEDUP_TARGET = 1.7  # --jobs 2 over --jobs 1, 2,000 files
RSS_FLAT_TARGET = 1.2  # peak RSS at 2,000 files / at 200


def sample_texts() -> list[tuple[str, str]]:
    return [
        (p.name, p.read_text(encoding="utf-8"))
        for p in sorted(SAMPLES.glob("*.md"))  # job descriptions live in jobs/
    ]


def longer(text: str, factor: int) -> tuple[str, int]:
    """``text`` with its Experience body repeated so the file is ~``factor``× as long."""
    from cvagent_cli.document.document import ResumeDocument

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
    from cvagent_cli.analysis.analyzer import analyze
    from cvagent_cli.document.document import ResumeDocument

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
    scaled = {factor: longer(base, factor) for factor in (1, 10, 100)}
    for text, _ in scaled.values():
        one("warm", text)
    times: dict[int, list[float]] = {factor: [] for factor in scaled}
    # The lengths take turns in each repetition, so a slow spell of a shared machine weighs
    # on the 1× and the 10× time alike (their ratio is the figure).
    for i in range(max(3, rounds)):
        for factor in (1, 10, 100) if i < max(2, rounds // 2) else (1, 10):
            inner = 20 if factor == 1 else 1  # 1×: time a batch, the clock is too coarse for one
            t = time.perf_counter()
            for _ in range(inner):
                one("scaled", scaled[factor][0])
            times[factor].append((time.perf_counter() - t) / inner)
    scaling = {
        str(factor): {
            "chars": len(text),
            "length_ratio": len(text) / len(base),
            "experience_copies": copies,
            "seconds": times[factor],
        }
        for factor, (text, copies) in scaled.items()
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
    return figures + run_batch(ctx)


# -- batch: cvagent analyze FOLDER --json --jobs N ------------------------------------------
def make_folder(folder: Path, count: int) -> Path:
    """``count`` copies of the sample resumes, in turn (r00000.md, r00001.md, …)."""
    texts = sample_texts()
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        (folder / f"r{i:05d}.md").write_text(texts[i % len(texts)][1], encoding="utf-8")
    return folder


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def run_batch(ctx: Context) -> list[Figure]:
    from cvagent_cli.cli.batch import MIN_POOL_FILES

    cvagent = find_cvagent()
    big_n, small_n = (BATCH_FILES, SMALL_BATCH) if not ctx.quick else (400, 100)
    rounds = ctx.reps(7, 1)  # per-round ratios spread widely on a shared machine: an odd n
    times: dict[str, list[float]] = {"j1": [], "j2": [], "few1": [], "few2": []}
    rss: dict[str, list[float]] = {"small": [], "big": []}
    with Sandbox() as sb:
        env = sb.env()
        big = make_folder(sb.work / "big", big_n)
        small = make_folder(sb.work / "small", small_n)
        few = make_folder(sb.work / "few", MIN_POOL_FILES)

        def cmd(folder: Path, jobs: int) -> list[str]:
            return cvagent + ["analyze", str(folder), "--json", "--jobs", str(jobs)]

        def timed(key: str, folder: Path, jobs: int, count: int) -> None:
            m = run_measured(cmd(folder, jobs), env, timeout=900)
            check_ok(m, f"cvagent analyze <{count} files> --json --jobs {jobs}")
            lines = m.stdout.count("\n")
            if lines != count:
                raise RuntimeError(f"--jobs {jobs}: {lines} JSON lines for {count} files")
            times[key].append(m.wall_s)

        timed("j1", big, 1, big_n)  # warm-up: page cache, bytecode
        for i in range(rounds):
            pairs = [("j1", 1), ("j2", 2)]
            for key, jobs in pairs if i % 2 == 0 else pairs[::-1]:
                timed(key, big, jobs, big_n)
            for key, jobs in (
                (("few1", 1), ("few2", 2)) if i % 2 == 0 else (("few2", 2), ("few1", 1))
            ):
                timed(key, few, jobs, MIN_POOL_FILES)
            for key, folder in (("small", small), ("big", big)):
                m = run_rss(cmd(folder, 2), env, timeout=900)
                check_ok(m, f"cvagent analyze {key} folder --json --jobs 2")
                rss[key].append(m.maxrss_mb)
            ctx.log(
                f"  batch round {i + 1}/{rounds}: {big_n} files --jobs 1 {times['j1'][-1]:.2f} s, "
                f"--jobs 2 {times['j2'][-1]:.2f} s; {MIN_POOL_FILES} files "
                f"{times['few1'][-1] * 1000:.0f} / {times['few2'][-1] * 1000:.0f} ms; peak RSS "
                f"{small_n} files {rss['small'][-1]:.1f} MB, {big_n} files {rss['big'][-1]:.1f} MB"
            )
    times["j1"] = times["j1"][1:]  # drop the warm-up
    ctx.details["batch"] = {
        "files": big_n,
        "small_files": small_n,
        "pool_threshold_files": MIN_POOL_FILES,
        "cores": cores(),
        "seconds": times,
        "maxrss_mb": rss,
    }
    j1, j2 = Stat.of(times["j1"]), Stat.of(times["j2"])
    speedups = Stat.of(a / b for a, b in zip(times["j1"], times["j2"], strict=True))
    few = Stat.of(a / b for a, b in zip(times["few1"], times["few2"], strict=True))
    small_rss, big_rss = Stat.of(rss["small"]), Stat.of(rss["big"])
    two_cores = cores() >= 2
    return [
        Figure(
            "batch_j1",
            f"batch: {big_n:,} files --json, --jobs 1",
            "s",
            j1,
            note=f"{big_n / j1.median:,.0f} resumes/s, whole process",
        ),
        Figure(
            "batch_j2",
            f"batch: {big_n:,} files --json, --jobs 2",
            "s",
            j2,
            "--jobs 1",
            j1.median,
            j2.median / j1.median,
            note=f"{big_n / j2.median:,.0f} resumes/s, whole process",
        ),
        Figure(
            "batch_speedup",
            f"batch: --jobs 2 speed-up, {big_n:,} files",
            "x",
            speedups,
            "--jobs 1",
            j1.median,
            target=f"≥ {SPEEDUP_TARGET}×",
            met=None if ctx.quick or not two_cores else speedups.median >= SPEEDUP_TARGET,
            reference_unit="s",
            note="per round: --jobs 1 time / --jobs 2 time"
            + ("" if two_cores else f"; only {cores()} core here: not judged"),
        ),
        Figure(
            "batch_breakeven",
            f"batch: --jobs 2 speed-up at the pool threshold ({MIN_POOL_FILES} files)",
            "x",
            few,
            "--jobs 1",
            Stat.of(times["few1"]).median,
            reference_unit="s",
            note="below this many files no pool is started; ≥ 1× here: the pool pays for itself",
        ),
        Figure(
            "rss_batch_small",
            f"peak RSS: analyze {small_n:,} files --json --jobs 2",
            "MB",
            small_rss,
        ),
        Figure(
            "rss_batch_big",
            f"peak RSS: analyze {big_n:,} files --json --jobs 2",
            "MB",
            big_rss,
            f"{small_n:,} files",
            small_rss.median,
            big_rss.median / small_rss.median,
            target=f"≤ {RSS_FLAT_TARGET}× ({big_n // small_n}× the files)",
            met=None if ctx.quick else big_rss.median / small_rss.median <= RSS_FLAT_TARGET,
            note="largest of the parent and its workers (wait4)",
        ),
    ]


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "--worker":
        print(json.dumps(worker(float(sys.argv[2]), int(sys.argv[3]))))
    else:
        sys.exit(__doc__)
