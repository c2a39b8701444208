"""The notes file: architecture decisions kept as Markdown in the repository, so they travel with
the code and humans read and edit them like any other document.

Sections are addressed by heading text (ATX ``#`` headings; those inside fenced code blocks do
not count): exact, case-insensitive, whitespace-collapsed — or a unique prefix ending at a word
boundary, so ``ADR-007`` finds ``ADR-007: Use SQLite``. ``Parent > Child`` walks down a level
when a heading repeats (``ADR-007 > Decision``). A section runs from its heading to the next
heading of the same or a higher level; its *own text* stops at its first sub-heading, and that
is what ``set`` replaces or appends to, so sub-sections are never clobbered.

Writes are atomic (a temporary file in the same directory, fsynced, renamed over the target) and
confined to the root after resolving symlinks; nothing is written inside ``.git``.
"""

from __future__ import annotations

import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from codecairn.errors import BAD_ARGUMENT, NOT_FOUND, OUTSIDE_WORKSPACE, ToolError, quoted
from codecairn.paths import confine

NOTES_ENV = "CODECAIRN_NOTES_FILE"
DEFAULT_NOTES = ".codecairn/adr.md"
NEW_FILE_TITLE = "Architecture decisions"
MARKDOWN_SUFFIXES = (".md", ".markdown", ".mdx")
MAX_FILE_BYTES = 4 * 1024 * 1024
MAX_TEXT_BYTES = 64 * 1024
MAX_HEADING_CHARS = 300
GET_MAX_LINES = 400
GET_MAX_BYTES = 64 * 1024
OUTLINE_LIMIT = 500

_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


class Heading(NamedTuple):
    level: int
    text: str
    line: int  # 1-based


def headings(lines: list[str]) -> list[Heading]:
    out: list[Heading] = []
    fence: str | None = None
    for number, raw in enumerate(lines, 1):
        line = raw.rstrip("\r\n")
        f = _FENCE.match(line)
        if f:
            marker = f.group(1)
            if fence is None:
                fence = marker
            elif marker[0] == fence[0] and len(marker) >= len(fence) and not line.strip()[len(marker) :].strip():
                fence = None
            continue
        if fence is not None:
            continue
        m = _ATX.match(line)
        if m:
            out.append(Heading(len(m.group(1)), (m.group(2) or "").strip(), number))
    return out


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


@dataclass
class Section:
    heading: Heading
    end_line: int  # last line of the section (sub-sections included)
    own_end: int  # last line of its own text (before its first sub-heading)


def section_of(lines: list[str], hs: list[Heading], index: int) -> Section:
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


