"""C++ for codecairn. tree-sitter-cpp's tags.scm marks only declarators, so this pack brings its own
query: classes, namespaces, methods (in-class and `Foo::bar`), base classes, #include and using.

`.h` is left to the C pack: a C++ project with `.h` headers maps it to "cpp" in its configuration."""

from importlib.resources import files

from codecairn.extractors.tags import C_MACRO_LINE, grammar_pack
from codecairn.hookspecs import hookimpl

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
            blank_on_error=C_MACRO_LINE,
            implicit_members=True,
            self_names=("this",),
            super_names=(),
        )
    ]
