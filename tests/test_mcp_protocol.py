"""The protocol surface a client sees on the wire: version negotiation, `instructions`, ping,
notifications (never answered; a tools/call sent as one runs nothing), logging/setLevel, output
schemas that every answer satisfies, and an end of input that ends the server in bounded time."""

from __future__ import annotations

import json
import time
from pathlib import Path

import jsonschema
import pytest
from rawwire import INITIALIZE, INITIALIZED, TEXT_FIELDS, RawServer, answer_from_blocks, tool_answer, tool_call
from realcode import copy_stdlib

QUIET = ("--no-index", "--no-watch", "--no-embed")


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return copy_stdlib(tmp_path / "root", ("json", "textwrap"))


@pytest.mark.parametrize("version", ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"])
def test_each_protocol_version_is_negotiated_and_served(root: Path, cache_dir: Path, version: str) -> None:
    with RawServer(root, cache_dir, *QUIET) as server:
        server.send({**INITIALIZE, "params": {**INITIALIZE["params"], "protocolVersion": version}}, INITIALIZED)
        result = server.reply("init")["result"]
        assert result["protocolVersion"] == version
        assert {"tools", "logging"} <= set(result["capabilities"])
        server.send({"jsonrpc": "2.0", "id": "ping", "method": "ping"})
        assert server.reply("ping")["result"] == {}
        server.send(tool_call("stats", "stats", {}))
        assert tool_answer(server.reply("stats"))["files"] == 0
        server.close()


def test_initialize_tells_an_agent_which_tool_answers_which_question(root: Path, cache_dir: Path) -> None:
    with RawServer(root, cache_dir, *QUIET) as server:
        instructions = server.initialize()["result"]["instructions"]
        server.close()
    assert len(instructions.splitlines()) <= 12, "a few lines, read before every session"
    for tool in ("find_symbols", "file_outline", "get_symbol", "read_symbol"):
        assert tool in instructions


def test_notifications_are_never_answered_and_a_call_sent_as_one_runs_nothing(root: Path, cache_dir: Path) -> None:
    with RawServer(root, cache_dir, *QUIET) as server:
        server.initialize()
        call_without_id = tool_call(None, "remember", {"reason": "sent as a notification", "path": "textwrap.py"})
        del call_without_id["id"]
        server.send(
            {"jsonrpc": "2.0", "method": "notifications/unknown_kind"},
            {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "never-sent"}},
            call_without_id,
            {"jsonrpc": "2.0", "method": "notifications/roots/list_changed"},
            tool_call("recall", "recall", {}),
        )
        recalled = tool_answer(server.reply("recall"))
        server.close()
    assert recalled["memories"] == [], "the tools/call sent as a notification remembered nothing"
    replies = [m for m in server.arrived if "method" not in m]
    assert [m.get("id") for m in replies] == ["init", "recall"], "nothing else was answered"


def test_set_level_sends_the_servers_log_to_the_client(root: Path, cache_dir: Path) -> None:
    with RawServer(root, cache_dir, *QUIET) as server:
        server.initialize()
        server.send({"jsonrpc": "2.0", "id": "level", "method": "logging/setLevel", "params": {"level": "debug"}})
        assert server.reply("level")["result"] == {}
        server.send("this line is not JSON", tool_call("after", "stats", {}))
        server.reply(None)  # the parse error
        server.reply("after")
        logged = [m for m in server.arrived if m.get("method") == "notifications/message"]
        assert any(m["params"]["level"] == "warning" and "malformed" in m["params"]["data"] for m in logged), logged

        server.send({"jsonrpc": "2.0", "id": "quiet", "method": "logging/setLevel", "params": {"level": "error"}})
        server.reply("quiet")
        before = len([m for m in server.arrived if m.get("method") == "notifications/message"])
        server.send("not JSON either", tool_call("last", "stats", {}))
        server.reply("last")
        assert len([m for m in server.arrived if m.get("method") == "notifications/message"]) == before
        bad = {"jsonrpc": "2.0", "id": "bad", "method": "logging/setLevel", "params": {"level": "loud"}}
        server.send(bad)
        assert server.reply("bad")["error"]["code"] == -32602
        server.close()


