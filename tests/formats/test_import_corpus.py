"""Import accuracy on the corpus of documents other tools made (tests/formats/import_corpus).

The floors are the accuracy measured on the committed corpus when it was made (both
splits, docs/developer-guide.md "Import accuracy"): a change that reads these files worse fails here.  Raise a
floor when the reader gets better; never lower one to let a change through.  The evaluator's
own measures are checked on small hand-made cases first, so a floor cannot pass by a
measure that counts nothing.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import import_accuracy as ia  # noqa: E402

CORPUS = ROOT / "tests" / "formats" / "import_corpus"

TRUTH = {
    "name": "Marisol Thornquist",
    "email": "marisol.thornquist@example.com",
    "phone": "+1 (303) 555-0142",
    "sections": ["Experience", "Education"],
    "entries": [
        {
            "key": "Quillfeather Labs",
            "title": "Data Engineer",
            "row": ["Data Engineer", "Mar 2020 – Present", "Denver, CO"],
            "bullets": 2,
        },
        {
            "key": "Lakeshore College",
            "title": "B.S. Mathematics",
            "row": ["B.S. Mathematics", "2014 – 2018"],
            "bullets": 0,
        },
    ],
    "text": "Marisol Thornquist\nmarisol.thornquist@example.com\nExperience\nQuillfeather Labs\n"
    "Cut cloud spend by 31%.\nBuilt a deploy pipeline.\nEducation\nLakeshore College",
}
GOOD = """# Marisol Thornquist

marisol.thornquist@example.com | +1 (303) 555-0142

## Experience

### Data Engineer — Quillfeather Labs
Mar 2020 - Present · Denver, CO

- Cut cloud spend by 31%.
- Built a deploy pipeline.

## Education

### B.S. Mathematics — Lakeshore College
2014 – 2018
"""


def score(markdown: str) -> ia.FileScore:
    blank = ia.FileScore(file="x", producer="p", lang="en", split="dev", reader="r", pages=1)
    return ia.score_markdown(markdown, TRUTH, blank)


def test_a_faithful_import_scores_full_marks() -> None:
    s = score(GOOD)
    assert (s.name, s.email, s.phone) == (True, True, True)
    assert (s.sections_found, s.headings_real, s.headings_total) == (2, 5, 5)
    assert (s.rows_kept, s.rows_total, s.bullets_exact) == (5, 5, 2)
    assert s.coverage == 1.0 and s.junk_total == 0


def test_each_measure_sees_its_defect() -> None:
    broken = (
        GOOD.replace("# Marisol Thornquist", "# Resume")
        .replace("## Education", "Education")
        .replace("Mar 2020 - Present · Denver, CO\n", "")
        .replace("- Built a deploy pipeline.", "Built a deploy pipeline.\n\n\n## 2014 – 2018")
        .replace("Cut cloud spend", "Cutcloud spend")
        + "\nMar 2020 – Present Denver, CO\n"
    )
    s = score(broken)
    assert not s.name
    assert s.sections_found == 1  # Education is no longer a heading
    assert s.headings_total - s.headings_real == 2  # "# Resume", "## 2014 – 2018"
    assert s.rows_kept == 3  # the date and place went to the end
    assert s.bullets_exact == 1
    assert s.coverage < 1.0  # "Cutcloud" is not "Cut" and "cloud"


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("学学学位位位：硕士", "fake bold"),
        ("EEExxxperience", "fake bold"),
        ("(cid:123) Python", "(cid:N)"),
        ("\uf0b7 Python", "private-use"),
        ("infra\u00adstructure", "soft hyphen"),
        ("caf\ufffd", "U+FFFD"),
    ],
)
def test_junk_is_counted(text: str, kind: str) -> None:
    assert kind in score(GOOD + text + "\n").junk


@pytest.mark.parametrize("text", ["谢谢，天天向上", "bookkeeper", "13900001111", "www.example.com"])
def test_ordinary_text_is_not_junk(text: str) -> None:
    assert score(GOOD + text + "\n").junk == {}


def test_the_corpus_is_whole() -> None:
    manifest = json.loads((CORPUS / "manifest.json").read_text(encoding="utf-8"))
    rows = manifest["files"]
    for row in rows:
        assert (CORPUS / row["file"]).is_file(), row["file"]
        assert (CORPUS / row["truth"]).is_file(), row["truth"]
        for source in row["source"]:
            assert (CORPUS / source).is_file(), source
    held = [r for r in rows if r["split"] == "heldout"]
    assert 0.2 <= len(held) / len(rows) <= 0.3
    assert {r["lang"] for r in held} == {"en", "zh"}


# The accuracy measured when the corpus was committed (docs/developer-guide.md "Import accuracy").
FLOORS = {
    # measured 2026-11-28 on 214 documents: the 182 before (whose floors were dev 100% but
    # bullets 99%; held-out names 45/45, sections 220/222, rows 560/563, bullets 221/223)
    # and, at first sight before any reader change, the 32 of produce_tools.py (pandoc's
    # DOCX and HTML, groff ms, europasscv, CurVe, JSON Resume onepage, spartacus, actual);
    # dev raised after the rules tuned on their dev files (a section name in body bold, a
    # flush-right sidebar, a list set in columns, a Subtitle based on Title, a side label
    # on the name's row, the columns' first row found among taller CJK glyph boxes);
    # held-out measured once after them
    "dev": {
        "name": 0.98,  # 158/161 (first sight 154)
        "email": 0.99,  # 161/161
        "phone": 1.0,
        "sections": 0.995,  # 800/800 (first sight 778)
        "headings": 0.995,  # 1710/1711
        "rows": 0.995,  # 2023/2023 (3 labels fixed: a place never printed)
        "bullets": 0.985,  # 778/788 (first sight 765)
        "junk_free": 1.0,
    },
    "heldout": {
        "name": 0.98,  # 52/53 (first sight 51)
        "email": 0.97,  # 53/53
        "phone": 1.0,
        "sections": 0.99,  # 256/258 (first sight 249)
        "headings": 0.995,  # 557/558
        "rows": 0.995,  # 647/650
        "bullets": 0.98,  # 257/261 (first sight 255)
        "junk_free": 1.0,
    },
}
COVERAGE_FLOORS = {"dev": (0.999, 0.985), "heldout": (0.999, 0.985)}  # mean, worst file


@pytest.mark.slow
def test_import_accuracy_holds_its_floors() -> None:
    """Both splits in one test, so the corpus is read once (~18 s on one core)."""
    scores = ia.evaluate(ia.load_corpus(CORPUS), "cvagent")
    failures = []
    for split in ia.SPLITS:
        got = ia.summarize([s for s in scores if s.split == split])
        assert got.errors == 0, [s.error for s in scores if s.error]
        below = {
            part: round(got.ratio(part), 3)
            for part, floor in FLOORS[split].items()
            if got.ratio(part) < floor
        }
        mean, worst = COVERAGE_FLOORS[split]
        if got.coverage_mean < mean:
            below["coverage mean"] = round(got.coverage_mean, 4)
        if got.coverage_worst < worst:
            below["coverage worst"] = round(got.coverage_worst, 4)
        if below:
            failures.append(f"{split}: below the floor: {below} (floors {FLOORS[split]})")
    assert not failures, "\n".join(failures)
