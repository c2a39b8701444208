"""An agent asks "what does this module import, and from where; what does it export": every
import form with its local binding and a target that matches the qualified names the imported
file produces; every export form."""

from codecairn.model import Export, Import


def test_es_imports_bind_local_names_to_qualified_targets(extract):
    facts = extract(
        """
        import { parse as parseUrl, format } from "./url.js";
        import Router from "../router";
        import * as path from "../../lib/path/index.ts";
        import type { Config } from "./config";
        import { type Plugin, load } from "./plugins/";
        import "./polyfills";
        import express, { Request } from "express";
        import get from "lodash.get";
        import { of } from "rxjs/operators";
        import legacy = require("./legacy");
        """,
        path="src/app/server.ts",
    )
    imports = facts.imports()
    assert imports["parseUrl"] == Import("./url.js", "parse", "parseUrl", 1, "", "src/app/url.parse")
    assert imports["format"].target == "src/app/url.format"
    assert imports["Router"] == Import("../router", "default", "Router", 2, "", "src/router.default")
    assert imports["path"] == Import("../../lib/path/index.ts", "", "path", 3, "", "lib/path")
    assert (imports["Config"].kind, imports["Config"].target) == ("type", "src/app/config.Config")
    assert (imports["Plugin"].kind, imports["load"].kind) == ("type", "")
    assert imports["load"].target == "src/app/plugins.load"
    assert imports["side-effect:./polyfills:"].target == "src/app/polyfills"
    # bare specifiers name packages and stay as written
    assert imports["express"].target == "express.default"
    assert imports["Request"].target == "express.Request"
    assert imports["get"].target == "lodash.get.default"
    assert imports["of"].target == "rxjs/operators.of"
    assert imports["legacy"] == Import("./legacy", "", "legacy", 10, "require", "src/app/legacy")


def test_targets_agree_with_the_imported_files_own_names(extract):
    exporter = extract("export function slugify(s: string) { return s; }\n", path="src/util/index.ts")
    importer = extract('import { slugify } from "../util";\nslugify("x");\n', path="src/app/page.ts")
    assert importer.imports()["slugify"].target == exporter.symbol("src/util.slugify").qualified_name


def test_commonjs_requires_and_dynamic_imports(extract):
    facts = extract(
        """
        const fs = require("fs");
        const { join, resolve: resolvePath } = require("node:path");
        const debug = require("debug")("app");
        const helper = require("./helpers").helper;
        require("./register");
        async function lazy() {
          const mod = await import("./heavy.js");
          import(`./locale/${lang}.js`);
          const dayjs = require("dayjs");
        }
        """,
        path="lib/main.js",
    )
    imports = facts.imports()
    assert imports["fs"] == Import("fs", "", "fs", 1, "require", "fs")
    assert imports["join"].target == "node:path.join"
    assert (imports["resolvePath"].name, imports["resolvePath"].target) == ("resolve", "node:path.resolve")
    assert imports["helper"].target == "lib/helpers.helper"
    assert imports["require:./register:"].target == "lib/register"
    assert imports["mod"] == Import("./heavy.js", "", "mod", 7, "dynamic", "lib/heavy")
    assert imports["dayjs"].kind == "require"  # a lazy require inside a function is still an import
    # require("debug")("app") binds a call's result: the module is imported, `debug` is a constant
    assert "debug" not in imports and imports["require:debug:"].target == "debug"
    assert len([i for i in facts.facts.imports if i.kind == "dynamic"]) == 1  # a template is no literal
    assert facts.names() == ["lib/main.debug", "lib/main.lazy"]  # import bindings are not symbols


def test_es_exports(extract):
    facts = extract(
        """
        export const a = 1, b = 2;
        export function f() {}
        export class C {}
        export interface I {}
        export type T = string;
        export enum E { X }
        export namespace N {}
        const local = 3;
        export { local as renamed, f as default };
        export * from "./all";
        export * as utils from "./utils/index.js";
        export { x as y, z } from "../other";
        export type { Shape } from "./shapes";
        """,
        path="src/lib/index.ts",
    )
    assert facts.facts.exports == [
        Export("a", 1),
        Export("b", 1),
        Export("f", 2),
        Export("C", 3),
        Export("I", 4),
        Export("T", 5),
        Export("E", 6),
        Export("N", 7),
        Export("local", 9, "", "", "renamed"),
        Export("f", 9, "", "", "default"),
        Export("*", 10, "re-export", "src/lib/all"),
        Export("*", 11, "re-export", "src/lib/utils", "utils"),
        Export("x", 12, "re-export", "src/other", "y"),
        Export("z", 12, "re-export", "src/other"),
        Export("Shape", 13, "re-export", "src/lib/shapes"),
    ]
    # a re-export is also an import of kind "re-export": a dependency of the module, and the name
    # it makes available (what a resolver follows through barrel files)
    re_imports = [(i.module, i.name, i.alias, i.target) for i in facts.facts.imports if i.kind == "re-export"]
    assert re_imports == [
        # the module's own name made available under another: a name importers reach it by
        ("", "local", "renamed", "src/lib.local"),
        ("./all", "*", "", "src/lib/all"),
        ("./utils/index.js", "", "utils", "src/lib/utils"),
        ("../other", "x", "y", "src/other.x"),
        ("../other", "z", "z", "src/other.z"),
        ("./shapes", "Shape", "Shape", "src/lib/shapes.Shape"),
    ]


def test_default_exports_and_export_assignment(extract):
    assert extract("export default class Foo {}\n").facts.exports == [Export("Foo", 1, "default")]
    assert extract("export default () => 1;\n").facts.exports == [Export("default", 1, "default")]
    assert extract("const app = 1;\nexport default app;\n").facts.exports == [Export("app", 2, "default")]
    assert extract("class Api {}\nexport = Api;\n").facts.exports == [Export("Api", 2, "default")]


def test_commonjs_exports(extract):
    facts = extract(
        """
        class Linter {}
        function helper() {}
        module.exports = { Linter, helper, version: "1", create(context) { return context; } };
        exports.extra = function () {};
        """,
        path="lib/linter.js",
    )
    assert [e.name for e in facts.facts.exports] == ["Linter", "helper", "version", "create", "extra"]
    assert facts.symbol("lib/linter.create").kind == "function"  # a member of the module object
    assert facts.symbol("lib/linter.extra").kind == "function"
    single = extract("module.exports = class Cursor extends Base {};\n", path="lib/cursor.js")
    assert single.facts.exports == [Export("Cursor", 1, "default")]
    assert single.bases("lib/cursor.Cursor") == [("extends", "Base")]
    rexport = extract('module.exports = require("./impl");\n', path="lib/index.js")
    assert rexport.facts.exports == [Export("*", 1, "re-export", "lib/impl")]
