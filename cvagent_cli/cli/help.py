"""How ``--help`` shows commands: ``cvagent import [OPTIONS] FILE`` rather than typer's
``{file}``, and a flag without a ``<bool>`` after it (a flag takes no value; saying
``<bool>`` invites ``--json true``).  Every cvagent command and group uses these classes."""

from __future__ import annotations

from typing import Any, get_args

import typer.core

from cvagent_cli.cli.error_exit import one_line_usage_errors


def _tidy(params: list[Any]) -> list[Any]:
    for param in params:
        if param.metavar is not None:
            continue
        if getattr(param, "is_flag", False):
            param.metavar = ""  # the type column stays empty for a flag
            continue
        label = _type_label(param)
        if label is None:
            continue
        if param.param_type_name == "option":
            param.metavar = label
        else:  # an argument's metavar is its name (usage line, first column)
            param.display_type_rich = lambda ctx, label=label: label
    return params


def _type_label(param: Any) -> str | None:
    """What a value looks like, in help: ``-m <str>`` repeated rather than one
    ``<list[str]>``; ``<int> [1<=x<=50]`` rather than ``<int range> [1<=x<=50]``, which
    left the help column too narrow for a model name at 80 columns."""
    described = getattr(param, "type_descriptor", None)  # typer 0.29's type display
    if described is None or described.is_choice:
        return None
    if described.is_list:
        item = get_args(described.annotation)
        return f"<{param._bare_type(item[0])}>" if len(item) == 1 else None
    if described.is_ranged:  # the range itself follows in brackets
        return f"<{described.ranged_type_name}>"
    return None


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

    # A command's options are parsed inside its group's invoke: the root group's two
    # methods see every usage error of every command.
    def make_context(self, *args: Any, **kwargs: Any) -> Any:
        with one_line_usage_errors():
            return super().make_context(*args, **kwargs)

    def invoke(self, ctx: Any) -> Any:
        with one_line_usage_errors():
            return super().invoke(ctx)
