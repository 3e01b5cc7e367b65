"""Shared helpers for the benchmarks: statistics, figures, isolated environments,
measured subprocesses (wall time and peak RSS of *that* child), the reference
measurements every ratio is taken against, and the tokenizer.

Nothing here asserts a time: the benchmarks print numbers and ratios, and the
targets are checked only in a full run (``bench/run`` without ``--quick``).
"""

from __future__ import annotations

import importlib.util
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_resumes"
SAMPLE = SAMPLES / "en_senior_backend.md"  # the ~2-page resume every benchmark calls "sample.md"
FAKE_KEY = "sk-test-bench-000000000000"  # only ever sent to the loopback server
CONTEXT_WINDOW = 128_000  # tokens (gpt-4o class models)

if str(ROOT) not in sys.path:  # tests.support.* (the loopback server, ScriptedModel)
    sys.path.insert(0, str(ROOT))


# ----------------------------------------------------------------------------- figures


@dataclass
class Stat:
    median: float
    min: float
    max: float
    n: int
    samples: list[float]

    @classmethod
    def of(cls, samples: Iterable[float]) -> Stat:
        values = [float(v) for v in samples]
        if not values:
            raise ValueError("no samples")
        return cls(statistics.median(values), min(values), max(values), len(values), values)


@dataclass
class Figure:
    """One row of the table.

    ``ratio`` is value / reference (both measured in the same run) unless the
    benchmark sets it itself; ``met`` is None when there is no target, or in
    ``--quick`` mode (no thresholds there).
    """

    id: str
    name: str
    unit: str  # s | tokens | per_s | MB | x | bool | ms
    stat: Stat | None
    reference_name: str = ""
    reference: float | None = None
    ratio: float | None = None
    target: str = ""
    met: bool | None = None
    note: str = ""
    value_text: str = ""  # for non-numeric rows (pass/fail)
    reference_unit: str = ""  # when the reference is not in ``unit`` (default: the same)

    def to_json(self) -> dict:
        data = asdict(self)
        return data


def ratio(value: float | None, reference: float | None) -> float | None:
    if value is None or not reference:
        return None
    return value / reference


def fmt_value(value: float | None, unit: str) -> str:
    if value is None:
        return "—"
    if unit == "s":
        return f"{value * 1000:,.0f} ms" if value < 10 else f"{value:,.1f} s"
    if unit == "ms":
        return f"{value:,.2f} ms" if value < 10 else f"{value:,.1f} ms"
    if unit == "tokens":
        return f"{value:,.0f} tok"
    if unit == "per_s":
        return f"{value:,.0f}/s"
    if unit == "MB":
        return f"{value:,.1f} MB"
    if unit == "x":
        return f"{value:,.2f}×"
    return f"{value:,.3g}"


def fmt_range(stat: Stat | None, unit: str) -> str:
    if stat is None or stat.n < 2:
        return "—"
    lo, hi = fmt_value(stat.min, unit), fmt_value(stat.max, unit)
    # "120–140 ms" rather than "120 ms–140 ms"
    if unit in ("s", "ms", "tokens", "MB") and lo.split()[-1] == hi.split()[-1]:
        return f"{lo.rsplit(' ', 1)[0]}–{hi}"
    return f"{lo}–{hi}"


def fmt_ratio(value: float | None) -> str:
    if value is None:
        return "—"
    return f"{value:.3f}" if value < 1 else f"{value:.2f}"


# ------------------------------------------------------------------------ environment


def find_cvagent() -> list[str]:
    """The ``cvagent`` console script next to this interpreter, else ``python -m cvagent_cli``."""
    script = Path(sys.executable).parent / "cvagent"
    if script.exists():
        return [str(script)]
    found = shutil.which("cvagent")
    if found and Path(found).resolve().parent == Path(sys.executable).resolve().parent:
        return [found]
    return [sys.executable, "-m", "cvagent_cli"]


