"""An independent client: the MCP Inspector's CLI (Node, @modelcontextprotocol/inspector, installed
by scripts/test-prerequisites.sh) lists the tools and calls the file tools against the real server
— what an agent built on the TypeScript SDK sees, not only what the Python SDK sees: every tool's
title and annotations, the output schemas, and structured answers that satisfy them.

`instructions` are not checked here: the Inspector's CLI (0.15) invokes one method
(tools/*, resources/*, prompts/*, logging/setLevel) and prints only its result, never the
initialize result that carries them. The raw wire client checks them instead
(tests/test_mcp_protocol.py, test_initialize_tells_an_agent_which_tool_answers_which_question)."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from codecairn.host import PluginHost

NODE_TOOLS = Path(os.environ.get("CODECAIRN_NODE_TOOLS", Path.home() / ".cache" / "codecairn-node"))
INSPECTOR = NODE_TOOLS / "node_modules" / ".bin" / "mcp-inspector"


@pytest.fixture(scope="module")
def inspector() -> Path:
    if not INSPECTOR.exists():
        pytest.fail(f"the MCP Inspector CLI is not installed at {INSPECTOR}: run scripts/test-prerequisites.sh")
    return INSPECTOR


def inspect(inspector: Path, root: Path, cache: Path, method: str, tool: str = "", **args: object) -> dict:
    command = [str(inspector), "--cli", sys.executable, "-m", "codecairn.cli", "serve", str(root), "--no-watch",
               "--no-embed", "--method", method]  # fmt: skip
    if tool:
        command += ["--tool-name", tool]
    for name, value in args.items():
        command += ["--tool-arg", f"{name}={value}"]
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=180, env={**os.environ, "CODECAIRN_CACHE_DIR": str(cache)}
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def test_the_inspector_lists_and_calls_the_file_tools(inspector: Path, tmp_path: Path, cache_dir: Path) -> None:
    root = tmp_path / "proj"
    root.mkdir()
    (root / "greet.py").write_text('def hello():\n    return "hi"\n')

    listed = {t["name"]: t for t in inspect(inspector, root, cache_dir, "tools/list")["tools"]}
    served = PluginHost().tools
    assert set(listed) == set(served)
    for name, tool in served.items():
        seen = listed[name]
        assert seen["title"] == tool.title and seen["annotations"] == {
            "title": tool.title,
            "readOnlyHint": tool.hints.read_only,
            "destructiveHint": tool.hints.destructive,
            "idempotentHint": tool.hints.idempotent,
            "openWorldHint": tool.hints.open_world,
        }, name
        # The output schema reaches a TypeScript client whole (or, for a tool without one, not at all).
        assert seen.get("outputSchema") == (json.loads(json.dumps(tool.output_schema)) if tool.output_schema else None)
    assert listed["read"]["annotations"]["readOnlyHint"] is True
    assert listed["edit"]["annotations"]["destructiveHint"] is True
    assert listed["search_text"]["annotations"]["openWorldHint"] is False

    indexed = inspect(inspector, root, cache_dir, "tools/call", "index")
    assert not indexed.get("isError") and indexed["structuredContent"]["files"] == 1
    jsonschema.Draft202012Validator(listed["index"]["outputSchema"]).validate(indexed["structuredContent"])

    read = inspect(inspector, root, cache_dir, "tools/call", "read", path="greet.py", start_line=2)
    header, text = read["content"][0]["text"].split("\n", 1)
    assert text == '    return "hi"\n' and read["structuredContent"]["text"] == text
    sha = hashlib.sha256((root / "greet.py").read_bytes()).hexdigest()
    assert json.loads(header)["sha256"] == sha

    edited = inspect(
        inspector, root, cache_dir, "tools/call", "edit",
        path="greet.py", old_text='"hi"', new_text='"hello"', expected_hash=sha,
    )  # fmt: skip
    assert not edited.get("isError"), edited
    assert (root / "greet.py").read_text() == 'def hello():\n    return "hello"\n'
