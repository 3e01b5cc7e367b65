"""How well ``cvagent import`` reads resumes that other tools made, against labelled truth.

The corpus is ``tests/formats/import_corpus/`` (see its README): PDFs and DOCX files made
by rendercv, LaTeX classes, LibreOffice, Chromium printing JSON Resume themes, typst and
python-docx, each with a ``.truth.json`` beside it, and ``manifest.json`` saying which split
(dev or held-out) each file is in.  Per file this measures, on the Markdown a reader produces:

- name: the first ``#`` heading (or, with no heading, the first line) is the name;
- email, phone: the e-mail address appears whole; some phone-like run holds the phone's digits;
- section recall: each section title is a Markdown heading of its own;
- heading precision: each heading is a section title, the name, or an entry's title line;
- row integrity: every date, place or role printed on an entry's row is within two
  (non-blank) lines of the line that holds the entry's key (its company, school or project);
- bullets: the number of list items from the entry's line to the next heading, entry or
  section title equals the entry's bullet count;
- coverage: the share of the document's words (CJK: characters) found in the output,
  counted as a multiset, so words glued together or dropped count as missing;
- junk: private-use characters, ``(cid:N)``, soft hyphens, U+FFFD, repeated fake bold;
- time per page.

Readers: ``cvagent`` (``import_bytes``) and the baseline ``pdfplumber`` (``extract_text`` of
each page; for DOCX, python-docx's paragraph and table text), optionally MarkItDown run by
another interpreter (``--markitdown /path/to/python``).

    python bench/import_accuracy.py                  # both splits, cvagent and the baseline
    python bench/import_accuracy.py --split dev --per-file
    python bench/import_accuracy.py --reader cvagent --json out.json
"""

from __future__ import annotations

import argparse
import io
import json
import logging
import re
import statistics
import subprocess
import sys
import time
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "formats" / "import_corpus"
SPLITS = ("dev", "heldout")

# ---------------------------------------------------------------- text normal forms

_DASHES = re.compile(r"[\u2010-\u2015\u2212\ufe58\ufe63\uff0d-]")
_MARKUP = re.compile(r"(\*\*|__|\\(?=[^\w\s])|^#+\s*|^\s*(?:[-*+]|\d+[.)])\s+)")
_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_TOKEN = re.compile(rf"[{_CJK}]|[^\W_{_CJK}]+")
_PHONE = re.compile(r"\+?\(?\+?\d[\d\s().\-/\u2010-\u2015\u2212]{5,}\d")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_BULLET = re.compile(
    r"^\s*(?:[-*+]\s|\d{1,2}[.)]\s|[•▪●◦■□·‣∙➢►▸✓○–]\s?|[\ue000-\uf8ff]\s?|\(cid:\d+\)\s?)"
)
JUNK_PATTERNS = {
    "private-use": re.compile(r"[\ue000-\uf8ff\U000f0000-\U0010fffd]"),
    "(cid:N)": re.compile(r"\(cid:\d+\)"),
    "soft hyphen": re.compile("\u00ad"),
    "U+FFFD": re.compile("\ufffd"),
    # the same glyph drawn 2-4 times ("学学学位位位"): three or more doubled CJK characters
    # in a row, or two or more tripled letters in a row
    "fake bold": re.compile(rf"(?:([{_CJK}])\1{{1,3}}){{3,}}|(?:([^\W\d_])\2{{2,3}}){{2,}}"),
}


def norm(text: str) -> str:
    """Compare text as printed: NFKC, case-folded, one kind of dash, no whitespace, no
    Markdown emphasis or escapes."""
    text = unicodedata.normalize("NFKC", text).replace("\u00ad", "")
    text = _MARKUP.sub("", text)
    return re.sub(r"\s+", "", _DASHES.sub("-", text).casefold())


def words_only(text: str) -> str:
    """Letters, digits and CJK only: how section titles are compared ("Honors & Awards:")."""
    return "".join(_TOKEN.findall(unicodedata.normalize("NFKC", text).casefold()))


def tokens(text: str) -> Counter[str]:
    return Counter(_TOKEN.findall(unicodedata.normalize("NFKC", text).casefold()))


def digits(text: str) -> str:
    return re.sub(r"\D", "", text)


# ---------------------------------------------------------------- one file


@dataclass
class FileScore:
    file: str
    producer: str
    lang: str
    split: str
    reader: str
    pages: int
    seconds: float = 0.0
    error: str = ""
    name: bool = False
    email: bool = False
    phone: bool = False
    sections_found: int = 0
    sections_total: int = 0
    headings_real: int = 0
    headings_total: int = 0
    rows_kept: int = 0
    rows_total: int = 0
    bullets_exact: int = 0
    entries_total: int = 0
    coverage: float = 0.0
    junk: dict[str, int] = field(default_factory=dict)
    misses: list[str] = field(default_factory=list)

    @property
    def junk_total(self) -> int:
        return sum(self.junk.values())


