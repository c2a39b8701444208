"""The scopes open while a file is walked: module, namespace, class, interface, function.

The extraction visits nodes in document order with a stack of them, so a node's parent symbol, its
qualified-name prefix, the symbol its calls belong to and the types of the variables in scope come
from the stack instead of a walk up the tree.
"""

from __future__ import annotations

MODULE, NAMESPACE, CLASS, INTERFACE, FUNCTION, ANONYMOUS_CLASS = range(6)
INHERIT = object()  # FileWalk._push: take the enclosing scope's class


class Scope:
    __slots__ = ("end", "kind", "symbol", "qual", "types", "klass", "node", "function", "params")

    def __init__(self, end, kind, symbol, qual, types, klass, node=None):
        self.end = end  # end byte: the scope closes when the walk passes it
        self.kind = kind
        self.symbol = symbol  # index of the symbol calls inside are attributed to (-1: file level)
        self.qual = qual  # qualified-name prefix for symbols declared directly inside
        # Variables declared here (functions, module): name -> declarator node, or its type name
        # once a call on it asked. Parameters are read on the first lookup that misses.
        self.types = types
        self.klass = klass  # the enclosing class's ClassFields (for `this.field` types), or None
        self.node = node  # the function node (its parameters type receivers), or None once read
        self.function = node  # the function node, kept
        self.params: frozenset[str] | None = None  # its parameters' names, read on the first need


class ClassFields:
    """The types of a class's fields, as the walk learns them (`repo: Repo`, `this.r = new R()`)."""

    __slots__ = ("fields",)

    def __init__(self):
        self.fields: dict[str, str] = {}
