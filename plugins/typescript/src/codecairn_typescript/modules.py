"""Module paths: how a file and an import specifier name the same module.

A TypeScript/JavaScript module is named by its path from the workspace root without the
extension, with a trailing ``/index`` dropped (``src/util/index.ts`` -> ``src/util``,
``src/a/b.ts`` -> ``src/a/b``). A relative specifier (``./b.js``, ``../util``) is resolved the
same way from the importing file's directory, so ``Import.target`` and the imported file's
``Symbol.qualified_name`` agree. Bare specifiers (``lodash``, ``@scope/pkg/sub``) stay as written:
they name a package, not a workspace path. The workspace root's own ``index`` keeps its name
(an empty prefix would make its symbols look global).
"""

from __future__ import annotations

import posixpath

# Longest first: ".d.ts" must win over ".ts".
_EXTENSIONS = (
    ".d.mts",
    ".d.cts",
    ".d.ts",
    ".tsx",
    ".ts",
    ".mts",
    ".cts",
    ".jsx",
    ".js",
    ".mjs",
    ".cjs",
)


def strip_extension(path: str) -> str:
    for ext in _EXTENSIONS:
        if path.endswith(ext) and len(path) > len(ext):
            return path[: -len(ext)]
    return path


def _canonical(path: str) -> str:
    path = strip_extension(path)
    if path in ("", ".", "index"):
        return "index"
    if path.endswith("/index"):
        path = path[: -len("/index")]
    return path


def module_path(path: str) -> str:
    """``src/util/index.ts`` -> ``src/util``; ``src/a/b.ts`` -> ``src/a/b``."""
    path = posixpath.normpath(path.replace("\\", "/"))
    return _canonical(path.lstrip("/") if path.startswith("//") else path)


def is_relative(specifier: str) -> bool:
    return specifier in (".", "..") or specifier.startswith(("./", "../"))


def resolve_specifier(specifier: str, importer_path: str) -> str:
    """The module a specifier names, seen from the file at ``importer_path``."""
    if not is_relative(specifier):
        return specifier
    directory = posixpath.dirname(importer_path.replace("\\", "/"))
    joined = posixpath.normpath(posixpath.join(directory, specifier))
    return _canonical(joined)


def target(module: str, name: str) -> str:
    """The qualified name an import binds: the module itself, or ``module.name``."""
    return f"{module}.{name}" if name and name != "*" else module
