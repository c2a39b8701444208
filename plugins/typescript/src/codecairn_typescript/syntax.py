"""The node kinds of the TypeScript/TSX grammar the extraction reads, and small questions about them
every part of it asks."""

from __future__ import annotations

import re

FUNCTION_VALUES = frozenset({"arrow_function", "function_expression", "generator_function"})
CLASS_NODES = frozenset({"class_declaration", "abstract_class_declaration", "class"})
MODULE_LEVEL_PARENTS = frozenset({"program", "export_statement", "ambient_declaration"})
NAMESPACE_NODES = frozenset({"internal_module", "module"})
KEYWORD_MODIFIERS = {
    "static": "static",
    "async": "async",
    "readonly": "readonly",
    "abstract": "abstract",
    "declare": "declare",
    "get": "get",
    "set": "set",
    "*": "generator",
}
BUILTIN_TYPES = frozenset(
    {"any", "unknown", "never", "void", "object", "string", "number", "boolean", "symbol", "bigint"}
)
SPACES = re.compile(r"\s+")


def has_function_member(obj, depth: int = 0) -> bool:
    for member in obj.named_children:
        if member.type == "method_definition":
            return True
        if member.type == "pair":
            value = member.child_by_field_name("value")
            if value is not None and (
                value.type in FUNCTION_VALUES
                or value.type == "object"
                and depth < 8
                and has_function_member(value, depth + 1)
            ):
                return True
    return False
