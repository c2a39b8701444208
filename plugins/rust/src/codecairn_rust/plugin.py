"""Registers Rust with codecairn (entry point ``rust`` in the ``codecairn`` group)."""

from __future__ import annotations

import tree_sitter_rust
from codecairn.hookspecs import ImportedOnCall, Language, hookimpl


@hookimpl
def codecairn_languages() -> list[Language]:
    return [
        Language(
            name="rust",
            extensions=(".rs",),
            grammar=tree_sitter_rust.language,
            extractor=ImportedOnCall("codecairn_rust.extractor:extract"),
            separator="::",
            # Rust needs `self.` / `Self::` to reach members; a bare call is never a method.
            implicit_members=False,
            self_names=("self", "Self"),
            super_names=(),
            directory_scope=False,  # visibility follows `mod`/`use`, not directories
        )
    ]
