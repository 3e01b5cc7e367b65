"""Our own retry policy for model calls.

Why not litellm's ``num_retries``: it needs tenacity, and it retries authentication and
context-window errors too, with no delay.  Here only errors the gateway marked
``retryable`` (429, 5xx, connection errors, timeouts) are retried, with capped
exponential backoff plus jitter, honouring the server's ``Retry-After`` (or Gemini's
``retryDelay``) up to ``max_wait``: a longer wait is not made (the error says how long
the server asked for).  ``sleep`` and
``rng`` are injectable so tests never really sleep.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from typing import Any, TypeVar

from cvagent_cli.errors import ModelError

T = TypeVar("T")


@dataclass
class RetryPolicy:
    """``max_retries`` extra attempts after the first; delay ``n`` (0-based) is
    ``base_delay * 2**n`` capped at ``max_delay``, scaled by ``1 ± jitter``."""

    max_retries: int = 4
    base_delay: float = 0.5
    max_delay: float = 8.0
    max_wait: float = 60.0  # the longest wait a server may ask for (Retry-After)
    jitter: float = 0.25
    sleep: Callable[[float], None] = field(default=time.sleep, repr=False)
    rng: Callable[[], float] = field(default=random.random, repr=False)

    def delay(self, attempt: int, retry_after: float | None = None) -> float:
        """Seconds to wait before retry number ``attempt`` (0-based).

        A known ``retry_after`` wins over the backoff (the server knows best), capped at
        ``max_wait`` so one call never hangs for minutes (see :meth:`too_long`).
        """
        if retry_after is not None and retry_after >= 0:
            return min(float(retry_after), self.max_wait)
        raw = min(self.base_delay * (2**attempt), self.max_delay)
        scaled = raw * (1.0 + self.jitter * (2.0 * self.rng() - 1.0))
        return float(max(0.0, min(scaled, self.max_delay)))

    def too_long(self, retry_after: float | None) -> bool:
        """The server asks for a longer wait than ``max_wait``: not worth retrying."""
        return retry_after is not None and retry_after > self.max_wait

    def should_retry(self, error: BaseException, attempt: int = 0) -> bool:
        """Retry only a ``ModelError`` marked retryable, and only ``max_retries`` times."""
        return (
            isinstance(error, ModelError)
            and bool(getattr(error, "retryable", False))
            and attempt < self.max_retries
        )


def parse_retry_after(headers: Mapping[str, Any] | None, now: float | None = None) -> float | None:
    """Seconds from ``retry-after-ms`` / ``Retry-After`` (seconds or HTTP date), if any."""
    if not headers:
        return None
    try:
        lowered = {str(k).lower(): v for k, v in dict(headers).items()}
    except (TypeError, ValueError):
        return None
    ms = lowered.get("retry-after-ms")
    if ms is not None:
        try:
            return max(0.0, float(ms) / 1000.0)
        except (TypeError, ValueError):
            pass
    value = lowered.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except (TypeError, ValueError):
        pass
    try:
        when = parsedate_to_datetime(str(value))
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))
