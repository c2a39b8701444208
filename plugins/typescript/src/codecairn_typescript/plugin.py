"""The codecairn plugin: TypeScript (.ts), TSX (.tsx) and JavaScript (.js, .jsx, .mjs, .cjs).

JavaScript is parsed with the TSX grammar: TypeScript is a superset of JavaScript and TSX adds
JSX, so one grammar family and one extractor cover all three. On the JavaScript corpora measured
(eslint, three.js, webpack: 1,975 files) the TSX grammar failed on one file that
tree-sitter-javascript parses (`while (size < unique.length * 4) size <<= 1;` reads as a type
argument list), at the same speed.
"""

from __future__ import annotations

import tree_sitter_typescript
from codecairn.hookspecs import (
    C_COMMENTS,
    AttachedLines,
    ImportedOnCall,
    Language,
    ResolutionRules,
    RouteDetector,
    hookimpl,
)

_RULES = ResolutionRules(
    separator=".",
    implicit_members=False,  # members are reached through `this.`, never bare
    self_names=("this",),
    super_names=("super",),
    directory_scope=False,  # every file is its own module; other files are reached by import
    builtins=frozenset(
        (
            # ECMAScript globals, and the host globals every runtime has
            "Array",
            "ArrayBuffer",
            "BigInt",
            "Boolean",
            "DataView",
            "Date",
            "Error",
            "EvalError",
            "Function",
            "Intl",
            "JSON",
            "Map",
            "Math",
            "Number",
            "Object",
            "Promise",
            "Proxy",
            "RangeError",
            "ReferenceError",
            "Reflect",
            "RegExp",
            "Set",
            "String",
            "Symbol",
            "SyntaxError",
            "TypeError",
            "URIError",
            "WeakMap",
            "WeakRef",
            "WeakSet",
            "decodeURI",
            "decodeURIComponent",
            "encodeURI",
            "encodeURIComponent",
            "eval",
            "isFinite",
            "isNaN",
            "parseFloat",
            "parseInt",
            "globalThis",
            "AbortController",
            "Blob",
            "Buffer",
            "TextDecoder",
            "TextEncoder",
            "URL",
            "URLSearchParams",
            "atob",
            "btoa",
            "clearInterval",
            "clearTimeout",
            "console",
            "fetch",
            "queueMicrotask",
            "require",
            "setInterval",
            "setTimeout",
            "structuredClone",
        )
    ),
)
_SHARED = dict(
    extractor=ImportedOnCall("codecairn_typescript.extractor:extract"),
    resolution=_RULES,
    family="ecmascript",  # a .ts file imports .tsx and .js modules by the same module names
    # "2": module-level variables' returns edges (`const repo = new Repo()`); "3": the calls of a
    # module-level constant's initializer are the constant's, and `this.m = this.m.bind(this)` in a
    # constructor makes no property beside a method m declared below it, and a call of a parameter
    # or a local is marked as the function's own (no namesake elsewhere answers it); "4": a module's
    # own name exported under another (`export { _instanceof as instanceof }`) binds that name; "5": a
    # parenthesised base (`extends (\n Base\n)`) is a base, and `require(`/`exports` in comments do not
    # make a script a module, and what is assigned through `const H = module.exports` is exported
    version="5",
    attached=AttachedLines(("@",), C_COMMENTS),
)


@hookimpl
def codecairn_languages() -> list[Language]:
    return [
        Language("typescript", (".ts", ".mts", ".cts"), tree_sitter_typescript.language_typescript, **_SHARED),
        Language("tsx", (".tsx",), tree_sitter_typescript.language_tsx, **_SHARED),
        Language("javascript", (".js", ".jsx", ".mjs", ".cjs"), tree_sitter_typescript.language_tsx, **_SHARED),
    ]


@hookimpl
def codecairn_route_detectors() -> list[RouteDetector]:
    return [
        RouteDetector(
            "ecmascript-http", ("typescript", "tsx", "javascript"), ImportedOnCall("codecairn_typescript.routes:detect")
        )
    ]
