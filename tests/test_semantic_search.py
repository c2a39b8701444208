"""Finding code by meaning, with the real local MiniLM model: `codecairn index` computes the vectors,
a server started on that index answers a semantic query from its first moment, the public API
outranks private helpers, tests and deprecated code, cancelled embedding keeps what was stored,
and without a model the error says what to install."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import anyio
import pytest
from codecairn.workspace import Workspace
from mcp import ClientSession, StdioServerParameters, stdio_client
from realcode import answers, copy_stdlib, listed, python_qualified, until

pytestmark = pytest.mark.anyio

# A package a user would search, beside lookalikes a person would not want first: a private helper,
# a test, and an older package that says it is deprecated.
URLKIT = {
    "urlkit/__init__.py": '''
        """Small URL helpers."""
        __all__ = ["split_url"]


        def split_url(url):
            """Split a URL into its scheme, host, path and query."""
            scheme, _, rest = url.partition("://")
            host, _, path = rest.partition("/")
            return scheme, host, "/" + _split_query(path)[0], _split_query(path)[1]


        def _split_query(path):
            """Split a URL path into the path and its query string."""
            path, _, query = path.partition("?")
            return path, query
        ''',
    "tests/test_urlkit.py": '''
        from urlkit import split_url


        def test_split_url_into_scheme_host_path_and_query():
            """Split a URL into scheme, host, path and query."""
            assert split_url("http://h/p?q=1") == ("http", "h", "/p", "q=1")
        ''',
    "oldurls/__init__.py": '''
        """URL helpers of the first release."""
        import warnings

        warnings.warn("oldurls is deprecated; use urlkit", DeprecationWarning, stacklevel=2)


        def split_url(url):
            """Split a URL into scheme, host, path and query."""
            return url.split("/")
        ''',
}


def stdlib_copy(dest: Path, packages: tuple[str, ...]) -> Path:
    dest.mkdir(parents=True)
    return copy_stdlib(dest, packages)


async def call(session: ClientSession, tool: str, args: dict | None = None) -> dict:
    result = await session.call_tool(tool, args or {})
    return {"_error": result.is_error, **json.loads(result.content[0].text)}


def codecairn(cache: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "codecairn.cli", "--cache-dir", str(cache), *args],
        capture_output=True,
        text=True,
        timeout=600,
    )


def server(root: Path, cache: Path, *flags: str, **env: str) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "codecairn.cli", "serve", str(root), *flags],
        env={**os.environ, "CODECAIRN_CACHE_DIR": str(cache), **env},
    )


@pytest.fixture(scope="module")
def embedded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict]:
    """The stdlib part and urlkit, indexed and embedded by `codecairn index` (once per module)."""
    base = tmp_path_factory.mktemp("semantic")
    root = stdlib_copy(base / "root", ("json", "http", "urllib", "argparse", "textwrap", "shlex", "email"))
    for path, source in URLKIT.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(textwrap.dedent(source))
    cache = base / "cache"
    out = codecairn(cache, "index", str(root), "--json")
    assert out.returncode == 0, out.stderr
    return root, cache, json.loads(out.stdout)


def test_codecairn_index_computes_the_vectors_and_a_second_run_has_nothing_to_do(embedded) -> None:
    root, cache, summary = embedded
    assert summary["embeddings"]["computed"] > 1000
    assert summary["embeddings"]["embedded"] >= summary["embeddings"]["computed"]

    again = json.loads(codecairn(cache, "index", str(root), "--json").stdout)
    assert again["parsed"] == 0 and again["embeddings"] == {"computed": 0}

    skipped = json.loads(codecairn(cache, "index", str(root), "--json", "--no-embed").stdout)
    assert "embeddings" not in skipped


async def test_a_semantic_query_at_the_start_of_a_session_answers_from_stored_vectors(embedded) -> None:
    root, cache, _ = embedded
    async with stdio_client(server(root, cache, "--no-index", "--no-watch")) as (r, w):
        async with ClientSession(r, w) as s:
            await s.initialize()
            # The first call of the session: the stored vectors may still be loading; it waits for them.
            found = await call(s, "find_symbols", {"query": "split a shell command line into words", "limit": 5})
            assert "embeddings_pending" not in found and "embeddings_loading" not in found, found
            names = [python_qualified(x) for x in listed(found["results"])]
            assert "shlex.split" in names, names
            assert all(x["matched"] == ["semantic"] and 0 < x["semantic_score"] <= 1 for x in listed(found["results"]))

            stats = await call(s, "stats")
            assert stats["embeddings_pending"] == 0 and stats["embeddings"] > 1000

            # The public function first: not the private helper, the test or the deprecated copy.
            urls = await call(s, "find_symbols", {"query": "split a URL into scheme, host, path and query", "limit": 5})
            top = [python_qualified(x) for x in listed(urls["results"])]
            assert top[0] == "urlkit.split_url", top

            # Unless tests are what the query asks for.
            tests = await call(s, "find_symbols", {"query": "test that splits a URL into scheme, host, path, query"})
            first = listed(tests["results"])[0]
            assert python_qualified(first).startswith("tests.test_urlkit"), tests["results"]

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


async def test_an_agent_finds_code_by_what_it_does_while_the_server_embeds(tmp_path: Path, cache_dir: Path) -> None:
    root = stdlib_copy(tmp_path / "root", ("textwrap", "shlex"))
    async with stdio_client(server(root, cache_dir, "--no-watch")) as (r, w):
        async with ClientSession(r, w) as s:
            await s.initialize()
            await call(s, "index")
            # Names answer at once, whatever the embedder is doing.
            assert (await call(s, "find_symbols", {"name": "TextWrapper"}))["results"]
            with anyio.fail_after(300):
                while (stats := await call(s, "stats")).get("embeddings_pending", 1):
                    await anyio.sleep(0.2)
            assert stats["embeddings"] > 30 and stats["embedding_model"].startswith("all-MiniLM-L6-v2")
            found = await call(s, "find_symbols", {"query": "remove common leading whitespace from lines", "limit": 3})
            assert "textwrap.dedent" in [python_qualified(x) for x in listed(found["results"])]


async def test_an_edited_docstring_is_found_by_what_it_says_now(tmp_path: Path, cache_dir: Path) -> None:
    """An edit keeps the ids of the symbols still there (the edges into them stay put); a function
    whose docstring it rewrites must still be embedded again, or it is found by its old text."""
    root = tmp_path / "root"
    root.mkdir()
    (root / "tools.py").write_text(
        'def handle(data):\n    """Compress a byte string with zlib."""\n    return data\n\n\n'
        'def mail(message):\n    """Send an e-mail message to its recipients over SMTP."""\n    return message\n'
    )
    query = {"query": "send a short text message to a mobile phone over SMS", "limit": 2}
    async with stdio_client(server(root, cache_dir, "--no-watch")) as (r, w):
        async with ClientSession(r, w) as s:
            await s.initialize()
            await call(s, "index")

            async def embedded() -> None:
                with anyio.fail_after(120):
                    while (await call(s, "stats")).get("embeddings_pending", 1):
                        await anyio.sleep(0.2)

            await embedded()
            before = listed((await call(s, "find_symbols", query))["results"])
            assert python_qualified(before[0]) == "tools.mail"
            edited = await call(
                s,
                "edit",
                {
                    "path": "tools.py",
                    "start_line": 2,
                    "end_line": 2,
                    "new_text": '    """Send a short text message to a mobile phone over SMS."""\n',
                },
            )
            assert not edited["_error"], edited
            await embedded()
            after = listed((await call(s, "find_symbols", query))["results"])
            assert python_qualified(after[0]) == "tools.handle"


async def test_cancelled_embedding_keeps_what_was_stored_and_resumes(tmp_path: Path, cache_dir: Path) -> None:
    root = stdlib_copy(tmp_path / "root", ("email", "textwrap"))
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        task = asyncio.create_task(ws.embeddings.run_once())
        await until(lambda: ws.embeddings.embedded >= 256, "a first batch of vectors is stored", timeout=300)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        kept, total = ws.embeddings.embedded, ws.embeddings.embedded + ws.embeddings.pending_count()
        assert 0 < kept < total, "stopped within a batch or so, not at the end"
    finally:
        await ws.close()

    again = await Workspace.open(root)
    try:
        # Only what was not stored is computed (symbols with the same text share one vector).
        assert 0 < await again.embeddings.run_once() <= total - kept
        assert again.embeddings.pending_count() == 0 and await again.embeddings.vectors.count() >= kept
        # Edit one function: only its vector is new; a removed function's vector goes away.
        tw = root / "textwrap.py"
        tw.write_text(tw.read_text().replace("def dedent(text):", "def dedent_renamed(text):"))
        await again.index_now()
        assert await again.embeddings.run_once() == 1, "only the renamed function needed a new vector"
        assert (await answers(again).find_symbols(name="dedent_renamed"))["results"]
        stored = {h for h, _ in await again.embeddings.vectors.all_vectors()}
        assert stored == again.embeddings.catalog.hashes(), "vectors of symbols that are gone were deleted"
    finally:
        await again.close()


def test_ctrl_c_while_codecairn_index_embeds_keeps_the_vectors_stored(tmp_path: Path) -> None:
    root = stdlib_copy(tmp_path / "root", ("email",))
    cache = tmp_path / "cache"
    proc = subprocess.Popen(
        [sys.executable, "-m", "codecairn.cli", "--cache-dir", str(cache), "index", str(root), "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    stored, deadline = 0, time.monotonic() + 300
    while stored < 256 and proc.poll() is None and time.monotonic() < deadline:
        for db in cache.rglob("*.db"):
            try:
                with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=0.01) as con:
                    stored = con.execute("SELECT COUNT(*) FROM embeddings").fetchone()[0]
            except sqlite3.Error:
                pass
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "Traceback" not in err

    resumed = json.loads(codecairn(cache, "index", str(root), "--json").stdout)
    assert resumed["parsed"] == 0
    assert 0 < resumed["embeddings"]["computed"] < resumed["embeddings"]["embedded"], resumed["embeddings"]


async def test_without_a_model_semantic_search_says_what_to_install(tmp_path: Path, cache_dir: Path) -> None:
    root = stdlib_copy(tmp_path / "root", ("argparse",))
    missing = {
        "CODECAIRN_EMBED_MODEL": str(tmp_path / "missing.onnx"),
        "CODECAIRN_EMBED_TOKENIZER": str(tmp_path / "missing.json"),
    }
    async with stdio_client(server(root, cache_dir, "--no-watch", **missing)) as (r, w):
        async with ClientSession(r, w) as s:
            await s.initialize()
            await call(s, "index")
            answer = await call(s, "find_symbols", {"query": "parse arguments"})
            assert answer["_error"] and answer["error"] == "unavailable"
            assert "missing.onnx" in answer["message"]
            assert (await call(s, "find_symbols", {"name": "ArgumentParser"}))["results"], "names still work"
    shutil.rmtree(cache_dir, ignore_errors=True)


async def test_a_server_started_without_embedding_says_semantic_search_is_off(tmp_path: Path, cache_dir: Path) -> None:
    root = stdlib_copy(tmp_path / "root", ("shlex",))
    async with stdio_client(server(root, cache_dir, "--no-watch", "--no-embed")) as (r, w):
        async with ClientSession(r, w) as s:
            await s.initialize()
            await call(s, "index")
            # It answered `embeddings_loading: true` for the server's whole life
            answer = await call(s, "find_symbols", {"query": "split a shell command line into words"})
            assert answer["_error"] and answer["error"] == "unavailable" and "--no-embed" in answer["message"]
            assert "--no-embed" in (await call(s, "stats"))["semantic"]
            assert (await call(s, "find_symbols", {"name": "split"}))["results"], "names still work"
