"""The MCP stdio transport on the event loop's own pipes.

The SDK's `stdio_server()` reads and writes stdin/stdout through worker threads: every request
costs a thread hop in, and two out (write, then flush). On a warm index that is most of a
`find_symbols` round trip. When stdin and stdout are pipes or sockets — how every MCP client
starts a server — this module reads and writes them through asyncio pipe transports instead.
Anything else (a terminal, a file) is read by a thread of its own, a line at a time.

Either way each line is parsed here, with the SDK's own message model, so that what is not a
request is answered as JSON-RPC 2.0 says: not JSON, -32700; JSON but no valid message — an
``id`` that is null, a float, a boolean, an object or an array included, which the SDK's model
would silently read as a notification — -32600, with the id when it could be read, else null.

Like the SDK, it takes fd 0 and fd 1 off the wire while serving (fd 0 reads the null device, fd
1 writes to stderr), so a stray print or a child process can never corrupt the protocol.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
import stat
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator

import anyio
import mcp.types as types
from mcp.shared.message import SessionMessage

log = logging.getLogger("codecairn.server")

# One JSON-RPC message is one line, at most 1 MiB: refused at the frame, before any of it is parsed
# (edits carry the spans they change, not whole files, so large files stay editable). Longer lines
# are skipped up to their newline and answered with an error — with the request's id when it can be
# read off the line's first or last bytes, so the client's call fails at once instead of waiting.
MAX_LINE_BYTES = int(os.environ.get("CODECAIRN_MAX_MESSAGE_BYTES", 1024 * 1024))
_EDGE_BYTES = 4096  # of a skipped line, kept to find its id
_ID = rb'(-?[0-9]{1,18}|"(?:[^"\\]|\\.){0,200}")'
_ID_FIRST = re.compile(rb'\A\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*' + _ID + rb"\s*,")
_ID_LAST = re.compile(rb',\s*"id"\s*:\s*' + _ID + rb'\s*(?:,\s*"jsonrpc"\s*:\s*"2\.0"\s*)?\}\s*\Z')


# At the end of input, requests still in flight get this long to be answered; then the session
# ends, and if a handler does not let go, the process exits after as long again.
EOF_GRACE_SECONDS = float(os.environ.get("CODECAIRN_EOF_GRACE", 10))


class TooLong(str):
    """Stands for a line longer than the limit (never parsed); ``request_id`` when it could be read."""

    request_id: str | int | None = None


def too_long(head: bytes, tail: bytes) -> TooLong:
    marker = TooLong(f"a message longer than {MAX_LINE_BYTES} bytes")
    found = _ID_FIRST.match(head) or _ID_LAST.search(tail)
    if found is not None:
        try:
            value = json.loads(found.group(1))
        except ValueError:
            value = None
        if isinstance(value, (str, int)) and not isinstance(value, bool):
            marker.request_id = value
    return marker


TOO_LONG = too_long(b"", b"")


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
            return await self._skip_long_line(exc.consumed)
        return line.decode("utf-8", "replace")

    async def _skip_long_line(self, consumed: int) -> TooLong:
        """Drop the rest of a line longer than the limit, its newline included, and nothing after;
        its first and last bytes say whose it was."""
        head = b""
        tail = b""
        while True:
            piece = await self._reader.readexactly(consumed)  # what is known to belong to the long line
            if not head:
                head = piece[:_EDGE_BYTES]
            tail = (tail + piece)[-_EDGE_BYTES:]
            try:
                rest = await self._reader.readuntil(b"\n")
                return too_long(head, (tail + rest)[-_EDGE_BYTES:])
            except asyncio.LimitOverrunError as more:
                consumed = more.consumed
            except asyncio.IncompleteReadError as end:
                return too_long(head, (tail + end.partial)[-_EDGE_BYTES:])


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


def _error(code: int, message: str, request_id: types.RequestId | None = None) -> types.JSONRPCError:
    return types.JSONRPCError(jsonrpc="2.0", id=request_id, error=types.ErrorData(code=code, message=message))


PARSE_ERROR = _error(types.PARSE_ERROR, "Parse error: not a JSON-RPC 2.0 message")


def read_message(line: str) -> SessionMessage | types.JSONRPCError:
    """One line of the wire: the message it holds, or the error to answer it with."""
    if isinstance(line, TooLong):
        log.warning("refused %s", line)
        if line.request_id is not None:
            return _error(types.INVALID_REQUEST, f"Request exceeds {MAX_LINE_BYTES} bytes: refused", line.request_id)
        return _error(types.PARSE_ERROR, f"Parse error: {line}, refused unread")
    try:
        message = types.jsonrpc_message_adapter.validate_json(line, by_name=False)
    except (Exception, RecursionError) as exc:  # pydantic's ValidationError, invalid JSON, too deep
        log.warning("malformed JSON-RPC message: %s", (str(exc).splitlines() or [type(exc).__name__])[0][:200])
        return _not_a_message(line)
    if isinstance(message, types.JSONRPCNotification) and _has_id(line):
        # A request whose id is none a request may have: the model reads it as a notification.
        log.warning("JSON-RPC request with an invalid id (method %s)", message.method[:100])
        return _error(types.INVALID_REQUEST, "Invalid Request: id must be a string or an integer")
    return SessionMessage(message)


def _has_id(line: str) -> bool:
    try:
        value = json.loads(line)  # notifications are a few hundred bytes: parsing twice is cheap
    except (ValueError, RecursionError):  # not JSON, or nested deeper than a parser goes
        return False
    return isinstance(value, dict) and "id" in value


def _not_a_message(line: str) -> types.JSONRPCError:
    """-32700 for what is not JSON; -32600 for JSON that is no JSON-RPC message, with its id
    when that is a valid one (so the client knows which request failed)."""
    try:
        value = json.loads(line)
    except (ValueError, RecursionError):  # not JSON, or nested deeper than a parser goes
        return PARSE_ERROR
    request_id = value.get("id") if isinstance(value, dict) else None
    if isinstance(request_id, bool) or not isinstance(request_id, (str, int)):
        request_id = None
    return _error(types.INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 request or notification", request_id)


@contextlib.asynccontextmanager
async def stdio_transport() -> AsyncIterator[tuple]:
    """``(read_stream, write_stream)`` for ``Server.run``: parsed messages in, messages out.
    A line that is no valid message is answered here and never reaches the server."""
    wire = _pipes() if _is_pipe(0) and _is_pipe(1) else _threads()
    async with wire as (lines, send):
        async with _session_streams(lines, send) as streams:
            yield streams


@contextlib.asynccontextmanager
async def _session_streams(
    lines: AsyncIterator[str], send: Callable[[SessionMessage], Awaitable[None]]
) -> AsyncIterator[tuple]:
    """Between the wire (``lines`` in; ``send`` one message) and the server's two streams."""
    # Small buffers: a request is parsed while the previous answer is written, no more.
    inbound_send, inbound = anyio.create_memory_object_stream[SessionMessage](16)
    outbound, outbound_receive = anyio.create_memory_object_stream[SessionMessage](16)
    in_flight = _InFlight()

    async def read_side() -> None:
        async with inbound_send:
            async for line in lines:
                item = read_message(line)
                if isinstance(item, types.JSONRPCError):
                    await send(SessionMessage(item))
                    continue
                in_flight.read(item.message)
                await inbound_send.send(item)
            with anyio.move_on_after(EOF_GRACE_SECONDS):
                await in_flight.settled()
            if in_flight.ids:
                log.warning(
                    "input ended; %d request(s) still unanswered after %gs: stopping",
                    len(in_flight.ids),
                    EOF_GRACE_SECONDS,
                )
                _exit_later(EOF_GRACE_SECONDS)
                tg.cancel_scope.cancel()

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


