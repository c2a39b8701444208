"""One tool call, as the metrics log keeps it: the JSON line, the PostgreSQL row, what the report reads.

``outcome`` says whether the index answered:

* ``hit``   — an answer from the index;
* ``miss``  — the index could not answer and the agent has to fall back to reading files: the
  symbol or file was not found, not indexed, or the answer names a file that changed since it
  was indexed (``stale``);
* ``error`` — neither: a refused argument, a path outside the root, a timeout, a damaged index.

``tokens_used`` is the answer's own size in tokens; ``file_tokens`` the tokens of the whole files
the answer stands in for (every file it names: what the agent would have opened to learn what the
answer says about them); ``tokens_saved`` is ``file_tokens - tokens_used`` for a hit (never below
zero), and 0 for a miss or an error, which spared nothing.
"""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import asdict, dataclass, field, fields
from typing import Any

HIT, MISS, ERROR = "hit", "miss", "error"
FILES_KEPT = 50  # files listed in one record (file_tokens counts them all)


@dataclass(slots=True)
class CallRecord:
    time: str  # ISO 8601, UTC, milliseconds: when the call was received
    session_id: str
    root: str
    tool: str
    outcome: str
    duration_ms: float
    answer_bytes: int
    tokens_used: int = 0
    tokens_saved: int = 0
    file_tokens: int = 0
    error: str | None = None
    symbol: str | None = None
    path: str | None = None
    files: list[list[Any]] = field(default_factory=list)  # [path, tokens] of the files it stands in for
    tokenizer: str = ""
    id: str = field(default_factory=lambda: uuid.uuid4().hex)  # backfills stay idempotent by it

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        if not out["files"]:
            del out["files"]
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CallRecord:
        """A record read back (unknown keys are ignored: a newer writer may add some)."""
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})

    @property
    def at(self) -> dt.datetime:
        return parse_time(self.time)


def now_iso() -> str:
    return format_time(dt.datetime.now(dt.UTC))


def format_time(moment: dt.datetime) -> str:
    return moment.astimezone(dt.UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def parse_time(text: str) -> dt.datetime:
    moment = dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    return moment if moment.tzinfo else moment.replace(tzinfo=dt.UTC)
