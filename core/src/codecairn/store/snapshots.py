"""The SQL of shared snapshots (codecairn/snapshot.py): a copy of an index stripped to what a team
shares, and a copy adopted as a new root's index. Each works on its own connection to a file no
one else has open."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Collection
from pathlib import Path


def copy_for_sharing(
    db: Path, copy: Path, shared_tables: Collection[str], shared_meta: Collection[str], versions: dict[str, str]
) -> tuple[int, int]:
    """Copy ``db`` to ``copy`` with only the shared tables and meta keys (no memories, nothing
    personal), the plugins' versions recorded; -> (files, symbols)."""
    source = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        source.execute("VACUUM INTO ?", (str(copy),))
    finally:
        source.close()
    con = sqlite3.connect(copy, isolation_level=None)
    try:
        con.execute("PRAGMA journal_mode=DELETE")
        con.execute("PRAGMA secure_delete=ON")  # deleted memories leave no text in free pages
        con.execute("BEGIN")
        for (name,) in con.execute(
            "SELECT name FROM pragma_table_list WHERE schema='main' AND type IN ('table', 'virtual') "
            "AND name NOT LIKE 'sqlite_%'"
        ).fetchall():
            if name not in shared_tables:
                con.execute(f'DELETE FROM "{name}"')  # memories and anything else personal
        con.execute(f"DELETE FROM meta WHERE key NOT IN ({','.join('?' * len(shared_meta))})", tuple(shared_meta))
        con.execute(
            "INSERT INTO meta(key, value) VALUES ('snapshot_plugins', ?)", (json.dumps(versions, sort_keys=True),)
        )
        con.execute("UPDATE files SET mtime_ns = 0")
        con.execute("COMMIT")
        # Rebuilt from content alone: no trace of what was deleted, and the same index always
        # gives the same bytes (an unchanged index is nothing new to commit).
        con.execute("VACUUM")
        files = con.execute("SELECT COUNT(*) FROM files").fetchone()[0]
        symbols = con.execute("SELECT COUNT(*) FROM symbols").fetchone()[0]
    finally:
        con.close()
    return files, symbols


def holds_index(db: Path) -> bool:
    """Does ``db`` hold an index already? (True when it cannot be read: not ours to replace.)"""
    if not db.exists():
        return False
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        try:
            return con.execute("SELECT EXISTS (SELECT 1 FROM files)").fetchone()[0] == 1
        finally:
            con.close()
    except sqlite3.Error:
        return True


def adoption_facts(path: Path) -> tuple[int, list[str], dict[str, str]]:
    """A snapshot copy's schema version, integrity check and meta table."""
    con = sqlite3.connect(path, isolation_level=None)
    try:
        version = con.execute("PRAGMA user_version").fetchone()[0]
        check = [r[0] for r in con.execute("PRAGMA quick_check").fetchall()]
        meta = dict(con.execute("SELECT key, value FROM meta").fetchall()) if check == ["ok"] else {}
        return version, check, meta
    finally:
        con.close()


def adopt(path: Path, root: Path, reparse: list[str]) -> tuple[int, int]:
    """Make a snapshot copy ``root``'s index: every file is read and hashed on the next run, the
    files of ``reparse`` languages parsed again; -> (files, symbols)."""
    con = sqlite3.connect(path, isolation_level=None)
    try:
        con.execute("BEGIN")
        now = time.time()
        con.executemany(
            "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value=excluded.value",
            [("root", str(root)), ("created_at", str(now)), ("imported_at", str(now))],
        )
        con.execute("UPDATE files SET mtime_ns = -1")  # read and hash every file on the next run
        if reparse:
            con.execute(f"UPDATE files SET hash = '' WHERE language IN ({','.join('?' * len(reparse))})", reparse)
        con.execute("COMMIT")
        files = con.execute("SELECT COUNT(*) FROM files").fetchone()[0]
        symbols = con.execute("SELECT COUNT(*) FROM symbols").fetchone()[0]
        return files, symbols
    finally:
        con.close()


def summary(db: Path) -> tuple[dict[str, str], int, int]:
    """An index's root and last use (meta), files and symbols, read without opening it as a store
    (`codecairn workspaces`). Raises sqlite3.Error when it cannot be read."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=2)
    try:
        meta = dict(con.execute("SELECT key, value FROM meta WHERE key IN ('root', 'last_used_at')").fetchall())
        files = con.execute("SELECT COUNT(*) FROM files").fetchone()[0]
        symbols = con.execute("SELECT COUNT(*) FROM symbols").fetchone()[0]
        return meta, files, symbols
    finally:
        con.close()
