"""A language's name titles a languages section as a heading, never as a listed item."""

from __future__ import annotations

import pytest

from cvagent_cli.document.document import ResumeDocument
from cvagent_cli.document.kinds import classify_title, is_standalone_title


def test_a_language_listed_under_languages_is_not_a_section() -> None:
    doc = ResumeDocument.from_text(
        "# Ada Obi\n\nada@example.com\n\n## Languages\n\nEnglish\nIgbo\n**英语**\n日语\n\n"
        "## Skills\n\nPython\n"
    )
    assert [s.title for s in doc.sections if s.level == 2] == ["Languages", "Skills"]


def test_a_heading_named_after_a_language_is_a_languages_section() -> None:
    doc = ResumeDocument.from_text("# 李 明\n\n## English\n\nCET-6, fluent\n\n## 日语\n\nN2\n")
    assert [(s.title, s.kind) for s in doc.sections if s.level == 2] == [
        ("English", "languages"),
        ("日语", "languages"),
    ]
    assert classify_title("English") == "languages"


def test_ordinary_section_names_still_stand_alone() -> None:
    assert is_standalone_title("Experience") and is_standalone_title("工作经历")
    assert not is_standalone_title("English") and not is_standalone_title("英语")


@pytest.mark.parametrize(
    "title",
    [
        "Honors & Awards",
        "Publications & Patents",
        "Certifications and Licenses",
        "证书和奖项",
        "荣誉/奖项",
    ],
)
def test_two_section_names_joined_are_one_section_title(title: str) -> None:
    assert is_standalone_title(title)


@pytest.mark.parametrize(
    "line", ["English / 英语", "Python, SQL", "Research and Development", "Skills, Tools"]
)
def test_a_list_or_a_phrase_is_not_a_joined_title(line: str) -> None:
    assert not is_standalone_title(line)


def test_a_label_repeated_under_every_entry_stays_inside_its_entry() -> None:
    """'Highlights' over each job's bullets (resume builders print it; import keeps it as a
    line): a label of the entry, not a summary section that ends Experience."""
    text = (
        "# Dana Whitfield\n\n## Experience\n\n### Senior Analyst — Brightwater (2021 – Present)\n\n"
        "Highlights\n\n- Cut reporting time by 40%.\n\n### Analyst — Harbor Foods (2018 – 2021)\n\n"
        "Highlights\n\n- Built the demand forecast used by 60 stores.\n\n## Education\n\n"
        "### B.Sc. Statistics — Lakeshore College (2018)\n"
    )
    doc = ResumeDocument.from_text(text)
    assert [s.title for s in doc.sections if s.level == 2] == ["Experience", "Education"]
    labels = [s for s in doc.sections if s.title == "Highlights"]
    assert [(s.level, s.kind) for s in labels] == [(4, "experience"), (4, "experience")]


def test_a_section_name_written_once_as_a_plain_line_is_still_a_section() -> None:
    text = (
        "# Dana Whitfield\n\n## Experience\n\n### Analyst — Harbor Foods (2018 – 2021)\n\n"
        "- Built the demand forecast used by 60 stores.\n\nEducation\n\nB.Sc. Statistics\n\n"
        "## Skills\n\nSQL\n"
    )
    doc = ResumeDocument.from_text(text)
    assert [s.title for s in doc.sections if s.level == 2] == ["Experience", "Education", "Skills"]
