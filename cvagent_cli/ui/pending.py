"""Offering, at the start of an interactive chat, the edits a run without a person
proposed (``cvagent chat resume.md -m …``): each one as a diff with the usual question."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cvagent_cli.ui.io import ChatIO
from cvagent_cli.ui.render import Renderer
from cvagent_cli.wording import plural

if TYPE_CHECKING:
    from cvagent_cli.agent.session import ChatSession


def offer_pending_edits(session: ChatSession, io: ChatIO, renderer: Renderer) -> None:
    offer = session.take_pending()
    for notice in offer.notices:
        renderer.render(notice)
    for index, kept in enumerate(offer.edits):
        edit = session.rebase_pending(kept)
        for notice in session.take_notices():
            renderer.render(notice)
        if edit is None:
            continue
        renderer.show_edit(edit)
        try:
            decision = io.confirm_edit(edit)
        except KeyboardInterrupt:
            left = plural(len(offer.edits) - index, "kept edit")
            renderer.notice(f"stopped (Ctrl-C): {left} dropped", "warning")
            return
        renderer.render(session.decide_pending(edit, decision))
