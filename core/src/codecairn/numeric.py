"""numpy's first import, made in the event loop's thread before work that needs numpy goes to a
worker thread.

Two threads importing numpy for the first time at once can each hold the import lock of a module
the other needs next; Python breaks that cycle by handing one of them numpy half-initialised
(`ImportError: cannot import name '__cpu_features__' from partially initialized module`). CI met it
once, a server preparing its graph answers in one thread while the embedder loaded in another. The
event loop's thread holds no import lock between awaits, so an import there waits without closing
a cycle. numpy stays lazy: a process that never needs it never loads it (10 MB).
"""

from __future__ import annotations


def load_numpy() -> None:
    """Import numpy here (at once if it is loaded already)."""
    import numpy  # noqa: F401
