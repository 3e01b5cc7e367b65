"""Names: cleaned from where real resumes put them, refused when they are not names."""

from __future__ import annotations

import pytest

from cvagent_cli.document import person
from cvagent_cli.document.document import ResumeDocument


@pytest.mark.parametrize(
    ("raw", "name"),
    [
        ("Kofi Mensah's Resume", "Kofi Mensah"),
        ("韩梓萱的简历", "韩梓萱"),
        ("韩梓萱的个人简历", "韩梓萱"),
        ("NOUR EL-AMRANI | MOROCCO | RABAT", "NOUR EL-AMRANI"),
        ("<p align=center>Tomasz Wielgosz</p>", "Tomasz Wielgosz"),
        ("**温思齐**", "温思齐"),
        ("宋嘉禾/男/1998", "宋嘉禾"),
        ("Resume - Ana de la Cruz", "Ana de la Cruz"),
        ("Jane Doe, PhD", "Jane Doe, PhD"),
        ("黎景行 (3年开发)", "黎景行"),
        # a template that prints the headline after the name (JSON Resume's onepage)
        ("Anouk Ravensworth, UX Researcher", "Anouk Ravensworth"),
        ("Corentin Vantongeren, Site Reliability Engineer", "Corentin Vantongeren"),
        ("马梓萱，开发工程师", "马梓萱"),
        ("罗明轩, 数据工程师", "罗明轩"),
        ("马梓萱, Java", "马梓萱"),  # after a Chinese name, any headline (not only a job's words)
    ],
)
def test_name_is_cleaned_of_what_surrounds_it(raw: str, name: str) -> None:
    assert person.clean_name(raw) == name


@pytest.mark.parametrize(
    "raw",
    [
        "Resume",
        "## Résumé",
        "简历",
        "个人简历",
        "简历 / Resume",
        "Curriculum Vitae",
        "Experience",
        "工作经历",
        "This is my CV for backend roles in Berlin.",
        "<div align='center'></div>",
        "QA Automation Engineer",
        "前端工程师",
        "Stockholm, Sweden",
        "jane@example.com",
        "Software Engineer, Acme",
        "Ana Ruiz, Senior Engineer, Acme",
    ],
)
def test_document_titles_sections_sentences_and_tags_are_not_names(raw: str) -> None:
    assert person.clean_name(raw) is None


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("---\nname: 林若溪\n---\n\n## 工作经历\n- 负责看板\n", "林若溪"),
        ("---\nlayout: page\ntitle: Lena Hartig\n---\n\nProfile\n-------\nx\n", "Lena Hartig"),
        (
            "# Resume\n\n## Sofia Marchetti\n\nsofia@example.it\n\n## Experience\n- x\n",
            "Sofia Marchetti",
        ),
        ("## Personal Information\n### First Name\nJonas\n### Last Name\nBrandt\n", "Jonas Brandt"),
        ("# 个人简历\n\n## 基本信息\n- 姓名：唐可欣\n\n## 教育背景\nx\n", "唐可欣"),
        ("# 求职简历\n\n**姓名**：柏乔\n\n## 专业技能\n- Kotlin\n", "柏乔"),
        (
            "% Viktor Novak\n% viktor@example.cz\n\n# Experience\n\nx\n\n# Skills\n\ny\n",
            "Viktor Novak",
        ),
        (
            "<div align='center'><font size='6'>Amara Okafor</font></div>\n\n### About me\nx\n",
            "Amara Okafor",
        ),
        ("This is my CV.\n\n- Name: Ines Calloway\n\n## Experience\n- x\n", "Ines Calloway"),
    ],
)
def test_document_finds_the_name_where_real_resumes_put_it(text: str, name: str) -> None:
    assert ResumeDocument.from_text(text).basics.name == name


def test_a_generic_title_alone_gives_no_name() -> None:
    assert (
        ResumeDocument.from_text("# Resume\n\n## Experience\n- Built things\n").basics.name is None
    )


@pytest.mark.parametrize(
    "name",
    [
        "Trần Thị Mai",  # Vietnamese
        "Łukasz Żak",  # Polish
        "Şükrü Öztürk",  # Turkish
        "İlkay Gündoğan",
        "Guðrún Þórsdóttir",  # Icelandic
        "Kovács Éva",  # Hungarian, family name first
        "Ọlábísí Àdìgún",  # Yoruba, precomposed
        "Ọla\u0301bi\u0301si\u0301 A\u0300di\u0300gu\u0301n",  # Yoruba, combining marks
        "José María de la Fuente y Ortega",  # particles
        "Anne-Marie Dupont-Laurent",  # hyphenated
        'Samantha "Sam" O\'Connor',  # a quoted nickname, an apostrophe
        "Siobhán Ní Bhriain",
        "李 明",  # a space inside a Chinese name
        "林小雨 Xiaoyu Lin",  # written in two scripts, either way round
        "Li Wei 李伟",
        "陈大文 Chan",
        "Ní Bhriain, Siobhán",  # family name first, before a comma
        "买买提·艾力",  # Uyghur, middle dot
        "阿依古丽·买买提·吐尔逊",
        "김민준",  # Korean
        "김 민준",
        "山田 太郎",  # Japanese
    ],
)
def test_a_name_in_any_script_is_found_in_the_title_heading(name: str) -> None:
    doc = ResumeDocument.from_text(
        f"# {name}\n\nmail@example.com\n\n## Experience\n\n- Did things\n"
    )
    assert doc.basics.name == name


@pytest.mark.parametrize(
    "raw",
    [
        "이력서",
        "履歴書",
        "Łódź, Poland",
        "Senior Engineer",
        "工作 经历",
        "Ćwiczenia 2024",
        "李明 Engineer",
        "项目 GitHub",
        "李明Wei Chen",
    ],
)
def test_titles_places_and_headings_in_other_scripts_are_not_names(raw: str) -> None:
    assert person.clean_name(raw) is None


def test_a_trailing_emoji_is_not_part_of_the_name() -> None:
    doc = ResumeDocument.from_text("# Maya Cohen 🚀\n\nmaya@example.com\n\n## Experience\n- x\n")
    assert doc.basics.name == "Maya Cohen"
