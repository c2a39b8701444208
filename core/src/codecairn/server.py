"""The MCP stdio server: thin. It advertises exactly the tools the loaded plugins contribute,
validates arguments against each tool's schema, bounds each call in time and size, and stamps
every answer — errors too — with the index generation, whether an index is running, and any
named file that changed since it was indexed.

Bounds, all enforced here for every tool: arguments are checked against the schema before the
tool runs (and a refusal names the argument without repeating it); a call gets
CODECAIRN_TOOL_TIMEOUT seconds, after which it is cancelled — tools do their heavy work in
slices or in threads that see the cancellation, so the work stops, not just the wait; every
answer, error or not, fits CODECAIRN_RESPONSE_BYTES. Both may be set per project too (limits in
its configuration, codecairn.config); the environment wins.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import os
import sqlite3
import sys
import warnings
from collections.abc import Awaitable
from pathlib import Path
from typing import Any

import anyio
import jsonschema
import mcp.types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import NotificationOptions, Server
from mcp.shared.exceptions import MCPError

from codecairn import __version__, subprocesses
from codecairn.context import ServedContext
from codecairn.errors import BAD_ARGUMENT, UNAVAILABLE, StoreError, ToolError, clipped, quoted
from codecairn.files.roots import DeclaredRoots
from codecairn.hookspecs import Tool
from codecairn.metrics.recorder import CallRecorder
from codecairn.transport import stdio_transport
from codecairn.workspace import Workspace

log = logging.getLogger("codecairn.server")
# Said with every answer while a root's first index runs: an early "not found" may only be "not yet".
FIRST_INDEX = (
    "the first index of this root is still being built: what it has not reached is missing from this "
    "answer (a not_found may only be not yet); ask again once it is done (stats shows the progress)"
)

# A plugin's string or list argument whose schema sets no limit gets these (built-in tools set their own).
DEFAULT_MAX_CHARS = 64 * 1024
DEFAULT_MAX_ITEMS = 1000
# A call that runs longer than this gets a progress notification every as often (when its client
# sent a progressToken): clients that reset their time-outs on progress keep waiting for it.
HEARTBEAT_SECONDS = float(os.environ.get("CODECAIRN_PROGRESS_EVERY", 1.0))
NOT_INITIALIZED = "the session is not initialized: send initialize (then notifications/initialized) first"

# What `initialize` tells an agent before its first call: which tool answers which question.
# A line per tool, kept for the tools actually served (a plugin's own tools are described by
# their descriptions in tools/list).
INSTRUCTIONS_HEAD = (
    "codecairn knows this code base's symbols, files and call graph, and is never stale. Ask it "
    "before reading files: its answers are smaller than the files and exact."
)
INSTRUCTIONS_BY_TOOL = {
    "find_symbols": "where is X defined? find_symbols(name) (exact matches first); by meaning: find_symbols(query)",
    "file_outline": "what is in this file? file_outline(path) (detail: names | signatures | full)",
    "get_symbol": "what is X: signature, doc, members, bases, subclasses, callers, callees? get_symbol(name)",
    "read_symbol": "the source of one function or class: read_symbol(name), instead of the whole file",
    "recall": "what did earlier sessions note about X? recall(query); remember(...) to note something",
    "stats": "what is indexed, and how fresh? stats",
    "index": "files changed outside the watcher? index (only changed files are re-parsed)",
}

# MCP's log levels, most verbose first, and the logging level each forwards from.
CLIENT_LOG_LEVELS = {
    "debug": logging.DEBUG,
    "info": logging.INFO,
    "notice": logging.INFO + 5,
    "warning": logging.WARNING,
    "error": logging.ERROR,
    "critical": logging.CRITICAL,
    "alert": logging.CRITICAL + 5,
    "emergency": logging.CRITICAL + 10,
}


def instructions(tools: dict[str, Tool]) -> str:
    lines = [f"- {text}" for name, text in INSTRUCTIONS_BY_TOOL.items() if name in tools]
    return "\n".join([INSTRUCTIONS_HEAD, *lines])


def _mcp_level(levelno: int) -> str:
    chosen = "debug"
    for name, number in CLIENT_LOG_LEVELS.items():
        if levelno >= number:
            chosen = name
    return chosen


class ClientLog(logging.Handler):
    """The server's log records at or above the level a client set (``logging/setLevel``), sent
    to it as ``notifications/message``; records from threads are handed to the event loop."""

    def __init__(self, session: Any, level: int) -> None:
        super().__init__(level)
        self.session = session
        self.loop = asyncio.get_running_loop()
        self._sending: set[asyncio.Task] = set()

    def emit(self, record: logging.LogRecord) -> None:
        try:
            message = clipped(record.getMessage())
        except Exception:  # a record whose arguments do not format: not worth failing over
            return
        level, name = _mcp_level(record.levelno), record.name
        self.loop.call_soon_threadsafe(self._send, level, message, name)

    def _send(self, level: str, message: str, name: str) -> None:
        task = self.loop.create_task(self._deliver(level, message, name))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def _deliver(self, level: str, message: str, name: str) -> None:
        try:
            await self.session.send_log_message(level, message, logger=name)
        except Exception:  # the client went away: its log goes with it
            pass


def _paths_in(value: Any, out: set[str]) -> None:
    """Candidate paths an answer names: values of "path" keys, and keys (answers group places
    by file, keyed by path); the caller keeps those that are indexed files."""
    if isinstance(value, dict):
        p = value.get("path")
        if isinstance(p, str):
            out.add(p)
        out.update(value)
        for v in value.values():
            if isinstance(v, (dict, list)):
                _paths_in(v, out)
    elif isinstance(value, list):
        for v in value:
            _paths_in(v, out)


def _text(payload: dict[str, Any]) -> str:
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":"))


def _size(payload: dict[str, Any]) -> int:
    return len(_text(payload).encode())


def with_limits(schema: Any) -> Any:
    """A copy of a tool's input schema in which every string has a maxLength and every array a
    maxItems: a third-party tool that forgot them is bounded like the built-in ones, and the
    limits it gets are the ones advertised."""
    if isinstance(schema, list):
        return [with_limits(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {}
    for key, value in schema.items():
        if key in ("properties", "patternProperties", "$defs", "definitions"):
            out[key] = {k: with_limits(v) for k, v in value.items()} if isinstance(value, dict) else value
        elif key in ("items", "additionalProperties", "prefixItems", "anyOf", "oneOf", "allOf", "not"):
            out[key] = with_limits(value)
        else:
            out[key] = value
    kinds = out.get("type")
    kinds = kinds if isinstance(kinds, list) else [kinds]
    if "string" in kinds:
        out.setdefault("maxLength", DEFAULT_MAX_CHARS)
    if "array" in kinds:
        out.setdefault("maxItems", DEFAULT_MAX_ITEMS)
    return out


def _schema_problem(error: jsonschema.ValidationError) -> str:
    """A schema violation in a few words. jsonschema's own messages repeat the offending value
    whole (a 5 MB string, a list of a million tags); these say what is wrong with it instead."""
    where = ".".join(str(p) for p in error.absolute_path) or "arguments"
    keyword, rule, value = error.validator, error.validator_value, error.instance
    if keyword == "maxLength":
        return f"{where}: at most {rule:,} characters ({len(value):,} given)"
    if keyword == "maxItems":
        return f"{where}: at most {rule:,} items ({len(value):,} given)"
    if keyword == "type":
        wanted = " or ".join(rule) if isinstance(rule, list) else rule
        return f"{where}: must be {wanted}, not {_json_type(value)} {quoted(value)}"
    if keyword == "additionalProperties" and isinstance(value, dict):
        known = error.schema.get("properties", {})
        extra = [k for k in value if k not in known]
        return (
            f"unknown argument{'s' if len(extra) > 1 else ''} {', '.join(quoted(k) for k in extra[:3])}"
            f"{' …' if len(extra) > 3 else ''}; known: {', '.join(known) or 'none'}"
        )
    if keyword == "enum":
        return f"{where}: must be one of {', '.join(json.dumps(v) for v in rule)}, not {quoted(value)}"
    return clipped(f"{where}: {error.message}")


def _as_integers(schema: Any, value: Any) -> Any:
    """``value`` with every number the schema calls an integer made a Python int: JSON Schema
    accepts ``1.0`` as an integer, and a tool slicing with it would fail."""
    if not isinstance(schema, dict):
        return value
    if isinstance(value, float) and value.is_integer() and schema.get("type") == "integer":
        return int(value)
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        return {k: _as_integers(properties.get(k), v) for k, v in value.items()}
    if isinstance(value, list):
        return [_as_integers(schema.get("items"), v) for v in value]
    return value


def _json_type(value: Any) -> str:
    for kind, python in (("boolean", bool), ("integer", int), ("number", float), ("string", str), ("array", list)):
        if isinstance(value, python):
            return kind
    return "object" if isinstance(value, dict) else "null"


async def _explain_uninitialized(ctx: ServerRequestContext, call_next) -> Any:
    """The SDK refuses a call made before `initialize` as "Invalid request parameters" with
    empty data; say what is actually wrong (same code, so clients that key on it still work)."""
    try:
        return await call_next(ctx)
    except MCPError as exc:
        refused_at_the_gate = exc.code == types.INVALID_PARAMS and exc.data == "" and ctx.method != "initialize"
        if refused_at_the_gate and ctx.session.client_params is None:
            raise MCPError(types.INVALID_PARAMS, NOT_INITIALIZED, data=NOT_INITIALIZED) from None
        raise


# Arguments that make an answer smaller, when a tool takes them: advice names only these.
NARROWING = ("limit", "max_lines", "max_bytes", "path", "kinds", "start_line", "end_line", "language", "depth")


def _advertised(tool: Tool) -> types.Tool:
    """A tool as tools/list shows it: with its title, its true annotations and, when it has one,
    the schema of its answers."""
    hints = tool.hints
    return types.Tool(
        name=tool.name,
        title=tool.title or None,
        description=tool.description,
        input_schema=tool.input_schema,
        output_schema=tool.output_schema,
        annotations=types.ToolAnnotations(
            title=tool.title or None,
            read_only_hint=hints.read_only,
            destructive_hint=hints.destructive,
            idempotent_hint=hints.idempotent,
            open_world_hint=hints.open_world,
        ),
    )


def _too_large(tool: Tool, budget: int) -> str:
    """Why an answer was refused for its size, and which of *this* tool's arguments narrow it."""
    own = [a for a in NARROWING if a in tool.input_schema.get("properties", {})]
    advice = f"narrow it with {', '.join(own)}" if own else f"{tool.name} takes no argument that narrows it"
    return f"the answer is larger than {budget} bytes; {advice}"


