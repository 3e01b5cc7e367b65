"""Extraction accuracy on the real-world-shapes corpus (tests/analysis/corpus/).

Shared by the corpus test and by ``python -m tests.analysis.corpus_accuracy`` (prints the table
and every miss, for working on the rules).  Labels live in ``corpus_labels.yaml``.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from cvagent_cli.analysis.rules import build_context
from cvagent_cli.analysis.rules.impact import has_metric, measured_items
from cvagent_cli.document.document import ResumeDocument
from cvagent_cli.document.kinds import normalize_title

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "corpus"
LABELS = HERE / "corpus_labels.yaml"


def load_labels() -> dict[str, dict]:
    return yaml.safe_load(LABELS.read_text(encoding="utf-8"))


def phone_state(doc: ResumeDocument) -> str:
    if doc.basics.phone:
        return "yes"
    return "masked" if doc.basics.masked_phone else "no"


def top_sections(doc: ResumeDocument) -> list[tuple[str, str]]:
    """Top-level sections as (title, kind): neither the preamble nor the title heading."""
    return [
        (s.title, s.kind) for s in doc.roots if s.heading_line and s.heading_line != doc.title_line
    ]


def any_metric(doc: ResumeDocument) -> bool:
    ctx = build_context(doc)
    return any(has_metric(item.text, item.tokens) for item in measured_items(ctx))


def _same_name(found: str | None, label: str | None) -> bool:
    if found is None or label is None:
        return found is label
    return " ".join(found.split()).casefold() == " ".join(label.split()).casefold()


@dataclass
class Score:
    """Per field: hits over cases, and what went wrong where."""

    hits: dict[str, int] = field(default_factory=dict)
    cases: dict[str, int] = field(default_factory=dict)
    misses: list[str] = field(default_factory=list)
    found_sections: int = 0
    other_sections: int = 0

    def add(self, fld: str, ok: bool, weight: int = 1, hit: int | None = None) -> None:
        self.cases[fld] = self.cases.get(fld, 0) + weight
        self.hits[fld] = (
            self.hits.get(fld, 0) + (weight if ok else 0)
            if hit is None
            else (self.hits.get(fld, 0) + hit)
        )

    def rate(self, fld: str) -> float:
        return self.hits.get(fld, 0) / self.cases[fld] if self.cases.get(fld) else 1.0

    @property
    def other_share(self) -> float:
        return self.other_sections / self.found_sections if self.found_sections else 0.0


FIELDS = ("name", "email", "phone", "sections", "metric")


def measure(files: list[str] | None = None) -> Score:
    labels = load_labels()
    score = Score()
    for fname, label in labels.items():
        if files is not None and fname not in files:
            continue
        doc = ResumeDocument.from_path(CORPUS / fname)
        name = doc.basics.name
        score.add("name", _same_name(name, label["name"]))
        if not _same_name(name, label["name"]):
            score.misses.append(f"{fname}: name {name!r}, expected {label['name']!r}")
        email = bool(doc.basics.email)
        score.add("email", email == label["email"])
        if email != label["email"]:
            score.misses.append(f"{fname}: email {doc.basics.email!r}")
        phone = phone_state(doc)
        score.add("phone", phone == label["phone"])
        if phone != label["phone"]:
            score.misses.append(
                f"{fname}: phone {phone} ({doc.basics.phone or doc.basics.masked_phone!r}),"
                f" expected {label['phone']}"
            )
        found = top_sections(doc)
        score.found_sections += len(found)
        score.other_sections += sum(1 for _, kind in found if kind == "other")
        matched, rest = 0, list(found)
        for title, kind in label["sections"]:
            for i, (ftitle, fkind) in enumerate(rest):
                if normalize_title(ftitle) == normalize_title(title) and fkind == kind:
                    matched += 1
                    rest = rest[i + 1 :]
                    break
        score.add("sections", True, weight=len(label["sections"]), hit=matched)
        if matched < len(label["sections"]) or any(k == "other" for _, k in found):
            score.misses.append(f"{fname}: sections {found}")
        metric = any_metric(doc)
        score.add("metric", metric == label["metric"])
        if metric != label["metric"]:
            score.misses.append(f"{fname}: metric {metric}, expected {label['metric']}")
    return score


def table(score: Score) -> str:
    rows = [
        ("name", "name found and right", score.rate("name")),
        ("email", "email presence", score.rate("email")),
        ("phone", "phone presence (yes/no/masked)", score.rate("phone")),
        ("sections", "top-level section recall (title+kind)", score.rate("sections")),
        ("other", 'found top-level sections of kind "other"', score.other_share),
        ("metric", "metric detection agrees with label", score.rate("metric")),
    ]
    lines = ["| Field | Measure | Score |", "|---|---|---|"]
    lines += [f"| {key} | {what} | {value:.1%} |" for key, what, value in rows]
    return "\n".join(lines)


if __name__ == "__main__":
    labels = load_labels()
    tuning = "--all" not in sys.argv
    if "--holdout" in sys.argv:
        chosen = [f for f, lab in labels.items() if lab.get("holdout")]
    else:
        chosen = [f for f, lab in labels.items() if not (tuning and lab.get("holdout"))]
    result = measure(chosen)
    print(f"{len(chosen)} files")
    print(table(result))
    for miss in result.misses:
        print(" -", miss)
