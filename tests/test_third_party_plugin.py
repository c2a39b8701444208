"""A third party ships a language and a tool: build a throw-away distribution, pip-install it
(into a directory of its own on the servers' path: installed into the shared environment, every
server other tests start meanwhile would load it too, its 30-second tool among theirs), and an
agent sees both through the real server; without it, both are gone. Misbehaving plugins (slow
tools, clashing extensions) are bounded and reported."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client

pytestmark = pytest.mark.anyio

DIST = "codecairn-demo-thirdparty"

PLUGIN = '''
"""A third-party plugin: a language (Python grammar, `.pyw` files, tags extractor) and two tools."""
import asyncio

from codecairn.extractors.packs import grammar_pack
from codecairn.hookspecs import Tool, hookimpl


@hookimpl
def codecairn_languages():
    return [grammar_pack("pywin", (".pyw", ".rb"), module="tree_sitter_python")]


async def count_files(ctx, args):
    return {"files": len(ctx.files()), "prefix": args.get("prefix", "")}


async def dawdle(ctx, args):
    await asyncio.sleep(30)
    return {}


@hookimpl
def codecairn_tools():
    return [
        Tool("demo_count_files", "Count indexed files.",
             {"type": "object", "properties": {"prefix": {"type": "string"}}}, count_files),
        Tool("demo_dawdle", "Takes too long.", {"type": "object"}, dawdle),
    ]
'''


def docs_example() -> str:
    """The tool docs/plugins.md shows a plugin author, exactly as written there."""
    docs = (Path(__file__).parents[1] / "docs" / "plugins.md").read_text()
    section = docs[docs.index("### `Tool`, written against the tool API") :]
    return section[section.index("```python\n") + len("```python\n") : section.index("\n```\n")]


def pip(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "pip", "--disable-pip-version-check", "-q", *args], check=True, timeout=600)


@pytest.fixture
def third_party(tmp_path: Path) -> dict[str, str]:
    """The environment of a process that has the demo plugin installed."""
    src = tmp_path / "demo"
    (src / "cc_demo_thirdparty").mkdir(parents=True)
    (src / "cc_demo_thirdparty" / "__init__.py").write_text(PLUGIN)
    (src / "cc_demo_thirdparty" / "docs_example.py").write_text(docs_example())
    (src / "pyproject.toml").write_text(
        textwrap.dedent(f"""
        [build-system]
        requires = ["setuptools>=61"]
        build-backend = "setuptools.build_meta"

        [project]
        name = "{DIST}"
        version = "1.2.3"
        dependencies = ["codecairn", "tree-sitter-python"]

        [project.entry-points.codecairn]
        demo = "cc_demo_thirdparty"
        docs_example = "cc_demo_thirdparty.docs_example"
        """)
    )
    site = tmp_path / "site"
    pip("install", "--no-deps", "--target", str(site), str(src))
    return {"PYTHONPATH": os.pathsep.join(p for p in (str(site), os.environ.get("PYTHONPATH", "")) if p)}


def params(root: Path, cache: Path, **env: str) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "codecairn.cli", "serve", str(root)],
        env={**os.environ, "CODECAIRN_CACHE_DIR": str(cache), **env},
    )


async def tool_names(session: ClientSession) -> set[str]:
    return {t.name for t in (await session.list_tools()).tools}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    (root / "gui.pyw").write_text(
        "class Window:\n    def show(self):\n        return draw()\n\n\ndef draw():\n    pass\n"
    )
    (root / "lib.rb").write_text("class Gem\n  def cut\n  end\nend\n")
    return root


async def test_installing_a_plugin_adds_its_language_and_tools(third_party, project: Path, tmp_path: Path) -> None:
    listed = json.loads(
        subprocess.run(
            [sys.executable, "-m", "codecairn.cli", "plugins", "--json"],
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
            env={**os.environ, **third_party},
        ).stdout
    )
    demo = next(p for p in listed["plugins"] if p["name"] == "demo")
    assert demo["distribution"] == DIST and demo["version"] == "1.2.3"
    assert demo["languages"] == ["pywin"] and set(demo["tools"]) == {"demo_count_files", "demo_dawdle"}
    # Both the ruby pack and the demo claim .rb: reported, and the ruby pack keeps it by the documented rule.
    assert set(listed["extension_conflicts"][".rb"]) == {"pywin", "ruby"}

    async with stdio_client(params(project, tmp_path / "cache", CODECAIRN_TOOL_TIMEOUT="1", **third_party)) as (r, w):
        async with ClientSession(r, w) as s:
            await s.initialize()
            assert {"demo_count_files", "demo_dawdle", "find_symbols"} <= await tool_names(s)
            await s.call_tool("index", {})
            counted = json.loads((await s.call_tool("demo_count_files", {"prefix": "x"})).content[0].text)
            assert counted["files"] == 2 and counted["prefix"] == "x"
            # The plugin set no limit on `prefix`: the server gives it one, advertises it, applies it.
            demo = next(t for t in (await s.list_tools()).tools if t.name == "demo_count_files")
            assert demo.input_schema["properties"]["prefix"]["maxLength"] == 65536
            refused = await s.call_tool("demo_count_files", {"prefix": "x" * 100_000})
            assert refused.is_error and json.loads(refused.content[0].text)["error"] == "bad_argument"
            listed = json.loads((await s.call_tool("find_symbols", {"name": "Window"})).content[0].text)
            assert [e["extractor"] for entries in listed["results"].values() for e in entries][0] == "tags"
            window = json.loads((await s.call_tool("get_symbol", {"name": "Window"})).content[0].text)
            assert window["path"] == "gui.pyw" and window["extractor"] == "tags"
            gui = json.loads((await s.call_tool("file_outline", {"path": "gui.pyw"})).content[0].text)
            assert gui["language"] == "pywin"  # the file's language: in its outline, not in every symbol
            gem = json.loads((await s.call_tool("get_symbol", {"name": "Gem"})).content[0].text)
            gem_file = json.loads((await s.call_tool("file_outline", {"path": gem["path"]})).content[0].text)
            assert gem_file["language"] == "ruby"
            # The tool docs/plugins.md shows, written against the tool API only, works as shown.
            largest = json.loads((await s.call_tool("largest_classes", {})).content[0].text)
            assert sorted((c["path"], c["members"]) for c in largest["classes"]) == [("gui.pyw", 1), ("lib.rb", 1)]
            nothing = json.loads((await s.call_tool("largest_classes", {"path": "gui.pyw/none"})).content[0].text)
            assert nothing["error"] == "not_found"
            slow = await s.call_tool("demo_dawdle", {})
            assert slow.is_error and json.loads(slow.content[0].text)["error"] == "unavailable"
            assert json.loads((await s.call_tool("stats", {})).content[0].text)["files"] == 2  # still serving

    async with stdio_client(
        params(project, tmp_path / "cache2", CODECAIRN_LANGUAGE_FOR=".rb=pywin", **third_party)
    ) as (
        r,
        w,
    ):
        async with ClientSession(r, w) as s:
            await s.initialize()
            await s.call_tool("index", {})
            gem = json.loads((await s.call_tool("get_symbol", {"name": "Gem"})).content[0].text)
            assert gem.get("error") == "not_found" or gem.get("language") == "pywin"  # the user chose


async def test_without_the_plugin_its_language_and_tools_are_gone(project: Path, tmp_path: Path) -> None:
    async with stdio_client(params(project, tmp_path / "cache")) as (r, w):
        async with ClientSession(r, w) as s:
            await s.initialize()
            assert not {"demo_count_files", "demo_dawdle"} & await tool_names(s)
            await s.call_tool("index", {})
            stats = json.loads((await s.call_tool("stats", {})).content[0].text)
            assert "pywin" not in stats["languages"]
