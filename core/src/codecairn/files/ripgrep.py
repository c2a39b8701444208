"""ripgrep, as the file tools run it: listings (``rg --files``) and text searches (``rg --json``).

The walk follows the index's rules, so that what a search sees is what the index sees: .gitignore
files at every level (even outside a git repository), hidden files included, the index's default
excluded directories (``node_modules``, ``build``, ``.git``...) left out — unless the scope names
one explicitly, which ripgrep honours by itself. ``.ignore``/``.rgignore`` files, parent
directories' and global ignore rules are not read (the walker does not read them either).

Everything ripgrep is given is one argument each, ``--glob=...`` and ``--regexp=...`` included, so
nothing an agent sends can be read as an option; scopes follow ``--``. Output is read as it comes
and ripgrep is killed as soon as a limit is reached, the time is up, or the call is cancelled
(codecairn.subprocesses).
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import re
import time
from dataclasses import dataclass, field

from codecairn import subprocesses
from codecairn.errors import BAD_ARGUMENT, UNAVAILABLE, ToolError, clipped
from codecairn.index.walker import DEFAULT_EXCLUDED_DIRS

SEARCH_TIMEOUT_SECONDS = float(os.environ.get("CODECAIRN_SEARCH_TIMEOUT", 15))
READ_CHUNK = 1 << 16
MAX_RECORD_BYTES = 4 << 20  # a JSON record longer than this (a match in a huge minified line) is read in part
KEPT_OF_LONG_RECORD = 64 << 10
LINE_CHARS = 240  # of a matched line shown; a longer one is cut around the match
ERRORS_KEPT = 5
MORE_COLUMNS = 20  # of one line's further matches, listed


def walk_arguments() -> list[str]:
    args = [
        "--no-config",
        "--hidden",
        "--no-require-git",
        "--no-ignore-parent",
        "--no-ignore-global",
        "--no-ignore-exclude",
        "--no-ignore-dot",
    ]
    args += [f"--glob=!{name}/" for name in sorted(DEFAULT_EXCLUDED_DIRS)]
    return args


def _globs(include: list[str], exclude: list[str]) -> list[str]:
    # rg: a later glob wins; includes first, excludes after them.
    return [f"--glob={form}" for g in include for form in _include_forms(g)] + [f"--glob=!{g}" for g in exclude]


def _include_forms(glob: str) -> list[str]:
    """An include glob, and, when its last part names no pattern (``tests``, ``src/app/``), the
    files under a directory of that name: a glob matches the paths of files, and an agent's
    ``include: ["tests"]`` means the tests directory (ripgrep alone found nothing). Like a
    .gitignore line, a name without an inner ``/`` is a directory at any depth."""
    name = glob.rstrip("/")
    last = name.rsplit("/", 1)[-1]
    if not name or name.startswith("!") or any(c in last for c in "*?[{"):
        return [glob]
    under = f"{name.lstrip('/')}/**" if "/" in name else f"**/{name}/**"
    return [glob, under]


def _scope(scope: str) -> list[str]:
    return ["--", scope] if scope else []


# ripgrep's advice names its own flags, which search_text does not take: said in the tool's terms
_ADVICE = (
    (
        re.compile(r"\n*Consider enabling multiline mode.*", re.S),
        "\nsearch_text matches within one line: search for one line of the text (context shows the lines "
        "around a match)",
    ),
    (
        re.compile(r"(error: (?:look-around|backreferences)[^\n]*)(?:\n*Consider enabling PCRE2.*)?", re.S),
        "\\1\nsearch for the text without them and narrow the matches with context or include",
    ),
    # (the answer's files_searched and hint say it, in the search's own terms)
    (re.compile(r"^[^\n]*(?:No files were searched|Running with --debug)[^\n]*\n?", re.M), ""),
)


def _in_our_terms(text: str) -> str:
    for pattern, replacement in _ADVICE:
        text = pattern.sub(replacement, text)
    return text.strip()


def _bad_usage(stderr: bytes, what: str) -> ToolError:
    text = stderr.decode("utf-8", "replace").strip()
    text = _in_our_terms(re.sub(r"^rg: ", "", text, flags=re.M))
    return ToolError(BAD_ARGUMENT, clipped(f"{what}: {text}" if text else f"{what}: ripgrep refused it"))


# ---- listings ------------------------------------------------------------------------------------


@dataclass
class Listed:
    paths: list[str]  # relative to the root ripgrep ran in, '/' separated
    total: int
    timed_out: bool = False


async def list_files(
    root: str,
    scope: str = "",
    include: list[str] | None = None,
    exclude: list[str] | None = None,
    limit: int = 500_000,
    timeout: float = SEARCH_TIMEOUT_SECONDS,
) -> Listed:
    """Files under ``root/scope`` that the walk rules let through, sorted; at most ``limit`` kept
    (``total`` counts them all); what is found in ``timeout`` seconds."""
    include, exclude = include or [], exclude or []
    walked = await walked_files(root, scope, timeout) if include else None
    args = ["--files", "--null", *walk_arguments(), *_globs(include, exclude), *_scope(scope)]
    paths: list[str] = []
    total = 0
    timed_out = False
    async with subprocesses.started("rg", args, root) as proc:
        assert proc.stdout is not None
        pending = b""
        try:
            async with asyncio.timeout(timeout):
                while chunk := await proc.stdout.read(READ_CHUNK):
                    pieces = (pending + chunk).split(b"\0")
                    pending = pieces.pop()
                    for piece in pieces:
                        if walked is not None and piece not in walked:
                            continue
                        total += 1
                        if len(paths) < limit:
                            paths.append(piece.decode("utf-8", "surrogateescape"))
                code = await proc.wait()
        except TimeoutError:
            timed_out, code = True, 0
    if code == 2 and not total:
        raise _bad_usage(getattr(proc, "stderr_head", b""), "the listing failed")
    paths = [p[2:] if p.startswith("./") else p for p in paths]
    paths.sort()
    return Listed(paths, total, timed_out)


async def walked_files(root: str, scope: str, timeout: float) -> frozenset[bytes] | None:
    """Every file the walk lets through under ``root/scope``, as ripgrep prints them. An include
    glob overrides ripgrep's ignore rules (``--glob=**/*.log`` lists the .gitignore'd
    ``debug.log``): what a glob finds is kept only if it is here too. None: not listed in time."""
    async with subprocesses.started("rg", ["--files", "--null", *walk_arguments(), *_scope(scope)], root) as proc:
        assert proc.stdout is not None
        try:
            async with asyncio.timeout(timeout):
                found = (await proc.stdout.read()).split(b"\0")
                await proc.wait()
        except TimeoutError:
            return None
    return frozenset(found)


# ---- searches ------------------------------------------------------------------------------------


@dataclass
class TextQuery:
    pattern: str
    literal: bool = False
    case: str = "smart"  # "sensitive" | "insensitive" | "smart"
    word: bool = False
    scope: str = ""  # root-relative directory or file ("" = the root)
    include: list[str] = field(default_factory=list)
    exclude: list[str] = field(default_factory=list)
    context: int = 0
    max_matches: int = 100
    max_bytes: int = 150_000  # of matched and context text kept
    timeout: float = SEARCH_TIMEOUT_SECONDS


@dataclass
class RawMatch:
    path: str  # relative to the root ripgrep ran in
    line: int
    column: int  # 1-based, characters
    text: str
    line_truncated: bool = False
    before: list[str] = field(default_factory=list)
    after: list[str] = field(default_factory=list)
    more_columns: list[int] = field(default_factory=list)  # the line's other matches (1-based, characters)


@dataclass
class Searched:
    matches: list[RawMatch]
    files_searched: int = 0
    files_matched: int = 0
    bytes_searched: int = 0
    limit_reached: bool = False
    limit_reason: str = ""
    timed_out: bool = False
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0


def search_arguments(q: TextQuery) -> list[str]:
    args = ["--json", *walk_arguments()]
    if q.literal:
        args.append("--fixed-strings")
    args.append({"sensitive": "--case-sensitive", "insensitive": "--ignore-case"}.get(q.case, "--smart-case"))
    if q.word:
        args.append("--word-regexp")
    if q.context:
        args.append(f"--context={q.context}")
    args += _globs(q.include, q.exclude)
    args.append(f"--regexp={q.pattern}")
    return args + _scope(q.scope)


async def search(root: str, q: TextQuery) -> Searched:
    """Run the search in ``root``, stopping at the first limit reached."""
    started_at = time.perf_counter()
    out = Searched([])
    walked = await walked_files(root, q.scope, q.timeout) if q.include else None
    state = _Collector(root, q, out, walked)
    async with subprocesses.started("rg", search_arguments(q), root) as proc:
        assert proc.stdout is not None
        try:
            async with asyncio.timeout(q.timeout):
                await _read_records(proc.stdout, state)
                code = await proc.wait() if not state.done else 0
        except TimeoutError:
            out.timed_out, code = True, 0
    if state.readmitted_files:  # ripgrep counted them as searched
        out.files_searched = max(0, out.files_searched - len(state.readmitted_files))
        out.files_matched = max(0, out.files_matched - len(state.readmitted_files))
    stderr = getattr(proc, "stderr_head", b"")
    if code == 2 and not state.saw_output:
        raise _bad_usage(stderr, "the search failed")
    said = _in_our_terms(stderr.decode("utf-8", "replace"))
    out.errors = [line for line in said.splitlines() if line.strip()][:ERRORS_KEPT]
    out.seconds = time.perf_counter() - started_at
    return out


async def _read_records(stream: asyncio.StreamReader, state: _Collector) -> None:
    """JSON records, one a line, handed to ``state`` until it is done; a record longer than
    MAX_RECORD_BYTES is kept in part (its start and its end)."""
    pending = bytearray()
    long_head: bytes | None = None  # the start of a record too long to keep whole
    while not state.done:
        chunk = await stream.read(READ_CHUNK)
        if not chunk:
            break
        start = 0
        while not state.done:
            newline = chunk.find(b"\n", start)
            if newline < 0:
                piece = chunk[start:]
                if long_head is None:
                    pending += piece
                    if len(pending) > MAX_RECORD_BYTES:
                        long_head = bytes(pending[:KEPT_OF_LONG_RECORD])
                        del pending[: len(pending) - KEPT_OF_LONG_RECORD]
                else:
                    pending += piece
                    if len(pending) > 2 * KEPT_OF_LONG_RECORD:
                        del pending[: len(pending) - KEPT_OF_LONG_RECORD]
                break
            pending += chunk[start:newline]
            start = newline + 1
            if long_head is None:
                state.record(bytes(pending))
            else:
                state.long_record(long_head, bytes(pending[-KEPT_OF_LONG_RECORD:]))
                long_head = None
            pending.clear()


def _text(value: dict) -> str:
    if "text" in value:
        return value["text"]
    return base64.b64decode(value.get("bytes", "")).decode("utf-8", "replace")


class _Collector:
    """Turns ripgrep's records into matches with their context, and says when to stop."""

    def __init__(self, root: str, q: TextQuery, out: Searched, walked: frozenset[bytes] | None = None) -> None:
        self.root = root
        self.q = q
        self.out = out
        self.done = False
        self.saw_output = False
        self.used = 0
        self._context: list[tuple[str, int, str]] = []  # (path, line, text) not yet given to a match
        self._last: RawMatch | None = None
        self.walked = walked  # when an include glob may re-admit ignored files: those the walk keeps
        self.readmitted_files: set[str] = set()

    def record(self, raw: bytes) -> None:
        self.saw_output = True
        try:
            item = json.loads(raw)
        except ValueError:
            return
        kind, data = item.get("type"), item.get("data", {})
        if kind == "match":
            text = _text(data["lines"]).rstrip("\r\n")
            columns = _columns(text, [sub["start"] for sub in data.get("submatches") or ()]) or [1]
            shown, cut = _around(text, columns[0] - 1)
            self._match(_text(data["path"]), data.get("line_number") or 0, columns[0], shown, cut, columns[1:])
        elif kind == "context":
            self._context_line(_text(data["path"]), data.get("line_number") or 0, _text(data["lines"]).rstrip("\r\n"))
        elif kind == "summary":
            stats = data.get("stats", {})
            self.out.files_searched = stats.get("searches", 0)
            self.out.files_matched = stats.get("searches_with_match", 0)
            self.out.bytes_searched = stats.get("bytes_searched", 0)

    def long_record(self, head: bytes, tail: bytes) -> None:
        """A match record too long to keep (a match in a minified line of megabytes): its path from
        its start, its line and first match's offsets from its end; the text around the match is
        read from the file itself."""
        self.saw_output = True
        if not head.startswith(b'{"type":"match"'):
            return
        path = re.search(rb'"path":\{"text":("(?:[^"\\]|\\.)*")\}', head)
        where = re.search(rb'"line_number":(\d+),"absolute_offset":(\d+)', tail)
        first = re.search(rb'"submatches":\[\{"match":\{"(?:text|bytes)":"(?:[^"\\]|\\.)*"\},"start":(\d+)', tail)
        if path is None or where is None:
            return
        name = json.loads(path.group(1))
        line_start = int(where.group(2))
        byte_start = int(first.group(1)) if first else 0
        column, shown = _read_around(self.root, name, line_start, byte_start)
        self._match(name, int(where.group(1)), column, shown, True)

    def _match(self, path: str, line: int, column: int, shown: str, cut: bool, more: list[int] | None = None) -> None:
        if self.walked is not None and path.encode("utf-8", "surrogateescape") not in self.walked:
            self.readmitted_files.add(path)
            return
        if len(self.out.matches) >= self.q.max_matches:
            self._stop("max_matches")
            return
        if "\0" in shown:
            return  # binary content is never returned
        before = [t for p, n, t in self._context if p == path and line - self.q.context <= n < line]
        self._context.clear()
        match = RawMatch(path, line, column, shown, cut, before, more_columns=(more or [])[:MORE_COLUMNS])
        self.used += len(shown) + sum(len(t) for t in before) + 64 + 6 * len(match.more_columns)
        if self.used > self.q.max_bytes:
            self._stop("max_bytes")
            return
        self.out.matches.append(match)
        self._last = match

    def _context_line(self, path: str, line: int, text: str) -> None:
        shown, _ = _around(text, 0)
        last = self._last
        if last is not None and last.path == path and last.line < line <= last.line + self.q.context:
            last.after.append(shown)
            self.used += len(shown)
        else:
            self._context.append((path, line, shown))

    def _stop(self, reason: str) -> None:
        self.out.limit_reached = True
        self.out.limit_reason = reason
        self.done = True


