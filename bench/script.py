"""The scripted 30-turn conversation over sample.md used by the token and memory
benchmarks, and a loopback server that answers from it.

The server picks each reply from the request itself (which turn: the newest user
message that is one of the script's lines; which step: how many assistant messages
follow it), not from a queue, so the cvagent run, the naive baseline and a
``cvagent chat`` subprocess (which may add intent-classifier requests) all get
exactly the same answers at the same points of the conversation.

Most turns are plain answers; some read a section, run the analyzer or propose an
edit (old_text taken verbatim from en_senior_backend.md, numbers kept, so the
truthfulness check has nothing to flag).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tests.support.openai_server import LoopbackServer, Reply
from tests.support.wire import user_words

_SENTENCES = [
    "Recruiters skim a resume in well under a minute, so the first line of every bullet has to carry the result.",
    "Lead with the outcome, then say how you got there, and keep the tools you used to the end of the line.",
    "Your strongest evidence is already in the numbers: throughput, latency, cost and the size of the teams you led.",
    "Keep one idea per bullet; if a line needs a semicolon, it usually wants to be two bullets or a shorter one.",
    "For a staff-level role, show scope beyond your own team: frameworks other teams adopted, programs you ran.",
    "Avoid repeating the same verb at the start of consecutive bullets; vary between built, led, cut and designed.",
    "Hiring managers for backend roles look for ownership of production systems, on-call maturity and mentoring.",
    "Applicant tracking systems read plain Markdown well; keep headings standard and avoid tables for key facts.",
    "A two-page resume is fine with ten years of experience, as long as the second page earns its place.",
    "Dates should use one format throughout, and the most recent role should get the most bullets.",
    "If a metric is an estimate, say so once; credibility matters more than the biggest possible number.",
    "Your summary should name the roles you want next, not only the ones you have had.",
    "Skills lists work best grouped by category, with the technologies you would be happy to be interviewed on first.",
    "Certifications are worth keeping when they are recent and relevant, such as cloud or Kubernetes ones.",
    "In interviews you will be asked about every number on the page, so keep the story behind each one ready.",
    "A short projects section with open-source work and talks is a strong signal for senior engineers.",
]


def answer(seed: int, sentences: int = 5, lead: str = "") -> str:
    """A deterministic assistant answer of a few sentences (~100-200 tokens)."""
    picked = [_SENTENCES[(seed * 7 + i * 3) % len(_SENTENCES)] for i in range(sentences)]
    body = " ".join(picked)
    return (lead + "\n\n" + body) if lead else body


def read(section: str | None = None) -> tuple[str, dict]:
    return ("read_resume", {"section": section} if section else {})


def analyze(section: str | None = None) -> tuple[str, dict]:
    return ("analyze_resume", {"section": section} if section else {})


def edit(old: str, new: str, section: str, reason: str) -> tuple[str, dict]:
    return ("edit_resume", {"old_text": old, "new_text": new, "section": section, "reason": reason})


@dataclass
class Turn:
    text: str
    tools: list[list[tuple[str, dict]]] = field(default_factory=list)  # one list per tool step
    final: str = ""
    #: the parts of the resume this message names (labelled by hand): every request of the
    #: turn must carry their full text.  A named role is named instead of its section.
    names: tuple[str, ...] = ()

    def reply(self, step: int) -> Reply:
        if step < len(self.tools):
            return Reply(tool_calls=list(self.tools[step]))
        return Reply(text=self.final or "Done.")


NORTHWIND = "experience/staff-software-engineer-northwind-payments-seattle-wa"
CASCADE = "experience/senior-software-engineer-cascade-logistics-bellevue-wa"
BLUEFIN = "experience/software-engineer-bluefin-analytics-portland-or"
PGSHARD = "projects/pgshard-lite-open-source"


def _turns() -> list[Turn]:
    t: list[Turn] = []

    def add(
        text: str,
        *tools: list[tuple[str, dict]],
        final: str | None = None,
        sentences: int = 5,
        names: tuple[str, ...] = (),
    ) -> None:
        t.append(Turn(text, list(tools), final or answer(len(t), sentences), names))

    add("hi! can you help me with my resume?", sentences=3)
    add("analyze my resume and tell me the top issues", [analyze()], sentences=6)
    add(
        "improve my Experience bullets",
        [read("experience")],
        [
            edit(
                "Mentored 9 engineers; 4 were promoted to senior and 1 to staff within 3 years.",
                "Mentored 9 engineers, 4 of whom were promoted to senior and 1 to staff within 3 years.",
                "experience",
                "one idea per clause, no semicolon",
            )
        ],
        sentences=4,
        names=("experience",),
    )
    add("what do recruiters look for in a backend engineer resume?", sentences=7)
    add(
        "make the Summary shorter",
        [read("summary")],
        [
            edit(
                "Comfortable owning a service from design doc to on-call rotation.",
                "Owns services end to end, from design doc to on-call rotation.",
                "summary",
                "shorter, active voice",
            )
        ],
        sentences=3,
        names=("summary",),
    )
    add("is my Skills section too long?", sentences=5, names=("skills",))
    add(
        "tighten the Skills section wording",
        [read("skills")],
        [
            edit(
                "distributed systems design, incident management",
                "distributed-systems design, incident management",
                "skills",
                "consistent hyphenation",
            )
        ],
        sentences=3,
        names=("skills",),
    )
    add("how should I prepare for a system design interview?", sentences=8)
    add(
        "rewrite the idempotency bullet of the Northwind role to lead with the outcome",
        [read(NORTHWIND)],
        [
            edit(
                "Designed an idempotency-key framework adopted by 22 internal services, eliminating an estimated 3,100 duplicate charges per month.",
                "Eliminated an estimated 3,100 duplicate charges per month by designing an idempotency-key framework adopted by 22 internal services.",
                "experience",
                "outcome first",
            )
        ],
        sentences=3,
        names=(NORTHWIND,),
    )
    add("thanks, that's better", sentences=2)
    add("does my Education section need the GPA?", sentences=4, names=("education",))
    add("review the Projects section", [read("projects")], sentences=6, names=("projects",))
    add("can the pgshard-lite project line be stronger?", sentences=4, names=(PGSHARD,))
    add(
        "it already lists 1,400 stars and 35 contributors; just make the first sentence punchier",
        [
            edit(
                "Go library for application-level sharding over PostgreSQL.",
                "Go library that shards PostgreSQL at the application level.",
                "projects",
                "punchier opening",
            )
        ],
        sentences=3,
    )
    add("what's a good length for a resume with 10 years of experience?", sentences=5)
    add("check my Certifications", [read("certifications")], sentences=4, names=("certifications",))
    add(
        "analyze the Experience section again",
        [analyze("experience")],
        sentences=5,
        names=("experience",),
    )
    add("how do I explain a promotion on my resume?", sentences=6)
    add(
        "improve the Cascade Logistics bullets in Experience",
        [read(CASCADE)],
        [
            edit(
                "Authored the team's on-call runbook and alert taxonomy, reducing pages per week from 40 to 7.",
                "Cut on-call pages per week from 40 to 7 by authoring the team's runbook and alert taxonomy.",
                "experience",
                "outcome first",
            )
        ],
        sentences=3,
        names=(CASCADE,),
    )
    add("should I list Bash in Skills?", sentences=4, names=("skills",))
    add("what about cover letters, do they matter?", sentences=6)
    add(
        "make my Summary mention Kafka",
        [read("summary")],
        [
            edit(
                "building high-throughput distributed systems in Go and Python.",
                "building high-throughput distributed systems in Go and Python on Kafka and PostgreSQL.",
                "summary",
                "name the core stack",
            )
        ],
        sentences=3,
        names=("summary",),
    )
    add("any ATS problems left in my resume?", [analyze()], sentences=5)
    add("how do I negotiate salary for a staff role?", sentences=8)
    add(
        "shorten the Bluefin Analytics bullets in Experience",
        [read(BLUEFIN)],
        [
            edit(
                "Shipped a self-service query API used by 300+ customer analysts.",
                "Shipped a self-service query API for 300+ customer analysts.",
                "experience",
                "shorter",
            )
        ],
        sentences=3,
        names=(BLUEFIN,),
    )
    add("ok", sentences=2)
    add("compare my Skills with typical staff engineer job posts", sentences=7, names=("skills",))
    add("proofread the Summary", [read("summary")], sentences=4, names=("summary",))
    add("how many pages is my resume now?", sentences=3)
    add("thanks for the help!", sentences=2)
    assert len(t) == 30 and len({x.text for x in t}) == 30
    return t


TURNS = _turns()
BY_TEXT = {turn.text: turn for turn in TURNS}


def locate(messages: list[dict]) -> tuple[Turn | None, int]:
    """(the script turn this request belongs to, the step within it)."""
    for index in range(len(messages) - 1, -1, -1):
        m = messages[index]
        if (
            m.get("role") == "user"
            and isinstance(m.get("content"), str)
            and user_words(m["content"]) in BY_TEXT
        ):
            step = sum(1 for later in messages[index + 1 :] if later.get("role") == "assistant")
            return BY_TEXT[user_words(m["content"])], step
    return None, 0


class ScriptServer(LoopbackServer):
    """A loopback server that answers from :data:`TURNS` (see the module docstring).
    Requests without tools are the intent classifier's: they get ``UNKNOWN``."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(default_text="OK.", **kwargs)
        self.unmatched = 0

    def _next_reply(self, body: dict) -> Reply:  # LoopbackServer's hook: one reply per request
        messages = body.get("messages") or []
        if not body.get("tools"):
            return Reply(text="UNKNOWN")
        turn, step = locate(messages)
        if turn is None:
            self.unmatched += 1
            return Reply(text="OK.")
        return turn.reply(step)
