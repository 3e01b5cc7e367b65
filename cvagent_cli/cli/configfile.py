"""What ``cvagent config`` and ``cvagent log on/off`` do to and with the config file.

Kept apart from :mod:`cvagent_cli.settings` (which only reads) so that loading settings
at start-up imports none of this.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from cvagent_cli import paths
from cvagent_cli.errors import ConfigError, UsageError
from cvagent_cli.secrets import scrub_secrets
from cvagent_cli.settings import (
    SOURCE_ENV,
    SOURCE_FILE,
    Settings,
    config_path,
    env_var,
    load_settings,
)
from cvagent_cli.store.atomic import atomic_write_text

#: provider key variables always listed by ``config show`` (others appear when set)
KNOWN_KEY_VARIABLES = (
    "OPENAI_API_KEY",
    "ANTHROPIC_API_KEY",
    "DEEPSEEK_API_KEY",
    "GEMINI_API_KEY",
)


@dataclass(frozen=True)
class SettingRow:
    name: str
    value: str
    source: str  # flag, env, file, default
    where: str  # the variable or file behind the source ("" for flag and default)
    description: str
    data: Any = None  # the value for JSON: a number stays a number, unset is null


def setting_rows(
    settings: Settings, sources: Mapping[str, str], config_file: Path | None = None
) -> list[SettingRow]:
    """Every field, its value (secrets masked) and where it came from."""
    file = str(config_file or config_path())
    rows = []
    for name, field in Settings.model_fields.items():
        source = sources.get(name, "default")
        where = {SOURCE_ENV: env_var(name), SOURCE_FILE: file}.get(source, "")
        rows.append(
            SettingRow(
                name=name,
                value=display_value(getattr(settings, name)),
                source=source,
                where=where,
                description=field.description or "",
                data=json_value(getattr(settings, name)),
            )
        )
    return rows


def json_value(value: Any) -> Any:
    """A value as ``config show --json`` writes it: numbers and true/false as JSON has them
    (30, not "30"), null when unset, text masked as :func:`display_value` masks it."""
    if value is None or isinstance(value, (bool, int)):
        return value
    if isinstance(value, float):
        return int(value) if value.is_integer() else value
    return display_value(value)


def display_value(value: Any) -> str:
    """A value as ``config show`` prints it: no password in a URL, no key-like string."""
    if value is None:
        return "(not set)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:g}"  # 30, not 30.0: as the user wrote it
    text = str(value)
    if "://" in text and "@" in text:
        parts = urlsplit(text)
        if parts.password:
            netloc = f"{parts.username}:***@{parts.hostname}"
            if parts.port:
                netloc += f":{parts.port}"
            text = urlunsplit(parts._replace(netloc=netloc))
    return str(scrub_secrets(text))


def key_variables(environ: Mapping[str, str] | None = None) -> list[tuple[str, bool]]:
    """Provider key variables and whether each is set; never their values."""
    env = os.environ if environ is None else environ
    names = set(KNOWN_KEY_VARIABLES)
    names |= {n for n, v in env.items() if v and n.upper().endswith("_API_KEY")}
    return [(name, bool(env.get(name, "").strip())) for name in sorted(names)]


def config_template() -> str:
    """A config.yaml where every setting is a commented-out default, with its variable."""
    lines = [
        "# cvagent configuration. Uncomment a line to change a setting.",
        "# Precedence: command-line options > CVAGENT_<NAME> variables > this file > defaults.",
        "# API keys never go here: set the provider's variable (OPENAI_API_KEY, ...).",
        "",
    ]
    for name, field in Settings.model_fields.items():
        default = field.default
        shown = "" if default is None else f" {display_value(default)}"
        lines.append(f"# {field.description} (env: {env_var(name)})")
        lines.append(f"# {name}:{shown}")
        lines.append("")
    return "\n".join(lines)


def ensure_config_file(path: Path | None = None) -> tuple[Path, bool]:
    """The config file, created from :func:`config_template` when missing; (path, created)."""
    path = path or config_path()
    if path.exists():
        return path, False
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, config_template(), mode=0o600)
    return path, True


def set_config_value(name: str, value: str, path: Path | None = None) -> Path:
    """Set top-level ``name: value`` in the config file, keeping every other line and
    comment; the result is validated, and left untouched if it would be invalid."""
    if name not in Settings.model_fields:
        raise UsageError(f"unknown setting {name!r}")
    path, _ = ensure_config_file(path)
    old = path.read_text(encoding="utf-8")
    line = f"{name}: {value}"
    live = re.compile(rf"^{re.escape(name)}[ \t]*:.*$", re.MULTILINE)
    commented = re.compile(rf"^#[ \t]?{re.escape(name)}[ \t]*:.*$", re.MULTILINE)  # the template's
    for pattern in (live, commented):
        if pattern.search(old):
            new = pattern.sub(lambda _: line, old, count=1)
            break
    else:
        new = old + ("" if not old or old.endswith("\n") else "\n") + line + "\n"
    load_settings(config_file=path, environ={})  # a broken file is reported, not edited
    try:
        atomic_write_text(path, new)
    except OSError as exc:  # read-only (cvagent never replaces such a file), full disk …
        raise ConfigError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        load_settings(config_file=path, environ={})
    except ConfigError:
        atomic_write_text(path, old)  # the errors name the real file; put it back
        raise
    return path


def edit_config(path: Path | None = None) -> Path:
    """Open the config file in the user's editor (creating it from the template), then
    check what was saved: an invalid file is reported as a ConfigError naming the field."""
    # loaded when it is needed, not when cvagent starts (see app.py)
    from cvagent_cli.ui.editor import edit_file

    path, _ = ensure_config_file(path)
    edit_file(path)
    load_settings(config_file=path, environ={})
    return path


def locations() -> list[tuple[str, Path, bool]]:
    """(what, path, exists) for every file and folder cvagent uses."""
    # loaded when it is needed, not when cvagent starts (see app.py)
    from cvagent_cli.store.transcripts import transcript_path

    state = paths.state_dir()
    items = [
        ("config file", config_path()),
        ("config dir", paths.config_dir()),
        ("capability packs", paths.config_dir() / "capabilities"),
        ("state dir", state),
        ("transcripts", transcript_path()),
        ("chat sessions", state / "sessions"),
    ]
    return [(what, path, path.exists()) for what, path in items]
