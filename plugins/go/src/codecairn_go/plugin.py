"""Registers Go with codecairn (entry point ``go`` in the ``codecairn`` group)."""

from __future__ import annotations

import tree_sitter_go
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
            name="go",
            extensions=(".go",),
            grammar=tree_sitter_go.language,
            extractor=ImportedOnCall("codecairn_go.extractor:extract"),
            resolution=ResolutionRules(
                separator=".",
                implicit_members=False,
                # Go names its receiver per method (`func (s *Server) ...`); the extractor puts the
                # receiver's type into Relation.receiver_type instead.
                self_names=(),
                super_names=(),
                directory_scope=True,  # one package = one directory: its files see each other
                members_apart=True,  # methods in other files / impl blocks are the type's members
                # Go's predeclared functions and types (documented as the package `builtin`): `len(x)`
                # is builtin.len, and a call into a package that is not indexed (`fmt.Sprintf`) is
                # external to it by its import path, not unresolved
                builtins=GO_BUILTINS,
                builtins_module="builtin",
            ),
            # "2": calls of built-ins and of packages outside the index are external; a signature over
            # several lines keeps its parameters past `//` comments that end its lines
            version="2",
            attached=AttachedLines(comments=C_COMMENTS),
        )
    ]


GO_BUILTINS = frozenset(
    "append cap clear close complex copy delete imag len make max min new panic print println real recover "
    "any bool byte comparable complex64 complex128 error float32 float64 int int8 int16 int32 int64 rune "
    "string uint uint8 uint16 uint32 uint64 uintptr".split()
)


@hookimpl
def codecairn_route_detectors() -> list[RouteDetector]:
    return [RouteDetector("go-http", ("go",), ImportedOnCall("codecairn_go.routes:detect"))]
