"""Architecture decisions travel with the code: an agent keeps them in a Markdown file in the
repository through the `notes` tool, section by section, and a human reads the same file."""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

import pytest
from codecairn.errors import ToolError
from codecairn.memory.notes import NotesFile
from codecairn.workspace import Workspace
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from mcp import ClientSession, StdioServerParameters, stdio_client
from realcode import answers, copy_stdlib

pytestmark = pytest.mark.anyio


def server_params(root: Path, cache: Path, **env: str) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "codecairn.cli", "serve", str(root), "--no-index"],
        env={**os.environ, "CODECAIRN_CACHE_DIR": str(cache), **env},
    )


async def call(session: ClientSession, tool: str, args: dict | None = None) -> dict:
    result = await session.call_tool(tool, args or {})
    payload = json.loads(result.content[0].text)
    return {"_error": True, **payload} if result.is_error else payload


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    return copy_stdlib(root, ("shlex",))


async def test_an_agent_records_decisions_a_human_can_read(project: Path, cache_dir: Path) -> None:
    adr = project / ".codecairn" / "adr.md"
    async with stdio_client(server_params(project, cache_dir)) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            empty = await call(session, "notes")
            assert empty["exists"] is False and empty["headings"] == [] and empty["path"] == ".codecairn/adr.md"

            first = await call(
                session,
                "notes",
                {"action": "set", "heading": "ADR-001: One SQLite file per workspace", "text": "Status: accepted"},
            )
            assert first["action"] == "created" and first["created_file"] is True
            await call(
                session,
                "notes",
                {
                    "action": "set",
                    "heading": "ADR-001 > Context",
                    "text": "Agents open many sessions; the index must be shared.",
                },
            )
            await call(
                session,
                "notes",
                {
                    "action": "set",
                    "heading": "ADR-001 > Decision",
                    "text": "WAL mode, one writer, readers never block.",
                },
            )
            await call(
                session,
                "notes",
                {"action": "set", "heading": "ADR-002: Memories store hashes, not code", "text": "Status: proposed"},
            )
            await call(
                session,
                "notes",
                {
                    "action": "set",
                    "heading": "ADR-002 > Context",
                    "text": "Snapshots get committed; source text must not leak.",
                },
            )

            assert adr.read_text() == (
                "# Architecture decisions\n\n"
                "## ADR-001: One SQLite file per workspace\n\nStatus: accepted\n\n"
                "### Context\n\nAgents open many sessions; the index must be shared.\n\n"
                "### Decision\n\nWAL mode, one writer, readers never block.\n\n"
                "## ADR-002: Memories store hashes, not code\n\nStatus: proposed\n\n"
                "### Context\n\nSnapshots get committed; source text must not leak.\n"
            )

            outline = await call(session, "notes", {"action": "outline"})
            assert [(h["level"], h["heading"]) for h in outline["headings"]] == [
                (1, "Architecture decisions"),
                (2, "ADR-001: One SQLite file per workspace"),
                (3, "Context"),
                (3, "Decision"),
                (2, "ADR-002: Memories store hashes, not code"),
                (3, "Context"),
            ]
            assert outline["complete"] is True

            # Addressing: a unique prefix, a parent path; a repeated heading alone is ambiguous.
            ctx = await call(session, "notes", {"action": "get", "heading": "adr-002 > context"})
            assert ctx["text"] == "### Context\n\nSnapshots get committed; source text must not leak."
            assert ctx["heading"] == "Context" and ctx["level"] == 3
            whole = await call(session, "notes", {"action": "get", "heading": "ADR-001"})
            assert whole["text"].startswith("## ADR-001: One SQLite") and "### Decision" in whole["text"]
            assert "ADR-002" not in whole["text"]
            ambiguous = await call(session, "notes", {"action": "get", "heading": "Context"})
            assert ambiguous["error"] == "bad_argument" and ambiguous["ambiguous"] is True
            assert [c["line"] for c in ambiguous["candidates"]] == [
                h["line"] for h in outline["headings"] if h["heading"] == "Context"
            ]

            # Replacing a section's own text keeps its sub-sections; appending adds to it.
            short = await call(session, "notes", {"action": "set", "heading": "ADR-002", "text": "Status: accepted"})
            assert short["error"] == "bad_argument"
            assert short["did_you_mean"] == "ADR-002: Memories store hashes, not code", "never a near-duplicate section"
            replaced = await call(
                session,
                "notes",
                {"action": "set", "text": "Status: accepted", "heading": "ADR-002: Memories store hashes, not code"},
            )
            assert replaced["action"] == "replaced"
            await call(
                session,
                "notes",
                {"action": "set", "heading": "ADR-002 > Context", "mode": "append", "text": "Reviewed by the team."},
            )
            adr2 = await call(session, "notes", {"action": "get", "heading": "ADR-002"})
            assert adr2["text"] == (
                "## ADR-002: Memories store hashes, not code\n\nStatus: accepted\n\n### Context\n\n"
                "Snapshots get committed; source text must not leak.\n\nReviewed by the team."
            )

            before_delete = adr.read_bytes()
            gone = await call(session, "notes", {"action": "delete", "heading": "ADR-001 > Decision"})
            assert gone == {
                "path": ".codecairn/adr.md",
                "deleted": "Decision",
                "removed_lines": 4,
                "history_id": gone["history_id"],
                "generation": gone["generation"],
            }
            everything = await call(session, "notes", {"action": "get"})
            assert "Decision" not in everything["text"] and "\n\n\n" not in everything["text"]
            assert everything["text"] == adr.read_text().rstrip("\n")
            assert sorted(p.name for p in adr.parent.iterdir()) == ["adr.md"], "no temporary files left"
            # A notes write is an edit like any other: in the history, and undone by undo
            history = await call(session, "history", {"path": ".codecairn/adr.md"})
            assert [e["tool"] for e in history["entries"]][:2] == ["notes", "notes"]
            assert history["entries"][0]["id"] == gone["history_id"]
            undone = await call(session, "undo", {"id": gone["history_id"]})
            assert undone["undone"] == gone["history_id"] and adr.read_bytes() == before_delete
            await call(session, "notes", {"action": "delete", "heading": "ADR-001 > Decision"})

            # A human edits the file by hand; the agent sees it.
            adr.write_text(adr.read_text() + "\n## ADR-003: Hand-written\n\nBy a human.\n")
            assert (await call(session, "notes", {"action": "get", "heading": "ADR-003"}))["text"].endswith(
                "By a human."
            )


