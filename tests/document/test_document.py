"""The resume document model: sections, kinds, ids, bullets, basics, round trip."""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cvagent_cli.document.document import ResumeDocument, slugify
from cvagent_cli.store.textio import TextFormat, decode_bytes
from tests.conftest import SAMPLES, sample_resume_paths

GOLDEN = SAMPLES.parent / "tests" / "document" / "golden"
UPDATE = os.environ.get("CVAGENT_UPDATE_GOLDEN") == "1"


def snapshot(doc: ResumeDocument) -> dict:
    return {
        "basics": doc.basics.model_dump(),
        "language": doc.language,
        "sections": [
            {
                "id": s.id,
                "title": s.title,
                "kind": s.kind,
                "level": s.level,
                "style": s.heading_style,
                "lines": [s.start_line, s.end_line],
                "bullets": [b.line for b in s.bullets],
            }
            for s in doc.sections
        ],
    }


@pytest.mark.parametrize("path", sample_resume_paths(), ids=lambda p: p.name)
def test_sample_parses_as_golden_file(path):
    """Run with CVAGENT_UPDATE_GOLDEN=1 to rewrite the golden files after a deliberate change."""
    doc = ResumeDocument.from_path(path)
    golden = GOLDEN / (path.stem + ".json")
    actual = snapshot(doc)
    if UPDATE:
        golden.write_text(json.dumps(actual, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    # a missing golden file is a failure, never written silently (that test could not fail)
    assert golden.exists(), f"no golden file {golden.name}: run with CVAGENT_UPDATE_GOLDEN=1"
    assert actual == json.loads(golden.read_text(encoding="utf-8"))
    assert doc.render() == path.read_bytes()


@pytest.mark.parametrize("path", sample_resume_paths(), ids=lambda p: p.name)
def test_every_sample_has_core_sections_and_contact(path):
    doc = ResumeDocument.from_path(path)
    kinds = {s.kind for s in doc.sections}
    assert kinds & {"experience", "projects"}
    assert doc.basics.name


def test_atx_headings_nest_under_parent_with_slug_path():
    doc = ResumeDocument.from_text(
        "# Ann Lee\nann@example.com\n\n## Experience\n### Acme Corp\n- Built X\n### Beta Inc.\n- Led Y\n## Education\n- BSc\n"
    )
    ids = [s.id for s in doc.sections]
    assert ids == [
        "ann-lee",
        "experience",
        "experience/acme-corp",
        "experience/beta-inc",
        "education",
    ]
    acme = doc.find_section("experience/acme-corp")
    assert (
        acme.kind == "experience"
        and acme.bullets[0].text == "Built X"
        and acme.bullets[0].line == 6
    )
    assert doc.find_section("experience").end_line == 8


def test_title_h1_is_contact_and_sections_are_not_its_children():
    doc = ResumeDocument.from_text("# Ann Lee\nEmail: ann@example.com\n\n## Skills\n- Python\n")
    title, skills = doc.sections
    assert title.kind == "contact" and title.end_line == 3
    assert skills.parent_id is None


@pytest.mark.parametrize(
    "text, title, style",
    [
        ("Work Experience\n===============\n\n- Did things\n", "Work Experience", "setext"),
        ("**Experience**\n\n- Did things\n", "Experience", "bold"),
        ("**工作经历**\n\n- 主导支付系统重构\n", "工作经历", "bold"),
        ("**Skills:**\n\nPython\n", "Skills", "bold"),
        ("EXPERIENCE\n\n- Did things\n", "EXPERIENCE", "plain"),
        ("## 教育背景\n- 复旦大学\n", "教育背景", "atx"),
    ],
)
def test_heading_styles_are_recognised(text, title, style):
    doc = ResumeDocument.from_text(text)
    section = doc.sections[0]
    assert (section.title, section.heading_style) == (title, style)
    assert section.kind != "other"


@pytest.mark.parametrize(
    "title, kind",
    [
        ("工作经验", "experience"),
        ("项目经历", "projects"),
        ("项目经验", "projects"),
        ("教育经历", "education"),
        ("专业技能", "skills"),
        ("技能特长", "skills"),
        ("自我评价", "summary"),
        ("获奖情况", "awards"),
        ("Professional Experience", "experience"),
        ("Certifications", "certifications"),
        ("Publications", "publications"),
        ("Languages", "languages"),
        ("Volunteer Experience", "volunteer"),
        ("Contact", "contact"),
        ("Hobbies", "interests"),
        ("兴趣爱好", "interests"),
        ("论文发表", "publications"),
        ("开源贡献", "projects"),
        ("Code Samples", "projects"),
        ("英语能力", "languages"),
        ("References", "references"),
        ("Relevant Coursework", "courses"),
        ("Speaking", "publications"),
    ],
)
def test_section_kind_from_english_and_chinese_synonyms(title, kind):
    assert ResumeDocument.from_text(f"## {title}\n- x\n").sections[0].kind == kind


def test_chinese_ids_are_stable_slugs():
    doc = ResumeDocument.from_text("## 工作经历\n### 字节跳动 · 高级工程师\n- 主导\n")
    assert [s.id for s in doc.sections] == ["工作经历", "工作经历/字节跳动-高级工程师"]
    assert slugify("C++ / Go Engineer") == "c-go-engineer"


def test_duplicate_titles_get_distinct_ids():
    doc = ResumeDocument.from_text("## Projects\n### Demo\n- a\n### Demo\n- b\n")
    assert [s.id for s in doc.sections] == ["projects", "projects/demo", "projects/demo-2"]


def test_code_fence_hash_lines_are_not_headings():
    doc = ResumeDocument.from_text("## Projects\n```\n# not a heading\n```\n- real bullet\n")
    assert [s.title for s in doc.sections] == ["Projects"]
    assert [b.kind for b in doc.blocks] == ["code"]


def test_tables_html_and_front_matter_are_recorded():
    text = "---\nname: Ann Lee\nemail: ann@example.com\n---\n## Skills\n| a | b |\n|---|---|\n| 1 | 2 |\n\n<div>x</div>\n\nSee <span>this</span>\n"
    doc = ResumeDocument.from_text(text)
    assert doc.front_matter == {"name": "Ann Lee", "email": "ann@example.com"}
    assert doc.front_matter_span == (1, 4)
    assert {b.kind for b in doc.blocks} == {"table", "html"}
    assert doc.html_inline_lines == [12]
    assert doc.basics.name == "Ann Lee" and doc.basics.email == "ann@example.com"


def test_no_headings_gives_one_preamble_section():
    doc = ResumeDocument.from_text("Ann Lee\nann@example.com\nI did many things.\n")
    assert [(s.id, s.kind) for s in doc.sections] == [("preamble", "contact")]


def test_front_matter_only_has_no_sections():
    doc = ResumeDocument.from_text("---\nname: Ann\n---\n")
    assert doc.sections == [] and doc.front_matter == {"name": "Ann"}


def test_broken_front_matter_is_reported_not_raised():
    doc = ResumeDocument.from_text("---\nname: [unclosed\n---\n## Skills\n- x\n")
    assert doc.front_matter is None and doc.front_matter_error


@pytest.mark.parametrize(
    "header, field, value",
    [
        ("Email: ann@example.com | +1 (555) 123-4567", "phone", "+1 (555) 123-4567"),
        ("电话：138-0013-8000 | 邮箱：zhang@example.com", "phone", "138-0013-8000"),
        ("+86 138 0013 8000 · 上海", "phone", "+86 138 0013 8000"),
        ("13800138000", "phone", "13800138000"),
        ("linkedin.com/in/ann-lee | github.com/annlee", "linkedin", "linkedin.com/in/ann-lee"),
        ("linkedin.com/in/ann-lee | github.com/annlee", "github", "github.com/annlee"),
        ("https://annlee.dev | ann@example.com", "website", "https://annlee.dev"),
        ("Seattle, WA | ann@example.com", "location", "Seattle, WA"),
        ("现居：杭州 | 13800138000", "location", "杭州"),
    ],
)
def test_basic_info_extraction(header, field, value):
    doc = ResumeDocument.from_text(
        f"# Ann Lee\n{header}\n\n## Experience\n- Built things with Node.js\n"
    )
    assert getattr(doc.basics, field) == value


def test_technology_names_are_not_websites():
    doc = ResumeDocument.from_text(
        "# Ann\nann@example.com\n\n## Skills\n- Node.js, ASP.NET, Vue.js\n"
    )
    assert doc.basics.website is None


@pytest.mark.parametrize(
    "raw",
    [
        b"# A\r\n\r\n- x  \r\n",
        b"\xef\xbb\xbf# A\n- x\n",
        "\ufeff# 张三\n- 主导\n".encode("utf-16"),
        "# 张三\n## 工作经历\n- 主导支付系统\n".encode("gb18030"),
        "# Zoë Müller\r\n## Café Société \u2014 Lead\r\n- Led the team\u2019s \u201cmove\u201d\r\n".encode(
            "cp1252"
        ),
        b"# A\n- no final newline",
        b"# A\r- old mac newlines\r",
    ],
)
def test_round_trip_is_byte_exact(raw):
    decoded = decode_bytes(raw)
    doc = ResumeDocument.from_decoded(decoded, source="t")
    assert doc.render() == raw


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=400))
def test_parse_render_identity_and_sane_spans_on_arbitrary_text(text):
    doc = ResumeDocument.from_text(text, TextFormat())
    assert doc.render() == text.encode("utf-8")
    for section in doc.sections:
        assert 1 <= section.start_line <= section.end_line <= max(doc.line_count, 1)
        for bullet in section.bullets:
            assert section.start_line <= bullet.line <= section.end_line