def test_every_tool_advertises_an_output_schema_its_answers_satisfy(root: Path, cache_dir: Path) -> None:
    for side, files in (("left", {"a.txt": "one\n", "b.txt": "two\n", "c.txt": "3\n"}),
                        ("right", {"a.txt": "one!\n", "b2.txt": "two\n", "d.txt": "4\n"})):  # fmt: skip
        (root / side).mkdir()
        for name, text in files.items():
            (root / side / name).write_text(text)
    calls: list[tuple[str, dict]] = [
        ("index", {}),
        ("stats", {}),
        ("find_symbols", {"name": "JSONDecoder"}),
        ("file_outline", {"path": "json/decoder.py"}),
        ("get_symbol", {"name": "JSONDecoder"}),
        ("read_symbol", {"name": "TextWrapper.wrap"}),
        ("remember", {"reason": "the wrapping loop", "symbol": "textwrap.TextWrapper._wrap_chunks"}),
        ("recall", {}),
        ("notes", {}),
        ("forget", {"symbol": "textwrap.TextWrapper._wrap_chunks"}),
        # the graph tools (issue 16): full, cut, ambiguous and still-preparing answers alike
        ("trace", {"name": "JSONDecoder.raw_decode", "direction": "both"}),
        ("trace", {"name": "TextWrapper._split", "direction": "callers", "depth": 1, "limit": 1}),
        ("trace", {"name": "JSONDecoder.decode", "to": "JSONDecoder.raw_decode"}),
        ("trace", {"name": "JSONDecoder.decode", "to": "__init__"}),
        ("trace", {"name": "__init__"}),
        ("find_references", {"name": "JSONDecodeError"}),
        ("find_references", {"name": "TextWrapper", "tokens": False, "limit": 1}),
        ("type_hierarchy", {"name": "JSONDecodeError"}),
        ("type_hierarchy", {"name": "JSONDecoder", "limit": 1}),
        ("impact", {"symbols": ["JSONDecoder.raw_decode"]}),
        ("impact", {"symbols": ["TextWrapper._split"], "depth": 1, "limit": 1}),
        ("architecture", {"budget": 64}),
        ("graph_schema", {}),
        ("query_graph", {"sql": "SELECT name, kind FROM symbols", "limit": 2}),
        ("invalidate", {"paths": ["json/tool.py"]}),
        ("index", {}),
        # the file tools (issue 15): reads, searches, comparisons, edits, each answer as its schema says
        ("read", {"path": "json/decoder.py", "start_line": 1, "end_line": 4}),
        ("read", {"path": "textwrap.py", "start_byte": 0, "max_bytes": 50}),
        ("read_snippets", {"snippets": [{"path": "textwrap.py", "tail": 2}, {"path": "json/missing.py"}]}),
        ("file_hash", {"path": "textwrap.py"}),
        ("validate_json", {"text": '{"a": [1,}'}),
        ("validate_json", {"text": "[1, 2]"}),
        ("search_text", {"pattern": "def wrap", "literal": True, "context": 1}),
        ("search_text", {"pattern": "no such text anywhere", "include": ["*.py"]}),
        ("find_files", {"query": "jsdeco"}),
        ("list_files", {"include": ["*.py"], "limit": 2}),
        ("project_map", {"depth": 1}),
        ("compare_directories", {"left": "left", "right": "right", "include_diff": True}),
        ("compare_symbols", {"left": {"name": "JSONDecoder.decode"}, "right": {"name": "JSONDecoder.raw_decode"}}),
        ("compare_symbols", {"left": {"name": "__init__"}, "right": {"name": "JSONEncoder.__init__"}}),
        ("edit", {"path": "json/tool.py", "insert_line": 1, "new_text": "# edited\n"}),
        ("edit_symbol", {"name": "__init__", "new_text": "pass\n"}),
        ("edit_symbol", {"name": "JSONEncoder.default", "position": "before", "new_text": "    # note\n"}),
        (
            "edit_files",
            {
                "files": [
                    {"path": "left/new.txt", "create": True, "new_text": "new\n"},
                    {"path": "left/c.txt", "delete": True},
                ]
            },
        ),  # fmt: skip
        ("history", {"limit": 2}),
        ("undo", {}),
        ("clear", {}),
    ]
    with RawServer(root, cache_dir, *QUIET) as server:
        server.initialize()
        server.send({"jsonrpc": "2.0", "id": "list", "method": "tools/list"})
        tools = {t["name"]: t for t in server.reply("list")["result"]["tools"]}
        assert {name for name, _ in calls} <= set(tools)
        for n, (name, args) in enumerate(calls):
            server.send(tool_call(n, name, args))
            result = server.reply(n, timeout=300)["result"]
            assert not result.get("isError"), (name, result)
            jsonschema.Draft202012Validator(tools[name]["outputSchema"]).validate(result["structuredContent"])
            if name in TEXT_FIELDS:
                assert result["structuredContent"] == answer_from_blocks(name, result), name
            else:
                assert result["structuredContent"] == json.loads(result["content"][0]["text"]), name
        server.close()
    # Every tool advertises a schema, and every one was called above.
    assert all("outputSchema" in tool for tool in tools.values())
    assert {name for name, _ in calls} == set(tools)


def test_at_end_of_input_a_request_still_running_gets_a_bounded_time(tmp_path: Path, cache_dir: Path) -> None:
    from realcode import copy_most_of_stdlib

    (tmp_path / "big").mkdir()
    root = copy_most_of_stdlib(tmp_path / "big")
    with RawServer(root, cache_dir, *QUIET, CODECAIRN_EOF_GRACE="1") as server:
        server.initialize()
        server.send(tool_call("index", "index", {}))  # a first index of ~600 files: many seconds
        time.sleep(0.5)
        started = time.monotonic()
        stderr = server.close()
        waited = time.monotonic() - started
    assert "still unanswered" in stderr
    assert waited < 30, f"the server took {waited:.0f}s to exit after its input ended"
