"""The two error tiers.

A ``CvAgentError`` is the user's problem (bad path, missing key, server down): the CLI
prints its message as one line or panel and exits with its code.  Any other exception is
a bug and keeps its traceback.
"""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    OK = 0
    BELOW_THRESHOLD = 1  # analyze --min-score not reached
    USAGE = 2  # bad arguments or unreadable input
    MODEL = 3  # model, network or configuration error
    INTERRUPTED = 130


class CvAgentError(Exception):
    """An error with a message meant for the user and a documented exit code."""

    exit_code: ExitCode = ExitCode.USAGE

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return self.message if not self.hint else f"{self.message} ({self.hint})"


class InputError(CvAgentError):
    """The input file or stream cannot be used (missing, binary, empty …)."""

    exit_code = ExitCode.USAGE


class UsageError(CvAgentError):
    exit_code = ExitCode.USAGE


class LockedError(InputError):
    """Another cvagent process is editing the same resume."""


class ConfigError(CvAgentError):
    """Bad configuration: unknown capability pack, invalid YAML, no model configured."""

    exit_code = ExitCode.MODEL


class ModelError(CvAgentError):
    """The model call failed for a reason the user has to act on."""

    exit_code = ExitCode.MODEL

    def __init__(self, message: str, *, hint: str | None = None, retryable: bool = False) -> None:
        super().__init__(message, hint=hint)
        self.retryable = retryable
        #: seconds the server asked us to wait (Retry-After), when it said
        self.retry_after: float | None = None


class ContextWindowError(ModelError):
    """The request was larger than the model's context window."""
