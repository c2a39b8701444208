"""TypeScript calls resolve across .ts, .tsx and .js modules: default imports, barrels with
`export *` and renamed re-exports, and a method through a `const b = new X()` type."""

from __future__ import annotations

from pathlib import Path

import pytest
from codecairn.workspace import Workspace
from realcode import answers

pytestmark = pytest.mark.anyio

FILES = {
    "src/ui/Button.tsx": "export default class Button { click(): void {} }\n",
    "src/ui/index.ts": "export * from './util';\nexport { default as Button } from './Button';\n",
    "src/ui/util.js": "export function helper() { return 1; }\n",
    "src/app.ts": (
        "import Button from './ui/Button';\nimport { helper, Button as B2 } from './ui';\n"
        "export function main() { const b = new Button(); b.click(); helper(); return new B2(); }\n"
    ),
}


async def test_imports_resolve_across_the_ecmascript_family(tmp_path: Path, cache_dir: Path) -> None:
    for rel, text in FILES.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    ws = await Workspace.open(tmp_path)
    try:
        await ws.index_now()
        main = await answers(ws).get_symbol("src/app.main")
        got = {  # names inside a file's group are relative to its module: the path without extension
            (f"{path.rsplit('.', 1)[0]}.{name}", group)
            for group, by_path in main["callees"].items()
            if group != "unresolved"
            for path, names in by_path.items()
            for name in names
        }
        assert got == {
            ("src/ui/Button.Button", "import"),
            ("src/ui/Button.Button.click", "import"),
            ("src/ui/util.helper", "import"),
        }
        assert "unresolved" not in main["callees"]
        button = await answers(ws).get_symbol("Button.click")
        assert [(path, list(names)) for path, names in button["callers"]["import"].items()] == [
            ("src/app.ts", ["main"])
        ]
    finally:
        await ws.close()
