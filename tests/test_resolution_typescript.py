"""TypeScript calls resolve across .ts, .tsx and .js modules: default imports, barrels with
`export *` and renamed re-exports, and a method through a `const b = new X()` type."""

from __future__ import annotations

from pathlib import Path

import pytest
from codecairn.workspace import Workspace
from realcode import answers, indexed

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


def write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)


async def test_imports_resolve_across_the_ecmascript_family(tmp_path: Path, cache_dir: Path) -> None:
    write(tmp_path, FILES)
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


async def test_an_instance_another_module_exports_is_typed_by_what_it_holds(tmp_path: Path, cache_dir: Path) -> None:
    """`export const repo = new Repo()` in one module, `repo.find()` in another: the call reaches
    Repo.find (flow); an edit that makes repo something else moves the call with it."""
    files = {
        "src/db.ts": "export class Repo { find(): void {} }\nexport class Cache { find(): void {} }\n"
        "export const repo = new Repo();\n",
        "src/app.ts": "import { repo } from './db';\nexport function main() { repo.find(); }\n",
    }
    write(tmp_path, files)
    ws = await Workspace.open(tmp_path)
    try:
        await ws.index_now()
        main = await answers(ws).get_symbol("src/app.main")
        assert main["callees"] == {"flow": {"src/db.ts": {"Repo.find": 2}}}
        db = tmp_path / "src/db.ts"
        db.write_text(db.read_text().replace("new Repo()", "new Cache()"))
        await ws.refresh(["src/db.ts"])
        main = await answers(ws).get_symbol("src/app.main")
        assert main["callees"] == {"flow": {"src/db.ts": {"Cache.find": 2}}}
    finally:
        await ws.close()


async def test_a_namespace_import_reaches_the_module_s_names_whatever_it_exports_as_default(
    tmp_path: Path, cache_dir: Path
) -> None:
    write(tmp_path, {
        "src/helpers.ts": (
            "export function fetchIt(u: string) { return u; }\nexport function tool() { return 1; }\n"
            "export default function main() { return 2; }\n"
        ),
        "src/legacy.js": "function make() { return 1; }\nmodule.exports = { make };\n",
        "src/use.ts": (
            "import * as H from './helpers';\nconst L = require('./legacy');\n"
            "export function f() { return H.fetchIt('a') + H.tool() + L.make(); }\n"
        ),
    })  # fmt: skip
    ws = await Workspace.open(tmp_path)
    try:
        await ws.index_now()
        f = await answers(ws).get_symbol("src/use.f")
    finally:
        await ws.close()
    # `export default function main` made H the function main, which has no fetchIt: unresolved before
    assert f["callees"]["import"]["src/helpers.ts"] == {"fetchIt": 3, "tool": 3}
    assert "unresolved" not in f["callees"] or "fetchIt" not in f["callees"]["unresolved"]


async def test_a_call_of_a_parameter_or_a_local_is_no_guess_at_a_namesake_elsewhere(
    tmp_path: Path, cache_dir: Path
) -> None:
    write(tmp_path, {
        "src/compile.ts": (
            "export function emitKeys(shape: object, body: (k: string) => void) {\n"
            "  const fallbackRun = shape ? body : null;\n"
            "  const helper = () => 1;\n"
            "  [1].forEach((wrap) => wrap());\n"
            "  return body('k') + fallbackRun('x') + helper();\n"
            "}\n"
        ),
        "src/tests/compile.test.ts": (
            "function body() { return 0; }\nfunction fallbackRun() { return 0; }\nfunction wrap() { return 0; }\n"
        ),
    })  # fmt: skip
    ws = await Workspace.open(tmp_path)
    try:
        await ws.index_now()
        a = answers(ws)
        emit = await a.get_symbol("src/compile.emitKeys")
        test_body = await a.call("get_symbol", name="body", path="src/tests/compile.test.ts")
    finally:
        await ws.close()
    # Each was a name-only edge into the test file (a library -> tests dependency that is not there)
    assert set(emit["callees"]["unresolved"]) >= {"body", "fallbackRun", "wrap"}
    assert "name-only" not in emit["callees"] and "callers" not in test_body
    assert emit["callees"]["exact"]["src/compile.ts"] == {"emitKeys.helper": 5}  # a local function: found


