"""Regenerate the import corpus (tests/formats/import_corpus/) with the real tools.

Needs, on the machine that regenerates (CI never does: it uses the committed files):
- poppler-utils (pdftotext, pdfinfo), to check every label against the file's text layer;
- rendercv 2.3 in its own environment (``pip install 'rendercv[full]'``), given by
  ``--rendercv PATH`` (default ``/work/wt/h22a-tools/venv/bin/rendercv``); its themes import
  the typst package ``@preview/fontawesome:0.5.0``, which must be in typst's local package
  directory when the machine is offline, with the Font Awesome 6 desktop fonts installed;
- TeX Live with XeLaTeX: texlive-xetex, texlive-latex-extra (moderncv, paracol),
  texlive-lang-chinese (ctex, xeCJK, Fandol fonts), texlive-fonts-extra (fontawesome5);
- LibreOffice Writer (``soffice``, Debian libreoffice-writer-nogui) to print DOCX to PDF;
- Chromium (headless) and Node.js with npm JSON Resume themes installed in ``--npm DIR``
  (jsonresume-theme-even, -elegant, -stackoverflow, -kendall, -flat, -macchiato, -class);
- for produce_templates.py (famous public templates): TeX Live's pdfLaTeX and
  texlive-fonts-extra (roboto, lato, sourcesanspro for Awesome-CV and AltaCV), and
  ``--template-repos DIR`` holding checkouts of deedy/Deedy-Resume and billryan/resume
  (branch zh_CN) as ``DIR/deedy`` and ``DIR/billryan``, for the fonts they bundle;
- cvagent's own test environment (python-docx, typst) to run this script;
- fonts-noto-cjk for Chinese in LibreOffice and Chromium;
- for produce_tools.py: pandoc and groff (Debian), texlive-latex-extra's europasscv and
  curve classes, and the npm themes in ``--npm DIR`` beside the others (``render.js`` is
  written by the script); on a new machine, for instance::

      apt-get install -y pandoc groff texlive-xetex texlive-latex-extra texlive-lang-chinese
      mkdir -p /tmp/npm && cd /tmp/npm && npm install jsonresume-theme-onepage@0.0.3 \
          jsonresume-theme-spartacus@1.0.0 jsonresume-theme-actual@0.2.2
      python bench/import_corpus/make_corpus.py --npm /tmp/npm --only pandoc groff \
          latex-europasscv latex-curve jsonresume-onepage jsonresume-spartacus jsonresume-actual

    python bench/import_corpus/make_corpus.py                 # every producer
    python bench/import_corpus/make_corpus.py --only rendercv # some of them

Every person is invented (people.py).  Each document gets ``<stem>.truth.json`` beside
it, its source (``.yaml``, ``.tex``, ``.typ``, ``.json``, or the DOCX itself), and a row in
``manifest.json`` with its split: within each producer, the files ordered by the SHA-1 of
their path, position i held out when (i + SHA-1 of the producer's name) % 4 == 3 — a
quarter of each producer, and a new producer moves no other file between splits.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

# each produce_* module registers its producers
import produce_forms  # noqa: E402, F401
import produce_html  # noqa: E402, F401
import produce_latex  # noqa: E402, F401
import produce_office  # noqa: E402, F401
import produce_rendercv  # noqa: E402, F401
import produce_shapes  # noqa: E402, F401
import produce_templates  # noqa: E402, F401
import produce_tools  # noqa: E402, F401
import produce_typst  # noqa: E402, F401
from people import make_person  # noqa: E402
from registry import PRODUCERS, TOOLS, seed_of  # noqa: E402
from truth import labels  # noqa: E402

ROOT = HERE.parents[1]
CORPUS = ROOT / "tests" / "formats" / "import_corpus"


# ---------------------------------------------------------------- main


def _sha1(text: str) -> int:
    return int(hashlib.sha1(text.encode()).hexdigest(), 16)


def split_of(rows: list[dict]) -> dict[str, str]:
    """Within each producer, files ordered by the SHA-1 of their path; the one at position
    i is held out when (i + SHA-1 of the producer's name) % 4 == 3.  A quarter of every
    producer's files (one of four), and adding a producer changes no other file's split."""
    splits = {}
    for name in {r["producer"] for r in rows}:
        ordered = sorted((r["file"] for r in rows if r["producer"] == name), key=_sha1)
        for i, f in enumerate(ordered):
            splits[f] = "heldout" if (i + _sha1(name)) % 4 == 3 else "dev"
    return splits


def build(name: str, corpus: Path) -> list[dict]:
    family, produce, plan = PRODUCERS[name]
    out = corpus / name
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    rows = []
    counts: dict[str, int] = {}
    for lang, options in plan:
        counts[lang] = counts.get(lang, 0) + 1
        stem = f"{lang}-{counts[lang]:02d}"
        person = make_person(seed_of(f"{name}/{stem}"), lang, **options)
        files, skip, note = produce(person, out, stem, lang)
        document = files[0]
        truth, fixes = labels(person, document, name, skip, note)
        (out / f"{stem}.truth.json").write_text(
            json.dumps(truth, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
        )
        for fix in fixes:
            print(f"  {name}/{document.name}: {fix}")
        rows.append(
            {
                "file": f"{name}/{document.name}",
                "producer": name,
                "family": family,
                "lang": lang,
                "truth": f"{name}/{stem}.truth.json",
                "source": [f"{name}/{f.name}" for f in files[1:]],
            }
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", help="producers (or families) to regenerate")
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--rendercv", default=TOOLS["rendercv"])
    parser.add_argument("--npm", default=TOOLS["npm"])
    parser.add_argument("--template-repos", default=TOOLS["template_repos"])
    args = parser.parse_args(argv)
    TOOLS.update(rendercv=args.rendercv, npm=args.npm, template_repos=args.template_repos)
    manifest_path = args.corpus / "manifest.json"
    manifest = (
        json.loads(manifest_path.read_text(encoding="utf-8"))
        if manifest_path.exists()
        else {"files": []}
    )
    chosen = [
        n
        for n, (fam, _, _) in PRODUCERS.items()
        if not args.only or n in args.only or fam in args.only
    ]
    rows = [
        r for r in manifest["files"] if r["producer"] not in chosen and r["producer"] in PRODUCERS
    ]
    for name in chosen:
        print(f"{name} …", flush=True)
        rows += build(name, args.corpus)
    rows.sort(key=lambda r: r["file"])
    splits = split_of(rows)
    for r in rows:
        r["split"] = splits[r["file"]]
    manifest = {
        "rule": "within each producer, files ordered by the SHA-1 of their path; position i is "
        "held out when (i + SHA-1 of the producer name) % 4 == 3",
        "files": rows,
    }
    manifest_path.write_text(
        json.dumps(manifest, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )
    print(f"{len(rows)} documents in {manifest_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
