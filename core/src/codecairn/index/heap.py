"""Giving freed memory back to the system.

glibc keeps the pages of freed objects for reuse; a process that unpickles, parses or builds
hundreds of megabytes of short-lived objects stays that large for the rest of its life unless it
asks for them to be returned (``malloc_trim``). A few milliseconds a call, so called at batch
boundaries only.
"""

from __future__ import annotations

_trim = None
_M_ARENA_MAX = -8  # mallopt's parameter number (malloc.h)


def one_malloc_arena() -> None:
    """Every thread allocates from one glibc heap instead of one per thread. The embedding
    threads (onnxruntime, tokenizers) each fragmented an arena of their own: 30 MB more RSS for
    good after embedding, measured. The server's threads rarely allocate at once (Python's small
    objects come from its own pools, onnxruntime runs a batch on one thread), so the lock they now
    share costs nothing measurable. Call it early, before threads start."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").mallopt(_M_ARENA_MAX, 1)
    except (OSError, AttributeError):
        pass  # not glibc: its allocator has its own policy


def give_back_free_memory() -> None:
    global _trim
    if _trim is None:
        try:
            import ctypes

            _trim = ctypes.CDLL("libc.so.6").malloc_trim
        except (OSError, AttributeError):
            _trim = False  # type: ignore[assignment]  # not glibc: nothing to do
    if _trim:
        _trim(0)
