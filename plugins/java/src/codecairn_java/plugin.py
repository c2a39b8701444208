"""Registers Java with codecairn: ``.java`` files, the tree-sitter-java grammar, the rich extractor."""

from __future__ import annotations

import tree_sitter_java
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
            name="java",
            extensions=(".java",),
            grammar=tree_sitter_java.language,
            extractor=ImportedOnCall("codecairn_java.extractor:extract_java"),
            resolution=ResolutionRules(
                separator=".",
                implicit_members=True,
                self_names=("this",),
                super_names=("super",),
                directory_scope=True,  # a package's classes see each other without import
            ),
            # "2": a javadoc that opens with <p> has a summary (its first sentence); "3": a signature
            # over several lines keeps its parameters past `//` comments that end its lines
            version="3",
            attached=AttachedLines(("@",), C_COMMENTS),
        )
    ]


@hookimpl
def codecairn_route_detectors() -> list[RouteDetector]:
    # routes.py looks only at files importing one of these (Spring MVC and its clients, JAX-RS,
    # java.net.http): the files read again when the detector changes
    markers = (b"org.springframework.web", b"javax.ws.rs", b"jakarta.ws.rs", b"java.net.http")
    return [RouteDetector("java-http", ("java",), ImportedOnCall("codecairn_java.routes:detect"), markers=markers)]
