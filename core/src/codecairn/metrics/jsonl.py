"""The metrics log: JSON Lines beside the workspace's database, rotated by size.

``<database>.metrics.jsonl`` takes the newest records; when a write would take it past
``max_bytes`` it becomes ``<database>.metrics.1.jsonl`` (the older ones move up one) and the
oldest beyond ``keep`` is deleted — its totals are first added to ``<database>.metrics.totals.json``,
so "all time" still counts what rotation deleted. Several servers may log for one workspace: a
write is one ``O_APPEND`` write of whole lines, and rotation happens under an exclusive
``flock`` of ``<database>.metrics.lock``.

A write that fails (a full disk, a read-only directory) loses those records, never the call: it
is counted (``dropped``), logged once per failure streak, and the next write starts on a fresh
line so that a half-written one stays a single malformed line, which readers skip.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import logging
import os
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path

from codecairn.metrics.record import ERROR, HIT, MISS, CallRecord
from codecairn.model import CallTotals

log = logging.getLogger("codecairn.metrics")

DEFAULT_MAX_BYTES = 16 * 1024 * 1024
DEFAULT_KEEP = 8  # rotated files kept beside the current one


def log_path(database: Path) -> Path:
    """Where the metrics of the workspace whose index is ``database`` go."""
    database = Path(database)
    return database.with_name(database.stem + ".metrics.jsonl")


def add_record(totals: CallTotals, record: CallRecord) -> None:
    totals.calls += 1
    if record.outcome == HIT:
        totals.hits += 1
    elif record.outcome == MISS:
        totals.misses += 1
    elif record.outcome == ERROR:
        totals.errors += 1
    totals.tokens_used += int(record.tokens_used or 0)
    totals.tokens_saved += int(record.tokens_saved or 0)


def _add(into: CallTotals, other: CallTotals) -> None:
    for name, value in asdict(other).items():
        setattr(into, name, getattr(into, name) + value)


class MetricsLog:
    def __init__(self, path: Path, *, max_bytes: int = DEFAULT_MAX_BYTES, keep: int = DEFAULT_KEEP) -> None:
        self.path = Path(path)
        self.max_bytes = max(1024, max_bytes)
        self.keep = max(1, keep)
        stem = self.path.name.removesuffix(".jsonl")
        self._stem = stem
        self.lock_path = self.path.with_name(stem + ".lock")
        self.archive_path = self.path.with_name(stem + ".totals.json")
        self.dropped = 0  # records that could not be written
        self.last_error: str = ""
        self._failing = False
        self._cached: dict[str, tuple[tuple, CallTotals, int]] = {}  # see totals()

    def rotated(self, n: int) -> Path:
        return self.path.with_name(f"{self._stem}.{n}.jsonl")

    def files(self) -> list[Path]:
        """Every log file there is, oldest first."""
        # Regular files only: whatever else is there under the name (a device, a FIFO) is not read.
        out = [self.rotated(n) for n in range(self.keep + 8, 0, -1) if self.rotated(n).is_file()]
        if self.path.is_file():
            out.append(self.path)
        return out

    # ---- writing ----------------------------------------------------------------------------

    def append(self, records: list[CallRecord]) -> bool:
        """Append records as JSON lines; False (and counted in ``dropped``) when they could not be."""
        if not records:
            return True
        data = "".join(json.dumps(r.to_json(), ensure_ascii=False, separators=(",", ":")) + "\n" for r in records)
        payload = data.encode("utf-8", "surrogatepass")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self._locked():
                self._rotate_if_full(len(payload))
                if self._failing:
                    payload = b"\n" + payload  # end a line a failed write may have left half-written
                fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o600)
                try:
                    view = memoryview(payload)
                    while view:
                        written = os.write(fd, view)
                        view = view[written:]
                finally:
                    os.close(fd)
        except OSError as exc:
            self.dropped += len(records)
            self.last_error = f"{exc.strerror or exc} ({errno.errorcode.get(exc.errno or 0, '?')})"
            if not self._failing:
                log.warning("metrics: cannot write %s: %s; calls go on, their records are lost", self.path, exc)
            self._failing = True
            return False
        if self._failing:
            log.info("metrics: writing %s again (%d records were lost)", self.path, self.dropped)
        self._failing = False
        return True

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)  # closing drops the lock

    def _rotate_if_full(self, adding: int) -> None:
        try:
            size = os.stat(self.path).st_size
        except FileNotFoundError:
            return
        if size == 0 or size + adding <= self.max_bytes:
            return
        oldest = self.rotated(self.keep)
        if oldest.exists():
            self._archive(oldest)
            oldest.unlink()
        for n in range(self.keep - 1, 0, -1):
            if self.rotated(n).exists():
                os.replace(self.rotated(n), self.rotated(n + 1))
        os.replace(self.path, self.rotated(1))

    def _archive(self, doomed: Path) -> None:
        """Keep the totals of a file rotation is about to delete."""
        archived = self.archived()
        totals, _ = self._read_totals(doomed, 0)
        _add(archived, totals)
        tmp = self.archive_path.with_suffix(".tmp")
        tmp.write_text(json.dumps(asdict(archived)))
        os.replace(tmp, self.archive_path)

    def archived(self) -> CallTotals:
        try:
            data = json.loads(self.archive_path.read_text())
            return CallTotals(**{k: int(v) for k, v in data.items() if k in CallTotals.__dataclass_fields__})
        except (OSError, ValueError, TypeError):
            return CallTotals()

    # ---- reading ----------------------------------------------------------------------------

    def records(self) -> Iterator[CallRecord]:
        """Every record in the log files, oldest first; malformed lines are skipped."""
        for path in self.files():
            yield from read_records(path)

    def totals(self) -> CallTotals:
        """All-time totals: what rotation deleted, plus every record in the files. Files read
        before are not read again (rotated ones do not change; the current one is read on from
        where the last read stopped)."""
        out = self.archived()
        seen: dict[str, tuple[tuple, CallTotals, int]] = {}
        for path in self.files():
            try:
                st = os.stat(path)
            except OSError:
                continue
            key = (st.st_ino, st.st_dev)
            cached = self._cached.get(str(key))
            if cached is not None and cached[0] == key and cached[2] <= st.st_size:
                totals, offset = cached[1], cached[2]
                if offset < st.st_size:
                    more, offset = self._read_totals(path, offset)
                    totals = CallTotals(**asdict(totals))
                    _add(totals, more)
            else:
                totals, offset = self._read_totals(path, 0)
            seen[str(key)] = (key, totals, offset)
            _add(out, totals)
        self._cached = seen
        return out

    @staticmethod
    def _read_totals(path: Path, offset: int) -> tuple[CallTotals, int]:
        """Totals of the whole lines from ``offset``; and where the last whole line ended."""
        totals = CallTotals()
        try:
            with open(path, "rb") as fh:
                fh.seek(offset)
                for line in fh:
                    if not line.endswith(b"\n"):
                        break  # being written: read it next time
                    offset += len(line)
                    record = parse_line(line)
                    if record is not None:
                        add_record(totals, record)
        except OSError:
            pass
        return totals, offset


def parse_line(line: bytes | str) -> CallRecord | None:
    try:
        data = json.loads(line)
        if not isinstance(data, dict):
            return None
        return CallRecord.from_json(data)
    except (ValueError, TypeError):
        return None


def read_records(path: Path) -> Iterator[CallRecord]:
    try:
        with open(path, "rb") as fh:
            for line in fh:
                record = parse_line(line)
                if record is not None:
                    yield record
    except OSError:
        return


__all__ = ["ERROR", "HIT", "MISS", "MetricsLog", "log_path", "read_records"]
