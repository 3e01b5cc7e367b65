"""Tools that steer the agent itself: switch capability pack, record progress, stop."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from cvagent_cli.tools.base import (
    BaseTool,
    Effects,
    ToolCollection,
    ToolContext,
    ToolOutcome,
    ToolParams,
)
from cvagent_cli.tools.resume_tools import AnalyzeResume, BatchEditResume, EditResume, ReadResume


class UseCapabilityParams(ToolParams):
    name: str = Field(description="pack name")
    reason: str | None = Field(None, description="shown to the user")


class UseCapability(BaseTool):
    name = "use_capability"
    description = "Switch capability pack (e.g. tailor for a job description, star to dig out one story, optimizer for every section); instructions and tools change at once."
    params = UseCapabilityParams

    def run(self, args: UseCapabilityParams, ctx: ToolContext) -> ToolOutcome:
        names = ctx.capability_names()
        if args.name not in names:
            return ToolOutcome(
                f"Error: no capability {args.name!r}; available: {', '.join(names)}",
                ok=False,
                summary="the model asked for a capability pack that does not exist",
            )
        return ToolOutcome(
            f"Switched to the {args.name!r} capability; follow its instructions now.",
            summary=f"→ {args.name}",
            effects=Effects(switch_capability=args.name),
        )


class UpdateProgressParams(ToolParams):
    stage: str | None = Field(
        None, description="new workflow stage, e.g. DISCOVERY, DRAFTING, CONFIRMING, FINISHED"
    )
    task: str | None = Field(None, description="section id of the task whose status changes")
    status: Literal["in_progress", "done", "skipped"] | None = None
    note: str | None = None


class UpdateProgress(BaseTool):
    name = "update_progress"
    description = "Record workflow progress: move to another stage and/or mark a section task in_progress, done or skipped."
    params = UpdateProgressParams

    def run(self, args: UpdateProgressParams, ctx: ToolContext) -> ToolOutcome:
        if not (args.stage or args.task):
            return ToolOutcome(
                "Error: give a stage, or a task with a status",
                ok=False,
                summary="the model's progress update was empty",
            )
        if args.task and not args.status:
            return ToolOutcome(
                "Error: give the task's status (in_progress, done or skipped)",
                ok=False,
                summary="the model's progress update named a task but no status",
            )
        # The agent owns the stage machine and the task list: it applies these effects
        # and replaces this text with what actually happened.
        return ToolOutcome(
            "",
            summary="progress",
            effects=Effects(stage=args.stage, task=args.task, task_status=args.status),
        )


class TerminateParams(ToolParams):
    status: Literal["success", "failure"] = "success"


class Terminate(BaseTool):
    name = "terminate"
    description = "End your turn."
    params = TerminateParams

    def run(self, args: TerminateParams, ctx: ToolContext) -> ToolOutcome:
        return ToolOutcome(
            f"Turn ended ({args.status}).", summary=args.status, effects=Effects(terminate=True)
        )


def default_tools() -> ToolCollection:
    return ToolCollection(
        [
            ReadResume(),
            AnalyzeResume(),
            EditResume(),
            BatchEditResume(),
            UseCapability(),
            UpdateProgress(),
            Terminate(),
        ]
    )
