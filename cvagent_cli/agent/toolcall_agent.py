"""ToolCallAgent: the think()/act() loop of OpenManus (BaseAgent →
ToolCallAgent), with the flaws fixed:

- a text-only answer ends the turn;
- Memory trims whole turns, so a request is always a valid message sequence;
- anything the model gets wrong becomes a tool result it can read, never an exception;
- a cancelled stream (Ctrl-C) or a failed call leaves Memory valid;
- identical tool calls repeated → a strategy hint once, then a clear stop.

The scratch state of a turn lives in a :class:`Turn` made by ``run()``; the agent itself
keeps only what outlives a turn.  It never prints: ``run()`` yields typed events.
"""

from __future__ import annotations

import html
import json
import time
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field
from typing import Any

from cvagent_cli.agent import events as ev
from cvagent_cli.agent.memory import Memory
from cvagent_cli.agent.messages import Message, ToolCall
from cvagent_cli.agent.prompts import CONTEXT_MARKERS, Prompt
from cvagent_cli.agent.request import (
    CONTEXT_CLOSE,
    CONTEXT_OPEN,
    HISTORY_TOKENS,
    Window,
    build_request,
    history_window,
)
from cvagent_cli.document.editing import hunks
from cvagent_cli.errors import ContextWindowError, ModelError
from cvagent_cli.llm.streaming import ECHOING, REPEATING, Cut, ReplyGuard, says_nothing
from cvagent_cli.llm.types import (
    ModelClient,
    ModelResponse,
    Retrying,
    TextDelta,
    ThinkingDelta,
)
from cvagent_cli.tools.base import ToolCollection, ToolContext, ToolOutcome
from cvagent_cli.truth.fencing import fence, fence_markers
from cvagent_cli.wording import retry_wait
from cvagent_cli.workspace import Workspace

Approver = Callable[[ev.ProposedEdit], ev.Decision]
EventStream = Generator[ev.Event, None, bool]
#: What only a request contains (see EchoGuard): the turn context's tags, also as some
#: local servers' chat templates HTML-escape them, its headings, and fence tags.
ECHO_MARKERS = (
    CONTEXT_OPEN,
    CONTEXT_CLOSE,
    html.escape(CONTEXT_OPEN),
    html.escape(CONTEXT_CLOSE),
    *CONTEXT_MARKERS,
    *fence_markers(),
)
#: A stopped answer (its finish_reason is the cut's reason): what the user is shown, and
#: what the model is told at its next turn.
_CUT_NOTICES = {
    REPEATING: "the model kept repeating the same passage",
    ECHOING: "the model began copying cvagent's instructions back",
}
_CUT_NOTES = {
    REPEATING: "your previous answer started repeating one passage over and over and was "
    "cut off; keep answers short and do not repeat",
    ECHOING: "your previous answer began copying the turn context or a fenced block of your "
    "instructions and was cut off; answer in your own words and never repeat those blocks",
}

STUCK_HINT = (
    "You have repeated exactly the same tool call. It will not give a different result. "
    "Change strategy: use what you already have, try different arguments, or answer the user."
)


#: a turn that needed a tool ended with text only (a model or server without tool calling
#: answers "Let me read your experience first." and stops)
NO_TOOL_NOTICE = (
    "the model answered without using a tool, so nothing in the resume was read or changed; "
    "if it keeps doing this, the model or its server may not support tool calling "
    "(`cvagent doctor` checks)"
)


def defer_all(edit: ev.ProposedEdit) -> ev.Decision:
    return ev.Decision(ev.Action.DEFER)


def automatic_decision(edit: ev.ProposedEdit, auto_apply: bool) -> ev.Decision | None:
    """The approval rule, in one place: with auto-apply (``--yes`` or "always") an edit
    lands without asking, unless it is flagged; a flagged edit always needs a person."""
    if auto_apply and not edit.flags:
        return ev.Decision(ev.Action.APPLY)
    return None


