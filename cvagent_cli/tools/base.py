"""Tools as pydantic models: the JSON schema sent to the model is generated from the
parameter model, and the model's arguments are validated with it.  Every failure —
bad JSON, failed validation, unknown tool, a tool outside the capability's policy, an
exception inside a tool — becomes a ``ToolOutcome`` the model sees, never an exception
in the agent loop.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import BaseModel, ConfigDict, ValidationError

from cvagent_cli.validation import expected_words, location

if TYPE_CHECKING:
    from cvagent_cli.workspace import Workspace

_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ProposedEdit:
    """An edit the model wants to make; the session decides whether it lands."""

    id: str
    tool_call_id: str
    reason: str | None
    before: str  # the whole resume text before
    after: str  # the whole resume text after
    diff: str
    flags: tuple[
        Any, ...
    ] = ()  # truthfulness FactFlags: facts found in neither resume nor messages
    replacements: tuple[tuple[str, str], ...] = ()  # as the model gave them
    section: str | None = None


class ToolParams(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)


@dataclass(frozen=True)
class Effects:
    """What a tool asks of the agent itself.  The agent applies them in one place, after
    the capability's tool policy and the argument validation passed, and reports back to
    the model what happened (a stage that cannot be reached, an unknown task …)."""

    terminate: bool = False
    switch_capability: str | None = None
    stage: str | None = None
    task: str | None = None  # with task_status: a section task of the task list
    task_status: str | None = None


@dataclass(frozen=True)
class ArgumentProblem:
    """Why a tool call's arguments were refused: what the model must fix, and what the
    user is shown."""

    for_model: str
    for_user: str


@dataclass
class ToolOutcome:
    content: str
    ok: bool = True
    summary: str = ""
    proposed_edit: ProposedEdit | None = None
    effects: Effects = field(default_factory=Effects)


@dataclass
class ToolContext:
    """What a tool may touch: the loaded resume (and JD) and the conversation's words."""

    workspace: Workspace
    user_messages: Callable[[], list[str]] = field(default=list)
    capability_names: Callable[[], list[str]] = field(default=list)
    #: sections whose full text this turn's context already carries (id → that text)
    shown_sections: Callable[[], dict[str, str]] = field(default=dict)
    current_call_id: str = ""


class BaseTool:
    name: ClassVar[str]
    description: ClassVar[str]
    params: ClassVar[type[ToolParams]]
    default_enabled: ClassVar[bool] = True

    def run(self, args: Any, ctx: ToolContext) -> ToolOutcome:  # pragma: no cover - interface
        raise NotImplementedError

    def to_param(self) -> dict[str, Any]:
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": compact_schema(self.params.model_json_schema()),
            },
        }


