"""Giving freed memory back to the system.

glibc keeps the pages of freed objects for reuse; a process that unpickles, parses or builds
hundreds of megabytes of short-lived objects stays that large for the rest of its life unless it
asks for them to be returned (``malloc_trim``). A few milliseconds a call, so called at batch
boundaries only.
"""

from __future__ import annotations

_trim = None


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
