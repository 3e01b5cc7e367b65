"""One reading of a resume's entries: the analyzer, the PDF/DOCX/HTML layout, JSON Resume
and rendercv all read ``ResumeDocument.entries``, on every sample and corpus resume; and
what that reading fixed in the data formats.  Invented people only."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cvagent_cli.analysis.rules import build_context
from cvagent_cli.document.document import ResumeDocument
from cvagent_cli.document.entry_words import read_degree, split_place
from cvagent_cli.formats.interchange import resume_data as rd
from cvagent_cli.formats.interchange.ecosystem import import_json, render
from cvagent_cli.formats.interchange.rendercv_yaml import to_rendercv
from cvagent_cli.formats.writing.layout import Subheading, read_layout

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted((ROOT / "sample_resumes").glob("*.md")) + sorted(
    (ROOT / "tests" / "analysis" / "corpus").iterdir()
)
JSON_ENTRY_FIELDS = ("work", "education", "projects", "volunteer")


def test_every_sample_and_corpus_resume_is_read() -> None:
    assert len(FILES) == 75


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_consumer_reads_the_same_entries(path: Path) -> None:
    markdown = path.read_text(encoding="utf-8")
    doc = ResumeDocument.from_text(markdown)
    entries = doc.entries
    # the analyzer: the document's entries themselves
    assert build_context(doc).entries is entries
    # the structured data JSON Resume and rendercv are written from: one per entry, in order
    data = rd.read(doc)
    mapped = [e for p in data.parts if p.field in rd.ENTRY_FIELDS for e in p.entries]
    assert [len(e.bullets) for e in mapped] == [len(e.bullets) for e in entries]
    exported = json.loads(render(markdown, ".json")[0])
    assert sum(len(exported.get(f, [])) for f in JSON_ENTRY_FIELDS) == len(entries)
    rendercv = to_rendercv(data).data.get("cv", {}).get("sections", {})
    for part in data.parts:
        if part.field in rd.ENTRY_FIELDS and any(e.title for e in part.entries):
            assert len(rendercv[part.title]) == len(part.entries), part.title
    # the layout: a title row for each entry with a heading (a table keeps its rows)
    rows = [b.entry for b in read_layout(markdown).blocks if isinstance(b, Subheading)]
    assert [r for r in rows if r is not None] == [e for e in entries if e.heading and not e.row]


def _data(markdown: str) -> dict:  # type: ignore[type-arg]
    return json.loads(render(markdown, ".json")[0])  # type: ignore[no-any-return]


def test_a_nested_bullet_is_listed_once_and_not_inside_its_parent() -> None:
    doc = ResumeDocument.from_text(
        "# Ana Ruiz\n\n## Experience\n\n### Analyst — Acme, 2020 – 2022\n\n"
        "- Built the data platform\n  - Cut load time by 40%\n  - Wrote the runbook\n- Led hiring\n"
    )
    (entry,) = doc.entries
    assert [(b.text, b.depth) for b in entry.bullets] == [
        ("Built the data platform", 0),
        ("Cut load time by 40%", 1),
        ("Wrote the runbook", 1),
        ("Led hiring", 0),
    ]
    (work,) = _data(doc.text)["work"]
    assert work["highlights"] == [
        "Built the data platform",
        "Cut load time by 40%",
        "Wrote the runbook",
        "Led hiring",
    ]


def test_a_campus_is_part_of_the_school_name_not_its_place() -> None:
    degree = read_degree("B.A. in Cognitive Science — University of California, San Diego")
    assert (degree.institution, degree.location) == ("University of California, San Diego", "")
    assert split_place("University of Washington, Seattle, WA") == (
        "University of Washington",
        "Seattle, WA",
    )
    assert split_place("Northwind Payments, Seattle, WA") == ("Northwind Payments", "Seattle, WA")


def test_a_setext_underline_is_not_the_headline() -> None:
    basics = _data("Bo Lindqvist\n============\n\nbo@example.com\n\n## Skills\n\n- SQL\n")["basics"]
    assert "label" not in basics


def test_a_job_objective_section_is_the_headline_and_comes_back_as_a_section() -> None:
    markdown = (
        "# 林若溪\n\n邮箱：linruoxi@example.cn\n\n## 求职意向\n\n数据分析师\n\n"
        "## 个人简介\n\n五年数据分析经验。\n"
    )
    basics = _data(markdown)["basics"]
    assert (basics["label"], basics["summary"]) == ("数据分析师", "五年数据分析经验。")
    back, _ = import_json(render(markdown, ".json")[0].encode(), "r.json")
    assert "## 求职意向\n\n数据分析师\n" in back
    assert back.count("数据分析师") == 1


def test_a_degree_or_a_project_link_in_a_bullet_is_not_a_profile() -> None:
    basics = _data(
        "# Lena Hartig\n\nlena@example.org | github.com/lena-example\n\n## Projects\n\n"
        "**Tide** 2021 – 2022\n\n- Source at github.com/lena-example/tide\n\n"
        "## Education\n\nM.Sc. Statistics, Universität Elbstadt, 2019\n"
    )["basics"]
    assert [p["url"] for p in basics["profiles"]] == ["https://github.com/lena-example"]


def test_bullets_under_a_table_row_belong_to_that_row_s_job() -> None:
    doc = ResumeDocument.from_text(
        "# 罗一帆\n\n## 工作经验\n\n| 时间 | 公司 | 职位 |\n| --- | --- | --- |\n"
        "| 2016.03 - 2023.09 | 金陵物流科技 | 产品经理 |\n\n- 主导仓储系统改版。\n- 负责需求评审。\n"
    )
    (entry,) = doc.entries
    assert entry.row and entry.date_range is not None
    assert [b.text for b in entry.bullets] == ["主导仓储系统改版。", "负责需求评审。"]


def test_an_entry_reads_its_organisation_role_place_and_dates_once() -> None:
    doc = ResumeDocument.from_text(
        "# A\n\n## Experience\n\n**Data Analyst — Northwind Payments, Seattle, WA**\n"
        "Mar 2019 – Present\n\n- Built dashboards\n"
    )
    (entry,) = doc.entries
    assert entry.title == "Data Analyst — Northwind Payments, Seattle, WA"
    assert (entry.organisation("en"), entry.role("en"), entry.place("en")) == (
        "Northwind Payments",
        "Data Analyst",
        "Seattle, WA",
    )
    assert entry.date_range is not None and entry.date_range.raw == "Mar 2019 – Present"
    assert (entry.line, entry.head_end, entry.end_line) == (5, 6, 8)
