"""No single call can hold the server, and no answer is larger than the response budget: every
argument has a length limit, errors quote a short prefix of what they were given, a slow call is
stopped at the time limit while `ping` and other calls are answered — all on the real wire."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rawwire import RawServer, tool_answer, tool_call
from realcode import listed

PING = {"jsonrpc": "2.0", "id": "ping", "method": "ping"}
MIB = 1024 * 1024
FLAGS = ("--no-index", "--no-watch", "--no-embed")


def _unbounded(schema: dict, where: str) -> list[str]:
    """Where a tool's input schema lets a string or an array grow without limit."""
    found = []
    kind = schema.get("type")
    if kind == "string" and "maxLength" not in schema:
        found.append(where)
    if kind == "array":
        if "maxItems" not in schema:
            found.append(f"{where} (items)")
        found += _unbounded(schema.get("items", {}), f"{where}[]")
    for name, sub in schema.get("properties", {}).items():
        found += _unbounded(sub, f"{where}.{name}")
    return found


def test_every_string_and_array_argument_of_every_tool_has_a_limit(stdlib_part: Path, cache_dir: Path) -> None:
    with RawServer(stdlib_part, cache_dir, *FLAGS) as server:
        server.initialize()
        server.send({"jsonrpc": "2.0", "id": "list", "method": "tools/list"})
        tools = server.reply("list")["result"]["tools"]
        server.close()
    assert len(tools) >= 10
    unbounded = [w for t in tools for w in _unbounded(t["inputSchema"], t["name"])]
    assert unbounded == []


