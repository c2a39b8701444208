"""An agent talks to `codecairn serve` over MCP (the official client, stdio) while a developer
edits files: the answers follow the edits without anyone calling `index`; with `--no-watch` they
say which files are stale; a re-index that fails for real (the disk is full) changes nothing and
is retried once the disk has room again."""

from __future__ import annotations

import json
import os
import resource
import sys
import time
from pathlib import Path

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client
from realcode import python_edges

pytestmark = pytest.mark.anyio

DEADLINE = 20.0
WATCHER_WINDOW = 1.0  # far longer than the watcher needs to pick an edit up


def server_params(root: Path, cache: Path, *extra: str, **env: str) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "codecairn.cli", "serve", str(root), *extra],
        env={**os.environ, "CODECAIRN_CACHE_DIR": str(cache), **env},
    )


async def call(session: ClientSession, tool: str, args: dict | None = None) -> dict:
    result = await session.call_tool(tool, args or {})
    payload = json.loads(result.content[0].text)
    return {"_error": True, **payload} if result.is_error else payload


async def until(session: ClientSession, tool: str, args: dict, accept, what: str) -> dict:
    deadline = time.monotonic() + DEADLINE
    while True:
        answer = await call(session, tool, args)
        if accept(answer):
            return answer
        if time.monotonic() > deadline:
            pytest.fail(f"after {DEADLINE:g}s still not: {what}; last answer {answer}")
        await anyio.sleep(0.05)


def settled(answer: dict) -> bool:
    """A found symbol, answered after its re-index finished. (A query waits for a re-index at most
    2 s; one that takes longer — resolving a whole root again after a failure — is answered from
    what is stored so far, marked `indexing`.)"""
    return not answer.get("_error") and not answer.get("indexing")


def append(path: Path, text: str) -> None:
    with open(path, "a") as fh:
        fh.write(text)


async def test_an_agent_sees_an_edit_without_calling_index(stdlib_part: Path, cache_dir: Path) -> None:
    async with stdio_client(server_params(stdlib_part, cache_dir)) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            first = await call(session, "index")  # the server's own start-up index may still run
            before = await call(session, "get_symbol", {"name": "json.decoder.JSONDecoder.raw_decode"})
            append(
                stdlib_part / "json" / "decoder.py",
                "\n\ndef decode_all(texts):\n    return [JSONDecoder().raw_decode(t) for t in texts]\n",
            )

            answer = await until(
                session, "get_symbol", {"name": "json.decoder.decode_all"}, settled, "the new function is served"
            )
            assert answer["generation"] > before["generation"] >= first.get("generation", 0)
            assert "stale" not in answer
            assert "json.decoder.JSONDecoder.__init__" in python_edges(answer["callees"])  # JSONDecoder() runs it

            (stdlib_part / "json" / "decoder.py").write_text(
                (stdlib_part / "json" / "decoder.py")
                .read_text()
                .replace("def decode_all(texts):", "def decode_each(texts):")
            )
            gone = await until(
                session,
                "get_symbol",
                {"name": "json.decoder.decode_all"},
                lambda a: a.get("error") == "not_found",
                "the renamed function's old name is gone",
            )
            assert gone["_error"]
            renamed = await call(session, "get_symbol", {"name": "json.decoder.decode_each"})
            assert renamed["qualified_name"] == "json.decoder.decode_each"


async def test_without_the_watcher_answers_name_the_stale_file(stdlib_part: Path, cache_dir: Path) -> None:
    async with stdio_client(server_params(stdlib_part, cache_dir, "--no-watch")) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            await call(session, "index")
            append(stdlib_part / "json" / "decoder.py", "\n\ndef not_seen_yet():\n    pass\n")

            old = await call(session, "get_symbol", {"name": "json.decoder.JSONDecoder"})
            assert old["stale"] == ["json/decoder.py"], "the answer says its file changed since it was indexed"
            # Nothing indexes the edit meanwhile: asked again and again for longer than a watcher
            # would need, the new function stays unknown.
            watched_for = time.monotonic() + WATCHER_WINDOW
            while time.monotonic() < watched_for:
                missing = await call(session, "get_symbol", {"name": "json.decoder.not_seen_yet"})
                assert missing["error"] == "not_found", "the edit was indexed with nothing watching"
                await anyio.sleep(0.05)

            refreshed = await call(session, "index")
            assert refreshed["parsed"] == 1
            seen = await call(session, "get_symbol", {"name": "json.decoder.not_seen_yet"})
            assert seen["qualified_name"] == "json.decoder.not_seen_yet"
            assert "stale" not in await call(session, "get_symbol", {"name": "json.decoder.JSONDecoder"})


def server_pid(root: Path) -> int:
    """The serving process, found by its command line (the MCP client does not say)."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"serve" in argv and str(root).encode() in argv and b"codecairn.cli" in argv:
            return int(entry.name)
    pytest.fail(f"no codecairn serve process for {root}")


async def test_a_reindex_that_fails_keeps_the_old_state_and_is_retried(
    stdlib_part: Path, cache_dir: Path, tmp_path: Path
) -> None:
    errors = tmp_path / "server.log"
    with open(errors, "w") as errlog:
        async with stdio_client(
            server_params(stdlib_part, cache_dir, CODECAIRN_LOG_LEVEL="WARNING"), errlog=errlog
        ) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                await call(session, "index")
                before = await call(session, "stats")
                pid = server_pid(stdlib_part)
                # The disk is "full" for the server: no file of its may grow past 256 KiB from now on.
                resource.prlimit(pid, resource.RLIMIT_FSIZE, (256 * 1024, resource.RLIM_INFINITY))
                try:
                    body = "".join(f"def many_{i}():\n    return many_{i - 1}()\n" for i in range(1, 4000))
                    append(stdlib_part / "json" / "decoder.py", "\n\ndef many_0():\n    return 0\n" + body)
                    deadline = time.monotonic() + DEADLINE
                    while "re-index of" not in errors.read_text():
                        assert time.monotonic() < deadline, "the failed re-index was never reported"
                        await anyio.sleep(0.1)
                    assert "will be retried" in errors.read_text()

                    # The previous state is kept, whole: no half of the edit is visible, and the
                    # answer names the file as changed since it was indexed.
                    missing = await call(session, "get_symbol", {"name": "json.decoder.many_10"})
                    assert missing["error"] == "not_found"
                    old = await call(session, "get_symbol", {"name": "json.decoder.JSONDecoder"})
                    assert old["stale"] == ["json/decoder.py"]
                    during = await call(session, "stats")
                    assert (during["symbols"], during["generation"]) == (before["symbols"], before["generation"])
                finally:
                    resource.prlimit(pid, resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))

                # Room again: the retry brings the edit in without anyone asking.
                answer = await until(
                    session, "get_symbol", {"name": "json.decoder.many_3999"}, settled, "the retried re-index landed"
                )
                assert set(python_edges(answer["callees"])) == {"json.decoder.many_3998"}
                assert "stale" not in await call(session, "get_symbol", {"name": "json.decoder.JSONDecoder"})
