"""Giving freed memory back to the system.

glibc keeps the pages of freed objects for reuse; a process that unpickles, parses or builds
hundreds of megabytes of short-lived objects stays that large for the rest of its life unless it
asks for them to be returned (``malloc_trim``). A few milliseconds a call, so called at batch
boundaries only.
"""

from __future__ import annotations

_trim = None
# mallopt's parameter numbers (malloc.h)
_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
_M_ARENA_MAX = -8
# Blocks this large or larger get pages of their own (mmap), returned to the system the moment they
# are freed. glibc's default threshold starts at 128 KiB but rises to the size of any such block
# freed (up to 32 MiB): after the first batch the embedder's tensors and numpy's arrays all came
# from the heap, and what a batch freed stayed there until the next trim. Setting the threshold
# fixes it: the peak while embedding CPython's Lib fell by about 30 MB, at the same speed
# (benchmarks/semantic/README.md, "Memory").
MMAP_THRESHOLD = 256 * 1024
# Setting the mmap threshold also fixes the trim threshold at glibc's 128 KiB: every free that left
# that much at the top of the heap gave it back, and the next allocation asked for it again (system
# calls and fresh pages in the middle of a query: an unchanged re-index in the server 1.47x as long,
# find_symbols' p50 up to 1.9x, A/B against 61e5e32; with this threshold 0.90x and 1.03x). The top of
# the heap is given back at batch boundaries anyway (give_back_free_memory); the RSS figures did not move.
TRIM_THRESHOLD = 8 * 1024 * 1024


def one_malloc_arena() -> None:
    """Every thread allocates from one glibc heap instead of one per thread, and large blocks
    are given back when freed (see MMAP_THRESHOLD). The embedding
    threads (onnxruntime, tokenizers) each fragmented an arena of their own: 30 MB more RSS for
    good after embedding, measured. The server's threads rarely allocate at once (Python's small
    objects come from its own pools, onnxruntime runs a batch on one thread), so the lock they now
    share costs nothing measurable. Call it early, before threads start."""
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt(_M_ARENA_MAX, 1)
        libc.mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)
        libc.mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD)
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