async def test_sections_with_the_same_heading_are_told_apart_by_a_line(project: Path, cache_dir: Path) -> None:
    # Two "## Open questions" side by side: no parent tells them apart, a line does
    adr = project / ".codecairn" / "adr.md"
    adr.parent.mkdir()
    adr.write_text("# Decisions\n\n## Open questions\n\nfirst\n\n## Open questions\n\nsecond\n\n## Last\n\nend\n")
    ws = await Workspace.open(str(project))
    try:
        a = answers(ws)
        with pytest.raises(ToolError) as both:
            await a.call("notes", action="get", heading="Open questions")
        assert "line" in both.value.message
        second_line = both.value.details["candidates"][1]["line"]
        got = await a.call("notes", action="get", heading="Open questions", line=second_line)
        assert got["text"] == "## Open questions\n\nsecond"
        await a.call("notes", action="set", heading="Open questions", text="answered", line=second_line + 2)
        with pytest.raises(ToolError) as elsewhere:  # a line the section does not hold changes nothing
            await a.call("notes", action="delete", heading="Last", line=second_line)
        assert "outside" in elsewhere.value.message
        await a.call("notes", action="delete", heading="Open questions", line=3)
        assert adr.read_text() == "# Decisions\n\n## Open questions\n\nanswered\n\n## Last\n\nend\n"
    finally:
        await ws.close()


async def test_a_heading_with_a_gt_sign_a_list_item_appended_and_a_bom_read_as_a_reader_would(
    project: Path, cache_dir: Path
) -> None:
    adr = project / ".codecairn" / "adr.md"
    adr.parent.mkdir()
    adr.write_bytes("\ufeff# D\n\n## A\n\nx\n\n## A > B comparison\n\ngt\n\n## Open\n\n- a\n- b\n".encode())
    ws = await Workspace.open(str(project))
    try:
        a = answers(ws)
        # the whole heading, as outline prints it, is that section (it made a sub-section "B comparison")
        got = await a.call("notes", action="get", heading="A > B comparison")
        assert got["text"] == "## A > B comparison\n\ngt"
        changed = await a.call("notes", action="set", heading="A > B comparison", text="new gt")
        assert changed["action"] == "replaced"
        # a list item appended to a section ending in a list goes on with the list (refused before)
        await a.call("notes", action="set", heading="Open", text="- c", mode="append")
        assert adr.read_text(encoding="utf-8").endswith("## Open\n\n- a\n- b\n\n- c\n")
        everything = await a.call("notes", action="get")
        assert everything["text"].startswith("# D\n"), "no byte order mark in the text"
        assert [h["heading"] for h in (await a.call("notes"))["headings"]] == ["D", "A", "A > B comparison", "Open"]
    finally:
        await ws.close()