async def test_a_name_a_module_exports_under_another_reaches_its_function(tmp_path: Path, cache_dir: Path) -> None:
    # zod's `export { _instanceof as instanceof }`: importers call `instanceof`, the function is `_instanceof`
    write(tmp_path, {
        "src/a.ts": (
            "function _instanceof(x: unknown) { return true; }\nexport { _instanceof as instanceof };\n"
            "export function own() { return _instanceof(0); }\n"
        ),
        "src/b.ts": (
            "import { instanceof as inst } from './a';\nimport * as z from './a';\n"
            "export function caller() { inst(1); z.instanceof(2); }\n"
        ),
    })  # fmt: skip
    async with indexed(tmp_path) as a:
        target = await a.get_symbol("src/a._instanceof")
        written = await a.get_symbol("src/a.instanceof")  # as the module makes it available
        outline = await a.call("file_outline", path="src/a.ts")
    assert target["callers"]["import"] == {"src/b.ts": {"caller": 3}}, target["callers"]
    assert written["qualified_name"] == "src/a._instanceof"
    assert "imports" not in outline and outline["exports"][0]["names"] == ["_instanceof as instanceof"]


async def test_a_parenthesised_base_and_a_script_with_require_in_a_comment(tmp_path: Path, cache_dir: Path) -> None:
    # webpack's `class A extends (\n\tBase\n) {` had no base (60 of its 424 subclasses); a `require(`
    # in a comment made TypeScript's `namespace ts {}` files modules (`compiler/types.ts.Node`)
    write(tmp_path, {
        "base.js": "class Base {\n\tm() {}\n}\nmodule.exports = Base;\n",
        "a.js": 'const Base = require("./base");\nclass A extends (\n\tBase\n) {\n\tm() {}\n}\nmodule.exports = A;\n',
        "ns.ts": (
            "namespace ts {\n    // declarations such as: const x = require(\"...\")\n"
            "    export function helper(): number { return 1; }\n}\n"
        ),
    })  # fmt: skip
    async with indexed(tmp_path) as a:
        base = await a.call("type_hierarchy", name="base.Base")
        helper = await a.get_symbol("helper")
    assert [d["qualified_name"] for d in base["descendants"]] == ["a.A"]
    assert helper["qualified_name"] == "ts.helper"


async def test_functions_assigned_through_an_alias_of_module_exports_are_its_exports(
    tmp_path: Path, cache_dir: Path
) -> None:
    # webpack's helpers: `const H = module.exports; H.f = …` made a symbol `a.H.f` no require reached
    write(tmp_path, {
        "a.js": "const H = module.exports;\nH.f = function (x) { return x; };\n",
        "b.js": (
            'const H = require("./a");\nconst { f } = require("./a");\n'
            "function g() { return H.f(1); }\nfunction k() { return f(2); }\nmodule.exports = { g, k };\n"
        ),
    })  # fmt: skip
    async with indexed(tmp_path) as a:
        f = await a.get_symbol("a.f")
    assert f["callers"] == {"import": {"b.js": {"g": 3, "k": 4}}}


async def test_a_bare_call_inside_a_namespace_reaches_the_namespace_s_members_in_other_files(
    tmp_path: Path, cache_dir: Path
) -> None:
    # TypeScript's compiler: `namespace ts {}` in every file, calls between them bare; they were
    # name-only guesses, and unresolved as soon as a nested function anywhere shared the name
    write(tmp_path, {
        "a.ts": "namespace ts {\n    export function helper(): number { return 1; }\n}\n",
        "b.ts": "namespace ts {\n    export function user(): number { return helper(); }\n}\n",
        "d.ts": (
            "namespace ts {\n    export function parse(): boolean {\n"
            "        function helper(): boolean { return true; }\n        return helper();\n    }\n}\n"
        ),
    })  # fmt: skip
    async with indexed(tmp_path) as a:
        user = await a.get_symbol("ts.user")
        parse = await a.get_symbol("ts.parse")
    assert user["callees"] == {"exact": {"a.ts": {"ts.helper": 2}}}
    assert parse["callees"] == {"exact": {"d.ts": {"ts.parse.helper": 4}}}, "its own nested one, nearer"
