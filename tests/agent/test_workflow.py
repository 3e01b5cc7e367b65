"""GuideAgent workflow: the stage machine and the optimizer's task progress."""

from __future__ import annotations

from pathlib import Path

import pytest

from cvagent_cli.agent.workflow import STAR_STAGES, Stage, StageMachine, Task, WorkflowProgress
from cvagent_cli.document.document import ResumeDocument

SAMPLES = Path(__file__).resolve().parents[2] / "sample_resumes"


# -- StageMachine ------------------------------------------------------------------------


def test_machine_starts_in_discovery():
    machine = StageMachine(list(STAR_STAGES))
    assert machine.current == "DISCOVERY"
    assert machine.history == ["DISCOVERY"]


def test_forward_steps_through_every_stage():
    machine = StageMachine(list(STAR_STAGES))
    for stage in ("DRAFTING", "CONFIRMING", "FINISHED"):
        ok, message = machine.advance(stage)
        assert ok, message
    assert machine.current == "FINISHED"
    assert machine.history == list(STAR_STAGES)


def test_skipping_from_discovery_to_finished_is_refused_with_a_reason():
    machine = StageMachine(list(STAR_STAGES))
    ok, message = machine.advance("FINISHED")
    assert not ok
    assert "DRAFTING" in message and "CONFIRMING" in message
    assert machine.current == "DISCOVERY"
    assert machine.history == ["DISCOVERY"]


def test_skipping_confirmation_is_refused():
    machine = StageMachine(list(STAR_STAGES), current="DRAFTING")
    ok, message = machine.advance(Stage.FINISHED)
    assert not ok and "CONFIRMING" in message


def test_unknown_stage_is_refused_and_lists_the_stages():
    machine = StageMachine(list(STAR_STAGES))
    ok, message = machine.advance("POLISHING")
    assert not ok
    assert "unknown stage" in message and "DISCOVERY → DRAFTING → CONFIRMING → FINISHED" in message


def test_staying_in_a_stage_is_allowed_and_not_recorded():
    machine = StageMachine(list(STAR_STAGES))
    assert machine.advance("DISCOVERY") == (True, "staying in DISCOVERY")
    assert machine.history == ["DISCOVERY"]


@pytest.mark.parametrize(
    ("start", "target"),
    [
        ("FINISHED", "DRAFTING"),
        ("CONFIRMING", "DRAFTING"),
        ("DRAFTING", "DISCOVERY"),
        ("FINISHED", "DISCOVERY"),
    ],
)
def test_backtrack_to_any_earlier_stage(start: str, target: str):
    machine = StageMachine(list(STAR_STAGES), current=start)
    ok, message = machine.advance(target)
    assert ok and message.startswith("BACKTRACK")
    assert machine.current == target


@pytest.mark.parametrize(
    ("start", "target"),
    [("FINISHED", "DRAFTING"), ("CONFIRMING", "DRAFTING"), ("DRAFTING", "DISCOVERY")],
)
def test_backtrack_keyword_returns_to_drafting_or_the_previous_stage(start: str, target: str):
    machine = StageMachine(list(STAR_STAGES), current=start)
    assert machine.advance("backtrack")[0]
    assert machine.current == target


def test_backtrack_from_the_first_stage_is_refused():
    assert StageMachine(list(STAR_STAGES)).advance("BACKTRACK")[0] is False


def test_stage_names_are_case_insensitive_and_enums_work():
    machine = StageMachine(list(STAR_STAGES))
    assert machine.advance("drafting")[0]
    assert machine.advance(Stage.CONFIRMING)[0]
    assert machine.current == "CONFIRMING"


def test_custom_stage_lists_work():
    machine = StageMachine(["ASK", "WRITE"])
    assert machine.advance("WRITE")[0] and machine.current == "WRITE"


def test_machine_without_stages_refuses_politely():
    machine = StageMachine([])
    assert machine.advance("DRAFTING") == (False, "this mode has no stages")


def test_machine_round_trips_through_a_dict():
    machine = StageMachine(list(STAR_STAGES))
    machine.advance("DRAFTING")
    machine.advance("CONFIRMING")
    machine.advance("DRAFTING")
    copy = StageMachine.from_dict(machine.to_dict())
    assert copy.to_dict() == machine.to_dict()
    assert copy.history == ["DISCOVERY", "DRAFTING", "CONFIRMING", "DRAFTING"]


@pytest.mark.parametrize(
    "data", [None, {}, {"stages": "x"}, {"current": 3, "history": "no"}, {"current": "NOPE"}]
)
def test_damaged_machine_data_falls_back_to_a_fresh_machine(data):
    machine = StageMachine.from_dict(data)
    assert machine.current == "DISCOVERY"


# -- WorkflowProgress --------------------------------------------------------------------