class Sandbox:
    """A temporary CVAGENT_HOME with a private copy of the sample resume.

    Every process a benchmark starts gets ``env()``: cvagent's state is relocated
    into the temp dir, no user config or model leaks in, and litellm reads its
    bundled price list instead of fetching one.
    """

    def __init__(self, prefix: str = "cvagent-bench-") -> None:
        self.dir = Path(tempfile.mkdtemp(prefix=prefix))
        self.home = self.dir / "home"
        self.home.mkdir()
        self.work = self.dir / "work"
        self.work.mkdir()

    def resume(self, name: str = "sample.md", source: Path = SAMPLE) -> Path:
        """A fresh copy of ``source`` (chat sessions edit it and lock it)."""
        target = self.work / name
        shutil.copyfile(source, target)
        return target

    def env(self, **extra: str | None) -> dict[str, str]:
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith("CVAGENT_") and k not in ("FORCE_COLOR", "PYTHONPATH")
        }
        env.update(
            {
                "CVAGENT_HOME": str(self.home),
                "NO_COLOR": "1",
                "LITELLM_LOCAL_MODEL_COST_MAP": "True",
                "OPENAI_API_KEY": FAKE_KEY,
                "PYTHONUNBUFFERED": "1",
                # ``python -m tests.support…`` and ``bench.*`` from the repo root
                "PYTHONPATH": str(ROOT),
            }
        )
        for key, value in extra.items():
            if value is None:
                env.pop(key, None)
            else:
                env[key] = value
        return env

    def apply_to_process(self) -> dict[str, str | None]:
        """Point this process's own environment at the sandbox; returns the old values."""
        keys = (
            "CVAGENT_HOME",
            "LITELLM_LOCAL_MODEL_COST_MAP",
            "OPENAI_API_KEY",
            "NO_COLOR",
            "CVAGENT_MODEL",
            "CVAGENT_API_BASE",
        )
        old = {k: os.environ.get(k) for k in keys}
        os.environ["CVAGENT_HOME"] = str(self.home)
        os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
        os.environ["OPENAI_API_KEY"] = FAKE_KEY
        os.environ["NO_COLOR"] = "1"
        os.environ.pop("CVAGENT_MODEL", None)
        os.environ.pop("CVAGENT_API_BASE", None)
        return old

    @staticmethod
    def restore_process(old: dict[str, str | None]) -> None:
        for key, value in old.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value

    def close(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass
class Measured:
    wall_s: float
    maxrss_mb: float
    user_s: float
    sys_s: float
    returncode: int
    stdout: str
    stderr: str


def run_measured(
    cmd: list[str],
    env: dict[str, str],
    *,
    stdin_text: str | None = None,
    cwd: Path | None = None,
    timeout: float = 120.0,
) -> Measured:
    """Run ``cmd`` to completion; wall time from spawn to exit, and that child's own
    peak RSS and CPU times from ``wait4`` (not the cumulative RUSAGE_CHILDREN)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        stdin = subprocess.PIPE if stdin_text is not None else subprocess.DEVNULL
        start = time.perf_counter()
        proc = subprocess.Popen(
            cmd, env=env, cwd=str(cwd or ROOT), stdin=stdin, stdout=out, stderr=err
        )
        if stdin_text is not None:
            assert proc.stdin is not None
            try:
                proc.stdin.write(stdin_text.encode("utf-8"))
                proc.stdin.close()
            except BrokenPipeError:
                pass
        # A blocking wait, with a timer to kill a child that runs too long: polling every
        # few ms would wake this process hundreds of times a second and take the CPU from
        # the measured one (on 2 cores, from one of ``--jobs 2``'s workers).
        timer = threading.Timer(timeout, proc.kill)
        timer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            timer.cancel()
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return Measured(
            wall_s=wall,
            maxrss_mb=usage.ru_maxrss / 1024.0,  # Linux: KiB
            user_s=usage.ru_utime,
            sys_s=usage.ru_stime,
            returncode=proc.returncode,
            stdout=out.read().decode("utf-8", "replace"),
            stderr=err.read().decode("utf-8", "replace"),
        )


# A tiny launcher that forks the command and reports *its* rusage.  Linux carries the
# high-water RSS across fork+exec, so a child forked straight from this (big, by then
# litellm-importing) bench process would report the bench's own RSS as its peak; forked
# from a ~10 MB interpreter started with -S -I, the floor is that interpreter's size.
_RSS_LAUNCHER = r"""
import json, os, sys
out, argv = sys.argv[1], sys.argv[2:]
pid = os.fork()
if pid == 0:
    try:
        os.execvp(argv[0], argv)
    finally:
        os._exit(127)
_, status, ru = os.wait4(pid, 0)
with open(out, "w") as fh:
    json.dump({"maxrss_kb": ru.ru_maxrss, "user": ru.ru_utime, "sys": ru.ru_stime}, fh)
sys.exit(os.waitstatus_to_exitcode(status) if hasattr(os, "waitstatus_to_exitcode") else status >> 8)
"""


def run_rss(cmd: list[str], env: dict[str, str], **kwargs: Any) -> Measured:
    """Like :func:`run_measured`, with the peak RSS of ``cmd`` alone (through the launcher);
    the wall time then includes the launcher's start-up, so use it for memory only."""
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "rusage.json"
        m = run_measured(
            [sys.executable, "-S", "-I", "-c", _RSS_LAUNCHER, str(report)] + cmd, env, **kwargs
        )
        try:
            data = json.loads(report.read_text())
        except (OSError, ValueError):
            return m
        m.maxrss_mb = data["maxrss_kb"] / 1024.0
        m.user_s, m.sys_s = data["user"], data["sys"]
        return m


def check_ok(m: Measured, what: str) -> None:
    if m.returncode != 0:
        tail = (m.stderr or m.stdout).strip().splitlines()[-15:]
        raise RuntimeError(f"{what} exited {m.returncode}:\n" + "\n".join(tail))


# -------------------------------------------------------------------------- references

# ``python -c "import litellm"``, also printing how long the import itself took inside
# the process (the process's wall time adds interpreter start-up and a long teardown)
LITELLM_IMPORT = [
    sys.executable,
    "-c",
    "import time; t = time.perf_counter(); import litellm; print(time.perf_counter() - t)",
]
PYTHON_BARE = [sys.executable, "-c", "pass"]


def cpu_calibration(repeats: int = 5) -> Stat:
    """A fixed pure-Python workload (string, dict and list work, ~10-30 ms): the reference
    for in-process CPU figures, so they can be compared across machines."""

    def work() -> int:
        acc: dict[str, int] = {}
        words = [f"w{i % 997}" for i in range(60_000)]
        for w in words:
            acc[w] = acc.get(w, 0) + len(w)
        joined = " ".join(words)
        return len(joined.split()) + sum(sorted(acc.values())[:10])

    work()
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        work()
        times.append(time.perf_counter() - t)
    return Stat.of(times)


# ---------------------------------------------------------------------------- tokenizer


class Tokenizer:
    """cl100k_base through tiktoken, loaded offline from the copy litellm bundles
    (``litellm/litellm_core_utils/tokenizers``), without importing litellm.  If that
    fails, a clearly labelled characters/4 approximation."""

    def __init__(self, encoding: str = "cl100k_base") -> None:
        self.label = f"approximation: characters/4 (tiktoken {encoding} unavailable offline)"
        self._enc = None
        try:
            spec = importlib.util.find_spec("litellm")
            if spec is not None and spec.submodule_search_locations:
                bundled = (
                    Path(next(iter(spec.submodule_search_locations)))
                    / "litellm_core_utils"
                    / "tokenizers"
                )
                if bundled.is_dir():
                    os.environ.setdefault("TIKTOKEN_CACHE_DIR", str(bundled))
            import tiktoken

            self._enc = tiktoken.get_encoding(encoding)
            self.label = f"tiktoken {encoding} (offline, litellm's bundled copy)"
        except Exception as exc:
            self.label += f" [{type(exc).__name__}: {exc}]"[:200]

    @property
    def real(self) -> bool:
        return self._enc is not None

    def count_text(self, text: str) -> int:
        if not text:
            return 0
        if self._enc is not None:
            return len(self._enc.encode(text, disallowed_special=()))
        return max(1, len(text) // 4)

    def count_request(self, messages: list[dict], tools: list[dict] | None = None) -> int:
        """Prompt tokens of one chat request: OpenAI's chat-format accounting
        (3 per message, 1 per name, 3 priming the reply) plus the tool schemas as JSON."""
        total = 3
        for message in messages:
            total += 3
            for key, value in message.items():
                if key == "tool_calls" and value:
                    total += self.count_text(json.dumps(value, ensure_ascii=False))
                elif key == "content":
                    if isinstance(value, str):
                        total += self.count_text(value)
                    elif isinstance(value, list):
                        total += self.count_text(
                            " ".join(str(p.get("text", "")) for p in value if isinstance(p, dict))
                        )
                elif key == "name" and isinstance(value, str):
                    total += 1 + self.count_text(value)
                elif key in ("role", "tool_call_id") and isinstance(value, str):
                    total += self.count_text(value)
        if tools:
            total += self.count_text(json.dumps(tools, ensure_ascii=False))
        return total


def request_text(messages: list[dict]) -> str:
    parts = []
    for message in messages:
        content = message.get("content")
        if isinstance(content, str):
            parts.append(content)
        elif isinstance(content, list):
            parts += [str(p.get("text", "")) for p in content if isinstance(p, dict)]
    return "\n".join(parts)


# ------------------------------------------------------------------------------- misc


def machine_info() -> dict[str, Any]:
    try:
        affinity = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        affinity = None
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        mem_kb = next(
            int(row.split()[1])
            for row in Path("/proc/meminfo").read_text().splitlines()
            if row.startswith("MemTotal")
        )
        mem_gb = round(mem_kb / 1024 / 1024, 1)
    except (OSError, StopIteration, ValueError):
        mem_gb = None
    versions = {}
    for dist in ("cvagent", "litellm", "tiktoken", "pexpect", "prompt-toolkit", "rich", "typer"):
        try:
            from importlib.metadata import version

            versions[dist] = version(dist)
        except Exception:
            versions[dist] = None
    try:
        load = [round(x, 2) for x in os.getloadavg()]
    except OSError:
        load = None
    return {
        "host": platform.node(),
        "loadavg_at_start": load,
        "cpu_count": os.cpu_count(),
        "cpu_affinity": affinity,
        "cpu_model": model,
        "mem_gb": mem_gb,
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "executable": sys.executable,
        "versions": versions,
    }


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    t = time.perf_counter()
    value = fn()
    return time.perf_counter() - t, value


@dataclass
class Context:
    """What the runner hands every benchmark."""

    quick: bool
    log: Callable[[str], None]
    litellm_import: Stat | None = None  # seconds, measured once per run (whole process)
    litellm_import_inproc: Stat | None = None  # seconds, the import statement alone
    python_bare: Stat | None = None
    calibration: Stat | None = None
    details: dict[str, Any] = field(default_factory=dict)

    def reps(self, full: int, quick: int) -> int:
        return quick if self.quick else full
