"""A file too large for one outline comes in pages an agent can walk, narrow by kinds, or cut to a
line range — instead of one `too_large` refusal that advises arguments the tool does not take."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client

pytestmark = pytest.mark.anyio

FUNCTIONS = 60_000


async def outline(session: ClientSession, **args) -> dict:
    result = await session.call_tool("file_outline", {"detail": "names", **args})
    payload = json.loads(result.content[0].text)
    assert not result.is_error, payload
    return payload


def names(answer: dict) -> list[str]:
    """The names of an outline's symbols (detail=names), in line order."""
    found: list[tuple[int, str]] = []

    def walk(by_kind: dict) -> None:
        for nodes in by_kind.values():
            for node in nodes:
                found.append((int(node["lines"].split("-")[0]), node["name"]))
                walk(node.get("members", {}))

    walk(answer["symbols"])
    return [name for _, name in sorted(found)]


async def test_a_sixty_thousand_symbol_file_is_outlined_in_pages(tmp_path: Path, cache_dir: Path) -> None:
    root = tmp_path / "proj"
    root.mkdir()
    body = "import os\n" + "".join(f"def f{i}(x):\n    return x\n" for i in range(FUNCTIONS))
    body += "class Tail:\n    def m(self):\n        pass\n"
    (root / "generated.py").write_text(body)
    (root / "minified.js").write_text("".join(f"function g{i}(){{}}" for i in range(1000)) + "\n")
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "codecairn.cli", "serve", str(root), "--no-index", "--no-watch", "--no-embed"],
        env={**os.environ, "CODECAIRN_CACHE_DIR": str(cache_dir)},
    )
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            await session.call_tool("index", {})

            first = await outline(session, path="generated.py")
            assert first["complete"] is False and first["limit_reached"] is True
            assert "signature" not in json.dumps(first), "detail=names: kinds, names and lines only"
            assert first["imports"] == {"os": []}
            shown = names(first)
            assert shown[:2] == ["f0", "f1"] and 390 <= len(shown) <= 400, "a page is at most the limit of symbols"
            last_shown = int(shown[-1][1:])
            assert first["next_start_line"] == 2 + 2 * (last_shown + 1), "the next page starts where this one ended"

            # Walking the pages visits every symbol once, in order, with none repeated.
            seen, page, pages = shown, first, 1
            while page.get("complete", True) is False:
                page = await outline(session, path="generated.py", start_line=page["next_start_line"], limit=2000)
                seen.extend(names(page))
                pages += 1
            assert seen == [f"f{i}" for i in range(FUNCTIONS)] + ["Tail", "m"]
            assert pages > 30

            classes = await outline(session, path="generated.py", kinds=["class"])
            assert "complete" not in classes and names(classes) == ["Tail"]
            assert "imports" not in classes, "a kinds filter asks for symbols only"

            window = await outline(session, path="generated.py", start_line=2 + 2 * 100, end_line=2 + 2 * 104)
            assert names(window) == ["f100", "f101", "f102", "f103", "f104"] and "complete" not in window

            one_line = await outline(session, path="minified.js", limit=50)
            assert len(names(one_line)) == 50 and one_line["cut_line"] == 1
            assert one_line["complete"] is False and one_line["next_start_line"] == 2

            # `limit` counts symbols: thirty imports at the top do not fill a page of twenty
            imports = "".join(f"import m{i}\n" for i in range(30))
            (root / "imports_first.py").write_text(imports + "".join(f"def h{i}():\n    pass\n" for i in range(25)))
            await session.call_tool("index", {"paths": ["imports_first.py"]})
            page = await outline(session, path="imports_first.py", limit=20)
            assert names(page) == [f"h{i}" for i in range(20)] and len(page["imports"]) == 30
            assert page["next_start_line"] == 31 + 2 * 20
            lots = "".join(f"import n{i}\n" for i in range(200)) + "def last():\n    pass\n"
            (root / "only_imports.py").write_text(lots)
            await session.call_tool("index", {"paths": ["only_imports.py"]})
            bounded = await outline(session, path="only_imports.py", limit=10)
            assert len(bounded["imports"]) == 40 and bounded["next_start_line"] == 41, "imports ride along, bounded"

            bad = await session.call_tool("file_outline", {"path": "generated.py", "start_line": 9, "end_line": 3})
            assert bad.is_error and "before start_line" in bad.content[0].text
