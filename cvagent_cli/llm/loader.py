"""Importing litellm: lazily, once, and quietly.

``import litellm`` costs 2-3 s and ~150 MB, so nothing imports it at module level: the
gateway calls :func:`load_litellm` on its first request, and the chat REPL starts it in
a background thread once the prompt is drawn (:func:`preload_in_background`), so a
first message usually finds it done.  ``LITELLM_LOCAL_MODEL_COST_MAP`` is set first,
otherwise litellm tries to download its price list at import time.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import warnings
from typing import Any

from cvagent_cli.errors import ModelError

_QUIET_LOGGERS = ("LiteLLM", "LiteLLM Router", "LiteLLM Proxy", "httpx")

_litellm_module: Any = None
_import_lock = threading.Lock()


def load_litellm() -> Any:
    """Import and quiet litellm once; concurrent callers wait for the same import.

    The lock is held for the whole import, so a first call made while
    :func:`preload_in_background` is still importing waits only for the remainder.
    """
    global _litellm_module
    if _litellm_module is not None:
        return _litellm_module
    with _import_lock:
        if _litellm_module is None:
            os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
            try:
                import litellm  # lazy: 2-3 s and ~150 MB (see the module docstring)
            except ImportError as exc:  # pragma: no cover - broken installation
                raise ModelError(
                    f"cannot load litellm: {exc}",
                    hint="reinstall cvagent (pip install --force-reinstall cvagent)",
                ) from exc
            litellm.suppress_debug_info = True
            litellm.set_verbose = False  # type: ignore[attr-defined]  # a module flag litellm reads
            # token_counter would fetch Hugging Face tokenizers for llama/command-r
            # names (minutes of retries offline, printed on stderr); tiktoken is enough
            litellm.disable_hf_tokenizer_download = True
            # litellm's lazy ``main.encoding`` (used by the deepseek, mistral ...
            # providers) calls tiktoken before litellm has pointed TIKTOKEN_CACHE_DIR at
            # its bundled files, so tiktoken tries to download cl100k_base: point it now
            bundled = os.path.join(
                os.path.dirname(litellm.__file__), "litellm_core_utils", "tokenizers"
            )
            os.environ.setdefault(
                "TIKTOKEN_CACHE_DIR", os.environ.get("CUSTOM_TIKTOKEN_CACHE_DIR", bundled)
            )
            # we never use litellm's per-chunk callbacks; skip their thread-pool work
            litellm.disable_streaming_logging = True
            for name in _QUIET_LOGGERS:
                logging.getLogger(name).setLevel(logging.WARNING)
            # litellm's stream_chunk_builder trips pydantic serializer warnings on
            # reasoning_content streams; they are noise on the user's terminal
            warnings.filterwarnings("ignore", message="Pydantic serializer warnings")
            _litellm_module = litellm
    return _litellm_module


def preload_in_background() -> threading.Thread:
    """Start importing litellm in a daemon thread and return it (already started)."""

    def run() -> None:
        with contextlib.suppress(Exception):
            load_litellm()

    thread = threading.Thread(target=run, name="cvagent-litellm-preload", daemon=True)
    thread.start()
    return thread


def litellm_loaded() -> bool:
    return _litellm_module is not None
