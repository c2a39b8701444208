"""A bare MCP client in a process of its own, timing tool calls through a real `codecairn serve`.

Run by test_index_python.py: the pytest process is a poor place to time sub-millisecond round
trips (its own threads, its garbage, whatever earlier tests left in memory add a few tenths of a
millisecond to every call), and these figures are the server's. Prints one JSON object.

    python latency_client.py ROOT CACHE
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from measure import RawMcpClient, percentile


def timed(call, args_list: list) -> list[float]:
    out = []
    for args in args_list:
        t = time.perf_counter()
        call(args)
        out.append((time.perf_counter() - t) * 1000)
    return out


def main(root: Path, cache: Path) -> dict[str, float]:
    client = RawMcpClient(root, cache, "--no-watch", "--no-embed")
    try:
        client.call("index")
        # What an agent types: part of a real class name (the shortest names are one-letter
        # type variables of the test suite; nobody searches for those).
        classes = client.call("find_symbols", {"pattern": "??????*", "kinds": ["class"], "limit": 500})["results"]
        # Grouped by file (docs/tools.md); a name there is relative to its file's module.
        names = [r["name"].rsplit(".", 1)[-1] for entries in classes.values() for r in entries][::2]
        methods = client.call("find_symbols", {"kinds": ["method"], "limit": 200})["results"]
        assert names and methods
        finds = [{"name": n[: max(3, len(n) // 2)]} for n in names]
        gets = [{"name": m["name"], "path": path} for path, entries in methods.items() for m in entries]
        timed(lambda a: client.call("find_symbols", a), [{"name": n} for n in names[:20]])  # warm
        ping = timed(lambda _: client.request("ping"), [None] * 200)
        find = timed(lambda a: client.call("find_symbols", a), finds)
        get = timed(lambda a: client.call("get_symbol", a), gets)
    finally:
        client.close()
    return {
        "ping_p50_ms": percentile(ping, 0.5),
        "find_symbols_p50_ms": percentile(find, 0.5),
        "find_symbols_p99_ms": percentile(find, 0.99),
        "get_symbol_p50_ms": percentile(get, 0.5),
        "get_symbol_p99_ms": percentile(get, 0.99),
        "queries": len(finds) + len(gets),
    }


if __name__ == "__main__":
    print(json.dumps(main(Path(sys.argv[1]), Path(sys.argv[2]))))
