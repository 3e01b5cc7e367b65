"""The typer commands, kept thin, and chat start-up (settings, lock, model)."""
