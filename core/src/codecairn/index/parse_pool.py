"""Parse + extract in worker processes (tree-sitter holds the GIL while parsing, so threads do
not help). A worker reads the file itself, hashes it, and only parses when the hash changed.

Results travel back as plain tuples, and stay so (see from_wire): pickle rebuilds a NamedTuple
through its Python-level ``__new__``, which made unpickling the main process's largest cost on a
cold index (plain tuples pickle and unpickle ~5x faster).
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections import OrderedDict
from concurrent.futures import Future
from typing import Any

from codecairn.hookspecs import Language
from codecairn.index.process_pool import ProcessPool
from codecairn.model import FileFacts
from codecairn.paths import Refused, read_confined

BINARY_SNIFF = 8192

_languages: dict[str, Language] = {}
_parsers: dict[str, Any] = {}
# The files parsed last in this process (the narrow path: an agent edits the same few files again
# and again), with their bytes and tree, so the next parse of one is incremental: tree-sitter
# re-parses the changed region only (argparse.py: 13 ms from scratch, 0.1-0.3 ms after an edit).
# (real root, path) -> (language, bytes, tree). Only inline parses of a few files keep one, and only
# so many bytes of source in all: a tree takes about 20 times its file's size (argparse.py: 2.1 MB).
RECENT_TREES = 8
RECENT_BYTES = 256 << 10
_recent: OrderedDict[tuple[str, str], tuple[str, bytes, Any]] = OrderedDict()
_recent_lock = threading.Lock()  # inline parses of two roots may run in two threads at once


def _init(languages: dict[str, Language]) -> None:
    global _languages
    _languages = languages
    _parsers.clear()
    with _recent_lock:
        _recent.clear()


def _parser(name: str):
    parser = _parsers.get(name)
    if parser is None:
        import tree_sitter

        grammar = _languages[name].grammar()
        if not isinstance(grammar, tree_sitter.Language):
            grammar = tree_sitter.Language(grammar)
        parser = _parsers[name] = tree_sitter.Parser(grammar)
    return parser


def content_hash(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def count_lines(data: bytes) -> int:
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)


def _changed_span(old: bytes, new: bytes) -> tuple[int, int, int]:
    """(start, old end, new end): the bytes before ``start`` and from each end on are the same."""
    limit = min(len(old), len(new))
    lo, hi = 0, limit  # the longest common prefix, by halving (each comparison is one memcmp)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if old[lo:mid] == new[lo:mid]:
            lo = mid
        else:
            hi = mid - 1
    start = lo
    lo, hi = 0, limit - start  # ...and suffix, not overlapping the prefix
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if old[len(old) - mid : len(old) - lo] == new[len(new) - mid : len(new) - lo]:
            lo = mid
        else:
            hi = mid - 1
    return start, len(old) - lo, len(new) - lo


def _point(data: bytes, byte: int) -> tuple[int, int]:
    row = data.count(b"\n", 0, byte)
    return row, byte - (data.rfind(b"\n", 0, byte) + 1)


def _parse(root: str, path: str, language: str, data: bytes, keep: bool) -> Any:
    """The file's tree; with ``keep``, incrementally from the tree its last parse here left."""
    parser = _parser(language)
    if not keep or len(data) > RECENT_BYTES:
        return parser.parse(data)
    key = (root, path)
    with _recent_lock:
        last = _recent.pop(key, None)
    if last is not None and last[0] == language:
        _, old, tree = last
        start, old_end, new_end = _changed_span(old, data)
        tree.edit(
            start_byte=start,
            old_end_byte=old_end,
            new_end_byte=new_end,
            start_point=_point(old, start),
            old_end_point=_point(old, old_end),
            new_end_point=_point(data, new_end),
        )
        tree = parser.parse(data, tree)
    else:
        tree = parser.parse(data)
    with _recent_lock:
        _recent[key] = (language, data, tree)
        while len(_recent) > RECENT_TREES or sum(len(kept[1]) for kept in _recent.values()) > RECENT_BYTES:
            _recent.popitem(last=False)
    return tree


