"""Property-based fuzzing of every tool through the real server: arguments drawn from each tool's
advertised input schema (``from_schema`` below: hypothesis-jsonschema does not run with the
hypothesis releases of 2026, and tool schemas use a small part of JSON Schema), some of them made hostile (NUL bytes, huge
strings, deeply nested values, lone surrogates, paths that climb out of the root). Every call
must be answered, in time, with either an answer its output schema accepts or one of the
documented errors; a refused call writes nothing.

Shared by tests/test_fuzz_tools.py (a few hundred cases: CI) and benchmarks/test_fuzz_tools.py
(CODECAIRN_FUZZ_CASES, 10,000 by default there).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import jsonschema
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rawwire import TEXT_FIELDS, RawServer, answer_from_blocks, tool_call

# The error codes docs/tools.md documents; "internal_error" (a crash) is not among them.
DOCUMENTED_ERRORS = {"bad_argument", "outside_workspace", "not_found", "not_indexed", "unavailable", "too_large"}
REPLY_SECONDS = 60  # no call may take longer (the server's own limit is CODECAIRN_TOOL_TIMEOUT)

HOSTILE_STRINGS = [
    "\x00",
    "a\x00b",
    "../../../etc/passwd",
    "/etc/passwd",
    "..",
    "x" * 200_000,
    "\ud800",  # a lone surrogate: valid JSON, no valid UTF-8
    "é" * 1000,
    "*" * 5000,
    "**/*",
    "[" * 3000,
    "\n".join(["line"] * 5000),
    "",
    " ",
]


def _deep(depth: int) -> Any:
    value: Any = "leaf"
    for _ in range(depth):
        value = [value]
    return value


HOSTILE_VALUES = st.one_of(
    st.sampled_from(HOSTILE_STRINGS),
    st.just(_deep(60)),
    st.just({"a": {"b": {"c": [None, True, 1.5, -(2**70)]}}}),
    st.integers(min_value=-(2**80), max_value=2**80),
    st.floats(allow_nan=False),
    st.none(),
    st.lists(st.sampled_from(HOSTILE_STRINGS), max_size=5),
)


def from_schema(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values a JSON schema accepts, for the keywords tool input schemas use (type, properties,
    required, enum, const, anyOf, minimum/maximum, minLength/maxLength, items, minItems/maxItems)."""
    if "const" in schema:
        return st.just(schema["const"])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    if "anyOf" in schema:
        return st.one_of([from_schema(s) for s in schema["anyOf"]])
    kind = schema.get("type")
    if isinstance(kind, list):
        return st.one_of([from_schema({**schema, "type": k}) for k in kind])
    if kind == "string":
        longest = min(schema.get("maxLength", 40), 40)
        return st.text(min_size=min(schema.get("minLength", 0), longest), max_size=longest)
    if kind == "integer":
        return st.integers(schema.get("minimum"), schema.get("maximum"))
    if kind == "number":
        return st.floats(schema.get("minimum"), schema.get("maximum"), allow_nan=False, allow_infinity=False)
    if kind == "boolean":
        return st.booleans()
    if kind == "array":
        items = from_schema(schema.get("items", {"type": "string"}))
        return st.lists(items, min_size=schema.get("minItems", 0), max_size=min(schema.get("maxItems", 5), 5))
    if kind == "object" or "properties" in schema:
        properties = schema.get("properties", {})
        required = set(schema.get("required", ()))
        return st.fixed_dictionaries(
            {k: from_schema(v) for k, v in properties.items() if k in required},
            optional={k: from_schema(v) for k, v in properties.items() if k not in required},
        )
    return st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=20))


def _arguments(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Valid arguments from the schema, or valid ones with one value made hostile, or an
    argument nobody declared."""
    valid = from_schema(schema)
    names = sorted(schema.get("properties", {})) or ["x"]

    def spoil(args: Any, name: str, value: Any) -> Any:
        return {**args, name: value} if isinstance(args, dict) else {name: value}

    spoiled = st.builds(spoil, valid, st.sampled_from(names + ["not_an_argument"]), HOSTILE_VALUES)
    return st.one_of(valid, spoiled)


def tree_digest(root: Path) -> str:
    """What is on disk under the root (names, sizes, contents)."""
    h = hashlib.sha256()
    for p in sorted(root.rglob("*")):
        if p.is_file() and not p.is_symlink():
            h.update(str(p.relative_to(root)).encode() + b"\0" + p.read_bytes())
    return h.hexdigest()


def fuzz_every_tool(root: Path, cache: Path, cases: int) -> dict[str, int]:
    """Run ``cases`` fuzzed calls against one server over ``root``; assert every answer. Returns
    how many answers and errors of each sort were seen."""
    seen: dict[str, int] = {}
    with RawServer(root, cache, "--no-index", "--no-watch", "--no-embed") as server:
        server.initialize()
        server.send({"jsonrpc": "2.0", "id": "list", "method": "tools/list"})
        tools = {t["name"]: t for t in server.reply("list")["result"]["tools"]}
        server.send(tool_call("index", "index", {}))
        server.reply("index", timeout=300)
        checkers = {
            name: jsonschema.Draft202012Validator(t["outputSchema"]) for name, t in tools.items() if "outputSchema" in t
        }
        counter = iter(range(10**9))

        @settings(
            max_examples=cases,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
            derandomize=True,
        )
        @given(
            st.sampled_from(sorted(tools)).flatmap(lambda n: st.tuples(st.just(n), _arguments(tools[n]["inputSchema"])))
        )
        def one_call(call: tuple[str, Any]) -> None:
            name, args = call
            request_id = next(counter)
            before = tree_digest(root) if not tools[name]["annotations"].get("readOnlyHint") else None
            server.send(tool_call(request_id, name, args))
            reply = server.reply(request_id, timeout=REPLY_SECONDS)
            where = f"{name}({json.dumps(args)[:300]})"
            if "error" in reply:
                # A protocol error only for what is no valid call at all: invalid params, or a
                # message the JSON-RPC layer cannot read as one (a lone surrogate in a string).
                assert reply["error"]["code"] in (-32602, -32600), where
                assert len(json.dumps(reply)) < 20_000, f"an error repeats what it was given: {where}"
                seen["protocol_error"] = seen.get("protocol_error", 0) + 1
                return
            result = reply["result"]
            if name in TEXT_FIELDS and not result.get("isError"):
                payload = answer_from_blocks(name, result)
            else:
                payload = json.loads(result["content"][0]["text"])
            if result.get("isError"):
                assert payload["error"] in DOCUMENTED_ERRORS, (where, payload)
                assert len(result["content"][0]["text"]) < 20_000, f"an error repeats what it was given: {where}"
                if before is not None:
                    assert tree_digest(root) == before, f"a refused call changed files: {where}"
                seen[payload["error"]] = seen.get(payload["error"], 0) + 1
                return
            if name in checkers:
                checkers[name].validate(result["structuredContent"])
                assert result["structuredContent"] == payload, where
            seen["answer"] = seen.get("answer", 0) + 1

        one_call()
        # After all that, the server still answers as it should.
        server.send(tool_call("last", "stats", {}))
        assert "result" in server.reply("last")
        assert server.proc.poll() is None
    return seen
