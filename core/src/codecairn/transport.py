"""The MCP stdio transport on the event loop's own pipes.

The SDK's `stdio_server()` reads and writes stdin/stdout through worker threads: every request
costs a thread hop in, and two out (write, then flush). On a warm index that is most of a
`find_symbols` round trip. When stdin and stdout are pipes or sockets — how every MCP client
starts a server — this module reads and writes them through asyncio pipe transports instead,
parsing each line with the SDK's own message model. Anything else (a terminal, a file) gets the
SDK's own transport.

Like the SDK, it takes fd 0 and fd 1 off the wire while serving (fd 0 reads the null device, fd
1 writes to stderr), so a stray print or a child process can never corrupt the protocol.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import stat
from collections.abc import AsyncIterator

import anyio
import mcp.types as types
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage

log = logging.getLogger("codecairn.server")

# One JSON-RPC message is one line; an edit can carry a large file. Longer lines are answered
# with a parse error and skipped.
MAX_LINE_BYTES = int(os.environ.get("CODECAIRN_MAX_MESSAGE_BYTES", 64 * 1024 * 1024))


def _is_pipe(fd: int) -> bool:
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


class _Lines:
    """Lines of the wire, decoded, as the SDK's reader iterates them."""

    def __init__(self, reader: asyncio.StreamReader) -> None:
        self._reader = reader

    def __aiter__(self) -> _Lines:
        return self

    async def __anext__(self) -> str:
        try:
            line = await self._reader.readuntil(b"\n")
        except asyncio.IncompleteReadError as end:  # input ended, perhaps without a last newline
            if not end.partial:
                raise StopAsyncIteration from None
            line = end.partial
        except asyncio.LimitOverrunError as exc:
            await self._skip_long_line(exc.consumed)
            # Not JSON: answered with a parse error, and the next message is read as usual.
            return f"a message longer than {MAX_LINE_BYTES} bytes"
        return line.decode("utf-8", "replace")

    async def _skip_long_line(self, consumed: int) -> None:
        """Drop the rest of a line longer than the limit, its newline included, and nothing after."""
        while True:
            await self._reader.readexactly(consumed)  # what is known to belong to the long line
            try:
                await self._reader.readuntil(b"\n")
                return
            except asyncio.LimitOverrunError as more:
                consumed = more.consumed
            except asyncio.IncompleteReadError:
                return


class _InFlight:
    """Requests read and not answered yet. At the end of input the transport stays open until
    they are: `codecairn serve < requests.jsonl` answers every request, not just the fast ones."""

    def __init__(self) -> None:
        self.ids: set = set()
        self._idle = asyncio.Event()
        self._idle.set()

    def read(self, message: object) -> None:
        if isinstance(message, types.JSONRPCRequest):
            self.ids.add(message.id)
            self._idle.clear()
        elif isinstance(message, types.JSONRPCNotification) and message.method == "notifications/cancelled":
            # A cancelled request gets no answer (MCP): stop waiting for it.
            self._done((message.params or {}).get("requestId"))

    def answered(self, message: object) -> None:
        if isinstance(message, (types.JSONRPCResponse, types.JSONRPCError)):
            self._done(message.id)

    def _done(self, request_id: object) -> None:
        self.ids.discard(request_id)
        if not self.ids:
            self._idle.set()

    async def settled(self) -> None:
        await self._idle.wait()


PARSE_ERROR = types.JSONRPCError(
    jsonrpc="2.0",
    id=None,
    error=types.ErrorData(code=types.PARSE_ERROR, message="Parse error: not a JSON-RPC 2.0 message"),
)


@contextlib.asynccontextmanager
async def stdio_transport() -> AsyncIterator[tuple]:
    """``(read_stream, write_stream)`` for ``Server.run``: parsed messages in, messages out.
    A malformed line is answered with a JSON-RPC parse error here and never reaches the server."""
    if _is_pipe(0) and _is_pipe(1):
        async with _pipes() as (incoming, send):
            async with _session_streams(incoming, send) as streams:
                yield streams
        return
    async with stdio_server() as (read, write), write:  # closing `write` ends the SDK's writer
        async with _session_streams(read, write.send) as streams:
            yield streams


@contextlib.asynccontextmanager
async def _session_streams(incoming, send) -> AsyncIterator[tuple]:
    """Between the wire (``incoming`` messages or parse errors; ``send`` one message) and the
    server's two streams."""
    # Small buffers: a request is parsed while the previous answer is written, no more.
    inbound_send, inbound = anyio.create_memory_object_stream[SessionMessage](16)
    outbound, outbound_receive = anyio.create_memory_object_stream[SessionMessage](16)
    in_flight = _InFlight()

    async def read_side() -> None:
        async with inbound_send:
            async for item in incoming:
                if isinstance(item, Exception):  # pydantic's ValidationError, or invalid JSON
                    log.warning("malformed JSON-RPC message: %s", str(item).splitlines()[0][:200])
                    await send(SessionMessage(PARSE_ERROR))
                    continue
                in_flight.read(item.message)
                await inbound_send.send(item)
            await in_flight.settled()

    async def write_side() -> None:
        async with outbound_receive:
            async for message in outbound_receive:
                try:
                    await send(message)
                except (BrokenPipeError, ConnectionResetError):
                    # Nobody reads the answers any more: the client is gone, and so is the session.
                    log.info("the client closed the server's output; stopping")
                    tg.cancel_scope.cancel()
                    return
                in_flight.answered(message.message)

    async with anyio.create_task_group() as tg:
        tg.start_soon(read_side)
        tg.start_soon(write_side)
        yield inbound, outbound
        tg.cancel_scope.cancel()


@contextlib.asynccontextmanager
async def _pipes() -> AsyncIterator[tuple]:
    """``(incoming, send)`` over fd 0 and fd 1 through asyncio pipe transports."""
    loop = asyncio.get_running_loop()
    wire_in = os.dup(0)
    wire_out = os.dup(1)
    os.set_inheritable(wire_in, False)
    os.set_inheritable(wire_out, False)
    saved_in, saved_out = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    reader_transport = writer_transport = None
    try:
        reader = asyncio.StreamReader(limit=MAX_LINE_BYTES)
        reader_transport, _ = await loop.connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(wire_in, "rb", 0)
        )
        writer_transport, writer_protocol = await loop.connect_write_pipe(
            asyncio.streams.FlowControlMixin, os.fdopen(wire_out, "wb", 0)
        )
        wire = asyncio.StreamWriter(writer_transport, writer_protocol, None, loop)

        async def incoming() -> AsyncIterator[SessionMessage | Exception]:
            async for line in _Lines(reader):
                try:
                    yield SessionMessage(types.jsonrpc_message_adapter.validate_json(line, by_name=False))
                except Exception as exc:
                    yield exc

        async def send(message: SessionMessage) -> None:
            wire.write(message.message.model_dump_json(by_alias=True, exclude_unset=True).encode() + b"\n")
            await wire.drain()

        yield incoming(), send
    finally:
        for transport in (reader_transport, writer_transport):
            if transport is not None:
                transport.close()
        os.dup2(saved_in, 0)
        os.dup2(saved_out, 1)
        os.close(saved_in)
        os.close(saved_out)
