"""7. Export → import round trip of every sample resume, as PDF, DOCX and HTML.

Per sample and format: the export time (Markdown → file, our exporters), the import time
(file → Markdown, ``cvagent import``'s reader), and whether the import kept the name and
section titles in order, every bullet, the contact fields, and the score within ±5
(``tests/support/roundtrip.py``, the same check as the test suite).  Times are the
median of a few runs in this process after one warm-up (imports, font loading).

``python bench/roundtrip.py`` prints the per-sample table on its own.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.dont_write_bytecode = True

from common import SAMPLES, Context, Figure, Stat  # noqa: E402

FORMATS = ("pdf", "docx", "html")


def measure(repeats: int) -> list[dict]:
    from cvagent_cli.formats.reading.importer import import_bytes
    from cvagent_cli.formats.writing.docx_export import render_docx
    from cvagent_cli.formats.writing.html_export import render_html
    from cvagent_cli.formats.writing.pdf_export import render_pdf
    from tests.support.roundtrip import compare

    render = {"pdf": render_pdf, "docx": render_docx, "html": lambda md: render_html(md).encode()}
    rows = []
    for path in sorted(SAMPLES.glob("*.md")):
        text = path.read_text(encoding="utf-8")
        row: dict = {"sample": path.name}
        for fmt in FORMATS:
            data = render[fmt](text)  # warm-up
            import_bytes(data, path.name, f".{fmt}", from_layout=True)
            exports, imports = [], []
            for _ in range(repeats):
                t = time.perf_counter()
                data = render[fmt](text)
                exports.append(time.perf_counter() - t)
                t = time.perf_counter()
                result = import_bytes(data, path.name, f".{fmt}", from_layout=True)
                imports.append(time.perf_counter() - t)
            check = compare(text, result.markdown)
            row[fmt] = {
                "export_ms": Stat.of(exports).median * 1000,
                "import_ms": Stat.of(imports).median * 1000,
                "import_samples_s": imports,
                "sections": check.sections,
                "bullets": check.bullets,
                "contacts": check.contacts,
                "score": f"{check.score_before}→{check.score_after}",
                "score_ok": check.score,
                "ok": check.ok,
            }
        rows.append(row)
    return rows


def _yes(value: bool) -> str:
    return "yes" if value else "NO"


def render_table(rows: list[dict]) -> str:
    head = "| sample | fmt | export ms | import ms | sections | bullets | contacts | score |"
    out = [head, "|---|---|---:|---:|---|---|---|---|"]
    for row in rows:
        for fmt in FORMATS:
            r = row[fmt]
            out.append(
                f"| {row['sample']} | {fmt} | {r['export_ms']:.0f} | {r['import_ms']:.0f} | "
                f"{_yes(r['sections'])} | {_yes(r['bullets'])} | {_yes(r['contacts'])} | "
                f"{r['score']}{'' if r['score_ok'] else ' NO'} |"
            )
    return "\n".join(out)


def run(ctx: Context) -> list[Figure]:
    rows = measure(ctx.reps(3, 1))
    ctx.details["roundtrip"] = rows
    for line in render_table(rows).splitlines():
        ctx.log("  " + line)
    figures = []
    for fmt in FORMATS:
        kept = sum(1 for r in rows if r[fmt]["ok"])
        imports = Stat.of([r[fmt]["import_ms"] / 1000 for r in rows])
        exports = Stat.of([r[fmt]["export_ms"] / 1000 for r in rows])
        figures.append(
            Figure(
                f"roundtrip_{fmt}_import",
                f"round trip: import {fmt.upper()} (per sample)",
                "s",
                imports,
                f"export {fmt.upper()}",
                exports.median,
                imports.median / exports.median if exports.median else None,
                note="median over the samples of each sample's median",
            )
        )
        figures.append(
            Figure(
                f"roundtrip_{fmt}_kept",
                f"round trip: {fmt.upper()} samples kept",
                "bool",
                None,
                target=f"{len(rows)}/{len(rows)}",
                met=kept == len(rows),
                value_text=f"{kept}/{len(rows)}",
                note="sections, bullets, contacts and score ±5",
            )
        )
    return figures


if __name__ == "__main__":
    print(render_table(measure(3)))
