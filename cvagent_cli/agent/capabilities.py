"""Capability packs: one agent, many behaviours, configured as YAML.

A ``Capability`` adds a ``system_prompt_addendum`` to the base system prompt, restricts
the tools the model may call through a ``ToolPolicy``, and can carry a stage list and a
task list (the guided workflow of agent/workflow.py), per-stage / per-intent
``next_step_prompts``, model hints and trigger phrases that suggest the pack to the user.

Packs are data: the shipped ones live in the top-level ``capabilities/`` folder (packaged
as ``cvagent_cli/capabilities/`` in the wheel); users add or override packs by name in
``config_dir()/capabilities/*.yaml``.  Every pack is validated by pydantic with
``extra="forbid"``, and a validation error is rewritten into one plain line naming the
file, the field and what was expected.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict, Field, field_validator

from cvagent_cli.agent.intent import Intent

#: The agent's tools (public contract); packs reference them by these names.
TOOL_NAMES: tuple[str, ...] = (
    "read_resume",
    "analyze_resume",
    "edit_resume",
    "batch_edit_resume",
    "use_capability",
    "update_progress",
    "terminate",
)

#: Tools a pack must switch on explicitly (``tool_policy.enabled``).
DEFAULT_OFF_TOOLS: tuple[str, ...] = ("batch_edit_resume",)

DEFAULT_CAPABILITY = "base"

#: Keys ``next_step_prompts`` may use besides the pack's stages and the intent names.
EXTRA_PROMPT_KEYS: frozenset[str] = frozenset({"DEFAULT", "BACKTRACK"})

_NAME_RE = re.compile(r"^[a-z][a-z0-9_-]{0,39}$")
_STAGE_RE = re.compile(r"^[A-Z][A-Z0-9_]*$")


# -- models -------------------------------------------------------------------------------


class ToolPolicy(BaseModel):
    """Which tools a pack may use.

    A non-empty ``whitelist`` names exactly the tools allowed.  Otherwise every tool is
    allowed except the default-off ones, plus ``enabled``.  ``disabled`` always wins, so a
    user pack can switch a tool off even on top of a whitelist.
    """

    model_config = ConfigDict(extra="forbid")

    whitelist: list[str] = Field(default_factory=list)
    enabled: list[str] = Field(default_factory=list)
    disabled: list[str] = Field(default_factory=list)

    def resolve(self, all_tools: Iterable[str], default_off: Iterable[str] = ()) -> list[str]:
        """The allowed tools, in the order of ``all_tools``."""
        disabled = set(self.disabled)
        if self.whitelist:
            allowed = set(self.whitelist)
        else:
            allowed = None
            off = set(default_off) - set(self.enabled)
        result: list[str] = []
        for name in all_tools:
            if name in disabled or name in result:
                continue
            if allowed is not None:
                if name in allowed:
                    result.append(name)
            elif name not in off:
                result.append(name)
        return result

    def allows(self, name: str, all_tools: Iterable[str], default_off: Iterable[str] = ()) -> bool:
        """Whether ``name`` may run; the agent asks again at execution time, because the
        model can name a tool it was not offered (or the pack changed mid-turn)."""
        return name in self.resolve(all_tools, default_off)

    def referenced(self) -> list[tuple[str, str]]:
        """(field, tool name) for every tool the policy mentions."""
        return [
            (field, tool)
            for field in ("whitelist", "enabled", "disabled")
            for tool in getattr(self, field)
        ]


class ModelHints(BaseModel):
    """Optional hints for the model call; the gateway may ignore them."""

    model_config = ConfigDict(extra="forbid")

    temperature: float | None = Field(default=None, ge=0.0, le=2.0)
    prefer: str | None = None


class Capability(BaseModel):
    """One capability pack."""

    model_config = ConfigDict(extra="forbid")

    name: str
    description: str
    system_prompt_addendum: str
    tool_policy: ToolPolicy = Field(default_factory=ToolPolicy)
    stages: list[str] = Field(default_factory=list)
    next_step_prompts: dict[str, str] = Field(default_factory=dict)
    model_hints: ModelHints | None = None
    triggers: list[str] = Field(default_factory=list)
    #: intents this pack serves: a turn of that intent in the default pack switches to it
    intents: list[str] = Field(default_factory=list)
    #: keep a task list, one task per top-level section (the optimizer's walk-through)
    task_list: bool = False
    source: str = Field(default="", exclude=True)

    @field_validator("name")
    @classmethod
    def _check_name(cls, value: str) -> str:
        value = value.strip()
        if not _NAME_RE.match(value):
            raise ValueError(
                "expected a short lowercase name (letters, digits, '-' or '_'), e.g. 'star'"
            )
        return value

    @field_validator("description", "system_prompt_addendum")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be empty")
        return value.strip()

    @field_validator("stages")
    @classmethod
    def _check_stages(cls, value: list[str]) -> list[str]:
        stages = [stage.strip().upper() for stage in value]
        for stage in stages:
            if not _STAGE_RE.match(stage):
                raise ValueError(f"expected stage names like DISCOVERY or DRAFTING, got {stage!r}")
        if len(set(stages)) != len(stages):
            raise ValueError("stage names must be unique")
        return stages

    @field_validator("next_step_prompts")
    @classmethod
    def _normalize_prompt_keys(cls, value: dict[str, str]) -> dict[str, str]:
        return {key.strip().upper(): text.strip() for key, text in value.items()}

    @field_validator("intents")
    @classmethod
    def _check_intents(cls, value: list[str]) -> list[str]:
        names = [v.strip().upper() for v in value]
        unknown = [n for n in names if n not in Intent.__members__]
        if unknown:
            raise ValueError(
                f"unknown intent {unknown[0]!r}; expected one of {', '.join(Intent.__members__)}"
            )
        return names

    @field_validator("triggers")
    @classmethod
    def _clean_triggers(cls, value: list[str]) -> list[str]:
        return [t.strip() for t in value if t.strip()]

    # -- helpers for the agent --------------------------------------------------------------
    def tools(
        self, all_tools: Iterable[str] = TOOL_NAMES, default_off: Iterable[str] = DEFAULT_OFF_TOOLS
    ) -> list[str]:
        return self.tool_policy.resolve(all_tools, default_off)

    def allows(
        self,
        name: str,
        all_tools: Iterable[str] = TOOL_NAMES,
        default_off: Iterable[str] = DEFAULT_OFF_TOOLS,
    ) -> bool:
        return self.tool_policy.allows(name, all_tools, default_off)

    def next_step_prompt(self, *keys: object) -> str | None:
        """The prompt for the first key present (a stage, an intent name, ``DEFAULT`` …).

        Keys may be strings or enums (their ``value``/``name`` is used); ``None`` is skipped.
        """
        for key in keys:
            if key is None:
                continue
            text = str(getattr(key, "value", key)).strip().upper()
            if text in self.next_step_prompts:
                return self.next_step_prompts[text]
        return None