def _columns(text: str, byte_starts: list[int]) -> list[int]:
    """1-based character columns of matches starting at these byte offsets of ``text``'s line."""
    data = text.encode("utf-8", "surrogateescape")
    columns, characters, at = [], 0, 0
    for start in byte_starts:  # ripgrep gives them in order: each prefix decoded once
        characters += len(data[at:start].decode("utf-8", "replace"))
        at = start
        columns.append(characters + 1)
    return columns


def _around(text: str, column: int) -> tuple[str, bool]:
    """At most LINE_CHARS of ``text``, around ``column`` when it is longer; (text, cut)."""
    if len(text) <= LINE_CHARS:
        return text, False
    start = max(0, min(column - LINE_CHARS // 3, len(text) - LINE_CHARS))
    return text[start : start + LINE_CHARS], True


def _read_around(root: str, path: str, line_start: int, byte_start: int) -> tuple[int, str]:
    """(1-based column, text around it) of a match ``byte_start`` bytes into a line starting at
    byte ``line_start`` of ``root/path`` — read from the file, the line itself is too long to hold."""
    from codecairn.paths import open_confined

    try:
        fd = open_confined(root, path)
    except OSError:
        return byte_start + 1, ""
    try:
        characters = 0
        position, end = line_start, line_start + byte_start
        while position < end:
            piece = os.pread(fd, min(1 << 20, end - position), position)
            if not piece:
                break
            characters += len(piece.decode("utf-8", "replace"))
            position += len(piece)
        lead = LINE_CHARS // 3
        start = max(line_start, end - lead * 4)
        window = os.pread(fd, LINE_CHARS * 4 + lead * 4, start).decode("utf-8", "replace")
        text = window.split("\n", 1)[0]
        return characters + 1, text[:LINE_CHARS]
    finally:
        os.close(fd)


def unavailable(exc: subprocesses.ProgramUnavailable) -> ToolError:
    return ToolError(
        UNAVAILABLE, f"ripgrep cannot run: {exc}; install codecairn's dependencies (pip install codecairn)"
    )