def _lines(markdown: str) -> list[str]:
    return [line for line in markdown.splitlines() if line.strip()]


def _name_line(lines: list[str]) -> str:
    for line in lines:
        m = _HEADING.match(line)
        if m and len(m.group(1)) == 1:
            return m.group(2)
    for line in lines:  # no `#` heading (a plain-text reader): the first line
        if not line.lstrip().startswith("---"):
            return line
    return ""


def score_markdown(markdown: str, truth: dict, score: FileScore) -> FileScore:
    """Fill ``score`` with the measures of ``markdown`` against ``truth``."""
    lines = _lines(markdown)
    normed = [norm(line) for line in lines]
    miss = score.misses.append

    name = _name_line(lines)
    score.name = norm(name) == norm(truth["name"])
    if not score.name:
        miss(f"name: {name.strip()[:60]!r}")
    score.email = bool(re.search(rf"(?<![\w.+-]){re.escape(truth['email'])}(?![\w-])", markdown))
    if not score.email:
        miss("email")
    want = digits(truth["phone"])
    runs = _PHONE.findall(JUNK_PATTERNS["(cid:N)"].sub(" ", markdown))
    score.phone = any(want in digits(m) for m in runs)
    if not score.phone:
        miss("phone")

    titles = [words_only(t) for t in truth["sections"]]
    headings = [m.group(2) for line in lines if (m := _HEADING.match(line))]
    heading_words = [words_only(h) for h in headings]
    score.sections_total = len(titles)
    for title, printed in zip(titles, truth["sections"], strict=True):
        if title in heading_words:
            score.sections_found += 1
        else:
            miss(f"section not a heading: {printed}")
    entries = truth["entries"]
    keys = [norm(e["key"]) for e in entries]
    roles = [norm(e["title"]) for e in entries if len(norm(e["title"])) >= 4]
    score.headings_total = len(headings)
    for heading, words in zip(headings, heading_words, strict=True):
        n = norm(heading)
        real = (
            words in titles
            or n == norm(truth["name"])
            or any(k in n for k in keys)
            or any(r in n for r in roles)
        )
        score.headings_real += real
        if not real:
            miss(f"heading not a section or entry: {heading[:60]!r}")

    section_lines = {i for i, line in enumerate(lines) if words_only(line) in titles}
    for entry, key in zip(entries, keys, strict=True):
        at = next((i for i, line in enumerate(normed) if key in line), None)
        score.rows_total += len(entry["row"])
        score.entries_total += 1
        if at is None:
            miss(f"entry not found: {entry['key']}")
            continue
        window = "".join(normed[max(0, at - 2) : at + 3])
        for value in entry["row"]:
            if norm(value) in window:
                score.rows_kept += 1
            else:
                miss(f"row of {entry['key']}: {value!r} not within 2 lines")
        count = 0
        for i in range(at + 1, len(lines)):
            if (
                _HEADING.match(lines[i])
                or i in section_lines
                or any(k in normed[i] for k in keys if k != key)
            ):
                break
            count += bool(_BULLET.match(lines[i]))
        if count == entry["bullets"]:
            score.bullets_exact += 1
        else:
            miss(f"bullets of {entry['key']}: {count} for {entry['bullets']}")

    want_tokens = tokens(truth["text"])
    got_tokens = tokens(markdown)
    total = sum(want_tokens.values())
    kept = sum(min(n, got_tokens[t]) for t, n in want_tokens.items())
    score.coverage = kept / total if total else 1.0
    score.junk = {k: n for k, p in JUNK_PATTERNS.items() if (n := len(p.findall(markdown)))}
    return score


# ---------------------------------------------------------------- readers


def read_cvagent(data: bytes, name: str) -> str:
    from cvagent_cli.formats.reading.importer import import_bytes

    return import_bytes(data, name, Path(name).suffix).markdown


def read_plain(data: bytes, name: str) -> str:
    """The baseline: pdfplumber's ``extract_text`` page by page (python-docx's paragraph
    and table text for a DOCX), no structure at all."""
    if name.endswith(".docx"):
        import docx

        document = docx.Document(io.BytesIO(data))
        out = [p.text for p in document.paragraphs]
        for table in document.tables:
            for row in table.rows:
                out.append("\t".join(cell.text for cell in row.cells))
        return "\n".join(out)
    import pdfplumber

    with pdfplumber.open(io.BytesIO(data)) as pdf:
        return "\n".join(page.extract_text() or "" for page in pdf.pages)