def compact_schema(node: Any) -> Any:
    """pydantic's schema minus what costs tokens and tells the model nothing: titles,
    ``default: null`` and ``anyOf [X, null]`` for optional fields (not required = optional)."""
    if isinstance(node, list):
        return [compact_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {
        k: compact_schema(v)
        for k, v in node.items()
        # additionalProperties=false is enforced when arguments are validated, not by the model.
        if k not in ("title", "additionalProperties") and not (k == "default" and v is None)
    }
    options = out.get("anyOf")
    if isinstance(options, list):
        rest = [o for o in options if o != {"type": "null"}]
        if len(rest) == 1 and len(rest) < len(options):
            out.pop("anyOf")
            out = {**rest[0], **out}
    return out


def _describe_validation(error: ValidationError) -> str:
    return "; ".join(
        f"{location(item, 'arguments')}: expected {expected_words(item)}, got {item.get('input')!r}"
        if item["type"] != "extra_forbidden"
        else f"{location(item)}: no such parameter"
        for item in error.errors()
    )


class ToolCollection:
    """The agent's tools; ``execute`` never raises for anything the model did."""

    def __init__(self, tools: Iterable[BaseTool]) -> None:
        self.tools: dict[str, BaseTool] = {t.name: t for t in tools}

    @property
    def names(self) -> list[str]:
        return list(self.tools)

    @property
    def default_off(self) -> list[str]:
        return [n for n, t in self.tools.items() if not t.default_enabled]

    def to_params(self, allowed: Iterable[str] | None = None) -> list[dict[str, Any]]:
        keep = set(self.tools if allowed is None else allowed)
        return [t.to_param() for n, t in self.tools.items() if n in keep]

    def parse_arguments(
        self, name: str, raw: str
    ) -> tuple[ToolParams | None, dict[str, Any], ArgumentProblem | None]:
        """Validated params, the raw dict (for display) and what was wrong with them."""
        tool = self.tools.get(name)
        if tool is None:
            return (
                None,
                {},
                ArgumentProblem(
                    f"unknown tool {name!r}; available tools: {', '.join(self.tools)}",
                    "the model called a tool that does not exist",
                ),
            )
        try:
            data = json.loads(raw) if raw and raw.strip() else {}
        except json.JSONDecodeError as exc:
            return (
                None,
                {},
                ArgumentProblem(
                    f"arguments are not valid JSON ({exc.msg} at char {exc.pos}); send a JSON object",
                    "the model sent its arguments in broken JSON",
                ),
            )
        if not isinstance(data, dict):
            return (
                None,
                {},
                ArgumentProblem(
                    "arguments must be a JSON object",
                    "the model sent its arguments in the wrong shape",
                ),
            )
        try:
            return tool.params.model_validate(data), data, None
        except ValidationError as exc:
            fields = sorted({location(item, "arguments") for item in exc.errors()})
            return (
                None,
                data,
                ArgumentProblem(
                    f"invalid arguments for {name}: {_describe_validation(exc)}",
                    f"the model's arguments did not fit the tool ({', '.join(fields)})",
                ),
            )

    def execute(
        self, name: str, raw_arguments: str, ctx: ToolContext, allowed: Iterable[str] | None = None
    ) -> ToolOutcome:
        started = time.monotonic()
        outcome = self._execute(name, raw_arguments, ctx, allowed)
        # the arguments carry resume text: the debug log gets their size, not their words
        _log.debug(
            "tool call: %s, %d characters of arguments: %s, %d characters of result, %.2f s",
            name,
            len(raw_arguments or ""),
            "ok" if outcome.ok else "failed",
            len(outcome.content or ""),  # the summary names sections: resume words
            time.monotonic() - started,
        )
        return outcome

    def _execute(
        self, name: str, raw_arguments: str, ctx: ToolContext, allowed: Iterable[str] | None
    ) -> ToolOutcome:
        offered = (
            list(self.tools) if allowed is None else [n for n in self.tools if n in set(allowed)]
        )
        if name not in self.tools:
            error = f"unknown tool {name!r}; available tools: {', '.join(offered)}"
            return ToolOutcome(
                f"Error: {error}", ok=False, summary="the model called a tool that does not exist"
            )
        if name not in offered:
            return ToolOutcome(
                f"Error: the tool {name!r} is not allowed by the current capability",
                ok=False,
                summary="the current capability pack does not allow this tool",
            )
        params, _, problem = self.parse_arguments(name, raw_arguments)
        if problem is not None or params is None:
            problem = problem or ArgumentProblem("invalid arguments", "invalid arguments")
            return ToolOutcome(f"Error: {problem.for_model}", ok=False, summary=problem.for_user)
        try:
            return self.tools[name].run(params, ctx)
        except Exception as exc:  # a tool bug must not kill the session; the model sees it
            _log.debug("tool %s raised", name, exc_info=True)
            return ToolOutcome(
                f"Error: {name} failed: {type(exc).__name__}: {exc}",
                ok=False,
                summary=f"{name} failed (a bug in cvagent; --verbose logs it)",
            )
