"""A quick symbol list of a Python tree made with ``ast``, for the semantic benchmarks only.

It stands in for the Python plugin's facts: the same fields (kind, name, dotted qualified name,
signature as written up to the body, first doc line, enclosing symbol), so the text recipes chosen
here apply unchanged to what the real extractor produces.
"""

from __future__ import annotations

import ast
import os
import warnings
from pathlib import Path
from typing import NamedTuple

CORPORA = Path(os.environ.get("CODECAIRN_CORPORA", Path.home() / ".cache" / "codecairn-corpora")) / "c"
STDLIB = CORPORA / "py-cpython-lib"
# Tests, demos and IDLE are not what a developer searches the standard library for.
SKIP_DIRS = {"test", "tests", "idle_test", "__pycache__", "site-packages", "lib2to3", "idlelib", "turtledemo"}


class AstSymbol(NamedTuple):
    kind: str
    name: str
    qualified_name: str
    signature: str
    doc: str
    parent_name: str
    path: str


def _first_doc_line(node) -> str:
    doc = ast.get_docstring(node, clean=True) or ""
    for line in doc.splitlines():
        if line.strip():
            return line.strip()
    return ""


def _strip_comment(line: str) -> str:
    at = line.find("#")
    if at >= 0 and line[:at].count('"') % 2 == 0 and line[:at].count("'") % 2 == 0:
        return line[:at]
    return line


def _signature(lines: list[str], node) -> str:
    """The header as written, from ``def``/``class`` up to the body, on one line."""
    first = node.body[0]
    if node.lineno == first.lineno:
        text = lines[node.lineno - 1][node.col_offset : first.col_offset]
    else:
        header = [lines[node.lineno - 1][node.col_offset :], *lines[node.lineno : first.lineno - 1]]
        text = " ".join(_strip_comment(line).strip() for line in header)
    return " ".join(text.split()).rstrip(":").rstrip()[:240]


def module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def symbols_of_file(root: Path, path: Path) -> list[AstSymbol]:
    source = path.read_text("utf-8", errors="replace")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            tree = ast.parse(source)
        except SyntaxError:
            return []
    lines = source.replace("\r\n", "\n").split("\n")  # ast counts only newlines; splitlines() also splits on \f
    module = module_name(root, path)
    rel = str(path.relative_to(root))
    out: list[AstSymbol] = []

    def visit(body, prefix: str, parent_name: str, in_class: bool) -> None:
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                kind = "method" if in_class else "function"
            elif isinstance(node, ast.ClassDef):
                kind = "class"
            elif isinstance(node, (ast.If, ast.Try, ast.With)):
                # definitions under "try: import fast except ImportError: def slow()" and friends
                for block in (node.body, getattr(node, "orelse", []), getattr(node, "finalbody", [])):
                    visit(block, prefix, parent_name, in_class)
                for handler in getattr(node, "handlers", []):
                    visit(handler.body, prefix, parent_name, in_class)
                continue
            else:
                continue
            qualified = f"{prefix}.{node.name}" if prefix else node.name
            out.append(
                AstSymbol(kind, node.name, qualified, _signature(lines, node), _first_doc_line(node), parent_name, rel)
            )
            if kind == "class":
                visit(node.body, qualified, node.name, True)

    visit(tree.body, module, "", False)
    return out


def stdlib_symbols(root: Path = STDLIB) -> list[AstSymbol]:
    out: list[AstSymbol] = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=True):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS)
        for filename in sorted(filenames):
            if filename.endswith(".py"):
                out.extend(symbols_of_file(root, Path(dirpath) / filename))
    return out


if __name__ == "__main__":
    syms = stdlib_symbols()
    print(len(syms))
    for s in syms[:: max(1, len(syms) // 15)]:
        print(s)
