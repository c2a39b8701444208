"""The shape of a repository, from the index alone: packages (directories) and the dependencies
between them, cycles among them, hotspots, and a repository map — symbols ranked by personalised
PageRank over the definition/reference graph, packed into a token budget (in the spirit of
aider's repomap: files are the graph's nodes, a reference from one file to a symbol defined in
another is an edge, and a file's rank flows to the symbols it references).

Everything whole-index (who references what, how often; fan-out; imports resolved to files) is
gathered once per index generation into a ``GraphFacts`` (``build``), which the workspace keeps;
answers are then arithmetic over arrays.
"""

from __future__ import annotations

import posixpath
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from codecairn.index.state import IndexState
from codecairn.model import CALLABLE_KINDS, CONTAINER_KINDS, TYPE_KINDS, IndexedSymbol

if TYPE_CHECKING:
    import numpy as np

PACKAGE_KINDS = frozenset({"package", "module", "namespace"})
TEST_MARKERS = ("test", "tests", "testing", "spec", "specs", "__tests__", "testdata")
# Edge kinds that make one package depend on another (what the code uses of another's code).
DEPENDENCY_KINDS = frozenset({"calls", "references", "extends", "implements", "routes_to"})


@dataclass
class GraphFacts:
    """Whole-index aggregates for one index generation."""

    generation: int
    file_index: dict[int, int]  # file id -> row in the arrays
    file_ids: list[int]
    # who references what: (referencing file row, referenced symbol id, count), resolved edges that
    # cross files (a file's use of its own helpers says nothing of what the repository relies on)
    ref_file: np.ndarray
    ref_symbol: np.ndarray
    ref_count: np.ndarray
    # file -> file (rows), weighted by references, for PageRank
    file_src: np.ndarray
    file_dst: np.ndarray
    file_weight: np.ndarray
    fan_in: Tally  # symbol id -> resolved calls into it
    fan_out: Tally  # symbol id -> calls made in it
    # (file id, file id) -> counts by kind: "imports", and edge kinds
    file_deps: dict[tuple[int, int], dict[str, int]] = field(default_factory=dict)


def build(
    state: IndexState,
    references: list[tuple[int, int, str, int]],
    fan_out_rows: list[tuple[int, int]],
    imports: list[tuple[int, str, str, str]],
) -> GraphFacts:
    """Gather GraphFacts from the store's aggregates (store/graph.py). Pure CPU: run it in a thread.
    Whole columns at a time (numpy): the JDK's 250,000 reference rows took 8 s one by one."""
    import numpy as np  # here, not at the top: a server that never maps the graph never loads numpy (10 MB)

    rows = state.symbols.rows
    file_ids = sorted(state.files_by_id)
    n_files = len(file_ids)
    file_index = {fid: i for i, fid in enumerate(file_ids)}
    columns = list(zip(*references)) or [(), (), (), ()]
    fid, target, n = (np.array(columns[i], dtype=np.int64) for i in (0, 1, 3))
    kinds = sorted(set(columns[2]))
    code = {k: i for i, k in enumerate(kinds)}
    kind = np.array([code[k] for k in columns[2]], dtype=np.int64)
    # symbol id -> its file id; file id -> its row (-1: not indexed)
    sym_file = np.full(max(rows, default=0) + 2, -1, np.int64)
    sym_file[np.fromiter(rows, np.int64, len(rows))] = np.fromiter(
        (s.file_id for s in rows.values()), np.int64, len(rows)
    )
    file_row = np.full(max(max(file_ids, default=0), int(fid.max(initial=0)), 0) + 2, -1, np.int64)
    file_row[np.array(file_ids, dtype=np.int64)] = np.arange(n_files)
    target_file = sym_file[np.clip(target, 0, len(sym_file) - 1)]
    known = (target >= 0) & (target < len(sym_file)) & (target_file >= 0) & (file_row[np.clip(fid, 0, None)] >= 0)
    calls = known & (kind == code.get("calls", -1))
    fan_in = Tally(*_summed(target[calls], n[calls]))
    # Resolved edges that cross files: who relies on whom (a file's use of its own helpers says
    # nothing of what the repository relies on).
    cross = known & (target_file != fid) & (file_row[np.clip(target_file, 0, None)] >= 0)
    src_row, dst_row = file_row[fid[cross]], file_row[target_file[cross]]
    dependency = np.zeros(len(kinds), dtype=bool)
    for k in DEPENDENCY_KINDS & set(code):
        dependency[code[k]] = True
    deps = cross & dependency[kind] if kinds else cross
    file_deps: dict[tuple[int, int], dict[str, int]] = {}
    for (src, dst, code_of_kind), total in _summed_keys((fid[deps], target_file[deps], kind[deps]), n[deps]).items():
        counts = file_deps.setdefault((src, dst), {})
        counts[kinds[code_of_kind]] = counts.get(kinds[code_of_kind], 0) + total
    import_pairs = _import_targets(state, imports)
    for pair in import_pairs:
        counts = file_deps.setdefault(pair, {})
        counts["imports"] = counts.get("imports", 0) + 1
    imported = [(src, dst) for src, dst in import_pairs if src in file_index and dst in file_index]
    # file -> file weights for PageRank, in the order pairs are first met (references, then imports)
    pair_src = np.concatenate([src_row, np.array([file_index[s] for s, _ in imported], dtype=np.int64)])
    pair_dst = np.concatenate([dst_row, np.array([file_index[d] for _, d in imported], dtype=np.int64)])
    pair_n = np.concatenate([n[cross].astype(float), np.ones(len(imported))])
    keys = pair_src * max(n_files, 1) + pair_dst
    unique, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    weights = np.bincount(inverse, weights=pair_n, minlength=len(unique))
    order = np.argsort(first, kind="stable")
    return GraphFacts(
        generation=state.generation,
        file_index=file_index,
        file_ids=file_ids,
        ref_file=src_row,
        ref_symbol=target[cross],
        ref_count=n[cross].astype(float),
        file_src=pair_src[first[order]],
        file_dst=pair_dst[first[order]],
        file_weight=weights[order],
        fan_in=fan_in,
        fan_out=Tally.of({sid: n for sid, n in fan_out_rows if sid is not None}),
        file_deps=file_deps,
    )


