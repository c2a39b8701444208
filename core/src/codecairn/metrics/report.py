"""What the metrics say, added up: ``codecairn report``.

The records (the JSONL log with its rotated files, or PostgreSQL's ``mcp_calls`` with ``--from-db``)
are grouped by session, tool, file, day (in the reader's time zone) and symbol. A record's
``tokens_saved`` is shared among the files it names in proportion to their tokens, so the per-file
figures add up to the total. Claude Code's own usage for the same period is added beside it when its
session logs are there (claude_logs.py). Rendering is elsewhere: text tables and JSON here, the HTML
page in html.py.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from codecairn.metrics.claude_logs import ClaudeUsage
from codecairn.metrics.record import ERROR, HIT, MISS, CallRecord, parse_time

TOP = 20  # rows of the per-file and per-symbol tables


@dataclass
class Row:
    """Calls grouped by one key, with what they used and saved."""

    key: str
    calls: int = 0
    hits: int = 0
    misses: int = 0
    errors: int = 0
    tokens_used: int = 0
    tokens_saved: int = 0
    first: str = ""  # local ISO time of the first and last call (per session)
    last: str = ""

    @property
    def hit_rate(self) -> float:
        answered = self.hits + self.misses
        return self.hits / answered if answered else 0.0

    def add(self, record: CallRecord, saved: float | None = None) -> None:
        self.calls += 1
        if record.outcome == HIT:
            self.hits += 1
        elif record.outcome == MISS:
            self.misses += 1
        elif record.outcome == ERROR:
            self.errors += 1
        self.tokens_used += int(record.tokens_used or 0)
        self.tokens_saved += int(round(saved)) if saved is not None else int(record.tokens_saved or 0)

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["hit_rate"] = round(self.hit_rate, 4)
        if not self.first:
            del out["first"], out["last"]
        return out


@dataclass
class Report:
    source: str  # the log file or the database it was read from
    tz: str
    total: Row
    sessions: list[Row]
    tools: list[Row]
    files: list[Row]
    days: list[Row]
    symbols: list[Row]
    tokenizers: list[str]
    period: tuple[str, str] | None  # local ISO times of the first and last call
    claude: list[ClaudeUsage] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "timezone": self.tz,
            "period": list(self.period) if self.period else None,
            "tokenizers": self.tokenizers,
            "total": self.total.to_json(),
            "sessions": [r.to_json() for r in self.sessions],
            "tools": [r.to_json() for r in self.tools],
            "files": [r.to_json() for r in self.files],
            "days": [r.to_json() for r in self.days],
            "symbols": [r.to_json() for r in self.symbols],
            "claude_sessions": [asdict(c) for c in self.claude],
            "notes": self.notes,
        }


def zone(name: str | None) -> dt.tzinfo:
    """The named IANA zone, or the machine's local zone for None; a ValueError naming a bad one."""
    if not name:
        local = dt.datetime.now().astimezone().tzinfo
        return local or dt.UTC
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ValueError(f"unknown time zone {name[:40]!r} (an IANA name such as Europe/Berlin, or UTC)") from exc


def build(records: Iterable[CallRecord], *, tz: dt.tzinfo, source: str) -> Report:
    total = Row("all")
    sessions: dict[str, Row] = {}
    tools: dict[str, Row] = {}
    files: dict[str, Row] = {}
    days: dict[str, Row] = {}
    symbols: dict[str, Row] = {}
    tokenizers: set[str] = set()
    first: dt.datetime | None = None
    last: dt.datetime | None = None
    for record in records:
        try:
            moment = parse_time(record.time).astimezone(tz)
        except (ValueError, TypeError, AttributeError):
            continue  # a record without a readable time is not placed anywhere
        first = moment if first is None or moment < first else first
        last = moment if last is None or moment > last else last
        stamp = moment.isoformat(timespec="seconds")
        if record.tokenizer:
            tokenizers.add(record.tokenizer)
        total.add(record)
        session = sessions.setdefault(record.session_id, Row(record.session_id, first=stamp))
        session.add(record)
        session.first, session.last = min(session.first, stamp), max(session.last, stamp)
        tools.setdefault(record.tool, Row(record.tool)).add(record)
        days.setdefault(moment.date().isoformat(), Row(moment.date().isoformat())).add(record)
        if record.symbol:
            symbols.setdefault(record.symbol, Row(record.symbol)).add(record)
        named = [(str(f[0]), int(f[1])) for f in record.files or [] if isinstance(f, list) and len(f) == 2]
        weight = sum(t for _, t in named)
        if named and weight:
            for path, tokens in named:
                files.setdefault(path, Row(path)).add(record, saved=record.tokens_saved * tokens / weight)
        elif record.path:
            files.setdefault(record.path, Row(record.path)).add(record, saved=0)

    def by_savings(rows: dict[str, Row], limit: int | None = None) -> list[Row]:
        ordered = sorted(rows.values(), key=lambda r: (-r.tokens_saved, -r.calls, r.key))
        return ordered[:limit] if limit else ordered

    return Report(
        source=source,
        tz=str(tz),
        total=total,
        sessions=sorted(sessions.values(), key=lambda r: r.first),
        tools=by_savings(tools),
        files=by_savings(files, TOP),
        days=sorted(days.values(), key=lambda r: r.key),
        symbols=by_savings(symbols, TOP),
        tokenizers=sorted(tokenizers),
        period=(first.isoformat(timespec="seconds"), last.isoformat(timespec="seconds")) if first and last else None,
    )


