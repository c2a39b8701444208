"""The server's one hook into metrics: ``started()`` when a tool call arrives, ``finished()`` with
its result. Both only note the time and put a reference on a queue; everything else — parsing the
answer, telling a hit from a miss, reading and tokenizing the files the answer stands in for,
writing the JSON line, copying it to PostgreSQL — happens in a writer thread. An answer is never
delayed by its own record, and a record that cannot be written (a full disk) is lost, not the call.

``usage()`` is what ``stats`` shows: it first waits (briefly) for the records of calls already
answered, so the session's figures include the call just before it.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import logging
import os
import queue
import threading
import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from codecairn.errors import NOT_FOUND, NOT_INDEXED
from codecairn.metrics.jsonl import DEFAULT_KEEP, DEFAULT_MAX_BYTES, MetricsLog, add_record, log_path
from codecairn.metrics.record import ERROR, FILES_KEPT, HIT, MISS, CallRecord, now_iso
from codecairn.metrics.tokens import BYTES_PER_TOKEN, FALLBACK, TokenCounter
from codecairn.metrics.word_search import WordSearches
from codecairn.model import CALLABLE_KINDS, CallTotals, Usage
from codecairn.paths import Refused, read_confined

log = logging.getLogger("codecairn.metrics")

METRICS_ENV = "CODECAIRN_METRICS"  # "off" turns the log off (hits and misses are still counted)
MAX_BYTES_ENV = "CODECAIRN_METRICS_MAX_BYTES"
KEEP_ENV = "CODECAIRN_METRICS_KEEP"
DB_URL_ENV = "CODECAIRN_METRICS_DB_URL"

MISS_CODES = (NOT_FOUND, NOT_INDEXED)  # errors that mean "the index could not answer"
MAX_PENDING = 10_000  # records waiting for the writer; past this, new ones are dropped (and counted)
# Answer text waiting for the writer. While the writer is behind (the tokenizer loading, busy cores),
# a burst of large answers — a 20 MB file read window after window — would otherwise be held whole
# until counted: 80 MB more RSS measured, kept for good (the heap does not shrink). Past this, a call
# is recorded from its size alone (tokens as bytes/4, its files not counted), without its answer.
MAX_PENDING_TEXT = 4 * 1024 * 1024
BATCH = 500
FILES_COUNTED = 200  # files of one answer read and counted (a bounded list names at most a few dozen)
MAX_FILE_BYTES = 8 * 1024 * 1024  # larger files are not what an agent reads whole: not counted
TEXT_CHARS = 200  # symbol and path values kept in a record
FLUSH_SECONDS = 5.0


@dataclass(slots=True)
class _Call:
    """What the event loop hands the writer: references and two clock readings, nothing computed."""

    time: str
    started: float
    duration: float
    tool: str
    arguments: Mapping[str, Any] | None
    result: Any  # mcp CallToolResult, or None when the call ended without one
    failure: str | None = None  # "cancelled"
    pending_text: int = 0  # characters of answer text this call holds while it waits (see MAX_PENDING_TEXT)
    unheld: _Unheld | None = None  # what is known of an answer not held (over MAX_PENDING_TEXT)


@dataclass(slots=True)
class _Unheld:
    """An answer recorded from its size: the writer was too far behind to be handed the answer."""

    answer_bytes: int
    is_error: bool


def _answer_text(result: Any) -> str:
    return "".join(getattr(c, "text", "") or "" for c in (getattr(result, "content", None) or []))


def _env_int(name: str, default: int) -> int:
    try:
        return int(os.environ.get(name, default))
    except ValueError:
        return default


def _clip(value: Any) -> str | None:
    if not isinstance(value, str) or not value:
        return None
    return value if len(value) <= TEXT_CHARS else value[:TEXT_CHARS] + "…"


# What an answer stands in for is the files an agent would have read to learn what it says, not
# every file it mentions. Lists of references — callers, callees, subclasses — name places, as a
# grep would (file, line), not file content the agent was spared from reading: their files are not
# counted. Measured against a ground truth from Python's ast (benchmarks/test_token_savings.py),
# counting every named file over-counted get_symbol's savings by 81 % on "what does Z extend" and
# find_symbols' by 53 % (the files of prefix and substring matches nobody asked about).
REFERENCE_KEYS = frozenset({"callers", "callees", "subclasses"})
# ...but a function's or method's callers are what an agent runs `grep -rnw NAME` for, and it reads
# all that grep prints (imports, mentions, namesakes' calls besides the call sites): the answer
# spares that output, and it is counted (metrics/word_search.py). Not counting it, the log claimed
# 19 % less than the measurement on Django's "who calls Y" (3 % on rich). A type's answer is read
# for its structure (members, bases: its files), not its uses: counting the search for its name
# there claimed 15 % more than an agent asking "what does Z extend" reads.
CALLER_KEYS = ("callers", "unresolved_call_sites")


def named_paths(value: Any, out: list[str], seen: set[str], skip: frozenset[str] = REFERENCE_KEYS) -> None:
    """Every ``path`` an answer names, in order, once each (not in its lists of references)."""
    if isinstance(value, dict):
        p = value.get("path")
        if isinstance(p, str) and p and p not in seen:
            seen.add(p)
            out.append(p)
        for k, v in value.items():
            if isinstance(v, (dict, list)) and k not in skip:
                # Places grouped by file ({path: [entries]}): the key is the path. A key that is
                # not a file (a label, a name with several lines) is skipped when files are read.
                if isinstance(k, str) and ("/" in k or "." in k) and k not in seen:
                    seen.add(k)
                    out.append(k)
                named_paths(v, out, seen, skip)
    elif isinstance(value, list):
        for v in value:
            if isinstance(v, (dict, list)):
                named_paths(v, out, seen, skip)


def asked_about(tool: str, args: Mapping[str, Any], payload: dict[str, Any]) -> Any:
    """The part of an answer whose files the agent would have read: for a search by name, the
    results with exactly that name when there are any (``find_symbols("escape")`` is not a reason
    to read the file of ``escape_control_codes``)."""
    name = args.get("name")
    results = payload.get("results")
    if tool == "find_symbols" and isinstance(name, str) and isinstance(results, list):
        exact = [r for r in results if isinstance(r, dict) and name in (r.get("name"), r.get("qualified_name"))]
        if exact:
            return {**payload, "results": exact}
    if tool == "find_symbols" and isinstance(name, str) and isinstance(results, dict):
        # grouped by file, each entry named relative to its file's module
        last = name.replace("::", ".").rsplit(".", 1)[-1]
        exact_files = {
            path: entries
            for path, entries in results.items()
            if isinstance(entries, list)
            and any(
                isinstance(e, dict) and str(e.get("name", "")).replace("::", ".").rsplit(".", 1)[-1] == last
                for e in entries
            )
        }
        if exact_files:
            return {**payload, "results": exact_files}
    return payload


class CallRecorder:
    """Records every tool call of one server session (see the module's docstring)."""

    def __init__(
        self,
        root_real: str,
        log_file: MetricsLog | None,
        *,
        counter: TokenCounter | None = None,
        sink: Any = None,
        session_id: str | None = None,
    ) -> None:
        self.root_real = root_real
        self.log = log_file
        self.counter = counter or TokenCounter()
        self.searches = WordSearches(root_real)
        self.sink = sink  # the PostgreSQL copy (postgres.PostgresSink), or None
        self.session_id = session_id or uuid.uuid4().hex[:16]
        self.session = CallTotals()  # the server's hits and misses: stats reads them
        self.dropped = 0  # records dropped before the writer saw them (too many waiting)
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._closed = False
        self._log_lock = threading.Lock()
        self._pending_text = 0  # see MAX_PENDING_TEXT
        self._pending_lock = threading.Lock()

    @classmethod
    def for_database(cls, root_real: str, database: Path | None) -> CallRecorder:
        """The recorder a server uses: a log beside ``database`` unless CODECAIRN_METRICS=off or
        there is no database; a PostgreSQL copy when CODECAIRN_METRICS_DB_URL is set."""
        off = os.environ.get(METRICS_ENV, "").strip().lower() in ("off", "0", "false", "no")
        log_file = None
        if database is not None and not off:
            log_file = MetricsLog(
                log_path(database),
                max_bytes=_env_int(MAX_BYTES_ENV, DEFAULT_MAX_BYTES),
                keep=_env_int(KEEP_ENV, DEFAULT_KEEP),
            )
        sink = None
        url = os.environ.get(DB_URL_ENV, "").strip()
        if url and log_file is not None:
            from codecairn.metrics.postgres import PostgresSink

            sink = PostgresSink(url, log_file)
        return cls(root_real, log_file, counter=TokenCounter(use_tokenizer=log_file is not None), sink=sink)

    # ---- the hook (on the event loop: cheap) ----------------------------------------------------

    def started(self) -> tuple[str, float]:
        return now_iso(), time.perf_counter()

    def finished(
        self,
        started: tuple[str, float],
        tool: str,
        arguments: Mapping[str, Any] | None,
        result: Any,
        failure: str | None = None,
    ) -> None:
        if self._closed:
            return
        at, t0 = started
        call = _Call(at, t0, time.perf_counter() - t0, tool, arguments, result, failure)
        if self._queue.qsize() >= MAX_PENDING:
            self.dropped += 1
            return
        if result is not None:
            size = sum(len(getattr(c, "text", "") or "") for c in (getattr(result, "content", None) or []))
            with self._pending_lock:
                held = self._pending_text + size <= MAX_PENDING_TEXT
                if held:
                    self._pending_text += size
            if held:
                call.pending_text = size
            else:
                text = _answer_text(result)
                call.result = None
                call.unheld = _Unheld(
                    len(text.encode("utf-8", "surrogatepass")), bool(getattr(result, "is_error", False))
                )
        self._queue.put(call)
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="codecairn-metrics", daemon=True)
            self._thread.start()

    # ---- what stats shows -------------------------------------------------------------------------

    async def flush(self, timeout: float = FLUSH_SECONDS) -> bool:
        """Wait until the records of every call finished so far are counted (and written)."""
        if self._thread is None or not self._thread.is_alive():
            return True
        done: concurrent.futures.Future = concurrent.futures.Future()
        self._queue.put(done)
        try:
            await asyncio.wait_for(asyncio.wrap_future(done), timeout)
        except TimeoutError:
            return False
        return True

    async def usage(self) -> Usage:
        await self.flush()
        session = CallTotals(**self.session.__dict__)
        all_time: CallTotals | None = CallTotals(**self.session.__dict__)
        if self.log is not None:
            try:  # a huge log is read once (then on from where it stopped); a slow disk is not waited for
                all_time = await asyncio.wait_for(asyncio.to_thread(self._all_time), FLUSH_SECONDS)
            except TimeoutError:
                all_time = None
        tokenizer = await asyncio.to_thread(lambda: self.counter.name) if self.log is not None else "off"
        return Usage(
            session=session,
            all_time=all_time,
            tokenizer=tokenizer,
            log=str(self.log.path) if self.log is not None else None,
            dropped=self.dropped + (self.log.dropped if self.log is not None else 0),
            database=self.sink.status() if self.sink is not None else None,
        )

    def _all_time(self) -> CallTotals:
        assert self.log is not None
        with self._log_lock:
            return self.log.totals()

    def close(self, timeout: float = FLUSH_SECONDS) -> None:
        """Write what is waiting, then stop (the server's exit)."""
        self._closed = True
        if self._thread is not None and self._thread.is_alive():
            self._queue.put(None)
            self._thread.join(timeout)
        if self.sink is not None:
            self.sink.close(timeout)

    # ---- the writer thread ------------------------------------------------------------------------

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            batch = [item]
            while len(batch) < BATCH:
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            records, waiters, stop = [], [], False
            for entry in batch:
                if entry is None:
                    stop = True
                elif isinstance(entry, concurrent.futures.Future):
                    waiters.append(entry)
                else:
                    try:
                        records.append(self.measure(entry))
                    except Exception:  # a record is never worth a dead writer
                        log.exception("metrics: could not measure a %s call", getattr(entry, "tool", "?"))
                    if entry.pending_text:
                        with self._pending_lock:
                            self._pending_text -= entry.pending_text
                    entry.result = None  # the answer goes now, not with the rest of the batch
            for record in records:
                add_record(self.session, record)
            if records and self.log is not None:
                with self._log_lock:
                    self.log.append(records)
                if self.sink is not None:
                    self.sink.put(records)
            for waiter in waiters:
                if not waiter.done():
                    waiter.set_result(True)
            if stop:
                return

    def measure(self, call: _Call) -> CallRecord:
        """The record of one call: its outcome, its answer's tokens and those of the files it names."""
        args = call.arguments if isinstance(call.arguments, Mapping) else {}
        record = CallRecord(
            time=call.time,
            session_id=self.session_id,
            root=self.root_real,
            tool=_clip(call.tool) or "?",
            outcome=ERROR,
            duration_ms=round(call.duration * 1000, 2),
            answer_bytes=0,
            symbol=_clip(args.get("name")) or _clip(args.get("symbol")),
            path=_clip(args.get("path")),
        )
        result = call.result
        if call.unheld is not None:
            return self._measure_unheld(record, call.unheld)
        if result is None:
            record.error = call.failure or "no_answer"
            return record
        text = _answer_text(result)
        record.answer_bytes = len(text.encode("utf-8", "surrogatepass"))
        # The answer's fields: structured when the tool sends them so (a text-block answer's text is a
        # header line and the code, not one JSON document), else the JSON text itself.
        payload = getattr(result, "structured_content", None) or getattr(result, "structuredContent", None)
        if not isinstance(payload, dict):
            try:
                payload = json.loads(text) if text else {}
            except ValueError:
                payload = {}
        if not isinstance(payload, dict):
            payload = {}
        counting = self.log is not None
        if counting:
            record.tokens_used = self.counter.count(text)
            record.tokenizer = self.counter.name
        if getattr(result, "is_error", False):
            record.error = str(payload.get("error") or "error")[:64]
            record.outcome = MISS if record.error in MISS_CODES else ERROR
            return record
        paths: list[str] = []
        named_paths(asked_about(call.tool, args, payload), paths, set())
        if record.path is None:
            record.path = _clip(payload.get("path")) or (_clip(paths[0]) if len(paths) == 1 else None)
        if payload.get("stale"):
            record.outcome = MISS  # the agent has to read the changed file anyway: it spared nothing
            return record
        record.outcome = HIT
        if not counting:
            return record
        files: list[list[Any]] = []
        total = 0
        for rel in paths[:FILES_COUNTED]:
            tokens = self._file_tokens(rel)
            if tokens is None:
                continue
            total += tokens
            if len(files) < FILES_KEPT:
                files.append([rel, tokens])
        total += self._search_tokens(payload)
        record.file_tokens = total
        record.files = files
        record.tokens_saved = max(0, total - record.tokens_used)
        return record

    def _search_tokens(self, payload: dict[str, Any]) -> int:
        """The tokens of the word search a callable's callers stand in for (see CALLER_KEYS)."""
        name, path = payload.get("qualified_name"), payload.get("path")
        if payload.get("kind") not in CALLABLE_KINDS or not isinstance(name, str) or not isinstance(path, str):
            return 0
        if not any(payload.get(k) for k in CALLER_KEYS):
            return 0
        found = self.searches.output(name, path, payload.get("generation"))
        return self.counter.count_bytes(found) if found else 0

    def _measure_unheld(self, record: CallRecord, unheld: _Unheld) -> CallRecord:
        record.answer_bytes = unheld.answer_bytes
        if self.log is not None:
            record.tokens_used = -(-unheld.answer_bytes // BYTES_PER_TOKEN)
            record.tokenizer = FALLBACK
        if unheld.is_error:
            record.error = "error"
            return record
        record.outcome = HIT
        return record

    def _file_tokens(self, rel: str) -> int | None:
        try:
            data = read_confined(self.root_real, rel, MAX_FILE_BYTES)
        except (Refused, OSError):  # gone, a directory, too large, a link out of the root
            return None
        return self.counter.count_bytes(data)
