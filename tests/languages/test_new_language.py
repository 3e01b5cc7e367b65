"""A third language is one file: tests/languages/data/de.py, a tiny German table, copied into
a copy of ``cvagent_cli/languages/`` and nothing else, is read by the Markdown reader, the
date grammar and the analyzer, and written by export and the JSON Resume reader."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cvagent_cli import languages
from cvagent_cli.languages import find_languages

PACKAGE = Path(languages.__file__).resolve().parents[1]
GERMAN = Path(__file__).parent / "data" / "de.py"

RESUME = """\
# Lena Beispiel

lena.beispiel@example.com · +49 30 1234567

## Profil

Softwareentwicklerin mit Erfahrung in der Entwicklung von Zahlungssystemen für den Handel.

## Berufserfahrung

### Entwicklerin — Beispiel GmbH
März 2019 bis heute

- Verantwortlich für die Wartung der Server und die Betreuung der Kunden im Rechenzentrum.
- Zahlungsdienst für 40 Filialen gebaut und die Fehlerquote um 30 % gesenkt.

### Praktikantin — Muster AG
Jan 2017 – Dez 2018

- Testautomatisierung mit Python für das Team der Buchhaltung eingeführt, 12 Abläufe.

## Ausbildung

### B.Sc. Informatik — Universität Beispielstadt
Okt 2013 – Sep 2016

## Kenntnisse

Python, Go, PostgreSQL, Kubernetes
"""

#: A JSON Resume file with no ``meta.cvagent``: its language is told from its words.
JSON_RESUME = {
    "basics": {
        "name": "Lena Beispiel",
        "phone": "+49 30 1234567",
        "summary": "Entwicklerin mit Erfahrung in der Entwicklung von Zahlungssystemen für den "
        "Handel und die Kunden im Rechenzentrum.",
    },
    "work": [
        {
            "name": "Beispiel GmbH",
            "position": "Entwicklerin",
            "startDate": "2019-03",
            "endDate": "present",
        }
    ],
}

PROBE = """\
import json, re, sys
from datetime import date
from cvagent_cli import languages
from cvagent_cli.analysis.analyzer import analyze
from cvagent_cli.document.document import ResumeDocument
from cvagent_cli.document.title_words import is_document_title
from cvagent_cli.formats.interchange.ecosystem import import_json
from cvagent_cli.formats.writing.html_export import render_html

text = sys.stdin.read()
doc = ResumeDocument.from_text(text)
report = analyze(doc, today=date(2025, 6, 1))
print(json.dumps({
    "registry": list(languages.REGISTRY),
    "language": doc.language,
    "kinds": {s.title: s.kind for s in doc.sections if s.level == 2},
    "ranges": [
        [str(e.date_range.start), str(e.date_range.end) if e.date_range.end else None]
        for e in doc.entries if e.date_range
    ],
    "findings": [[f.rule_id, f.line, f.suggestion] for f in report.findings],
    "document_title": is_document_title("Lebenslauf"),
    "html_lang": re.search(r'<html lang="([^"]*)"', render_html(text)).group(1),
    "imported": import_json(JSON_RESUME.encode(), "lena.json")[0],
}))
"""


def test_the_test_language_is_a_valid_language_module(tmp_path: Path, monkeypatch) -> None:
    package = tmp_path / "more_languages"
    package.mkdir()
    shutil.copy(GERMAN, package / "de.py")
    monkeypatch.syspath_prepend(str(tmp_path))
    found = find_languages([str(package)], "more_languages")
    assert list(found) == ["de"] and found["de"].spaced and found["de"].name == "German"
    # a module must be named after its language's code
    shutil.copy(GERMAN, package / "fr.py")
    with pytest.raises(TypeError, match=r"more_languages\.fr\.LANGUAGE"):
        find_languages([str(package)], "more_languages")


@pytest.fixture(scope="module")
def with_german(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The probe's answer from a copy of the package with de.py added to languages/."""
    root = tmp_path_factory.mktemp("german")
    shutil.copytree(PACKAGE, root / "cvagent_cli", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(GERMAN, root / "cvagent_cli" / "languages" / "de.py")
    env = {**os.environ, "PYTHONPATH": str(root)}
    done = subprocess.run(
        [sys.executable, "-c", f"JSON_RESUME = {json.dumps(JSON_RESUME)!r}\n{PROBE}"],
        input=RESUME,
        capture_output=True,
        text=True,
        env=env,
        cwd=root,
        check=True,
        timeout=120,
    )
    return json.loads(done.stdout)


@pytest.mark.slow
def test_the_added_file_is_registered_and_detected(with_german: dict) -> None:
    assert with_german["registry"] == ["en", "de", "zh"]
    assert with_german["language"] == "de"
    assert with_german["document_title"] is True


@pytest.mark.slow
def test_german_section_titles_are_recognised(with_german: dict) -> None:
    assert with_german["kinds"] == {
        "Profil": "summary",
        "Berufserfahrung": "experience",
        "Ausbildung": "education",
        "Kenntnisse": "skills",
    }
    rules = {rule for rule, _, _ in with_german["findings"]}
    assert "completeness.no-experience" not in rules
    assert "completeness.no-education" not in rules
    assert "completeness.no-skills" not in rules


@pytest.mark.slow
def test_german_dates_are_read(with_german: dict) -> None:
    # "März 2019 bis heute", "Jan 2017 – Dez 2018", "Okt 2013 – Sep 2016"
    assert with_german["ranges"] == [
        ["2019-03", None],
        ["2017-01", "2018-12"],
        ["2013-10", "2016-09"],
    ]


@pytest.mark.slow
def test_a_german_weak_opener_is_flagged_with_the_german_fix(with_german: dict) -> None:
    weak = [
        (line, fix) for rule, line, fix in with_german["findings"] if rule == "impact.weak-opener"
    ]
    assert [line for line, _ in weak] == [14]
    assert weak[0][1].startswith("Beginnen Sie mit einem starken Verb (geleitet, gebaut")
    # the English verb rules do not judge German bullets
    rules = {rule for rule, _, _ in with_german["findings"]}
    assert "impact.no-action-verb" not in rules and "clarity.mixed-tense" not in rules


@pytest.mark.slow
def test_export_and_the_json_resume_reader_write_german(with_german: dict) -> None:
    assert with_german["html_lang"] == "de"
    # a JSON Resume file in German: its phone label, section title, months and "present"
    # are the German table's; a section the table does not name takes the English title
    imported = with_german["imported"].splitlines()
    assert "Telefon: +49 30 1234567" in imported
    assert "## Berufserfahrung" in imported and "## Summary" in imported
    assert "Mär 2019 – heute" in imported
