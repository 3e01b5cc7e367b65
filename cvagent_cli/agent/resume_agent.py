"""ResumeAgent (OpenManus's Manus): ToolCallAgent + intent classification before each
turn, the dynamic prompt, capability packs with their tool policy and stages, turn
summaries, and the state that persists with a session.

The capability pack is the single source of the prompts, the tool policy and the model
hints: nothing here names a pack.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cvagent_cli.agent import events as ev
from cvagent_cli.agent.capabilities import DEFAULT_CAPABILITY, Capability
from cvagent_cli.agent.intent import Intent, IntentResult, classify, detect_language
from cvagent_cli.agent.prompts import (
    Prompt,
    build_system_prompt,
    build_turn_context,
    next_step_prompt,
)
from cvagent_cli.agent.registry import CapabilityRegistry
from cvagent_cli.agent.toolcall_agent import Approver, ToolCallAgent, Turn, defer_all, usage_event
from cvagent_cli.agent.workflow import StageMachine, WorkflowProgress
from cvagent_cli.document.document import ResumeDocument
from cvagent_cli.errors import CvAgentError
from cvagent_cli.tools.base import ToolContext, ToolOutcome
from cvagent_cli.wording import plural

MAX_SUMMARIES = 200  # one line per turn, kept with the session
SHOWN_SUMMARIES = 6  # the summaries of the turns just before the history window
MAX_NOTES = 10
#: Intents that state no goal of their own (the previous goal stays).
_NO_GOAL = (Intent.GREETING, Intent.THANKS, Intent.UNKNOWN, Intent.QUESTION)


def goal_of(request: str) -> str:
    """The goal a request states: its first line (up to 200 characters)."""
    lines = request.strip().splitlines()
    return lines[0][:200] if lines else ""


@dataclass
class ResumeTurn(Turn):
    intent: IntentResult = field(
        default_factory=lambda: IntentResult(Intent.UNKNOWN, 0.0, "fallback")
    )
    language: str = "en"
    backtracked: bool = False  # the stage moved back: the pack's BACKTRACK prompt is next
    # this turn's context, built at its first step and kept for all of them (one prefix)
    context: dict[str, str] | None = None
    context_capability: str = ""
    shown_sections: dict[str, str] = field(default_factory=dict)
    delivered_notes: list[str] = field(default_factory=list)


class ResumeAgent(ToolCallAgent):
    def __init__(
        self,
        *,
        registry: CapabilityRegistry,
        capability: str = DEFAULT_CAPABILITY,
        classify_with_model: bool = True,
        loader: Callable[[Path], ResumeDocument] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        # Opening another resume is the session's job (lock, history, undo log).
        self.loader = loader or self.workspace.load
        self.registry = registry
        self.capability: Capability = registry.get(capability)
        self.stage = self._new_stage_machine()
        self.progress: WorkflowProgress | None = None
        self.summaries: dict[int, str] = {}  # turn number → its one-line summary
        self.notes: list[str] = []  # for the model, at its next turn
        self.goal = ""
        self.classify_with_model = classify_with_model

    # -- capability and workflow -------------------------------------------------------
    def _new_stage_machine(self) -> StageMachine | None:
        return StageMachine(list(self.capability.stages)) if self.capability.stages else None

    def set_capability(self, name: str) -> tuple[str, str]:
        old = self.capability.name
        self.capability = self.registry.get(name)
        self.stage = self._new_stage_machine()
        self._ensure_task_list()
        return old, self.capability.name

    def _ensure_task_list(self) -> None:
        if self.capability.task_list and self.progress is None and self.workspace.doc is not None:
            self.progress = WorkflowProgress.from_outline(self.workspace.doc.outline())

    def allowed_tools(self) -> list[str]:
        return self.capability.tools(self.tools.names, self.tools.default_off)

    def call_temperature(self) -> float | None:
        if self.temperature is not None:  # the user's setting wins over the pack's hint
            return self.temperature
        hints = self.capability.model_hints
        return hints.temperature if hints is not None else None

    def expects_tools(self, turn: Turn) -> bool:
        """An edit or a tailoring cannot be done in words alone."""
        intent = turn.intent.intent if isinstance(turn, ResumeTurn) else None
        return intent in (Intent.EDIT, Intent.TAILOR)

    def tool_context(self) -> ToolContext:
        return ToolContext(
            workspace=self.workspace,
            user_messages=self.user_messages,
            capability_names=self.registry.names,
            shown_sections=self._shown_sections,
        )

    def _shown_sections(self) -> dict[str, str]:
        return self.turn.shown_sections if isinstance(self.turn, ResumeTurn) else {}

    def progress_line(self) -> str:
        parts = []
        if self.stage is not None:
            parts.append(f"stage {self.stage.current}")
        if self.progress is not None:
            parts.append(self.progress.summary_line())
        return "; ".join(parts)

    # -- the turn ----------------------------------------------------------------------
    def run(self, request: str, approve: Approver | None = None) -> Iterator[ev.Event]:
        turn = ResumeTurn(request, approve or defer_all, language=detect_language(request))
        turn.intent = yield from self._classify(request)
        yield ev.IntentDetected(
            turn.intent.intent.value, turn.intent.source, turn.intent.confidence
        )
        if turn.intent.intent == Intent.LOAD_RESUME and turn.intent.path:
            yield from self._load_directly(turn.intent.path)
            return
        if turn.intent.intent not in _NO_GOAL and request.strip():
            self.goal = goal_of(request)
        suggested = self.registry.suggest_for(request) or self.registry.for_intent(
            turn.intent.intent.value
        )
        if (
            suggested
            and suggested != self.capability.name
            and self.capability.name == DEFAULT_CAPABILITY
        ):
            old, new = self.set_capability(suggested)
            yield ev.CapabilitySwitched(old, new, "the request matches this pack")
        try:
            yield from self.run_turn(turn)
        finally:
            if turn.counted:  # the model saw the notes; the turn gets its summary line
                self.notes = [n for n in self.notes if n not in turn.delivered_notes]
                self._summarize(turn)

    def _classify(self, request: str) -> Generator[ev.Event, None, IntentResult]:
        doc = self.workspace.doc
        names = [s.title for s in doc.sections if s.title] if doc else []
        client = self.client if self.classify_with_model else None
        result = classify(
            request, client=client, recent_messages=self.memory.to_wire()[-5:], section_names=names
        )
        if result.response is not None:  # the model was asked: its tokens count too
            yield usage_event(result.response, self.client)
        return result

    def _load_directly(self, path: str) -> Iterator[ev.Event]:
        """LOAD_RESUME: the user typed a path, so load it without a model round trip."""
        target = Path(path).expanduser()
        try:
            doc = self.loader(target)
        except CvAgentError as exc:
            yield ev.ErrorEvent(exc.message, hint=exc.hint)
            yield ev.Done("error")
            return
        self.progress = None
        self._ensure_task_list()
        target = doc.path or target  # a document is loaded as the .md copy imported from it
        yield ev.Notice(doc.loaded_summary(target))
        yield ev.Done("loaded", final_text=f"Loaded {target}.")

    def compose(self, turn: Turn) -> Prompt:
        assert isinstance(turn, ResumeTurn)
        intent = turn.intent.intent.value
        parts = build_system_prompt(
            workspace=self.workspace,
            capability=self.capability,
            summaries=self._summaries_before(turn.window_first),
            capabilities=self.registry.names(),
        )
        stage = self.stage.current if self.stage is not None else None
        next_step = next_step_prompt(
            self.capability,
            intent=intent,
            stage=stage,
            backtracked=turn.backtracked,
            fallback=self.registry.get("base") if "base" in self.registry else None,
        )
        turn.backtracked = False
        if turn.context is None or turn.context_capability != self.capability.name:
            turn.context, turn.shown_sections = build_turn_context(
                workspace=self.workspace,
                intent=intent,
                section_hint=turn.intent.section,
                user_text=turn.request,
                language=turn.language,
                # the goal is worth a line only when it is not this very message
                goal="" if self.goal == goal_of(turn.request) else self.goal,
                progress=self.progress_line(),
                notes=self.notes,
                next_step=next_step,
            )
            turn.delivered_notes = list(self.notes)
            turn.context_capability = self.capability.name
            turn.sent_next_step = next_step  # it goes with the context
        return Prompt(parts, turn.context, next_step)

    def apply_effects(self, outcome: ToolOutcome, turn: Turn) -> Iterator[ev.Event]:
        """The one door for tool effects; runs only for calls the policy allowed and whose
        arguments validated.  The model is told what actually happened."""
        assert isinstance(turn, ResumeTurn)
        yield from super().apply_effects(outcome, turn)
        effects = outcome.effects
        if effects.switch_capability:
            old, new = self.set_capability(effects.switch_capability)
            yield ev.CapabilitySwitched(old, new, "requested by the model")
            turn.prompt = self.compose(turn)  # prompt and tools rebuilt within the same turn
        said: list[str] = []
        failed = False
        if effects.stage:
            if self.stage is None:
                said.append(f"Error: the {self.capability.name!r} capability has no stages")
                failed = True
            else:
                before = self.stage.index
                ok, message = self.stage.advance(effects.stage.upper())
                said.append(message if ok else f"Error: {message}")
                failed = failed or not ok
                if ok:
                    turn.backtracked = self.stage.index < before
                    yield ev.StageChanged(self.stage.current or "", self.progress_line())
        if effects.task and effects.task_status:
            if not self.capability.task_list:
                said.append(f"Error: the {self.capability.name!r} capability keeps no task list")
                failed = True
            else:
                self._ensure_task_list()
                if self.progress is None:
                    said.append("Error: no resume is loaded, so there are no section tasks")
                    failed = True
                else:
                    ok, message = self.progress.mark(effects.task, effects.task_status)
                    said.append(message if ok else f"Error: {message}")
                    failed = failed or not ok
                    if ok:
                        stage = self.stage.current if self.stage is not None else ""
                        yield ev.StageChanged(stage or "", self.progress.summary_line())
        if said:
            outcome.content = " ".join(said)
            outcome.ok = not failed
            # the model reads why a step was refused; the user, that it was
            outcome.summary = "the model's progress update was refused" if failed else said[0]

    # -- turn summaries and persisted state ---------------------------------
    def _summaries_before(self, first: int) -> list[str]:
        """The summaries of the turns just before turn number ``first`` (the history
        window's start): they change only when the window moves."""
        before = [text for number, text in self.summaries.items() if number < first]
        return before[-SHOWN_SUMMARIES:]

    def note(self, text: str) -> None:
        """Something the model must know at its next turn (an /undo, an outside edit)."""
        self.notes = (self.notes + [text])[-MAX_NOTES:]

    def _summarize(self, turn: ResumeTurn) -> None:
        said = " ".join(turn.request.split())[:100]
        tools = ",".join(dict.fromkeys(turn.tools_used))
        answer = " ".join(turn.final_text.split())[:80]
        summary = f"{said}" + (f" → {tools}" if tools else "")
        if turn.edits_applied:
            summary += f"; {plural(turn.edits_applied, 'edit')} applied"
        if turn.deferred:
            summary += f"; {plural(len(turn.deferred), 'edit')} not applied"
        if answer:
            summary += f"; said: {answer}"
        elif turn.done_reason not in ("text", "terminate"):
            summary += f" ({turn.done_reason})"
        self.summaries[self.turns_done - 1] = summary  # the turn has just been counted
        for number in list(self.summaries)[:-MAX_SUMMARIES]:
            del self.summaries[number]

    def preview_request(self, text: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """The messages and tools a turn starting with ``text`` would send first, built the
        way ``run`` builds them (no model call, nothing remembered)."""
        turn = ResumeTurn(text, language=detect_language(text))
        doc = self.workspace.doc
        names = [s.title for s in doc.sections if s.title] if doc else []
        turn.intent = classify(text, section_names=names)
        history = [*self.memory.to_wire(), {"role": "user", "content": text}]
        turn.window_first = self.choose_window(history)
        turn.prompt = self.compose(turn)
        return self.request_messages(turn, history), self.tools.to_params(self.allowed_tools())

    def export_state(self) -> dict[str, Any]:
        return {
            "capability": self.capability.name,
            "stage": self.stage.to_dict() if self.stage is not None else None,
            "progress": self.progress.to_dict() if self.progress is not None else None,
            "summaries": [[number, text] for number, text in self.summaries.items()],
            "turns_done": self.turns_done,
            "window_first": self.window_first,
            "notes": self.notes,
            "goal": self.goal,
        }

    def restore_state(self, state: dict[str, Any]) -> None:
        try:
            if state.get("capability") in self.registry.names():
                self.set_capability(state["capability"])
            if state.get("stage") and self.stage is not None:
                self.stage = StageMachine.from_dict(state["stage"])
            if state.get("progress"):
                self.progress = WorkflowProgress.from_dict(state["progress"])
            saved = list(state.get("summaries", []))[-MAX_SUMMARIES:]
            self.turns_done = int(state.get("turns_done", len(saved)))
            if all(isinstance(s, str) for s in saved):  # before turn numbers were saved
                first = self.turns_done - len(saved)
                self.summaries = {first + i: text for i, text in enumerate(saved)}
            else:
                self.summaries = {int(number): str(text) for number, text in saved}
            self.window_first = int(state.get("window_first", 0))
            self.notes = [str(n) for n in state.get("notes", [])][-MAX_NOTES:]
            self.goal = str(state.get("goal", ""))
        except (KeyError, TypeError, ValueError):
            pass  # a state from an older version is not worth a crash
