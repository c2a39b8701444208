"""The PostgreSQL copy of the metrics log (``CODECAIRN_METRICS_DB_URL``; the ``postgres`` extra).

The JSON Lines log is the record; this is a copy for SQL, kept by a thread of its own so that
PostgreSQL can never delay an answer nor the log: the recorder hands it records already written
to JSONL, and it sends them in batches through a psycopg 3 connection pool. When PostgreSQL is
down, slow, refuses the password or drops the connection, the batch in hand is let go (it is in
the log), the pool is closed, and connecting is tried again after a growing pause (0.5 s, 1 s,
2 s ... at most a minute, jittered). Every (re)connection first *backfills*: it re-sends the log's
records from the last point known to be copied (``<log>.pg.json``: "every record before this time
is in PostgreSQL"), and the table ignores those it already has (rows are keyed by record id).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import logging
import os
import random
import threading
import time
from collections import deque
from typing import Any

from codecairn.errors import clipped
from codecairn.metrics.jsonl import MetricsLog
from codecairn.metrics.record import CallRecord, format_time, parse_time
from codecairn.store import metrics_table

log = logging.getLogger("codecairn.metrics")

BATCH = 200
SEND_EVERY = 0.5  # seconds between batches while records keep coming
CONNECT_TIMEOUT = 5  # seconds: a server that does not answer is "down", not waited for
STATEMENT_TIMEOUT_MS = 10_000  # a statement that hangs (a locked table, a stopped server) is given up
FIRST_PAUSE, MAX_PAUSE = 0.5, 60.0
STALLED_AFTER = 5.0  # seconds a statement may take before stats calls the copy stalled
MAX_WAITING = 50_000  # records held in memory while disconnected; the backfill re-reads the rest
# A record is appended when its call ends; one that started before the backfill looked may land
# after: the watermark stays this far behind what a backfill read.
WATERMARK_MARGIN = dt.timedelta(minutes=10)


def _short(exc: BaseException) -> str:
    # psycopg's messages name host, port and user, never the password
    return clipped(f"{type(exc).__name__}: {str(exc).strip().splitlines()[0] if str(exc).strip() else ''}", 200)


class PostgresSink:
    def __init__(self, url: str, metrics_log: MetricsLog, *, name: str = "codecairn-metrics-pg") -> None:
        self._url = url
        self.log = metrics_log
        self.watermark_path = metrics_log.path.with_name(metrics_log.path.name.removesuffix(".jsonl") + ".pg.json")
        self._waiting: deque[CallRecord] = deque()
        self._cond = threading.Condition()
        self._stop = False
        self._pool: Any = None
        self.state = "connecting"  # connected | unreachable | refused | unavailable
        self.last_error = ""
        self.written = 0  # rows sent (new or already there)
        self.backfilled = 0  # records re-sent from the log after a (re)connection
        self.overflowed = False  # records were let go from memory: the next backfill re-reads them
        self._pause = FIRST_PAUSE
        self._next_try = 0.0
        self._busy_since: float | None = None  # when the statement in flight was sent (a stall shows)
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    # ---- the recorder's side ----------------------------------------------------------------

    def put(self, records: list[CallRecord]) -> None:
        with self._cond:
            self._waiting.extend(records)
            while len(self._waiting) > MAX_WAITING:
                self._waiting.popleft()
                self.overflowed = True
            self._cond.notify()

    def status(self) -> dict[str, Any]:
        """What ``stats`` shows: ``state`` is connecting, connected, stalled (a statement has hung
        for more than STALLED_AFTER seconds: a frozen or overloaded server), unreachable, refused
        (password, user or database) or unavailable (psycopg is not installed)."""
        busy = self._busy_since
        stalled = busy is not None and time.monotonic() - busy > STALLED_AFTER
        out: dict[str, Any] = {"state": "stalled" if stalled else self.state, "written": self.written}
        if self._waiting:
            out["waiting"] = len(self._waiting)
        if self.backfilled:
            out["backfilled"] = self.backfilled
        if self.last_error and self.state != "connected":
            out["error"] = self.last_error
        return out

    def close(self, timeout: float = 5.0) -> None:
        """Send what is waiting (if connected), then stop; never waits longer than ``timeout``."""
        with self._cond:
            self._stop = True
            self._cond.notify()
        self._thread.join(timeout)

    def wait_idle(self, timeout: float) -> bool:
        """For tests and the report's --backfill: until nothing waits and a connection is up."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.state == "connected" and not self._waiting:
                return True
            time.sleep(0.05)
        return False

    # ---- the thread ----------------------------------------------------------------------------

    def _run(self) -> None:
        try:
            while True:
                with self._cond:
                    if not self._stop:
                        if self._pool is None:  # disconnected: sleep until the next try (or a stop)
                            pause = self._next_try - time.monotonic()
                            timeout = None if pause == float("inf") else max(0.0, pause)
                        else:  # connected: wake for records (a moment's grace gathers a batch)
                            timeout = SEND_EVERY if self._waiting else None
                        self._cond.wait(timeout)
                    stopping = self._stop
                if self._pool is None and not stopping and time.monotonic() >= self._next_try:
                    self._connect()
                if self._pool is not None:
                    self._send_waiting()
                if stopping:
                    return
        except Exception:  # never let the copy take anything else down with it
            log.exception("metrics: the PostgreSQL copy stopped; records stay in the log")
        finally:
            self._close_pool()

    def _connect(self) -> bool:
        try:
            from psycopg_pool import ConnectionPool
        except ImportError:
            self.state, self.last_error = "unavailable", "psycopg is not installed: pip install 'codecairn[postgres]'"
            log.warning("metrics: not copying to PostgreSQL: %s", self.last_error)
            self._next_try = float("inf")
            return False
        kwargs: dict[str, Any] = {
            "connect_timeout": CONNECT_TIMEOUT,
            "options": f"-c statement_timeout={STATEMENT_TIMEOUT_MS}",
            "autocommit": True,
            "application_name": "codecairn-metrics",
        }
        try:  # one direct connection first: it fails at once, saying why (the pool would only time out)
            import psycopg

            self._busy_since = time.monotonic()
            with psycopg.connect(self._url, **kwargs) as conn:
                metrics_table.ensure_table(conn)
            pool = ConnectionPool(
                self._url,
                min_size=1,
                max_size=2,
                open=False,
                timeout=CONNECT_TIMEOUT,
                check=ConnectionPool.check_connection,  # a dropped connection is replaced, not used
                kwargs=kwargs,
            )
            try:
                pool.open(wait=True, timeout=CONNECT_TIMEOUT)
            except Exception:
                with contextlib.suppress(Exception):
                    pool.close(timeout=1)
                raise
        except Exception as exc:
            self._failed(exc)
            return False
        finally:
            self._busy_since = None
        was = self.state
        self._pool, self.state, self._pause = pool, "connected", FIRST_PAUSE
        log.info("metrics: copying to PostgreSQL%s", " again" if was != "connecting" else "")
        self._backfill()
        return self._pool is not None

    def _failed(self, exc: BaseException) -> None:
        reason = _short(exc)
        refused = "password" in reason or "authentication" in reason or "does not exist" in reason
        state = "refused" if refused else "unreachable"
        if state != self.state or reason != self.last_error:
            log.warning("metrics: PostgreSQL %s (%s); records stay in %s and are copied later", state, reason,
                        self.log.path.name)  # fmt: skip
        self.state, self.last_error = state, reason
        self._close_pool()
        self._next_try = time.monotonic() + self._pause * random.uniform(0.8, 1.2)
        self._pause = min(MAX_PAUSE, self._pause * 2)

    def _close_pool(self) -> None:
        if self._pool is not None:
            pool, self._pool = self._pool, None
            with contextlib.suppress(Exception):
                pool.close(timeout=1)

    def _send_waiting(self) -> None:
        while self._pool is not None:
            with self._cond:
                batch = [self._waiting.popleft() for _ in range(min(BATCH, len(self._waiting)))]
                overflowed, self.overflowed = self.overflowed, False
            if overflowed:
                self._backfill()
            if not batch:
                return
            self._busy_since = time.monotonic()
            try:
                with self._pool.connection() as conn:
                    metrics_table.insert(conn, batch)
                self.written += len(batch)
            except Exception as exc:
                # The batch is in the log: the backfill after reconnecting sends it.
                self._failed(exc)
                return
            finally:
                self._busy_since = None

    # ---- backfill --------------------------------------------------------------------------------

    def _watermark(self) -> str | None:
        try:
            return json.loads(self.watermark_path.read_text())["synced_before"]
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def _set_watermark(self, moment: dt.datetime) -> None:
        current = self._watermark()
        if current is not None and parse_time(current) >= moment:
            return
        tmp = self.watermark_path.with_suffix(".tmp")
        with contextlib.suppress(OSError):
            tmp.write_text(json.dumps({"synced_before": format_time(moment)}))
            os.replace(tmp, self.watermark_path)

    def _backfill(self) -> None:
        """Re-send the log's records from the watermark on (the table keeps the ones it has)."""
        started = dt.datetime.now(dt.UTC)
        since = self._watermark()
        sent = 0
        batch: list[CallRecord] = []
        self._busy_since = time.monotonic()
        try:
            for record in records_since(self.log, since):
                batch.append(record)
                if len(batch) >= 1000:
                    with self._pool.connection() as conn:
                        metrics_table.insert(conn, batch)
                    sent, batch = sent + len(batch), []
            if batch:
                with self._pool.connection() as conn:
                    metrics_table.insert(conn, batch)
                sent += len(batch)
        except Exception as exc:
            self._failed(exc)
            return
        finally:
            self._busy_since = None
        self.backfilled += sent
        if sent:
            log.info("metrics: backfilled %d records to PostgreSQL", sent)
        self._set_watermark(started - WATERMARK_MARGIN)