def parse_one(root: str, path: str, language: str, old_hash: str | None, keep: bool = False) -> tuple:
    """``root`` is a real path (parse_chunk makes it one): reads are confined to it. ``keep``: an
    inline parse, whose tree is kept for the next parse of the file (incremental).

    -> ("parsed", path, hash, lines, facts) | ("same", path, hash) | ("skipped", path, reason)
    | ("failed", path, error)."""
    try:
        data = read_confined(root, path)  # swapped for a link out of the root since the walk: refused
    except Refused as exc:
        return ("skipped", path, str(exc).removeprefix(path).strip())
    except OSError as exc:
        return ("skipped", path, f"unreadable ({exc.strerror or exc})")
    if b"\0" in data[:BINARY_SNIFF]:
        return ("skipped", path, "binary")
    digest = content_hash(data)
    if digest == old_hash:
        return ("same", path, digest)
    try:
        tree = _parse(root, path, language, data, keep)
        facts = _languages[language].extractor(data, tree, path)
    except Exception as exc:  # a plugin's bug must cost one file, not the index
        return ("failed", path, f"{type(exc).__name__}: {exc}")
    return ("parsed", path, digest, count_lines(data), facts)


def parse_chunk(root: str, jobs: list[tuple[str, str, str | None]], keep: bool = False) -> list[tuple]:
    root = os.path.realpath(root)  # what every read is confined to (a root given through a link)
    return [parse_one(root, path, language, old_hash, keep) for path, language, old_hash in jobs]


def parse_chunk_for_wire(root: str, jobs: list[tuple[str, str, str | None]]) -> list[tuple]:
    """parse_chunk in a worker: facts flattened to plain tuples for the trip (see from_wire)."""
    out = parse_chunk(root, jobs)
    for i, result in enumerate(out):
        if result[0] == "parsed":
            facts = result[4]
            flat = (
                list(map(tuple, facts.symbols)),
                list(map(tuple, facts.relations)),
                list(map(tuple, facts.imports)),
                list(map(tuple, facts.exports)),
                *facts[4:],
            )
            out[i] = (*result[:4], flat)
    return out


_FACTS = tuple.__new__  # a FileFacts from a plain tuple, without its Python-level __new__


def from_wire(results: list[tuple]) -> list[tuple]:
    """parse_chunk_for_wire's results with a FileFacts around each file's facts (C-level). The
    symbols, relations, imports and exports stay plain tuples, in their NamedTuples' field order:
    Store.write_batch and EdgeBuffer read them by position, and rebuilding ≈ 10^6 NamedTuples cost
    the indexing process 0.3 s on CPython's Lib."""
    for i, result in enumerate(results):
        if result[0] == "parsed":
            results[i] = (*result[:4], _FACTS(FileFacts, result[4]))
    return results


class ParsePool:
    """A process pool sized to the cores, started lazily and kept for the workspace's life."""

    def __init__(self, languages: dict[str, Language], workers: int | None = None) -> None:
        self.languages = languages
        self.workers = workers or max(1, min(os.cpu_count() or 1, 8))
        self._processes: ProcessPool | None = None

    def _ensure(self) -> ProcessPool:
        if self._processes is None:
            # Fresh interpreters, not forks: workers never inherit the server's threads
            # (aiosqlite, asyncio) mid-lock, nor its memory.
            self._processes = ProcessPool(self.workers, initializer=_init, initargs=(self.languages,))
        return self._processes

    def submit(self, root: str, jobs: list[tuple[str, str, str | None]]) -> Future:
        """A future of parse_chunk's results in wire form: pass them through from_wire."""
        return self._ensure().submit(parse_chunk_for_wire, root, jobs)

    def parse_inline(self, root: str, jobs: list[tuple[str, str, str | None]]) -> list[tuple]:
        """For a handful of files the pool's round trip costs more than the parse."""
        if _languages is not self.languages:
            _init(self.languages)
        return parse_chunk(root, jobs, keep=len(jobs) <= RECENT_TREES)

    def close(self) -> None:
        if self._processes is not None:
            self._processes.shutdown()
            self._processes = None
