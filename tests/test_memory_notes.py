"""Architecture decisions travel with the code: an agent keeps them in a Markdown file in the
repository through the `notes` tool, section by section, and a human reads the same file."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client
from realcode import copy_stdlib

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

            gone = await call(session, "notes", {"action": "delete", "heading": "ADR-001 > Decision"})
            assert gone == {
                "path": ".codecairn/adr.md",
                "deleted": "Decision",
                "removed_lines": 4,
                "generation": gone["generation"],
            }
            everything = await call(session, "notes", {"action": "get"})
            assert "Decision" not in everything["text"] and "\n\n\n" not in everything["text"]
            assert everything["text"] == adr.read_text().rstrip("\n")
            assert sorted(p.name for p in adr.parent.iterdir()) == ["adr.md"], "no temporary files left"

            # A human edits the file by hand; the agent sees it.
            adr.write_text(adr.read_text() + "\n## ADR-003: Hand-written\n\nBy a human.\n")
            assert (await call(session, "notes", {"action": "get", "heading": "ADR-003"}))["text"].endswith(
                "By a human."
            )


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

    async with stdio_client(server_params(project, cache_dir, CODECAIRN_NOTES_FILE="../escape.md")) as (r, w):
        async with ClientSession(r, w) as session:
            await session.initialize()
            answer = await call(session, "notes", {"action": "set", "heading": "x", "text": "y"})
            assert answer["error"] == "outside_workspace"
    assert not (tmp_path / "escape.md").exists()
