"""``analyze --llm``'s review stream: stopped at a loop or at a copy of its fenced input."""

from __future__ import annotations

from cvagent_cli.analysis.analyzer import analyze
from cvagent_cli.document.document import ResumeDocument
from cvagent_cli.llm.review import STOPPED, Stopped, review_messages, stream_review
from cvagent_cli.llm.streaming import ECHOING, REPEATING
from tests.conftest import SAMPLES
from tests.support.scripted import ScriptedModel

DOC = ResumeDocument.from_path(SAMPLES / "en_mid_data_analyst.md")
REPORT = analyze(DOC)
REVIEW = "**Strengths**\n\n- Every bullet carries a metric.\n\n"


def pieces(reply: str) -> tuple[str, list[Stopped]]:
    out = list(stream_review(ScriptedModel(reply), DOC, REPORT))
    text = "".join(p for p in out if isinstance(p, str))
    return text, [p for p in out if isinstance(p, Stopped)]


def test_a_plain_review_streams_whole():
    assert pieces(REVIEW + "**One next step**: add a link.") == (
        REVIEW + "**One next step**: add a link.",
        [],
    )


def test_a_review_that_copies_the_fenced_resume_stops_before_the_tag():
    user = review_messages(DOC, REPORT)[1]["content"]
    tag = user[user.index("<untrusted") :].split("\n", 1)[0]  # the real tag, nonce and all
    text, stopped = pieces(REVIEW + tag + "\n# Priya\n" + "more resume " * 50)
    assert text.rstrip() == REVIEW.rstrip()
    assert stopped == [Stopped(STOPPED[ECHOING])]


def test_a_looping_review_stops_after_its_first_copy():
    loop = "Add a metric to every bullet so the impact is clear to the reader. "
    text, stopped = pieces(REVIEW + loop * 40)
    assert len(text) < len(REVIEW) + len(loop) * 5
    assert stopped == [Stopped(STOPPED[REPEATING])]
