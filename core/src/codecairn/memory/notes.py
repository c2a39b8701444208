"""The notes file: architecture decisions kept as Markdown in the repository, so they travel with
the code and humans read and edit them like any other document.

Sections are addressed by heading text, headings being what a CommonMark reader sees
(``sections.py``: ATX and setext headings, not ``#`` lines in code or HTML): exact,
case-insensitive, whitespace-collapsed — or a unique prefix ending at a word boundary, so
``ADR-007`` finds ``ADR-007: Use SQLite``. ``Parent > Child`` walks down a level when a heading
repeats (``ADR-007 > Decision``). A section runs from its heading to the next heading of the same
or a higher level; its *own text* stops at its first sub-heading, and that is what ``set``
replaces or appends to, so sub-sections are never clobbered.

An edit never changes the document's sections other than as asked: the text is checked on its own
(no heading that would end the section, no setext underline, nothing left open — an unclosed fence
would swallow every section after it — and no heading made by a line break other than ``\\n``),
and the whole document is parsed again after the edit and its headings compared with the intended
ones. Anything else is refused with the reason, and the file is left as it was.

Writes are atomic (a temporary file in the same directory, fsynced, renamed over the target) and
confined to the root after resolving symlinks; nothing is written inside ``.git``.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
import tempfile
import threading
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from codecairn.errors import BAD_ARGUMENT, NOT_FOUND, OUTSIDE_WORKSPACE, ToolError, quoted
from codecairn.files.risk import CREDENTIAL_RULE, risks
from codecairn.files.roots import Place
from codecairn.limits import MAX_HEADING_CHARS, MAX_TEXT_BYTES
from codecairn.memory.sections import (
    LINE_SEPARATORS,
    Block,
    Heading,
    Structure,
    block_covering,
    is_blank,
    open_at_end,
    parse,
    without_eol,
)
from codecairn.paths import Refused, confine, read_confined

NOTES_ENV = "CODECAIRN_NOTES_FILE"
DEFAULT_NOTES = ".codecairn/adr.md"
NEW_FILE_TITLE = "Architecture decisions"
MARKDOWN_SUFFIXES = (".md", ".markdown", ".mdx")
MAX_FILE_BYTES = 4 * 1024 * 1024
GET_MAX_LINES = 400
GET_MAX_BYTES = 64 * 1024
OUTLINE_LIMIT = 500
QUOTE_CHARS = 60  # how much of a caller's text an error message quotes


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


@dataclass
class Section:
    heading: Heading
    end_line: int  # last line of the section (sub-sections included)
    own_end: int  # last line of its own text (before its first sub-heading)


def section_of(lines: list[str], hs: tuple[Heading, ...], index: int) -> Section:
    h = hs[index]
    end = len(lines)
    own_end = None
    for nxt in hs[index + 1 :]:
        if nxt.level <= h.level:
            end = nxt.line - 1
            break
        if own_end is None:
            own_end = nxt.line - 1
    return Section(h, end, own_end if own_end is not None else end)


def find(
    lines: list[str], hs: tuple[Heading, ...], address: str, *, exact_last: bool = False, line: int | None = None
) -> Section:
    """The one section ``address`` names, or a ToolError (not found / ambiguous, with candidates).
    ``exact_last``: the last part must match exactly (``set`` creates a section rather than
    overwrite one whose heading merely starts with the text). ``line`` chooses among sections whose
    headings read the same (two "## Notes" side by side): the one holding that line."""
    if " > " in address:
        # A heading that says " > " itself ("Client > Server protocol"), given whole, is that one
        whole = [i for i, h in enumerate(hs) if _norm(h.text) == _norm(address)]
        if len(whole) == 1:
            return _holding(section_of(lines, hs, whole[0]), line)
    parts = [p for p in (s.strip() for s in address.split(" > ")) if p]
    if not parts:
        raise ToolError(BAD_ARGUMENT, "heading is empty")
    lo, hi = 1, len(lines)
    chosen: Section | None = None
    for depth, part in enumerate(parts):
        inside = [
            (i, h) for i, h in enumerate(hs) if lo <= h.line <= hi and (chosen is None or h.line != chosen.heading.line)
        ]
        want = _norm(part)
        exact = [(i, h) for i, h in inside if _norm(h.text) == want]
        prefix_ok = not (exact_last and depth == len(parts) - 1)
        matches = exact or [
            (i, h)
            for i, h in inside
            if prefix_ok and _norm(h.text).startswith(want) and not _norm(h.text)[len(want) : len(want) + 1].isalnum()
        ]
        if not matches:
            where = f" under {' > '.join(parts[:depth])[:QUOTE_CHARS]!r}" if depth else ""
            raise ToolError(
                NOT_FOUND, f"no heading {part[:QUOTE_CHARS]!r}{where}", headings=[h.text for _, h in inside][:50]
            )
        if len(matches) > 1:
            # Shallowest first: "Decision" under an ADR is a nearer match than a deeper namesake.
            top = min(h.level for _, h in matches)
            shallow = [(i, h) for i, h in matches if h.level == top]
            if len(shallow) > 1 and line is not None:
                holding = [(i, h) for i, h in shallow if h.line <= line <= section_of(lines, hs, i).end_line]
                shallow = holding or shallow
            if len(shallow) > 1:
                raise ToolError(
                    BAD_ARGUMENT,
                    f"heading {part[:QUOTE_CHARS]!r} is ambiguous; use 'Parent > {part[:QUOTE_CHARS]}', the full "
                    "text, or line (a candidate's line) to choose one",
                    ambiguous=True,
                    candidates=[{"heading": h.text, "level": h.level, "line": h.line} for _, h in matches][:50],
                )
            matches = shallow
        chosen = section_of(lines, hs, matches[0][0])
        lo, hi = chosen.heading.line, chosen.end_line
    assert chosen is not None
    return _holding(chosen, line)


def _holding(chosen: Section, line: int | None) -> Section:
    """``chosen``, when it holds ``line`` (if given)."""
    if line is not None and not chosen.heading.line <= line <= max(chosen.end_line, chosen.heading.line):
        raise ToolError(
            BAD_ARGUMENT,
            f"line {line} is outside {chosen.heading.text[:QUOTE_CHARS]!r} "
            f"({chosen.heading.line}-{chosen.end_line}); nothing was changed",
        )
    return chosen


class Body(NamedTuple):
    """Text given to ``set``, split into lines and parsed on its own."""

    lines: list[str]  # without line separators
    headings: tuple[Heading, ...]  # its top-level headings, lines counted within the text
    left_open: Block | None  # a block the text opens and never closes (it would swallow what follows)


class Edit(NamedTuple):
    """A rewritten document and what a reader must see in it for the edit to be the intended one."""

    lines: list[str]
    expected: list[tuple[int, str, int]]  # (level, text, line) of every heading, in order
    inserted_at: int | None  # first line of the inserted text, which must start afresh (1-based)
    heading_line: int  # the line of the section set


# A call that timed out goes on in its worker thread; a second call on the same file must wait
# for it rather than interleave a read-modify-write with it.
_file_locks: dict[str, threading.Lock] = {}
_file_locks_guard = threading.Lock()


def _lock_for(path: Path) -> threading.Lock:
    with _file_locks_guard:
        return _file_locks.setdefault(str(path), threading.Lock())


class NotesFile:
    """One Markdown notes file inside the root, read and rewritten whole."""

    def __init__(self, root: Path, given: str | None = None) -> None:
        self.root = Path(os.path.realpath(root))
        name = given if given is not None else (os.environ.get(NOTES_ENV) or DEFAULT_NOTES)
        if not isinstance(name, str) or not name.lower().endswith(MARKDOWN_SUFFIXES):
            raise ToolError(
                BAD_ARGUMENT, f"notes must be a Markdown file ({', '.join(MARKDOWN_SUFFIXES)})", file=quoted(str(name))
            )
        self.rel = confine(self.root, name)
        if not self.rel or self.rel == ".git" or self.rel.startswith(".git/"):
            raise ToolError(BAD_ARGUMENT, "notes cannot live inside .git", file=name[:200])
        # Nor where edit asks for acknowledge_risk (`.env.md`, `.ssh/notes.md`): the notes tool has none
        if any(r.rule == "credentials" for r in risks(Place(str(self.root), self.rel, self.rel, False, True))):
            raise ToolError(BAD_ARGUMENT, f"notes cannot live where {CREDENTIAL_RULE}", file=name[:200])
        self.path = self.root / self.rel
        # deferred: set and delete leave the new document in `pending` instead of writing it, for
        # the caller to write through the file tools (history, undo); `read_sha` is what they read.
        self.deferred = False
        self.pending: bytes | None = None
        self.read_sha = ""

    def remove(self) -> str | None:
        """Delete the notes file (the `clear` tool with include_memories); its root-relative path,
        or None when there was none. Only a regular file inside the root is deleted."""
        with _lock_for(self.path):
            try:
                st = os.lstat(self.path)
            except FileNotFoundError:
                return None
            if not stat.S_ISREG(st.st_mode):
                raise ToolError(BAD_ARGUMENT, f"{self.rel} is not a regular file; not deleted", path=self.rel)
            self.path.unlink()
        return self.rel

    # ---- reading ---------------------------------------------------------------------------------

    def read(self) -> list[str] | None:
        """The file's lines (line separators kept; every Unicode separator ends a line, as in
        ``sections``), or None when it does not exist yet."""
        data = self._read_bytes()
        if data is None:
            return None
        try:
            return data.decode("utf-8").splitlines(keepends=True)
        except UnicodeDecodeError as exc:
            raise ToolError(
                BAD_ARGUMENT, f"{self.rel} is not UTF-8 text ({exc.reason} at byte {exc.start})", path=self.rel
            ) from exc

    def _read_bytes(self) -> bytes | None:
        """The one place the notes file is opened for reading: confined on the descriptor actually
        opened (paths.read_confined), a regular file, not over the size limit."""
        try:
            data = read_confined(str(self.root), self.rel, MAX_FILE_BYTES)
        except FileNotFoundError:
            self.read_sha = ""
            return None
        except Refused as exc:
            code = OUTSIDE_WORKSPACE if "outside" in str(exc) else BAD_ARGUMENT
            raise ToolError(code, f"{exc}; not read", path=self.rel) from None
        except OSError as exc:
            raise ToolError(BAD_ARGUMENT, f"{self.rel} cannot be read ({exc.strerror or exc})", path=self.rel) from exc
        self.read_sha = hashlib.sha256(data).hexdigest()
        return data

    def outline(self) -> dict[str, Any]:
        lines = self.read()
        if lines is None:
            return {
                "path": self.rel,
                "exists": False,
                "headings": [],
                "complete": True,
                "hint": "set a section to create the file",
            }
        structure = parse(lines)
        hs = structure.headings
        shown = [{"heading": h.text, "level": h.level, "line": h.line} for h in hs[:OUTLINE_LIMIT]]
        answer: dict[str, Any] = {"path": self.rel, "lines": len(lines), "headings": shown}
        answer.update(
            {"complete": True}
            if len(hs) <= OUTLINE_LIMIT
            else {"complete": False, "limit_reached": True, "limit_reason": "limit"}
        )
        left_open = open_at_end(lines, structure)
        if left_open is not None:
            answer["unclosed"] = {"block": left_open.kind, "line": left_open.line}
            answer["hint"] = (
                f"the {left_open.kind} opened at line {left_open.line} is never closed: a Markdown reader sees "
                "everything after it as part of it, so no heading after it is a section; close it to bring them back"
            )
        return answer

    def get(self, heading: str | None, line: int | None) -> dict[str, Any]:
        lines = self._existing()
        if heading is None:
            start, end = 1, len(lines)
            answer: dict[str, Any] = {"path": self.rel, "lines": len(lines)}
        else:
            s = find(lines, parse(lines).headings, heading, line=line)
            start, end = s.heading.line, s.end_line
            answer = {
                "path": self.rel,
                "heading": s.heading.text,
                "level": s.heading.level,
                "start_line": start,
                "end_line": end,
            }
        if line is not None:
            if not start <= line <= max(end, start):
                raise ToolError(BAD_ARGUMENT, f"line {line} is outside {start}-{end}")
            start = line
        out, size, stop = [], 0, end
        for number in range(start, end + 1):
            text = lines[number - 1]
            size += len(text.encode())
            if number - start >= GET_MAX_LINES or size > GET_MAX_BYTES:
                stop = number - 1
                break
            out.append(text)
        text = "\n".join(without_eol(line) for line in out).rstrip("\n")
        answer["text"] = text.removeprefix("\ufeff") if start == 1 else text  # (a byte order mark is no text)
        if stop < end:
            answer["truncated"] = True
            answer["next_line"] = stop + 1
        return answer

    def _existing(self) -> list[str]:
        lines = self.read()
        if lines is None:
            raise ToolError(NOT_FOUND, f"{self.rel} does not exist yet; set a section to create it", path=self.rel)
        return lines

    # ---- writing ---------------------------------------------------------------------------------

    def set(
        self, heading: str, text: str, *, append: bool = False, level: int | None = None, line: int | None = None
    ) -> dict[str, Any]:
        heading = _clean_heading(heading)
        body = _body(text)
        with _lock_for(self.path):
            lines = self.read()
            created_file = lines is None
            if lines is None:
                lines = [f"# {NEW_FILE_TITLE}\n", "\n"]
            old = parse(lines)
            target = _existing_section(lines, old, heading, line)
            if target is not None:
                edit = _rewrite_section(lines, old, target, body, append)
                action = "appended" if append else "replaced"
                what = f"text appended to {target.heading.text[:QUOTE_CHARS]!r}"
            else:
                edit = _new_section(lines, old, heading, body, level)
                action = "created"
                what = f"a new section {heading.split(' > ')[-1].strip()[:QUOTE_CHARS]!r} at line {edit.heading_line}"
            new = _verified(edit, what)
            index = [h.line for h in new.headings].index(edit.heading_line)
            placed = section_of(edit.lines, new.headings, index)
            start, end = placed.heading.line, placed.end_line
            while end > start and is_blank(edit.lines[end - 1]):
                end -= 1
            self._write(edit.lines)
        answer: dict[str, Any] = {
            "path": self.rel,
            "heading": placed.heading.text,
            "action": action,
            "start_line": start,
            "end_line": end,
        }
        if created_file:
            answer["created_file"] = True
        return answer

    def delete(self, heading: str, line: int | None = None) -> dict[str, Any]:
        heading = _clean_heading(heading)
        with _lock_for(self.path):
            lines = self._existing()
            old = parse(lines)
            s = find(lines, old.headings, heading, line=line)
            start, end = s.heading.line, s.end_line
            removed = end - start + 1
            kept = lines[: start - 1] + lines[end:]
            at = start - 1  # index of the first line after the gap
            if 0 < at < len(kept):
                if is_blank(kept[at - 1]) and is_blank(kept[at]):
                    del kept[at]  # do not leave two blank lines where the section was
                elif not is_blank(kept[at - 1]) and not is_blank(kept[at]):
                    # Keep the blocks apart: a paragraph meeting a setext heading would merge into it.
                    kept.insert(at, _eol_of(lines))
            shift = len(kept) - len(lines)
            expected = [(h.level, h.text, h.line) for h in old.headings if h.line < start] + [
                (h.level, h.text, h.line + shift) for h in old.headings if h.line > end
            ]
            _verified(Edit(kept, expected, None, 0), f"deleting {s.heading.text[:QUOTE_CHARS]!r}")
            self._write(kept)
        return {"path": self.rel, "deleted": s.heading.text, "removed_lines": removed}

    def _write(self, lines: list[str]) -> None:
        data = "".join(lines).encode("utf-8")
        if len(data) > MAX_FILE_BYTES:
            raise ToolError(BAD_ARGUMENT, f"{self.rel} would be larger than {MAX_FILE_BYTES} bytes")
        if self.deferred:
            self.pending = data
            return
        target = self.root / self.rel
        parent = target.parent
        parent.mkdir(parents=True, exist_ok=True)
        # Resolve again now that directories exist: a symlink planted since must not lead out.
        real_parent = os.path.realpath(parent)
        if real_parent != str(self.root) and not real_parent.startswith(str(self.root) + os.sep):
            raise ToolError(OUTSIDE_WORKSPACE, f"{self.rel} resolves outside the workspace root; not written")
        real_target = os.path.join(real_parent, target.name)
        if os.path.islink(real_target):
            resolved = os.path.realpath(real_target)
            if not resolved.startswith(str(self.root) + os.sep):
                raise ToolError(OUTSIDE_WORKSPACE, f"{self.rel} links outside the workspace root; not written")
            real_target = resolved
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=os.path.dirname(real_target))
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            try:
                os.chmod(tmp, os.stat(real_target).st_mode & 0o7777)
            except FileNotFoundError:
                os.chmod(tmp, 0o644)
            os.replace(tmp, real_target)
        except BaseException:
            try:
                os.unlink(tmp)
            except FileNotFoundError:
                pass
            raise


# ---- composing an edit -------------------------------------------------------------------------


def _existing_section(lines: list[str], old: Structure, heading: str, line: int | None = None) -> Section | None:
    """The section ``set`` changes, or None when it is to be created."""
    try:
        return find(lines, old.headings, heading, exact_last=True, line=line)
    except ToolError as exc:
        if exc.code != NOT_FOUND:
            raise
    try:
        near = find(lines, old.headings, heading)
    except ToolError:
        return None
    # Creating "ADR-2" beside "ADR-2: Use SQLite" is almost never what was meant.
    raise ToolError(
        BAD_ARGUMENT,
        f"no heading is exactly {heading[:QUOTE_CHARS]!r}; give the full heading to change "
        "that section, or another text to create a new one",
        did_you_mean=near.heading.text,
    )


def _rewrite_section(lines: list[str], old: Structure, s: Section, body: Body, append: bool) -> Edit:
    _check_body(body, s.heading.level)
    eol = _eol_of(lines)
    head = _terminated(lines[: s.heading.end], eol)
    own = lines[s.heading.end : s.own_end]  # after the heading, up to its first sub-heading
    while own and is_blank(own[-1]):
        own.pop()
    if not (append and own):
        own = []
    own = _terminated(own, eol)
    inserted = [eol, *(line + eol for line in body.lines)] if body.lines else []
    gap = [eol] if s.own_end < len(lines) else []  # a blank line before what follows
    new_lines = head + own + inserted + gap + lines[s.own_end :]
    body_first = len(head) + len(own) + 2
    shift = len(new_lines) - len(lines)
    expected = (
        [(h.level, h.text, h.line) for h in old.headings if h.line <= s.heading.line]
        + [(h.level, h.text, body_first + h.line - 1) for h in body.headings]
        + [(h.level, h.text, h.line + shift) for h in old.headings if h.line > s.own_end]
    )
    return Edit(new_lines, expected, body_first if body.lines else None, s.heading.line)


def _new_section(lines: list[str], old: Structure, heading: str, body: Body, level: int | None) -> Edit:
    parts = [p.strip() for p in heading.split(" > ") if p.strip()]
    parent = find(lines, old.headings, " > ".join(parts[:-1])) if len(parts) > 1 else None
    floor = parent.heading.level if parent else 0
    lvl = level if level is not None else (floor + 1 if parent else 2)
    if not floor < lvl <= 6:
        raise ToolError(BAD_ARGUMENT, f"level must be between {floor + 1} and 6 here")
    _check_body(body, lvl)
    eol = _eol_of(lines)
    title = _heading_line(lvl, parts[-1])
    at = parent.end_line if parent else len(lines)
    before, rest = lines[:at], lines[at:]
    keep = parent.heading.end if parent else 0
    while len(before) > keep and is_blank(before[-1]):
        before.pop()
    before = _terminated(before, eol)
    block = ([eol] if before else []) + [title + eol]
    if body.lines:
        block += [eol, *(line + eol for line in body.lines)]
    if rest:
        block.append(eol)
    heading_line = len(before) + (2 if before else 1)
    new_lines = before + block + rest
    shift = len(new_lines) - len(lines)
    expected = (
        [(h.level, h.text, h.line) for h in old.headings if h.line <= at]
        + [(lvl, " ".join(parts[-1].split()), heading_line)]
        + [(h.level, h.text, heading_line + 2 + h.line - 1) for h in body.headings]
        + [(h.level, h.text, h.line + shift) for h in old.headings if h.line > at]
    )
    return Edit(new_lines, expected, heading_line, heading_line)


_LIST_ITEM = re.compile(r"[-*+] |[0-9]{1,9}[.)] ")  # a list item's marker, at the start of a line


def _verified(edit: Edit, what: str) -> Structure:
    """The edited document's structure, if a reader sees exactly the intended sections; otherwise
    a ToolError naming the reason (nothing has been written yet)."""
    new = parse(edit.lines)
    if edit.inserted_at is not None:
        swallowed_by = block_covering(new, edit.inserted_at)
        first = edit.lines[edit.inserted_at - 1] if edit.inserted_at <= len(edit.lines) else ""
        if swallowed_by is not None and swallowed_by.kind == "list" and _LIST_ITEM.match(first):
            swallowed_by = None  # an item appended to a list goes on with it: what was asked
        if swallowed_by is not None and swallowed_by.line < edit.inserted_at:
            kind, line = swallowed_by.kind, swallowed_by.line
            if kind in ("code fence", "HTML block"):
                reason = (
                    f"{what} would land inside the {kind} opened at line {line}, which is never closed, so a "
                    f"Markdown reader would see it as part of that block; close the {kind} first (set that "
                    "section's text again with it closed); nothing was changed"
                )
            else:
                reason = (
                    f"{what} would be read as part of the {kind} at line {line} (indented text after it "
                    "continues it); remove the indentation, or set the section's whole text; nothing was changed"
                )
            raise ToolError(BAD_ARGUMENT, reason, line=line)
    actual = [(h.level, h.text, h.line) for h in new.headings]
    if actual != edit.expected:
        diff = next((i for i, (a, e) in enumerate(zip(actual, edit.expected, strict=False)) if a != e), None)
        if diff is None:
            diff = min(len(actual), len(edit.expected))
        want = edit.expected[diff] if diff < len(edit.expected) else None
        seen = actual[diff] if diff < len(actual) else None
        raise ToolError(
            BAD_ARGUMENT,
            f"{what} would change the document's sections: expected "
            f"{_describe(want)}, a Markdown reader would see {_describe(seen)}; nothing was changed",
        )
    return new


def _describe(heading: tuple[int, str, int] | None) -> str:
    if heading is None:
        return "no further heading"
    level, text, line = heading
    return f"level-{level} heading {text[:QUOTE_CHARS]!r} at line {line}"


def _heading_line(level: int, text: str) -> str:
    """The ATX heading line that a reader sees as exactly ``text`` at ``level``."""
    want = " ".join(text.split())
    seen: list[Heading] = []
    # "Issue #" alone would lose its "#" to the optional closing sequence; a closing sequence keeps it.
    for line in (f"{'#' * level} {text}", f"{'#' * level} {text} {'#' * level}"):
        seen = list(parse([line]).headings)
        if len(seen) == 1 and seen[0].level == level and seen[0].text == want:
            return line
    read_as = repr(seen[0].text[:QUOTE_CHARS]) if seen else "no heading"
    raise ToolError(
        BAD_ARGUMENT, f"heading {text[:QUOTE_CHARS]!r} cannot be written as a Markdown heading (it reads as {read_as})"
    )


def _eol_of(lines: list[str]) -> str:
    first = lines[0] if lines else ""
    if first.endswith("\r\n"):
        return "\r\n"
    return "\r" if first.endswith("\r") else "\n"


def _terminated(lines: list[str], eol: str) -> list[str]:
    """``lines`` with a line separator after the last one (the file's last line may lack one)."""
    if lines and without_eol(lines[-1]) == lines[-1]:
        return [*lines[:-1], lines[-1] + eol]
    return list(lines)


# ---- checking what is given ----------------------------------------------------------------------


def _separator_names(text: str) -> str:
    found = {c for c in text if c in LINE_SEPARATORS and c != "\n"}
    if "\r" in found and "\r" not in text.replace("\r\n", ""):
        found.discard("\r")  # only CRLF pairs: an ordinary line ending
    return ", ".join(f"U+{ord(c):04X} ({unicodedata.name(c, 'control').lower()})" for c in sorted(found))


def _clean_heading(heading: Any) -> str:
    if not isinstance(heading, str) or not heading.strip():
        raise ToolError(BAD_ARGUMENT, "heading must be non-empty text")
    breaks = [c for c in heading if c in LINE_SEPARATORS]
    if len(heading) > MAX_HEADING_CHARS or breaks:
        names = ", ".join(f"U+{ord(c):04X}" for c in dict.fromkeys(breaks))
        raise ToolError(
            BAD_ARGUMENT,
            f"heading must be one line of at most {MAX_HEADING_CHARS} characters"
            + (f"; it contains a line break ({names})" if breaks else ""),
        )
    control = next((c for c in heading if unicodedata.category(c) == "Cc" and c != "\t"), None)
    if control is not None:
        raise ToolError(BAD_ARGUMENT, f"heading contains the control character U+{ord(control):04X}")
    parts = heading.strip().split(" > ")
    if heading.strip().endswith(" >") or heading.strip().startswith("> ") or not all(p.strip() for p in parts):
        raise ToolError(BAD_ARGUMENT, f"heading {heading[:QUOTE_CHARS]!r} has an empty part ('Parent > Child')")
    return heading.strip()


def _body(text: Any) -> Body:
    if not isinstance(text, str):
        raise ToolError(BAD_ARGUMENT, "text must be a string")
    if "\0" in text:
        raise ToolError(BAD_ARGUMENT, f"text contains a NUL character (at {text.index(chr(0))}); notes are text")
    if len(text.encode("utf-8", "surrogatepass")) > MAX_TEXT_BYTES:
        raise ToolError(BAD_ARGUMENT, f"text is larger than {MAX_TEXT_BYTES} bytes")
    lines = text.splitlines()
    while lines and is_blank(lines[0]):
        lines.pop(0)
    while lines and is_blank(lines[-1]):
        lines.pop()
    if not lines:
        return Body([], (), None)
    # Parse the text on its own, followed by a blank line and a heading: if that heading is not
    # one, the text leaves a block open that would swallow the rest of the document.
    probe = parse([*lines, "", "#"])
    headings = tuple(h for h in probe.headings if h.line <= len(lines))
    closed = bool(probe.headings) and probe.headings[-1].line == len(lines) + 2
    left_open = None if closed else (block_covering(probe, len(lines) + 2) or Block("block", 1, len(lines) + 2))
    names = _separator_names(text)
    if names:
        _refuse_hidden_headings(text, headings, names)
    return Body(lines, headings, left_open)


def _refuse_hidden_headings(text: str, headings: tuple[Heading, ...], names: str) -> None:
    """A lone CR or a Unicode line separator is a line break to us and to CommonMark (CR), yet most
    editors and agents show it inside a line: a heading it starts is a heading nobody meant."""
    plain = text.replace("\r\n", "\n")
    for c in LINE_SEPARATORS:
        if c != "\n":
            plain = plain.replace(c, " ")
    visible = {(h.level, _norm(h.text)) for h in parse(plain.split("\n")).headings}
    for h in headings:
        if (h.level, _norm(h.text)) not in visible:
            raise ToolError(
                BAD_ARGUMENT,
                f"text line {h.line} ({h.text[:QUOTE_CHARS]!r}) is a heading only because of a line break "
                f"written as {names}, which most editors show within the line before; "
                "separate lines with \\n (and mean the heading), or remove the break",
            )


def _check_body(body: Body, level: int) -> None:
    """A body may hold deeper headings, but nothing that would end or swallow the section it is set
    into, or turn a line into a heading by the next line (a setext underline)."""
    if body.left_open is not None:
        kind, line = body.left_open.kind, body.left_open.line
        raise ToolError(
            BAD_ARGUMENT,
            f"text opens a {kind} at its line {line} and never closes it: everything after it in the "
            f"file would become part of it; close the {kind} in the same text",
        )
    for h in body.headings:
        if h.setext:
            underline = body.lines[h.end - 1].strip()[:10]
            raise ToolError(
                BAD_ARGUMENT,
                f"text line {h.line} ({h.text[:QUOTE_CHARS]!r}) is underlined with {underline!r} on line {h.end}, "
                "which makes it a heading; for a horizontal rule put a blank line above the underline, "
                f"for a heading write '{'#' * max(h.level, level + 1)} {h.text[:QUOTE_CHARS]}'",
            )
        if h.level <= level:
            raise ToolError(
                BAD_ARGUMENT,
                f"text contains heading {h.text[:QUOTE_CHARS]!r} of level {h.level}, which would split "
                f"this level-{level} section; use a deeper heading or set it separately",
            )
