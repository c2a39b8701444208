"""PHP for codecairn: tree-sitter-php's tags.scm plus namespaces (the file's module), methods, traits,
enums, constants, `extends`/`implements`/trait `use`, `use` imports and plain function calls."""

from importlib.resources import files

from codecairn.extractors.packs import grammar_pack
from codecairn.hookspecs import C_COMMENTS, AttachedLines, hookimpl


@hookimpl
def codecairn_languages():
    return [
        grammar_pack(
            "php",
            (".php",),
            module="tree_sitter_php",
            function="language_php",
            queries=[files(__name__) / "tags.scm"],
            separator="\\",
            directory_scope=True,
            self_names=("$this", "self", "static"),
            super_names=("parent",),
            attached=AttachedLines(("#[",), (*C_COMMENTS, "#")),
        )
    ]
