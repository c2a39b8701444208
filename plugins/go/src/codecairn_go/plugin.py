"""Registers Go with codecairn (entry point ``go`` in the ``codecairn`` group)."""

from __future__ import annotations

import tree_sitter_go
from codecairn.hookspecs import ImportedOnCall, Language, ResolutionRules, RouteDetector, hookimpl


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
            ),
        )
    ]


@hookimpl
def codecairn_route_detectors() -> list[RouteDetector]:
    return [RouteDetector("go-http", ("go",), ImportedOnCall("codecairn_go.routes:detect"))]
