"""How ``--help`` shows commands: ``cvagent import [OPTIONS] FILE`` rather than typer's
``{file}``, and a flag without a ``<bool>`` after it (a flag takes no value; saying
``<bool>`` invites ``--json true``).  Every cvagent command and group uses these classes."""

from __future__ import annotations

from typing import Any

import typer.core


def _tidy(params: list[Any]) -> list[Any]:
    for param in params:
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""  # the type column stays empty for a flag
    return params


def usage_pieces(params: list[Any], options_metavar: str | None) -> list[str]:
    """The usage line's pieces as click writes them: ``[OPTIONS] FILE``, ``[RESUME]``,
    ``[PATHS]...``."""
    pieces = [options_metavar] if options_metavar else []
    for param in params:
        if getattr(param, "param_type_name", "") != "argument":
            continue
        name = param.metavar or (param.name or "arg").upper()
        if not param.required:
            name = f"[{name}]"
        pieces.append(name + ("..." if param.nargs != 1 else ""))
    return pieces


class CvCommand(typer.core.TyperCommand):
    def get_params(self, ctx: Any) -> list[Any]:
        return _tidy(super().get_params(ctx))

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        return usage_pieces(self.get_params(ctx), self.options_metavar)


class CvGroup(typer.core.TyperGroup):
    def get_params(self, ctx: Any) -> list[Any]:
        return _tidy(super().get_params(ctx))