def _exit_later(seconds: float) -> None:
    """A last resort once input has ended: a handler stuck where cancellation cannot reach it
    (a thread that never returns) must not keep the process alive. SQLite's journal keeps the
    index whole through an abrupt exit."""

    def give_up() -> None:
        log.error("a request handler did not stop %gs after it was cancelled; exiting", seconds)
        logging.shutdown()
        os._exit(1)

    timer = threading.Timer(seconds, give_up)
    timer.daemon = True
    timer.start()


@contextlib.contextmanager
def _wire() -> Iterator[tuple[int, int]]:
    """Private duplicates of fd 0 and fd 1 (the wire) while fd 0 reads the null device and fd 1
    writes to stderr; restored afterwards."""
    wire_in = os.dup(0)
    wire_out = os.dup(1)
    os.set_inheritable(wire_in, False)
    os.set_inheritable(wire_out, False)
    saved_in, saved_out = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    try:
        yield wire_in, wire_out
    finally:
        os.dup2(saved_in, 0)
        os.dup2(saved_out, 1)
        os.close(saved_in)
        os.close(saved_out)


@contextlib.asynccontextmanager
async def _pipes() -> AsyncIterator[tuple]:
    """``(lines, send)`` over fd 0 and fd 1 through asyncio pipe transports."""
    loop = asyncio.get_running_loop()
    reader_transport = writer_transport = None
    with _wire() as (wire_in, wire_out):
        try:
            reader = asyncio.StreamReader(limit=MAX_LINE_BYTES)
            reader_transport, _ = await loop.connect_read_pipe(
                lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(wire_in, "rb", 0)
            )
            writer_transport, writer_protocol = await loop.connect_write_pipe(
                asyncio.streams.FlowControlMixin, os.fdopen(wire_out, "wb", 0)
            )
            wire = asyncio.StreamWriter(writer_transport, writer_protocol, None, loop)

            async def send(message: SessionMessage) -> None:
                wire.write(_encoded(message))
                await wire.drain()

            yield _Lines(reader), send
        finally:
            for transport in (reader_transport, writer_transport):
                if transport is not None:
                    transport.close()