def markitdown_reader(python: str) -> Callable[[bytes, str], str]:
    """MarkItDown from another interpreter (it does not share cvagent's environment)."""

    def read(data: bytes, name: str) -> str:
        code = (
            "import sys, io; from markitdown import MarkItDown, StreamInfo; "
            "r = MarkItDown().convert_stream(io.BytesIO(sys.stdin.buffer.read()), "
            "stream_info=StreamInfo(extension=sys.argv[1])); sys.stdout.write(r.text_content)"
        )
        ext = Path(name).suffix
        done = subprocess.run(
            [python, "-c", code, ext], input=data, capture_output=True, check=True, timeout=120
        )
        return done.stdout.decode("utf-8", "replace")

    return read


READERS: dict[str, Callable[[bytes, str], str]] = {
    "cvagent": read_cvagent,
    "pdfplumber": read_plain,
}


# ---------------------------------------------------------------- corpus and runs


@dataclass(frozen=True)
class Item:
    path: Path
    producer: str
    lang: str
    split: str
    truth: dict


def load_corpus(corpus: Path = CORPUS) -> list[Item]:
    manifest = json.loads((corpus / "manifest.json").read_text(encoding="utf-8"))
    items = []
    for row in manifest["files"]:
        truth = json.loads((corpus / row["truth"]).read_text(encoding="utf-8"))
        items.append(Item(corpus / row["file"], row["producer"], row["lang"], row["split"], truth))
    return items


def evaluate(
    items: Iterable[Item], reader: str, read: Callable[[bytes, str], str] | None = None
) -> list[FileScore]:
    read = read or READERS[reader]
    scores = []
    for item in items:
        score = FileScore(
            file=item.path.relative_to(item.path.parents[1]).as_posix(),
            producer=item.producer,
            lang=item.lang,
            split=item.split,
            reader=reader,
            pages=int(item.truth.get("pages", 1)),
        )
        data = item.path.read_bytes()
        start = time.perf_counter()
        try:
            markdown = read(data, item.path.name)
        except Exception as exc:  # a reader that fails on a file scores zero on it
            score.seconds = time.perf_counter() - start
            score.error = f"{type(exc).__name__}: {exc}"[:200]
            score.sections_total = len(item.truth["sections"])
            score.entries_total = len(item.truth["entries"])
            score.rows_total = sum(len(e["row"]) for e in item.truth["entries"])
            scores.append(score)
            continue
        score.seconds = time.perf_counter() - start
        scores.append(score_markdown(markdown, item.truth, score))
    return scores


@dataclass
class Summary:
    files: int
    name: int
    email: int
    phone: int
    sections_found: int
    sections_total: int
    headings_real: int
    headings_total: int
    rows_kept: int
    rows_total: int
    bullets_exact: int
    entries_total: int
    coverage_mean: float
    coverage_worst: float
    junk_free: int
    junk_total: int
    seconds_per_page: float
    errors: int

    def ratio(self, part: str) -> float:
        """``name``, ``email``, ``phone``, ``junk_free`` over files; ``sections``,
        ``headings``, ``rows``, ``bullets`` over their totals."""
        pairs = {
            "sections": (self.sections_found, self.sections_total),
            "headings": (self.headings_real, self.headings_total),
            "rows": (self.rows_kept, self.rows_total),
            "bullets": (self.bullets_exact, self.entries_total),
        }
        num, den = pairs.get(part) or (getattr(self, part), self.files)
        return num / den if den else 0.0


def summarize(scores: list[FileScore]) -> Summary:
    return Summary(
        files=len(scores),
        name=sum(s.name for s in scores),
        email=sum(s.email for s in scores),
        phone=sum(s.phone for s in scores),
        sections_found=sum(s.sections_found for s in scores),
        sections_total=sum(s.sections_total for s in scores),
        headings_real=sum(s.headings_real for s in scores),
        headings_total=sum(s.headings_total for s in scores),
        rows_kept=sum(s.rows_kept for s in scores),
        rows_total=sum(s.rows_total for s in scores),
        bullets_exact=sum(s.bullets_exact for s in scores),
        entries_total=sum(s.entries_total for s in scores),
        coverage_mean=statistics.fmean(s.coverage for s in scores) if scores else 0.0,
        coverage_worst=min((s.coverage for s in scores), default=0.0),
        junk_free=sum(not s.junk_total and not s.error for s in scores),
        junk_total=sum(s.junk_total for s in scores),
        seconds_per_page=statistics.median(s.seconds / max(s.pages, 1) for s in scores)
        if scores
        else 0.0,
        errors=sum(bool(s.error) for s in scores),
    )


# ---------------------------------------------------------------- tables


def _frac(num: int, den: int) -> str:
    return f"{num}/{den} ({100 * num / den:.0f}%)" if den else "—"


