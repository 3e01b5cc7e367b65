"""More dev documents: the corpus producers run again for new invented people, into a
folder of their own (never the committed corpus).  Each file is a dev file: rules may be
tuned on it, and the held-out split stays unseen.  It found the OCR shapes of the third
batch of name rules (a family name over the given name with a city on its row, a details
grid whose rules OCR painted out, a light-grey name the detector does not see)::

    python bench/import_corpus/make_extra.py /tmp/extra 4          # 4 a producer
    python bench/import_corpus/make_extra.py /tmp/extra 2 libreoffice-info-table
    python bench/import_corpus/make_extra.py /tmp/more 6 --start 4  # six people more
    python bench/ocr_accuracy.py --corpus /tmp/extra --split dev --dpi 150 --per-file

The people come from seeds of their own (``<producer>/extra-<k>``), so no person of the
corpus comes back; the languages alternate as the producer's plan lists them.  A producer
whose tool is missing here (rendercv, a TeX package) is skipped with a line saying why.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import make_corpus  # noqa: E402, F401  (registers every producer)
from people import make_person  # noqa: E402
from registry import PRODUCERS, seed_of  # noqa: E402
from truth import labels  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="the folder to write (a corpus of its own)")
    parser.add_argument("count", type=int, help="documents a producer")
    parser.add_argument("only", nargs="*", help="producers (or families); all by default")
    parser.add_argument(
        "--start", type=int, default=0, help="the first person's number (new people past it)"
    )
    args = parser.parse_intermixed_args(argv)
    rows = []
    for name, (family, produce, plan) in PRODUCERS.items():
        if args.only and name not in args.only and family not in args.only:
            continue
        kinds = list(dict.fromkeys((lang, json.dumps(o, sort_keys=True)) for lang, o in plan))
        out = args.out / name
        out.mkdir(parents=True, exist_ok=True)
        for k in range(args.start, args.start + args.count):
            lang, options = kinds[k % len(kinds)]
            stem = f"{lang}-{90 + k}"  # numbered past the corpus's own
            try:
                person = make_person(seed_of(f"{name}/extra-{k}"), lang, **json.loads(options))
                files, skip, note = produce(person, out, stem, lang)
            except Exception as exc:  # a tool missing on this machine: skip the producer
                print(f"skipped {name}: {str(exc).strip().splitlines()[-1][:120]}")
                break
            truth, _ = labels(person, files[0], name, skip, note)
            (out / f"{stem}.truth.json").write_text(
                json.dumps(truth, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
            )
            rows.append(
                {
                    "file": f"{name}/{files[0].name}",
                    "producer": name,
                    "family": family,
                    "lang": lang,
                    "truth": f"{name}/{stem}.truth.json",
                    "split": "dev",
                }
            )
    (args.out / "manifest.json").write_text(
        json.dumps({"files": rows}, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )
    print(f"{len(rows)} documents in {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
