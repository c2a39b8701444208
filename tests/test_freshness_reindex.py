"""The watcher's narrow re-index (a few named files, no walk) must leave exactly the graph that
indexing the same tree from scratch gives: symbols, every edge's resolution, imports, exports."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from codecairn.workspace import Workspace
from realcode import answers, python_edges

pytestmark = pytest.mark.anyio


def graph(exe: str, cache: Path, root: Path) -> list[str]:
    out = subprocess.run(
        [exe, "export", str(root)],
        env={**os.environ, "CODECAIRN_CACHE_DIR": str(cache)},
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    ).stdout
    return sorted(json.dumps(json.loads(line), sort_keys=True) for line in out.splitlines())


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


async def test_narrow_reindexes_leave_the_graph_a_full_index_gives(
    stdlib_part: Path, tmp_path: Path, cache_dir: Path, codecairn_exe: str
) -> None:
    root = stdlib_part
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        reindex = ws.indexer

        # A new function calling into the file and its neighbours.
        with open(root / "json" / "decoder.py", "a") as fh:
            fh.write("\n\ndef decode_strict(s):\n    return JSONDecoder(strict=True).raw_decode(scanstring(s, 1)[0])\n")
        assert (await reindex.refresh(["json/decoder.py"])).parsed == 1
        # A method renamed: its callers elsewhere in the file lose their target.
        edit(root / "json" / "decoder.py", "def raw_decode(self", "def raw_decode_from(self")
        await reindex.refresh(["json/decoder.py"])
        # Lines shift in a file many others call into: their edges follow the moved symbols.
        edit(root / "logging" / "__init__.py", '"""\nLogging package', '"""\n\n\n\nLogging package')
        await reindex.refresh(["logging/__init__.py"])
        # A second definition of a name that was unique: name-only calls to it are ambiguous now.
        with open(root / "shlex.py", "a") as fh:
            fh.write("\n\ndef dedent(text):\n    return text\n")
        await reindex.refresh(["shlex.py"])
        # A new module importing another; a module renamed; one deleted.
        (root / "json" / "extra.py").write_text(
            "from json.decoder import JSONDecoder\n\n\ndef parse(text):\n    return JSONDecoder().decode(text)\n"
        )
        os.rename(root / "textwrap.py", root / "textwrap_renamed.py")
        (root / "email" / "quoprimime.py").unlink()
        summary = await reindex.refresh(["json/extra.py", "textwrap.py", "textwrap_renamed.py", "email/quoprimime.py"])
        assert (summary.parsed, summary.deleted) == (2, 2)
        generation = ws.state.generation
    finally:
        await ws.close()

    scratch = tmp_path / "scratch"
    shutil.copytree(root, scratch)
    ours = graph(codecairn_exe, cache_dir, root)
    assert '"kind": "function", "name": "decode_strict"' in "".join(ours)
    assert graph(codecairn_exe, tmp_path / "scratch-cache", scratch) == ours
    ws = await Workspace.open(root)
    try:
        assert ws.state.generation == generation, "`export` found nothing left to re-index"
    finally:
        await ws.close()


async def test_edits_that_keep_a_files_facts_keep_its_calls(
    tmp_path: Path, cache_dir: Path, codecairn_exe: str
) -> None:
    """A comment, a changed literal or a call added to a body leave what a file tells the resolver
    as it was: its calls keep their resolutions (index/reuse.py) instead of being resolved again —
    the rows beside a call that reaches several functions included — and the graph stays the one
    a fresh index of the same tree gives."""
    root = tmp_path / "project"
    root.mkdir()
    (root / "fast.py").write_text("def helper(v):\n    return v\n")
    (root / "slow.py").write_text("def helper(v):\n    return -v\n")
    runner = (
        "try:\n    from fast import helper\nexcept ImportError:\n    from slow import helper\n\n\n"
        "def apply(job, value):\n    return job(value)\n\n\n"
        "def go(value):\n    helper(value)\n    return apply(abs, value)\n"
    )
    (root / "runner.py").write_text(runner)
    main = (
        "from runner import apply, go\n\n\ndef double(x):\n    return x * 2\n\n\n"
        "def square(x):\n    return x * x\n\n\ndef run_all():\n    apply(double, 1)\n    apply(square, 2)\n    go(3)\n"
    )
    (root / "main.py").write_text(main)
    ws = await Workspace.open(root)
    ask = answers(ws)

    async def callees(name: str, path: str) -> dict[str, str]:
        return python_edges((await ask.call("get_symbol", name=name, path=path))["callees"])

    try:
        await ws.index_now()
        expected = {"fast.helper": "import", "slow.helper": "flow", "runner.apply": "exact"}
        assert await callees("go", "runner.py") == expected
        assert await callees("apply", "runner.py") == {"main.double": "flow", "main.square": "flow"}

        (root / "runner.py").write_text("# the runner\n\n" + runner.replace("apply(abs, value)", "apply(abs, -value)"))
        assert (await ws.indexer.refresh(["runner.py"])).parsed == 1
        assert await callees("go", "runner.py") == expected
        assert await callees("apply", "runner.py") == {"main.double": "flow", "main.square": "flow"}

        (root / "runner.py").write_text(runner.replace("    helper(value)\n", "    helper(value)\n    go(value - 1)\n"))
        await ws.indexer.refresh(["runner.py"])
        assert await callees("go", "runner.py") == {**expected, "runner.go": "exact"}

        (root / "main.py").write_text(main.replace("apply(square, 2)", "apply(square, 20)") + "\n# done\n")
        await ws.indexer.refresh(["main.py"])
        assert await callees("apply", "runner.py") == {"main.double": "flow", "main.square": "flow"}
        assert await callees("run_all", "main.py") == {"runner.apply": "import", "runner.go": "import"}
    finally:
        await ws.close()

    scratch = tmp_path / "scratch"
    shutil.copytree(root, scratch)
    assert graph(codecairn_exe, tmp_path / "scratch-cache", scratch) == graph(codecairn_exe, cache_dir, root)
