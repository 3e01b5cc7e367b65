"""Bad documents: how long ``cvagent import`` takes to refuse them or to read them in part.

No input may take more than 10 s.  Each bad input of
``tests/support/bad_documents.py`` (encrypted, image-only, cut short, zero pages, 201 pages,
.docm, an embedded object, an invoice) is imported in this process, median of a few runs
after a warm-up, as a ratio to importing the two-page sample resume as PDF measured in the
same run.  The 201-page PDF is also read without the page budget once, to show what the
budget saves.  Nothing is asserted: ``python bench/bad_documents.py`` prints the table.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.dont_write_bytecode = True


def _time(action, repeats: int) -> float:
    action()  # warm-up: imports, fonts
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def main(repeats: int = 3) -> None:
    from cvagent_cli.errors import InputError
    from cvagent_cli.formats.reading.importer import import_bytes
    from cvagent_cli.formats.reading.pdf_import import pdf_paragraphs
    from cvagent_cli.formats.writing.pdf_export import render_pdf
    from tests.support import bad_documents as bad

    sample = render_pdf((ROOT / "sample_resumes" / "en_senior_backend.md").read_text("utf-8"))
    reference = _time(lambda: import_bytes(sample, "sample.pdf", ".pdf", from_layout=True), repeats)
    inputs = [
        ("encrypted.pdf", bad.encrypted_pdf()),
        ("image-only.pdf", bad.image_only_pdf()),
        ("cut-short.pdf", bad.truncated_pdf()),
        ("zero-pages.pdf", bad.zero_page_pdf()),
        ("201-pages.pdf", bad.long_pdf(201)),
        ("macros.docm", bad.docm()),
        ("embedded-object.docx", bad.docx_with_embedded_object()),
        ("invoice.pdf", bad.invoice_pdf()),
        ("invoice.docx", bad.invoice_docx()),
    ]
    print(f"reference: the 2-page sample as PDF imports in {reference * 1000:.0f} ms\n")
    print("| input | outcome | ms | × reference |\n|---|---|---:|---:|")
    for name, data in inputs:
        suffix = "." + name.rsplit(".", 1)[1]

        def run(data: bytes = data, name: str = name, suffix: str = suffix) -> str:
            try:
                result = import_bytes(data, name, suffix)
            except InputError as exc:
                return "refused: " + exc.message.split(": ", 1)[-1]
            return "warning" if result.warnings else "imported"

        outcome = run()
        seconds = _time(run, repeats)
        print(f"| {name} | {outcome} | {seconds * 1000:.0f} | {seconds / reference:.1f} |")
    long = bad.long_pdf(201)
    start = time.perf_counter()
    pdf_paragraphs(long, "201-pages.pdf")
    unbudgeted = time.perf_counter() - start
    print(
        f"| 201-pages.pdf, every page (no budget, once) | read | {unbudgeted * 1000:.0f} "
        f"| {unbudgeted / reference:.1f} |"
    )


if __name__ == "__main__":
    main()
