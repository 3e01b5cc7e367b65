"""Which parts of the resume a message names, and what the turn context then carries:
the named role rather than its whole section, and no section for a general question
that only uses a section's title as a common word."""

from __future__ import annotations

import pytest

from cvagent_cli.agent.prompts import build_turn_context, relevant_sections
from cvagent_cli.agent.references import named_entries, points_at
from cvagent_cli.analysis.analyzer import analyze
from cvagent_cli.document.document import ResumeDocument
from cvagent_cli.workspace import Workspace
from tests.conftest import SAMPLES

EN = """# Mara Quill

## Summary
Backend engineer.

## Experience
### Staff Engineer — Larkspur Freight, Denver, CO
- Cut p99 latency from 900 ms to 120 ms.

### Senior Engineer — Oxbow Media, Denver, CO
- Built the ad pipeline.

## Projects
### Talk — "Backpressure in payment queues"
- Given at a regional meetup.

### queuelet-rs
- A Rust queue library.

## Skills
Go, Rust, Kafka
"""

ZH = """# 韩雪松

## 工作经历
### 杭州云杉数据科技有限公司 — 高级后端工程师
- 负责订单系统。

### 南京青檀网络有限公司 — 后端工程师
- 负责支付接入。

## 专业技能
Java, Go
"""


def doc(text: str) -> ResumeDocument:
    return ResumeDocument.from_text(text)


def ids(sections) -> list[str]:
    return [s.id for s in sections]


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("tighten the Larkspur bullets", ["experience/staff-engineer-larkspur-freight-denver-co"]),
        ("the oxbow job: make it shorter", ["experience/senior-engineer-oxbow-media-denver-co"]),
        ("is queuelet-rs worth listing?", ["projects/queuelet-rs"]),
        # words every entry shares, role words and a place two entries share name none
        ("rewrite the staff engineer role", []),
        ("anything from Denver?", []),
        # a lowercase word of a talk's title is a topic, not a name
        ("how do I talk about payment queues in an interview?", []),
    ],
)
def test_an_entry_is_named_by_a_word_only_its_title_has(message, expected):
    assert ids(named_entries(doc(EN), message)) == expected


def test_a_chinese_entry_is_named_by_part_of_its_organisation():
    resume = doc(ZH)
    assert ids(named_entries(resume, "把云杉数据那段经历改得更有力")) == [
        "工作经历/杭州云杉数据科技有限公司-高级后端工程师"
    ]
    assert ids(named_entries(resume, "青檀的项目怎么写")) == [
        "工作经历/南京青檀网络有限公司-后端工程师"
    ]
    # generic words (有限公司, 后端工程师) name nothing
    assert named_entries(resume, "后端工程师的简历要写多长？") == []


@pytest.mark.parametrize(
    ("message", "points"),
    [
        ("should I list Bash in skills?", True),
        ("is my experience section too long?", True),
        ("Experience: too long?", True),
        ("rewrite the summary", True),
        ("what's a good length for a resume with 10 years of experience?", False),
        ("write a summary of my career for LinkedIn", False),
    ],
)
def test_a_one_word_title_counts_in_a_question_only_when_pointed_at(message, points):
    title = "Skills" if "skills" in message else "Summary" if "summary" in message else "Experience"
    assert points_at(title, message) is points


def workspace(text: str) -> Workspace:
    return Workspace(doc(text))


def test_a_named_role_is_sent_instead_of_its_whole_section():
    ws = workspace(EN)
    sent = relevant_sections(ws, "EDIT", "Experience", "improve the Oxbow bullets in Experience")
    assert [s.id for s, _ in sent] == ["experience/senior-engineer-oxbow-media-denver-co"]
    assert "Built the ad pipeline" in sent[0][1] and "Larkspur" not in sent[0][1]
    # naming only the section still sends all of it
    sent = relevant_sections(ws, "EDIT", "Experience", "improve my Experience bullets")
    assert [s.id for s, _ in sent] == ["experience"]


def test_a_general_question_gets_no_section_it_does_not_point_at():
    ws = workspace(EN)
    question = "what's a good length for a resume with 10 years of experience?"
    assert relevant_sections(ws, "QUESTION", "Experience", question) == []
    # the same words in a request about the resume still send the section
    assert [s.id for s, _ in relevant_sections(ws, "EDIT", "Experience", "shorten experience")] == [
        "experience"
    ]
    pointed = relevant_sections(ws, "QUESTION", "Skills", "should I list Bash in my Skills?")
    assert [s.id for s, _ in pointed] == ["skills"]


def context(ws: Workspace, intent: str, text: str) -> str:
    parts, _ = build_turn_context(
        workspace=ws,
        intent=intent,
        section_hint=None,
        user_text=text,
        language="en",
        goal="shorten the Oxbow bullets",
        progress="",
        notes=[],
        next_step="",
    )
    return "\n\n".join(parts.values())


def test_a_general_question_carries_no_goal_or_resume_state():
    ws = workspace(EN)
    ws.remember_report(analyze(ws.doc))
    edit = context(ws, "EDIT", "go on")
    assert "user's goal: shorten the Oxbow bullets" in edit and "resume now:" in edit
    assert "last analysis:" in edit
    question = context(ws, "QUESTION", "how do I negotiate salary?")
    assert "goal" not in question and "resume now" not in question
    assert "current request intent: QUESTION" in question


def test_findings_line_numbers_are_not_shown_once_the_resume_changed():
    sample = (SAMPLES / "en_weak_generalist.md").read_text(encoding="utf-8")
    ws = workspace(sample)
    report = analyze(ws.doc)
    ws.remember_report(report)
    assert report.findings and "top findings: L" in context(ws, "EDIT", "go on")
    first = ws.doc.text.splitlines()[0]
    assert ws.apply(ws.doc.text, ws.doc.text.replace(first, first + " Jr."), "rename").applied
    stale = context(ws, "EDIT", "go on")
    assert f"last analysis: {report.score}/100, before the latest edits" in stale
    assert "top findings" not in stale
