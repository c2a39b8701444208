"""Registers Rust with codecairn (entry point ``rust`` in the ``codecairn`` group)."""

from __future__ import annotations

import tree_sitter_rust
from codecairn.hookspecs import (
    C_COMMENTS,
    AttachedLines,
    ImportedOnCall,
    Language,
    ResolutionRules,
    RouteDetector,
    hookimpl,
)


@hookimpl
def codecairn_languages() -> list[Language]:
    return [
        Language(
            name="rust",
            extensions=(".rs",),
            # 2: items after a long doc comment in a macro's body; `self: Pin<&mut Self>` is no static;
            # a signature over several lines keeps its parameters past `//` comments that end its lines
            version="2",
            grammar=tree_sitter_rust.language,
            extractor=ImportedOnCall("codecairn_rust.extractor:extract"),
            resolution=ResolutionRules(
                separator="::",
                # Rust needs `self.` / `Self::` to reach members; a bare call is never a method.
                implicit_members=False,
                self_names=("self", "Self"),
                super_names=(),
                directory_scope=False,  # visibility follows `mod`/`use`, not directories
                members_apart=True,  # methods in other files / impl blocks are the type's members
                path_root=path_root,
            ),
            attached=AttachedLines(("#[",), C_COMMENTS),
        )
    ]


def path_root(head: str, module: str) -> str | None:
    """The module a path's first word names relative to ``module``: ``crate::`` the crate root,
    ``self::`` this module, ``super::`` its parent; None for any other word."""
    if head == "crate":
        return "crate"
    if head == "super":
        return module.rsplit("::", 1)[0] if "::" in module else module
    if head == "self":
        return module
    return None


@hookimpl
def codecairn_route_detectors() -> list[RouteDetector]:
    return [RouteDetector("rust-http", ("rust",), ImportedOnCall("codecairn_rust.routes:detect"))]
