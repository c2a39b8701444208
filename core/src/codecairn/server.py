"""The MCP stdio server: thin. It advertises exactly the tools the loaded plugins contribute,
validates arguments against each tool's schema, bounds each call in time and size, and stamps
every answer with the index generation and any named file that changed since it was indexed.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sqlite3
import sys
from dataclasses import dataclass
from typing import Any

import anyio
import jsonschema
import mcp.types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import NotificationOptions, Server
from mcp.shared.exceptions import MCPError

from codecairn import __version__
from codecairn.errors import BAD_ARGUMENT, UNAVAILABLE, StoreError, ToolError
from codecairn.hookspecs import Tool
from codecairn.transport import stdio_transport
from codecairn.workspace import Workspace

log = logging.getLogger("codecairn.server")

RESPONSE_BUDGET_BYTES = int(os.environ.get("CODECAIRN_RESPONSE_BYTES", 200_000))
TOOL_TIMEOUT_SECONDS = float(os.environ.get("CODECAIRN_TOOL_TIMEOUT", 60))
LONG_RUNNING = {"index"}  # bounded by cancellation instead of the per-call timeout


@dataclass
class CallContext:
    workspace: Workspace
    request: ServerRequestContext

    async def report_progress(self, done: float, total: float | None = None, message: str | None = None) -> None:
        await self.request.session.report_progress(done, total, message)


def _paths_in(value: Any, out: set[str]) -> None:
    if isinstance(value, dict):
        p = value.get("path")
        if isinstance(p, str):
            out.add(p)
        for v in value.values():
            if isinstance(v, (dict, list)):
                _paths_in(v, out)
    elif isinstance(value, list):
        for v in value:
            _paths_in(v, out)


def _text(payload: dict[str, Any]) -> str:
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":"))


class CodecairnServer:
    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace
        self.tools: dict[str, Tool] = dict(workspace.host.tools)
        self._validators = {name: jsonschema.Draft202012Validator(t.input_schema) for name, t in self.tools.items()}
        self.server = Server(
            "codecairn", version=__version__, on_list_tools=self.on_list_tools, on_call_tool=self.on_call_tool
        )

    async def on_list_tools(
        self, ctx: ServerRequestContext, params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(
            tools=[
                types.Tool(name=t.name, description=t.description, input_schema=t.input_schema)
                for t in self.tools.values()
            ]
        )

    async def on_call_tool(
        self, ctx: ServerRequestContext, params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        tool = self.tools.get(params.name)
        if tool is None:
            raise MCPError(
                types.INVALID_PARAMS, f"Unknown tool: {params.name!r}. Known: {', '.join(sorted(self.tools))}"
            )
        if (failure := self.workspace.failure) is not None:  # a damaged index answers nothing
            return self._error(ToolError(UNAVAILABLE, str(failure)))
        args = params.arguments or {}
        errors = sorted(self._validators[tool.name].iter_errors(args), key=lambda e: list(e.path))
        if errors:
            first = errors[0]
            where = ".".join(str(p) for p in first.path) or "arguments"
            return self._error(ToolError(BAD_ARGUMENT, f"{where}: {first.message}"))
        try:
            if tool.name in LONG_RUNNING:
                payload = await tool.handler(CallContext(self.workspace, ctx), args)
            else:
                await self.workspace.wait_fresh()  # a changed file being re-indexed: answer from its new state
                # asyncio's own timeout: a quarter of the cost of anyio's cancel scope, per call
                async with asyncio.timeout(TOOL_TIMEOUT_SECONDS):
                    payload = await tool.handler(CallContext(self.workspace, ctx), args)
        except ToolError as exc:
            return self._error(exc)
        except (StoreError, sqlite3.DatabaseError) as exc:  # the index database: damaged, read-only, busy
            return self._error(ToolError(UNAVAILABLE, str(self.workspace.explain(exc))))
        except TimeoutError:
            log.error("tool %s (%s) timed out after %ss", tool.name, tool.plugin, TOOL_TIMEOUT_SECONDS)
            return self._error(
                ToolError(UNAVAILABLE, f"{tool.name} took longer than {TOOL_TIMEOUT_SECONDS:g}s and was stopped")
            )
        except Exception as exc:  # a plugin's bug is one failed call, not a dead server
            log.exception("tool %s (%s) failed", tool.name, tool.plugin)
            return self._error(ToolError("internal_error", f"{tool.name} failed: {type(exc).__name__}: {exc}"))
        if not isinstance(payload, dict):
            return self._error(
                ToolError("internal_error", f"{tool.name} returned {type(payload).__name__}, not an object")
            )
        payload = self._stamp(payload)
        text = _text(payload)
        if len(text.encode()) > RESPONSE_BUDGET_BYTES:
            return self._error(
                ToolError(
                    "too_large",
                    f"the answer is larger than {RESPONSE_BUDGET_BYTES} bytes; narrow it (limit, path, max_lines)",
                )
            )
        return types.CallToolResult(content=[types.TextContent(type="text", text=text)])

    def _stamp(self, payload: dict[str, Any]) -> dict[str, Any]:
        ws = self.workspace
        paths: set[str] = set()
        _paths_in(payload, paths)
        stale = ws.stale_paths([p for p in paths if p in ws.files_by_path]) if paths else []
        if stale and "stale" not in payload:
            payload["stale"] = stale
        payload["generation"] = ws.generation
        if ws.index_lock.locked():
            # Answers come from what is stored so far; say so rather than look complete.
            payload["indexing"] = True
        return payload

    def _error(self, exc: ToolError) -> types.CallToolResult:
        return types.CallToolResult(content=[types.TextContent(type="text", text=_text(exc.to_dict()))], is_error=True)

    async def run_stdio(self) -> None:
        async with stdio_transport() as (read, write):
            await self.server.run(read, write, self.server.create_initialization_options(NotificationOptions()))


async def serve(workspace: Workspace, *, index_on_start: bool = True, watch: bool = True, embed: bool = True) -> None:
    server = CodecairnServer(workspace)
    if sys.stdin.isatty():
        print(
            f"codecairn serve: MCP on stdin/stdout for {workspace.root}. Register this command with your "
            "agent (docs/clients.md). Ctrl-D stops it.",
            file=sys.stderr,
        )
    async with anyio.create_task_group() as tg:
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
                    await Watcher(workspace).run()
                except Exception:
                    log.exception(
                        "the watcher of %s stopped; answers still name stale files, and `index` refreshes",
                        workspace.root,
                    )

            tg.start_soon(watch_files)
        if embed:
            tg.start_soon(workspace.embeddings.run_forever)
            workspace.embeddings.notify()  # symbols stored by earlier runs may still lack vectors
        await server.run_stdio()
        tg.cancel_scope.cancel()
