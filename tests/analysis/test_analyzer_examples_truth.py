"""The analyzer's own example rewrites never put words in the user's mouth: the chat's truth
guard, run over every example the analyzer shows for the samples and the corpus, flags none."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest

from cvagent_cli.analysis.analyzer import analyze
from cvagent_cli.document.document import ResumeDocument
from cvagent_cli.truth import check_edit

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted((ROOT / "sample_resumes").glob("*.md")) + sorted(
    (ROOT / "tests/analysis/corpus").glob("*.md")
)
_EN_EXAMPLE_RE = re.compile(r'(?:e\.g\.|verb:|subject:) "([^"]+)"')


def examples(suggestion: str) -> list[str]:
    found = _EN_EXAMPLE_RE.findall(suggestion)
    if "改为：" in suggestion:
        found.append(suggestion.split("改为：", 1)[1])
    return found


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_no_analyzer_example_is_flagged_by_the_truth_guard(path: Path) -> None:
    doc = ResumeDocument.from_path(path)
    report = analyze(doc, today=date(2025, 6, 1))
    flagged = []
    for finding in report.findings:
        for example in examples(finding.suggestion or ""):
            flags = check_edit(
                example, resume_text=doc.text, user_messages=[], old_text=finding.text or ""
            )
            flagged += (
                [f"{finding.rule_id}: {example!r} -> {[str(f) for f in flags]}"] if flags else []
            )
    assert flagged == []
