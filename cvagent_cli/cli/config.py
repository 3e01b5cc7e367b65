"""``cvagent config``: where the files are, what is in effect and why, and an editor."""

from __future__ import annotations

from typing import Annotated

import typer

from cvagent_cli.cli.error_exit import handle_user_errors
from cvagent_cli.cli.help import CvCommand, CvGroup
from cvagent_cli.cli.options import api_base_option

config_app = typer.Typer(
    cls=CvGroup,
    name="config",
    help="Show where cvagent's files are and which settings are in effect, or edit config.yaml.",
    no_args_is_help=True,
)


@config_app.command("path", cls=CvCommand)
@handle_user_errors
def path_command() -> None:
    """List the files and folders cvagent uses (CVAGENT_HOME moves them all)."""
    # loaded when the command runs, not when cvagent starts (see app.py)
    from cvagent_cli.cli.configfile import locations

    for what, path, exists in locations():
        typer.echo(f"{what:<17} {path}{'' if exists else '  (not created yet)'}")


@config_app.command("show", cls=CvCommand)
@handle_user_errors
def show_command(
    model: Annotated[
        str | None, typer.Option("--model", "-M", help="As chat's --model: shown as 'flag'.")
    ] = None,
    api_base: Annotated[
        str | None,
        typer.Option(
            "--api-base", help="As chat's --api-base: shown as 'flag'.", callback=api_base_option
        ),
    ] = None,
    json_out: Annotated[
        bool, typer.Option("--json", help="One JSON object: settings, sources, key variables.")
    ] = False,
) -> None:
    """Every setting, its value and where it came from: flag, env, file or default.

    API keys are never printed: only whether each provider variable is set.
    """
    # loaded when the command runs, not when cvagent starts (see app.py)
    import json

    from cvagent_cli.cli.configfile import key_variables, setting_rows
    from cvagent_cli.settings import describe_config_sources, load_settings_with_sources

    settings, sources = load_settings_with_sources(model=model, api_base=api_base)
    rows = setting_rows(settings, sources)
    keys = key_variables()
    if json_out:
        data = {
            "settings": {
                r.name: {"value": r.data, "source": r.source, "from": r.where} for r in rows
            },
            "api_keys": {name: ("set" if is_set else "not set") for name, is_set in keys},
        }
        typer.echo(json.dumps(data, indent=2))
        return
    width = max(len(r.value) for r in rows)
    for r in rows:
        source = f"{r.source} ({r.where})" if r.where else r.source
        typer.echo(f"{r.name:<18} {r.value:<{width}}  {source}")
    typer.echo("\nAPI keys (from the environment; values never shown):")
    for name, is_set in keys:
        typer.echo(f"  {name:<18} {'set' if is_set else 'not set'}")
    typer.echo("\n" + describe_config_sources())


@config_app.command("edit", cls=CvCommand)
@handle_user_errors
def edit_command() -> None:
    """Open config.yaml in your editor ($VISUAL, else $EDITOR), creating it from a commented template."""
    # loaded when the command runs, not when cvagent starts (see app.py)
    from cvagent_cli.cli.configfile import edit_config

    path = edit_config()
    typer.echo(f"{path}: saved and valid")
