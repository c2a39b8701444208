"""C for codecairn. tree-sitter-c's tags.scm marks only declarators (prototypes too), so this pack
brings its own query: whole definitions, members, enumerators, globals, macros and #include."""

from importlib.resources import files

from codecairn.extractors.tags import C_MACRO_LINE, grammar_pack
from codecairn.hookspecs import hookimpl


@hookimpl
def codecairn_languages():
    return [
        grammar_pack(
            "c",
            (".c", ".h"),
            module="tree_sitter_c",
            queries=[files(__name__) / "tags.scm"],
            bundled=False,
            blank_on_error=C_MACRO_LINE,
        )
    ]
