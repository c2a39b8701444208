"""C# for codecairn: tree-sitter-c-sharp's tags.scm plus the type and member declarations it lacks,
base lists, usings and namespaces (a namespace is the file's module, shared across files)."""

from importlib.resources import files

from codecairn.extractors.packs import grammar_pack
from codecairn.hookspecs import C_COMMENTS, AttachedLines, hookimpl


@hookimpl
def codecairn_languages():
    return [
        grammar_pack(
            "csharp",
            (".cs",),
            module="tree_sitter_c_sharp",
            queries=[files(__name__) / "tags.scm"],
            implicit_members=True,
            self_names=("this",),
            super_names=("base",),
            directory_scope=True,
            attached=AttachedLines(("[",), C_COMMENTS),
        )
    ]
