"""Real code for tests: real code to index (copies of the running interpreter's own standard library,
which nobody here wrote and every machine with Python has), a private cache directory, and the
installed `codecairn` command.

Imported by tests directly (tests/ is on pytest's pythonpath), and by conftest for fixtures."""

from __future__ import annotations

import json
import os
import shutil
import sys
import sysconfig
import textwrap
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from mcp import ClientSession

STDLIB = Path(sysconfig.get_paths()["stdlib"])
T = TypeVar("T")


def copy_stdlib(dest: Path, packages: tuple[str, ...]) -> Path:
    for pkg in packages:
        src = STDLIB / pkg
        if src.is_dir():
            shutil.copytree(src, dest / pkg, ignore=shutil.ignore_patterns("__pycache__", "test", "tests"))
        else:
            shutil.copy2(STDLIB / f"{pkg}.py", dest / f"{pkg}.py")
    return dest


def copy_most_of_stdlib(dest: Path) -> Path:
    """Every package and module of the standard library but tests, IDLE, lib2to3 and venv:
    ≈ 600 files, large enough that an index takes a noticeable while."""
    skip = ("site-packages", "test", "idlelib", "lib2to3", "venv")
    return copy_stdlib(
        dest,
        tuple(
            p.name if p.is_dir() else p.stem
            for p in STDLIB.iterdir()
            if (p.is_dir() and (p / "__init__.py").exists() and p.name not in skip) or p.suffix == ".py"
        ),
    )


async def call(session: ClientSession, tool: str, args: dict | None = None) -> dict:
    """One tool call through a real MCP client session; a tool error fails the test."""
    result = await session.call_tool(tool, args or {})
    payload = json.loads(result.content[0].text)
    assert not result.is_error, payload
    return payload


# Groups of an answer's edges that list names rather than places by file.
NAME_LISTS = ("unresolved", "external")


def shown(groups: dict) -> set[str]:
    """The names an answer's places show (bases, subclasses, callees, callers: ``{resolution:
    {path: {name: line}}}``, names relative to their file's module), the names nothing resolved
    (``unresolved``) and the dotted names of calls out of the index (``external``)."""
    names: set[str] = {name for group in NAME_LISTS for name in groups.get(group, ())}
    for group, by_path in groups.items():
        if group not in NAME_LISTS:
            for places in by_path.values():
                names.update(places)
    return names


def places(groups: dict) -> set[tuple[str, str]]:
    """``(path, name)`` of every place in ``{resolution: {path: {name: line}}}``."""
    return {
        (path, name)
        for group, by_path in groups.items()
        if group not in NAME_LISTS
        for path, names in by_path.items()
        for name in names
    }


def listed(results: dict) -> list[dict]:
    """Symbols grouped by file (``{path: [entry]}``), flattened in the order shown, each entry
    with its ``path``."""
    return [{**entry, "path": path} for path, entries in results.items() for entry in entries]


def by_name(groups: dict) -> dict[str, dict]:
    """Places (``{resolution or kind: {path: {name: line}}}``) by the name shown: where each is
    and how it was reached (``group``). A name in several groups keeps every group in ``groups``."""
    out: dict[str, dict] = {}
    for group, by_path in groups.items():
        if group in NAME_LISTS:
            continue
        for path, names in by_path.items():
            for name, line in names.items():
                entry = out.setdefault(
                    name, {"path": path, "group": group, "line": line, "groups": set(), "kinds": set()}
                )
                entry["groups"].add(group)
                entry["kinds"].add(group.split(" (")[0])  # bases: "implements (import)" is an implements
    return out


def member_names(answer: dict, kind: str | None = None) -> set[str]:
    """Names of a get_symbol answer's members (``{kind: {name: line}}``), of one kind or all."""
    members = answer.get("members", {})
    return {name for k, names in members.items() if kind in (None, k) for name in names}


def outline_names(answer: dict) -> list[str]:
    """Names of a file_outline's top-level symbols, in line order (the name, or the one its
    signature shows when the name was left out)."""
    nodes = sorted((int(n["lines"].split("-")[0]), n) for kind_nodes in answer["symbols"].values() for n in kind_nodes)
    return [n.get("name") or n["signature"] for _, n in nodes]


def python_edges(groups: dict) -> dict[str, str]:
    """Python places (bases, callees, callers...) as ``{qualified name: resolution}``."""
    return {
        python_qualified({"path": path, "name": name}): resolution
        for resolution, by_path in groups.items()
        if resolution not in NAME_LISTS
        for path, names in by_path.items()
        for name in names
    }


def python_qualified(entry: dict) -> str:
    """A Python symbol's qualified name from its entry in a file's group: the file's module
    (its path, dotted) and the name relative to it (tools/shaping.local_name); the module's own
    entry is named by the module. `shlex.whitespace` in shlex.py is the class shlex's attribute."""
    module = entry["path"].removesuffix(".py").removesuffix("/__init__").replace("/", ".")
    name = entry["name"]
    return name if name == module else f"{module}.{name}"


