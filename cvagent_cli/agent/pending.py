"""Edits proposed in a run that had nobody to ask (``-m``, piped messages), kept for the
next ``cvagent chat`` on the same resume to offer.

The file sits in the resume's private session folder beside the history, and carries the
hash of the resume's text as the run left it.  If the resume changed since (edited by
hand, or by another tool), the edits were proposed for a text that is gone: they are
dropped, and the user is told.  Each edit is kept as the model gave it — its exact
replacements — and applied again to the text it was proposed for, so nothing is guessed.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from cvagent_cli.agent import events as ev
from cvagent_cli.document.document import ResumeDocument
from cvagent_cli.document.editing import EditError, Replacement, apply_all, unified_diff
from cvagent_cli.secrets import scrub_secrets
from cvagent_cli.store.statefiles import move_aside, write_private_json
from cvagent_cli.truth.guards import EditFlag
from cvagent_cli.wording import plural

SCHEMA_VERSION = 1


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass
class Offer:
    """What the next interactive start gets: the edits to ask about, and what to say."""

    edits: list[ev.ProposedEdit] = field(default_factory=list)
    notices: list[ev.Notice] = field(default_factory=list)


class PendingEdits:
    def __init__(self, path: Path) -> None:
        self.path = Path(path)

    def save(self, edits: list[ev.ProposedEdit], resume_text: str) -> None:
        """Keep ``edits`` (replacing what was kept before) for the text ``resume_text``.

        An edit that carries something like an API key is not kept at all: a state file
        never holds a key, and the edit with the key redacted would be another edit."""
        entries = [
            {
                "id": e.id,
                "reason": e.reason,
                "section": e.section,
                "replacements": [list(pair) for pair in e.replacements],
                "flags": [
                    {
                        "kind": getattr(f, "kind", "fact"),
                        "value": getattr(f, "value", ""),
                        "message": getattr(f, "message", str(f)),
                    }
                    for f in e.flags
                ],
            }
            for e in edits
            if e.replacements
        ]
        document = {
            "schema_version": SCHEMA_VERSION,
            "resume_sha256": text_hash(resume_text),
            "edits": [entry for entry in entries if scrub_secrets(entry) == entry],
        }
        write_private_json(self.path, document, indent=1)

    def take(self, doc: ResumeDocument | None, name: str) -> Offer:
        """The kept edits, valid for ``doc`` as it is now; the file is consumed."""
        offer = Offer()
        if not self.path.exists():
            return offer
        try:
            document = json.loads(self.path.read_text(encoding="utf-8"))
            kept = [_entry(item) for item in document["edits"]]
            expected = str(document["resume_sha256"])
        except (OSError, ValueError, KeyError, TypeError) as exc:
            with contextlib.suppress(OSError):
                moved = move_aside(self.path, "corrupt")
                offer.notices.append(
                    ev.Notice(
                        f"could not read the edits kept from the last run ({exc}); "
                        f"moved aside to {moved.name}",
                        "warning",
                    )
                )
            return offer
        self.path.unlink(missing_ok=True)
        if not kept or doc is None:
            return offer
        if text_hash(doc.text) != expected:
            offer.notices.append(
                ev.Notice(
                    f"dropped {plural(len(kept), 'edit')} proposed in the last run: {name} "
                    "changed since they were proposed",
                    "warning",
                )
            )
            return offer
        offer.notices.append(
            ev.Notice(f"{plural(len(kept), 'edit')} proposed in the last run, not applied yet:")
        )
        offer.edits = kept
        return offer


def _entry(item: dict[str, Any]) -> ev.ProposedEdit:
    pairs = tuple((str(old), str(new)) for old, new in item["replacements"])
    if not pairs:
        raise ValueError("an edit without replacements")
    flags = tuple(
        EditFlag(str(f["kind"]), str(f.get("value", "")), str(f["message"])) for f in item["flags"]
    )
    # before/after/diff are filled in against the resume as it is when offered (rebase)
    return ev.ProposedEdit(
        id=str(item["id"]),
        tool_call_id=f"kept-{item['id']}",
        reason=item.get("reason"),
        before="",
        after="",
        diff="",
        flags=flags,
        replacements=pairs,
        section=item.get("section"),
    )


def rebase(edit: ev.ProposedEdit, doc: ResumeDocument, name: str) -> ev.ProposedEdit:
    """``edit`` applied to ``doc`` as it is now; EditError if its text is no longer there."""
    after = apply_all(doc, [Replacement(old, new) for old, new in edit.replacements])
    if after == doc.text:
        raise EditError("it changes nothing any more", "it changes nothing any more")
    return replace(edit, before=doc.text, after=after, diff=unified_diff(doc.text, after, name))
