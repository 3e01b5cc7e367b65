"""A local, searchable log of chat turns: what ``cvagent log`` reads.

One SQLite database in the state dir (``transcripts.sqlite3``, 0600 in a 0700 folder).
SQLite rather than JSON Lines: listing sessions, filtering by resume and searching are
queries instead of reading the whole file; pruning old turns is a ``DELETE`` instead of
rewriting a file; two chat sessions appending at once are serialised by SQLite's own
locking; and it is in the standard library.

Every turn is scrubbed of API-key-like strings (``cvagent_cli.secrets``) before it is
written.  Retention is bounded and enforced on write: turns older than
``transcript_days`` (90) go, and when the file outgrows ``transcript_max_mb`` (50) the
oldest turns go until it fits.

The chat session records one turn per user message::

    log = TranscriptLog.from_settings(settings)  # None when transcripts are off
    session_id = new_session_id()
    ...
    if log is not None:
        try:
            log.record_turn(TurnRecord(session_id=session_id, user_text=text, answer_text=answer,
                                       resume=str(path), model=model, capability=pack, ...))
        except TranscriptError as exc:
            notice(exc.message)  # a log that cannot be written never ends the chat
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import uuid
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from cvagent_cli import paths
from cvagent_cli.errors import CvAgentError
from cvagent_cli.secrets import scrub_secrets

SCHEMA_VERSION = 1
DB_NAME = "transcripts.sqlite3"
RESULT_CHARS = 500  # a tool result is kept short: the log is for reading back, not replay


class TranscriptError(CvAgentError):
    """The transcript log cannot be read or written (corrupt file, disk full …)."""


def transcript_path() -> Path:
    """The transcript database, in the state dir (``CVAGENT_HOME/state`` in tests)."""
    return paths.state_dir() / DB_NAME


def new_session_id(now: datetime | None = None) -> str:
    """A sortable, unique session id: ``20261123-062000-1a2b3c``."""
    moment = (now or datetime.now(timezone.utc)).astimezone(timezone.utc)
    return f"{moment:%Y%m%d-%H%M%S}-{uuid.uuid4().hex[:6]}"


def resume_key(resume: str | Path | None) -> str | None:
    """How a resume is stored and filtered on: its absolute path (``-`` for stdin)."""
    if resume is None:
        return None
    text = str(resume)
    if text in ("-", "<stdin>"):
        return "<stdin>"
    return str(Path(text).expanduser().resolve())


def _utcnow() -> datetime:
    return datetime.now(timezone.utc)


class ToolCallRecord(BaseModel):
    """One tool call of a turn and how it ended."""

    model_config = ConfigDict(extra="forbid")

    name: str
    arguments: dict[str, Any] | str = Field(default_factory=dict)
    ok: bool = True
    result: str = Field(default="", description="short result or error text")


class TurnRecord(BaseModel):
    """One user message and everything the agent did about it."""

    model_config = ConfigDict(extra="forbid")

    session_id: str
    user_text: str
    answer_text: str = ""
    time: datetime = Field(default_factory=_utcnow)
    resume: str | None = None
    model: str | None = None
    capability: str | None = None
    tool_calls: list[ToolCallRecord] = Field(default_factory=list)
    diffs: list[str] = Field(default_factory=list, description="unified diffs applied")
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0
    cost: float | None = None


class SessionSummary(BaseModel):
    """One chat session as ``cvagent log`` lists it."""

    session_id: str
    started: datetime
    ended: datetime
    resume: str | None
    model: str | None
    capability: str | None
    turns: int
    prompt_tokens: int
    completion_tokens: int
    cost: float | None
    first_user_text: str


_SCHEMA = """
CREATE TABLE IF NOT EXISTS turns (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL,
    time TEXT NOT NULL,
    resume TEXT,
    model TEXT,
    capability TEXT,
    user_text TEXT NOT NULL,
    answer_text TEXT NOT NULL,
    tool_calls TEXT NOT NULL,
    diffs TEXT NOT NULL,
    prompt_tokens INTEGER NOT NULL,
    completion_tokens INTEGER NOT NULL,
    cached_tokens INTEGER NOT NULL,
    cost REAL
);
CREATE INDEX IF NOT EXISTS turns_session ON turns (session_id);
CREATE INDEX IF NOT EXISTS turns_time ON turns (time);
CREATE INDEX IF NOT EXISTS turns_resume ON turns (resume);
"""
_SEARCHED = ("user_text", "answer_text", "tool_calls", "diffs")


class TranscriptLog:
    """Append-and-query access to the transcript database.

    ``TranscriptLog(path).record_turn(TurnRecord(...))`` appends one turn; ``sessions()``
    and ``turns()`` read back.  Each call opens and closes its own connection, so an
    instance can live as long as a chat session without holding the file.
    """

    def __init__(
        self,
        path: Path | None = None,
        *,
        retention_days: int = 90,
        max_bytes: int = 50 * 1024 * 1024,
        clock: Callable[[], datetime] = _utcnow,
    ) -> None:
        self.path = Path(path) if path is not None else transcript_path()
        self.retention_days = retention_days
        self.max_bytes = max_bytes
        self.clock = clock

    @classmethod
    def from_settings(cls, settings: Any, path: Path | None = None) -> TranscriptLog | None:
        """The log the settings ask for, or ``None`` when transcripts are switched off."""
        if not settings.transcripts:
            return None
        return cls(
            path,
            retention_days=settings.transcript_days,
            max_bytes=int(settings.transcript_max_mb * 1024 * 1024),
        )

    # -- writing ------------------------------------------------------------------
    def record_turn(self, turn: TurnRecord) -> None:
        """Append ``turn`` (secrets scrubbed), then prune by age and size.

        Raises :class:`TranscriptError` when the file cannot be written; a chat session
        should show it as a notice and carry on.
        """
        data = scrub_secrets(turn.model_dump(mode="json"))
        row = (
            data["session_id"],
            _iso(turn.time),
            resume_key(data["resume"]),
            data["model"],
            data["capability"],
            data["user_text"],
            data["answer_text"],
            json.dumps([_short_call(call) for call in data["tool_calls"]], ensure_ascii=False),
            json.dumps(data["diffs"], ensure_ascii=False),
            data["prompt_tokens"],
            data["completion_tokens"],
            data["cached_tokens"],
            data["cost"],
        )
        with self._connect(create=True) as db:
            db.execute(
                "INSERT INTO turns (session_id, time, resume, model, capability, user_text,"
                " answer_text, tool_calls, diffs, prompt_tokens, completion_tokens,"
                " cached_tokens, cost) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                row,
            )
            self._prune_by_age(db)
        self._prune_by_size()

    def _prune_by_age(self, db: sqlite3.Connection) -> int:
        cutoff = _iso(self.clock() - timedelta(days=self.retention_days))
        return db.execute("DELETE FROM turns WHERE time < ?", (cutoff,)).rowcount

    def _prune_by_size(self) -> int:
        removed = 0
        while self._size() > self.max_bytes:
            with self._connect() as db:
                count = db.execute("SELECT COUNT(*) FROM turns").fetchone()[0]
                if count == 0:
                    break
                drop = max(1, count // 5)  # a fifth at a time: few VACUUMs, no thrashing
                removed += db.execute(
                    "DELETE FROM turns WHERE id IN (SELECT id FROM turns ORDER BY id LIMIT ?)",
                    (drop,),
                ).rowcount
            with self._connect() as db:
                db.execute("VACUUM")  # give the space back, or the file never shrinks
        return removed

    def _size(self) -> int:
        try:
            return self.path.stat().st_size
        except FileNotFoundError:
            return 0

    # -- reading ------------------------------------------------------------------
    def sessions(
        self, *, limit: int = 10, resume: str | Path | None = None, query: str | None = None
    ) -> list[SessionSummary]:
        """The most recently started sessions, newest first (the order of the start
        times shown); ``query`` keeps those with a matching turn."""
        if not self.path.exists():
            return []
        where, args = self._filters(resume=resume, query=query)
        sql = (
            "SELECT session_id, MIN(time), MAX(time), MAX(resume), MAX(model),"
            " MAX(capability), COUNT(*), SUM(prompt_tokens), SUM(completion_tokens),"
            " SUM(cost), (SELECT user_text FROM turns f WHERE f.session_id = t.session_id"
            " ORDER BY id LIMIT 1)"
            f" FROM turns t {where} GROUP BY session_id ORDER BY MIN(time) DESC, MAX(id) DESC LIMIT ?"
        )
        with self._connect() as db:
            rows = db.execute(sql, (*args, limit)).fetchall()
        return [
            SessionSummary(
                session_id=r[0],
                started=_parse_time(r[1]),
                ended=_parse_time(r[2]),
                resume=r[3],
                model=r[4],
                capability=r[5],
                turns=r[6],
                prompt_tokens=r[7] or 0,
                completion_tokens=r[8] or 0,
                cost=r[9],
                first_user_text=r[10] or "",
            )
            for r in rows
        ]

    def turns(
        self,
        *,
        session_id: str | None = None,
        resume: str | Path | None = None,
        query: str | None = None,
        limit: int | None = None,
    ) -> list[TurnRecord]:
        """Matching turns, oldest first; with ``limit``, the most recent ``limit`` of them."""
        if not self.path.exists():
            return []
        where, args = self._filters(session_id=session_id, resume=resume, query=query)
        sql = (
            "SELECT session_id, time, resume, model, capability, user_text, answer_text,"
            " tool_calls, diffs, prompt_tokens, completion_tokens, cached_tokens, cost"
            f" FROM turns {where} ORDER BY id DESC"
        )
        if limit is not None:
            sql += " LIMIT ?"
            args.append(limit)
        with self._connect() as db:
            rows = db.execute(sql, args).fetchall()
        return [
            TurnRecord(
                session_id=r[0],
                time=_parse_time(r[1]),
                resume=r[2],
                model=r[3],
                capability=r[4],
                user_text=r[5],
                answer_text=r[6],
                tool_calls=json.loads(r[7]),
                diffs=json.loads(r[8]),
                prompt_tokens=r[9],
                completion_tokens=r[10],
                cached_tokens=r[11],
                cost=r[12],
            )
            for r in reversed(rows)
        ]

    @staticmethod
    def _filters(
        *,
        session_id: str | None = None,
        resume: str | Path | None = None,
        query: str | None = None,
    ) -> tuple[str, list[Any]]:
        clauses: list[str] = []
        args: list[Any] = []
        if session_id:
            clauses.append("session_id LIKE ? ESCAPE '\\'")  # a unique prefix is enough
            args.append(_like_escape(session_id) + "%")
        if resume is not None:
            clauses.append("resume = ?")
            args.append(resume_key(resume))
        if query:
            pattern = f"%{_like_escape(query)}%"
            clauses.append(
                "(" + " OR ".join(f"{col} LIKE ? ESCAPE '\\'" for col in _SEARCHED) + ")"
            )
            args += [pattern] * len(_SEARCHED)
        return ("WHERE " + " AND ".join(clauses) if clauses else ""), args

    # -- the file -----------------------------------------------------------------
    @contextlib.contextmanager
    def _connect(self, create: bool = False) -> Iterator[sqlite3.Connection]:
        try:
            if create and not self.path.exists():
                paths.ensure_private_dir(self.path.parent)
                # create it 0600 before SQLite does (SQLite would honour the umask: 0644)
                with contextlib.suppress(FileExistsError):
                    os.close(os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
            db = sqlite3.connect(self.path, timeout=10)
        except (OSError, sqlite3.Error) as exc:
            raise self._error(exc) from None
        try:
            with db:  # one transaction: committed on success, rolled back on error
                if create:
                    db.executescript(_SCHEMA)
                    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                yield db
        except sqlite3.Error as exc:
            raise self._error(exc) from None
        finally:
            db.close()

    def _error(self, exc: Exception) -> TranscriptError:
        return TranscriptError(
            f"the transcript log {self.path} cannot be used: {exc}",
            hint="move the file aside to start a new log, or turn logging off: cvagent log off",
        )


def _short_call(call: dict[str, Any]) -> dict[str, Any]:
    result = str(call.get("result", ""))
    if len(result) > RESULT_CHARS:
        result = result[: RESULT_CHARS - 1] + "…"
    return {**call, "result": result}


def _like_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _iso(moment: datetime) -> str:
    """UTC, fixed width, so text order is time order in SQL."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _parse_time(text: str) -> datetime:
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc)
