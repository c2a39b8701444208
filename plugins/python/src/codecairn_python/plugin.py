"""Registers Python with codecairn (entry point ``python`` in the group ``codecairn``)."""

from __future__ import annotations

import tree_sitter_python
from codecairn.hookspecs import Language, hookimpl

from codecairn_python.extractor import extract


@hookimpl
def codecairn_languages() -> list[Language]:
    return [
        Language(
            name="python",
            extensions=(".py", ".pyi"),
            grammar=tree_sitter_python.language,
            extractor=extract,
            separator=".",
            implicit_members=False,
            self_names=("self", "cls"),
            super_names=("super()", "super"),
            directory_scope=False,
        )
    ]
