"""Finding code by meaning, with the real local MiniLM model: vectors are computed in the
background while names are already searchable, semantic and name rankings fuse, cancelled
embedding keeps what was stored, and without a model the error says what to install."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

import anyio
import pytest
from codecairn.workspace import Workspace
from mcp import ClientSession, StdioServerParameters, stdio_client
from realcode import answers, listed, python_qualified, until

pytestmark = pytest.mark.anyio


async def call(session: ClientSession, tool: str, args: dict | None = None) -> dict:
    result = await session.call_tool(tool, args or {})
    return {"_error": result.is_error, **json.loads(result.content[0].text)}


async def test_an_agent_finds_code_by_what_it_does(stdlib_part: Path, cache_dir: Path) -> None:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "codecairn.cli", "serve", str(stdlib_part), "--no-watch"],
        env={**os.environ, "CODECAIRN_CACHE_DIR": str(cache_dir)},
    )
    async with stdio_client(params) as (r, w):
        async with ClientSession(r, w) as s:
            await s.initialize()
            await call(s, "index")
            # Names answer at once, whatever the embedder is doing.
            assert (await call(s, "find_symbols", {"name": "ArgumentParser"}))["results"]
            with anyio.fail_after(300):
                while (stats := await call(s, "stats")).get("embeddings_pending", 1):
                    await anyio.sleep(0.5)
            assert stats["embeddings"] > 500 and stats["embedding_model"].startswith("all-MiniLM-L6-v2")

            found = await call(s, "find_symbols", {"query": "split a shell command line into words", "limit": 5})
            names = [python_qualified(x) for x in listed(found["results"])]
            assert "shlex.split" in names, names
            assert all(x["matched"] == ["semantic"] and 0 < x["semantic_score"] <= 1 for x in listed(found["results"]))

            cookies = await call(
                s,
                "find_symbols",
                {"query": "parse an HTTP cookie header", "kinds": ["class", "method", "function"], "limit": 10},
            )
            assert any(path.startswith("http/cookie") for path in cookies["results"])

            hybrid = await call(
                s, "find_symbols", {"name": "wrap", "query": "wrap a paragraph of text to a width", "limit": 5}
            )
            top = listed(hybrid["results"])[0]
            assert top["path"] == "textwrap.py" and top["matched"] == ["name", "semantic"]


async def test_cancelled_embedding_keeps_what_was_stored_and_resumes(stdlib_part: Path, cache_dir: Path) -> None:
    ws = await Workspace.open(stdlib_part)
    try:
        await ws.index_now()
        total = ws.embeddings.pending_count()
        task = asyncio.create_task(ws.embeddings.run_once())
        await until(lambda: len(ws.embeddings.hash_of) >= 256, "a first batch of vectors is stored", timeout=300)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        kept = len(ws.embeddings.hash_of)
        assert 0 < kept < total, "stopped within a batch or so, not at the end"
    finally:
        await ws.close()

    again = await Workspace.open(stdlib_part)
    try:
        await again.embeddings.run_once()
        assert again.embeddings.pending_count() == 0
        rows = await again.store.fetch("SELECT COUNT(*) FROM embeddings")
        assert rows[0][0] >= kept
        # Edit one function: only its vector is new; a removed function's vector goes away.
        tw = stdlib_part / "textwrap.py"
        tw.write_text(tw.read_text().replace("def dedent(text):", "def dedent_renamed(text):"))
        await again.index_now()
        assert await again.embeddings.run_once() == 1, "only the renamed function needed a new vector"
        assert (await answers(again).find_symbols(name="dedent_renamed"))["results"]
        hashes = set(again.embeddings.hash_of.values())
        stored = {h for (h,) in await again.store.fetch("SELECT hash FROM embeddings")}
        assert stored == hashes, "vectors of symbols that are gone were deleted"
    finally:
        await again.close()


async def test_without_a_model_semantic_search_says_what_to_install(
    stdlib_part: Path, cache_dir: Path, tmp_path: Path
) -> None:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "codecairn.cli", "serve", str(stdlib_part), "--no-watch"],
        env={
            **os.environ,
            "CODECAIRN_CACHE_DIR": str(cache_dir),
            "CODECAIRN_EMBED_MODEL": str(tmp_path / "missing.onnx"),
            "CODECAIRN_EMBED_TOKENIZER": str(tmp_path / "missing.json"),
        },
    )
    async with stdio_client(params) as (r, w):
        async with ClientSession(r, w) as s:
            await s.initialize()
            await call(s, "index")
            answer = await call(s, "find_symbols", {"query": "parse arguments"})
            assert answer["_error"] and answer["error"] == "unavailable"
            assert "missing.onnx" in answer["message"]
            assert (await call(s, "find_symbols", {"name": "ArgumentParser"}))["results"], "names still work"
