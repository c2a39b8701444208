"""Shared by the TypeScript plugin's corpus tests and benchmarks: find a corpus, index it with the
plugin's own languages, and compare the definitions with universal-ctags.

Not a test module itself: tests and benchmarks load it by path and register it in ``sys.modules``
(pytest runs with ``--import-mode=importlib``, where sibling modules are not importable).
"""

from __future__ import annotations

import collections
import json
import os
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from codecairn.testing import corpus  # noqa: E402,F401  (re-exported for the tests)
from codecairn_typescript.extractor import repaired_tree
from codecairn_typescript.plugin import codecairn_languages
from tree_sitter import Language as TSLanguage
from tree_sitter import Parser

_LANGUAGES = {ext: lang for lang in codecairn_languages() for ext in lang.extensions}
_PARSERS: dict[str, Parser] = {}


def language_for(path: str):
    return _LANGUAGES.get(os.path.splitext(path)[1])


def parse(path: str, source: bytes):
    lang = language_for(path)
    parser = _PARSERS.get(lang.name)
    if parser is None:
        parser = _PARSERS[lang.name] = Parser(TSLanguage(lang.grammar()))
    return parser.parse(source)


def source_files(root: Path) -> list[str]:
    """Root-relative paths of every file one of the plugin's languages claims, sorted."""
    found = []
    for directory, dirs, files in os.walk(root, followlinks=True):
        dirs.sort()
        for name in sorted(files):
            if language_for(name) is not None:
                found.append(os.path.relpath(os.path.join(directory, name), root).replace(os.sep, "/"))
    return found


def index(root: Path) -> dict[str, tuple]:
    """rel path -> (facts, source, tree the facts came from) for every file of the corpus."""
    out = {}
    for rel in source_files(root):
        source = (root / rel).read_bytes()
        tree = parse(rel, source)
        out[rel] = (language_for(rel).extractor(source, tree, rel), source, repaired_tree(source, tree, rel))
    return out


# ---- agreement with universal-ctags ------------------------------------------------------------


def ctags_definitions(root: Path) -> list[dict]:
    out = subprocess.run(
        ["ctags", "--output-format=json", "--fields=+nKzp", "-R", "--languages=TypeScript,JavaScript", "-f", "-", "."],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    ).stdout
    tags = []
    for line in out.splitlines():
        tag = json.loads(line)
        if tag.get("_type") == "tag":
            tag["path"] = tag["path"][2:] if tag["path"].startswith("./") else tag["path"]
            tags.append(tag)
    return tags


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


def by_design(tag: dict, tree, lines: list[bytes]) -> str | None:
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


@dataclass
class Agreement:
    matched: collections.Counter = field(default_factory=collections.Counter)
    total: collections.Counter = field(default_factory=collections.Counter)
    excluded: collections.Counter = field(default_factory=collections.Counter)
    misses: list = field(default_factory=list)
    ctags_tags: int = 0  # every ctags definition in the compared files
    symbols: int = 0  # every codecairn symbol in them
    symbols_not_in_ctags: int = 0

    @property
    def recall(self) -> float:
        total = sum(self.total.values())
        return sum(self.matched.values()) / total if total else 1.0

    def report(self, title: str) -> str:
        rows = [
            f"{title}: recall of ctags definitions {100 * self.recall:.1f}% "
            f"({sum(self.matched.values())}/{sum(self.total.values())})"
        ]
        for kind in sorted(self.total):
            rows.append(
                f"  {kind:12s} {self.matched[kind]:6d}/{self.total[kind]:6d} "
                f"{100 * self.matched[kind] / self.total[kind]:5.1f}%"
            )
        rows.append("  excluded by design: " + ", ".join(f"{k} {v}" for k, v in self.excluded.most_common()))
        rows.append(
            f"  ctags definitions {self.ctags_tags}, codecairn symbols {self.symbols} "
            f"({self.symbols_not_in_ctags} at a (path, line, name) ctags has not)"
        )
        return "\n".join(rows)


def agreement(root: Path, indexed: dict[str, tuple] | None = None) -> Agreement:
    """Recall of ctags' definitions (path, line, name) among codecairn's symbols."""
    indexed = indexed if indexed is not None else index(root)
    at_line: dict[tuple[str, int], set[str]] = collections.defaultdict(set)
    defaults: set[tuple[str, int]] = set()
    spans: dict[tuple[str, str], list[tuple[int, int]]] = collections.defaultdict(list)
    for rel, (facts, _, _) in indexed.items():
        for sym in facts.symbols:
            at_line[(rel, sym.start_line)].add(sym.name)
            if "default" in sym.modifiers:
                defaults.add((rel, sym.start_line))
            if sym.kind in ("function", "method", "constructor"):
                spans[(rel, sym.name)].append((sym.start_line, sym.end_line))
    lines_of: dict[str, list[bytes]] = {}
    result = Agreement()
    ctags_keys = set()
    for tag in ctags_definitions(root):
        rel, line, name = tag["path"], tag["line"], tag["name"]
        if rel not in indexed:
            continue
        result.ctags_tags += 1
        ctags_keys.add((rel, line, name.lstrip("#")))
        names = at_line.get((rel, line), ())
        matched = (
            name in names
            or "#" + name in names  # ctags drops the # of private names
            or name == "exports"
            and (rel, line) in defaults  # `module.exports = function` is the default export
            # an overload signature: codecairn merges overloads into one symbol spanning them all
            or any(start <= line <= end for start, end in spans.get((rel, name), ()))
        )
        if not matched:
            facts, source, tree = indexed[rel]
            if rel not in lines_of:
                lines_of[rel] = source.split(b"\n")
            reason = by_design(tag, tree, lines_of[rel])
            if reason is not None:
                result.excluded[reason] += 1
                continue
            result.misses.append(tag)
        result.total[tag["kind"]] += 1
        result.matched[tag["kind"]] += matched
    for rel, (facts, _, _) in indexed.items():
        result.symbols += len(facts.symbols)
        result.symbols_not_in_ctags += sum(
            1 for s in facts.symbols if (rel, s.start_line, s.name.lstrip("#")) not in ctags_keys
        )
    return result
