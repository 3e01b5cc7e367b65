"""The debug log a user attaches to a bug report.

Off by default.  ``cvagent --verbose …`` (or ``CVAGENT_DEBUG=1``) writes DEBUG records of
every ``cvagent_cli.*`` logger to ``debug.log`` in the state directory: the version and
platform, the settings, each model call (model, duration, tokens, error), each tool call,
each file written.  Never to the terminal (the package's NullHandler keeps Python's
last-resort handler from printing a record), and never a secret: every record passes
through :func:`~cvagent_cli.secrets.scrub_secrets` (the message variant, which also masks
key fragments and URL credentials) on its way to the file.  The file is capped: at
``MAX_BYTES`` it is rotated to ``debug.log.1``, so two files at most are kept.

Modules log with ``logging.getLogger(__name__)`` and need nothing from here.
"""

from __future__ import annotations

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


def start(verbose: bool = False) -> Path | None:
    """Start writing the debug log if it was asked for; its path, or None.

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
        handler = logging.handlers.RotatingFileHandler(
            path, maxBytes=MAX_BYTES, backupCount=1, encoding="utf-8"
        )
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
    log.debug("command: %s", " ".join(sys.argv))
    return path


def stop() -> None:
    """Close the debug log (for tests; a command's end closes it with the process)."""
    logger = logging.getLogger(PACKAGE_LOGGER)
    for handler in list(logger.handlers):
        if isinstance(handler, logging.handlers.RotatingFileHandler):
            logger.removeHandler(handler)
            handler.close()
    logger.setLevel(logging.NOTSET)
