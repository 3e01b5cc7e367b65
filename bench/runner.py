"""The body of ``bench/run``: run the benchmarks, print the table, write the results."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import traceback
from datetime import datetime, timezone
from pathlib import Path

from common import (
    Context,
    Figure,
    Stat,
    cpu_calibration,
    fmt_range,
    fmt_ratio,
    fmt_value,
    machine_info,
)

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"

# name -> module; cold_start first: it measures the litellm import the others compare with
BENCHMARKS = {
    "cold_start": "cold_start",
    "time_to_prompt": "time_to_prompt",
    # in-process CPU figures before anything imports litellm into this process
    "overhead": "overhead",
    "analyzer": "analyzer_throughput",
    "roundtrip": "roundtrip",
    "pdf_export": "pdf_export",
    "tokens": "tokens",
    "memory": "memory",
}

COLUMNS = ("figure", "median", "min–max", "reference", "ratio", "target", "met?")


def met_text(figure: Figure, quick: bool) -> str:
    if figure.met is None:
        return "n/a (quick)" if quick and figure.target else ("—" if not figure.target else "n/a")
    return "yes" if figure.met else "NO"


def table_rows(figures: list[Figure], quick: bool) -> list[tuple[str, ...]]:
    rows = []
    for f in figures:
        if f.stat is None:
            median, spread = f.value_text or "—", "—"
        else:
            median = fmt_value(f.stat.median, f.unit)
            spread = fmt_range(f.stat, f.unit)
            if f.stat.n > 1:
                spread += f" (n={f.stat.n})"
        reference = "—"
        if f.reference is not None:
            ref_unit = f.reference_unit or f.unit
            reference = f"{fmt_value(f.reference, ref_unit)} {f.reference_name}".strip()
        elif f.reference_name:
            reference = f.reference_name
        rows.append(
            (
                f.name,
                median,
                spread,
                reference,
                fmt_ratio(f.ratio),
                f.target or "—",
                met_text(f, quick),
            )
        )
    return rows


def render_table(rows: list[tuple[str, ...]]) -> str:
    widths = [
        max(len(COLUMNS[i]), *(len(r[i]) for r in rows)) if rows else len(COLUMNS[i])
        for i in range(len(COLUMNS))
    ]
    line = "  ".join(c.ljust(w) for c, w in zip(COLUMNS, widths, strict=False))
    out = [line, "  ".join("-" * w for w in widths)]
    for r in rows:
        out.append("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=False)).rstrip())
    return "\n".join(out)


def render_markdown(rows: list[tuple[str, ...]]) -> str:
    def esc(cell: str) -> str:
        return cell.replace("|", "\\|")

    out = ["| " + " | ".join(COLUMNS) + " |", "|" + "|".join("---" for _ in COLUMNS) + "|"]
    out += ["| " + " | ".join(esc(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


# the rows of the README table: one per target, plus the references they are measured against
README_ROWS = (
    "litellm_import",
    "cold_help",
    "cold_analyze",
    "no_litellm",
    "time_to_prompt",
    "first_wait_excess",
    "tokens_cvagent",
    "cache_prefix_share",
    "cache_cost_50",
    "cache_cost_10",
    "tokens_max",
    "tokens_sections",
    "overhead_step",
    "overhead_step_10",
    "analyzer_rate",
    "analyzer_10x",
    "analyzer_100x",
    "roundtrip_pdf_kept",
    "roundtrip_docx_kept",
    "pdf_export",
    "batch_speedup",
    "batch_breakeven",
    "rss_litellm",
    "rss_analyze",
    "rss_chat",
    "rss_batch_big",
)


def render_readme(figures: list[Figure], quick: bool, header: str) -> str:
    by_id = {f.id: f for f in figures}
    chosen = [by_id[i] for i in README_ROWS if i in by_id]
    out = [
        header,
        "",
        "| figure | median (min–max) | reference | ratio | target | met |",
        "|---|---|---|---|---|---|",
    ]
    for row in table_rows(chosen, quick):
        name, median, spread, reference, ratio_, target, met = (c.replace("|", "\\|") for c in row)
        value = median if spread == "—" else f"{median} ({spread.split(' (n=')[0]})"
        out.append(f"| {name.strip()} | {value} | {reference} | {ratio_} | {target} | {met} |")
    return "\n".join(out)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench/run", description="cvagent benchmarks")
    parser.add_argument(
        "--quick", action="store_true", help="fewer repetitions, smoke only, no thresholds"
    )
    parser.add_argument(
        "--out", type=Path, help="write the raw JSON here (and the table to OUT.txt)"
    )
    parser.add_argument(
        "--only",
        nargs="+",
        choices=list(BENCHMARKS),
        help="run only these (cold_start always runs)",
    )
    parser.add_argument(
        "--no-save", action="store_true", help="do not write bench/results/ (implied by --quick)"
    )
    parser.add_argument(
        "--strict", action="store_true", help="exit 1 when a target is not met (full runs)"
    )
    args = parser.parse_args(argv)

    def log(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    started = datetime.now(timezone.utc).astimezone()
    info = machine_info()
    ctx = Context(quick=args.quick, log=log)
    log(
        f"cvagent benchmarks ({'quick' if args.quick else 'full'}) on {info['host']}: "
        f"{info['cpu_count']} cores, Python {info['python']}"
    )
    ctx.calibration = cpu_calibration(ctx.reps(7, 3))

    wanted = ["cold_start"] + [
        b for b in BENCHMARKS if b != "cold_start" and (not args.only or b in args.only)
    ]
    figures: list[Figure] = []
    failures: dict[str, str] = {}
    durations: dict[str, float] = {}
    for name in wanted:
        log(f"[{name}]")
        t = time.perf_counter()
        try:
            module = __import__(BENCHMARKS[name])
            figures += module.run(ctx)
        except Exception as exc:
            failures[name] = "".join(traceback.format_exception(exc))[-4000:]
            log(f"  FAILED: {type(exc).__name__}: {exc}")
            figures.append(
                Figure(
                    f"{name}_failed",
                    f"{name}: did not run",
                    "",
                    None,
                    value_text=f"ERROR {type(exc).__name__}",
                    note=str(exc)[:300],
                )
            )
            if name == "cold_start":
                break  # no reference, no ratios
        durations[name] = round(time.perf_counter() - t, 2)

    figures.insert(
        0,
        Figure(
            "cpu_calibration",
            "reference: fixed CPU workload",
            "ms",
            _ms(ctx.calibration),
            note="pure-Python loop; the reference for in-process CPU figures",
        ),
    )
    rows = table_rows(figures, args.quick)
    table = render_table(rows)
    when = started.strftime("%Y-%m-%d %H:%M %Z")
    cores = info["cpu_count"]
    header = (
        f"cvagent benchmarks — {when} — {info['host']} — {cores} cores"
        f"{' (' + str(info['cpu_affinity']) + ' usable)' if info['cpu_affinity'] not in (None, cores) else ''}"
        f" — {info['cpu_model'] or 'unknown CPU'} — Python {info['python']}"
        f"{' — load avg ' + str(info['loadavg_at_start'][0]) if info.get('loadavg_at_start') else ''}"
        f"{' — QUICK (smoke only, no thresholds)' if args.quick else ''}"
    )
    summary = ""
    if not args.quick:
        judged = [f for f in figures if f.met is not None]
        missed = [f for f in judged if not f.met]
        summary = f"targets met: {len(judged) - len(missed)}/{len(judged)}" + (
            "; not met: " + ", ".join(f.name for f in missed) if missed else ""
        )
    text = "\n".join([header, "", table, "", summary] if summary else [header, "", table]) + "\n"
    print(text, end="")
    for name, err in failures.items():
        print(f"\n{name} failed:\n{err}", file=sys.stderr)

    result = {
        "schema": 1,
        "date": started.isoformat(timespec="seconds"),
        "quick": args.quick,
        "machine": info,
        "durations_s": durations,
        "loadavg_at_end": [round(x, 2) for x in os.getloadavg()]
        if hasattr(os, "getloadavg")
        else None,
        "figures": [f.to_json() for f in figures],
        "failures": failures,
        "details": ctx.details,
        "table": text,
        "markdown": render_markdown(rows),
    }
    cpu = (info["cpu_model"] or "unknown CPU").replace("(R)", "").replace("(TM)", "")
    result["readme_markdown"] = render_readme(
        figures,
        args.quick,
        (
            f"Measured {started.strftime('%Y-%m-%d')} with `bench/run` on a {cores}-core {cpu} "
            f"({info['mem_gb']} GB, Linux, Python {info['python']}, litellm {info['versions'].get('litellm')}); "
            + (
                f"load average {info['loadavg_at_start'][0]} at the start (a shared machine); "
                if info.get("loadavg_at_start")
                else ""
            )
            + "medians with min–max, each ratio against a reference measured in the same run."
        ),
    )
    outputs = []
    if args.out:
        outputs.append(args.out)
    if not args.quick and not args.no_save:
        RESULTS.mkdir(parents=True, exist_ok=True)
        host = "".join(c if c.isalnum() or c in "-_" else "-" for c in info["host"]) or "host"
        target = RESULTS / f"{started.strftime('%Y-%m-%d')}-{host}.json"
        n = 2
        while target.exists():  # every run's raw output is kept
            target = RESULTS / f"{started.strftime('%Y-%m-%d')}-{host}-{n}.json"
            n += 1
        outputs.append(target)
    for path in outputs:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(
            json.dumps(result, indent=1, ensure_ascii=False, default=str) + "\n", encoding="utf-8"
        )
        txt = path.with_suffix(".txt") if path.suffix == ".json" else Path(str(path) + ".txt")
        txt.write_text(
            text
            + "\nMarkdown (all rows):\n\n"
            + result["markdown"]
            + "\n\nREADME snippet:\n\n"
            + result["readme_markdown"]
            + "\n",
            encoding="utf-8",
        )
        log(f"wrote {path} and {txt}")
    if failures:
        return 1
    if args.strict and not args.quick and any(f.met is False for f in figures):
        return 1
    return 0


def _ms(stat: Stat) -> Stat:
    return Stat.of(v * 1000 for v in stat.samples)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
