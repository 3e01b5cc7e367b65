"""Where cvagent's settings come from, and in which order.

Precedence, highest first: command-line options > environment (``CVAGENT_<NAME>`` for
every field of :class:`Settings`, e.g. ``CVAGENT_MODEL``, ``CVAGENT_MAX_STEPS``) >
``config.yaml`` in the config directory > built-in defaults.  A field added to
``Settings`` is configurable from all three with no extra code.

Hand-merged rather than pydantic-settings: the merge is a dozen lines over
``Settings.model_fields``, it keeps the error messages that name the file, variable or
option, and it adds no dependency to every start-up.  The config file never holds API keys: those stay in the provider's
own environment variable (``OPENAI_API_KEY`` …) so they cannot leak through a shared or
committed config file.  Every problem becomes a ``ConfigError`` in plain words naming the
file (or variable, or option) and the field.
"""

from __future__ import annotations

import contextlib
import difflib
import logging
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from cvagent_cli.errors import ConfigError
from cvagent_cli.paths import config_dir
from cvagent_cli.validation import expected_words, location

_log = logging.getLogger(__name__)

CONFIG_FILE_NAME = "config.yaml"

ENV_PREFIX = "CVAGENT_"

#: keys that smell like credentials; rejected in config.yaml whatever their value
_SECRET_KEYS = {
    "api_key",
    "apikey",
    "key",
    "token",
    "secret",
    "password",
    "api_token",
    "access_token",
    "openai_api_key",
    "anthropic_api_key",
}


API_BASE_EXAMPLE = "http://localhost:11434 or http://127.0.0.1:8080/v1"


def api_base_problem(url: str) -> str | None:
    """What is wrong with a server URL given as ``api_base``, or None.  Checked when it is
    given (option, environment, config file, ``/model … --api-base``), so that a typo is
    one clear error instead of four retries and "lost the connection" at the first message."""
    text = url.strip()
    if not text:
        return "it is empty"
    if any(c.isspace() for c in text):
        return "it has a space in it"
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number 0-65535
    except ValueError as exc:  # "Port out of range 0-65535", "Invalid IPv6 URL"
        return f"it is not a valid URL: {str(exc)[:1].lower()}{str(exc)[1:]}"
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        guess = (
            f"; did you mean http://{text}?"
            if "://" not in text and ("." in text or ":" in text)
            else ""
        )
        return f"it does not start with http:// or https://{guess}"
    if not parts.hostname:
        return "it has no host name"
    return None


class Settings(BaseModel):
    """Resolved settings for one run."""

    model_config = ConfigDict(extra="forbid")

    model: str | None = Field(
        default=None,
        description="litellm model name, e.g. openai/gpt-4o-mini or ollama_chat/llama3.1",
    )
    api_base: str | None = Field(
        default=None, description="base URL of an OpenAI-compatible or Ollama server"
    )

    @field_validator("api_base")
    @classmethod
    def _check_api_base(cls, value: str | None) -> str | None:
        if value is None:
            return None
        problem = api_base_problem(value)
        if problem:
            raise ValueError(f"a server URL such as {API_BASE_EXAMPLE} ({problem})")
        return value.strip()

    timeout: float = Field(
        default=120, gt=0, description="seconds to wait for the model's first or next word"
    )
    turn_timeout: float = Field(
        default=600, gt=0, description="seconds one chat turn may take, all steps included"
    )
    max_tokens: int | None = Field(
        default=4096, ge=1, description="longest answer the model may write, in tokens"
    )
    max_retries: int = Field(default=4, ge=0, description="retries for 429/5xx/network errors")
    max_steps: int = Field(default=10, ge=1, description="tool-calling steps per user turn")
    capability: str = Field(default="base", min_length=1, description="capability pack name")
    temperature: float | None = Field(
        default=None, ge=0, le=2, description="sampling temperature (model default if unset)"
    )
    transcripts: bool = Field(
        default=True, description="keep a local log of chat turns (cvagent log off/on)"
    )
    transcript_days: int = Field(
        default=90, ge=1, description="days a transcript is kept before it is pruned"
    )
    transcript_max_mb: float = Field(
        default=50, gt=0, description="size cap of the transcript log; oldest turns go first"
    )
    paper: Literal["a4", "letter"] | None = Field(
        default=None,
        description="paper of exported PDFs: a4 or letter (unset: Letter for a resume "
        "with a US or Canadian phone or address, else A4)",
    )
    dates: Literal["right", "inline"] = Field(
        default="right",
        description="where an entry's dates go in exported files: right (right-aligned on "
        "the title's row) or inline (right after the title, which every PDF text reader, "
        "poppler's default mode too, reads next to it)",
    )


