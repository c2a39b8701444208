"""The ``history`` tables: what each write through the edit tools changed, and what undoing it
needs — each file's bytes before the write, zstd-compressed.

An entry is recorded in the same transaction in which its files are written (``record`` runs the
write inside it): both happen, or neither. The history is bounded by entries and by the bytes of
kept before-states, oldest evicted first; a before-state larger than the whole budget is not kept
(the entry says so, and cannot be undone). Shared snapshots never carry these tables.
"""

from __future__ import annotations

import os
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

import zstandard

from codecairn.model import HistoryEntry, HistoryFile
from codecairn.store.transactions import one_transaction

MAX_ENTRIES = int(os.environ.get("CODECAIRN_HISTORY_ENTRIES", 200))
MAX_BYTES = int(os.environ.get("CODECAIRN_HISTORY_BYTES", 64 * 1024 * 1024))
LEVEL = 3


@dataclass
class Change:
    """One file of a write, as recorded."""

    root: str  # real path of its declared root
    path: str  # root-relative
    sha256_before: str
    sha256_after: str
    mode: int | None
    before: bytes | None  # None: the file did not exist


@dataclass
class Recorded:
    """A stored change with what undoing it needs (``before`` decompressed)."""

    root: str
    path: str
    sha256_before: str
    sha256_after: str
    mode: int | None
    before: bytes | None
    kept: bool


async def record(
    db_path: Path,
    tool: str,
    changes: list[Change],
    write: Callable[[], Awaitable[None]],
    undoes: int | None = None,
    budget: int | None = None,
) -> int:
    """Store an entry for ``changes`` and run ``write`` inside the same transaction; the entry's id.
    When ``write`` raises, nothing is stored."""
    budget = MAX_BYTES if budget is None else budget
    compressor = zstandard.ZstdCompressor(level=LEVEL)
    blobs = [compressor.compress(c.before) if c.before is not None else None for c in changes]
    size = sum(len(b) for b in blobs if b is not None)
    kept = size <= budget
    async with one_transaction(db_path) as db:
        cursor = await db.execute(
            "INSERT INTO history(created_at, tool, size, undoes) VALUES (?, ?, ?, ?)",
            (time.time(), tool, size if kept else 0, undoes),
        )
        entry_id = cursor.lastrowid
        assert entry_id is not None
        await db.executemany(
            "INSERT INTO history_files(entry_id, position, root, path, sha256_before, sha256_after, mode, before, kept) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    entry_id,
                    i,
                    c.root,
                    c.path,
                    c.sha256_before,
                    c.sha256_after,
                    c.mode,
                    blob if kept else None,
                    int(kept),
                )
                for i, (c, blob) in enumerate(zip(changes, blobs))
            ],
        )
        if undoes is not None:
            await db.execute("UPDATE history SET undone_by=? WHERE id=?", (entry_id, undoes))
        await _evict(db, budget)
        await write()
    return entry_id


async def _evict(db, budget: int) -> None:
    """Oldest first: beyond MAX_ENTRIES entries, then beyond ``budget`` bytes of before-states."""
    rows = await db.execute_fetchall("SELECT id, size FROM history ORDER BY id DESC")
    total, doomed = 0, []
    for index, (entry_id, size) in enumerate(rows):
        total += size
        if index >= MAX_ENTRIES or total > budget:
            doomed.append((entry_id,))
    if doomed:
        await db.executemany("DELETE FROM history WHERE id=?", doomed)
        await db.executemany("DELETE FROM history_files WHERE entry_id=?", doomed)


async def entries(reader, limit: int, root: str | None = None, path: str | None = None) -> list[HistoryEntry]:
    """The newest ``limit`` entries (only those touching ``root``/``path`` when given), newest first."""
    if path is not None:
        ids = [
            r[0]
            for r in await reader.execute_fetchall(
                "SELECT DISTINCT entry_id FROM history_files WHERE root=? AND (path=? OR substr(path, 1, ?)=?) "
                "ORDER BY entry_id DESC LIMIT ?",  # a file, or every file under a directory
                (root, path, len(path) + 1, path.rstrip("/") + "/", limit),
            )
        ]
        if not ids:
            return []
        heads = await reader.execute_fetchall(
            f"SELECT id, created_at, tool, size, undoes, undone_by FROM history WHERE id IN ({','.join('?' * len(ids))}) "
            "ORDER BY id DESC",
            ids,
        )
    else:
        heads = await reader.execute_fetchall(
            "SELECT id, created_at, tool, size, undoes, undone_by FROM history ORDER BY id DESC LIMIT ?", (limit,)
        )
    if not heads:
        return []
    ids = [h[0] for h in heads]
    files: dict[int, list[tuple]] = {}
    for row in await reader.execute_fetchall(
        f"SELECT entry_id, root, path, sha256_before, sha256_after FROM history_files "
        f"WHERE entry_id IN ({','.join('?' * len(ids))}) ORDER BY entry_id, position",
        ids,
    ):
        files.setdefault(row[0], []).append(row[1:])
    return [
        HistoryEntry(
            h[0], h[1], h[2], [HistoryFile(f[1], f[2], f[3], f[0]) for f in files.get(h[0], [])], h[3], h[4], h[5]
        )
        for h in heads
    ]


async def entry(reader, entry_id: int) -> tuple[HistoryEntry, list[Recorded]] | None:
    """One entry with its files' before-states (for undo), or None when it is not (or no longer) kept."""
    heads = await reader.execute_fetchall(
        "SELECT id, created_at, tool, size, undoes, undone_by FROM history WHERE id=?", (entry_id,)
    )
    if not heads:
        return None
    h = heads[0]
    rows = await reader.execute_fetchall(
        "SELECT root, path, sha256_before, sha256_after, mode, before, kept FROM history_files "
        "WHERE entry_id=? ORDER BY position",
        (entry_id,),
    )
    decompressor = zstandard.ZstdDecompressor()
    recorded = [
        Recorded(r[0], r[1], r[2], r[3], r[4], decompressor.decompress(r[5]) if r[5] is not None else None, bool(r[6]))
        for r in rows
    ]
    head = HistoryEntry(
        h[0], h[1], h[2], [HistoryFile(r.path, r.sha256_before, r.sha256_after, r.root) for r in recorded]
    )
    head.size_bytes, head.undoes, head.undone_by = h[3], h[4], h[5]
    return head, recorded