@settings(max_examples=80, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "## Experience",
                "### Acme",
                "- Led **X**",
                "**Skills**",
                "工作经历",
                "text",
                "",
                "---",
                "| a |",
                "```",
                "# Name",
            ]
        ),
        max_size=30,
    ),
    st.sampled_from(["\n", "\r\n"]),
)
def test_markdown_shaped_documents_round_trip(lines, newline):
    text = newline.join(lines) + newline
    doc = ResumeDocument.from_text(text)
    assert doc.text == text and doc.render() == text.encode()
    assert "".join(doc.lines) == text


def test_a_heading_that_names_one_project_or_job_is_an_entry_not_a_section() -> None:
    doc = ResumeDocument.from_text(
        "# Jane Doe\n\njane@example.com\n\n## Projects\n\n## Project: Chat App\n\n- Built it\n\n"
        "## Open Source Contributions\n\n- Fixed 12 bugs\n\n## 工作经历\n\n## 实习经历\n\n- 写代码\n\n"
        "## Experience\n\n## Experience Design Intern, Figma\n\n- Ran 8 usability studies\n"
    )
    roots = [(s.title, s.kind) for s in doc.roots if s.heading_line and s.kind != "contact"]
    assert roots == [
        ("Projects", "projects"),
        ("Open Source Contributions", "projects"),
        ("工作经历", "experience"),
        ("实习经历", "experience"),  # a section name, not an entry
        ("Experience", "experience"),
    ]
    chat = next(s for s in doc.sections if s.title == "Project: Chat App")
    intern = next(s for s in doc.sections if s.title.startswith("Experience Design"))
    assert (chat.parent_id, intern.parent_id) == ("projects", "experience")
