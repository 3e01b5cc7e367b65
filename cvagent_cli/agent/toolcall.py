"""ToolCallAgent: the think()/act() loop of the seeds (OpenManus BaseAgent →
ToolCallAgent), with the flaws fixed:

- a text-only answer ends the turn;
- Memory trims whole turns, so a request is always a valid message sequence;
- anything the model gets wrong becomes a tool result it can read, never an exception;
- a cancelled stream (Ctrl-C) or a failed call leaves Memory valid;
- identical tool calls repeated → a strategy hint once, then a clear stop.

It never prints: ``run()`` yields typed events (``agent.events``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Generator, Iterator
from enum import Enum

from cvagent_cli.agent import events as ev
from cvagent_cli.agent.memory import Memory
from cvagent_cli.agent.messages import Message, ToolCall
from cvagent_cli.errors import ContextWindowError, ModelError
from cvagent_cli.llm.types import ModelClient, ModelResponse, TextDelta, ThinkingDelta, Usage
from cvagent_cli.resume.workspace import Workspace
from cvagent_cli.safety.fencing import fence
from cvagent_cli.tools.base import ToolCollection, ToolContext, ToolOutcome

Approver = Callable[[ev.ProposedEdit], ev.Decision]
EventStream = Generator[ev.Event, None, bool]

STUCK_HINT = (
    "You have repeated exactly the same tool call. It will not give a different result. "
    "Change strategy: use what you already have, try different arguments, or answer the user."
)


HISTORY_TOKENS = 600  # earlier turns sent per request; the current turn always goes whole
OLD_ANSWER_CHARS = 700
_CJK_RE = re.compile(r"[\u3000-\u9fff\uff00-\uffef]")


def rough_tokens(text: str) -> int:
    """A tokenizer-free estimate: ~4 Latin characters per token, ~1 per CJK character."""
    cjk = len(_CJK_RE.findall(text))
    return (len(text) - cjk) // 4 + cjk + 1


def compact_history(messages: list[dict], budget: int) -> list[dict]:
    """Earlier turns, newest first while they fit ``budget`` tokens, each reduced to the
    user's words and the assistant's text (tool calls and their results dropped together)."""
    return _compact(messages, budget)[0]


def turns_in_budget(messages: list[dict], budget: int) -> int:
    return _compact(messages, budget)[1]


def _compact(messages: list[dict], budget: int) -> tuple[list[dict], int]:
    turns: list[list[dict]] = []
    for message in messages:
        if message["role"] == "user" or not turns:
            turns.append([])
        turns[-1].append(message)
    kept: list[dict] = []
    count = 0
    for turn in reversed(turns):
        compact = [m for m in turn if m["role"] == "user"]
        said = "\n\n".join(
            m["content"] for m in turn if m["role"] == "assistant" and m.get("content")
        )
        if said:
            if len(said) > OLD_ANSWER_CHARS:
                said = said[:OLD_ANSWER_CHARS] + " …"
            compact.append({"role": "assistant", "content": said})
        cost = sum(rough_tokens(str(m.get("content") or "")) for m in compact)
        if cost > budget:
            break
        budget -= cost
        kept[:0] = compact
        count += 1
    return kept, count


class AgentState(str, Enum):
    IDLE = "idle"
    RUNNING = "running"
    FINISHED = "finished"


def defer_all(edit: ev.ProposedEdit) -> ev.Decision:
    return ev.Decision(ev.Action.DEFER)


class ToolCallAgent:
    def __init__(
        self,
        *,
        client: ModelClient,
        tools: ToolCollection,
        workspace: Workspace,
        memory: Memory | None = None,
        max_steps: int = 10,
        auto_apply: bool = False,
        temperature: float | None = None,
    ) -> None:
        self.client = client
        self.tools = tools
        self.workspace = workspace
        self.memory = memory if memory is not None else Memory(50)
        self.max_steps = max_steps
        self.auto_apply = auto_apply
        self.temperature = temperature
        self.history_tokens = HISTORY_TOKENS
        self.system_prompt = ""
        self.next_step_prompt = ""
        self.state = AgentState.IDLE
        self.session_usage = Usage()
        self._approve: Approver = defer_all
        self._pending: list[ToolCall] = []
        self._signatures: list[str] = []
        self._stuck_hinted = False
        self._last_next_step = ""
        self._turn_start = 0
        self._final_text = ""
        self._done_reason = "text"
        self._edits_applied = 0
        self._deferred: list[ev.ProposedEdit] = []

    # -- hooks for subclasses ----------------------------------------------------------
    def allowed_tools(self) -> list[str]:
        return self.tools.names

    def prepare(self, step: int) -> Iterator[ev.Event]:
        """Called before each think(): subclasses rebuild the prompts here."""
        return iter(())

    def on_outcome(self, outcome: ToolOutcome) -> Iterator[ev.Event]:
        """Called after each tool: subclasses react to capability switches, stages …"""
        return iter(())

    def tool_context(self) -> ToolContext:
        return ToolContext(workspace=self.workspace, user_messages=self.user_messages)

    def user_messages(self) -> list[str]:
        return [m.content or "" for m in self.memory.messages if m.role == "user"]

    # -- template methods -----------------------------------------------------------
    def run(self, request: str, approve: Approver | None = None) -> Iterator[ev.Event]:
        """One user turn: steps until a text answer, terminate, max_steps or a stop."""
        self._approve = approve or defer_all
        self.state = AgentState.RUNNING
        self._signatures, self._stuck_hinted, self._last_next_step = [], False, ""
        self._final_text, self._done_reason, self._edits_applied, self._deferred = "", "text", 0, []
        self.memory.add(Message.user(request))
        self._turn_start = len(self.memory) - 1
        step = 0
        try:
            while self.state is AgentState.RUNNING:
                if step >= self.max_steps:
                    self._done_reason = "max_steps"
                    yield ev.Notice(
                        f"stopped after {self.max_steps} steps (max_steps); ask me to continue if needed",
                        "warning",
                    )
                    break
                step += 1
                yield from self.prepare(step)
                keep_going = yield from self.step()
                if not keep_going:
                    break
        except (KeyboardInterrupt, GeneratorExit):
            self.memory.discard_incomplete()
            self.state = AgentState.IDLE
            raise
        self.state = AgentState.IDLE
        yield ev.Done(
            self._done_reason, self._final_text, step, self._edits_applied, list(self._deferred)
        )

    def step(self) -> EventStream:
        should_act = yield from self.think()
        if not should_act:
            return False
        yield from self.act()
        return self.state is AgentState.RUNNING

    def think(self) -> EventStream:
        tools = self.tools.to_params(self.allowed_tools()) or None
        response = yield from self._call_model(tools)
        if response is None:
            return False
        calls = [
            ToolCall(id=c.id or f"call_{i}", name=c.name, arguments=c.arguments or "{}")
            for i, c in enumerate(response.tool_calls)
        ]
        if calls:
            signature = json.dumps([(c.name, c.arguments) for c in calls])
            if self._signatures and self._signatures[-1] == signature:
                if self._stuck_hinted:
                    self._done_reason = "stuck"
                    yield ev.ErrorEvent(
                        "stopped: the model kept repeating the same tool call",
                        hint="rephrase the request, or try another model",
                    )
                    return False
                self._stuck_hinted = True
            self._signatures.append(signature)
        self.memory.add(Message.assistant(response.content or None, calls or None))
        self._pending = calls
        if not calls:
            self._final_text = response.content
            self._done_reason = "text"
            return False
        return True

    def act(self) -> Iterator[ev.Event]:
        ctx = self.tool_context()
        allowed = self.allowed_tools()
        terminate = False
        for call in self._pending:
            _, shown, _ = self.tools.parse_arguments(call.name, call.arguments)
            yield ev.ToolCallEvent(call.id, call.name, shown, call.arguments)
            ctx.current_call_id = call.id
            outcome = self.tools.execute(call.name, call.arguments, ctx, allowed)
            if outcome.proposed_edit is not None:
                outcome = yield from self._decide(outcome)
            yield from self.on_outcome(outcome)
            self.memory.add(Message.tool(outcome.content, call.id, call.name))
            yield ev.ToolResultEvent(
                call.id, call.name, outcome.ok, outcome.summary, outcome.content
            )
            terminate = terminate or outcome.terminate
        self._pending = []
        if terminate:
            self._done_reason = "terminate"
            self.state = AgentState.FINISHED

    # -- pieces -----------------------------------------------------------------------
    def request_messages(self) -> list[dict]:
        """System prompt + recent history (token-aware) + the current turn + next-step prompt.

        Memory keeps 50 messages, but a request carries only as many earlier turns as fit
        ``history_tokens`` (seed 004: token-aware history), each compacted to what the user
        said and what the assistant answered; their tool traffic is dropped whole, never
        split, and older turns live on in the turn summaries of the system prompt.
        """
        wire: list[dict] = (
            [{"role": "system", "content": self.system_prompt}] if self.system_prompt else []
        )
        history = self.memory.to_wire()
        turn_start = self._current_turn_index(history)
        wire += compact_history(history[:turn_start], self.history_tokens)
        wire += history[turn_start:]
        extra = []
        if self._stuck_hinted:
            extra.append(STUCK_HINT)
        if self.next_step_prompt and self.next_step_prompt != self._last_next_step:
            extra.append(self.next_step_prompt)
        if extra:
            text = "\n\n".join(extra)
            if history and history[-1]["role"] != "user":
                wire.append({"role": "user", "content": text})
            elif wire and wire[0]["role"] == "system":
                wire[0] = {
                    "role": "system",
                    "content": f"{wire[0]['content']}\n\n## Next step\n{text}",
                }
        return wire

    @staticmethod
    def _current_turn_index(history: list[dict]) -> int:
        for index in range(len(history) - 1, -1, -1):
            if history[index]["role"] == "user":
                return index
        return 0

    def _call_model(
        self, tools: list[dict] | None
    ) -> Generator[ev.Event, None, ModelResponse | None]:
        for attempt in (1, 2):
            messages = self.request_messages()
            if self.next_step_prompt:
                self._last_next_step = self.next_step_prompt
            try:
                response: ModelResponse | None = None
                for item in self.client.stream(messages, tools, temperature=self.temperature):
                    if isinstance(item, TextDelta):
                        yield ev.TextDelta(item.text)
                    elif isinstance(item, ThinkingDelta):
                        yield ev.Thinking(item.text)
                    elif isinstance(item, ModelResponse):
                        response = item
                if response is None:
                    raise ModelError("the model's answer ended without a final message")
            except ContextWindowError as exc:
                if attempt == 1 and self.memory.trim_oldest_turn():
                    yield ev.Notice(
                        "the conversation was too long for the model; dropped the oldest turn and retried",
                        "warning",
                    )
                    continue
                self._done_reason = "error"
                yield ev.ErrorEvent(
                    exc.message, hint=exc.hint or "use /clear to start the conversation afresh"
                )
                return None
            except ModelError as exc:
                self._done_reason = "error"
                yield ev.ErrorEvent(exc.message, hint=exc.hint)
                return None
            self.session_usage = self.session_usage + response.usage
            u, s = response.usage, self.session_usage
            yield ev.UsageEvent(
                u.prompt_tokens,
                u.completion_tokens,
                u.cost_usd,
                s.prompt_tokens,
                s.completion_tokens,
                s.cost_usd,
            )
            return response
        return None

    def _decide(self, outcome: ToolOutcome) -> Generator[ev.Event, None, ToolOutcome]:
        edit = outcome.proposed_edit
        assert edit is not None
        yield edit
        if edit.flags:
            decision = self._approve(edit)  # never automatic, not even with --yes
        elif self.auto_apply:
            decision = ev.Decision(ev.Action.APPLY)
        else:
            decision = self._approve(edit)
        if decision.action is ev.Action.ALWAYS:
            self.auto_apply = True
        flags = "; ".join(getattr(f, "message", str(f)) for f in edit.flags)
        if decision.action in (ev.Action.APPLY, ev.Action.ALWAYS):
            result = self.workspace.apply(
                edit.before, decision.new_text or edit.after, edit.reason or "edit"
            )
            if result.applied:
                self._edits_applied += 1
                note = (
                    " The user adjusted the text before applying it." if decision.new_text else ""
                )
                content = f"Applied.{note} The resume now has this change:\n{fence(result.diff, 'resume_diff')}"
            else:
                content = f"Not applied: {result.message}"
            yield ev.EditOutcome(edit.id, result.applied, result.message, result.diff)
        elif decision.action is ev.Action.REJECT:
            note = f" Their note: {decision.note}" if decision.note else ""
            content = f"The user rejected this edit.{note} Do not apply it again; ask what they would prefer."
            yield ev.EditOutcome(edit.id, False, "rejected")
        else:
            self._deferred.append(edit)
            why = (
                f" It needs the user's confirmation: {flags}"
                if flags
                else " The user has not confirmed it (non-interactive session)."
            )
            content = f"Not applied: proposed only.{why}"
            yield ev.EditOutcome(
                edit.id, False, "needs confirmation" if flags else "proposed, not applied"
            )
        return ToolOutcome(content, ok=True, summary=content.split("\n", 1)[0][:80])
