"""Ruby for codecairn: tree-sitter-ruby's tags.scm plus `class A < B`, mixins (include/extend/prepend
as "implements"), require/require_relative, constants, attr_* accessors and qualified class names."""

from importlib.resources import files

from codecairn.extractors.packs import grammar_pack
from codecairn.hookspecs import AttachedLines, hookimpl


@hookimpl
def codecairn_languages():
    return [
        grammar_pack(
            "ruby",
            (".rb", ".rake", ".gemspec", ".ru"),
            module="tree_sitter_ruby",
            queries=[files(__name__) / "tags.scm"],
            separator="::",
            filenames=("Rakefile", "Gemfile"),
            implicit_members=True,
            self_names=("self",),
            super_names=("super",),
            attached=AttachedLines(comments=("#",)),
        )
    ]
