"""What each rule looks for, in words, with the thresholds the rule modules use filled in
(for the generated rule reference).

It sits apart from the catalogue: the catalogue is read by every rule module, and the
thresholds live in those modules, so reading them from the catalogue would be a cycle.
"""

from __future__ import annotations

from typing import Any

from cvagent_cli.analysis.rules import ats, clarity, completeness, timeline
from cvagent_cli.analysis.rules.catalogue import RuleSpec


def limits() -> dict[str, Any]:
    """The thresholds the rule modules use, by name (their UPPER_CASE numbers)."""
    return {
        name: value
        for module in (ats, clarity, completeness, timeline)
        for name, value in vars(module).items()
        if name.isupper() and isinstance(value, (int, float))
    }


def describe(spec: RuleSpec) -> str:
    """``spec.checks`` with the rules' thresholds filled in."""
    return spec.checks.format(**limits())
