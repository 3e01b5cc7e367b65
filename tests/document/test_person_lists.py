"""A name found in the lists Markdown resumes open with: numbered fields, a contact list."""

from __future__ import annotations

import pytest

from cvagent_cli.document.document import ResumeDocument


@pytest.mark.parametrize(
    ("markdown", "name"),
    [
        (  # numbered fields, no labels
            "1. Marisol Thornquist\n2. marisol@example.com\n3. +1 303 555 0142\n\n"
            "## Experience\n\n- Built a deploy pipeline\n",
            "Marisol Thornquist",
        ),
        (  # the name only in a contact list under a section
            "# Resume\n\n## Contact\n\n- Marisol Thornquist\n- marisol@example.com\n\n"
            "## Experience\n\n- Built a deploy pipeline\n",
            "Marisol Thornquist",
        ),
        (
            "# 简历\n\n## 联系方式\n\n- 王小明\n- 139-0000-1111\n\n## 工作经历\n\n- 负责支付中台\n",
            "王小明",
        ),
        (
            "1. 姓名：张雨桐\n2. 性别：女\n3. 电话：13900001111\n\n## 工作经历\n\n- 负责支付中台\n",
            "张雨桐",
        ),
    ],
)
def test_a_name_in_an_opening_list_is_the_name(markdown: str, name: str) -> None:
    assert ResumeDocument.from_text(markdown).basics.name == name


def test_a_list_without_contact_details_names_nobody() -> None:
    markdown = (
        "# Resume\n\n## Skills\n\n- Python Django\n- Data Engineering\n\n"
        "## Experience\n\n- Built a deploy pipeline for 300 users\n"
    )
    assert ResumeDocument.from_text(markdown).basics.name is None
