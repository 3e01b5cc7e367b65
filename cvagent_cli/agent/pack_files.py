"""Reading capability packs from disk: the shipped ones and the user's, each file parsed
and validated, and every problem rewritten into one plain line that names the file, the
field and what was expected (``CapabilityRegistry.load`` calls this)."""

from __future__ import annotations

import difflib
import importlib.resources
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ValidationError

from cvagent_cli import paths, yamlio
from cvagent_cli.agent.capabilities import (
    EXTRA_PROMPT_KEYS,
    Capability,
    ModelHints,
    ToolPolicy,
)
from cvagent_cli.agent.intent import Intent
from cvagent_cli.validation import expected_words


@dataclass(frozen=True)
class _PackFile:
    display: str  # how error messages name the file
    source: str  # a path (or resource name) for Capability.source
    text: str | None
    error: str | None = None  # unreadable file


def packaged_dir() -> Any | None:
    """The shipped packs: the wheel's ``cvagent_cli/capabilities`` or, from a source
    checkout / editable install, the repository's top-level ``capabilities/``."""
    try:
        resource = importlib.resources.files("cvagent_cli") / "capabilities"
        if resource.is_dir():
            return resource
    except (ModuleNotFoundError, OSError, TypeError):  # pragma: no cover - odd installs
        pass
    checkout = Path(__file__).resolve().parents[2] / "capabilities"
    return checkout if checkout.is_dir() else None


def user_packs_dir() -> Path:
    """Where the user's own packs live: ``config_dir()/capabilities``."""
    return paths.config_dir() / "capabilities"


def _is_pack_name(filename: str) -> bool:
    return filename.endswith((".yaml", ".yml")) and not filename.startswith(".")


def packaged_files(folder: Any) -> list[_PackFile]:
    if not folder.is_dir():
        return []
    files = []
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if not _is_pack_name(entry.name) or not entry.is_file():
            continue
        display = f"capabilities/{entry.name}"
        try:
            files.append(_PackFile(display, str(entry), entry.read_text(encoding="utf-8")))
        except (OSError, UnicodeDecodeError) as exc:
            files.append(_PackFile(display, str(entry), None, _read_error(exc)))
    return files


def user_files(folder: Path) -> list[_PackFile]:
    if not folder.is_dir():
        return []
    files = []
    for path in sorted(folder.iterdir()):
        if not _is_pack_name(path.name) or not path.is_file():
            continue
        try:
            files.append(_PackFile(str(path), str(path), path.read_text(encoding="utf-8")))
        except (OSError, UnicodeDecodeError) as exc:
            files.append(_PackFile(str(path), str(path), None, _read_error(exc)))
    return files


def _read_error(exc: Exception) -> str:
    if isinstance(exc, UnicodeDecodeError):
        return "cannot read the file: it is not UTF-8 text"
    return f"cannot read the file: {getattr(exc, 'strerror', None) or exc}"


def _type_words(value: Any) -> str:
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


#: What each field holds, in plain words (containers, then their items as ``field[]``).
_EXPECTED: dict[str, str] = {
    "name": "a short lowercase name",
    "description": "a one-line description (text)",
    "system_prompt_addendum": "prompt text",
    "tool_policy": "a mapping with whitelist / enabled / disabled",
    "tool_policy.whitelist": "a list of tool names",
    "tool_policy.enabled": "a list of tool names",
    "tool_policy.disabled": "a list of tool names",
    "tool_policy.whitelist[]": "a tool name",
    "tool_policy.enabled[]": "a tool name",
    "tool_policy.disabled[]": "a tool name",
    "stages": "a list of stage names",
    "stages[]": "a stage name",
    "next_step_prompts": "a mapping of stage or intent name to prompt text",
    "next_step_prompts[]": "prompt text",
    "model_hints": "a mapping with temperature / prefer",
    "model_hints.temperature": "a number between 0 and 2",
    "model_hints.prefer": "a model name (text)",
    "triggers": "a list of phrases",
    "triggers[]": "a phrase (text)",
    "intents": "a list of intent names",
    "intents[]": "an intent name",
    "task_list": "true or false",
}

_FIELDS_AT: dict[str, type[BaseModel]] = {
    "": Capability,
    "tool_policy": ToolPolicy,
    "model_hints": ModelHints,
}


def _loc_text(loc: tuple[Any, ...]) -> tuple[str, str]:
    """(readable path like ``tool_policy.whitelist[0]``, lookup key like ``tool_policy.whitelist[]``)."""
    shown, key = "", ""
    for part in loc:
        if isinstance(part, int):
            shown += f"[{part}]"
            key += "[]"
        elif key == "next_step_prompts":  # a mapping key, not a field
            shown += f".{part}"
            key += "[]"
        else:
            shown += f".{part}" if shown else str(part)
            key += f".{part}" if key else str(part)
    return shown, key