#: environment variable -> setting it fills: one for every field, derived, never listed
ENV_VARS: dict[str, str] = {f"{ENV_PREFIX}{name.upper()}": name for name in Settings.model_fields}

#: where a value came from, as ``config show`` names it
SOURCE_FLAG, SOURCE_ENV, SOURCE_FILE, SOURCE_DEFAULT = "flag", "env", "file", "default"


def config_path() -> Path:
    """The YAML config file read by :func:`load_settings`."""
    return config_dir() / CONFIG_FILE_NAME


def describe_config_sources() -> str:
    """Plain-text explanation of where settings come from (``cvagent config --help``)."""
    names = ", ".join(Settings.model_fields)
    return (
        "Settings are taken from, highest priority first:\n"
        "  1. command-line options (--model, --api-base, ...)\n"
        f"  2. environment variables {ENV_PREFIX}<NAME>: {', '.join(ENV_VARS)}\n"
        f"  3. the config file {config_path()}\n"
        "  4. built-in defaults\n"
        f"Config file keys: {names}.\n"
        "API keys never go in the config file: set the provider's variable instead\n"
        "(OPENAI_API_KEY, ANTHROPIC_API_KEY, DEEPSEEK_API_KEY, GEMINI_API_KEY, ...).\n"
        "A local OpenAI-compatible server needs no key: pass --api-base http://HOST:PORT/v1."
    )


def load_settings(
    model: str | None = None,
    api_base: str | None = None,
    *,
    config_file: Path | None = None,
    environ: Mapping[str, str] | None = None,
    **overrides: Any,
) -> Settings:
    """Merge CLI values, environment, config file and defaults into :class:`Settings`.

    ``None`` CLI values mean "not given" so the CLI can pass every option through.
    ``config_file`` and ``environ`` exist for tests; by default the real config path and
    ``os.environ`` are used.
    """
    settings, _ = load_settings_with_sources(
        model, api_base, config_file=config_file, environ=environ, **overrides
    )
    return settings


def load_settings_with_sources(
    model: str | None = None,
    api_base: str | None = None,
    *,
    config_file: Path | None = None,
    environ: Mapping[str, str] | None = None,
    **overrides: Any,
) -> tuple[Settings, dict[str, str]]:
    """:func:`load_settings`, plus where each field's value came from (flag, env, file,
    default) for ``cvagent config show``."""
    env = os.environ if environ is None else environ
    path = config_file if config_file is not None else config_path()

    merged: dict[str, Any] = {}
    sources = dict.fromkeys(Settings.model_fields, SOURCE_DEFAULT)
    from_file, unknown = _read_config_file(path)
    from_env = _read_environment(env)
    merged.update(from_file)
    merged.update(from_env)
    sources.update(dict.fromkeys(from_file, SOURCE_FILE))
    sources.update(dict.fromkeys(from_env, SOURCE_ENV))
    cli = {"model": model, "api_base": api_base, **overrides}
    cli = {k: v for k, v in cli.items() if v is not None}
    for key in cli:
        if key not in Settings.model_fields:
            raise ConfigError(
                f"unknown setting {key!r} given on the command line", hint=_known_keys_hint(key)
            )
    merged.update(cli)
    sources.update(dict.fromkeys(cli, SOURCE_FLAG))

    # every problem at once (a config file with three mistakes is fixed in one edit):
    # the unknown keys of the file, then each invalid value, named by where it came from
    problems = [
        f"unknown setting {key!r} in the config file {path}" + _did_you_mean(key, len(unknown))
        for key in unknown
    ]
    try:
        settings = Settings(**merged)
    except ValidationError as exc:
        for err in exc.errors():
            field_name = str(err["loc"][0]) if err["loc"] else "?"
            if field_name in cli:
                source = f"the command-line option --{field_name.replace('_', '-')}"
            elif field_name in from_env:
                source = f"the environment variable {env_var(field_name)}"
            else:
                source = str(path)
            problems.append(_plain_error(err, source))
    if problems:
        hint = None
        if len(unknown) == 1:
            hint = _known_keys_hint(unknown[0])
        elif unknown:
            hint = f"known settings: {', '.join(Settings.model_fields)}"
        if len(problems) == 1:
            raise ConfigError(problems[0], hint=hint)
        raise ConfigError(f"{len(problems)} problems: " + "; ".join(problems), hint=hint)
    if _log.isEnabledFor(logging.DEBUG):
        values = settings.model_dump()
        _log.debug("settings: %s", ", ".join(f"{k}={values[k]!r} ({sources[k]})" for k in values))
    return settings, sources


