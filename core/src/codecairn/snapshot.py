"""A shareable snapshot of a root's index, committed with the code: ``.codecairn/index.db.zst``.

Export brings the index up to date, copies it consistently (``VACUUM INTO``), keeps only the
structural tables (files, symbols, edges, imports, exports — no memories, nothing personal),
drops machine-specific meta (the absolute root, timestamps, modification times) and compresses
it with zstd. Paths in the tables are root-relative already, and the store never holds source
text, so the snapshot holds neither absolute paths nor source.

Import happens when ``codecairn index`` finds a snapshot and the root has no index yet. Every
imported file's modification time is cleared, so the next run reads and hashes every file (a
clone's mtimes say nothing) and re-parses only those whose content hash differs from the
snapshot's — plus every file of a language whose plugin version differs from the exporter's,
since its facts might differ too.
"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import zstandard

from codecairn.errors import StoreError
from codecairn.paths import Refused, open_confined
from codecairn.store.schema import SCHEMA_VERSION
from codecairn.store.snapshots import adopt, adoption_facts, copy_for_sharing, holds_index
from codecairn.workspaces import IMPORT_SUFFIX, exclusive

if TYPE_CHECKING:
    from codecairn.host import PluginHost
    from codecairn.store.store import Store

SNAPSHOT_DIR = ".codecairn"
SNAPSHOT_NAME = "index.db.zst"
# `binary` first: it is a macro for -diff -merge -text, and a later `merge=ours` must win over its
# -merge (`git check-attr` shows `merge: unset` for "merge=ours binary").
GITATTRIBUTES_LINE = f"{SNAPSHOT_NAME} binary merge=ours"
SHARED_TABLES = frozenset({"files", "symbols", "edges", "imports", "exports", "meta"})
SHARED_META = frozenset({"generation", "resolved_once"})
LEVEL = 10  # zstd level: ~3x smaller than the database in about a second per 50 MB
MAX_EXPANSION = 64  # refuse a snapshot that would decompress to more than this many times its size


def snapshot_path(root: Path) -> Path:
    return Path(root) / SNAPSHOT_DIR / SNAPSHOT_NAME


def plugin_versions(host: PluginHost) -> dict[str, str]:
    """language -> "distribution version" of the plugin that provides it."""
    out = {}
    for info in host.plugins.values():
        for language in info.languages:
            out[language] = f"{info.distribution} {info.version}".strip()
    return out


# ---- export -------------------------------------------------------------------------------------


@dataclass
class Exported:
    path: Path
    size_bytes: int
    database_bytes: int
    files: int
    symbols: int
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": str(self.path),
            "size_bytes": self.size_bytes,
            "database_bytes": self.database_bytes,
            "files": self.files,
            "symbols": self.symbols,
            "seconds": round(self.seconds, 3),
        }


async def export_snapshot(
    root: Path, host: PluginHost, store: Store, lock: asyncio.Lock, output: Path | None = None, level: int = LEVEL
) -> Exported:
    """Write ``store`` (the index of ``root``) as a zstd snapshot; ``lock`` is the indexer's, held
    so that no write is in flight while the copy is taken."""
    import anyio

    started = time.perf_counter()
    target = Path(output) if output else snapshot_path(root)
    versions = plugin_versions(host)
    async with lock:
        try:
            result = await anyio.to_thread.run_sync(_export, store.path, target, versions, level)
        except sqlite3.DatabaseError as exc:  # its own connection's: said like the store's
            raise (store.explain(exc) or exc) from exc
    if output is None:
        write_gitattributes(target.parent)
    result.seconds = time.perf_counter() - started
    return result


def _export(db: Path, target: Path, versions: dict[str, str], level: int) -> Exported:
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".codecairn-export-", dir=target.parent) as tmp:
        copy = Path(tmp) / "index.db"
        files, symbols = copy_for_sharing(db, copy, SHARED_TABLES, SHARED_META, versions)
        database_bytes = copy.stat().st_size
        packed = Path(tmp) / SNAPSHOT_NAME
        with open(copy, "rb") as src, open(packed, "wb") as dst:
            zstandard.ZstdCompressor(level=level, threads=-1).copy_stream(src, dst, size=database_bytes)
        os.replace(packed, target)
    return Exported(target, target.stat().st_size, database_bytes, files, symbols, 0.0)


def write_gitattributes(folder: Path) -> Path:
    """``.codecairn/.gitattributes``: the snapshot is binary, and a merge keeps our side."""
    path = folder / ".gitattributes"
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        lines = []
    if GITATTRIBUTES_LINE not in lines:
        lines = [line for line in lines if not line.split()[:1] == [SNAPSHOT_NAME]] + [GITATTRIBUTES_LINE]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


# ---- import -------------------------------------------------------------------------------------


@dataclass
class Imported:
    snapshot: Path
    files: int
    symbols: int
    reparse_languages: list[str] = field(default_factory=list)  # plugin versions differ from the exporter's

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"snapshot": str(self.snapshot), "files": self.files, "symbols": self.symbols}
        if self.reparse_languages:
            out["reparse_languages"] = self.reparse_languages
        return out


def import_if_new(root: Path, db: Path, host: PluginHost) -> Imported | None:
    """Import ``root``'s snapshot into ``db`` when there is one and ``db`` holds no index yet."""
    snapshot = snapshot_path(root)
    try:
        found = snapshot.is_file()
    except OSError:  # a .codecairn directory this user may not read: no snapshot to use
        return None
    if not found or holds_index(db):
        return None
    with exclusive(db) as alone:
        if not alone or holds_index(db):  # someone has it open, or indexed it meanwhile
            return None
        return import_snapshot(snapshot, root, db, host)


