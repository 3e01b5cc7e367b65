"""The debug log a user attaches to a bug report.

Off by default.  ``cvagent --verbose …`` (or ``CVAGENT_DEBUG=1``) writes DEBUG records of
every ``cvagent_cli.*`` logger to ``debug.log`` in the state directory: the version and
platform, the settings, each model call (model, duration, tokens, error), each tool call,
each file written.  Never to the terminal (the package's NullHandler keeps Python's
last-resort handler from printing a record), and never a secret: every record passes
through :func:`~cvagent_cli.secrets.scrub_secrets` (the message variant, which also masks
key fragments and URL credentials) on its way to the file.  Never what the user wrote
either: records give sizes and kinds (a ``-m`` message is logged as ``<38 chars>``, a tool
call by the size of its arguments), not message or resume text.  The file is private
(0600, like every state file) and capped: at ``MAX_BYTES`` it is rotated to
``debug.log.1``, so two files at most are kept.

Modules log with ``logging.getLogger(__name__)`` and need nothing from here.
"""

from __future__ import annotations

import io
import logging
import logging.handlers
import os
import platform
import sys
from collections.abc import Mapping
from pathlib import Path

from cvagent_cli import __version__
from cvagent_cli.paths import state_dir
from cvagent_cli.secrets import scrub_secrets

ENV_VAR = "CVAGENT_DEBUG"
FILE_NAME = "debug.log"
MAX_BYTES = 1_000_000  # then rotated once: at most about 2 MB on disk
PACKAGE_LOGGER = "cvagent_cli"
_FORMAT = "%(asctime)s %(process)d %(levelname)s %(name)s: %(message)s"
_OFF = ("", "0", "false", "no", "off")


def log_path() -> Path:
    """Where the debug log is written (``CVAGENT_HOME`` moves it, like all state)."""
    return state_dir() / FILE_NAME


def requested(verbose: bool, environ: Mapping[str, str] | None = None) -> bool:
    """``--verbose`` given, or ``CVAGENT_DEBUG`` set to anything but 0/false/no/off."""
    env = os.environ if environ is None else environ
    return verbose or env.get(ENV_VAR, "").strip().lower() not in _OFF


class _Scrubbed(logging.Filter):
    """Formats the record's message once, with secrets removed, before any handler sees it."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = scrub_secrets(record.getMessage(), message=True)
        record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = scrub_secrets(
                logging.Formatter().formatException(record.exc_info), message=True
            )
        record.exc_info = None  # the scrubbed text stands in for the traceback
        return True


class _PrivateRotatingFile(logging.handlers.RotatingFileHandler):
    """A rotating log whose files are created 0600 (the log names files and models)."""

    def _open(self) -> io.TextIOWrapper:
        fd = os.open(self.baseFilename, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        os.chmod(self.baseFilename, 0o600)  # a file an older version left 0644
        return open(fd, "a", encoding=self.encoding, errors=self.errors)


#: Options whose value is a setting, safe and useful in a bug report; any other value
#: that names no existing file or folder (a ``-m`` message above all) is logged by size.
_SAFE_OPTIONS = frozenset(
    "--model --api-base --template --format --capability --paper -j --jobs --min-score "
    "--timeout --lang".split()
)


def describe_command(argv: list[str], command_words: frozenset[str] = frozenset()) -> str:
    """The command line as the log keeps it: the program, the subcommands (the words of
    ``command_words``, the app's command tree), the options, the paths it names and the
    values of setting options; any other text as ``<N chars>``."""
    shown = [Path(argv[0]).name] if argv else []
    safe_value = False
    for arg in argv[1:]:
        name, eq, value = arg.partition("=")
        if arg.startswith("-") and len(arg) > 1:
            if eq:
                kept = value if name in _SAFE_OPTIONS or _names_a_path(value) else _size(value)
                shown.append(f"{name}={kept}")
            else:
                shown.append(arg)
            safe_value = not eq and arg in _SAFE_OPTIONS
        else:
            keep = safe_value or arg in command_words or _names_a_path(arg)
            shown.append(arg if keep else _size(arg))
            safe_value = False
    return " ".join(shown)


def _names_a_path(text: str) -> bool:
    try:
        return text in ("-", "") or Path(text).exists()
    except (OSError, ValueError):
        return False


def _size(text: str) -> str:
    return f"<{len(text)} chars>"


def start(verbose: bool = False, command_words: frozenset[str] = frozenset()) -> Path | None:
    """Start writing the debug log if it was asked for; its path, or None.  The command
    line is logged with ``command_words`` (the app's commands) kept as they are.

    An unwritable state directory costs the log, never the command."""
    if not requested(verbose):
        return None
    logger = logging.getLogger(PACKAGE_LOGGER)
    for handler in logger.handlers:
        if isinstance(handler, logging.handlers.RotatingFileHandler):
            return Path(handler.baseFilename)  # already started (tests call main twice)
    path = log_path()
    try:
        state_dir(create=True)
        handler = _PrivateRotatingFile(path, maxBytes=MAX_BYTES, backupCount=1, encoding="utf-8")
    except OSError:
        return None
    handler.setLevel(logging.DEBUG)
    handler.addFilter(_Scrubbed())
    handler.setFormatter(logging.Formatter(_FORMAT))
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    log = logging.getLogger(__name__)
    # platform.system/release/machine read os.uname(); platform.platform() would also
    # run `uname -p` as a process for the processor name
    log.debug(
        "cvagent %s, Python %s, %s %s %s",
        __version__,
        platform.python_version(),
        platform.system(),
        platform.release(),
        platform.machine(),
    )
    log.debug("command: %s", describe_command(sys.argv, command_words))
    return path


def stop() -> None:
    """Close the debug log (for tests; a command's end closes it with the process)."""
    logger = logging.getLogger(PACKAGE_LOGGER)
    for handler in list(logger.handlers):
        if isinstance(handler, logging.handlers.RotatingFileHandler):
            logger.removeHandler(handler)
            handler.close()
    logger.setLevel(logging.NOTSET)
