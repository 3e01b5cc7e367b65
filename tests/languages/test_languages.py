"""The registry of languages: what it finds, how it tells a text's and a line's language,
and that the words of every table are read where they are meant to be."""

from __future__ import annotations

from pathlib import Path

import pytest

from cvagent_cli import languages
from cvagent_cli.document.dates import find_ranges
from cvagent_cli.document.document import ResumeDocument
from cvagent_cli.document.kinds import classify_title
from cvagent_cli.document.title_words import is_document_title

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted(ROOT.glob("sample_resumes/*.md"))


def test_the_registry_holds_english_first_then_chinese() -> None:
    assert list(languages.REGISTRY) == ["en", "zh"]
    assert languages.get("en").code == "en" and languages.get("zh").code == "zh"
    assert languages.get("xx") is languages.get(languages.FALLBACK)  # an unknown code


@pytest.mark.parametrize("path", SAMPLES, ids=[p.stem for p in SAMPLES])
def test_detect_agrees_with_the_samples_names(path: Path) -> None:
    # the samples are named en_… and zh_… after their language
    assert languages.detect(path.read_text(encoding="utf-8")).code == path.name[:2]
    assert ResumeDocument.from_text(path.read_text(encoding="utf-8")).language == path.name[:2]


def test_a_line_is_in_its_own_script_else_in_the_documents_language() -> None:
    en, zh = languages.get("en"), languages.get("zh")
    assert languages.of_line("负责订单系统", en) is zh
    assert languages.of_line("Built the order service", zh) is en  # English in a Chinese resume
    assert languages.of_line("Built the order service", en) is en


@pytest.mark.parametrize("language", list(languages.every()), ids=list(languages.REGISTRY))
def test_every_languages_words_are_read(language: languages.Language) -> None:
    for kind, titles in language.sections.titles.items():
        assert all(classify_title(title) == kind for title in titles), kind
    assert all(is_document_title(word) for word in language.resume_titles)
    for present in language.dates.present:
        assert [r.is_current for r in find_ranges(f"2019.03 - {present}")] == [True], present
    for number, month in enumerate(language.dates.abbreviations, start=1):
        (found,) = find_ranges(f"{month} 2019 - {month} 2020")
        assert found.start.month == number
