"""Walking the call graph: callers or callees of symbols, level by level, and the shortest call
chains between two symbols.

Edges live in the store, so a walk asks for one whole level at a time (``Around``: symbol ids
in, the edges around them out) — depth 8 is eight statements, not one per symbol. Every level is
bounded twice: a symbol shows at most ``fan_out`` of its edges (chosen by ``most_telling`` where
they are more, before whole edges are read: see store/graph.py), and a level follows at most
``level_limit`` symbols; what either bound left out is counted, never silently dropped. A symbol
met again is not followed again; when it is one of the symbols the walk came through (recursion,
mutual recursion), the hop is marked as a cycle.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection, Sequence
from typing import TypeVar

from codecairn.model import Chains, Edge, Hop, Walk

# (symbol ids, direction "in" | "out") -> the edges around them, in file and line order
Fetch = Callable[[Collection[int], str], Awaitable[list[Edge]]]
# (symbol ids, direction, fan_out) -> per symbol: the edges shown around it (all of them in file
# and line order when they are at most fan_out, else the fan_out most telling in that order), and
# how many edges it has in all
Around = Callable[[Collection[int], str, int], Awaitable[tuple[dict[int, list[Edge]], dict[int, int]]]]
T = TypeVar("T")

DEFAULT_DEPTH = 3
MAX_DEPTH = 8
DEFAULT_FAN_OUT = 20
LEVEL_LIMIT = 400  # symbols followed from one level to the next
CHAIN_FRONTIER_LIMIT = 20_000  # symbols one side of a chain search may hold in a level


async def walk(
    start: Collection[int],
    direction: str,
    around: Around,
    depth: int = DEFAULT_DEPTH,
    fan_out: int = DEFAULT_FAN_OUT,
    level_limit: int = LEVEL_LIMIT,
    follow: Callable[[Edge], bool] | None = None,
) -> Walk:
    """Breadth-first from ``start`` to ``depth`` levels. Unresolved edges (callees whose target is
    not known) are hops with ``far=None`` and never followed; ``follow`` may veto following an
    edge (it is still listed)."""
    if direction not in ("in", "out"):
        raise ValueError(direction)
    depth = max(1, min(depth, MAX_DEPTH))
    result = Walk(direction, list(start))
    result.depth_of = {s: 0 for s in start}
    frontier = list(dict.fromkeys(start))
    for level in range(1, depth + 1):
        if not frontier:
            break
        shown, totals = await around(frontier, direction, fan_out)
        nxt: list[int] = []
        for near in frontier:
            edges = shown.get(near, [])
            if totals.get(near, 0) > len(edges):
                result.cut_fan_out[level] = result.cut_fan_out.get(level, 0) + totals[near] - len(edges)
            on_path = set(result.path_to(near))
            for e in edges:
                far = e.source_id if direction == "in" else e.target_id
                if far is None:
                    result.hops.append(Hop(e, near, None, level))
                    continue
                if far in result.depth_of:
                    cycle = far in on_path
                    result.hops.append(Hop(e, near, far, level, cycle=cycle, seen=not cycle))
                    continue
                result.depth_of[far] = level
                result.parent[far] = near
                result.hops.append(Hop(e, near, far, level))
                if follow is None or follow(e):
                    nxt.append(far)
        if len(nxt) > level_limit:
            result.cut_level[level] = len(nxt) - level_limit
            nxt = nxt[:level_limit]
        frontier = nxt
    return result


_TELLING = {"exact": 0, "import": 0, "inherited": 1, "route": 1, "name-only": 3, None: 4}


def most_telling(items: Sequence[T], far: Callable[[T], int | None], resolution: Callable[[T], str | None]) -> list[T]:
    """Which of a symbol's edges (``items``, in file and line order) to show first when there are
    too many: resolved before guessed, one per far symbol before repeats, then by place."""
    seen: set[int | None] = set()
    firsts: list[T] = []
    repeats: list[T] = []
    for item in items:
        other = far(item)
        (repeats if other in seen and other is not None else firsts).append(item)
        seen.add(other)
    return sorted(firsts, key=lambda i: _TELLING.get(resolution(i), 2)) + repeats


async def shortest_chains(
    source: int,
    target: int,
    fetch: Fetch,
    max_depth: int = MAX_DEPTH,
    limit: int = 5,
    frontier_limit: int = CHAIN_FRONTIER_LIMIT,
) -> Chains:
    """The shortest call chains from ``source`` to ``target`` (at most ``limit`` of them, all of
    the shortest length): callees forward from the source and callers back from the target, a
    level at a time from whichever side is smaller, until the two meet."""
    if source == target:
        return Chains([], True, 1)
    # For each side: symbol -> the edges that reached it at its distance (all of them: several
    # shortest chains may share a symbol).
    forward: dict[int, list[Edge]] = {source: []}
    backward: dict[int, list[Edge]] = {target: []}
    front_f, front_b = [source], [target]
    complete = True
    met: set[int] = set()
    steps = 0
    while front_f and front_b and steps < max_depth and not met:
        steps += 1
        grow_forward = len(front_f) <= len(front_b)
        front = front_f if grow_forward else front_b
        seen, other = (forward, backward) if grow_forward else (backward, forward)
        edges = await fetch(front, "out" if grow_forward else "in")
        new: dict[int, list[Edge]] = {}
        for e in edges:
            far = e.target_id if grow_forward else e.source_id
            if far is None or far in seen:
                continue
            new.setdefault(far, []).append(e)
        for far, reached_by in new.items():
            seen[far] = reached_by
            if far in other:
                met.add(far)
        nxt = list(new)
        if len(nxt) > frontier_limit:
            complete = False
            nxt = nxt[:frontier_limit]
        if grow_forward:
            front_f = nxt
        else:
            front_b = nxt
    chains: list[list[Edge]] = []
    for middle in sorted(met):
        for head in _paths(forward, middle, source, "out", limit):
            for tail in _paths(backward, middle, target, "in", limit):
                chains.append(head + tail)
                if len(chains) >= limit:
                    break
            if len(chains) >= limit:
                break
        if len(chains) >= limit:
            break
    if not met and (front_f and front_b) and steps >= max_depth:
        complete = False
    return Chains(chains, complete, len(forward) + len(backward))


def _paths(reached: dict[int, list[Edge]], node: int, end: int, direction: str, limit: int) -> list[list[Edge]]:
    """The edge paths from ``end`` to ``node`` (direction "out": forward, in call order) or from
    ``node`` to ``end`` ("in"), following the edges that reached each symbol."""
    if node == end:
        return [[]]
    out: list[list[Edge]] = []
    for e in reached.get(node, ()):
        before = e.source_id if direction == "out" else e.target_id
        if before is None:
            continue
        for rest in _paths(reached, before, end, direction, limit):
            out.append(rest + [e] if direction == "out" else [e] + rest)
            if len(out) >= limit:
                return out
    return out