class Tally:
    """Counts per symbol id, as two arrays in the order the ids were first met: a Counter of the
    50,000 symbols CPython's Lib calls from held 8 MB of the server's heap for good; these, 0.8."""

    def __init__(self, ids: np.ndarray, counts: np.ndarray) -> None:
        self.ids, self.counts = ids, counts

    @classmethod
    def of(cls, counts: dict[int, int]) -> Tally:
        import numpy as np  # see build

        return cls(
            np.fromiter(counts.keys(), np.int64, len(counts)), np.fromiter(counts.values(), np.int64, len(counts))
        )

    def __len__(self) -> int:
        return len(self.ids)

    def most_common(self, n: int) -> list[tuple[int, int]]:
        """The ``n`` largest counts, ties in the order first met (as Counter.most_common)."""
        import numpy as np  # see build

        order = np.argsort(-self.counts, kind="stable")[:n]
        return list(zip(self.ids[order].tolist(), self.counts[order].tolist()))


def _summed(keys: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(the keys, the sum of each one's weights), keys in the order they are first met."""
    import numpy as np  # see build

    unique, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    sums = np.bincount(inverse, weights=weights, minlength=len(unique)).astype(np.int64)
    order = np.argsort(first, kind="stable")
    return unique[order], sums[order]


def _summed_keys(columns: tuple[np.ndarray, ...], weights: np.ndarray) -> dict[tuple[int, ...], int]:
    """(a row of the columns) -> the sum of its weights."""
    import numpy as np  # see build

    if not len(weights):
        return {}
    stacked = np.stack(columns, axis=1)
    unique, inverse = np.unique(stacked, axis=0, return_inverse=True)
    sums = np.bincount(inverse.reshape(-1), weights=weights, minlength=len(unique)).astype(np.int64)
    return {tuple(key): total for key, total in zip(unique.tolist(), sums.tolist())}


def _import_targets(state: IndexState, imports: list[tuple[int, str, str, str]]) -> list[tuple[int, int]]:
    """(importing file, imported file) for every import that names an indexed file: through the
    symbol its target names, else a file whose module is the target or the module written. An
    import of a whole package (Java's ``import java.util.*``, a Go import) names the package's
    first file: one import is one dependency (on a directory the package's files share), not one
    per file — the JDK's wildcard imports would otherwise make millions of file pairs."""
    by_module: dict[str, list[int]] = defaultdict(list)
    for f in state.files_by_id.values():
        if f.module:
            by_module[f.module].append(f.id)
    rows, by_qn = state.symbols.rows, state.symbols.by_qn
    out: list[tuple[int, int]] = []
    files_of: dict[tuple[str, str], set[int]] = {}  # the same import is written in many files
    for fid, module, name, target in imports:
        found = files_of.get((target, module))
        if found is None:
            found = files_of[(target, module)] = _imported_files(rows, by_qn, by_module, target, module)
        out.extend((fid, dst) for dst in found if dst != fid)
    return out


def _imported_files(rows: dict, by_qn: dict, by_module: dict[str, list[int]], target: str, module: str) -> set[int]:
    found: set[int] = set()
    for candidate in (target, module):
        if not candidate:
            continue
        ids = by_qn.get(candidate)
        if ids:
            named = [rows[i] for i in ids if i in rows]
            found = {s.file_id for s in named}
            if found and all(s.kind in PACKAGE_KINDS for s in named):
                found = {min(found)}  # a package every file of it declares: one dependency
            break
        if candidate in by_module:
            found = {by_module[candidate][0]}
            break
    if not found and target and "." in target:  # `from pkg.mod import name`: the module
        found = set(by_module.get(target.rsplit(".", 1)[0], ())[:1])
    return found


# ---- packages ----------------------------------------------------------------------------------


def package_of(path: str, depth: int | None) -> str:
    """A file's package: its directory, cut to ``depth`` components (None: the whole directory)."""
    directory = posixpath.dirname(path) or "."
    if depth is None or directory == ".":
        return directory
    return "/".join(directory.split("/")[:depth])


def choose_depth(paths: list[str], most: int = 40) -> int | None:
    """The deepest directory depth at which there are at most ``most`` packages (None: whole
    directories already fit), so that a first look is neither one box nor a thousand."""
    whole = {posixpath.dirname(p) or "." for p in paths}
    if len(whole) <= most:
        return None
    best = 1
    for depth in range(1, 12):
        if len({package_of(p, depth) for p in paths}) <= most:
            best = depth
        else:
            break
    return best


@dataclass
class Package:
    name: str
    files: int = 0
    lines: int = 0
    symbols: int = 0
    languages: Counter = field(default_factory=Counter)
    tests: bool = False  # every file of it is a test


def packages(state: IndexState, depth: int | None) -> dict[str, Package]:
    out: dict[str, Package] = {}
    tests: dict[str, list[bool]] = defaultdict(list)
    counts = Counter(s.file_id for s in state.symbols.rows.values())
    for f in state.files_by_id.values():
        name = package_of(f.path, depth)
        p = out.get(name) or out.setdefault(name, Package(name))
        p.files += 1
        p.lines += f.lines
        p.symbols += counts.get(f.id, 0)
        p.languages[f.language] += 1
        tests[name].append(is_test_path(f.path))
    for name, flags in tests.items():
        out[name].tests = all(flags)
    return out


def package_dependencies(facts: GraphFacts, state: IndexState, depth: int | None) -> dict[tuple[str, str], Counter]:
    """(package, package) -> counts by kind ("imports", "calls", ...), self-dependencies left out."""
    package = {fid: package_of(f.path, depth) for fid, f in state.files_by_id.items()}
    out: dict[tuple[str, str], Counter] = defaultdict(Counter)
    for (src, dst), counts in facts.file_deps.items():
        pa, pb = package.get(src), package.get(dst)
        if pa is None or pb is None:
            continue
        if pa != pb:
            out[(pa, pb)].update(counts)
    return dict(out)


def cycles(deps: dict[tuple[str, str], Counter], limit: int = 20) -> list[list[str]]:
    """Groups of packages that depend on each other in a circle (strongly connected components of
    more than one package), each as one cycle through them, largest first."""
    graph: dict[str, list[str]] = defaultdict(list)
    for a, b in deps:
        graph[a].append(b)
    components = _strongly_connected(graph)
    out = []
    for comp in sorted((c for c in components if len(c) > 1), key=lambda c: (-len(c), sorted(c))):
        out.append(_one_cycle(graph, set(comp)))
        if len(out) >= limit:
            break
    return out


def _strongly_connected(graph: dict[str, list[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iterative (package graphs can be deep enough to hit the recursion limit)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []
    counter = 0
    nodes = set(graph) | {b for bs in graph.values() for b in bs}
    for root in sorted(nodes):
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack.add(node)
            succ = graph.get(node, [])
            if i < len(succ):
                work.append((node, i + 1))
                nxt = succ[i]
                if nxt not in index:
                    work.append((nxt, 0))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            if low[node] == index[node]:
                comp = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    comp.append(top)
                    if top == node:
                        break
                out.append(comp)
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return out


def _one_cycle(graph: dict[str, list[str]], comp: set[str]) -> list[str]:
    """A shortest cycle through the component's first package (breadth-first back to it)."""
    start = min(comp)
    parent: dict[str, str] = {}
    frontier = [start]
    seen = {start}
    while frontier:
        nxt = []
        for node in frontier:
            for b in sorted(graph.get(node, ())):
                if b == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(parent[path[-1]])
                    return path[::-1]
                if b in comp and b not in seen:
                    seen.add(b)
                    parent[b] = node
                    nxt.append(b)
        frontier = nxt
    return sorted(comp)


# ---- hotspots and entry points -----------------------------------------------------------------


def is_test_path(path: str) -> bool:
    parts = path.lower().split("/")
    name = parts[-1]
    return (
        any(p in TEST_MARKERS for p in parts[:-1])
        or name.startswith("test_")
        or name.endswith(("_test.go", "_test.py", "_tests.py", "test.java", "tests.java", "_test.rs"))
        or ".test." in name
        or ".spec." in name
    )


def hotspots(facts: GraphFacts, state: IndexState, limit: int) -> dict[str, list[tuple[IndexedSymbol, int]]]:
    rows = state.symbols.rows

    def top(counts: Counter | Tally) -> list[tuple[IndexedSymbol, int]]:
        return [(rows[s], n) for s, n in counts.most_common(limit * 2) if s in rows][:limit]

    sizes = Counter(
        {s.id: s.end_line - s.start_line + 1 for s in rows.values() if s.kind in CALLABLE_KINDS or s.kind in TYPE_KINDS}
    )
    return {"fan_in": top(facts.fan_in), "fan_out": top(facts.fan_out), "size": top(sizes)}


MAIN_NAMES = frozenset({"main", "Main"})


def main_functions(state: IndexState) -> list[IndexedSymbol]:
    """``main`` functions and methods (Go's package main, Java's static main, Rust's fn main,
    C's main, Python's def main), outside tests."""
    rows = state.symbols.rows
    out = []
    for name in MAIN_NAMES:
        for sid in state.symbols.by_name.get(name, ()):
            s = rows.get(sid)
            if s is None or s.kind not in ("function", "method"):
                continue
            path = state.path_of(s)
            if not is_test_path(path):
                out.append(s)
    return sorted(out, key=lambda s: (state.path_of(s), s.start_line))


# ---- the repository map ----------------------------------------------------------------------------


def rank_symbols(
    facts: GraphFacts, state: IndexState, seed_files: set[int], seed_symbols: set[int]
) -> list[tuple[int, float]]:
    """Symbols by how much the code (seen from the seeds, when any) relies on them: PageRank over
    files, each file's rank shared among the symbols it references in proportion to how often."""
    import numpy as np  # see build

    from codecairn.query.pagerank import pagerank

    n = len(facts.file_ids)
    personalization = None
    seeds = {facts.file_index[f] for f in seed_files if f in facts.file_index}
    seeds |= {facts.file_index[state.symbols.rows[s].file_id] for s in seed_symbols if s in state.symbols.rows
              and state.symbols.rows[s].file_id in facts.file_index}  # fmt: skip
    if seeds:
        personalization = np.zeros(n)
        personalization[list(seeds)] = 1.0
    ranks = pagerank(n, facts.file_src, facts.file_dst, facts.file_weight, personalization)
    if len(facts.ref_file) == 0:
        return []
    out_total = np.bincount(facts.ref_file, weights=facts.ref_count, minlength=n)
    flow = ranks[facts.ref_file] * facts.ref_count / np.maximum(out_total[facts.ref_file], 1.0)
    symbols, inverse = np.unique(facts.ref_symbol, return_inverse=True)
    scores = np.bincount(inverse, weights=flow)
    rows = state.symbols.rows
    # A symbol the caller named, or defined in a file it named, is what it asked about: first.
    boost = {int(s) for s in seed_symbols}
    ranked = []
    for sid, score in zip(symbols.tolist(), scores.tolist()):
        sym = rows.get(sid)
        if sym is None or sym.kind in ("module", "package", "namespace"):
            continue
        if sid in boost:
            score += 1.0
        ranked.append((sid, score))
    referenced = set(symbols.tolist())
    ranked.extend((sid, 1.0) for sid in boost - referenced if sid in rows)  # named, never referenced: still shown
    ranked.sort(key=lambda r: (-r[1], r[0]))
    return ranked


def map_lines(state: IndexState, chosen: list[int], signatures: dict[int, str]) -> list[str]:
    """The map as text: each file once, then its chosen symbols in line order, indented under the
    containers they are in (as aider's map shows definitions in their context)."""
    rows = state.symbols.rows
    by_file: dict[str, list[IndexedSymbol]] = defaultdict(list)
    order: list[str] = []
    for sid in chosen:
        s = rows.get(sid)
        if s is None:
            continue
        path = state.path_of(s)
        if path not in by_file:
            order.append(path)
        by_file[path].append(s)
    lines = []
    for path in order:
        lines.append(f"{path}:")
        for s in sorted(by_file[path], key=lambda s: (s.start_line, s.id)):
            depth = 1
            parent = rows.get(s.parent_id) if s.parent_id is not None else None
            while parent is not None and parent.kind in CONTAINER_KINDS - {"module", "package"}:
                depth += 1
                parent = rows.get(parent.parent_id) if parent.parent_id is not None else None
            text = (signatures.get(s.id) or f"{s.kind} {s.name}").splitlines()[0].strip()
            lines.append(f"{'  ' * depth}{s.start_line}: {text[:160]}")
    return lines