def seven_tasks() -> WorkflowProgress:
    ids = ["experience", "projects", "summary", "skills", "awards", "education", "languages"]
    return WorkflowProgress([Task(section_id=i, title=i.title()) for i in ids])


def test_summary_line_lists_done_skipped_and_next():
    progress = seven_tasks()
    for section in ("experience", "projects", "summary"):
        assert progress.mark(section, "done")[0]
    progress.mark("awards", "skipped")
    progress.mark("skills", "done")
    progress.mark("skills", "pending")
    line = progress.summary_line()
    assert (
        line
        == "3/7 sections done, 1 skipped: experience, projects, summary | skipped: awards | next: skills"
    )


def test_summary_line_edge_cases():
    assert WorkflowProgress().summary_line() == "no sections to work on"
    progress = WorkflowProgress([Task("summary", "Summary"), Task("skills", "Skills")])
    assert progress.summary_line() == "0/2 sections done | next: summary"
    progress.mark("summary", "done")
    progress.mark("skills", "skip")
    assert (
        progress.summary_line()
        == "1/2 sections done, 1 skipped: summary | skipped: skills | all sections handled"
    )


def test_completed_skipped_remaining_and_current():
    progress = seven_tasks()
    progress.mark("experience", "done")
    progress.mark("projects", "skipped")
    progress.mark("education", "in_progress")
    assert [t.section_id for t in progress.completed] == ["experience"]
    assert [t.section_id for t in progress.skipped] == ["projects"]
    assert [t.section_id for t in progress.remaining] == [
        "summary",
        "skills",
        "awards",
        "education",
        "languages",
    ]
    assert progress.current.section_id == "education"


def test_only_one_task_is_in_progress_at_a_time():
    progress = seven_tasks()
    progress.mark("summary", "in_progress")
    progress.mark("skills", "in_progress")
    assert [t.section_id for t in progress.tasks if t.status == "in_progress"] == ["skills"]


def test_mark_accepts_titles_and_status_synonyms():
    progress = WorkflowProgress(
        [Task("work-experience", "Work Experience"), Task("技能特长", "技能特长")]
    )
    assert progress.mark("Work Experience", "completed")[0]
    assert progress.mark("技能特长", "skip")[0]
    assert [t.status for t in progress.tasks] == ["done", "skipped"]


def test_mark_refuses_unknown_sections_and_statuses_with_a_message():
    progress = seven_tasks()
    ok, message = progress.mark("hobbies", "done")
    assert not ok and "no task for section 'hobbies'" in message and "experience" in message
    ok, message = progress.mark("skills", "finished-ish")
    assert not ok and "unknown status" in message


def test_mark_reply_carries_the_progress_for_the_model():
    progress = seven_tasks()
    ok, message = progress.mark("experience", "done")
    assert ok and message.startswith("experience: done.") and "1/7 sections done" in message


def test_from_outline_makes_one_task_per_top_level_content_section():
    doc = ResumeDocument.from_path(SAMPLES / "zh_mid_java_table.md")
    progress = WorkflowProgress.from_outline(
        doc.outline(), text_of=lambda sid: doc.section_text(doc.find_section(sid))
    )
    assert [t.section_id for t in progress.tasks] == [
        "工作经历",
        "项目经历",
        "教育背景",
        "专业技能",
    ]
    assert progress.tasks[0].kind == "experience"
    assert progress.tasks[0].original_text.startswith("## 工作经历")
    assert all(t.status == "pending" for t in progress.tasks)


def test_from_outline_skips_a_bold_name_line_without_headings():
    doc = ResumeDocument.from_path(SAMPLES / "en_mid_data_analyst.md")
    progress = WorkflowProgress.from_outline(doc.outline())
    assert [t.section_id for t in progress.tasks] == [
        "summary",
        "experience",
        "education",
        "skills",
        "certifications",
    ]


def test_from_outline_accepts_section_objects():
    doc = ResumeDocument.from_path(SAMPLES / "en_new_grad.md")
    progress = WorkflowProgress.from_outline(doc.sections)
    assert [t.section_id for t in progress.tasks] == [
        "education",
        "internships",
        "projects",
        "leadership",
        "skills",
    ]


def test_progress_round_trips_through_a_dict():
    progress = seven_tasks()
    progress.mark("experience", "done")
    progress.mark("summary", "skipped")
    copy = WorkflowProgress.from_dict(progress.to_dict())
    assert copy == progress
    assert copy.find("summary").status == "skipped"


def test_damaged_progress_data_keeps_what_it_can():
    data = {"tasks": [{"section_id": "skills", "status": "weird"}, {"title": "no id"}, "junk"]}
    progress = WorkflowProgress.from_dict(data)
    assert [(t.section_id, t.title, t.status) for t in progress.tasks] == [
        ("skills", "skills", "pending")
    ]
    assert WorkflowProgress.from_dict(None).tasks == []