def test_megabytes_of_arguments_get_a_short_refusal(stdlib_part: Path, cache_dir: Path) -> None:
    huge = "x" * 300_000  # far over every argument's limit, under the 1 MiB a request may be
    calls = {
        "get_symbol": ("get_symbol", {"name": huge}),
        "read_symbol": ("read_symbol", {"name": huge}),
        "remember": ("remember", {"reason": "why", "symbol": huge}),
        "language": ("find_symbols", {"language": huge}),
        "pattern": ("find_symbols", {"pattern": "*a" * (MIB // 8) + "b"}),
        "tags": ("remember", {"reason": "why", "path": "json/decoder.py", "start_line": 1, "tags": ["t"] * 100_000}),
        "unknown_argument": ("find_symbols", {"name": "x", huge: 1}),
        "wrong_type": ("recall", {"limit": huge}),
    }
    with RawServer(stdlib_part, cache_dir, *FLAGS) as server:
        server.initialize()
        server.send(*(tool_call(key, tool, args) for key, (tool, args) in calls.items()), PING)
        for key in calls:
            answer = tool_answer(server.reply(key))
            assert answer["_error"] and answer["error"] == "bad_argument", (key, answer)
            assert server.sizes[key] < 1000, (key, server.sizes[key])
        assert "300,000" in tool_answer(server.reply("get_symbol"))["message"], "says how long it was"
        assert server.reply("ping")["result"] == {}

        server.send(tool_call("unknown_tool", huge, {}))
        refused = server.reply("unknown_tool")
        assert refused["error"]["code"] == -32602 and server.sizes["unknown_tool"] < 1000

        # Over 1 MiB: refused at the frame, never parsed; the request's id is answered at once.
        server.send(tool_call("frame", "find_symbols", {"name": "x" * (5 * MIB)}), PING | {"id": "ping2"})
        frame = server.reply("frame")
        assert frame["error"]["code"] == -32600 and "1048576 bytes" in frame["error"]["message"]
        assert server.sizes["frame"] < 1000 and server.reply("ping2")["result"] == {}
        server.close()


def test_errors_quote_only_a_short_prefix_of_what_they_were_given(stdlib_part: Path, cache_dir: Path) -> None:
    long_name = "Q" * 1000  # within the limit: the tools look for it, and say they did not find it
    calls = {
        "get_symbol": ("get_symbol", {"name": long_name}),
        "read_symbol": ("read_symbol", {"name": long_name}),
        "remember": ("remember", {"reason": "why", "symbol": long_name}),
        "language": ("find_symbols", {"language": "L" * 60}),
        "recall": ("recall", {"symbol": ".." * 400}),
    }
    with RawServer(stdlib_part, cache_dir, *FLAGS) as server:
        server.initialize()
        server.send(*(tool_call(key, tool, args) for key, (tool, args) in calls.items()))
        for key in calls:
            answer = tool_answer(server.reply(key))
            assert answer["_error"], (key, answer)
            assert len(answer["message"]) < 300, (key, answer["message"])
        missing = tool_answer(server.reply("get_symbol"))
        assert missing["error"] == "not_found" and "QQQQ" in missing["message"] and "1,000" in missing["message"]
        assert tool_answer(server.reply("language"))["error"] == "bad_argument"
        server.close()


def test_every_answer_fits_the_response_budget_errors_too(stdlib_part: Path, cache_dir: Path) -> None:
    budget = 160
    calls = {
        # an error whose list of known languages alone is longer than the budget
        "language": ("find_symbols", {"language": "L" * 60}),
        "missing": ("get_symbol", {"name": "NoSuchThing" * 20}),
        "found": ("find_symbols", {"name": "decode", "limit": 50}),  # an answer larger than the budget
    }
    with RawServer(stdlib_part, cache_dir, *FLAGS, CODECAIRN_RESPONSE_BYTES=str(budget)) as server:
        server.initialize()
        server.send(tool_call("index", "index", {}))
        tool_answer(server.reply("index"))  # itself cut to the budget, whatever it says
        server.send(*(tool_call(key, tool, args) for key, (tool, args) in calls.items()))
        answers = {key: server.reply(key)["result"]["content"][0]["text"] for key in calls}
        server.close()
    for key, text in answers.items():
        assert len(text.encode()) <= budget, (key, text)
    language = json.loads(answers["language"])
    assert language["error"] == "bad_argument" and language["truncated"] is True
    assert json.loads(answers["found"])["error"] == "too_large"


@pytest.mark.slow
def test_a_slow_search_is_stopped_at_the_time_limit_while_ping_is_answered(tmp_path: Path, cache_dir: Path) -> None:
    # Names 50,000 letters long, and a glob of the longest length allowed that is as costly as
    # any against them: a few seconds of matching, far past a time limit of one second.
    root = tmp_path / "long_names"
    root.mkdir()
    for f in range(3):
        (root / f"names{f}.py").write_text("".join(f"def {'a' * 50_000}_{f}_{i}():\n    pass\n\n" for i in range(40)))
    costly = "*" + "a?" * 127 + "b"
    assert len(costly) == 256
    with RawServer(tmp_path / "long_names", cache_dir, *FLAGS, CODECAIRN_TOOL_TIMEOUT="1") as server:
        server.initialize()
        server.send(tool_call("index", "index", {}))  # indexing is long-running: not bounded by the limit
        assert tool_answer(server.reply("index"))["symbols"] == 123

        server.send(tool_call("slow", "find_symbols", {"pattern": costly}), PING)
        stopped = tool_answer(server.reply("slow"))
        server.reply("ping")
        assert server.order()[-2:] == ["ping", "slow"], "ping was answered while the search worked"
        assert stopped["_error"] and stopped["error"] == "unavailable", stopped
        assert "stopped" in stopped["message"]

        # The first substring search builds a trigram index of 6 M characters of names: seconds
        # of work, done beside the event loop, so ping does not wait for it either.
        server.send(tool_call("substring", "find_symbols", {"name": "aaa_1_3"}), {**PING, "id": "ping2"})
        server.reply("substring")
        server.reply("ping2")
        assert server.order()[-2:] == ["ping2", "substring"]

        # The server goes on answering.
        server.send(tool_call("after", "find_symbols", {"kinds": ["module"]}))
        after = tool_answer(server.reply("after"))
        assert sorted(r["name"] for r in listed(after["results"])) == ["names0", "names1", "names2"]
        server.close()


def test_a_refusal_for_size_advises_only_the_tools_own_arguments(stdlib_part: Path, cache_dir: Path) -> None:
    """`too_large` names the arguments of the tool that was called, never ones it does not take."""
    calls = {
        "outline": ("file_outline", {"path": "argparse.py"}),
        "stats": ("stats", {}),
    }
    with RawServer(stdlib_part, cache_dir, *FLAGS, CODECAIRN_RESPONSE_BYTES="300") as server:
        server.initialize()
        server.send(tool_call("index", "index", {}))
        server.reply("index")
        server.send(*(tool_call(key, tool, args) for key, (tool, args) in calls.items()))
        answers = {key: tool_answer(server.reply(key)) for key in calls}
        server.close()
    outline = answers["outline"]
    assert outline["error"] == "too_large"
    assert "limit, path, kinds, start_line, end_line" in outline["message"]
    assert "max_lines" not in outline["message"]
    assert answers["stats"]["error"] == "too_large"
    assert "stats takes no argument that narrows it" in answers["stats"]["message"]