@dataclass
class Turn:
    """One user turn's scratch state: created by ``run()``, dropped when it ends."""

    request: str
    approve: Approver = defer_all
    step: int = 0
    prompt: Prompt = field(default_factory=Prompt)
    pending: list[ToolCall] = field(default_factory=list)
    signatures: list[str] = field(default_factory=list)
    stuck_hinted: bool = False
    sent_next_step: str = ""  # a next-step prompt is sent once, not on every step
    window_first: int = 0  # the first earlier turn this turn's requests carry
    counted: bool = False  # the turn stays in Memory: it has a number and a summary
    tools_used: list[str] = field(default_factory=list)
    final_text: str = ""
    done_reason: str = "text"
    finished: bool = False  # terminate was called
    edits_applied: int = 0
    deferred: list[ev.ProposedEdit] = field(default_factory=list)
    deadline: float | None = None  # time.monotonic() by which the turn must end


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
        history_tokens: int = HISTORY_TOKENS,
        turn_timeout: float | None = None,
    ) -> None:
        self.client = client
        self.tools = tools
        self.workspace = workspace
        self.memory = memory if memory is not None else Memory(50)
        self.max_steps = max_steps
        self.auto_apply = auto_apply
        self.temperature = temperature
        self.history_tokens = history_tokens  # the history window's jump threshold
        self.turn_timeout = turn_timeout  # seconds a turn may take, every step included
        self.turns_done = 0  # turns of this conversation that Memory kept (numbered from 0)
        self.window_first = 0  # the first of them that requests still carry
        self.turn: Turn | None = None  # while a turn runs

    # -- hooks for subclasses ----------------------------------------------------------
    def allowed_tools(self) -> list[str]:
        return self.tools.names

    def compose(self, turn: Turn) -> Prompt:
        """The system prompt and next-step prompt for the next think() of ``turn``."""
        return Prompt()

    def call_temperature(self) -> float | None:
        return self.temperature

    def apply_effects(self, outcome: ToolOutcome, turn: Turn) -> Iterator[ev.Event]:
        """Apply a tool's effects (after the policy and validation passed); subclasses
        handle capability switches, stages and progress, and may rewrite the outcome."""
        if outcome.effects.terminate:
            turn.finished = True
        return iter(())

    def expects_tools(self, turn: Turn) -> bool:
        """Whether ``turn``'s request cannot be done without a tool (subclasses know the
        intent): a text-only turn then ends with :data:`NO_TOOL_NOTICE`."""
        return False

    def note(self, text: str) -> None:
        """Something the model must know at its next turn (subclasses deliver it)."""

    def instruction_text(self, turn: Turn) -> str:
        """cvagent's own instruction sentences in this turn's requests, which a reply must
        not recite (see ``InstructionEcho``): the rules of the system prompt and of the
        pack, the next-step prompt and cvagent's notes — never the resume, the user's
        words, earlier answers or their summaries, which an answer may well repeat."""
        parts = turn.prompt.parts
        own = [parts.get("base", ""), parts.get("capability", ""), turn.prompt.next_step]
        return "\n".join([*own, STUCK_HINT, *_CUT_NOTES.values()])

    def tool_context(self) -> ToolContext:
        return ToolContext(workspace=self.workspace, user_messages=self.user_messages)

    def user_messages(self) -> list[str]:
        return [m.content or "" for m in self.memory.messages if m.role == "user"]

    # -- template methods -----------------------------------------------------------
    def run(self, request: str, approve: Approver | None = None) -> Iterator[ev.Event]:
        """One user turn: steps until a text answer, terminate, max_steps or a stop."""
        return self.run_turn(Turn(request, approve or defer_all))

    def run_turn(self, turn: Turn) -> Iterator[ev.Event]:
        self.turn = turn
        request = Message.user(turn.request)
        self.memory.add(request)
        # the history window is decided once per turn, so every step sends the same prefix
        turn.window_first = self.window_first = self.choose_window()
        if self.turn_timeout:
            turn.deadline = time.monotonic() + self.turn_timeout
        try:
            while not turn.finished:
                if turn.step >= self.max_steps:
                    turn.done_reason = "max_steps"
                    yield ev.Notice(
                        f"stopped after {self.max_steps} steps (max_steps); ask me to continue if needed",
                        "warning",
                    )
                    break
                if turn.deadline is not None and time.monotonic() >= turn.deadline:
                    turn.done_reason = "timeout"
                    yield ev.Notice(
                        f"stopped: the turn took longer than {self.turn_timeout:g} s "
                        "(turn_timeout); ask me to continue if needed",
                        "warning",
                    )
                    break
                turn.step += 1
                turn.prompt = self.compose(turn)
                if not (yield from self.step(turn)):
                    break
        except (KeyboardInterrupt, GeneratorExit):
            self.memory.discard_incomplete()
            raise
        finally:
            self.turn = None
            if turn.done_reason == "error" or not turn.final_text:
                # a failed call, or a reply with nothing to keep: not part of the
                # conversation (the request goes too, unless tool traffic answered it)
                self.memory.drop_unanswered(request)
            if any(m is request for m in self.memory.messages):
                turn.counted = True
                self.turns_done += 1
        yield ev.Done(
            turn.done_reason,
            turn.final_text,
            turn.step,
            turn.edits_applied,
            list(turn.deferred),
        )

    def step(self, turn: Turn) -> EventStream:
        if not (yield from self.think(turn)):
            return False
        yield from self.act(turn)
        return not turn.finished

    def think(self, turn: Turn) -> EventStream:
        tools = self.tools.to_params(self.allowed_tools()) or None
        response = yield from self._call_model(turn, tools)
        if response is None:
            return False
        calls = [
            ToolCall(id=c.id or f"call_{i}", name=c.name, arguments=c.arguments or "{}")
            for i, c in enumerate(response.tool_calls)
        ]
        if calls:
            signature = json.dumps([(c.name, c.arguments) for c in calls])
            if turn.signatures and turn.signatures[-1] == signature:
                if turn.stuck_hinted:
                    turn.done_reason = "stuck"
                    yield ev.ErrorEvent(
                        "stopped: the model kept repeating the same tool call",
                        hint="rephrase the request, or try another model",
                    )
                    return False
                turn.stuck_hinted = True
            turn.signatures.append(signature)
        content = "" if says_nothing(response.content) else response.content
        if calls or content:  # an answer cut to nothing, or only "#", is no answer: not kept
            reasoning = response.reasoning or None
            self.memory.add(Message.assistant(content or None, calls or None, reasoning))
        turn.pending = calls
        if not calls:
            turn.final_text = content
            turn.done_reason = "text"
            if not content and response.finish_reason not in (REPEATING, ECHOING):
                yield ev.Notice("the model sent an empty answer; try rephrasing", "warning")
            elif content and tools and not turn.tools_used and self.expects_tools(turn):
                yield ev.Notice(NO_TOOL_NOTICE, "warning")
            return False
        return True

    def act(self, turn: Turn) -> Iterator[ev.Event]:
        ctx = self.tool_context()
        for call in turn.pending:
            turn.tools_used.append(call.name)
            _, shown, _ = self.tools.parse_arguments(call.name, call.arguments)
            yield ev.ToolCallEvent(call.id, call.name, shown, call.arguments)
            ctx.current_call_id = call.id
            # policy and validation first: a refused or invalid call has no effects
            outcome = self.tools.execute(call.name, call.arguments, ctx, self.allowed_tools())
            if outcome.proposed_edit is not None:
                outcome = yield from self._decide(outcome, turn)
            if outcome.ok:
                yield from self.apply_effects(outcome, turn)
            self.memory.add(Message.tool(outcome.content, call.id, call.name))
            yield ev.ToolResultEvent(
                call.id, call.name, outcome.ok, outcome.summary, outcome.content
            )
        turn.pending = []
        if turn.finished:
            turn.done_reason = "terminate"

    # -- pieces -----------------------------------------------------------------------
    def choose_window(self, history: list[dict[str, Any]] | None = None) -> int:
        """Where the history window of a turn starting now begins (nothing is changed)."""
        return history_window(
            self.memory.to_wire() if history is None else history,
            Window(self.window_first, self.turns_done),
            self.history_tokens,
        )

    def request_messages(
        self, turn: Turn, history: list[dict[str, Any]] | None = None
    ) -> list[dict[str, Any]]:
        """Exactly what the next think() of ``turn`` sends (``history``: Memory's)."""
        notes = [STUCK_HINT] if turn.stuck_hinted else []
        next_step = turn.prompt.next_step
        if next_step and next_step != turn.sent_next_step:
            notes.append(next_step)
        return build_request(
            system=turn.prompt.system(),
            history=self.memory.to_wire() if history is None else history,
            window=Window(turn.window_first, self.turns_done),
            context=turn.prompt.context_text(),
            notes=notes,
        )

    def _call_model(
        self, turn: Turn, tools: list[dict[str, Any]] | None
    ) -> Generator[ev.Event, None, ModelResponse | None]:
        for attempt in (1, 2):
            messages = self.request_messages(turn)
            turn.sent_next_step = turn.prompt.next_step or turn.sent_next_step
            try:
                response = yield from self._stream_reply(turn, messages, tools)
            except ContextWindowError as exc:
                if attempt == 1 and self.memory.trim_oldest_turn():
                    yield ev.Notice(
                        "the conversation was too long for the model; dropped the oldest turn and retried",
                        "warning",
                    )
                    continue
                turn.done_reason = "error"
                yield ev.ErrorEvent(
                    exc.message, hint=exc.hint or "use /clear to start the conversation afresh"
                )
                return None
            except ModelError as exc:
                turn.done_reason = "error"
                yield ev.ErrorEvent(exc.message, hint=exc.hint)
                return None
            if response.finish_reason == "length":
                yield ev.Notice(
                    "the answer reached the output limit (max_tokens) and was cut off",
                    "warning",
                )
            yield usage_event(response, self.client)
            return response
        return None

    def _stream_reply(
        self, turn: Turn, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None
    ) -> Generator[ev.Event, None, ModelResponse]:
        """One streamed answer.  A reply stuck in a loop is stopped and cut to its first
        copy of the loop; one that starts copying its prompt back is stopped where the
        copy begins (no part of it is shown).  The model is told at its next turn."""
        guard = ReplyGuard(ECHO_MARKERS, self.instruction_text(turn))
        response: ModelResponse | None = None
        cut: Cut | None = None
        before = self.client.session_usage
        stream = self.client.stream(
            messages, tools, temperature=self.call_temperature(), deadline=turn.deadline
        )
        try:
            for item in stream:
                if isinstance(item, TextDelta):
                    show, cut = guard.push(item.text)
                    if show:
                        yield ev.TextDelta(show)
                    if cut is not None:
                        break
                elif isinstance(item, ThinkingDelta):
                    yield ev.Thinking(item.text)
                elif isinstance(item, Retrying):
                    yield ev.Notice(f"{item.message}; {retry_wait(item.delay)}", "warning")
                elif isinstance(item, ModelResponse):
                    response = item
        finally:
            close = getattr(stream, "close", None)
            if close is not None:
                close()  # ends the HTTP stream of an answer we stopped
        if cut is None and response is None:
            raise ModelError("the model's answer ended without a final message")
        calls_as_text = response is not None and response.tool_calls and not response.content
        if cut is None and calls_as_text and guard.shown:  # see llm/text_tool_calls.py
            yield ev.Retract(0, guard.shown, "")
            assert response is not None
            return response
        if cut is None:
            rest, cut = guard.finish()  # a recital is known once its sentence ends
            if rest:
                yield ev.TextDelta(rest)
        if cut is None and says_nothing(guard.text) and guard.shown:
            cut = Cut("", "")  # only Markdown punctuation ("#"): nothing to read
        if cut is not None and guard.shown > len(cut.kept):
            yield ev.Retract(len(cut.kept), guard.shown - len(cut.kept), cut.kept)
        if cut is not None and cut.reason:
            said = (
                f"kept its first {len(cut.kept):,} characters"
                if cut.kept
                else "before it said anything"
            )
            yield ev.Notice(f"stopped the answer: {_CUT_NOTICES[cut.reason]} ({said})", "warning")
            self.note(_CUT_NOTES[cut.reason])
        if cut is not None:
            return ModelResponse(
                content=cut.kept,
                tool_calls=[] if cut.reason else (response.tool_calls if response else []),
                usage=self.client.session_usage - before,  # what the client billed for it
                finish_reason=cut.reason or (response.finish_reason if response else "stop"),
                model=getattr(self.client, "model", ""),
                reasoning=response.reasoning if response else "",
            )
        assert response is not None
        return response

    def _decide(self, outcome: ToolOutcome, turn: Turn) -> Generator[ev.Event, None, ToolOutcome]:
        edit = outcome.proposed_edit
        assert edit is not None
        yield edit
        blocked = self.workspace.write_block()  # read-only, or deleted meanwhile: never ask
        if blocked:
            yield ev.EditOutcome(edit.id, False, f"not applied: {blocked}")
            return ToolOutcome(f"Not applied: {blocked}", ok=True, summary="not applied")
        decision = automatic_decision(edit, self.auto_apply) or turn.approve(edit)
        if decision.action is ev.Action.ALWAYS:
            self.auto_apply = True
        flags = "; ".join(getattr(f, "message", str(f)) for f in edit.flags)
        if decision.action in (ev.Action.APPLY, ev.Action.ALWAYS) and (
            decision.new_text is not None
            and (decision.new_text == edit.before or not decision.new_text.strip())
        ):
            # edited back to the original, or emptied: that is no edit at all (an empty
            # text never stands for "apply the proposal as it was")
            content = "The user edited your proposal back to the original text; nothing changed."
            said = ev.EditOutcome(edit.id, False, "unchanged: the text is as it was")
        elif decision.action in (ev.Action.APPLY, ev.Action.ALWAYS):
            after = edit.after if decision.new_text is None else decision.new_text
            result = self.workspace.apply(
                edit.before,
                after,
                edit.reason or "edit",
                diff=edit.diff if after == edit.after else None,  # the proposal's diff
            )
            if result.applied:
                turn.edits_applied += 1
                note = (
                    " The user adjusted the text before applying it." if decision.new_text else ""
                )
                change = hunks(edit.before, after)
                content = f"Applied.{note} The resume now has this change:\n{fence(change, 'resume_diff')}"
            else:
                content = f"Not applied: {result.message}"
            said = ev.EditOutcome(
                edit.id, result.applied, result.message, result.diff, failed=result.failed
            )
        elif decision.action is ev.Action.REJECT:
            note = f" Their note: {decision.note}" if decision.note else ""
            content = f"The user rejected this edit.{note} Do not apply it again; ask what they would prefer."
            said = ev.EditOutcome(edit.id, False, "rejected")
        else:
            turn.deferred.append(edit)
            why = (
                f" It needs the user's confirmation: {flags}"
                if flags
                else " The user has not confirmed it (non-interactive session)."
            )
            content = f"Not applied: proposed only.{why}"
            said = ev.EditOutcome(
                edit.id, False, "needs confirmation" if flags else "proposed, not applied"
            )
        yield said
        return ToolOutcome(content, ok=True, summary=said.message)  # the user's words


def usage_event(response: ModelResponse, client: ModelClient) -> ev.UsageEvent:
    """This call's usage and the session's, as the client (the one owner) counts them."""
    u, s = response.usage, client.session_usage
    return ev.UsageEvent(
        u.prompt_tokens,
        u.completion_tokens,
        u.cost_usd,
        s.prompt_tokens,
        s.completion_tokens,
        s.cost_usd,
        u.cached_tokens,
        s.cached_tokens,
    )
