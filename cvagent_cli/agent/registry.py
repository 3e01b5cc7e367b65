"""The capability packs the agent can switch between, by name: loaded from the shipped
packs and the user's (``pack_files``), looked up, and suggested from what the user says."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from cvagent_cli.agent.capabilities import TOOL_NAMES, Capability
from cvagent_cli.agent.pack_files import (
    pack_warnings,
    packaged_dir,
    packaged_files,
    parse_pack,
    user_files,
    user_packs_dir,
)
from cvagent_cli.errors import ConfigError


class CapabilityRegistry:
    """The packs available to the agent, by name.  Build one with ``load()``."""

    def __init__(
        self, capabilities: Iterable[Capability] = (), warnings: Iterable[str] = ()
    ) -> None:
        self._packs: dict[str, Capability] = {}
        for capability in capabilities:
            self._packs[capability.name] = capability
        self.warnings: list[str] = list(warnings)

    @classmethod
    def load(
        cls,
        user_dir: Path | None = None,
        *,
        packaged: Path | None = None,
        known_tools: Iterable[str] | None = TOOL_NAMES,
    ) -> CapabilityRegistry:
        """Shipped packs first, then the user's (``config_dir()/capabilities`` unless
        ``user_dir`` is given), which add packs or replace shipped ones of the same name.

        Raises ``ConfigError`` listing every problem found; unknown tool names in a policy
        are only warnings (``registry.warnings``).
        """
        folder = Path(packaged) if packaged is not None else packaged_dir()
        groups = [packaged_files(folder) if folder is not None else []]
        groups.append(user_files(Path(user_dir) if user_dir is not None else user_packs_dir()))
        tools = list(known_tools) if known_tools is not None else None
        packs: dict[str, Capability] = {}
        errors: list[str] = []
        warnings: list[str] = []
        for files in groups:
            seen: dict[str, str] = {}
            for pack in files:
                capability, problems = parse_pack(pack)
                errors.extend(problems)
                if capability is None:
                    continue
                if capability.name in seen:
                    errors.append(
                        f"{pack.display}: name: pack '{capability.name}' is already defined in {seen[capability.name]}"
                    )
                    continue
                seen[capability.name] = pack.display
                warnings.extend(pack_warnings(capability, pack.display, tools))
                packs[capability.name] = capability
        if errors:
            raise ConfigError(
                "invalid capability pack:\n" + "\n".join(errors) if len(errors) > 1 else errors[0]
            )
        return cls(packs.values(), warnings)

    # -- queries ------------------------------------------------------------------------------
    def names(self) -> list[str]:
        return sorted(self._packs)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name.strip().lower() in self._packs

    def __iter__(self) -> Iterator[Capability]:
        return iter(self._packs[name] for name in self.names())

    def __len__(self) -> int:
        return len(self._packs)

    def get(self, name: str) -> Capability:
        key = (name or "").strip().lower()
        if key in self._packs:
            return self._packs[key]
        names = self.names()
        close = difflib.get_close_matches(key, names, n=2, cutoff=0.5)
        guess = f" (did you mean {' or '.join(repr(c) for c in close)}?)" if close else ""
        available = ", ".join(names) if names else "none"
        raise ConfigError(f"unknown capability pack '{name}'{guess}; available: {available}")

    def for_intent(self, intent: str) -> str | None:
        """The first pack (by name) that declares it serves ``intent``."""
        return next((c.name for c in self if intent in c.intents), None)

    def suggest_for(self, text: str) -> str | None:
        """The pack whose trigger phrases best match ``text`` (longest total match), or None.

        All-caps triggers ("STAR", "JD") match case-sensitively as whole words, so "a star
        employee" or "JDK" do not count; other triggers match case-insensitively, English
        ones on word boundaries, Chinese ones anywhere.
        """
        if not text or not text.strip():
            return None
        best: tuple[int, str] | None = None
        for name in self.names():
            score = sum(len(t) for t in self._packs[name].triggers if _trigger_matches(t, text))
            if score and (best is None or score > best[0]):
                best = (score, name)
        return best[1] if best else None


def _trigger_matches(trigger: str, text: str) -> bool:
    acronym = trigger.isascii() and trigger.isupper()
    body = re.escape(trigger)
    if trigger.isascii():
        body = rf"(?<![A-Za-z0-9]){body}(?![A-Za-z0-9])"
    flags = 0 if acronym else re.IGNORECASE
    return re.search(body, text, flags) is not None
