"""Claude Code's own session logs (``~/.claude/projects/<project>/<session>.jsonl``), read for the
model usage of the sessions that ran beside the MCP calls a report covers.

Each assistant message line carries ``message.usage`` (input, output, cache-creation and cache-read
tokens), ``sessionId`` and ``timestamp``. One message is written as several lines (one per content
block) repeating the same usage, so messages are counted once by ``message.id`` (and ``requestId``).
Anything else — a file that cannot be read, a line that is not JSON, a line without usage — is
skipped; the reader says how many it skipped, never fails.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from codecairn.metrics.record import parse_time

MAX_FILES = 5_000  # session logs looked at
MAX_FILE_BYTES = 256 * 1024 * 1024


@dataclass
class ClaudeUsage:
    session_id: str
    project: str  # the directory Claude Code ran in (its cwd), when the log says
    first: str  # local ISO times of the first and last message in the period
    last: str
    messages: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cache_creation_input_tokens: int = 0
    cache_read_input_tokens: int = 0


def default_directory() -> Path:
    return Path.home() / ".claude" / "projects"


def _int(value: Any) -> int:
    return value if isinstance(value, int) and value >= 0 else 0


def read_usage(
    directory: Path, start: dt.datetime, end: dt.datetime, tz: dt.tzinfo
) -> tuple[list[ClaudeUsage], list[str]]:
    """Per-session usage of the messages between ``start`` and ``end``; and notes on what was skipped."""
    notes: list[str] = []
    if not directory.is_dir():
        return [], [f"no Claude Code session logs at {directory}"]
    sessions: dict[str, ClaudeUsage] = {}
    seen: set[tuple[str, str]] = set()
    unreadable = malformed = 0
    paths = sorted(directory.rglob("*.jsonl"))
    if len(paths) > MAX_FILES:
        notes.append(f"read the newest {MAX_FILES:,} of {len(paths):,} Claude Code session logs")
        paths = sorted(paths, key=lambda p: p.stat().st_mtime)[-MAX_FILES:]
    for path in paths:
        try:
            if not path.is_file() or path.stat().st_size > MAX_FILE_BYTES:
                unreadable += 1
                continue
            lines = path.read_bytes().splitlines()
        except OSError:
            unreadable += 1
            continue
        for line in lines:
            if not line.strip():
                continue
            try:
                entry = json.loads(line)
                message = entry.get("message") if isinstance(entry, dict) else None
                usage = message.get("usage") if isinstance(message, dict) else None
                if not isinstance(message, dict) or not isinstance(usage, dict):
                    continue  # a user turn, a summary line: no usage to count
                moment = parse_time(str(entry["timestamp"])).astimezone(tz)
                session_id = str(entry.get("sessionId") or path.stem)
            except (ValueError, TypeError, KeyError, AttributeError):
                malformed += 1
                continue
            if not start <= moment <= end:
                continue
            key = (str(message.get("id") or id(entry)), str(entry.get("requestId") or ""))
            if key in seen:
                continue  # the same message again, for its next content block
            seen.add(key)
            stamp = moment.isoformat(timespec="seconds")
            row = sessions.setdefault(session_id, ClaudeUsage(session_id, str(entry.get("cwd") or ""), stamp, stamp))
            row.first, row.last = min(row.first, stamp), max(row.last, stamp)
            row.messages += 1
            row.input_tokens += _int(usage.get("input_tokens"))
            row.output_tokens += _int(usage.get("output_tokens"))
            row.cache_creation_input_tokens += _int(usage.get("cache_creation_input_tokens"))
            row.cache_read_input_tokens += _int(usage.get("cache_read_input_tokens"))
    if unreadable:
        notes.append(f"skipped {unreadable} Claude Code session log(s) that could not be read")
    if malformed:
        notes.append(f"skipped {malformed} malformed line(s) in Claude Code session logs")
    return sorted(sessions.values(), key=lambda c: c.first), notes