ROWS: list[tuple[str, Callable[[Summary], str]]] = [
    (
        "files (pages read per file: median s/page)",
        lambda s: f"{s.files} ({s.seconds_per_page:.3f} s/page)",
    ),
    ("name right", lambda s: _frac(s.name, s.files)),
    ("email found", lambda s: _frac(s.email, s.files)),
    ("phone found", lambda s: _frac(s.phone, s.files)),
    ("section titles as headings (recall)", lambda s: _frac(s.sections_found, s.sections_total)),
    ("heading precision", lambda s: _frac(s.headings_real, s.headings_total)),
    ("row integrity (date/place/role within 2 lines)", lambda s: _frac(s.rows_kept, s.rows_total)),
    ("bullet count exact per entry", lambda s: _frac(s.bullets_exact, s.entries_total)),
    (
        "text coverage mean / worst file",
        lambda s: f"{100 * s.coverage_mean:.1f}% / {100 * s.coverage_worst:.1f}%",
    ),
    (
        "files with no junk (junk characters)",
        lambda s: f"{_frac(s.junk_free, s.files)} ({s.junk_total})",
    ),
]


def table(results: dict[str, dict[str, Summary]]) -> str:
    """A Markdown table: one column per (split, reader)."""
    columns = [
        (split, reader) for split in SPLITS for reader in results if split in results[reader]
    ]
    head = "| measure | " + " | ".join(f"{sp} · {rd}" for sp, rd in columns) + " |"
    out = [head, "|---|" + "---|" * len(columns)]
    for label, cell in ROWS:
        out.append(f"| {label} | " + " | ".join(cell(results[rd][sp]) for sp, rd in columns) + " |")
    if "cvagent" in results and "pdfplumber" in results:
        ratios = [
            f"{sp} {results['cvagent'][sp].seconds_per_page / base:.2f}×"
            for sp in SPLITS
            if sp in results["cvagent"] and (base := results["pdfplumber"][sp].seconds_per_page)
        ]
        out.append(
            "\ncvagent's median time per page over pdfplumber's, same run: " + ", ".join(ratios)
        )
    errors = [
        f"{rd} {sp}: {results[rd][sp].errors}" for sp, rd in columns if results[rd][sp].errors
    ]
    if errors:
        out.append("\nreader errors (files scored zero): " + ", ".join(errors))
    return "\n".join(out)


def per_file_table(scores: list[FileScore]) -> str:
    out = [
        "| file | split | name | email | phone | sections | headings | rows | bullets | coverage | junk | s/page |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    yes = {True: "yes", False: "NO"}
    for s in scores:
        out.append(
            f"| {s.file} | {s.split} | {yes[s.name]} | {yes[s.email]} | {yes[s.phone]} | "
            f"{s.sections_found}/{s.sections_total} | {s.headings_real}/{s.headings_total} | "
            f"{s.rows_kept}/{s.rows_total} | {s.bullets_exact}/{s.entries_total} | "
            f"{100 * s.coverage:.1f}% | {s.junk_total} | {s.seconds / max(s.pages, 1):.3f} |"
        )
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--split", choices=(*SPLITS, "all"), default="all")
    parser.add_argument(
        "--reader", action="append", choices=sorted(READERS), help="default: all of them"
    )
    parser.add_argument("--markitdown", metavar="PYTHON", help="also MarkItDown, run by PYTHON")
    parser.add_argument(
        "--only",
        metavar="TEXT",
        action="append",
        help="files whose path contains TEXT (repeatable)",
    )
    parser.add_argument("--per-file", action="store_true", help="a row per file, and what missed")
    parser.add_argument("--json", type=Path, help="write every file's scores to this file")
    args = parser.parse_args(argv)
    logging.getLogger("pdfminer").setLevel(logging.ERROR)  # "Could not get FontBBox …" per glyph

    items = [
        i
        for i in load_corpus(args.corpus)
        if (args.split == "all" or i.split == args.split)
        and (not args.only or any(text in str(i.path) for text in args.only))
    ]
    readers = {r: READERS[r] for r in (args.reader or READERS)}
    if args.markitdown:
        readers["markitdown"] = markitdown_reader(args.markitdown)
    results: dict[str, dict[str, Summary]] = {}
    every: list[FileScore] = []
    for name, read in readers.items():
        scores = evaluate(items, name, read)
        every += scores
        results[name] = {
            split: summarize([s for s in scores if s.split == split])
            for split in SPLITS
            if any(s.split == split for s in scores)
        }
        if args.per_file:
            print(f"\n### {name}\n")
            print(per_file_table(scores))
            for s in scores:
                for m in ([s.error] if s.error else []) + s.misses:
                    print(f"  {s.file}: {m}")
    print()
    print(table(results))
    if args.json:
        args.json.write_text(
            json.dumps([asdict(s) for s in every], ensure_ascii=False, indent=1), encoding="utf-8"
        )
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