# ---- text -------------------------------------------------------------------------------------


def _table(title: str, rows: list[Row], key: str, *, times: bool = False) -> list[str]:
    if not rows:
        return []
    head = [key, "calls", "hits", "misses", "errors", "hit rate", "tokens used", "tokens saved"]
    if times:
        head += ["first", "last"]
    body = [
        [
            r.key if len(r.key) <= 60 else r.key[:59] + "…",
            f"{r.calls:,}",
            f"{r.hits:,}",
            f"{r.misses:,}",
            f"{r.errors:,}",
            f"{r.hit_rate:.0%}",
            f"{r.tokens_used:,}",
            f"{r.tokens_saved:,}",
        ]
        + ([r.first, r.last] if times else [])
        for r in rows
    ]
    widths = [max(len(h), *(len(row[i]) for row in body)) for i, h in enumerate(head)]

    def line(cells: list[str]) -> str:
        return "  ".join(c.ljust(w) if i == 0 or i >= 8 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))

    return ["", title, line(head), "  ".join("-" * w for w in widths), *(line(r) for r in body)]


def render_text(report: Report) -> str:
    t = report.total
    out = [f"codecairn metrics: {report.source}"]
    if report.period is None:
        out.append("no tool calls recorded yet")
    else:
        out += [
            f"period      {report.period[0]} .. {report.period[1]} ({report.tz})",
            f"calls       {t.calls:,} ({t.hits:,} hits, {t.misses:,} misses, {t.errors:,} errors)",
            f"hit rate    {t.hit_rate:.1%} of the calls the index could answer or not",
            f"tokens      {t.tokens_saved:,} saved, {t.tokens_used:,} used in answers"
            f" ({', '.join(report.tokenizers) or 'not counted'})",
        ]
        out += _table("per session", report.sessions, "session", times=True)
        out += _table("per tool", report.tools, "tool")
        out += _table(f"per file (top {TOP} by savings)", report.files, "file")
        out += _table("per day", report.days, "day")
        out += _table(f"top symbols by savings (top {TOP})", report.symbols, "symbol")
    if report.claude:
        out += ["", "Claude Code sessions in the same period (model usage, tokens)"]
        head = ["session", "first", "last", "messages", "input", "output", "cache write", "cache read"]
        body = [
            [c.session_id, c.first, c.last, f"{c.messages:,}", f"{c.input_tokens:,}", f"{c.output_tokens:,}"]
            + [f"{c.cache_creation_input_tokens:,}", f"{c.cache_read_input_tokens:,}"]
            for c in report.claude
        ]
        widths = [max(len(h), *(len(r[i]) for r in body)) for i, h in enumerate(head)]
        out.append("  ".join(h.ljust(w) for h, w in zip(head, widths)))
        out += ["  ".join(c.ljust(w) for c, w in zip(row, widths)) for row in body]
    out += [f"note: {n}" for n in report.notes]
    return "\n".join(out) + "\n"


# ---- where the records come from ----------------------------------------------------------------


def from_log(root: str) -> tuple[Iterable[CallRecord], str]:
    """The records of ``root``'s metrics log (and its rotated files), oldest first."""
    from codecairn.metrics.jsonl import MetricsLog, log_path
    from codecairn.store.store import database_path

    path = log_path(database_path(Path(root)))
    if not path.exists() and not MetricsLog(path).files():
        raise ValueError(f"no metrics log for {root[:200]} (expected {path}): serve it and make some calls first")
    return MetricsLog(path).records(), str(path)


def from_database(root: str, url: str) -> tuple[Iterable[CallRecord], str]:
    """The records of ``root`` in PostgreSQL's mcp_calls (a ValueError saying why when it cannot be read)."""
    from codecairn.metrics.postgres import read_rows

    real = str(Path(root).resolve())
    return [CallRecord.from_json(r) for r in read_rows(url, real)], "PostgreSQL mcp_calls"


def make(
    root: str,
    *,
    tz_name: str | None = None,
    db_url: str | None = None,
    claude_dir: Path | None = None,
) -> Report:
    """The report of ``root``: from its log, or from PostgreSQL when ``db_url`` is given; Claude
    Code's usage of the same period from ``claude_dir`` (None: not read)."""
    tz = zone(tz_name)
    records, source = from_database(root, db_url) if db_url else from_log(root)
    report = build(records, tz=tz, source=source)
    if claude_dir is not None and report.period is not None:
        from codecairn.metrics.claude_logs import read_usage

        start, end = (dt.datetime.fromisoformat(t) for t in report.period)
        report.claude, notes = read_usage(claude_dir, start, end + dt.timedelta(seconds=1), tz)
        report.notes += notes
    return report
