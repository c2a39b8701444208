"""C for codecairn. tree-sitter-c's tags.scm marks only declarators (prototypes too), so this pack
brings its own query: whole definitions, members, enumerators, globals, macros and #include; and it
blanks lines holding only an unexpanded macro before the query runs (macros.py)."""

from importlib.resources import files

from codecairn.extractors.packs import grammar_pack
from codecairn.hookspecs import C_COMMENTS, AttachedLines, hookimpl

from codecairn_grammar_c.macros import blank_macro_lines


@hookimpl
def codecairn_languages():
    return [
        grammar_pack(
            "c",
            (".c", ".h"),
            module="tree_sitter_c",
            queries=[files(__name__) / "tags.scm"],
            bundled=False,
            repair=blank_macro_lines,
            attached=AttachedLines(comments=C_COMMENTS),
        )
    ]