def find(lines: list[str], hs: list[Heading], address: str, *, exact_last: bool = False) -> Section:
    """The one section ``address`` names, or a ToolError (not found / ambiguous, with candidates).
    ``exact_last``: the last part must match exactly (``set`` creates a section rather than
    overwrite one whose heading merely starts with the text)."""
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
            where = f" under {quoted(' > '.join(parts[:depth]))}" if depth else ""
            raise ToolError(NOT_FOUND, f"no heading {quoted(part)}{where}", headings=[h.text for _, h in inside][:50])
        if len(matches) > 1:
            # Shallowest first: "Decision" under an ADR is a nearer match than a deeper namesake.
            top = min(h.level for _, h in matches)
            shallow = [(i, h) for i, h in matches if h.level == top]
            if len(shallow) > 1:
                raise ToolError(
                    BAD_ARGUMENT,
                    f"heading {quoted(part)} is ambiguous; use 'Parent > {part[:80]}' or the full text",
                    ambiguous=True,
                    candidates=[{"heading": h.text, "level": h.level, "line": h.line} for _, h in matches][:50],
                )
            matches = shallow
        chosen = section_of(lines, hs, matches[0][0])
        lo, hi = chosen.heading.line, chosen.end_line
    assert chosen is not None
    return chosen


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
            raise ToolError(BAD_ARGUMENT, "notes cannot live inside .git", file=name)
        self.path = self.root / self.rel

    # ---- reading ---------------------------------------------------------------------------------

    def read(self) -> list[str] | None:
        """The file's lines (line endings kept), or None when it does not exist yet."""
        try:
            size = os.stat(self.path).st_size
        except FileNotFoundError:
            return None
        if size > MAX_FILE_BYTES:
            raise ToolError(BAD_ARGUMENT, f"{self.rel} is larger than {MAX_FILE_BYTES} bytes", path=self.rel)
        data = self.path.read_bytes()
        try:
            return data.decode("utf-8").splitlines(keepends=True)
        except UnicodeDecodeError as exc:
            raise ToolError(
                BAD_ARGUMENT, f"{self.rel} is not UTF-8 text ({exc.reason} at byte {exc.start})", path=self.rel
            ) from exc

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
        hs = headings(lines)
        shown = [{"heading": h.text, "level": h.level, "line": h.line} for h in hs[:OUTLINE_LIMIT]]
        answer: dict[str, Any] = {"path": self.rel, "lines": len(lines), "headings": shown}
        answer.update(
            {"complete": True}
            if len(hs) <= OUTLINE_LIMIT
            else {"complete": False, "limit_reached": True, "limit_reason": "limit"}
        )
        return answer

    def get(self, heading: str | None, line: int | None) -> dict[str, Any]:
        lines = self._existing()
        if heading is None:
            start, end = 1, len(lines)
            answer: dict[str, Any] = {"path": self.rel, "lines": len(lines)}
        else:
            s = find(lines, headings(lines), heading)
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
        answer["text"] = "\n".join(line.rstrip("\r\n") for line in out).rstrip("\n")
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

    def set(self, heading: str, text: str, *, append: bool = False, level: int | None = None) -> dict[str, Any]:
        heading = _clean_heading(heading)
        body = _clean_text(text)
        lines = self.read()
        created_file = lines is None
        if lines is None:
            lines = [f"# {NEW_FILE_TITLE}\n", "\n"]
        eol = "\r\n" if lines and lines[0].endswith("\r\n") else "\n"
        hs = headings(lines)
        try:
            s: Section | None = find(lines, hs, heading, exact_last=True)
        except ToolError as exc:
            if exc.code != NOT_FOUND:
                raise
            s = None
            try:
                near = find(lines, hs, heading)
            except ToolError:
                near = None
            if near is not None:
                # Creating "ADR-2" beside "ADR-2: Use SQLite" is almost never what was meant.
                raise ToolError(
                    BAD_ARGUMENT,
                    f"no heading is exactly {quoted(heading)}; give the full heading to change "
                    "that section, or another text to create a new one",
                    did_you_mean=near.heading.text,
                ) from None
        if s is not None:
            _check_body(body, s.heading.level)
            body_lines = [line + eol for line in body.split("\n")] if body else []
            own = lines[s.heading.line : s.own_end]  # after the heading, up to its first sub-heading
            while own and not own[-1].strip():
                own.pop()
            if append and own:
                own = own + ([eol] + body_lines if body_lines else [])
            else:
                own = [eol] + body_lines if body_lines else []
            if s.own_end < len(lines):
                own.append(eol)  # a blank line before what follows
            lines[s.heading.line : s.own_end] = own
            heading_line = s.heading.line
            action = "appended" if append else "replaced"
        else:
            parts = [p.strip() for p in heading.split(" > ") if p.strip()]
            parent = find(lines, hs, " > ".join(parts[:-1])) if len(parts) > 1 else None
            floor = parent.heading.level if parent else 0
            lvl = level if level is not None else (floor + 1 if parent else 2)
            if not floor < lvl <= 6:
                raise ToolError(BAD_ARGUMENT, f"level must be between {floor + 1} and 6 here")
            _check_body(body, lvl)
            at = parent.end_line if parent else len(lines)
            before, rest = lines[:at], lines[at:]
            keep = parent.heading.line if parent else 0
            while len(before) > keep and not before[-1].strip():
                before.pop()
            if before and not before[-1].endswith(("\n", "\r")):
                before[-1] += eol
            block = ([eol] if before else []) + [f"{'#' * lvl} {parts[-1]}{eol}"]
            if body:
                block += [eol] + [line + eol for line in body.split("\n")]
            if rest:
                block.append(eol)
            heading_line = len(before) + (2 if before else 1)
            lines = before + block + rest
            action = "created"
        hs = headings(lines)
        placed = section_of(lines, hs, next(i for i, h in enumerate(hs) if h.line == heading_line))
        start, end = placed.heading.line, placed.end_line
        while end > start and not lines[end - 1].strip():
            end -= 1
        self._write(lines)
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

    def delete(self, heading: str) -> dict[str, Any]:
        heading = _clean_heading(heading)
        lines = self._existing()
        s = find(lines, headings(lines), heading)
        start, end = s.heading.line, s.end_line
        removed = end - start + 1
        del lines[start - 1 : end]
        # Do not leave two blank lines where the section was.
        if start - 1 < len(lines) and not lines[start - 1].strip() and start >= 2 and not lines[start - 2].strip():
            del lines[start - 1]
        self._write(lines)
        return {"path": self.rel, "deleted": s.heading.text, "removed_lines": removed}

    def _write(self, lines: list[str]) -> None:
        data = "".join(lines).encode("utf-8")
        if len(data) > MAX_FILE_BYTES:
            raise ToolError(BAD_ARGUMENT, f"{self.rel} would be larger than {MAX_FILE_BYTES} bytes")
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


def _clean_heading(heading: Any) -> str:
    if not isinstance(heading, str) or not heading.strip():
        raise ToolError(BAD_ARGUMENT, "heading must be non-empty text")
    if len(heading) > MAX_HEADING_CHARS or any(c in heading for c in "\0\r\n"):
        raise ToolError(BAD_ARGUMENT, f"heading must be one line of at most {MAX_HEADING_CHARS} characters")
    return heading.strip()


def _clean_text(text: Any) -> str:
    if not isinstance(text, str):
        raise ToolError(BAD_ARGUMENT, "text must be a string")
    if "\0" in text or len(text.encode()) > MAX_TEXT_BYTES:
        raise ToolError(BAD_ARGUMENT, f"text must be at most {MAX_TEXT_BYTES} bytes of text")
    return text.replace("\r\n", "\n").strip("\n")


def _check_body(body: str, level: int) -> None:
    """A body may hold deeper headings, but not ones that would end the section it is set into."""
    for h in headings(body.split("\n")):
        if h.level <= level:
            raise ToolError(
                BAD_ARGUMENT,
                f"text contains heading {quoted(h.text)} of level {h.level}, which would split "
                f"this level-{level} section; use a deeper heading or set it separately",
            )
