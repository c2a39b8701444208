"""Placing a memory again ("re-anchoring") when the code it points at has moved: in its own file
first, then in a file renamed unchanged, then where a symbol of the same name, kind, structure
and parent turned up. Two equally good places are never guessed between: the memory is orphaned
and kept at its last known place."""

from __future__ import annotations

from codecairn.index.state import IndexState
from codecairn.memory.anchors import FILE_LEVEL_KINDS, FileView, Placement, matches_elsewhere, place_in_file, rebased
from codecairn.memory.views import GONE, FileViews, Gone
from codecairn.model import CURRENT, MOVED, ORPHANED, MemoryRow

ELSEWHERE_MAX_FILES = 50


def needs_placing(m: MemoryRow, now: str | Gone, generation: int) -> bool:
    """Does ``m`` need placing again? Yes when its file changed or vanished; an orphaned one,
    also once per index generation (its code may have turned up elsewhere)."""
    if m.state == ORPHANED:
        return m.generation != generation or (now is not GONE and now != m.file_hash)
    return now is GONE or now != m.file_hash


def _placement(m: MemoryRow) -> tuple:
    return (
        m.path,
        m.start_line,
        m.end_line,
        m.state,
        m.symbol,
        m.fingerprint,
        m.offset_start,
        m.file_hash,
        m.generation,
        m.edited,
    )


class Placer:
    def __init__(self, state: IndexState, views: FileViews) -> None:
        self.state = state
        self.views = views

    async def replace(self, m: MemoryRow, view: FileView | Gone) -> bool:
        """Place ``m`` again; update it in place. Returns whether anything changed."""
        before = _placement(m)
        anchor = m.anchor
        found: tuple[FileView, Placement] | None = None
        if isinstance(view, FileView):
            placement = place_in_file(anchor, view, m.start_line)
            if placement is not None:
                found = (view, placement)
        if found is None:
            found = await self._elsewhere(m, origin_gone=view is GONE)
        if found is None:
            m.state = ORPHANED
            m.edited = 0
            if isinstance(view, FileView):
                m.file_hash = view.hash  # else keep the gone file's hash: a renamed twin may turn up
        else:
            where, placement = found
            a = rebased(anchor, where, placement)
            (m.symbol, m.symbol_kind, m.symbol_name, m.parent_name, m.fingerprint, m.offset_start, m.offset_end) = a[:7]
            m.path, m.start_line, m.end_line = where.path, placement.start_line, placement.end_line
            m.file_hash = where.hash
            m.edited = int(placement.edited)
            home = (m.path, m.start_line, m.end_line) == (m.origin_path, m.origin_start, m.origin_end)
            m.state = CURRENT if home else MOVED
        m.generation = self.state.generation
        return before != _placement(m)

    async def _elsewhere(self, m: MemoryRow, *, origin_gone: bool) -> tuple[FileView, Placement] | None:
        """Look for the memory's code in other files: the file renamed unchanged (same content
        hash), or its symbol moved to another file (same name, kind, structure and parent)."""
        state = self.state
        if origin_gone and m.file_hash:
            twins = [f.path for f in state.files_by_path.values() if f.hash == m.file_hash and f.path != m.path]
            if len(twins) == 1:
                view = await self.views.view(twins[0])
                if isinstance(view, FileView):
                    placement = place_in_file(m.anchor, view, m.start_line)
                    if placement is not None:
                        return view, placement
        if not m.symbol or m.symbol_kind in FILE_LEVEL_KINDS:
            return None
        rows = state.symbols.rows
        files: list[str] = []
        for sid in state.symbols.by_name.get(m.symbol_name, ()):
            sym = rows[sid]
            if sym.kind != m.symbol_kind:
                continue
            parent = rows.get(sym.parent_id) if sym.parent_id is not None else None
            parent_name = parent.name if parent is not None and parent.kind not in FILE_LEVEL_KINDS else ""
            f = state.files_by_id.get(sym.file_id)
            if parent_name == m.parent_name and f is not None and f.path != m.path and f.path not in files:
                files.append(f.path)
        found: list[tuple[FileView, Placement]] = []
        for path in files[:ELSEWHERE_MAX_FILES]:
            view = await self.views.view(path)
            if not isinstance(view, FileView):
                continue
            for i in range(len(view.symbols)):
                placement = matches_elsewhere(m.anchor, view, i, origin_gone)
                if placement is not None:
                    found.append((view, placement))
        exact = [f for f in found if not f[1].edited]
        pool = exact or found
        return pool[0] if len(pool) == 1 else None  # two equally good places: no guessing