def import_snapshot(snapshot: Path, root: Path, db: Path, host: PluginHost) -> Imported:
    """Decompress ``snapshot`` into ``db`` (replacing it), owned by ``root``. The caller makes sure
    nothing has ``db`` open."""
    db.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(f"{db}{IMPORT_SUFFIX}-{os.getpid()}")
    try:  # a snapshot in the repository that links out of it is not read
        fd = open_confined(os.path.realpath(root), os.path.relpath(snapshot, root))
    except Refused as exc:
        raise StoreError(f"{snapshot}: {exc}; not importing it") from None
    limit = max(1 << 30, MAX_EXPANSION * os.fstat(fd).st_size)
    try:
        with os.fdopen(fd, "rb") as src, open(tmp, "wb") as dst:
            reader = zstandard.ZstdDecompressor().stream_reader(src)
            written = 0
            while chunk := reader.read(1 << 20):
                written += len(chunk)
                if written > limit:
                    raise StoreError(f"{snapshot} decompresses to more than {limit} bytes; not importing it")
                dst.write(chunk)
        imported = _adopt(tmp, snapshot, root, host)
        for suffix in ("-wal", "-shm", "-journal"):  # a stale log must never be replayed onto the new file
            Path(f"{db}{suffix}").unlink(missing_ok=True)
        os.replace(tmp, db)
        return imported
    except zstandard.ZstdError as exc:
        raise StoreError(f"{snapshot} is not a zstd snapshot ({exc}); remove it or export it again") from None
    finally:
        tmp.unlink(missing_ok=True)


def _adopt(path: Path, snapshot: Path, root: Path, host: PluginHost) -> Imported:
    try:
        version, check, meta = adoption_facts(path)
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{snapshot} was exported by a newer codecairn (schema {version} > "
                f"{SCHEMA_VERSION}); upgrade codecairn to use it"
            )
        if check != ["ok"]:
            raise StoreError(f"{snapshot} is damaged ({'; '.join(check[:3])}); export it again")
        theirs = json.loads(meta.get("snapshot_plugins") or "{}")
        ours = plugin_versions(host)
        reparse = sorted(lang for lang, version in theirs.items() if ours.get(lang) not in (None, version))
        files, symbols = adopt(path, root, reparse)
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"{snapshot} is not a usable snapshot ({exc}); export it again") from None
    return Imported(snapshot, files, symbols, reparse)
