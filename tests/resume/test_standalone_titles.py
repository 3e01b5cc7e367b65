"""A language's name titles a languages section as a heading, never as a listed item."""

from __future__ import annotations

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