async def test_notes_refuse_bad_requests_and_paths_that_leave_the_root(
    project: Path, cache_dir: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (project / "docs").symlink_to(outside, target_is_directory=True)
    notes = project / "design/decisions.md"
    # The notes file can live elsewhere in the repository (CODECAIRN_NOTES_FILE), still inside it.
    async with stdio_client(server_params(project, cache_dir, CODECAIRN_NOTES_FILE="design/decisions.md")) as (r, w):
        async with ClientSession(r, w) as session:
            await session.initialize()
            made = await call(session, "notes", {"action": "set", "heading": "Storage", "text": "SQLite."})
            assert made["path"] == "design/decisions.md"
            assert notes.read_text() == "# Architecture decisions\n\n## Storage\n\nSQLite.\n"
            refused = [
                ({"action": "set", "heading": "x", "text": "y", "file": "../outside.md"}, "outside_workspace"),
                ({"action": "set", "heading": "x", "text": "y", "file": "docs/adr.md"}, "outside_workspace"),
                ({"action": "set", "heading": "x", "text": "y", "file": str(outside / "adr.md")}, "outside_workspace"),
                ({"action": "set", "heading": "x", "text": "y", "file": "shlex.py"}, "bad_argument"),
                ({"action": "set", "heading": "x", "text": "y", "file": ".git/notes.md"}, "bad_argument"),
                ({"action": "set", "heading": "x", "text": "y", "file": ".env.md"}, "bad_argument"),
                ({"action": "set", "heading": "x", "text": "y", "file": ".ssh/notes.md"}, "bad_argument"),
                ({"action": "set", "heading": "Storage"}, "bad_argument"),
                ({"action": "set", "text": "y"}, "bad_argument"),
                ({"action": "set", "heading": "two\nlines", "text": "y"}, "bad_argument"),
                ({"action": "set", "heading": "Storage", "text": "## Sneaky\nsplits the section"}, "bad_argument"),
                ({"action": "outline", "text": "y"}, "bad_argument"),
                ({"action": "delete"}, "bad_argument"),
                ({"action": "delete", "heading": "ADR-9"}, "not_found"),
                ({"action": "get", "heading": "ADR-9"}, "not_found"),
                ({"action": "rewrite"}, "bad_argument"),
            ]
            for args, code in refused:
                answer = await call(session, "notes", args)
                assert answer.get("_error") and answer["error"] == code, (args, answer)
            assert list(outside.iterdir()) == [] and not (tmp_path / "outside.md").exists()
            assert notes.read_text() == "# Architecture decisions\n\n## Storage\n\nSQLite.\n"
            assert not (project / ".codecairn").exists()
            assert not (project / ".env.md").exists() and not (project / ".ssh").exists()

    async with stdio_client(server_params(project, cache_dir, CODECAIRN_NOTES_FILE="../escape.md")) as (r, w):
        async with ClientSession(r, w) as session:
            await session.initialize()
            answer = await call(session, "notes", {"action": "set", "heading": "x", "text": "y"})
            assert answer["error"] == "outside_workspace"
    assert not (tmp_path / "escape.md").exists()


SEVEN = (
    "# Architecture decisions\n\n"
    "## ADR-001: SQLite\n\nStatus: accepted\n\n"
    "### Context\n\nShared index.\n\n"
    "### Decision\n\nWAL mode.\n\n"
    "## ADR-002: Hashes\n\nStatus: proposed\n\n"
    "### Context\n\nNo source text.\n\n"
    "## ADR-003: Plugins\n\nStatus: accepted\n"
)


async def test_text_that_would_change_the_structure_is_refused_and_changes_nothing(
    project: Path, cache_dir: Path
) -> None:
    adr = project / ".codecairn" / "adr.md"
    adr.parent.mkdir()
    adr.write_text(SEVEN)
    async with stdio_client(server_params(project, cache_dir, CODECAIRN_TOOL_TIMEOUT="8")) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            before = await call(session, "notes")
            assert len(before["headings"]) == 7

            hostile = [
                # An unclosed fence would swallow every section after this one.
                ({"heading": "ADR-001: SQLite", "text": "```\ncode"}, "never closes"),
                ({"heading": "ADR-002: Hashes > Context", "text": "~~~~\ncode\n~~~"}, "never closes"),
                ({"heading": "ADR-001: SQLite", "text": "<!-- draft\nnot finished"}, "never closes"),
                # A lone CR, or a Unicode line separator, is a line break to a Markdown reader.
                ({"heading": "ADR-001: SQLite", "text": "x\r## CRHeading\r"}, "line"),
                ({"heading": "Architecture decisions", "text": "x\r## CRHeading\r"}, "line"),
                ({"heading": "ADR-003: Plugins", "text": "ok\u2028# Top"}, "line"),
                ({"heading": "Sep\u2028## Inj", "text": "y"}, "one line"),
                ({"heading": "Sep\x85## Inj", "text": "y"}, "one line"),
                ({"heading": "Sep\x0c## Inj", "text": "y"}, "one line"),
                # A setext underline turns the line above it into a heading.
                ({"heading": "ADR-003: Plugins", "text": "Consequences\n---\nmore"}, "underline"),
                ({"heading": "ADR-003: Plugins", "text": "Consequences\n=====", "mode": "append"}, "underline"),
                # A heading of the section's own level (or higher) would end it.
                ({"heading": "ADR-002: Hashes", "text": "fine\n\n## Sneaky"}, "level 2"),
                ({"heading": "ADR-001: SQLite > Context", "text": "# Top"}, "level 1"),
            ]
            for args, reason in hostile:
                answer = await call(session, "notes", {"action": "set", **args})
                assert answer.get("_error") and answer["error"] == "bad_argument", (args, answer)
                assert reason in answer["message"], (args, answer["message"])
                assert adr.read_text() == SEVEN, args
            assert (await call(session, "notes"))["headings"] == before["headings"]

            # Deeper headings and closed fences are fine: they become part of the section.
            fine = await call(
                session,
                "notes",
                {
                    "action": "set",
                    "heading": "ADR-003: Plugins",
                    "text": "```\n## not a heading\n```\n\n### Risks\n\nNone.",
                },
            )
            assert fine["action"] == "replaced"
            after = await call(session, "notes")
            assert [h["heading"] for h in after["headings"]] == [h["heading"] for h in before["headings"]] + ["Risks"]


async def test_a_file_with_an_unclosed_fence_is_answered_not_hung(project: Path, cache_dir: Path) -> None:
    adr = project / ".codecairn" / "adr.md"
    adr.parent.mkdir()
    broken = "# Architecture decisions\n\n## A\n\n```\ncode\n"
    adr.write_text(broken)
    async with stdio_client(server_params(project, cache_dir, CODECAIRN_TOOL_TIMEOUT="8")) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            # A new section at the end would land inside the fence: refused, with the reason and the way out.
            answer = await call(session, "notes", {"action": "set", "heading": "B", "text": "bee"})
            assert answer.get("_error") and answer["error"] == "bad_argument", answer
            assert "line 5" in answer["message"] and "never closed" in answer["message"]
            appended = await call(session, "notes", {"action": "set", "heading": "A", "text": "more", "mode": "append"})
            assert appended["error"] == "bad_argument" and "line 5" in appended["message"]
            assert adr.read_text() == broken

            outline = await call(session, "notes")
            assert [h["heading"] for h in outline["headings"]] == ["Architecture decisions", "A"]
            assert outline["unclosed"] == {"block": "code fence", "line": 5}

            # Replacing the section's text closes the matter; then new sections go where they belong.
            await call(session, "notes", {"action": "set", "heading": "A", "text": "```\ncode\n```"})
            made = await call(session, "notes", {"action": "set", "heading": "B", "text": "bee"})
            assert made["action"] == "created"
            assert adr.read_text() == "# Architecture decisions\n\n## A\n\n```\ncode\n```\n\n## B\n\nbee\n"
            assert "unclosed" not in await call(session, "notes")


# ---- properties: whatever the text, an edit is refused or touches only its own section ------------

# A document with every way Markdown hides or makes a heading: a fence, an HTML comment, a list, a
# setext heading. (address, first line, last heading line, last line of its own text)
TRICKY = (
    "# Architecture decisions\n\nIntro text.\n\n"
    "## ADR-001: SQLite\n\nStatus: accepted\n\n```markdown\n## not a heading\n```\n\n"
    "### Context\n\nShared index.\n\n"
    "### Decision\n\n<!--\n# hidden\n-->\nWAL mode.\n\n"
    "ADR-002: Hashes\n---------------\n\nStatus: proposed\n\n"
    "### Context\n\n- a list\n- ## in a list\n\n"
    "## ADR-003: Plugins\n\nStatus: accepted\n"
)
TRICKY_SECTIONS = [
    ("Architecture decisions", 1, 1, 4),
    ("ADR-001: SQLite", 5, 5, 12),
    ("ADR-001 > Context", 13, 13, 16),
    ("ADR-001 > Decision", 17, 17, 23),
    ("ADR-002: Hashes", 24, 25, 28),
    ("ADR-002 > Context", 29, 29, 33),
    ("ADR-003: Plugins", 34, 34, 36),
]
TRICKY_LEVELS = [1, 2, 3, 3, 2, 3, 2]

# Pieces that mean something to a Markdown reader, and every Unicode line separator.
_PIECES = [
    *["#", "## ", "### ", "#### ", "##### ", "###### ", " #", "```", "~~~", "````", "`"],
    *["\n", "\n", "\n\n", "\r", "\r\n", "\v", "\f", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"],
    *[" ", "   ", "    ", "\t", "x", "word", "Status", "---", "===", "***", "> ", "- ", "1. ", "|", "|---|"],
    *["<!--", "-->", "<div>", "</div>", "<pre>", "</pre>", "<?", "?>", "[a]: /u", "\\", "\ufeff", "\u00a0"],
]
_texts = st.one_of(
    st.lists(st.sampled_from(_PIECES), max_size=30).map("".join),
    st.text(alphabet=st.characters(blacklist_characters="\0", blacklist_categories=("Cs",)), max_size=40),
)
_SETTINGS = settings(
    max_examples=int(os.environ.get("CODECAIRN_PROPERTY_EXAMPLES", "150")),
    deadline=None,
    database=None,
    derandomize=True,
)


def _notes_in(directory: str, doc: str) -> tuple[NotesFile, Path]:
    path = Path(directory) / ".codecairn" / "adr.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(doc.encode())
    return NotesFile(Path(directory)), path


def _lines(path: Path) -> list[str]:
    return path.read_bytes().decode().splitlines(keepends=True)


def _outline(notes: NotesFile) -> list[tuple[int, str]]:
    return [(h["level"], h["heading"]) for h in notes.outline()["headings"]]


def _body_lines(text: str) -> list[str]:
    """The lines a text stands for: any line separator ends a line; blank lines around it go."""
    lines = text.splitlines()
    while lines and not lines[0].strip(" \t"):
        lines.pop(0)
    while lines and not lines[-1].strip(" \t"):
        lines.pop()
    return lines


def test_the_tricky_document_has_the_sections_a_reader_sees(tmp_path: Path) -> None:
    notes, _ = _notes_in(str(tmp_path), TRICKY)
    outline = notes.outline()["headings"]
    assert [h["line"] for h in outline] == [line for _, line, _, _ in TRICKY_SECTIONS]
    assert [h["level"] for h in outline] == TRICKY_LEVELS
    for address, line, _, own_end in TRICKY_SECTIONS:
        got = notes.get(address, None)
        assert got["start_line"] == line, address
    assert notes.get("ADR-002", None)["text"].startswith("ADR-002: Hashes\n---------------\n\nStatus: proposed")


@_SETTINGS
@given(target=st.sampled_from(range(len(TRICKY_SECTIONS))), text=_texts, append=st.booleans())
def test_setting_any_text_is_refused_or_leaves_every_other_section_byte_identical(
    target: int, text: str, append: bool
) -> None:
    address, line, heading_end, own_end = TRICKY_SECTIONS[target]
    with tempfile.TemporaryDirectory() as d:
        notes, path = _notes_in(d, TRICKY)
        old, before = _lines(path), _outline(notes)
        try:
            notes.set(address, text, append=append)
        except ToolError as exc:
            assert exc.code == "bad_argument", exc.message
            assert path.read_bytes() == TRICKY.encode(), "a refused edit changes nothing"
            return
        new = _lines(path)
        suffix = old[own_end:]
        assert new[:heading_end] == old[:heading_end], "everything up to the heading is untouched"
        assert new[len(new) - len(suffix) :] == suffix, "everything after the section's own text is untouched"
        own = [x.rstrip("\n") for x in new[heading_end : len(new) - len(suffix)]]
        kept = _body_lines("".join(old[heading_end:own_end])) if append else []
        given = _body_lines(text)
        assert _body_lines("\n".join(own)) == kept + ([""] if kept and given else []) + given
        after = _outline(notes)
        added = len(after) - len(before)
        assert after[: target + 1] == before[: target + 1] and after[target + 1 + added :] == before[target + 1 :]
        assert all(level > TRICKY_LEVELS[target] for level, _ in after[target + 1 : target + 1 + added]), (
            "only deeper headings come with text"
        )


@_SETTINGS
@given(parent=st.sampled_from([None, 0, 1, 4, 6]), heading=_texts, text=_texts)
def test_creating_any_section_is_refused_or_only_adds_it(parent: int | None, heading: str, text: str) -> None:
    assume(" > " not in heading)  # that would be an address of its own
    with tempfile.TemporaryDirectory() as d:
        notes, path = _notes_in(d, TRICKY)
        old, before = _lines(path), _outline(notes)
        address = heading if parent is None else f"{TRICKY_SECTIONS[parent][0]} > {heading}"
        try:
            made = notes.set(address, text)
        except ToolError as exc:
            assert exc.code in ("bad_argument", "not_found"), exc.message
            assert path.read_bytes() == TRICKY.encode(), "a refused edit changes nothing"
            return
        if made["action"] != "created":
            return  # the text named an existing section: covered by the test above
        new = _lines(path)
        at = len(old) if parent is None else _end_of(parent)
        trimmed = old[:at]
        while trimmed and not trimmed[-1].strip():
            trimmed.pop()
        assert new[: len(trimmed)] == trimmed and new[len(new) - (len(old) - at) :] == old[at:]
        name = " ".join(heading.split())
        assert (made["heading"], made["start_line"]) == (name, len(trimmed) + 2)
        after = _outline(notes)
        level = 2 if parent is None else TRICKY_LEVELS[parent] + 1
        k = sum(1 for _, line, _, _ in TRICKY_SECTIONS if line <= at)
        added = after[k : len(after) - (len(before) - k)]
        assert after[:k] == before[:k] and after[len(after) - (len(before) - k) :] == before[k:]
        assert added[0] == (level, name) and all(lvl > level for lvl, _ in added[1:])


def _end_of(index: int) -> int:
    """The last line of a TRICKY section, sub-sections included."""
    level = TRICKY_LEVELS[index]
    for later, lvl in zip(TRICKY_SECTIONS[index + 1 :], TRICKY_LEVELS[index + 1 :], strict=True):
        if lvl <= level:
            return later[1] - 1
    return TRICKY.count("\n")


@_SETTINGS
@given(doc=_texts.map(lambda t: "# Architecture decisions\n\n" + t), text=_texts)
def test_any_document_is_answered_and_a_new_section_lands_as_a_section_or_is_refused(doc: str, text: str) -> None:
    with tempfile.TemporaryDirectory() as d:
        notes, path = _notes_in(d, doc)
        before = _outline(notes)
        everything = notes.get(None, None)
        assert everything["lines"] == len(doc.splitlines())
        try:
            made = notes.set("Zed", text)
        except ToolError as exc:
            assert exc.code == "bad_argument", exc.message
            assert path.read_bytes() == doc.encode()
            return
        after = _outline(notes)
        if made["action"] == "created":
            assert after[: len(before)] == before and after[len(before)] == (2, "Zed")
            assert all(level > 2 for level, _ in after[len(before) + 1 :])
            old = doc.splitlines(keepends=True)
            while old and not old[-1].strip(" \t\r\n\v\f\x1c\x1d\x1e\x85\u2028\u2029"):
                old.pop()
            assert path.read_bytes().decode().startswith("".join(old).rstrip("\r\n\v\f\x1c\x1d\x1e\x85\u2028\u2029"))
        for level, heading in after:
            if heading.strip() and (level, heading) in before and after.count((level, heading)) == 1:
                with tempfile.TemporaryDirectory() as d2:
                    copy, copy_path = _notes_in(d2, path.read_bytes().decode())
                    try:
                        copy.delete(heading)
                    except ToolError as exc:
                        assert exc.code in ("bad_argument", "not_found"), exc.message
                        continue
                    rest = _outline(copy)
                    assert (level, heading) not in rest and set(rest) <= set(after)
                break