@contextlib.asynccontextmanager
async def _threads() -> AsyncIterator[tuple]:
    """``(lines, send)`` over fd 0 and fd 1 through blocking reads and writes in threads: a
    terminal or a file, which asyncio's pipe transports do not take."""
    with _wire() as (wire_in, wire_out):
        # closefd=False: the reading thread may still block on its descriptor after the session,
        # so it is never closed (and reused) under it; it goes with the process.
        source = os.fdopen(wire_in, "rb", closefd=False)
        sink = os.fdopen(wire_out, "wb", closefd=False)
        write_lock = threading.Lock()

        def write(data: bytes) -> None:
            with write_lock:
                sink.write(data)
                sink.flush()

        async def send(message: SessionMessage) -> None:
            await asyncio.to_thread(write, _encoded(message))

        yield _read_in_thread(source), send


async def _read_in_thread(source) -> AsyncIterator[str]:
    """Lines of a blocking file, read by a daemon thread (a terminal may block it for ever; it
    must not keep the process alive), handed over with back-pressure."""
    loop = asyncio.get_running_loop()
    lines: asyncio.Queue[str | None] = asyncio.Queue(maxsize=16)

    def hand_over(line: str | None) -> None:
        asyncio.run_coroutine_threadsafe(lines.put(line), loop).result()

    def pump() -> None:
        try:
            for line in _bounded_lines(source):
                hand_over(line)
        except (OSError, ValueError) as exc:
            log.warning("stopped reading the client's messages: %s", exc)
        except RuntimeError:  # the loop is gone: nobody to hand lines to
            return
        with contextlib.suppress(RuntimeError):
            hand_over(None)

    threading.Thread(target=pump, name="codecairn-stdin", daemon=True).start()
    while (line := await lines.get()) is not None:
        yield line


def _bounded_lines(source) -> Iterator[str]:
    """Lines of a binary file, decoded; a line longer than the limit is skipped (up to its
    newline) and stands as TOO_LONG."""
    while line := source.readline(MAX_LINE_BYTES + 1):
        if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
            tail = line[-_EDGE_BYTES:]
            while (rest := source.readline(1 << 20)) and not rest.endswith(b"\n"):
                tail = (tail + rest)[-_EDGE_BYTES:]
            yield too_long(line[:_EDGE_BYTES], (tail + rest)[-_EDGE_BYTES:])
            continue
        yield line.decode("utf-8", "replace")


def _encoded(message: SessionMessage) -> bytes:
    return message.message.model_dump_json(by_alias=True, exclude_unset=True).encode() + b"\n"