def _explain(error: Mapping[str, Any]) -> str:
    loc = tuple(error.get("loc", ()))
    kind = error.get("type", "")
    value = error.get("input")
    shown, key = _loc_text(loc)
    if kind == "extra_forbidden":
        field = str(loc[-1]) if loc else "?"
        parent = ".".join(str(p) for p in loc[:-1])
        model = _FIELDS_AT.get(parent)
        allowed = [f for f in model.model_fields if f != "source"] if model else []
        where = f"{parent}: " if parent else ""
        if field == "source" and model is Capability:
            return f"{where}unknown field 'source' (cvagent sets it to the file's path)"
        close = difflib.get_close_matches(field, allowed, n=1, cutoff=0.6)
        hint = (
            f" (did you mean '{close[0]}'?)"
            if close
            else (f" (allowed: {', '.join(allowed)})" if allowed else "")
        )
        return f"{where}unknown field '{field}'{hint}"
    expected = _EXPECTED.get(key, "")
    if kind == "missing":
        return f"{shown}: required field is missing" + (
            f" (expected {expected})" if expected else ""
        )
    if kind == "value_error":
        ctx_error = (error.get("ctx") or {}).get("error")
        message = str(ctx_error) if ctx_error is not None else str(error.get("msg", ""))
        return f"{shown}: {message}"
    if kind in ("greater_than_equal", "less_than_equal", "greater_than", "less_than"):
        return f"{shown}: expected {expected or expected_words(error)}, got {value!r}"
    if kind.endswith(("_type", "_parsing")):
        return f"{shown}: expected {expected or expected_words(error)}, got {_type_words(value)}"
    return f"{shown}: {expected_words(error)}"


def _yaml_error(display: str, exc: yaml.YAMLError) -> str:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    problem = getattr(exc, "problem", None) or str(exc)
    where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
    context, context_mark = getattr(exc, "context", None), getattr(exc, "context_mark", None)
    if context and context_mark is not None and mark is not None and context_mark.line != mark.line:
        problem += f" ({context} that starts at line {context_mark.line + 1})"
    return f"{display}: invalid YAML{where}: {problem}"


def parse_pack(pack: _PackFile) -> tuple[Capability | None, list[str]]:
    """(capability, error lines) for one file."""
    if pack.error:
        return None, [f"{pack.display}: {pack.error}"]
    try:
        data = yamlio.safe_load(pack.text or "")
    except yaml.YAMLError as exc:
        return None, [_yaml_error(pack.display, exc)]
    if data is None:
        return None, [
            f"{pack.display}: the file is empty (expected a mapping with name, description, system_prompt_addendum …)"
        ]
    if not isinstance(data, dict):
        return None, [
            f"{pack.display}: expected a mapping with name, description, system_prompt_addendum …, got {_type_words(data)}"
        ]
    data = {str(k): v for k, v in data.items()}
    if "source" in data:
        return None, [
            f"{pack.display}: unknown field 'source' (cvagent sets it to the file's path)"
        ]
    try:
        capability = Capability.model_validate({**data, "source": pack.source})
    except ValidationError as exc:
        return None, [f"{pack.display}: {_explain(err)}" for err in exc.errors()]
    return capability, []


def pack_warnings(
    capability: Capability, display: str, known_tools: Iterable[str] | None
) -> list[str]:
    warnings: list[str] = []
    if known_tools is not None:
        known = list(known_tools)
        for field, tool in capability.tool_policy.referenced():
            if tool not in known:
                close = difflib.get_close_matches(tool, known, n=1, cutoff=0.6)
                hint = f" (did you mean '{close[0]}'?)" if close else ""
                warnings.append(
                    f"{display}: tool_policy.{field}: unknown tool '{tool}'{hint}; it is ignored"
                )
    if capability.tool_policy.whitelist and capability.tool_policy.enabled:
        warnings.append(
            f"{display}: tool_policy.enabled is ignored because tool_policy.whitelist is set"
        )
    allowed_keys = set(capability.stages) | {i.name for i in Intent} | EXTRA_PROMPT_KEYS
    for key in capability.next_step_prompts:
        if key not in allowed_keys:
            warnings.append(
                f"{display}: next_step_prompts: '{key}' is neither a stage of this pack nor an intent name; it is never used"
            )
    return warnings
