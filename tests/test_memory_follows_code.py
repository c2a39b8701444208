"""An agent remembers places in real code (a copy of the standard library's json and textwrap),
the code is edited, moved, renamed and deleted under it, and every recall says where the code is
now — or that it is gone, and where it was last seen. Over the real MCP client, over stdio."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client
from realcode import copy_stdlib

pytestmark = pytest.mark.anyio


def server_params(root: Path, cache: Path, *extra: str, env: dict | None = None) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "codecairn.cli", "serve", str(root), *extra],
        env={**os.environ, "CODECAIRN_CACHE_DIR": str(cache), **(env or {})},
    )


async def call(session: ClientSession, tool: str, args: dict | None = None) -> dict:
    result = await session.call_tool(tool, args or {})
    payload = json.loads(result.content[0].text)
    return {"_error": True, **payload} if result.is_error else payload


def read_lines(root: Path, path: str, start: int, end: int) -> list[str]:
    return (root / path).read_text().splitlines()[start - 1 : end]


def line_of(root: Path, path: str, text: str) -> int:
    """The 1-based line where ``text`` (a whole line, stripped) first occurs."""
    for number, line in enumerate((root / path).read_text().splitlines(), 1):
        if line.strip() == text:
            return number
    raise AssertionError(f"{text!r} is not in {path}")


def cut_block(root: Path, path: str, first: str, until: str) -> list[str]:
    """Remove the lines from the one starting with ``first`` up to (not including) the next line
    starting with ``until``; return them."""
    lines = (root / path).read_text().splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line.startswith(first))
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith(until))
    block = lines[start:end]
    (root / path).write_text("".join(lines[:start] + lines[end:]))
    return block


def by_id(recalled: dict) -> dict[int, dict]:
    return {m["id"]: m for m in recalled["memories"]}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    return copy_stdlib(root, ("json", "textwrap", "shlex"))


async def test_remembered_places_follow_edits_moves_renames_and_deletions(project: Path, cache_dir: Path) -> None:
    root = project
    async with stdio_client(server_params(root, cache_dir, "--no-index")) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            assert {"remember", "recall", "forget", "notes"} <= {t.name for t in (await session.list_tools()).tools}
            await call(session, "index")

            # By symbol: the whole method, anchored to itself.
            raw = await call(
                session,
                "remember",
                {
                    "symbol": "JSONDecoder.raw_decode",
                    "tags": ["errors"],
                    "reason": "where a decoding failure becomes JSONDecodeError",
                },
            )
            assert raw["path"] == "json/decoder.py" and raw["symbol"] == "json.decoder.JSONDecoder.raw_decode"
            raw_text = read_lines(root, raw["path"], raw["start_line"], raw["end_line"])
            assert raw_text[0].strip().startswith("def raw_decode(")

            # By path and lines: three lines in the middle of a function.
            start = line_of(root, "json/decoder.py", "chunk = _m(s, end)")
            scan = await call(
                session,
                "remember",
                {
                    "path": "json/decoder.py",
                    "start_line": start,
                    "end_line": start + 2,
                    "tags": ["parsing", "hot path"],
                    "reason": "the string scanner's inner loop: one regex match per chunk",
                },
            )
            assert scan["symbol"] == "json.decoder.py_scanstring"
            scan_text = read_lines(root, "json/decoder.py", start, start + 2)

            wrap = await call(
                session,
                "remember",
                {"symbol": "textwrap.TextWrapper._wrap_chunks", "reason": "line filling: where long words get broken"},
            )
            wrap_place = (wrap["start_line"], wrap["end_line"])

            # Recall by path (a directory), by symbol (members included), by words of the reason.
            in_json = await call(session, "recall", {"path": "json"})
            assert set(by_id(in_json)) == {raw["id"], scan["id"]} and in_json["complete"] is True
            assert all(m["state"] == "current" for m in in_json["memories"])
            assert by_id(in_json)[scan["id"]]["tags"] == ["parsing", "hot path"]
            of_class = await call(session, "recall", {"symbol": "JSONDecoder"})
            assert [m["id"] for m in of_class["memories"]] == [raw["id"]]
            found = await call(session, "recall", {"query": "Decoding failures"})
            assert found["memories"][0]["id"] == raw["id"]
            assert found["memories"][0]["reason"] == "where a decoding failure becomes JSONDecodeError"
            tagged = await call(session, "recall", {"tags": ["Hot Path"]})
            assert [m["id"] for m in tagged["memories"]] == [scan["id"]]
            assert (await call(session, "stats"))["memories"] == 3

            # 1. An edit above shifts every line: recall (before any re-index) has the new lines.
            decoder = root / "json/decoder.py"
            decoder.write_text('"""A note added on top."""\n# and two\n# more lines\n\n' + decoder.read_text())
            shifted = by_id(await call(session, "recall", {"path": "json/decoder.py"}))
            assert shifted[raw["id"]]["state"] == "moved"
            assert shifted[raw["id"]]["start_line"] == raw["start_line"] + 4
            assert shifted[raw["id"]]["remembered_at"] == f"json/decoder.py:{raw['start_line']}-{raw['end_line']}"
            for m, text in ((shifted[raw["id"]], raw_text), (shifted[scan["id"]], scan_text)):
                assert read_lines(root, m["path"], m["start_line"], m["end_line"]) == text

            # 2. The function is moved to the end of the file: its remembered lines go with it.
            block = cut_block(root, "json/decoder.py", "def py_scanstring(", "scanstring = ")
            decoder.write_text(decoder.read_text() + "\n\n" + "".join(block))
            await call(session, "index")
            moved = by_id(await call(session, "recall", {"path": "json/decoder.py"}))
            m, r = moved[scan["id"]], moved[raw["id"]]
            assert m["state"] == "moved" and m["start_line"] > r["end_line"], "now after the class"
            assert read_lines(root, m["path"], m["start_line"], m["end_line"]) == scan_text
            assert r["start_line"] < shifted[raw["id"]]["start_line"], "the class moved up"
            assert read_lines(root, r["path"], r["start_line"], r["end_line"]) == raw_text

            # 3. The file is renamed (and edited on the way, so its content hash is no help): the
            #    module's qualified names change; the memories follow their symbols' structure.
            decoder.rename(root / "json/decoding.py")
            (root / "json/decoding.py").write_text("import sys\n" + (root / "json/decoding.py").read_text())
            await call(session, "index")
            assert (await call(session, "recall", {"path": "json/decoder.py"}))["memories"] == []
            renamed = by_id(await call(session, "recall", {"path": "json/decoding.py"}))
            assert set(renamed) == {raw["id"], scan["id"]}
            for mid, text in ((raw["id"], raw_text), (scan["id"], scan_text)):
                m = renamed[mid]
                assert m["state"] == "moved" and read_lines(root, m["path"], m["start_line"], m["end_line"]) == text
            assert renamed[raw["id"]]["symbol"] == "json.decoding.JSONDecoder.raw_decode"

            # 4. The code is deleted: the memory stays, orphaned, at its last known place.
            cut_block(root, "textwrap.py", "    def _wrap_chunks(", "    def ")
            await call(session, "index")
            gone = await call(session, "recall", {"symbol": "_wrap_chunks"})
            assert len(gone["memories"]) == 1
            g = gone["memories"][0]
            assert g["state"] == "orphaned" and g["path"] == "textwrap.py"
            assert (g["start_line"], g["end_line"]) == wrap_place
            assert g["reason"] == "line filling: where long words get broken" and "hint" in gone
            assert len((await call(session, "recall"))["memories"]) == 3, "never silently dropped"

            # forget: by id, then by tag; stats counts what is left.
            assert await call(session, "forget", {"ids": [wrap["id"], 999]}) == {
                "forgotten": 1,
                "ids": [wrap["id"]],
                "not_found": [999],
                "generation": gone["generation"],
            }
            assert (await call(session, "forget", {"tags": ["errors"]}))["forgotten"] == 1
            left = await call(session, "recall")
            assert [m["id"] for m in left["memories"]] == [scan["id"]]
            assert (await call(session, "stats"))["memories"] == 1


async def test_edited_lines_inside_a_surviving_function_widen_to_it_and_say_so(project: Path, cache_dir: Path) -> None:
    root = project
    async with stdio_client(server_params(root, cache_dir)) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            await call(session, "index")
            start = line_of(root, "shlex.py", "def split(s, comments=False, posix=True):")
            body = line_of(root, "shlex.py", "lex.whitespace_split = True")
            kept = await call(
                session,
                "remember",
                {
                    "path": "shlex.py",
                    "start_line": body,
                    "end_line": body,
                    "reason": "split() turns on whitespace splitting",
                },
            )
            assert kept["symbol"] == "shlex.split"

            text = (root / "shlex.py").read_text()
            (root / "shlex.py").write_text(text.replace("lex.whitespace_split = True", "lex.whitespace_split = 1"))
            m = (await call(session, "recall", {"symbol": "shlex.split"}))["memories"][0]
            assert m["edited"] is True and m["start_line"] == start, "the whole function: the line itself changed"
            assert read_lines(root, "shlex.py", m["end_line"], m["end_line"])[0].strip().startswith("return")

            (root / "shlex.py").write_text(text)  # the edit is undone: back to the very line
            m = (await call(session, "recall", {"symbol": "shlex.split"}))["memories"][0]
            assert (m["start_line"], m["end_line"], m["state"]) == (body, body, "current") and "edited" not in m


async def test_memories_survive_a_server_restart_and_edits_made_while_it_was_down(
    project: Path, cache_dir: Path
) -> None:
    root = project
    async with stdio_client(server_params(root, cache_dir, "--no-index")) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            await call(session, "index")
            saved = await call(
                session, "remember", {"symbol": "json.dumps", "reason": "the public entry point", "tags": ["api"]}
            )
    original = read_lines(root, "json/__init__.py", saved["start_line"], saved["end_line"])

    init = root / "json/__init__.py"
    init.write_text("# edited while no server was running\n" * 7 + init.read_text())

    async with stdio_client(server_params(root, cache_dir, "--no-index")) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            assert (await call(session, "stats"))["memories"] == 1
            m = (await call(session, "recall", {"query": "entry point"}))["memories"][0]
            assert m["id"] == saved["id"] and m["tags"] == ["api"] and m["symbol"] == "json.dumps"
            assert (m["state"], m["start_line"]) == ("moved", saved["start_line"] + 7)
            assert read_lines(root, m["path"], m["start_line"], m["end_line"]) == original


async def test_bad_memory_requests_get_clear_errors_and_change_nothing(
    project: Path, cache_dir: Path, tmp_path: Path
) -> None:
    root = project
    outside = tmp_path / "outside.py"
    outside.write_text("SECRET = 1\n")
    (root / "escape.py").symlink_to(outside)
    async with stdio_client(server_params(root, cache_dir, "--no-index")) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            await call(session, "index")
            first = await call(session, "remember", {"symbol": "shlex.quote", "reason": "quoting for a shell"})
            again = await call(session, "remember", {"symbol": "shlex.quote", "reason": "quoting for a shell"})
            assert again["id"] == first["id"] and again["existing"] is True
            before = await call(session, "recall")

            bad = [
                ({"symbol": "shlex.quote"}, "bad_argument", "reason"),
                ({"symbol": "shlex.quote", "reason": "  "}, "bad_argument", "reason"),
                ({"path": "shlex.py", "reason": "x"}, "bad_argument", "start_line"),
                ({"symbol": "shlex.quote", "start_line": 3, "reason": "x"}, "bad_argument", "not both"),
                ({"path": "shlex.py", "start_line": 20, "end_line": 10, "reason": "x"}, "bad_argument", "lines"),
                ({"path": "shlex.py", "start_line": 1, "end_line": 100000, "reason": "x"}, "bad_argument", "lines"),
                ({"path": "../outside.py", "start_line": 1, "reason": "x"}, "outside_workspace", "outside"),
                ({"path": str(outside), "start_line": 1, "reason": "x"}, "outside_workspace", "outside"),
                ({"path": "escape.py", "start_line": 1, "reason": "x"}, "outside_workspace", "outside"),
                ({"path": "no/such/file.py", "start_line": 1, "reason": "x"}, "not_found", "file"),
                ({"symbol": "NoSuchThingAnywhere", "reason": "x"}, "not_found", "NoSuchThingAnywhere"),
                ({"symbol": "shlex.quote", "reason": "x", "tags": ["two\nlines"]}, "bad_argument", "tag"),
                ({"symbol": "shlex.quote", "reason": "x", "colour": "red"}, "bad_argument", "colour"),
            ]
            for args, code, words in bad:
                answer = await call(session, "remember", args)
                assert answer.get("_error") and answer["error"] == code, (args, answer)
                assert words in answer["message"], (args, answer)

            ambiguous = await call(session, "remember", {"symbol": "__init__", "reason": "constructors"})
            assert ambiguous["error"] == "bad_argument" and ambiguous["ambiguous"] is True
            # grouped by file, as every ambiguous answer is; path and line choose one (an overload)
            by_file = ambiguous["candidates"]
            assert sum(len(group) for group in by_file.values()) > 1 and "line" in ambiguous["message"]
            path, group = next(iter(by_file.items()))
            one = await call(
                session,
                "remember",
                {"symbol": "__init__", "path": path, "line": int(group[0]["lines"].split("-")[0]), "reason": "x"},
            )
            assert one["path"] == path and one["symbol"] == group[0]["qualified_name"], one
            # the same place and reason again, with new tags: they join it (they were dropped)
            again = await call(
                session,
                "remember",
                {"symbol": "__init__", "path": path, "line": int(group[0]["lines"].split("-")[0]), "reason": "x",
                 "tags": ["later"]},
            )  # fmt: skip
            assert again["existing"] is True and again["id"] == one["id"] and again["tags_added"] == ["later"]
            assert (await call(session, "recall", {"tags": ["later"]}))["memories"][0]["id"] == one["id"]
            await call(session, "forget", {"ids": [one["id"]]})

            for args in ({}, {"ids": []}, {"ids": ["one"]}):
                answer = await call(session, "forget", args)
                assert answer["_error"] and answer["error"] == "bad_argument", args
            assert (await call(session, "recall", {"path": "../"}))["error"] == "outside_workspace"
            assert (await call(session, "recall", {"query": ""}))["error"] == "bad_argument"
            assert (await call(session, "recall", {"limit": 0}))["error"] == "bad_argument"

            assert (await call(session, "recall")) == before
            assert (await call(session, "stats"))["memories"] == 1


async def test_a_function_renamed_where_it_stands_keeps_its_memories_in_its_file(
    project: Path, cache_dir: Path
) -> None:
    root = project
    (root / "vendored").mkdir()
    (root / "vendored" / "shlex.py").write_text((root / "shlex.py").read_text())  # a copy elsewhere
    async with stdio_client(server_params(root, cache_dir)) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            await call(session, "index")
            start = line_of(root, "shlex.py", "def quote(s):")
            whole = await call(session, "remember", {"symbol": "shlex.quote", "path": "shlex.py", "reason": "quoting"})
            header = await call(
                session, "remember", {"path": "shlex.py", "start_line": start, "reason": "the quote header"}
            )
            text = (root / "shlex.py").read_text()
            (root / "shlex.py").write_text(text.replace("def quote(s):", "def quote_arg(s):"))
            recalled = by_id(await call(session, "recall", {"path": "shlex.py"}))
            # Before: the symbol's memory orphaned; the header's moved into vendored/shlex.py, the copy
            for memory in (whole, header):
                m = recalled[memory["id"]]
                assert (m["path"], m["symbol"], m["start_line"]) == ("shlex.py", "shlex.quote_arg", start), m
                assert m["edited"] is True  # its first line changed: the whole function
            assert recalled[whole["id"]]["state"] == "current" and recalled[header["id"]]["state"] == "moved"


async def test_a_file_level_memory_follows_its_first_line_through_an_edit_inside_it(
    project: Path, cache_dir: Path
) -> None:
    root = project
    async with stdio_client(server_params(root, cache_dir)) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            await call(session, "index")
            first = line_of(root, "shlex.py", "import os")
            last = line_of(root, "shlex.py", '__all__ = ["shlex", "split", "quote", "join"]')
            kept = await call(
                session, "remember", {"path": "shlex.py", "start_line": first, "end_line": last, "reason": "imports"}
            )
            assert "symbol" not in kept or not kept["symbol"], "no one symbol holds the imports and __all__"
            text = (root / "shlex.py").read_text()
            # One token changed inside the block, and a line added above it: it was orphaned
            edited = text.replace("from io import StringIO", "from io import StringIO, BytesIO")
            (root / "shlex.py").write_text(edited.replace("import os\n", "# the imports\nimport os\n", 1))
            m = by_id(await call(session, "recall", {"path": "shlex.py"}))[kept["id"]]
            assert (m["state"], m["start_line"], m["end_line"]) == ("moved", first + 1, last + 1), m
            assert m["edited"] is True, "its lines changed: said"
            (root / "shlex.py").write_text(text)  # undone: back to the very lines, unedited
            m = by_id(await call(session, "recall", {"path": "shlex.py"}))[kept["id"]]
            assert (m["state"], m["start_line"], m["end_line"]) == ("current", first, last) and "edited" not in m


async def test_a_function_renamed_with_lines_added_above_it_keeps_its_memory(project: Path, cache_dir: Path) -> None:
    root = project
    async with stdio_client(server_params(root, cache_dir)) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            await call(session, "index")
            start = line_of(root, "shlex.py", "def quote(s):")
            whole = await call(session, "remember", {"symbol": "shlex.quote", "reason": "quoting"})
            text = (root / "shlex.py").read_text()
            # a routine refactor: renamed, and a constant added above it (no symbol starts where it did)
            (root / "shlex.py").write_text(text.replace("def quote(s):", "QUOTE_LIMIT = 3\n\n\ndef quote_shell(s):"))
            m = by_id(await call(session, "recall", {"path": "shlex.py"}))[whole["id"]]
            assert (m["symbol"], m["start_line"], m["state"]) == ("shlex.quote_shell", start + 3, "moved"), m
