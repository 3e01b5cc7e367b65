"""Exact unique replacements, batches, and diffs."""

from __future__ import annotations

import pytest

from cvagent_cli.document.document import ResumeDocument
from cvagent_cli.document.editing import (
    EditError,
    Replacement,
    apply_all,
    apply_replacement,
    unified_diff,
)

DOC = "# Ann\n\n## Experience\n### Acme\n- Helped with the team\n### Beta\n- Helped with the team\n## Skills\n- Python\n"


def test_unique_replacement():
    doc = ResumeDocument.from_text(DOC)
    assert "- Python, Go\n" in apply_replacement(doc, "- Python", "- Python, Go")


def test_ambiguous_text_lists_lines_and_section_disambiguates():
    doc = ResumeDocument.from_text(DOC)
    with pytest.raises(EditError, match=r"occurs 2 times .*lines 5, 7"):
        apply_replacement(doc, "Helped with the team", "Led the team")
    text = apply_replacement(doc, "Helped with the team", "Led the team", section="experience/beta")
    assert text.count("Led the team") == 1 and text.index("Led") > text.index("### Beta")


def test_missing_text_suggests_closest_lines():
    doc = ResumeDocument.from_text(DOC)
    with pytest.raises(EditError, match="closest lines: '- Python'"):
        apply_replacement(doc, "- Pyton", "x")


def test_unknown_section_lists_sections():
    with pytest.raises(EditError, match="no section 'Awards'"):
        apply_replacement(ResumeDocument.from_text(DOC), "Python", "Go", section="Awards")


def test_crlf_documents_keep_crlf_in_new_text():
    doc = ResumeDocument.from_text(DOC.replace("\n", "\r\n"))
    text = apply_replacement(doc, "- Python\n", "- Python\n- Go\n")
    assert "- Python\r\n- Go\r\n" in text and "\n" not in text.replace("\r\n", "")


def test_batch_is_all_or_nothing():
    doc = ResumeDocument.from_text(DOC)
    with pytest.raises(EditError, match=r"edit 2: .*Nothing was changed"):
        apply_all(doc, [Replacement("- Python", "- Go"), Replacement("nope", "x")])
    text = apply_all(doc, [Replacement("# Ann", "# Ann Lee"), Replacement("- Python", "- Go")])
    assert text.startswith("# Ann Lee\n") and text.endswith("- Go\n")


def test_overlapping_batch_edits_are_refused():
    doc = ResumeDocument.from_text(DOC)
    with pytest.raises(EditError, match="overlap"):
        apply_all(doc, [Replacement("## Skills\n- Python", "x"), Replacement("- Python", "y")])


def test_diff_has_line_numbers():
    before = DOC
    after = DOC.replace("- Python", "- Python, Go")
    diff = unified_diff(before, after)
    assert "@@ -7,3 +7,3 @@" in diff and "+- Python, Go" in diff


def test_a_batch_error_never_asks_for_a_section_it_cannot_take():
    """batch_edit_resume has no section parameter, so its error must not
    tell the model to name one; and it reads as one sentence (no "..")."""
    doc = ResumeDocument.from_text(DOC)
    with pytest.raises(EditError) as info:
        apply_all(doc, [Replacement("Helped with the team", "Led the team")])
    message = str(info.value)
    assert "occurs 2 times" in message and "section" not in message.split("times in")[1]
    assert "include more surrounding text so it matches exactly once. Nothing" in message
    with pytest.raises(EditError) as info:
        apply_all(doc, [Replacement("- Pyton", "x")])
    assert ".." not in str(info.value)
    with pytest.raises(EditError, match="or name the section"):  # edit_resume has one
        apply_replacement(doc, "Helped with the team", "Led the team")