def records_since(metrics_log: MetricsLog, since: str | None) -> Any:
    """The log's records with a time at or after ``since`` (all of them for None). The time is each
    line's first field, so older lines are passed over without being parsed."""
    from codecairn.metrics.jsonl import parse_line

    prefix = b'{"time":"'
    for path in metrics_log.files():
        try:
            fh = open(path, "rb")
        except OSError:
            continue
        with fh:
            for line in fh:
                if since is not None and line.startswith(prefix):
                    stamp = line[len(prefix) : len(prefix) + 24].decode("ascii", "replace")
                    if stamp < since:
                        continue
                record = parse_line(line)
                if record is not None:
                    yield record


def read_rows(url: str, root: str) -> list[dict[str, Any]]:
    """Every mcp_calls row of ``root``, oldest first, as record JSON (the report's ``--from-db``)."""
    try:
        import psycopg
    except ImportError as exc:
        raise ValueError("reading PostgreSQL needs psycopg: pip install 'codecairn[postgres]'") from exc
    try:
        with psycopg.connect(url, connect_timeout=CONNECT_TIMEOUT) as conn:
            return list(metrics_table.rows(conn, root=root))
    except psycopg.Error as exc:
        raise ValueError(f"cannot read mcp_calls from PostgreSQL: {_short(exc)}") from exc
