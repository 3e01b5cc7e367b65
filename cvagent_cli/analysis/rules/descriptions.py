"""What each rule looks for, in words, with the thresholds the rule modules use filled in
(for the generated rule reference).

It sits apart from the catalogue: the catalogue is read by every rule module, and the
thresholds live in those modules, so reading them from the catalogue would be a cycle.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cvagent_cli import languages
from cvagent_cli.analysis.rules import ats, clarity, completeness, timeline
from cvagent_cli.analysis.rules.catalogue import RuleSpec
from cvagent_cli.languages import Wording


def limits() -> dict[str, Any]:
    """The thresholds the rule modules use, by name (their UPPER_CASE numbers)."""
    found: dict[str, Any] = {
        name: value
        for module in (ats, clarity, completeness, timeline)
        for name, value in vars(module).items()
        if name.isupper() and isinstance(value, (int, float))
    }
    found["longest_bullet"] = _per_language(lambda w: w.longest_bullet)
    found["shortest_bullet"] = _per_language(lambda w: w.shortest_bullet)
    return found


def _per_language(limit: Callable[[Wording], int]) -> str:
    """ "35 words (90 characters in Chinese)": a bullet limit of every language, the
    fallback's first."""
    first, *others = languages.every()
    text = f"{limit(first.wording)} {first.wording.size_unit}"
    rest = [
        f"{limit(o.wording)} {o.wording.size_unit} in {o.name}"
        for o in others
        if (limit(o.wording), o.wording.size_unit)
        != (limit(first.wording), first.wording.size_unit)
    ]
    return text + (f" ({', '.join(rest)})" if rest else "")


def describe(spec: RuleSpec) -> str:
    """``spec.checks`` with the rules' thresholds filled in."""
    return spec.checks.format(**limits())