def env_var(field_name: str) -> str:
    """The environment variable that sets ``field_name``: ``CVAGENT_<FIELD_NAME>``."""
    return f"{ENV_PREFIX}{field_name.upper()}"


def _read_environment(env: Mapping[str, str]) -> dict[str, Any]:
    """``CVAGENT_<FIELD>`` for every field; pydantic's lax mode turns "45" into 45.0 and
    "false"/"0"/"no" into False.  A list or mapping field takes JSON or YAML flow syntax."""
    found: dict[str, Any] = {}
    for name in Settings.model_fields:
        value = env.get(env_var(name))
        if value is None or not value.strip():
            continue
        value = value.strip()
        if value[0] in "[{":
            from cvagent_cli import yamlio  # yaml loads only for a list or mapping value

            with contextlib.suppress(Exception):  # not parseable: pydantic says what is wrong
                value = yamlio.safe_load(value)
        found[name] = value
    return found


def _read_config_file(path: Path) -> tuple[dict[str, Any], list[str]]:
    """The file's known settings, and its unknown keys (reported with the other problems)."""
    if not path.is_file():
        return {}, []
    import yaml  # only when a config file exists (yaml is slow to import)

    from cvagent_cli import yamlio  # (as yaml)

    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read the config file {path}: {exc}") from None
    try:
        data = yamlio.safe_load(text)
    except yaml.YAMLError as exc:
        where = ""
        mark = getattr(exc, "problem_mark", None)
        if mark is not None:
            where = f" at line {mark.line + 1}, column {mark.column + 1}"
        problem = getattr(exc, "problem", None) or "invalid YAML"
        raise ConfigError(
            f"the config file {path} is not valid YAML{where}: {problem}",
            hint="it should hold 'key: value' lines such as 'model: openai/gpt-4o-mini'",
        ) from None
    if data is None:
        return {}, []
    if not isinstance(data, dict):
        raise ConfigError(
            f"the config file {path} must be a list of 'key: value' settings, "
            f"not a {_yaml_kind(data)}",
            hint="for example: 'model: openai/gpt-4o-mini'",
        )
    for key in data:
        if isinstance(key, str) and (key.lower() in _SECRET_KEYS or key.lower().endswith("_key")):
            raise ConfigError(
                f"the config file {path} must not contain {key!r}: API keys are never "
                "stored in cvagent's config",
                hint="remove it and set the provider's environment variable instead, "
                "e.g. export OPENAI_API_KEY=... (or ANTHROPIC_API_KEY, DEEPSEEK_API_KEY, ...)",
            )
    unknown = [str(key) for key in data if key not in Settings.model_fields]
    return {k: v for k, v in data.items() if k in Settings.model_fields}, unknown


def _known_keys_hint(key: str) -> str:
    names = list(Settings.model_fields)
    close = difflib.get_close_matches(key, names, n=1)
    prefix = f"did you mean {close[0]!r}? " if close else ""
    return f"{prefix}known settings: {', '.join(names)}"


def _did_you_mean(key: str, unknown: int) -> str:
    """With several unknown keys, each one's suggestion goes with it (one key: in the hint)."""
    close = difflib.get_close_matches(key, list(Settings.model_fields), n=1)
    return f" (did you mean {close[0]!r}?)" if close and unknown > 1 else ""


def _yaml_kind(value: Any) -> str:
    if isinstance(value, list):
        return "list"
    if isinstance(value, str):
        return "plain text"
    return type(value).__name__


def _plain_error(err: Mapping[str, Any], source: str) -> str:
    """One pydantic error rewritten as 'X in SOURCE must be Y, got Z'."""
    loc = location(err)
    if err.get("type") == "extra_forbidden":
        return f"unknown setting {loc!r} in {source}"
    return f"{loc!r} in {source} must be {expected_words(err)}, got {err.get('input')!r}"
