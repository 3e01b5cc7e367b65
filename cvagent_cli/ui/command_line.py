"""Reading a slash command's line in ``cvagent chat``: whether a line is a command at all
(or a message starting with an absolute path), and its arguments as a shell would read
them: quoted or escaped paths, ``--option VALUE`` pairs."""

from __future__ import annotations

import shlex
from pathlib import Path

from cvagent_cli.errors import UsageError
from cvagent_cli.settings import api_base_problem

MODEL_USAGE = (
    "/model NAME, or /model NAME --api-base URL (--api-base default: the provider's own endpoint)"
)


def split_options(
    command: str, arg: str, needs: dict[str, str], aliases: dict[str, str] | None = None
) -> tuple[list[str], dict[str, str]]:
    """A slash command's argument read as a shell would (quotes, escaped spaces; an
    unbalanced quote, as in O'Brien.md, is taken literally): its plain words, and the
    ``--option VALUE`` / ``--option=VALUE`` pairs of the options in ``needs`` (option →
    what its value is, for the error when it is missing)."""
    try:
        words = shlex.split(arg)
    except ValueError:
        words = arg.split()
    aliases = aliases or {}
    plain: list[str] = []
    found: dict[str, str] = {}
    i = 0
    while i < len(words):
        flag, sep, value = words[i].partition("=")
        flag = aliases.get(flag, flag)
        if flag not in needs:
            plain.append(words[i])
            i += 1
            continue
        if not sep and i + 1 < len(words):  # --option VALUE
            value, i = words[i + 1], i + 1
        if not value.strip():
            raise UsageError(f"{command}: {flag} needs {needs[flag]}")
        found[flag] = value
        i += 1
    return plain, found


def parse_model_args(arg: str) -> tuple[str, str | None]:
    """``NAME [--api-base URL]`` (or ``--api-base=URL``) from /model's argument."""
    needs = {"--api-base": "a URL (or 'default')"}
    try:
        words, options = split_options("/model", arg, needs)
    except UsageError as exc:
        raise UsageError(exc.message, hint=MODEL_USAGE) from None
    extra = next((w for w in words[1:] + words[:1] if w.startswith("-")), None)
    if extra is not None or len(words) > 1:
        raise UsageError(f"/model: unexpected {extra or words[1]!r}", hint=MODEL_USAGE)
    if not words:
        raise UsageError("/model: which model?", hint=MODEL_USAGE)
    api_base = options.get("--api-base")
    if api_base is not None and api_base.strip().lower() != "default":
        problem = api_base_problem(api_base)
        if problem:
            raise UsageError(f"/model: --api-base {api_base!r}: {problem}", hint=MODEL_USAGE)
    return words[0], api_base


def is_command(text: str) -> bool:
    """A slash command, as opposed to a message that starts with an absolute path."""
    if not text.startswith("/"):
        return False
    if text.strip() == "/":
        return True  # a lone slash lists the commands; it never goes to the model
    word = text.split(maxsplit=1)[0]
    return "/" not in word[1:] and not Path(word).exists()


def path_argument(arg: str) -> Path:
    """A path as typed or dropped into the terminal: quoted (\'my cv.md\', "my cv.md") or
    with escaped spaces (my\\ cv.md), as a shell would read it; ``~`` expanded."""
    try:
        words = shlex.split(arg)
    except ValueError:  # an unbalanced quote: take the text as it is
        words = [arg.strip()]
    return Path(" ".join(words) if words else arg.strip()).expanduser()
