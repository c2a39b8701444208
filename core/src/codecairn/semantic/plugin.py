"""The default embedder as a plugin: registered by the host like any third-party embedder.

Returns None, without raising, when the optional packages are missing or the model cannot be
used, so core keeps working; ``codecairn.semantic.minilm.unavailable_reason()`` (or catching
``EmbedderUnavailable`` from ``shared_embedder()``) says why and what to install.
"""

from __future__ import annotations

from codecairn.hookspecs import Embedder, hookimpl
from codecairn.semantic.minilm import EmbedderUnavailable, shared_embedder


@hookimpl
def codecairn_embedder() -> Embedder | None:
    try:
        return shared_embedder()
    except EmbedderUnavailable:
        return None
