"""C++ for codecairn. tree-sitter-cpp's tags.scm marks only declarators, so this pack brings its own
query: classes, namespaces, methods (in-class and `Foo::bar`), base classes, #include and using.

`.h` is left to the C pack: a C++ project with `.h` headers maps it to "cpp" in its configuration.
Lines holding only an unexpanded macro are blanked before the query runs, as the C pack does."""

from importlib.resources import files

from codecairn.extractors.packs import grammar_pack
from codecairn.hookspecs import C_COMMENTS, AttachedLines, hookimpl
from codecairn_grammar_c.macros import blank_macro_lines

EXTENSIONS = (".cc", ".cpp", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++")


@hookimpl
def codecairn_languages():
    return [
        grammar_pack(
            "cpp",
            EXTENSIONS,
            module="tree_sitter_cpp",
            queries=[files(__name__) / "tags.scm"],
            bundled=False,
            separator="::",
            repair=blank_macro_lines,
            implicit_members=True,
            self_names=("this",),
            super_names=(),
            attached=AttachedLines(("template", "[["), C_COMMENTS),
        )
    ]
