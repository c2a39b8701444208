"""The whole graph as JSON Lines (docs/export.md): one record per symbol, edge, import and export,
with root-relative paths and qualified names, for tools that want the graph outside codecairn."""

from __future__ import annotations

import json
from typing import TextIO

from codecairn.index.state import IndexState
from codecairn.model import EXTERNAL, external_name
from codecairn.store.store import Store


async def write_graph(state: IndexState, store: Store, out: TextIO) -> None:
    rows = state.symbols.rows
    files = {f.id: f.path for f in state.files_by_id.values()}
    write = out.write
    for sid, file_id, parent_id, kind, name, qn, start, end, signature, doc in await store.all_symbol_rows():
        rec = {"type": "symbol", "kind": kind, "name": name, "qualified_name": qn, "path": files.get(file_id, ""),
               "start_line": start, "end_line": end}  # fmt: skip
        if parent_id is not None and parent_id in rows:
            rec["parent"] = rows[parent_id].qualified_name
        if signature:
            rec["signature"] = signature
        if doc:
            rec["doc"] = doc
        write(json.dumps(rec) + "\n")
    for e in await store.all_edges():
        source = rows[e.source_id].qualified_name if e.source_id in rows else files.get(e.file_id, "")
        outside = external_name(e.resolution)
        target = rows[e.target_id].qualified_name if e.target_id in rows else (outside or e.target)
        write(json.dumps({"type": "edge", "kind": e.kind, "source": source, "target": target, "line": e.line,
                          "resolution": EXTERNAL if outside else e.resolution, "path": files.get(e.file_id, "")})
              + "\n")  # fmt: skip
    for file_id, i in await store.all_imports():
        write(json.dumps({"type": "import", "path": files.get(file_id, ""), "module": i.module, "name": i.name,
                          "alias": i.alias, "line": i.line, "kind": i.kind}) + "\n")  # fmt: skip
    for file_id, x in await store.all_exports():
        write(json.dumps({"type": "export", "path": files.get(file_id, ""), "name": x.name, "line": x.line,
                          "kind": x.kind, "source": x.source, "alias": x.alias}) + "\n")  # fmt: skip
    out.flush()
