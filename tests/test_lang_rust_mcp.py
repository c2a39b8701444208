"""An agent finds its way around Rust code nobody here wrote: tokio 1.24.2 (the small rust-tokio
corpus, 420 files), indexed whole by `codecairn serve` and questioned over MCP with the official
client. Structs and the methods their `impl` blocks attach to them, trait implementations as
"implements" (a trait's implementors are its subclasses), supertraits, callers and callees with
how each was resolved, a file's `use` imports and `pub` exports.

Names follow the file layout below `src/`: `src/net/tcp/stream.rs` is the module
`crate::net::tcp::stream`, so tokio's `TcpStream` is `crate::net::tcp::stream::TcpStream` (the
path tokio re-exports it under, `tokio::net::TcpStream`, is not a symbol of its own).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from realcode import ask_questions, by_name, listed, member_names, shown

pytestmark = [pytest.mark.anyio, pytest.mark.slow]

STREAM = "crate::net::tcp::stream::TcpStream"
RUNTIME = "crate::runtime::runtime::Runtime"
ASYNC_READ = "crate::io::async_read::AsyncRead"


async def ask_rust_questions(root: Path, cache: Path) -> dict[str, dict]:
    """One agent session: index, then the questions. The answers are checked afterwards."""
    questions = {
        "found": ("find_symbols", {"name": "TcpStream", "kinds": ["struct"]}),
        "stream": ("get_symbol", {"name": STREAM}),
        "async_read": ("get_symbol", {"name": ASYNC_READ}),
        "buf_read": ("get_symbol", {"name": "AsyncBufRead", "path": "src/io/async_buf_read.rs"}),
        "connect": ("get_symbol", {"name": f"{STREAM}::connect"}),
        "stream_new": ("get_symbol", {"name": f"{STREAM}::new"}),
        "runtime": ("get_symbol", {"name": "runtime::Runtime"}),  # a partial path is enough when unique
        "block_on": ("get_symbol", {"name": f"{RUNTIME}::block_on"}),
        "select": ("find_symbols", {"name": "select", "kinds": ["macro"]}),
        "stream_rs": ("file_outline", {"path": "src/net/tcp/stream.rs"}),
        "io_mod": ("file_outline", {"path": "src/io/mod.rs"}),
        "stats": ("stats", {}),
    }
    return await ask_questions(root, cache, questions)


async def test_an_agent_explores_tokio(corpus, cache_dir: Path) -> None:
    a = await ask_rust_questions(corpus("rust-tokio"), cache_dir)
    assert a["index"]["parsed"] == a["index"]["files"] >= 400 and "failed" not in a["index"]
    assert a["stats"]["languages"] == {"rust": a["index"]["files"]}

    # A known type.
    top = listed(a["found"]["results"])[0]
    assert top["name"] == "TcpStream" and top["path"] == "src/net/tcp/stream.rs"  # STREAM, in its module

    # Its members: the field, and the methods of its `impl TcpStream { ... }` block.
    stream = a["stream"]
    assert stream["kind"] == "struct" and stream["doc"] == "A TCP stream between a local and a remote socket."
    assert "io" in member_names(stream, "field")
    assert {"connect", "peek", "split", "into_split", "set_nodelay", "try_read"} <= member_names(stream, "method")
    # Its bases: the traits it implements (`impl AsyncRead for TcpStream`), resolved to tokio's own
    # traits; std's (`fmt::Debug`) are named but unresolved: the standard library is not indexed.
    bases = by_name(stream["bases"])
    assert bases["AsyncRead"]["kinds"] == {"implements"} and bases["AsyncRead"]["path"] == "src/io/async_read.rs"
    assert bases["AsyncWrite"]["kinds"] == {"implements"} and bases["AsyncWrite"]["path"] == "src/io/async_write.rs"
    assert "fmt::Debug" in stream["bases"]["unresolved"]

    # A trait's implementors are its subclasses; a supertrait (`trait AsyncBufRead: AsyncRead`) is a base.
    async_read = a["async_read"]
    assert async_read["kind"] == "trait" and member_names(async_read) == {"poll_read"}
    implementors = async_read["subclasses"]["implements"]
    for path, implementor in (
        ("src/net/tcp/stream.rs", "TcpStream"),
        ("src/fs/file.rs", "File"),
        ("src/io/util/buf_reader.rs", "BufReader"),
        ("src/net/unix/stream.rs", "UnixStream"),
        ("src/process/mod.rs", "ChildStdout"),
    ):
        assert implementor in implementors[path], implementor
    assert "AsyncBufRead" in async_read["subclasses"]["extends"]["src/io/async_buf_read.rs"], "a supertrait"
    assert by_name(a["buf_read"]["bases"])["AsyncRead"]["path"] == "src/io/async_read.rs"
    assert "BufReader" in a["buf_read"]["subclasses"]["implements"]["src/io/util/buf_reader.rs"]

    # Callees and callers of known methods, with how each was resolved.
    connect = a["connect"]
    assert connect["signature"] == "pub async fn connect<A: ToSocketAddrs>(addr: A) -> io::Result<TcpStream>"
    assert connect["qualified_name"] == f"{STREAM}::connect" and "async" in connect["modifiers"]
    assert "TcpStream::connect_addr" in shown(connect["callees"])  # `TcpStream::connect_addr(addr)`
    callers = by_name(a["stream_new"]["callers"])
    # `TcpStream::new(sys)` in its own impl: exact; from listener.rs, through `use crate::net::TcpStream`.
    assert callers["TcpStream::connect_mio"]["groups"] == {"exact"}
    assert callers["TcpListener::accept"]["groups"] == {"import"}
    assert callers["TcpListener::accept"]["path"] == "src/net/tcp/listener.rs"
    assert a["stream_new"]["unresolved_call_sites"] > 0, "`X::new` calls that could not be pinned down are counted"

    runtime = a["runtime"]
    assert runtime["qualified_name"] == RUNTIME and runtime["doc"] == "The Tokio runtime."
    assert {"new", "block_on", "spawn", "enter", "shutdown_timeout"} <= member_names(runtime)
    block_on = a["block_on"]
    assert block_on["qualified_name"].startswith(RUNTIME + "::")  # the parent, said by the name
    assert by_name(block_on["callees"])["Runtime::enter"]["groups"] == {"exact"}, "`self.enter()`: exact"

    # `#[macro_export] macro_rules! select` lives at the crate root, as in Rust.
    assert listed(a["select"]["results"])[0]["name"] == "crate::select"

    # Imports and exports of a known file: `use` trees flattened, `pub` items exported (not
    # `pub(crate)` ones), `pub use` listed as re-exports.
    stream_rs = a["stream_rs"]
    uses = {(module, name) for module, names in stream_rs["imports"].items() for name in names}
    assert {
        ("crate::io", "AsyncRead"),
        ("crate::io", "PollEvented"),
        ("crate::future", "poll_fn"),
        ("std::net", "SocketAddr"),
        ("bytes", "BufMut"),
    } <= uses
    assert ("std::os::unix::prelude", "*") in uses  # a glob
    exported = {name for e in stream_rs["exports"] for name in e["names"]}
    assert {"TcpStream", "TcpStream::connect", "TcpStream::peek", "TcpStream::into_split"} <= exported
    assert not {"TcpStream::new", "TcpStream::connect_addr", "TcpStream::connect_mio"} & exported
    assert [n["name"] for n in stream_rs["symbols"]["struct"]] == ["TcpStream"]

    reexports = {name: e for e in a["io_mod"]["exports"] if e.get("kind") == "re-export" for name in e["names"]}
    assert reexports["AsyncRead"]["source"] == "crate::io::async_read"
    assert reexports["copy"]["source"] == "crate::io::util"
    assert reexports["SeekFrom"]["source"] == "std::io"

    resolution = a["stats"]["call_resolution"]
    assert resolution["exact"] > 0 and resolution["import"] > 0
    assert a["stats"]["edges"]["implements"] > 1000
