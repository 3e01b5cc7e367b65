"""1. Cold start: whole processes, against ``python -c "import litellm"`` in the same run.

Rounds are interleaved (help, analyze, litellm import, bare python, help, …) so a
noisy neighbour slows every command alike instead of one of them.  One warm-up
round (bytecode, page cache) is not counted: this is the start-up a user sees on
the second run of the day, not the first after installing.

Also checks, in a fresh interpreter, that importing ``cvagent_cli.cli.app`` and running
``--help`` and an offline analyze in-process never loads litellm.
"""

from __future__ import annotations

import json
import subprocess
import sys

from common import (
    LITELLM_IMPORT,
    PYTHON_BARE,
    Context,
    Figure,
    Sandbox,
    Stat,
    check_ok,
    find_cvagent,
    ratio,
    run_measured,
)

ANALYZE_TARGET = 0.15

NO_LITELLM_PROBE = r"""
import json, sys
from cvagent_cli.cli.app import app
seen = {"import cvagent_cli.cli.app": "litellm" in sys.modules}
for label, args in (("--help", ["--help"]), ("analyze", ["analyze", sys.argv[1]]),
                    ("analyze --json", ["analyze", sys.argv[1], "--json"])):
    try:
        app(args, standalone_mode=False)
    except SystemExit:
        pass
    seen[label] = any(m == "litellm" or m.startswith("litellm.") for m in sys.modules)
print("PROBE " + json.dumps(seen))
"""


def probe_litellm_free(sandbox: Sandbox) -> dict[str, bool]:
    """{step: litellm loaded after it?} from a fresh interpreter."""
    sample = sandbox.resume("probe.md")
    proc = subprocess.run(
        [sys.executable, "-c", NO_LITELLM_PROBE, str(sample)],
        env=sandbox.env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    for line in reversed(proc.stdout.splitlines()):
        if line.startswith("PROBE "):
            return json.loads(line[6:])
    raise RuntimeError(
        f"the no-litellm probe printed no result (exit {proc.returncode}):\n{proc.stderr[-2000:]}"
    )


def run(ctx: Context) -> list[Figure]:
    cvagent = find_cvagent()
    rounds = ctx.reps(9, 1)
    with Sandbox() as sb:
        env = sb.env()
        sample = sb.resume()
        commands = {
            "help": cvagent + ["--help"],
            "analyze": cvagent + ["analyze", str(sample)],
            "litellm": LITELLM_IMPORT,
            "python": PYTHON_BARE,
        }
        warm = list(commands) if not ctx.quick else ["help", "analyze"]
        for name in warm:  # warm-up (bytecode, page cache), not counted
            cmd = commands[name]
            m = run_measured(cmd, env)
            check_ok(m, " ".join(cmd[-3:]))
            if name == "analyze" and "Score" not in m.stdout:
                raise RuntimeError("cvagent analyze printed no score:\n" + m.stdout[-1000:])
        samples: dict[str, list[float]] = {k: [] for k in commands}
        inproc: list[float] = []
        for i in range(rounds):
            order = list(commands)
            order = order[i % len(order) :] + order[: i % len(order)]  # rotate the order too
            for name in order:
                m = run_measured(commands[name], env)
                check_ok(m, name)
                samples[name].append(m.wall_s)
                if name == "litellm":
                    inproc.append(float(m.stdout.strip().splitlines()[-1]))
            ctx.log(
                f"  cold start round {i + 1}/{rounds}: "
                + ", ".join(f"{k} {samples[k][-1] * 1000:.0f} ms" for k in commands)
            )
        probe = probe_litellm_free(sb)

    stats = {k: Stat.of(v) for k, v in samples.items()}
    ctx.litellm_import = stats["litellm"]
    ctx.python_bare = stats["python"]
    ctx.litellm_import_inproc = Stat.of(inproc)
    ctx.details["cold_start"] = {
        "rounds": rounds,
        "commands": {k: " ".join(v) for k, v in commands.items()},
        "wall_s": samples,
        "litellm_import_statement_s": inproc,
        "litellm_free": probe,
    }
    lit = stats["litellm"].median
    ref = "python -c 'import litellm'"
    analyze_ratio = ratio(stats["analyze"].median, lit)
    free = not any(probe.values())
    return [
        Figure(
            "litellm_import",
            "reference: python -c 'import litellm'",
            "s",
            stats["litellm"],
            note="LITELLM_LOCAL_MODEL_COST_MAP=True; every time ratio below is against this",
        ),
        Figure(
            "litellm_import_inproc",
            "  … the import statement alone (in-process)",
            "s",
            ctx.litellm_import_inproc,
            ref,
            lit,
            ratio(ctx.litellm_import_inproc.median, lit),
            note="the rest is interpreter start-up and teardown; 'import left' below uses this",
        ),
        Figure(
            "python_bare",
            "reference: python -c pass",
            "s",
            stats["python"],
            ref,
            lit,
            ratio(stats["python"].median, lit),
            note="interpreter start-up alone",
        ),
        Figure(
            "cold_help",
            "cold start: cvagent --help",
            "s",
            stats["help"],
            ref,
            lit,
            ratio(stats["help"].median, lit),
        ),
        Figure(
            "cold_analyze",
            "cold start: cvagent analyze sample.md",
            "s",
            stats["analyze"],
            ref,
            lit,
            analyze_ratio,
            target=f"≤ {ANALYZE_TARGET} × import",
            met=None
            if ctx.quick
            else (analyze_ratio is not None and analyze_ratio <= ANALYZE_TARGET),
        ),
        Figure(
            "no_litellm",
            "litellm never imported (--help, analyze in-process)",
            "bool",
            None,
            target="not loaded",
            met=free,
            value_text="pass" if free else "FAIL: " + ", ".join(k for k, v in probe.items() if v),
        ),
    ]
