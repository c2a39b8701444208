"""Registers Python with codecairn (entry point ``python`` in the group ``codecairn``)."""

from __future__ import annotations

import builtins

import tree_sitter_python
from codecairn.hookspecs import ImportedOnCall, Language, ResolutionRules, hookimpl


@hookimpl
def codecairn_languages() -> list[Language]:
    return [
        Language(
            name="python",
            extensions=(".py", ".pyi"),
            grammar=tree_sitter_python.language,
            extractor=ImportedOnCall("codecairn_python.extractor:extract"),
            resolution=ResolutionRules(
                separator=".",
                implicit_members=False,
                self_names=("self", "cls"),
                super_names=("super()", "super"),
                directory_scope=False,
                builtins=frozenset(dir(builtins)),
            ),
        )
    ]