def _cut_to_budget(error: dict[str, Any], budget: int) -> dict[str, Any]:
    """An error larger than the response budget: its code, its state stamps and as much of its
    message as fits; the details (candidates, lists) go."""
    kept: dict[str, Any] = {k: error[k] for k in ("error", "generation", "indexing") if k in error}
    message = str(error.get("message", ""))
    while True:
        cut = {**kept, "message": message, "truncated": True}
        if _size(cut) <= budget or not message:
            return cut
        message = message[: len(message) * 3 // 4 - 1].rstrip() + "…" if len(message) > 4 else ""


def _progress_token(ctx: ServerRequestContext) -> str | int | None:
    meta = (ctx.params or {}).get("_meta")
    token = meta.get("progressToken") if isinstance(meta, dict) else None
    return token if isinstance(token, (str, int)) and not isinstance(token, bool) else None


async def _with_heartbeat(served: ServedContext, name: str, work: Awaitable[dict[str, Any]]) -> Any:
    """``work``'s answer; while it runs, every HEARTBEAT_SECONDS a progress notification saying
    how long it has been running (unless the tool reports progress of its own). Any tool may take
    a while on a large tree (a search, references, impact, a batch of edits, semantic search while
    the model loads): the client hears it is alive rather than guessing from silence."""
    loop = asyncio.get_running_loop()
    started = loop.time()

    async def beat() -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            seconds = loop.time() - started
            try:
                await served.heartbeat(seconds, f"{name}: working ({seconds:.0f}s)")
            except Exception:  # the client went away: the answer will not reach it either
                return

    beating = asyncio.create_task(beat())
    try:
        return await work
    finally:
        beating.cancel()


class CodecairnServer:
    def __init__(self, workspace: Workspace, roots: DeclaredRoots | None = None) -> None:
        self.workspace = workspace
        # Per call: the time a tool gets and the largest answer (environment, else project config).
        self.timeout_seconds = workspace.config.tool_timeout_seconds
        self.budget_bytes = workspace.config.response_bytes
        # The roots file tools may touch: the command line's, then the client's (see _ask_roots).
        self.roots = roots or DeclaredRoots(workspace.root)
        self._background: set[asyncio.Task] = set()
        # Every call's record (metrics.jsonl beside the database); it counts hits and misses too.
        try:
            database: Path | None = workspace.store.path
        except StoreError:  # an unusable workspace (a damaged index) has none: calls are counted, not logged
            database = None
        self.metrics = CallRecorder.for_database(workspace.state.root_real, database)
        self.tools: dict[str, Tool] = {
            name: dataclasses.replace(t, input_schema=with_limits(t.input_schema))
            for name, t in workspace.host.tools.items()
        }
        self._validators = {name: jsonschema.Draft202012Validator(t.input_schema) for name, t in self.tools.items()}
        self.client_log: ClientLog | None = None
        with warnings.catch_warnings():
            # The SDK marks logging deprecated for a protocol version after the ones served here.
            warnings.simplefilter("ignore")
            self.server = Server(
                "codecairn",
                version=__version__,
                instructions=instructions(self.tools),
                on_list_tools=self.on_list_tools,
                on_call_tool=self.on_call_tool,
                on_set_logging_level=self.on_set_logging_level,
            )
        self.server.middleware.append(_explain_uninitialized)
        # MCP roots: asked for once the client says it is ready, and again whenever it says they changed.
        self.server.add_notification_handler("notifications/initialized", types.NotificationParams, self._ask_roots)
        self.server.add_notification_handler(
            "notifications/roots/list_changed", types.NotificationParams, self._ask_roots
        )

    async def _ask_roots(self, ctx: ServerRequestContext, params: types.NotificationParams | None) -> None:
        """Ask the client for its roots — in a task of its own: the answer arrives through the same
        reader that is delivering this notification."""
        session = ctx.session
        if not session.check_client_capability(types.ClientCapabilities(roots=types.RootsCapability())):
            return
        task = asyncio.create_task(self._fetch_roots(session))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _fetch_roots(self, session: Any) -> None:
        import warnings

        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # deprecated as of the 2026-07-28 protocol; current clients use it
                listed = await session.list_roots()
        except Exception as exc:  # a client that declared roots but cannot list them: CLI roots only
            log.warning("could not list the client's roots: %s", clipped(str(exc)))
            return
        kept = self.roots.set_client_roots([str(r.uri) for r in listed.roots])
        log.info("client roots: %s", ", ".join(kept) or "(none usable)")

    async def on_set_logging_level(
        self, ctx: ServerRequestContext, params: types.SetLevelRequestParams
    ) -> types.EmptyResult:
        """From now on, the server's log records at ``params.level`` and above go to the client too."""
        level = CLIENT_LOG_LEVELS[params.level]
        served = logging.getLogger("codecairn")
        if self.client_log is not None:
            served.removeHandler(self.client_log)
        self.client_log = ClientLog(ctx.session, level)
        served.addHandler(self.client_log)
        before = served.getEffectiveLevel()
        if before > level:  # more verbose for the client only: stderr keeps the level it had
            for handler in logging.getLogger().handlers:
                if handler.level == logging.NOTSET:
                    handler.setLevel(before)
            served.setLevel(level)
        return types.EmptyResult()

    async def on_list_tools(
        self, ctx: ServerRequestContext, params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[_advertised(t) for t in self.tools.values()])

    async def on_call_tool(
        self, ctx: ServerRequestContext, params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        started = self.metrics.started()
        try:
            result = await self._answer(ctx, params)
        except MCPError:  # not a call of a tool (an unknown name): nothing to record
            raise
        except BaseException:
            self.metrics.finished(started, params.name, params.arguments, None, "cancelled")
            raise
        self.metrics.finished(started, params.name, params.arguments, result)
        return result

    async def _answer(self, ctx: ServerRequestContext, params: types.CallToolRequestParams) -> types.CallToolResult:
        tool = self.tools.get(params.name)
        if tool is None:
            raise MCPError(
                types.INVALID_PARAMS, f"Unknown tool: {quoted(params.name)}. Known: {', '.join(sorted(self.tools))}"
            )
        if (failure := self.workspace.failure) is not None:  # a damaged index answers nothing
            return self._error(ToolError(UNAVAILABLE, str(failure)))
        args = params.arguments or {}
        # The first problem only: listing them all could mean a million errors for a million tags.
        problem = next(iter(self._validators[tool.name].iter_errors(args)), None)
        if problem is not None:
            return self._error(ToolError(BAD_ARGUMENT, _schema_problem(problem)))
        args = _as_integers(tool.input_schema, args)
        try:
            served = ServedContext(self.workspace, ctx.session.report_progress, self.metrics, self.roots)
            if tool.long_running:  # bounded by cancellation instead of the per-call time limit
                payload = await tool.handler(served, args)
            else:
                await self.workspace.indexer.wait_fresh()  # a changed file being re-indexed: answer from its new state
                # asyncio's own timeout: a quarter of the cost of anyio's cancel scope, per call
                async with asyncio.timeout(self.timeout_seconds):
                    if _progress_token(ctx) is None:
                        payload = await tool.handler(served, args)
                    else:
                        payload = await _with_heartbeat(served, tool.name, tool.handler(served, args))
        except ToolError as exc:
            return self._error(exc)
        except (StoreError, sqlite3.DatabaseError) as exc:  # the index database: damaged, read-only, busy
            return self._error(ToolError(UNAVAILABLE, str(self.workspace.explain(exc))))
        except TimeoutError:
            log.error("tool %s (%s) timed out after %ss", tool.name, tool.plugin, self.timeout_seconds)
            return self._error(
                ToolError(UNAVAILABLE, f"{tool.name} took longer than {self.timeout_seconds:g}s and was stopped")
            )
        except Exception as exc:  # a plugin's bug is one failed call, not a dead server
            log.exception("tool %s (%s) failed", tool.name, tool.plugin)
            return self._error(ToolError("internal_error", clipped(f"{tool.name} failed: {type(exc).__name__}: {exc}")))
        if not isinstance(payload, dict):
            return self._error(
                ToolError("internal_error", f"{tool.name} returned {type(payload).__name__}, not an object")
            )
        payload = self._stamp(payload)
        text = _text(payload)
        if len(text.encode()) > self.budget_bytes:
            return self._error(ToolError("too_large", _too_large(tool, self.budget_bytes)))
        if tool.render is not None:  # source text as text, not inside a JSON string; the fields stay structured
            blocks = tool.render(payload)
            return types.CallToolResult(
                content=[types.TextContent(type="text", text=b) for b in blocks], structured_content=payload
            )
        structured = payload if tool.output_schema is not None else None
        return types.CallToolResult(content=[types.TextContent(type="text", text=text)], structured_content=structured)

    def _stamp(self, payload: dict[str, Any]) -> dict[str, Any]:
        state = self.workspace.state
        paths: set[str] = set()
        _paths_in(payload, paths)
        stale = state.stale_paths([p for p in paths if p in state.files_by_path]) if paths else []
        if stale and "stale" not in payload:
            payload["stale"] = stale
        return self._stamp_state(payload)

    def _stamp_state(self, payload: dict[str, Any]) -> dict[str, Any]:
        """Which index an answer (or an error) came from, and whether one is being built."""
        payload["generation"] = self.workspace.state.generation
        if self.workspace.indexer.running:
            # Answers come from what is stored so far; say so rather than look complete.
            payload["indexing"] = True
            if self.workspace.state.generation == 0:  # not a refresh: most of the root may be missing
                payload["first_index"] = FIRST_INDEX
        return payload

    def _error(self, exc: ToolError) -> types.CallToolResult:
        payload = self._stamp_state(exc.to_dict())
        text = _text(payload)
        if len(text.encode()) > self.budget_bytes:
            text = _text(_cut_to_budget(payload, self.budget_bytes))
        return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=True)

    async def run_stdio(self) -> None:
        async with stdio_transport() as (read, write):
            await self.server.run(read, write, self.server.create_initialization_options(NotificationOptions()))


async def serve(
    workspace: Workspace,
    *,
    index_on_start: bool = True,
    watch: bool = True,
    embed: bool = True,
    extra_roots: tuple[str, ...] = (),
) -> None:
    """Serve until the input ends, the client stops reading, or SIGTERM/SIGINT; every child process
    still running (a search) is killed on the way out, whichever it was."""
    server = CodecairnServer(workspace, DeclaredRoots(workspace.root, extra_roots))
    try:
        await _serve(server, workspace, index_on_start, watch, embed)
    finally:
        killed = subprocesses.kill_all()
        if killed:
            log.info("stopped %d child process(es) on the way out", killed)


async def _serve(server: CodecairnServer, workspace: Workspace, index_on_start: bool, watch: bool, embed: bool) -> None:
    if sys.stdin.isatty():
        print(
            f"codecairn serve: MCP on stdin/stdout for {workspace.root}. Register this command with your "
            "agent (docs/clients.md). Ctrl-D stops it.",
            file=sys.stderr,
        )
    if workspace.failure is not None:  # a damaged index: the answers say so; nothing to keep fresh
        index_on_start = watch = embed = False
    async with anyio.create_task_group() as tg:
        _stop_on_signals(tg.cancel_scope)
        _prepare_warm_tools(workspace)
        if index_on_start:

            async def background_index() -> None:
                try:
                    s = await workspace.index_now()
                    log.info("indexed %s: %d files (%d parsed) in %.2fs", workspace.root, s.files, s.parsed, s.seconds)
                except StoreError as exc:  # damaged or read-only: the answers say so too
                    log.warning("not indexing %s: %s", workspace.root, exc)
                except Exception:
                    log.exception("background index of %s failed; answers come from the stored index", workspace.root)

            tg.start_soon(background_index)
        if watch:

            async def watch_files() -> None:
                from codecairn.freshness.watcher import Watcher

                try:
                    await Watcher(workspace.indexer).run()
                except Exception:
                    log.exception(
                        "the watcher of %s stopped; answers still name stale files, and `index` refreshes",
                        workspace.root,
                    )

            tg.start_soon(watch_files)
        if embed:
            tg.start_soon(workspace.embeddings.run_forever)
            workspace.embeddings.notify()  # symbols stored by earlier runs may still lack vectors
        else:  # a semantic query is told why, not "loading" for the server's whole life
            workspace.embeddings.off = (
                "semantic search is off in this server (started with --no-embed, or embed: false in the "
                "project's configuration, or a damaged index): search by name or pattern instead"
            )
        try:
            await server.run_stdio()
        finally:
            server.metrics.close()  # the records of the last calls are written before the exit
            _forget_signals()
        tg.cancel_scope.cancel()


def _prepare_warm_tools(workspace: Workspace) -> None:
    """A warm tool's default answer (and the facts a seeded one needs) is prepared in the background
    after every index run, and now for the index there is (read back from the store when it was saved
    for this generation), so a call never computes it while the agent waits."""
    warm = [tool for tool in workspace.host.tools.values() if tool.warm]
    if not warm or workspace.failure is not None:
        return

    async def prepare() -> None:
        for tool in warm:
            await tool.handler(ServedContext(workspace), {})

    workspace.graph.prepare_with(prepare)
    if workspace.state.generation > 0:
        workspace.graph.after_index()


STOP_SIGNALS = ("SIGTERM", "SIGINT")


def _stop_on_signals(scope: anyio.CancelScope) -> None:
    """SIGTERM and SIGINT end the session cleanly (the default would end the process at once, leaving
    its children — a running search — behind)."""
    import signal

    loop = asyncio.get_running_loop()
    for name in STOP_SIGNALS:
        number = getattr(signal, name, None)
        if number is None:
            continue

        def stop(name: str = name) -> None:
            log.info("%s: stopping", name)
            subprocesses.kill_all()
            scope.cancel()

        try:
            loop.add_signal_handler(number, stop)
        except (NotImplementedError, RuntimeError, ValueError):  # no signal handlers here (Windows, a thread)
            pass


def _forget_signals() -> None:
    import signal

    loop = asyncio.get_running_loop()
    for name in STOP_SIGNALS:
        number = getattr(signal, name, None)
        if number is not None:
            try:
                loop.remove_signal_handler(number)
            except (NotImplementedError, RuntimeError, ValueError):
                pass
