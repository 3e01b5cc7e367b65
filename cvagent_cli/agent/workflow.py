"""The guided workflow's state, which ``ResumeAgent`` keeps for packs that ask for it:
the stage machine and the task list (the GuideAgent of the design notes; cvagent has no
separate guide agent, one agent runs every capability pack).

``StageMachine`` is the DISCOVERY → DRAFTING → CONFIRMING → FINISHED flow of the STAR
storytelling strategy (any stage list a capability pack declares works): one step
forward at a time, BACKTRACK to any earlier stage, never a skip to the end.  The model
moves it with ``update_progress(stage=...)``; a refused move comes back as a message the
model can act on, never as an exception.

``WorkflowProgress`` is the task list (the ``optimizer`` pack's walk): one ``Task`` per
top-level content section (section, original text, diagnosis, goal, status), with the
completed / skipped / remaining split that the workflow context shows the model.  Both persist with the chat
session through ``to_dict()`` / ``from_dict()``, which tolerate damaged data.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from enum import Enum
from typing import Any, Literal


class Stage(str, Enum):
    DISCOVERY = "DISCOVERY"  # ask questions, one per turn
    DRAFTING = "DRAFTING"  # show and revise a draft
    CONFIRMING = "CONFIRMING"  # wait for the user's approval
    FINISHED = "FINISHED"  # applied; BACKTRACK still possible


STAR_STAGES: tuple[str, ...] = tuple(stage.value for stage in Stage)

#: ``advance("BACKTRACK")`` goes back to this stage when it is behind the current one.
BACKTRACK = "BACKTRACK"


def _stage_key(value: object) -> str:
    return str(getattr(value, "value", value) or "").strip().upper()


class StageMachine:
    """A linear stage list with forward steps and backtracking.

    ``advance(to)`` returns ``(ok, message)``; the message is written for the model (it is
    the ``update_progress`` tool result).  Staying in the current stage is allowed (asking
    another question in DISCOVERY).
    """

    def __init__(
        self, stages: Sequence[str | Stage] = STAR_STAGES, current: str | Stage | None = None
    ) -> None:
        self.stages: list[str] = []
        for stage in stages:
            key = _stage_key(stage)
            if key and key not in self.stages:
                self.stages.append(key)
        start = _stage_key(current) if current is not None else ""
        self.current: str | None = (
            start if start in self.stages else (self.stages[0] if self.stages else None)
        )
        self.history: list[str] = [self.current] if self.current else []

    @property
    def index(self) -> int:
        return self.stages.index(self.current) if self.current in self.stages else -1

    def advance(self, to: str | Stage) -> tuple[bool, str]:
        ok, target, message = self._check(to)
        if ok and target != self.current:
            self.current = target
            self.history.append(target)
        return ok, message

    def _check(self, to: str | Stage) -> tuple[bool, str, str]:
        if not self.stages or self.current is None:
            return False, "", "this mode has no stages"
        target = _stage_key(to)
        here = self.index
        if target == BACKTRACK:
            if here == 0:
                return False, "", f"cannot backtrack: already at {self.current}, the first stage"
            drafting = Stage.DRAFTING.value
            if drafting in self.stages and self.stages.index(drafting) < here:
                target = drafting
            else:
                target = self.stages[here - 1]
        if target not in self.stages:
            return (
                False,
                "",
                f"unknown stage {str(to)!r}; stages are: {' → '.join(self.stages)} (now at {self.current})",
            )
        there = self.stages.index(target)
        if there == here:
            return True, target, f"staying in {target}"
        if there < here:
            return True, target, f"BACKTRACK: {self.current} → {target}"
        if there == here + 1:
            return True, target, f"moved {self.current} → {target}"
        skipped = ", ".join(self.stages[here + 1 : there])
        return (
            False,
            "",
            f"cannot skip from {self.current} to {target}: go through {skipped} first "
            f"(next allowed stage: {self.stages[here + 1]})",
        )

    def to_dict(self) -> dict[str, Any]:
        return {"stages": list(self.stages), "current": self.current, "history": list(self.history)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> StageMachine:
        """Rebuild a saved machine; unusable parts fall back to a fresh STAR machine."""
        data = data if isinstance(data, Mapping) else {}
        stages = data.get("stages")
        if (
            not isinstance(stages, list)
            or not all(isinstance(s, str) for s in stages)
            or not stages
        ):
            stages = list(STAR_STAGES)
        current = data.get("current") if isinstance(data.get("current"), str) else None
        machine = cls(stages, current)
        history = data.get("history")
        if isinstance(history, list):
            kept = [
                _stage_key(h)
                for h in history
                if isinstance(h, str) and _stage_key(h) in machine.stages
            ]
            if kept:
                machine.history = kept
        return machine


# -- tasks --------------------------------------------------------------------------------

TaskStatus = Literal["pending", "in_progress", "done", "skipped"]
TASK_STATUSES: tuple[TaskStatus, ...] = ("pending", "in_progress", "done", "skipped")


def _as_status(value: str) -> TaskStatus | None:
    return next((s for s in TASK_STATUSES if s == value), None)


_STATUS_ALIASES = {
    "complete": "done",
    "completed": "done",
    "finished": "done",
    "ok": "done",
    "skip": "skipped",
    "skipping": "skipped",
    "in-progress": "in_progress",
    "in progress": "in_progress",
    "started": "in_progress",
    "start": "in_progress",
    "current": "in_progress",
    "working": "in_progress",
    "todo": "pending",
    "reset": "pending",
}

#: Section kinds that are not worth a task of their own.
SKIPPED_KINDS: frozenset[str] = frozenset({"contact"})


@dataclass
class Task:
    """One unit of the task list: a section, what is wrong with it, what to aim for."""

    section_id: str
    title: str
    original_text: str = ""
    diagnosis: str = ""
    goal: str = ""
    status: TaskStatus = "pending"
    kind: str = "other"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Task:
        status = str(data.get("status") or "pending")
        return cls(
            section_id=str(data["section_id"]),
            title=str(data.get("title") or data["section_id"]),
            original_text=str(data.get("original_text") or ""),
            diagnosis=str(data.get("diagnosis") or ""),
            goal=str(data.get("goal") or ""),
            status=_as_status(str(status)) or "pending",
            kind=str(data.get("kind") or "other"),
        )


def _row_get(row: Any, key: str, default: Any = None) -> Any:
    if isinstance(row, Mapping):
        return row.get(key, default)
    return getattr(row, key, default)


def _is_top_level(row: Any) -> bool:
    if _row_get(row, "parent_id") is not None:
        return False
    return "/" not in str(_row_get(row, "id", ""))


@dataclass
class WorkflowProgress:
    """The task list (``Capability.task_list``) and where the user is in it."""

    tasks: list[Task] = field(default_factory=list)

    @classmethod
    def from_outline(
        cls,
        outline_rows: Iterable[Any],
        text_of: Callable[[str], str] | None = None,
        skip_kinds: Iterable[str] = SKIPPED_KINDS,
    ) -> WorkflowProgress:
        """One task per top-level content section, in document order.

        ``outline_rows`` are ``ResumeDocument.outline()`` dicts (or ``Section`` objects);
        contact / preamble sections are left out, and so is a leading name line such as
        ``**Jane Doe**`` (an unrecognised top section with no bullets before any known
        section).  ``text_of(section_id)`` supplies each task's original text.
        """
        skip = set(skip_kinds)
        tasks: list[Task] = []
        seen_known = False
        for row in outline_rows:
            section_id = str(_row_get(row, "id", "") or "")
            kind = str(_row_get(row, "kind", "other") or "other")
            if not section_id or section_id == "preamble" or not _is_top_level(row):
                continue
            if kind in skip:
                continue
            bullets = _row_get(row, "bullets", 0)
            bullet_count = len(bullets) if isinstance(bullets, list) else int(bullets or 0)
            if kind == "other" and not seen_known and not tasks and bullet_count == 0:
                continue  # the name line of a resume without Markdown headings
            seen_known = seen_known or kind != "other"
            original = str(_row_get(row, "text", "") or "")
            if not original and text_of is not None:
                original = text_of(section_id) or ""
            tasks.append(
                Task(section_id, str(_row_get(row, "title", "") or section_id), original, kind=kind)
            )
        return cls(tasks)

    # -- lookup and updates -----------------------------------------------------------------
    def find(self, section: str) -> Task | None:
        """A task by section id or title, ignoring case, spaces, '-' and '_'."""
        if not section:
            return None

        def norm(value: str) -> str:
            return "".join(c for c in value.casefold() if c not in " -_")

        for test in (
            lambda t: t.section_id == section,
            lambda t: t.section_id.casefold() == section.strip().casefold(),
            lambda t: t.title.casefold() == section.strip().casefold(),
            lambda t: norm(t.section_id) == norm(section) or norm(t.title) == norm(section),
        ):
            for task in self.tasks:
                if test(task):
                    return task
        return None

    def mark(self, section_id: str, status: str) -> tuple[bool, str]:
        """Set a task's status; ``(ok, message)`` with the message meant for the model."""
        wanted = str(getattr(status, "value", status) or "").strip().lower()
        wanted = _STATUS_ALIASES.get(wanted, wanted)
        new_status = _as_status(wanted)
        if new_status is None:
            return False, f"unknown status {status!r}; use one of: {', '.join(TASK_STATUSES)}"
        task = self.find(section_id)
        if task is None:
            ids = ", ".join(t.section_id for t in self.tasks) or "none"
            return False, f"no task for section {section_id!r}; tasks are: {ids}"
        if wanted == "in_progress":  # one section at a time
            for other in self.tasks:
                if other is not task and other.status == "in_progress":
                    other.status = "pending"
        task.status = new_status
        return True, f"{task.section_id}: {wanted}. {self.summary_line()}"

    # -- views ------------------------------------------------------------------------------
    @property
    def completed(self) -> list[Task]:
        return [t for t in self.tasks if t.status == "done"]

    @property
    def skipped(self) -> list[Task]:
        return [t for t in self.tasks if t.status == "skipped"]

    @property
    def remaining(self) -> list[Task]:
        return [t for t in self.tasks if t.status in ("pending", "in_progress")]

    @property
    def current(self) -> Task | None:
        """The task being worked on, else the next pending one."""
        for task in self.tasks:
            if task.status == "in_progress":
                return task
        return next((t for t in self.tasks if t.status == "pending"), None)

    def summary_line(self) -> str:
        """E.g. ``3/7 sections done, 1 skipped: experience, projects, summary | skipped: awards | next: education``."""
        if not self.tasks:
            return "no sections to work on"
        done, skipped = self.completed, self.skipped
        line = f"{len(done)}/{len(self.tasks)} sections done"
        if skipped:
            line += f", {len(skipped)} skipped"
        if done:
            line += ": " + ", ".join(t.section_id for t in done)
        if skipped:
            line += " | skipped: " + ", ".join(t.section_id for t in skipped)
        upcoming = self.current
        line += f" | next: {upcoming.section_id}" if upcoming else " | all sections handled"
        return line

    def to_dict(self) -> dict[str, Any]:
        return {"tasks": [t.to_dict() for t in self.tasks]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> WorkflowProgress:
        """Rebuild saved progress; malformed tasks are dropped rather than failing the load."""
        rows = data.get("tasks") if isinstance(data, Mapping) else None
        tasks: list[Task] = []
        for row in rows if isinstance(rows, list) else []:
            if isinstance(row, Mapping) and row.get("section_id"):
                tasks.append(Task.from_dict(row))
        return cls(tasks)
