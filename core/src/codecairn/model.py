"""Plain data that flows from extractors to the store and back out to tools.

Everything here is a NamedTuple: cheap to build in a worker process, cheap to pickle back to the
parent (the parse pool sends hundreds of thousands of these per index), and immutable.
Lines are 1-based, columns 0-based (tree-sitter points plus one on the row).
"""

from __future__ import annotations

from typing import NamedTuple

# Symbol kinds shared by all languages. A plugin may use others; these are the ones tools rank on.
TYPE_KINDS = frozenset(
    {"class", "interface", "enum", "record", "struct", "trait", "union", "type", "annotation", "protocol"}
)
CALLABLE_KINDS = frozenset({"function", "method", "constructor", "macro"})
CONTAINER_KINDS = TYPE_KINDS | {"module", "package", "namespace", "impl"}
DATA_KINDS = frozenset({"field", "property", "variable", "constant", "enum_member", "variant"})
# Relationship kinds that give a type its supertypes (every other kind is a use: calls, references).
INHERITANCE_KINDS = ("extends", "implements")

# How a relationship's target was found (stored on every resolved edge).
EXACT = "exact"  # same file / same enclosing scope / same package
IMPORT = "import"  # through an import binding
INHERITED = "inherited"  # found on a supertype of the receiver's class
NAME_ONLY = "name-only"  # the only symbol anywhere with that name: a guess, labelled as one


class Symbol(NamedTuple):
    kind: str
    name: str
    qualified_name: str
    start_line: int
    start_col: int
    end_line: int
    end_col: int
    signature: str = ""
    doc: str = ""  # first line (sentence) of the doc comment / docstring
    parent: int = -1  # index of the enclosing symbol in FileFacts.symbols, -1 = none
    modifiers: tuple[str, ...] = ()  # e.g. "async", "static", "abstract", "property", "public", "@decorator"


class Relation(NamedTuple):
    kind: str  # "extends" | "implements" | "calls" | "references"
    source: int  # index of the symbol it occurs in (FileFacts.symbols), -1 = file level
    target: str  # the target name exactly as written: "Base", "pkg.Base", "charge"
    line: int  # line of the call site / base clause
    receiver: str = ""  # for calls: the text before the name ("self", "order.items", "this", "super()")
    # A type the extractor could read off the syntax for the receiver: Go's method receiver
    # ("s" in func (s *Server)), a typed local ("Foo f = ..."), "x = Foo()". Empty when unknown.
    receiver_type: str = ""


class Import(NamedTuple):
    module: str  # as written: "os.path", "..pkg", "./util", "java.util", "crate::io"
    name: str = ""  # the imported member ("" = the module itself, "*" = wildcard)
    alias: str = ""  # the local name it is bound to ("" = none: side-effect / wildcard)
    line: int = 0
    kind: str = ""  # "" or a language's variant: "static", "type", "require", "dynamic", "side-effect"
    target: str = ""  # best-effort qualified name of what is bound, in the language's own qualified names


class Export(NamedTuple):
    name: str  # the exported name ("*" for export-all)
    line: int = 0
    kind: str = ""  # "" | "default" | "re-export" | "all" (from __all__) ...
    source: str = ""  # module re-exported from, when it is a re-export
    alias: str = ""  # the name it is exported as, when renamed


class FileFacts(NamedTuple):
    """What one extractor found in one parsed file. Indexes in Relation.source/Symbol.parent point
    into ``symbols``."""

    symbols: list[Symbol]
    relations: list[Relation]
    imports: list[Import]
    exports: list[Export]
    module: str = ""  # the file's own qualified prefix (Python "pkg.mod", Java "org.junit")
    partial: bool = False  # the tree had ERROR/MISSING nodes: facts outside them are still here
    extractor: str = ""  # which extractor produced this (a rich plugin's name or "tags")
