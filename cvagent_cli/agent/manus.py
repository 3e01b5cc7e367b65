"""ResumeAgent (the seeds' Manus): ToolCallAgent + intent classification before each
turn, the dynamic prompt, capability packs with their tool policy and stages, turn
summaries, and the state that persists with a session.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from cvagent_cli.agent import events as ev
from cvagent_cli.agent.capabilities import Capability, CapabilityRegistry
from cvagent_cli.agent.intent import Intent, IntentResult, classify, detect_language
from cvagent_cli.agent.prompts import PromptParts, build_system_prompt, next_step_prompt
from cvagent_cli.agent.toolcall import AgentState, Approver, ToolCallAgent, turns_in_budget
from cvagent_cli.agent.workflow import StageMachine, WorkflowProgress
from cvagent_cli.errors import CvAgentError
from cvagent_cli.tools.base import ToolContext, ToolOutcome

MAX_SUMMARIES = 12


class ResumeAgent(ToolCallAgent):
    def __init__(
        self,
        *,
        registry: CapabilityRegistry,
        capability: str = "base",
        classify_with_model: bool = True,
        loader=None,
        **kwargs,
    ) -> None:
        super().__init__(**kwargs)
        # Opening another resume is the session's job (lock, history, undo log).
        self.loader = loader or self.workspace.load
        self.registry = registry
        self.capability: Capability = registry.get(capability)
        self.stage = self._new_stage_machine()
        self.progress: WorkflowProgress | None = None
        self.summaries: list[str] = []
        self.goal = ""
        self.language = "en"
        self.intent = IntentResult(intent=Intent.UNKNOWN, confidence=0.0, source="fallback")
        self.classify_with_model = classify_with_model
        self.prompt_parts = PromptParts()
        self._request = ""
        self._last_tool: str | None = None
        self._turn_tools: list[str] = []

    # -- capability and workflow -------------------------------------------------------
    def _new_stage_machine(self) -> StageMachine | None:
        return StageMachine(list(self.capability.stages)) if self.capability.stages else None

    def set_capability(self, name: str) -> tuple[str, str]:
        old = self.capability.name
        self.capability = self.registry.get(name)
        self.stage = self._new_stage_machine()
        if name == "optimizer" and self.workspace.doc is not None and self.progress is None:
            self.progress = WorkflowProgress.from_outline(self.workspace.doc.outline())
        return old, self.capability.name

    def allowed_tools(self) -> list[str]:
        return self.capability.tool_policy.resolve(self.tools.names, self.tools.default_off)

    def tool_context(self) -> ToolContext:
        return ToolContext(
            workspace=self.workspace,
            user_messages=self.user_messages,
            capability_names=self.registry.names,
        )

    def progress_line(self) -> str:
        parts = []
        if self.stage is not None:
            parts.append(f"stage {self.stage.current}")
        if self.progress is not None:
            parts.append(self.progress.summary_line())
        return "; ".join(parts)

    # -- the turn ----------------------------------------------------------------------
    def run(self, request: str, approve: Approver | None = None) -> Iterator[ev.Event]:
        self._request = request
        self._turn_tools = []
        self.language = detect_language(request)
        names = (
            [s.title for s in self.workspace.doc.sections if s.title] if self.workspace.doc else []
        )
        recent = self.memory.to_wire()[-5:]
        client = self.client if self.classify_with_model else None
        self.intent = classify(request, client=client, recent_messages=recent, section_names=names)
        yield ev.IntentDetected(
            self.intent.intent.value, self.intent.source, self.intent.confidence
        )
        if self.intent.intent == Intent.LOAD_RESUME and self.intent.path:
            yield from self._load_directly(self.intent.path)
            return
        if self.intent.intent not in (
            Intent.GREETING,
            Intent.THANKS,
            Intent.UNKNOWN,
            Intent.QUESTION,
        ):
            self.goal = request.strip().splitlines()[0][:200] if request.strip() else self.goal
        suggested = self.registry.suggest_for(request)
        if (
            self.intent.intent == Intent.TAILOR
            and self.capability.name == "base"
            and "tailor" in self.registry.names()
        ):
            suggested = suggested or "tailor"
        if suggested and suggested != self.capability.name and self.capability.name == "base":
            old, new = self.set_capability(suggested)
            yield ev.CapabilitySwitched(old, new, "the request matches this pack")
        last_done: ev.Done | None = None
        for event in super().run(request, approve):
            if isinstance(event, ev.Done):
                last_done = event
            yield event
        if last_done is not None:
            self._summarize(request, last_done)

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
        yield ev.Notice(f"loaded {target} ({doc.line_count} lines, {len(doc.sections)} sections)")
        yield ev.Done("loaded", final_text=f"Loaded {target}.")

    def prepare(self, step: int) -> Iterator[ev.Event]:
        intent = self.intent.intent.value
        self.prompt_parts = build_system_prompt(
            workspace=self.workspace,
            capability_name=self.capability.name,
            capability_addendum=self.capability.system_prompt_addendum,
            intent=intent,
            section_hint=self.intent.section,
            user_text=self._request,
            language=self.language,
            summaries=self._summaries_outside_history(),
            goal=self.goal,
            progress=self.progress_line(),
            capabilities=self.registry.names(),
        )
        self.system_prompt = self.prompt_parts.text()
        stage = self.stage.current if self.stage is not None else None
        self.next_step_prompt = next_step_prompt(
            intent, dict(self.capability.next_step_prompts), stage, self._last_tool
        )
        return iter(())

    def on_outcome(self, outcome: ToolOutcome) -> Iterator[ev.Event]:
        if outcome.switch_capability:
            old, new = self.set_capability(outcome.switch_capability)
            yield ev.CapabilitySwitched(old, new, "requested by the model")
            yield from self.prepare(0)  # prompt and tools rebuilt within the same turn
        if outcome.stage and self.stage is not None:
            ok, message = self.stage.advance(outcome.stage.upper())
            outcome.content = message if ok else f"Error: {message}"
            outcome.ok = ok
            if ok:
                yield ev.StageChanged(self.stage.current, self.progress_line())
        elif outcome.stage:
            outcome.content = f"Error: the {self.capability.name!r} capability has no stages"
            outcome.ok = False

    def act(self) -> Iterator[ev.Event]:
        for call in self._pending:
            self._turn_tools.append(call.name)
            if call.name == "update_progress":
                yield from self._progress_call(call)
        self._last_tool = self._pending[-1].name if self._pending else None
        yield from super().act()

    def _progress_call(self, call) -> Iterator[ev.Event]:
        """Mark optimizer tasks (the stage part goes through on_outcome)."""
        params, _, error = self.tools.parse_arguments(call.name, call.arguments)
        if (
            error
            or params is None
            or not getattr(params, "task", None)
            or not getattr(params, "status", None)
        ):
            return
        if self.progress is None and self.workspace.doc is not None:
            self.progress = WorkflowProgress.from_outline(self.workspace.doc.outline())
        if self.progress is not None:
            try:
                self.progress.mark(params.task, params.status)
            except (KeyError, ValueError):
                return
            yield ev.StageChanged(
                self.stage.current if self.stage else "", self.progress.summary_line()
            )

    # -- turn summaries (seed 003) and persisted state ---------------------------------
    def _summaries_outside_history(self) -> list[str]:
        """Summaries of the turns the request no longer carries verbatim (no duplicates)."""
        history = self.memory.to_wire()
        earlier = (
            history[: self._current_turn_index(history)]
            if self.state is AgentState.RUNNING
            else history
        )
        shown = turns_in_budget(earlier, self.history_tokens)
        return self.summaries[: max(len(self.summaries) - shown, 0)]

    def _summarize(self, request: str, done: ev.Done) -> None:
        said = " ".join(request.split())[:100]
        tools = ",".join(dict.fromkeys(self._turn_tools))
        answer = " ".join(done.final_text.split())[:80]
        summary = f"{said}" + (f" → {tools}" if tools else "")
        if done.edits_applied:
            summary += f"; {done.edits_applied} edit(s) applied"
        if done.pending_edits:
            summary += f"; {len(done.pending_edits)} edit(s) not applied"
        if answer:
            summary += f"; said: {answer}"
        self.summaries = (self.summaries + [summary])[-MAX_SUMMARIES:]

    def export_state(self) -> dict:
        return {
            "capability": self.capability.name,
            "stage": self.stage.to_dict() if self.stage is not None else None,
            "progress": self.progress.to_dict() if self.progress is not None else None,
            "summaries": self.summaries,
            "goal": self.goal,
        }

    def restore_state(self, state: dict) -> None:
        try:
            if state.get("capability") in self.registry.names():
                self.set_capability(state["capability"])
            if state.get("stage") and self.stage is not None:
                self.stage = StageMachine.from_dict(state["stage"])
            if state.get("progress"):
                self.progress = WorkflowProgress.from_dict(state["progress"])
            self.summaries = [str(s) for s in state.get("summaries", [])][-MAX_SUMMARIES:]
            self.goal = str(state.get("goal", ""))
        except (KeyError, TypeError, ValueError):
            pass  # a state from an older version is not worth a crash
