"""The cyclic garbage collector, held off while indexing (see collector_paused)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

_paused_runs = 0


@contextmanager
def collector_paused() -> Iterator[None]:
    """No cyclic garbage collection while indexing. A run allocates hundreds of thousands of
    long-lived tuples (symbols, edges, index entries) and no reference cycles worth collecting;
    the collector would walk all of them again and again — a quarter of the main process's time
    on a cold index of CPython's Lib. What survives the run lives as long as the index, so it is
    then frozen out of the collector's sight (its full passes would otherwise land inside later
    queries). Counted, so overlapping runs (several roots) nest."""
    global _paused_runs
    if _paused_runs == 0 and not gc.isenabled():
        yield  # someone else turned it off: not ours to turn back on
        return
    _paused_runs += 1
    gc.disable()
    try:
        yield
    finally:
        _paused_runs -= 1
        if _paused_runs == 0:
            gc.freeze()
            gc.enable()
