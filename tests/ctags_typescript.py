"""TypeScript and JavaScript next to universal-ctags: how a tag and a symbol match, and the tags
codecairn has no symbol for on purpose (see :func:`by_design`, which classifies each such tag from
the syntax tree the facts came from).

Matching allows for two naming differences: ctags drops the ``#`` of private members, and tags each
overload signature where codecairn has one symbol spanning all of them; ``module.exports = function``
(ctags: "exports") is the file's default export.

Used by tests/test_ctags_agreement.py and benchmarks/test_typescript_ctags_agreement.py.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import Any

from codecairn.testing import CtagsRules
from codecairn.testing.ctags import CorpusFile, Tag
from codecairn_typescript.extractor import repaired_tree
from codecairn_typescript.plugin import codecairn_languages
from tree_sitter import Language as TSLanguage
from tree_sitter import Parser

_LANGUAGES = {ext: lang for lang in codecairn_languages() for ext in lang.extensions}
_PARSERS: dict[str, Parser] = {}
FILES = {ext: lang.name for ext, lang in _LANGUAGES.items()}  # what the plugin's languages claim
_CALLABLE = ("function", "method", "constructor")


def _tree(file: CorpusFile):
    """The syntax tree the facts of this file came from (the plugin's repairs applied)."""
    tree = file.memo.get("tree")
    if tree is None:
        lang = _LANGUAGES[os.path.splitext(file.path)[1]]
        parser = _PARSERS.get(lang.name)
        if parser is None:
            parser = _PARSERS[lang.name] = Parser(TSLanguage(lang.grammar()))
        tree = file.memo["tree"] = repaired_tree(file.source, parser.parse(file.source), file.path)
    return tree


def matches(tag: Tag, symbols) -> bool:
    for s in symbols:
        if s.start_line == tag.line and (
            s.name in (tag.name, "#" + tag.name)  # ctags drops the # of private names
            or tag.name == "exports"
            and "default" in s.modifiers  # `module.exports = function` is the default export
        ):
            return True
        # an overload signature: codecairn merges overloads into one symbol spanning them all
        if s.kind in _CALLABLE and s.name == tag.name and s.start_line <= tag.line <= s.end_line:
            return True
    return False


def excuse(tag: Tag, file: CorpusFile) -> str | None:
    lines = file.memo.get("lines")
    if lines is None:
        lines = file.memo["lines"] = file.source.split(b"\n")
    return by_design(tag.fields, _tree(file), lines)


# Every ctags TypeScript and JavaScript kind is compared (class, interface, alias, enum,
# enumerator, function, generator, method, getter, setter, property, field, namespace, constant,
# variable): codecairn produces each of them.
RULES = CtagsRules(
    ("--fields=+nKzp", "--languages=TypeScript,JavaScript"),
    match=matches,
    normalise=lambda name: name.lstrip("#"),
    excuses=(excuse,),
    only_extracted_files=True,
)


_FUNCTIONS = frozenset(
    {
        "function_declaration",
        "generator_function_declaration",
        "function_expression",
        "generator_function",
        "arrow_function",
        "method_definition",
        "class_static_block",
    }
)
_NAME_NODES = frozenset(
    {
        "identifier",
        "property_identifier",
        "type_identifier",
        "shorthand_property_identifier",
        "shorthand_property_identifier_pattern",
        "private_property_identifier",
        "string_fragment",
        "string",
    }
)
_FUNCTION_VALUES = frozenset({"function_expression", "generator_function", "arrow_function"})
# Nodes whose name child declares something (anything else holding the name is a use of it).
_DECLARING = frozenset(
    {
        "variable_declarator",
        "function_declaration",
        "generator_function_declaration",
        "function_signature",
        "function_expression",
        "generator_function",
        "class_declaration",
        "abstract_class_declaration",
        "class",
        "method_definition",
        "method_signature",
        "abstract_method_signature",
        "public_field_definition",
        "field_definition",
        "property_signature",
        "interface_declaration",
        "type_alias_declaration",
        "enum_declaration",
        "enum_body",
        "enum_assignment",
        "internal_module",
        "module",
        "nested_identifier",
        "pair",
        "object",
        "assignment_expression",
        "object_pattern",
        "array_pattern",
        "pair_pattern",
        "required_parameter",
        "optional_parameter",
        "export_statement",
    }
)


def _name_node(tree, lines: list[bytes], tag: dict):
    """The syntax node of the tag's name: its first whole-word occurrence on the tag's line."""
    row = tag["line"] - 1
    if row >= len(lines):
        return None
    name = tag["name"].encode()
    m = re.search(rb"(?<![\w$])#?" + re.escape(name) + rb"(?![\w$])", lines[row])
    if m is None:
        return None
    col = m.end() - len(name)
    return tree.root_node.named_descendant_for_point_range((row, col), (row, col + len(name)))


def _object_is_named(obj) -> bool:
    """Is this object literal bound to a name (a variable, an assignment, an export, a named member)?"""
    parent = obj.parent
    while parent is not None and parent.type in ("parenthesized_expression", "as_expression", "satisfies_expression"):
        parent = parent.parent
    if parent is None:
        return False
    if parent.type in ("variable_declarator", "assignment_expression", "export_statement"):
        return True
    if parent.type == "pair" and parent.parent is not None and parent.parent.type == "object":
        return _object_is_named(parent.parent)
    return False


def _has_function_member(obj) -> bool:
    for member in obj.named_children:
        if member.type == "method_definition":
            return True
        if member.type == "pair":
            value = member.child_by_field_name("value")
            if value is not None and (
                value.type in _FUNCTION_VALUES or value.type == "object" and _has_function_member(value)
            ):
                return True
    return False


def by_design(tag: Mapping[str, Any], tree, lines: list[bytes]) -> str | None:
    """Why codecairn has no symbol for this ctags definition on purpose, or None.

    ctags (a hand-written scanner) and codecairn (a syntax tree) disagree by design on:
    * anonymous functions, which ctags names ``AnonymousFunction1a2b…``;
    * import bindings (``const x = require("x")``, ``import { type A }``): codecairn records imports;
    * local variables and constants inside function bodies and blocks: codecairn indexes module-
      and namespace-level variables only (functions and classes are indexed at any depth);
    * object-literal data (``meta: { docs: {...} }``, ``{ a, b }``), which ctags tags as class /
      property / field: codecairn indexes the function-valued members of objects bound to a name,
      and the nested objects that hold such functions;
    * members of anonymous objects (``return { Program() {} }``, ``[{ *fix() {} }]``);
    * ``module.exports = {`` (ctags tags the object as "exports"): its members are the module's
      own names;
    * ``module.exports = new Map()`` and other computed module values (ctags: "exports");
    * destructuring: ``const { keys: getKeys } = Object`` binds ``getKeys`` (ctags tags ``keys``);
    * interface construct signatures (``new (): Foo``, which ctags names "new");
    * members of type literals (``declare var X: { readonly A: number }``): codecairn indexes the
      members of interfaces and classes, not of anonymous types;
    * assignments of an existing function (``A.prototype.f = f``) and immediately-invoked
      functions (``const x = (function () {…})()``): values, not definitions;
    * tags that are not declarations at all (ctags losing track: parameters, members of type
      literals, call arguments).
    """
    name, kind = tag["name"], tag["kind"]
    if name.startswith("AnonymousFunction") or name.startswith("AnonymousClass"):
        return "anonymous function"
    pattern = tag.get("pattern", "")
    if name == "new" and "new (" in pattern or name == "new" and "new <" in pattern:
        return "construct signature"
    if name == "exports" and tag.get("scope") == "module":
        return "module.exports value"  # a function or class assigned there matched its own name
    node = _name_node(tree, lines, tag)
    if node is None:
        return "not a declaration"
    if node.type == "string_fragment":
        node = node.parent
    parent = node.parent
    if parent is None:
        return "not a declaration"
    ancestors = []
    walk = parent
    while walk is not None:
        ancestors.append(walk)
        walk = walk.parent
    types = [a.type for a in ancestors]
    if "import_statement" in types or "import_specifier" in types or "export_clause" in types:
        return "import binding"
    if (
        parent.type in ("property_signature", "method_signature")
        and parent.parent is not None
        and parent.parent.type == "object_type"
    ):
        return "type-literal member"  # `declare var X: { readonly A: number }`: typing, not a declaration
    if parent.type == "pair_pattern" and parent.child_by_field_name("key") == node:
        return "destructuring key"
    if "type_annotation" in types[: types.index("variable_declarator")] if "variable_declarator" in types else False:
        return "not a declaration"
    declarator = next((a for a in ancestors if a.type == "variable_declarator"), None)
    if declarator is not None and declarator.child_by_field_name("value") is not None:
        value = declarator.child_by_field_name("value")
        if value.type == "member_expression":
            value = value.child_by_field_name("object")
        fn = value.child_by_field_name("function") if value is not None and value.type == "call_expression" else None
        if fn is not None and fn.type == "identifier" and fn.text == b"require":
            return "import binding"
        if (
            value is not None
            and value.type == "call_expression"
            and fn is not None
            and fn.type == "parenthesized_expression"
        ):
            return "immediately-invoked function"
    if parent.type == "assignment_expression":
        right = parent.child_by_field_name("right")
        if (
            right is not None
            and right.type == "call_expression"
            and right.child_by_field_name("function").type == "parenthesized_expression"
        ):
            return "immediately-invoked function"
    if (
        parent.type == "member_expression"
        and parent.parent is not None
        and parent.parent.type == "assignment_expression"
    ):
        right = parent.parent.child_by_field_name("right")
        if right is not None and right.type in ("identifier", "member_expression"):
            return "assigned reference"
        if right is not None and right.type == "call_expression":
            return "immediately-invoked function"
    local = any(
        t in _FUNCTIONS
        or t == "statement_block"
        and i + 1 < len(types)
        and types[i + 1] not in ("internal_module", "module", "ambient_declaration")
        for i, t in enumerate(types)
    )
    if (
        declarator is not None
        and declarator.child_by_field_name("name") is not None
        and (
            declarator.child_by_field_name("name").start_byte
            <= node.start_byte
            < declarator.child_by_field_name("name").end_byte
        )
    ):
        value = declarator.child_by_field_name("value")
        data = (
            value is None
            or value.type not in _FUNCTION_VALUES | {"class"}
            and not (value.type == "object" and _has_function_member(value))
        )
        if local and data:
            return "local variable"
    if parent.type == "assignment_expression" and parent.child_by_field_name("left") == node and local:
        right = parent.child_by_field_name("right")
        if (
            right is not None
            and right.type not in _FUNCTION_VALUES
            and not (right.type == "object" and _has_function_member(right))
        ):
            return "local variable"
    if kind in ("constant", "variable") and any(
        t in ("for_in_statement", "for_statement", "catch_clause") for t in types
    ):
        return "local variable"  # a loop or catch variable
    if (
        parent.type == "member_expression"
        and parent.parent is not None
        and parent.parent.type == "assignment_expression"
    ):
        right = parent.parent.child_by_field_name("right")
        if (
            right is not None
            and right.type not in _FUNCTION_VALUES | {"class"}
            and not (right.type == "object" and _has_function_member(right))
        ):
            return "object data"  # `options.let = { initialized: true }`
    if (
        parent.type in ("pair", "method_definition")
        and parent.parent is not None
        and parent.parent.type == "object"
        or (node.type == "shorthand_property_identifier" and parent.type == "object")
    ):
        member = parent
        obj = member.parent if member.type != "object" else member
        value = member.child_by_field_name("value") if member.type == "pair" else None
        is_function = member.type == "method_definition" or value is not None and value.type in _FUNCTION_VALUES
        holds_functions = value is not None and value.type == "object" and _has_function_member(value)
        if not is_function and not holds_functions:
            return "object data"
        if not _object_is_named(obj):
            return "anonymous object member"
    if "formal_parameters" in types[:3] and not any(
        c.type in ("accessibility_modifier", "readonly") for c in parent.children
    ):
        return "not a declaration"  # a parameter (parameter properties are fields, and kept)
    if node.type not in _NAME_NODES:
        return "not a declaration"
    if parent.type == "member_expression":
        assignment = parent.parent
        if (
            assignment is None
            or assignment.type != "assignment_expression"
            or assignment.child_by_field_name("left") != parent
        ):
            return "not a declaration"
    elif parent.type not in _DECLARING:
        return "not a declaration"
    return None
