"""The design stays visible: all SQL lives in core's store package, and core's modules import one
way (docs/architecture.md's layers; `lint-imports` checks them against pyproject.toml's contract)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import codecairn

CORE = Path(codecairn.__file__).parent
# A statement: a verb with something after it ("DELETE" alone is an HTTP method), or a bare transaction word.
SQL = re.compile(r"^\s*((SELECT|INSERT|UPDATE|DELETE|CREATE|DROP|ALTER|PRAGMA)\s+\S|(BEGIN|COMMIT|ROLLBACK|VACUUM)\b)")


def sql_outside_the_store() -> list[str]:
    found = []
    for path in sorted(CORE.rglob("*.py")):
        rel = path.relative_to(CORE)
        if rel.parts[0] == "store":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            parts = []
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                parts = [node.value]
            elif isinstance(node, ast.JoinedStr):
                parts = [v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str)][:1]
            if any(SQL.match(p) for p in parts):
                found.append(f"{rel}:{node.lineno}: {parts[0].strip()[:60]}")
    return found


def test_no_sql_outside_the_store() -> None:
    assert sql_outside_the_store() == []


def test_the_check_sees_sql_where_it_is() -> None:
    """The scan finds what it looks for: the store itself is full of statements."""
    statements = 0
    for path in (CORE / "store").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and SQL.match(node.value):
                statements += 1
    assert statements > 20


def test_core_has_no_import_cycle() -> None:
    modules = {}
    for path in CORE.rglob("*.py"):
        parts = ["codecairn", *path.relative_to(CORE).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)] if node.level > 1 else base
                head = ".".join(base + ([node.module] if node.module else [])) if node.level else (node.module or "")
                targets = [head] + [f"{head}.{a.name}" for a in node.names]
            for target in targets:
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target and target != name and not name.startswith(target + "."):
                    graph[name].add(target)
    in_cycle = []
    for start in graph:
        stack, seen = list(graph[start]), set()
        while stack:
            module = stack.pop()
            if module == start:
                in_cycle.append(start)
                break
            if module not in seen:
                seen.add(module)
                stack.extend(graph[module])
    assert in_cycle == []