async def ask_questions(root: Path, cache: Path, questions: dict[str, tuple[str, dict]]) -> dict[str, dict]:
    """One agent session through the real server: index, then each (tool, arguments) question.
    Returns the answers by question key (and "index"); the tests check them afterwards."""
    from mcp import ClientSession, StdioServerParameters, stdio_client

    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "codecairn.cli", "serve", str(root), "--no-index"],
        env={**os.environ, "CODECAIRN_CACHE_DIR": str(cache)},
    )
    answers: dict[str, dict] = {}
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            answers["index"] = await call(session, "index")
            for key, (tool, args) in questions.items():
                answers[key] = await call(session, tool, args)
    return answers


# ---- waiting for something to happen: a bounded poll of the real condition, never a fixed sleep ----

DEADLINE = 60.0  # generous for a loaded 2-core machine; a hung test still ends, saying what it waited for


def wait_for(condition: Callable[[], T], what: str, timeout: float = DEADLINE, interval: float = 0.02) -> T:
    """``condition()`` once it is truthy (returned); fails the test naming ``what`` after ``timeout``."""
    deadline = time.monotonic() + timeout
    while not (result := condition()):
        if time.monotonic() > deadline:
            import pytest  # here: the pool's worker processes import this module too

            pytest.fail(f"after {timeout:g} s still not: {what}")
        time.sleep(interval)
    return result


async def until(
    condition: Callable[[], Awaitable[T] | T], what: str, timeout: float = DEADLINE, interval: float = 0.02
) -> T:
    """``wait_for`` in an event loop (which runs meanwhile); ``condition`` may be a coroutine function."""
    import inspect

    import anyio
    import pytest

    deadline = time.monotonic() + timeout
    while True:
        result = condition()
        if inspect.isawaitable(result):
            result = await result
        if result:
            return result
        if time.monotonic() > deadline:
            pytest.fail(f"after {timeout:g} s still not: {what}")
        await anyio.sleep(interval)


# ---- run in worker processes by the pool's tests: importable there only through the parent's
# sys.path (tests/ is on it by pytest's configuration, not by the environment) ----


def shout(word: str) -> str:
    print(word * 1000)  # a plugin that prints: must land on stderr, not in the answers
    return word.upper()


def hello_routes(method: str, source: bytes, tree, path: str, facts):
    """A third party's route detector: every `@Hello("/path")` line is a route of ``method``."""
    from codecairn.model import Route

    routes = []
    for number, line in enumerate(source.decode("utf-8", "replace").splitlines(), 1):
        if line.strip().startswith('@Hello("'):
            routes.append(Route(method, line.split('"')[1], "", number, number, "hello"))
    return routes, []


def hello_get(source: bytes, tree, path: str, facts):
    return hello_routes("GET", source, tree, path, facts)


def hello_post(source: bytes, tree, path: str, facts):
    return hello_routes("POST", source, tree, path, facts)


def pid_after(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


class Answers:
    """The built-in tools' answers in-process, as an agent gets them over MCP (less the server's
    stamps: generation, stale, indexing): each call goes through the tool's own handler with the
    public tool API (codecairn.context.ServedContext) in front of the workspace."""

    def __init__(self, ws) -> None:
        from codecairn.context import ServedContext

        self.ctx = ServedContext(ws)
        self.tools = ws.host.tools

    async def call(self, tool: str, **args) -> dict:
        """The tool's answer, checked against the schema it advertises (its outputSchema)."""
        answer = await self.tools[tool].handler(self.ctx, {k: v for k, v in args.items() if v is not None})
        schema = self.tools[tool].output_schema
        if schema is not None:
            _validator(tool, schema).validate(answer)
        return answer

    async def find_symbols(self, **args) -> dict:
        return await self.call("find_symbols", **args)

    async def get_symbol(self, name: str, path: str | None = None, line: int | None = None) -> dict:
        return await self.call("get_symbol", name=name, path=path, line=line)

    async def read_symbol(self, name: str, path: str | None = None, line: int | None = None, **args) -> dict:
        return await self.call("read_symbol", name=name, path=path, line=line, **args)

    async def file_outline(self, path: str, **args) -> dict:
        return await self.call("file_outline", path=path, **args)

    async def stats(self) -> dict:
        return await self.call("stats")


_VALIDATORS: dict[str, Any] = {}


def _validator(tool: str, schema: dict) -> Any:
    import jsonschema

    checker = _VALIDATORS.get(tool)
    if checker is None or checker.schema is not schema:
        checker = _VALIDATORS[tool] = jsonschema.Draft202012Validator(schema)
    return checker


def answers(ws) -> Answers:
    return Answers(ws)


def write_tree(root: Path, files: dict[str, str]) -> Path:
    """A small project: each file's text as a test writes it indented, dedented."""
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text).lstrip())
    return root


@asynccontextmanager
async def indexed(root: Path) -> AsyncIterator[Answers]:
    """``root`` opened as a workspace and indexed; its tools' answers, closed after."""
    from codecairn.workspace import Workspace

    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        yield Answers(ws)
    finally:
        await ws.close()
