"""The Python extractor: one parsed file in, FileFacts out.

One tree-sitter query finds everything that can sit anywhere in a file — definitions, calls,
imports, ``self.x = ...`` assignments, the assignments and annotations that tell a receiver's
type — in a single pass over the tree. That pass is most of the cost (a query that matches
nothing already costs a third of the parse), so there is exactly one. Python then does what a
query cannot say: nesting and qualified names (from byte spans, never by climbing parents),
decorators and modifiers, module- and class-level variables (a short walk over statements that
never enters a function body), import resolution and ``__all__``.

Naming rules (what the core resolver relies on):

* the module path comes from the root-relative file path alone (no I/O), see ``module_path``;
* everything defined in a file is qualified by the module path and the chain of enclosing
  definitions, functions included: ``pkg.mod.Class.method``, ``pkg.mod.func.inner``,
  ``pkg.mod.func.Local`` (Python's ``__qualname__`` without its ``<locals>`` markers);
* top-level definitions have ``parent == -1``; the file's ``module`` symbol (always index 0)
  is nobody's parent, and call sites at module level have ``source == -1``;
* ``Import.target`` is absolute in those same names: ``from ..a import b`` in ``pkg/sub/mod.py``
  binds ``b`` to ``pkg.a.b``.

Speed notes, since this runs on every file: strings are cut from a latin-1 view of the source
(one character per byte, so tree-sitter's byte offsets index it directly) and turned back into
UTF-8 text once at the end, only for files that are not pure ASCII; tree nodes are touched as
little as possible (``start_byte`` is free, ``start_point`` and ``child_by_field_name`` are not).
"""

from __future__ import annotations

import builtins
import re
from bisect import bisect_right
from collections.abc import Callable
from operator import attrgetter, itemgetter
from typing import Any

from codecairn.extractors.common import SIGNATURE_MAX, has_errors, uncommented
from codecairn.model import (
    FLOWED,
    INSTANCE,
    OWN_NAME,
    PARAMETER,
    PASSES,
    RETURNS,
    Export,
    FileFacts,
    Import,
    Relation,
    Symbol,
)
from tree_sitter import QueryCursor

_QUERY_SOURCE = """
(class_definition) @class
(function_definition) @function
(decorated_definition) @decorated
(call function: (identifier) @call)
(call function: (attribute) @call)
(import_statement) @import
(import_from_statement) @import
(assignment
  left: [(identifier) (attribute object: (identifier))]
  right: (call function: [(identifier) (attribute)])) @assign.call
(assignment left: [(identifier) (attribute object: (identifier))] type: (type)) @assign.typed
(assignment
  left: [(identifier) (attribute object: (identifier))]
  right: [(list) (list_comprehension) (dictionary) (dictionary_comprehension) (set) (set_comprehension)
          (string) (concatenated_string)]) @assign.literal
(except_clause (as_pattern) @except.as)
([(if_statement
    condition: (call
      function: (identifier) @_isinstance
      arguments: (argument_list . (identifier) . [(identifier) (attribute) (tuple)] .)))
  (elif_clause
    condition: (call
      function: (identifier) @_isinstance
      arguments: (argument_list . (identifier) . [(identifier) (attribute) (tuple)] .)))
  (if_statement
    condition: (not_operator
      argument: (call
        function: (identifier) @_isinstance
        arguments: (argument_list . (identifier) . [(identifier) (attribute) (tuple)] .))))]
  (#eq? @_isinstance "isinstance")) @narrowed
(with_item value: (as_pattern (call)) @with.as)
(named_expression name: (identifier) value: [(identifier) (attribute)]) @assign.walrus
(assignment left: (identifier) right: [(identifier) (attribute)]) @assign.ref
(assignment left: (identifier) right: [(conditional_expression) (boolean_operator)]) @assign.choice
(default_parameter name: (identifier) value: [(identifier) (attribute)]) @param.default
(return_statement) @return
(call
  function: (subscript value: [(identifier) (subscript) (call)] subscript: [(integer) (string) (unary_operator) (identifier) (attribute)])
  @call.subscript)
(assignment
  left: (identifier)
  right: [(list) (tuple) (dictionary) (generator_expression) (list_comprehension) (set_comprehension)
          (dictionary_comprehension)])
  @assign.container
(assignment
  left: (identifier)
  right: (call function: (identifier) @_dict arguments: (argument_list (keyword_argument)))
  (#eq? @_dict "dict")) @assign.container
(assignment
  left: [(pattern_list) (tuple_pattern) (list_pattern)]
  right: [(expression_list) (tuple) (list) (call)]) @assign.unpack
(typed_parameter) @param.typed
(typed_default_parameter) @param.typed
(assignment left: (attribute object: (identifier))) @assign.attribute
(assignment left: (pattern_list . (attribute object: (identifier)))) @assign.attribute
(for_statement left: (identifier) right: (_)) @for
(for_in_clause left: (identifier) right: (_)) @for
(for_statement left: (pattern_list) right: (call)) @for
(for_in_clause left: (pattern_list) right: (call)) @for
(yield) @yield
(call function: (call) @call.returned)
(call function: (parenthesized_expression) @call.parenthesized)
(global_statement (identifier) @global)
(raise_statement . [(identifier) (attribute)] @raise.class)
(assignment
  left: (subscript value: [(identifier) (subscript)] subscript: [(string) (integer)])
  right: [(identifier) (attribute)]) @assign.item
(augmented_assignment left: (identifier) right: [(list) (tuple) (dictionary)]) @assign.augmented
(assignment left: (identifier) right: [(subscript) (call function: (subscript))]) @take.item
"""

_query = None  # tree_sitter.Query, built on first use in each process (Query objects do not pickle)


def _compiled_query():
    global _query
    if _query is None:
        import tree_sitter_python
        from tree_sitter import Language, Query

        _query = Query(Language(tree_sitter_python.language()), _QUERY_SOURCE)
    return _query


# ---- module paths -------------------------------------------------------------------------------

# Leading directories that conventionally hold packages without being one ("src layout",
# CPython's "Lib/"). Only the first path component is stripped, and only these names.
SOURCE_ROOTS = frozenset({"src", "lib", "Lib"})
_INSTALL_ROOTS = ("site-packages", "dist-packages")
_SUFFIXES = (".pyi", ".py", ".pyw")


def module_path(path: str) -> str:
    """The dotted module a root-relative file path imports as, decided from the path alone.

    ``pkg/sub/mod.py`` -> ``pkg.sub.mod``; ``pkg/__init__.py`` -> ``pkg``. Stripped in front, in
    this order: everything up to a ``site-packages``/``dist-packages`` directory; every directory
    up to the last one whose name is not an identifier (``my-project/pkg/m.py`` -> ``pkg.m``:
    such a directory can only be a sys.path root); then everything up to the last ``src`` directory
    (``core/src/pkg/m.py`` -> ``pkg.m``), or else one leading ``src``, ``lib`` or ``Lib``.
    """
    parts = [p for p in path.replace("\\", "/").split("/") if p and p != "."]
    if not parts:
        return ""
    for marker in _INSTALL_ROOTS:
        if marker in parts[:-1]:
            parts = parts[len(parts) - parts[::-1].index(marker) :]
    for i in range(len(parts) - 2, -1, -1):
        if not parts[i].isidentifier():
            parts = parts[i + 1 :]
            break
    if "src" in parts[1:-1]:
        # A monorepo's `core/src/pkg/m.py`, `plugins/x/src/pkg/m.py`: the src layout one level down.
        parts = parts[len(parts) - 1 - parts[-2::-1].index("src") :]
    elif len(parts) > 1 and parts[0] in SOURCE_ROOTS:
        parts = parts[1:]
    stem = parts[-1]
    for suffix in _SUFFIXES:
        if stem.endswith(suffix):
            stem = stem[: -len(suffix)]
            break
    if stem == "__init__" and len(parts) > 1:
        return ".".join(parts[:-1])
    return ".".join(parts[:-1] + [stem])


def resolve_relative(module: str, is_package: bool, written: str) -> str:
    """``..a`` written in module ``pkg.sub.mod`` -> ``pkg.a``. More dots than packages: what is left."""
    level = len(written) - len(written.lstrip("."))
    rest = written[level:]
    if level == 0:
        return rest
    parts = module.split(".") if module else []
    if not is_package:
        parts = parts[:-1]
    if level > 1:
        parts = parts[: max(0, len(parts) - (level - 1))]
    if rest:
        parts.append(rest)
    return ".".join(parts)


# ---- small text rules ---------------------------------------------------------------------------
# All patterns run over the latin-1 view, hence re.ASCII: a UTF-8 continuation byte seen as
# latin-1 ("\x85", "\xa0") must never count as whitespace. For the same reason strip() is always
# given the ASCII blanks explicitly.

_BLANK = " \t\r\n\f\v"
_NAME_GAP = _BLANK + "\\"  # what may sit between a dot and the attribute name
_UPPER = re.compile(r"_*[A-Z][A-Z0-9_]*", re.ASCII)
_SPACE = re.compile(r"\s+", re.ASCII)
_LINE_BREAK = re.compile(r"\s*\\?\n\s*", re.ASCII)  # a receiver written over lines is joined back
_DEF_NAME = re.compile(r"(?:async\s+)?(?:def|class)\s+([^\s(:\[]+)", re.ASCII)
# A docstring read straight off the text where a body starts; b"" and f"" are not docstrings.
_STRING_OPEN = re.compile(r"[rRuU]{0,2}(\"\"\"|'''|\"|')")
_STATEMENT_END = re.compile(r"[ \t]*(?:[\r\n;#]|$)")
_NEWLINE_ESCAPE = re.compile(r"(?<!\\)(?:\\\\)*\\n")
# ``x = Foo(...)``, ``self.repo: Repo = make()``, ``x: Foo``, ``def f(x: Foo)``.
_ASSIGN_CALL = re.compile(
    r"\s*(self\s*\.\s*)?([A-Za-z_]\w*)\s*(?::\s*([A-Za-z_][\w.]*)\s*)?(?::[^=]*)?=\s*([A-Za-z_][\w.]*)\s*\(",
    re.ASCII,
)
# The annotation is taken whole (up to a default's `=`) and read by _annotated_class.
_ASSIGN_TYPED = re.compile(r"\s*(self\s*\.\s*)?([A-Za-z_]\w*)\s*:\s*([^=\n]+?)\s*(?:=|$)", re.ASCII)
_PARAM_TYPE = re.compile(r"\s*([A-Za-z_]\w*)\s*:\s*([^=\n]+?)\s*(?:=|$)", re.ASCII)
_DOTTED = re.compile(r"[A-Za-z_][\w.]*", re.ASCII)
_OPTIONAL = re.compile(r"(?:typing\.|t\.)?Optional\[(.*)\]", re.ASCII | re.DOTALL)
_UNION = re.compile(r"(?:typing\.|t\.)?Union\[(.*)\]", re.ASCII | re.DOTALL)
_NONE = frozenset(("None", "'None'", '"None"', "NoneType", "types.NoneType"))
_FIRST_PARAM = re.compile(r"\(\s*([A-Za-z_]\w*)", re.ASCII)
_ATTRIBUTE_TARGET = re.compile(r"([A-Za-z_]\w*)\s*\.\s*([A-Za-z_]\w*)\s*[:=]", re.ASCII)

RECEIVER_MAX = 200
SIGNATURE_SCAN = 2 * SIGNATURE_MAX  # bytes of a long statement worth reading for its signature
DOC_SCAN = 1000  # bytes of a docstring worth reading for its summary
SUMMARY_MAX = 240  # characters: a first sentence running on longer than this is cut at a line end
# A first line that is only a call signature: ``renames(old, new)``, ``f(x) -> (data, list of``.
_CALL_SIGNATURE = re.compile(
    r"[A-Za-z_][\w.]*\([^()]*(?:\([^()]*\)[^()]*)*\)(?:\s*->\s*[\w.\[\](), ]*)?$|[A-Za-z_][\w.]*\([^)]*$"
)
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)")
_SENTENCE_ENDS = (".", "!", "?")
_ELLIPSIS = "…".encode().decode("latin-1")  # "…" in the latin-1 view
_END = 1 << 62  # past the end of any file
# The most different values a parameter's calls in its own file are followed to (as
# codecairn.index.passed.MAX_VALUES for calls from other modules): more is a dispatcher.
SEVERAL_MAX = 4

# Decorators that are also modifiers, matched on the last dotted component so that
# ``@abc.abstractmethod`` and ``@functools.cached_property`` count too.
_DECORATOR_MODIFIERS = {
    "property": ("property",),
    "cached_property": ("property",),
    "setter": ("property",),
    "getter": ("property",),
    "deleter": ("property",),
    "staticmethod": ("staticmethod",),
    "classmethod": ("classmethod",),
    "abstractmethod": ("abstract",),
    "abstractproperty": ("abstract", "property"),
    "abstractclassmethod": ("abstract", "classmethod"),
    "abstractstaticmethod": ("abstract", "staticmethod"),
    "overload": ("overload",),
    "deprecated": ("deprecated",),  # PEP 702's warnings.deprecated, typing_extensions.deprecated
}
# ``warnings.warn(..., DeprecationWarning)`` (or ``warnings._deprecated(...)``, PEP 594's dead
# batteries) as a statement of a body, not inside an ``if``: the module, class or function warns
# whenever it is used, so it is deprecated (a "deprecated" modifier on that symbol).
_DEPRECATION_CALLS = frozenset({"warn", "_deprecated"})
# Tk calls a widget's command when it is used and its scroll commands as it scrolls; after() and
# protocol() handlers when their time or event comes.
_TK_COMMANDS = ("command", "xscrollcommand", "yscrollcommand")
_TK_WIDGETS = ("Button", "Checkbutton", "Radiobutton", "Scale", "Scrollbar", "OptionMenu", "Spinbox")
_TK_SCROLLED = ("Listbox", "Text", "Canvas", "Entry", "Treeview", "Combobox")
# An event's handler: `widget.bind("<Escape>", self.close)`, `bind_class(cls, "<Key>", f)`; only when
# the argument before it reads as a Tk event sequence ("<...>": `signature.bind(a, b)` is no binding).
_TK_BINDERS = {"bind": 1, "bind_all": 1, "bind_class": 2, "tag_bind": 2}
# Functions of the standard library that call a function they are given, before they are done
# with it (`sorted(names, key=_order)` calls _order, `map(parse, lines)` parse as it is iterated)
# or later, on behalf of the code that handed it over (`threading.Thread(target=self._run)` once
# started, `atexit.register(close)` at exit, `loop.call_soon(tick)`, `self.addCleanup(remove,
# path)`). name -> (modules it comes from; None for a method of any receiver, for names only the
# standard library's callers use), positions of the argument it calls, keywords that pass it.
_CALLBACK_TAKERS: dict[str, tuple[tuple[str, ...] | None, tuple[int, ...], tuple[str, ...]]] = {
    "map": (("builtins",), (0,), ()),
    "filter": (("builtins",), (0,), ()),
    "sorted": (("builtins",), (), ("key",)),
    "min": (("builtins",), (), ("key",)),
    "max": (("builtins",), (), ("key",)),
    "reduce": (("functools",), (0,), ()),
    "starmap": (("itertools",), (0,), ()),
    "filterfalse": (("itertools",), (0,), ()),
    "takewhile": (("itertools",), (0,), ()),
    "dropwhile": (("itertools",), (0,), ()),
    "groupby": (("itertools",), (), ("key",)),
    "accumulate": (("itertools",), (1,), ("func",)),
    "nsmallest": (("heapq",), (), ("key",)),
    "nlargest": (("heapq",), (), ("key",)),
    "merge": (("heapq",), (), ("key",)),
    "Thread": (("threading",), (1,), ("target",)),
    "Timer": (("threading",), (1,), ("function",)),
    "Process": (("multiprocessing",), (1,), ("target",)),
    "register": (("atexit", "codecs"), (0,), ()),
    "rmtree": (("shutil",), (2,), ("onerror", "onexc")),
    "walk": (("os",), (2,), ("onerror",)),
    "signal": (("signal",), (1,), ("handler",)),
    "finalize": (("weakref",), (1,), ()),
    "settrace": (("sys", "threading"), (0,), ()),
    "setprofile": (("sys", "threading"), (0,), ()),
    "sort": (None, (), ("key",)),
    "call_soon": (None, (0,), ()),
    "call_soon_threadsafe": (None, (0,), ()),
    "call_later": (None, (1,), ()),
    "call_at": (None, (1,), ()),
    "run_in_executor": (None, (1,), ()),
    "add_done_callback": (None, (0,), ()),
    "add_reader": (None, (1,), ()),
    "add_writer": (None, (1,), ()),
    "add_signal_handler": (None, (1,), ()),
    "addCleanup": (None, (0,), ()),
    **dict.fromkeys(_TK_WIDGETS + _TK_SCROLLED, (("tkinter", "tkinter.ttk"), (), _TK_COMMANDS)),
    **dict.fromkeys(("add_command", "add_checkbutton", "add_radiobutton"), (None, (), ("command",))),
    **dict.fromkeys(("configure", "config"), (None, (), _TK_COMMANDS)),
    "after": (None, (1,), ()),
    "after_idle": (None, (0,), ()),
    "protocol": (None, (1,), ()),
    **{name: (None, (position,), ()) for name, position in _TK_BINDERS.items()},
}
_TAKER_ENDINGS = frozenset(name[-3:] for name in _CALLBACK_TAKERS)
_BUILTIN_NAMES = frozenset(dir(builtins))
_DEFINITIONS = frozenset({"function_definition", "class_definition"})
_ABSTRACT_BASES = frozenset({"ABC", "abc.ABC", "ABCMeta", "abc.ABCMeta"})

# Statements whose blocks still belong to the enclosing module or class scope.
_COMPOUND = frozenset(
    {
        "if_statement",
        "for_statement",
        "while_statement",
        "try_statement",
        "with_statement",
        "match_statement",
        "case_clause",
        "elif_clause",
        "else_clause",
        "except_clause",
        "except_group_clause",
        "finally_clause",
        "block",
        "ERROR",
    }
)
_TARGET_LISTS = frozenset({"pattern_list", "tuple_pattern", "list_pattern"})
_NOT_VARIABLES = frozenset({"__all__", "__slots__"})
_SELF_NAMES = frozenset({"self", "cls"})

# (where, positional names, keyword-only names, *args name, **kwargs name) of a def's parameters.
_Parameters = tuple[int, list[str], list[str], str, str]
_new = tuple.__new__  # builds a NamedTuple without its Python-level __new__ (this runs ~10^5 times)


_BY_START, _BY_END = attrgetter("start_byte"), attrgetter("end_byte")
# In what a container holds (_FileExtraction.containers), indexes and keys are strings; under this
# int a list's length, where an append lands; under None what a loop over it gives.
_LENGTH = 0
_LITERAL_NODES = frozenset({"list", "tuple", "dictionary"})
NESTED_LITERALS = 2  # literals inside a container's literal followed this many levels down
CHOICE_DEPTH = 6  # conditionals, `or`s and parentheses nested in what a name is given (_choices)
RETURN_CHAIN_MAX = 3  # calls of calls followed through returned functions (`outer()()()`: _call_value)


_APPENDED_NAME = re.compile(r"(?<![\w.])([A-Za-z_]\w*)\Z")  # the name just before ".append("
_NAME_NODES = frozenset(("identifier", "attribute"))
# Statements after which a block's code does not go on to what follows it (an `if not
# isinstance(x, A): raise ...` guard narrows x below it).
_LEAVING_STATEMENTS = frozenset(("raise_statement", "return_statement", "continue_statement", "break_statement"))
# `handlers[0]`, `table["a"]`, `kinds["a"]()` as a receiver: the container, the key, a call of the item
_ITEM_RECEIVER = re.compile(r"([A-Za-z_]\w*)\[\s*(-?\d+|'[\w.-]*'|\"[\w.-]*\")\s*\](\(\))?")
_SUBSCRIPT_ENDS = frozenset("])")
# `name = kinds["a"]()`, `name = handlers[0]` (the item as _ITEM_RECEIVER reads it) or `name = boxes.pop(...)`
_TAKEN = re.compile(
    r"([A-Za-z_]\w*)\s*=\s*(?:([A-Za-z_]\w*\[\s*(?:-?\d+|'[\w.-]*'|\"[\w.-]*\")\s*\](?:\(\))?)"
    r"|([A-Za-z_]\w*)\.pop\(\s*-?\d*\s*\))",
    re.ASCII,
)
_RETURNED_LITERALS = frozenset(("tuple", "expression_list", "list", "dictionary"))
_HOLDING_KINDS = frozenset(("variable", "constant", "field"))  # symbols a value is assigned to
_COMPREHENSIONS = frozenset(("generator_expression", "list_comprehension", "set_comprehension"))
_LITERAL = "#"  # an argument's value that is a list or dict literal: "#" + where it starts


def _list_order(item: tuple) -> tuple[int, int]:
    key = item[0]
    return (0, int(key)) if key.__class__ is str and key.isdigit() else (1, 0)


def _moved(held: dict, by: int) -> dict:
    """A list literal's indexes (plain and nested) moved ``by`` up: where its items land when it is
    spread or extended into a list of that length."""
    moved: dict = {}
    for k, v in held.items():
        if k.__class__ is str:
            moved[str(int(k) + by)] = v
        elif k.__class__ is tuple:
            moved[(str(int(k[0]) + by),)] = v
    return moved


def _from_start(held: dict, key: str) -> str:
    """``key`` of a list counted from its end (``-1``) as from its start, when its length is known."""
    if key[:1] == "-" and key[1:].isdigit():
        length = held.get(_LENGTH)
        return str(length - int(key[1:])) if length is not None and int(key[1:]) <= length else ""
    return key


def _string_key(literal: str) -> str:
    """The key a string literal (quotes included) is held under: its text, marked when it spells a
    number (`"1"`), which is another key than the number 1 (held as a list's index is: "1")."""
    text = literal[1:-1]
    return "'" + text if text.lstrip("-").isdigit() else text


def _keyed(held: dict, key: str) -> Any:
    """What a container holds under ``key``; a dict comprehension's values under any key."""
    found = held.get(_from_start(held, key), "")
    return found if found or _ANY_KEY not in held else held[_ANY_KEY]


# How a line of a def's body binds a name (_binds_on_line): a target of an assignment at the line's
# start (`x = `, `x: T = `, `a, (b, *c) = `, `x += `), a loop's target, `x := `, `as x`, an import.
_ASSIGNED = re.compile(
    r"^[ \t]*(?P<targets>[\w.\[\]'\"*(), \t]+?)[ \t]*(?::(?!=)[^\n=]*)?(?P<op>[-+*/%&|^@<>]*=)(?!=)",
    re.MULTILINE,
)
_LOOPED = re.compile(r"^[ \t]*(?:async[ \t]+)?for[ \t]+([^\n]*?)[ \t]+in\b", re.MULTILINE)
_WALRUS = re.compile(r"([A-Za-z_]\w*)[ \t]*:=")
_AS = re.compile(r"\bas[ \t]+([A-Za-z_]\w*)")
_IMPORTED = re.compile(r"^[ \t]*(?:from[ \t]+\S+[ \t]+)?import[ \t]+([^\n#;]*)", re.MULTILINE)
_TARGET_NAME = re.compile(r"[A-Za-z_]\w*")
_RETURN_SELF = re.compile(r"\breturn[ \t]+self[ \t]*(?:#[^\n]*)?$", re.MULTILINE)


def _target_names(targets: str, into: set[str]) -> None:
    for part in targets.split(","):
        part = part.strip(" \t()[]*")
        if part.isidentifier():
            into.add(part)


def _binds_in(text: str, start: int, end: int, var: str, root) -> bool:
    """Whether ``text[start:end]`` (a def's body) binds ``var`` and does not declare it global or
    nonlocal. Only the lines that hold the name are read (a scan of every line cost more than the
    rest of the extraction's scope work), and of those only code (the tree under ``root`` says
    what is a string or a comment: a subprocess script's `import x`). A keyword argument on a line
    of its own (`    title=title,`) is no binding: it has no space before `=`."""
    bound = declared = False
    at, size = text.find(var, start, end), len(var)
    while at >= 0:
        after = at + size
        before_ok = at == 0 or not (text[at - 1].isalnum() or text[at - 1] in "_.")
        if before_ok and (after >= len(text) or not (text[after].isalnum() or text[after] == "_")):
            line_start = max(text.rfind("\n", start, at) + 1, start)
            line_end = text.find("\n", at, end)
            line = text[line_start : line_end if line_end >= 0 else end]
            word = line.lstrip()[:9]
            if word.startswith(("global ", "nonlocal ")):
                declared = declared or (var in _TARGET_NAME.findall(line) and _is_code(root, at, after))
            elif not bound and (
                "=" in line[after - line_start :]  # an assignment's target comes before its `=`
                or word.startswith(("for ", "async ", "import ", "from "))
                or " as " in line
            ):
                bound = _binds_on_line(line, var) and _is_code(root, at, after)
            at = text.find(var, line_end, end) if line_end >= 0 else -1
        else:
            at = text.find(var, after, end)
    return bound and not declared


def _is_code(root, start: int, end: int) -> bool:
    """Whether the name at ``start:end`` is code, not text in a string or a comment."""
    node = root.descendant_for_byte_range(start, end)
    return node is None or node.type not in _NOT_CODE


_NOT_CODE = frozenset(("string", "string_content", "string_start", "string_end", "comment"))


def _binds_on_line(line: str, var: str) -> bool:
    """Whether ``line`` binds ``var``: as an assignment's target, a loop's, `var :=`, `as var`, an import."""
    m = _ASSIGNED.match(line)
    if m is not None and (m.group("op") != "=" or line[m.start("op") - 1] in " \t"):
        names: set[str] = set()
        _target_names(m.group("targets"), names)
        if var in names:
            return True
    m = _LOOPED.match(line)
    if m is not None:
        names = set()
        _target_names(m.group(1), names)
        if var in names:
            return True
    if ":=" in line and var in _WALRUS.findall(line):
        return True
    if " as " in line and var in _AS.findall(line):
        return True
    m = _IMPORTED.match(line)
    if m is not None:
        for part in m.group(1).strip(" ()\\").split(","):
            words = part.split()
            if words and var == (words[-1] if len(words) == 3 and words[1] == "as" else words[0].split(".")[0]):
                return True
    return False


def _chained(assignment) -> list:
    """The targets written before ``assignment`` in a chain (`a = b = first`: a, for b's)."""
    targets = []
    node, outer = assignment, assignment.parent
    while outer is not None and outer.type == "assignment":
        right = outer.child_by_field_name("right")
        if right is None or right.start_byte != node.start_byte or right.end_byte != node.end_byte:
            break
        if (left := outer.child_by_field_name("left")) is not None:
            targets.append(left)
        node, outer = outer, outer.parent
    return targets


def _in_source_order(nodes) -> list:
    """Source order; of nodes that start together (a call chain and the calls in its receiver),
    the outermost first. Two sorts by C-level keys, the second stable: less than half the time of
    one sort by a Python function, over the ~5·10^5 nodes of CPython's Lib."""
    ordered = sorted(nodes, key=_BY_END, reverse=True)
    ordered.sort(key=_BY_START)
    return ordered


def _unquoted(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1].strip()
    return text


def _annotated_class(annotation: str) -> str:
    """The one class an annotation says a name holds, or "": ``Foo``, ``mod.Foo``, ``"Foo"`` (a
    forward reference), ``Optional[Foo]``, ``Foo | None``, ``Union[Foo, None]``. A union of
    several classes or a generic (``list[Foo]``) names no one receiver type: "" rather than a guess."""
    named = _annotated_classes(annotation)
    return named[0] if len(named) == 1 else ""


def _annotated_classes(annotation: str) -> list[str]:
    """The classes an annotation says a name may hold (``Union[A, B]``, ``A | B | None``, one for
    ``Optional[A]``); [] when a part is no dotted name (a generic, a literal)."""
    text = _unquoted(annotation)
    if (m := _OPTIONAL.fullmatch(text)) is not None:
        parts = [m.group(1)]
    elif (m := _UNION.fullmatch(text)) is not None:
        parts = m.group(1).split(",")
    else:
        parts = text.split("|")
    kept = [part for part in map(_unquoted, parts) if part not in _NONE]
    if not all(_DOTTED.fullmatch(part) for part in kept):
        return []
    return list(dict.fromkeys(kept))


_GENERIC_PREFIX = r"(?:typing\.|collections\.abc\.|collections\.)?"
# `list[Item]`, `Sequence["Item"]`, `Iterator[Item]`, `tuple[Item, ...]`: a loop takes Items.
_ITEMS_OF = re.compile(
    _GENERIC_PREFIX + r"(?:list|List|Sequence|MutableSequence|Iterable|Iterator|Collection|Generator|set|Set|frozenset|"
    r"FrozenSet|AbstractSet|MutableSet|deque|Deque)\[\s*['\"]?([A-Za-z_][\w.]*)['\"]?\s*(?:,[^\[\]]*)?\]"
    r"|" + _GENERIC_PREFIX + r"(?:tuple|Tuple)\[\s*['\"]?([A-Za-z_][\w.]*)['\"]?\s*,\s*\.\.\.\s*\]",
    re.ASCII,
)
# `dict[str, Item]`, `Mapping[str, "Item"]`: its values() and items() give Items.
_VALUES_OF = re.compile(
    _GENERIC_PREFIX + r"(?:dict|Dict|Mapping|MutableMapping|OrderedDict|defaultdict|DefaultDict)"
    r"\[\s*[\w.'\"]+\s*,\s*['\"]?([A-Za-z_][\w.]*)['\"]?\s*\]",
    re.ASCII,
)


# `list[Item]`, `typing.Dict[str, Item]`: the built-in container it is (its own methods are builtins').
_BUILTIN_GENERIC = re.compile(r"(?:typing\.)?(list|List|dict|Dict|set|Set|frozenset|FrozenSet)\[", re.ASCII)


def _element_class(annotation: str) -> tuple[str, str] | None:
    """("items", Item) for a container annotation whose items are Items (``list[Item]``),
    ("values", Item) for a mapping to Items (``dict[str, Item]``); None for anything else."""
    text = _unquoted(annotation)
    if (m := _ITEMS_OF.fullmatch(text)) is not None:
        return "items", m.group(1) or m.group(2)
    if (m := _VALUES_OF.fullmatch(text)) is not None:
        return "values", m.group(1)
    return None


# What a literal on the right of `x = ...` makes x: a built-in type (the resolver names its methods
# as external calls, `builtins.list.append`).
_LITERAL_TYPES = {
    "list": "list",
    "list_comprehension": "list",
    "dictionary": "dict",
    "dictionary_comprehension": "dict",
    "set": "set",
    "set_comprehension": "set",
    "string": "str",
    "concatenated_string": "str",
}
# Built-in types whose call makes one of them (`x = dict(a=1)`, `buf = bytearray()`).
_SUPER_INIT = "super().__init__"
_CLASS_OF_SELF = frozenset(("type(self)", "self.__class__"))
_SELF_TYPES = frozenset(("Self", "typing.Self", "typing_extensions.Self"))
_PARTIALS = frozenset(("partial", "functools.partial"))
_SLICE = re.compile(r"\s*(-?\d+)?\s*:\s*(-?\d+)?\s*", re.ASCII)  # `[1:]`, `[:-1]`: no step
_PARTIAL_LENGTHS = frozenset(len(p) for p in _PARTIALS)
_BUILTIN_CONSTRUCTORS = frozenset(("list", "dict", "set", "frozenset", "tuple", "str", "bytes", "bytearray"))
_ASSIGN_TARGET = re.compile(r"\s*(self\s*\.\s*)?([A-Za-z_]\w*)\s*=", re.ASCII)
_BYTES_PREFIX = re.compile(r"[rRuUfF]?[bB]", re.ASCII)


_DOTTED_NAME = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*", re.ASCII)


def _one_or_all(values: list[str]) -> str | tuple[str, ...]:
    """A container's value under a key: one, or a tuple of those it may be."""
    return values[0] if len(values) == 1 else tuple(values)


def _unparenthesized(node):
    """The expression inside any number of parentheses (`((first))`: first)."""
    while node.type == "parenthesized_expression" and node.named_child_count == 1:
        node = node.named_children[0]
    return node


def _one_call(receiver: str) -> str:
    """The name a receiver calls when it is one call of a plain name (`make()`, `make(a, (b))`)."""
    head, paren, arguments = receiver.partition("(")
    if not paren or not _DOTTED_NAME.fullmatch(head):
        return ""
    depth = 1
    for ch in arguments[:-1]:
        depth += (ch == "(") - (ch == ")")
        if depth < 1:
            return ""
    return head if depth == 1 else ""


def _call_chain(receiver: str) -> str:
    """``a.f(1).g(x, (y))`` as ``a.f().g()`` when the receiver is calls of dotted names one on
    another (at least two), "" otherwise: what the resolver follows, returns edge by returns edge."""
    out, at, end, calls = [], 0, len(receiver), 0
    while at < end:
        m = _DOTTED_NAME.match(receiver, at)
        if m is None or m.end() >= end or receiver[m.end()] != "(":
            return ""
        out.append(m.group())
        depth, at = 0, m.end()
        while at < end:  # past the balanced argument list
            depth += (receiver[at] == "(") - (receiver[at] == ")")
            at += 1
            if depth == 0:
                break
        if depth:
            return ""
        out.append("()")
        calls += 1
        if at < end:
            if receiver[at] != ".":
                return ""
            out.append(".")
            at += 1
    return "".join(out) if calls > 1 else ""


def _result_called(receiver: str) -> str:
    """The name whose call's result is called in ``receiver`` (``kind()()``, ``kind(1)(x)``), or ""."""
    if receiver[-1:] != ")":
        return ""
    depth, at = 0, len(receiver)
    while at > 0:  # back to the "(" that opens the last argument list
        at -= 1
        depth += (receiver[at] == ")") - (receiver[at] == "(")
        if depth == 0:
            break
    return _one_call(receiver[:at]) if depth == 0 else ""


def _made_method(function, text: Callable) -> str:
    """``Order().payer`` (a method of an instance just made) as ``Order.payer``; "" otherwise."""
    if function is None or function.type != "attribute":
        return ""
    obj, attribute = function.child_by_field_name("object"), function.child_by_field_name("attribute")
    made = _one_call(text(obj)) if obj is not None and obj.type == "call" and attribute is not None else ""
    return f"{made}.{text(attribute)}" if made and _is_type_name(made) else ""


def _bound(returned: str) -> str:
    """``self.pay`` (returned: a bound method) as ".pay"; "" for anything else."""
    head, dot, name = returned.partition(".")
    return "." + name if head == "self" and name.isidentifier() else ""


def _dotted(text: str) -> str:
    """``text`` when it is a plain dotted name (``first``, ``order.pay``), else ""."""
    return text if _DOTTED_NAME.fullmatch(text) else ""


def _is_type_name(dotted: str) -> bool:
    """A constructor-looking callee: its last component is capitalised (``Foo``, ``mod.Foo``)."""
    last = dotted.rfind(".") + 1
    return dotted[last : last + 1].isupper()


def _doc_line(text: str, begin: int, end: int, raw: bool = False) -> str:
    """A docstring's summary, as written: its first line, carried on through the lines of its
    paragraph when it stops mid-sentence (``Parse a URL into 5 components:`` / ``<scheme>://…``)
    up to the end of that sentence, as a javadoc summary is its first sentence. A first line that
    only repeats the call signature (``makedirs(name [, mode=0o777])``, old C-style docstrings)
    gives way to the next paragraph. Escapes are kept, except that a ``\\n`` escape ends the
    summary as it would end the line in the evaluated string."""
    lines = text[begin:end].lstrip(_BLANK).split("\n")
    line = lines[0]
    if not raw and "\\" in line:
        cut = _NEWLINE_ESCAPE.split(line, 1)
        if len(cut) > 1:
            return cut[0].strip(_BLANK)
    at = 0
    if _CALL_SIGNATURE.match(line.strip(_BLANK)):
        blank = next((i for i in range(1, len(lines) - 1) if not lines[i].strip(_BLANK)), None)
        start = next((i for i in range(blank + 1, len(lines)) if lines[i].strip(_BLANK)), None) if blank else None
        if start is not None:
            at = start
    summary = lines[at].strip(_BLANK)
    for more in lines[at + 1 :]:
        more = more.strip(_BLANK)
        if summary.endswith(_SENTENCE_ENDS) or not more or more.startswith(">>>") or len(summary) > SUMMARY_MAX:
            break
        end_of_sentence = _SENTENCE_END.search(more)
        summary = f"{summary} {more[: end_of_sentence.start() + 1] if end_of_sentence else more}"
        if end_of_sentence:
            break
    if not raw and "\\" in summary:
        summary = _NEWLINE_ESCAPE.split(summary, 1)[0].strip(_BLANK)
    return summary


def _utf8(value: str) -> str:
    return value if value.isascii() else value.encode("latin-1").decode("utf-8", "replace")


def _recoded(items: list) -> list:
    """Facts whose strings were cut from the latin-1 view, as proper text."""
    out = []
    for item in items:
        for value in item:  # nearly every fact of such a file is ASCII all through: kept as it is
            if value.__class__ is str:
                if not value.isascii():
                    break
            elif value.__class__ is tuple and not all(map(str.isascii, value)):
                break
        else:
            out.append(item)
            continue
        fields = []
        for value in item:
            if value.__class__ is str:
                value = _utf8(value)
            elif value.__class__ is tuple:
                value = tuple(map(_utf8, value))
            fields.append(value)
        out.append(_new(type(item), tuple(fields)))
    return out


# ---- the extractor ------------------------------------------------------------------------------


def extract(source: bytes, tree, path: str) -> FileFacts:
    """Facts of one Python file. Pure: depends only on its arguments."""
    return _FileExtraction(source, tree, path).run()


class _FileExtraction:
    """The state of extracting one file; thrown away afterwards."""

    def __init__(self, source: bytes, tree, path: str) -> None:
        self.tree = tree
        self.text = source.decode("latin-1")
        self.real_module = module_path(path)
        self.module = self.real_module.encode().decode("latin-1")
        # Strings must be recoded at the end unless source and path are plain ASCII.
        self.recode = not (source.isascii() and self.real_module.isascii())
        # What marks a cut string: in an ASCII file the latin-1 view is the text itself, so the
        # real "…" goes in as it is and nothing is recoded (a third of CPython's files cut one).
        self.ellipsis = _ELLIPSIS if self.recode else "…"
        self.is_package = path.replace("\\", "/").rpartition("/")[2].startswith("__init__.")
        self.symbols: list[Symbol] = []
        self.relations: list[Relation] = []
        self.imports: list[Import] = []
        # Per symbol index: is it a class, and its parent (scope rules and "method" need both).
        self.is_class: list[bool] = []
        self.parents: list[int] = []
        # Names bound directly in a scope (-1 = module): a variable never repeats a def's name.
        self.scope_names: dict[int, set[str]] = {}
        # What syntax says about types: scope -> var -> [(byte, type)]; class -> field -> type.
        self.local_types: dict[int, dict[str, list[tuple[int, str]]]] = {}
        self.field_types: dict[int, dict[str, str]] = {}
        self.typed_names: set[str] = set()
        # Containers an annotation types (`items: list[Item]`, `table: dict[str, Item]`): scope ->
        # var -> [(byte, ("items" or "values", the class))], for loops over them and their items.
        self.element_types: dict[int, dict[str, list[tuple[int, tuple[str, str]]]]] = {}
        self.field_elements: dict[int, dict[str, tuple[str, str]]] = {}  # class -> field -> the same
        # What a name holds, followed through plain assignments (`b = a`, `h = order.pay`),
        # default values and this file's calls of its own functions: scope -> var -> [(byte, dotted)].
        self.local_values: dict[int, dict[str, list[tuple[int, str]]]] = {}
        self.value_names: set[str] = set()
        self.noted_values: set[str] = set()  # every name local_values holds, as it grows
        # What this file's module-level functions return, when it says (`-> Order`, or every
        # `return Order(...)`): function name -> type, FLOWED-marked (it is inferred).
        self.return_types: dict[str, str] = {}
        # Module-level functions whose every return is a function they define: name -> that name.
        self.returned_functions: dict[str, str] = {}
        self.partials: set[str] = set()  # names given a `functools.partial(...)`
        self._one_return: dict[int, Any] = {}  # def -> the value of its one `return` (None: several)
        self.returned_containers: dict[str, dict] = {}  # see _returned_containers
        self._passed: list[tuple[int, str, tuple]] = []  # (def, parameter, container passed: _passed_containers)
        self.container_names: set[str] = set()
        # Functions inside functions whose every return is a function they define (a decorator
        # factory's decorator returning its wrapper): path in the module ("retry.decorator") ->
        # (that name, the function's node).
        self.nested_returns: dict[str, tuple[str, Any]] = {}
        # Module-level functions whose every return is one name of the module (`return first`).
        self.returned_names: dict[str, str] = {}
        self.returned_choices: dict[str, list[str]] = {}  # ...or one of several: name -> those names
        # ...or one of its parameters (`def pick(a, b): return b`): name -> (its index, where its
        # parameters start, the parameter's position or -1 for a keyword-only one, the parameter)
        self.returned_params: dict[str, tuple[int, int, int, str]] = {}
        self.attribute_holders: set[str] = set()  # `box` of `box.f = first` (its attribute holds first)
        self._classes: set[str] | None = None  # _module_classes()
        self._methods_by_class: dict[int, set[str]] | None = None  # _method_names()
        # ...or a literal (`return first, second`): name -> (its index, the literal's node)
        self.returned_literals: dict[str, tuple[int, Any]] = {}
        # What this file's module-level generators yield, when a yield names it: name -> [dotted].
        self.yielded: dict[str, list[str]] = {}
        # `isinstance(x, (A, B))`: (scope, from, to, name, ["A()", "B()"]), made loops (_narrowed_loops)
        self._narrowed_to_several: list[tuple[int, int, int, str, list[str]]] = []
        self._yields_of_locals: list[tuple[int, str, int]] = []  # (function, name, byte) of `yield name`
        # Loops over what the file shows (`for f in (a, b)`, over a container, a generator, *args):
        # scope -> [(start byte, end byte, loop variable, [dotted])]; their variables' names.
        self.loops: dict[int, list[tuple[int, int, str, list[str]]]] = {}
        self.globals_of: dict[int, set[str]] = {}  # function -> the names it declares `global`
        self.loop_names: set[str] = set()
        # Parameters this file's calls pass a few different values (where, name, [dotted]): a call
        # through one calls each, as a loop variable's does (see _several_values).
        self._several: list[tuple[int, str, list[str]]] = []
        # Class attributes that name a function or class (`handler = default_handler`): class -> name -> dotted.
        self.field_values: dict[int, dict[str, str | tuple[str, ...]]] = {}
        # Attributes set from a parameter nothing here binds (`self._target = target` in
        # __init__): class -> name -> the parameter's PARAMETER mark + ":" + its def's qualified
        # name, for `self._target()`: what other modules' calls pass that def (model.PARAMETER).
        self.field_params: dict[int, dict[str, str]] = {}
        # Containers of names with literal indexes: scope -> var -> [(byte, {index or key: dotted})].
        self.containers: dict[int, dict[str, list[tuple[int, dict]]]] = {}
        # start byte -> a list or dict literal passed to a call (or what a container name passed holds)
        self.literal_arguments: dict[int, Any] = {}
        self.def_spans: list[tuple[int, int, int]] = []  # (start byte, end byte, symbol index)
        self.bodies: dict[int, tuple[int, int]] = {}  # def's symbol index -> its body's (start, end) byte
        self._binding: dict[tuple[int, str], bool] = {}  # (def, name) -> does the def bind the name
        self.callback_starts: set[int] = set()  # start bytes of functions passed to be called (_callbacks)
        self.named_bases: list[tuple[int, int, int]] = []  # (relation index, class, byte) of `class A(B)`
        self.lambda_scopes = False  # named lambdas added spans after the scopes were indexed
        self.import_sources: dict[str, str] = {}  # local name -> absolute module it came from
        self.star_sources: set[str] = set()  # modules imported with `from m import *`
        self.module_lambdas: list[tuple[str, Any]] = []  # (name, parameters) of `name = lambda ...`
        # (symbol index, name, parameters) of `name = lambda ...: name`
        self.lambda_returns: list[tuple[int, str, Any]] = []
        self._defs: set[str] | None = None
        self._function_nodes: list[tuple[int, Any]] | None = None  # _indexed()
        self._parameters_of: dict[int, dict[str, str]] = {}  # _parameter()
        self._shadowing: dict[int, frozenset[str]] = {}  # _shadowing_parameters()
        self._variables: dict[str, int] | None = (
            None  # module-level variables by name (_module_instance)  # the module's own functions and classes (_names_code)
        )

    def run(self) -> FileFacts:
        root = self.tree.root_node
        get = QueryCursor(_compiled_query()).captures(root).get
        self._module_symbol(root)
        classes, inits = self._definitions(get("class", ()), get("function", ()), get("decorated", ()))
        self._scope_index()
        all_names, all_line = self._module_variables(root)
        for class_index, body in classes:
            self._class_variables(class_index, body)
        self._init_fields(inits, get("assign.attribute", []))
        if self.lambda_scopes:  # outer spans first where two start together
            self.def_spans.sort(key=lambda span: (span[0], -span[1]))
            self._scope_index()
        self._imports(get("import", ()))
        self._declared_global(get("global", ()))
        self._return_types(get("function", ()), get("return", ()), get("yield", ()))
        self._receiver_types(
            get("assign.call", ()),
            get("assign.typed", ()),
            get("param.typed", ()),
            get("assign.literal", ()),
            get("except.as", ()),
            get("with.as", ()),
            get("narrowed", ()),
        )
        self.container_names = {  # names given a list, tuple or dict literal somewhere (_argument_value)
            self._text(left) for node in get("assign.container", ()) if (left := node.child_by_field_name("left"))
        }
        self._values(
            list(get("assign.ref", ())) + list(get("assign.walrus", ())),
            get("assign.unpack", ()),
            get("param.default", ()),
            get("function", ()),
            get("call", ()),
            get("decorated", ()),
            get("assign.choice", ()),
        )
        self._late_returns()
        self._aliased_bases()
        self._attribute_values(get("assign.attribute", ()))
        self._containers(get("assign.container", ()), get("assign.item", ()), get("assign.augmented", ()))
        self._returned_containers(get("assign.call", ()))
        self._passed_containers()
        self._loops(get("for", ()))
        self._iteration(get("for", ()))
        self._narrowed_loops()
        self._global_choices()
        text = self.text
        self._taken(
            [
                *get("take.item", ()),
                *(n for n in get("assign.call", ()) if text.find(".pop(", n.start_byte, n.end_byte) > 0),
            ]
        )
        self._held_returns()
        raised = [node for node in get("raise.class", ()) if self._makes_raised(node)]
        # `(first)()`, `(box.handle)()`: the name in the parentheses is called
        bracketed = [n for n in map(_unparenthesized, get("call.parenthesized", ())) if n.type in _NAME_NODES]
        callbacks = self._callbacks(get("call", ()))
        self._calls(
            get("call", [])
            + list(get("call.subscript", ()))
            + list(get("call.returned", ()))
            + raised
            + bracketed
            + callbacks
        )
        exports = self._exports(all_names, all_line)
        symbols, relations, imports = self.symbols, self.relations, self.imports
        if self.recode:
            symbols, relations = _recoded(symbols), _recoded(relations)
            imports, exports = _recoded(imports), _recoded(exports)
        return FileFacts(
            symbols=symbols,
            relations=relations,
            imports=imports,
            exports=exports,
            module=self.real_module,
            partial=has_errors(self.tree),
            extractor="python",
        )

    def _makes_raised(self, node) -> bool:
        """Whether ``raise Failed`` (``node``: Failed) is a call of the module's or an imported class,
        as `raise Failed()` is (a capitalised name: `raise error` re-raises an instance; `error =
        Refused; raise error` makes what error holds). Not a built-in exception the file does not
        name itself (`raise StopIteration`): raised so, it is no call anyone asks after, and call
        graphs written by hand leave it out."""
        written = made = self._text(node)
        if not _is_type_name(written):
            if written not in self.value_names:
                return False
            made = self._last_before(self.local_values, self._owner(node.start_byte), written, node.start_byte)
            if not _is_type_name(made):
                return False
        elif written in self.value_names:
            return True  # a name given a value here (`Failed = make()`), built-in or not
        return made not in _BUILTIN_NAMES or self._names_code(made)

    # -- shared small steps --

    def _add(self, symbol: Symbol, is_class: bool = False) -> int:
        self.symbols.append(symbol)
        self.is_class.append(is_class)
        self.parents.append(symbol[9])
        return len(self.symbols) - 1

    def _qualify(self, parent: int, name: str) -> str:
        prefix = self.symbols[parent][2] if parent >= 0 else self.module
        return f"{prefix}.{name}" if prefix else name

    def _text(self, node) -> str:
        return self.text[node.start_byte : node.end_byte]

    def _one_line(self, raw: str, cut: bool = False) -> str:
        """Declaration text on one line, at most SIGNATURE_MAX characters."""
        line = _SPACE.sub(" ", uncommented(raw)).strip(_BLANK)
        if cut or len(line) > SIGNATURE_MAX:
            return line[: SIGNATURE_MAX - 1] + self.ellipsis
        return line

    def _claim(self, scope: int, name: str) -> bool:
        """The first binding of a name in a scope wins; a rebinding is not a new symbol."""
        names = self.scope_names.setdefault(scope, set())
        if name in names:
            return False
        names.add(name)
        return True

    # -- the module --

    def _module_symbol(self, root) -> None:
        module = self.module
        end_row, end_col = root.end_point
        if end_col == 0 and end_row > 0:  # past the last line break: the module ends with its last line
            text = self.text
            end_col = len(text) - 1 - (text.rfind("\n", 0, len(text) - 1) + 1)
        else:
            end_row += 1
        doc = self._docstring(root)
        self._add(_new(Symbol, ("module", module.rpartition(".")[2], module, 1, 0, end_row, end_col, "", doc, -1, ())))

    def _docstring(self, block) -> str:
        """First line of the docstring opening ``block`` (a module or a body), asking the tree."""
        if block is None or block.named_child_count == 0:
            return ""
        first = block.named_child(0)
        while first is not None and first.type == "comment":
            first = first.next_named_sibling
        if first is None or first.type != "expression_statement" or first.named_child_count == 0:
            return ""
        string = first.named_child(0)
        if string.type == "concatenated_string":
            string = string.named_child(0)
        if string.type != "string":
            return ""
        m = _STRING_OPEN.match(self.text, string.start_byte)
        if m is None:
            return ""
        end = string.end_byte - len(m.group(1))
        return _doc_line(self.text, m.end(), min(end, m.end() + DOC_SCAN), "r" in m.group(0).lower())

    def _body_doc(self, body) -> str:
        """First line of the docstring opening a def/class body, read off the text when it is
        unambiguous (nearly always), else from the tree."""
        text = self.text
        at = body.start_byte
        if at >= len(text) or text[at] == "#":
            return self._docstring(body)
        m = _STRING_OPEN.match(text, at)
        if m is None:
            return ""
        quote = m.group(1)
        begin = m.end()
        close = text.find(quote, begin)
        if len(quote) == 1:
            while close > 0 and text[close - 1] == "\\":
                close = text.find(quote, close + 1)
        if close < 0 or _STATEMENT_END.match(text, close + len(quote)) is None:
            return self._docstring(body)  # "a" "b", "x".join(...): let the tree say
        return _doc_line(text, begin, min(close, begin + DOC_SCAN), "r" in m.group(0).lower())

    # -- definitions --

    def _definitions(self, class_nodes, function_nodes, decorated_nodes):
        """Every class and def in the file, in source order, nested by byte span."""
        text = self.text
        module = self.module
        symbols, is_class_of, parents = self.symbols, self.is_class, self.parents
        scope_names, def_spans = self.scope_names, self.def_spans
        decorators = self._decorators(decorated_nodes) if decorated_nodes else {}
        items = [(n.start_byte, n.end_byte, True, n) for n in class_nodes]
        items += [(n.start_byte, n.end_byte, False, n) for n in function_nodes]
        items.sort(key=itemgetter(0))
        stack: list[tuple[int, int]] = []  # (end byte, symbol index) of the open definitions
        classes, inits = [], []
        for start, end, is_class, node in items:
            while stack and stack[-1][0] <= start:
                stack.pop()
            parent = stack[-1][1] if stack else -1
            m = _DEF_NAME.match(text, start)
            if m is not None:
                name = m.group(1)
            else:  # something odd between keyword and name (error recovery): ask the tree
                name_node = node.child_by_field_name("name")
                if name_node is None:
                    continue
                name = self._text(name_node)
            body = node.child_by_field_name("body")
            raw = text[start : self._header_end(node, start, body)]
            if len(raw) <= SIGNATURE_MAX and "\n" not in raw and "  " not in raw and "\t" not in raw:
                sig = raw.rstrip(" ")  # the usual one-line header: nothing to tidy
            else:
                sig = self._one_line(raw)
            doc = self._body_doc(body) if body is not None else ""
            if is_class:
                kind = "class"
            elif parent >= 0 and is_class_of[parent]:
                kind = "method"
            else:
                kind = "function"
            modifiers = decorators.get(start, ())
            if modifiers:
                modifiers = _with_decorator_modifiers(modifiers)
            if not is_class and text[start] == "a":  # async def
                modifiers = ("async",) + modifiers
            prefix = symbols[parent][2] if parent >= 0 else module
            s_row, s_col = node.start_point
            e_row, e_col = node.end_point
            index = len(symbols)
            symbols.append(
                _new(
                    Symbol,
                    (
                        kind,
                        name,
                        f"{prefix}.{name}" if prefix else name,
                        s_row + 1,
                        s_col,
                        e_row + 1,
                        e_col,
                        sig,
                        doc,
                        parent,
                        modifiers,
                    ),
                )
            )
            is_class_of.append(is_class)
            parents.append(parent)
            names = scope_names.get(parent)
            if names is None:
                scope_names[parent] = {name}
            else:
                names.add(name)
            if is_class:
                self._bases(index, node)
                if body is not None:
                    classes.append((index, body))
            elif kind == "method" and name == "__init__":
                inits.append((index, node))
            if not is_class and body is not None:
                self.bodies[index] = (body.start_byte, end)
            stack.append((end, index))
            def_spans.append((start, end, index))
        return classes, inits

    def _header_end(self, node, start: int, body) -> int:
        """Where ``def f(a) -> int`` / ``class A(B)`` ends: at the colon that opens the body."""
        text = self.text
        if body is not None:
            # Usually the last colon before the body; a comment on the header's line could hold
            # another one, so then ask the tree.
            body_start = body.start_byte
            colon = text.rfind(":", start, body_start)
            if colon >= 0:
                line_start = text.rfind("\n", start, colon) + 1 or start
                if "#" not in text[line_start:body_start]:
                    return colon
        for field in ("return_type", "parameters", "superclasses", "name"):
            part = node.child_by_field_name(field)
            if part is not None:
                return part.end_byte
        return start

    def _decorators(self, decorated_nodes) -> dict[int, tuple[str, ...]]:
        """Start byte of a decorated def/class -> ("@name", ...) as written, without call args."""
        text = self.text
        result = {}
        for node in decorated_nodes:
            definition = node.child_by_field_name("definition")
            if definition is None:
                continue
            names = []
            for child in node.named_children:
                if child.type == "decorator":
                    raw = text[child.start_byte + 1 : child.end_byte].partition("(")[0]
                    names.append("@" + _SPACE.sub("", raw))
            result[definition.start_byte] = tuple(names)
        return result

    def _bases(self, class_index: int, node) -> None:
        """``class A(B, m.C, Generic[T], metaclass=M)`` extends B, m.C and Generic."""
        arguments = node.child_by_field_name("superclasses")
        if arguments is None:
            return
        abstract = False
        for base in arguments.named_children:
            kind = base.type
            if kind == "subscript":
                base = base.child_by_field_name("value")
                kind = base.type if base is not None else ""
            if kind == "keyword_argument":
                key, value = base.child_by_field_name("name"), base.child_by_field_name("value")
                if key is not None and value is not None and self._text(key) == "metaclass":
                    abstract |= _SPACE.sub("", self._text(value)) in _ABSTRACT_BASES
                continue
            if kind == "call":  # `namedtuple("P", "x y")`, `with_metaclass(M, Base)`: what the call makes
                function = base.child_by_field_name("function")
                made = _dotted(self._text(function)) if function is not None else ""
                if made:  # never resolved ("namedtuple()"): the class has a supertype the index does not show
                    self.relations.append(Relation("extends", class_index, made + "()", base.start_point[0] + 1))
                continue
            if kind not in ("identifier", "attribute"):
                continue  # *bases: not a base as written
            target = _SPACE.sub("", self._text(base))
            abstract |= target in _ABSTRACT_BASES
            if kind == "identifier":  # may name a variable holding a class: _aliased_bases()
                self.named_bases.append((len(self.relations), class_index, base.start_byte))
            self.relations.append(Relation("extends", class_index, target, base.start_point[0] + 1))
        if abstract:
            symbol = self.symbols[class_index]
            self.symbols[class_index] = symbol._replace(modifiers=symbol.modifiers + ("abstract",))

    def _scope_index(self) -> None:
        """Byte boundaries -> innermost enclosing definition, so that any byte finds its scope
        by bisection (or, for sorted call sites, by walking forward)."""
        bounds, owners = [0], [-1]
        stack: list[tuple[int, int]] = []
        for start, end, index in self.def_spans:
            while stack and stack[-1][0] <= start:
                bounds.append(stack.pop()[0])
                owners.append(stack[-1][1] if stack else -1)
            bounds.append(start)
            owners.append(index)
            stack.append((end, index))
        while stack:
            bounds.append(stack.pop()[0])
            owners.append(stack[-1][1] if stack else -1)
        self.bounds, self.owners = bounds, owners

    def _owner(self, byte: int) -> int:
        return self.owners[bisect_right(self.bounds, byte) - 1]

    # -- variables --

    def _statements(self, block):
        """The first expression of each simple statement of a block, through if/try/with/for/
        match, never into a def or class."""
        for statement in block.named_children:
            kind = statement.type
            if kind == "expression_statement":
                if statement.named_child_count:
                    yield statement.named_child(0)
            elif kind in _COMPOUND:
                yield from self._statements(statement)

    def _module_variables(self, root):
        """Module-level variables and constants; ``__all__`` (None when absent or not literal)."""
        all_names: list[str] | None = None
        all_line = 0
        for node in self._statements(root):
            kind = node.type
            if kind == "assignment":
                left = node.child_by_field_name("left")
                if left is not None and left.type == "identifier" and self._text(left) == "__all__":
                    names = self._string_list(node.child_by_field_name("right"))
                    if names is not None:
                        all_names, all_line = names, node.start_point[0] + 1
                    continue
                self._assignment(node, -1, "variable")
            elif all_names is None or not self.text.startswith("__all__", node.start_byte):
                continue
            elif kind == "augmented_assignment":  # __all__ += [...]
                all_names += self._string_list(node.child_by_field_name("right")) or []
            elif kind == "call":  # __all__.extend([...])
                function = node.child_by_field_name("function")
                if function is not None and self._text(function) in ("__all__.extend", "__all__.append"):
                    all_names += self._string_list(node.child_by_field_name("arguments")) or []
        return all_names, all_line

    def _string_list(self, node) -> list[str] | None:
        """The string literals of ``["a", 'b']``, ``("a",)``, ``[...] + other`` (its literal parts)."""
        if node is None:
            return None
        kind = node.type
        if kind == "string":
            content = node.named_child(1) if node.named_child_count == 3 else None
            if content is None or content.type != "string_content":
                return None
            return [self._text(content)]
        if kind == "binary_operator":
            left = self._string_list(node.child_by_field_name("left"))
            right = self._string_list(node.child_by_field_name("right"))
            return None if left is None and right is None else (left or []) + (right or [])
        if kind in ("list", "tuple", "argument_list", "parenthesized_expression", "set"):
            names: list[str] = []
            for item in node.named_children:
                names += self._string_list(item) or []
            return names
        return None

    def _class_variables(self, class_index: int, body) -> None:
        for node in self._statements(body):
            if node.type == "assignment":
                self._assignment(node, class_index, "field")

    def _assignment(self, node, scope: int, kind: str) -> None:
        """``x = ...``, ``x: T = ...``, ``x: T``, ``a, b = ...``, ``a = b = ...`` in a module or class."""
        while node is not None:
            left = node.child_by_field_name("left")
            right = node.child_by_field_name("right")
            if left is None:
                return
            if left.type == "identifier":
                targets = (left,)
            elif left.type in _TARGET_LISTS:
                targets = [t for t in left.named_children if t.type == "identifier"]
            else:
                targets = ()
            for target in targets:
                name = self._text(target)
                if name in _NOT_VARIABLES:
                    continue
                if right is not None and right.type == "lambda" and len(targets) == 1:
                    self._lambda(node, target, name, right, scope)
                else:
                    self._variable(node, target, name, scope, "constant" if _UPPER.fullmatch(name) else kind)
            node = right if right is not None and right.type == "assignment" else None

    def _variable(self, node, target, name: str, scope: int, kind: str) -> None:
        if not self._claim(scope, name):
            return
        start, end = node.start_byte, node.end_byte
        sig = self._one_line(self.text[start : min(end, start + SIGNATURE_SCAN)], end > start + SIGNATURE_SCAN)
        s_row, s_col = target.start_point
        e_row, e_col = node.end_point
        qualified = self._qualify(scope, name)
        self._add(_new(Symbol, (kind, name, qualified, s_row + 1, s_col, e_row + 1, e_col, sig, "", scope, ())))

    def _lambda(self, node, target, name: str, function, scope: int) -> None:
        """``handler = lambda req: ...`` is a function named handler."""
        if not self._claim(scope, name):
            return
        params = function.child_by_field_name("parameters")
        header_end = params.end_byte if params is not None else function.start_byte + len("lambda")
        sig = self._one_line(self.text[node.start_byte : header_end])
        s_row, s_col = target.start_point
        e_row, e_col = node.end_point
        qualified = self._qualify(scope, name)
        index = self._add(
            _new(Symbol, ("function", name, qualified, s_row + 1, s_col, e_row + 1, e_col, sig, "", scope, ("lambda",)))
        )
        # The calls in its body are its own, not the enclosing scope's (scopes are indexed again).
        self.def_spans.append((function.start_byte, function.end_byte, index))
        self.lambda_scopes = True
        if scope == -1 and params is not None:  # `call = lambda f: f()`; `call(first)` binds f
            self.module_lambdas.append((name, params))
        body = function.child_by_field_name("body")
        if scope == -1 and body is not None and body.type == "identifier":  # `get = lambda: first`
            self.lambda_returns.append((index, self._text(body), params))

    def _init_fields(self, inits: list, attribute_assignments: list) -> None:
        """``self.x = ...`` anywhere in ``__init__``: a field of the class, once per name."""
        if not inits or not attribute_assignments:
            return
        text = self.text
        self_names = {}  # __init__ symbol index -> the name its first parameter gives the instance
        for index, node in inits:
            params = node.child_by_field_name("parameters")
            first = _FIRST_PARAM.match(text, params.start_byte, params.end_byte) if params is not None else None
            if first is not None:
                self_names[index] = first.group(1)
        attribute_assignments = _in_source_order(attribute_assignments)
        parents = self.parents
        for node in attribute_assignments:
            owner = self._owner(node.start_byte)
            self_name = self_names.get(owner)
            if self_name is None:
                continue
            m = _ATTRIBUTE_TARGET.match(text, node.start_byte)
            if m is not None:  # self.x = ..., self.x: T = ...
                if m.group(1) == self_name:
                    self._field(node, node, m.group(2), parents[owner])
                continue
            left = node.child_by_field_name("left")  # self.a, self.b = ...
            for target in left.named_children if left is not None else ():
                if target.type == "attribute":
                    obj = target.child_by_field_name("object")
                    attr = target.child_by_field_name("attribute")
                    if obj is not None and attr is not None and self._text(obj) == self_name:
                        self._field(node, target, self._text(attr), parents[owner])

    def _field(self, node, target, name: str, class_index: int) -> None:
        self._variable(node, target, name, class_index, "constant" if _UPPER.fullmatch(name) else "field")

    # -- imports --

    def _imports(self, nodes) -> None:
        """Every import form; targets made absolute against this file's own module path."""
        add = self.imports.append
        bound = self.import_sources
        for node in _in_source_order(nodes):
            if node.type == "import_statement":
                for child in node.children_by_field_name("name"):
                    if child.type == "aliased_import":
                        name_node, alias_node = child.child_by_field_name("name"), child.child_by_field_name("alias")
                        if name_node is None or alias_node is None:
                            continue
                        written = target = _SPACE.sub("", self._text(name_node))
                        alias = self._text(alias_node)
                    else:  # import a.b binds "a"
                        written = _SPACE.sub("", self._text(child))
                        alias = target = written.partition(".")[0]
                    bound[alias] = target
                    add(_new(Import, (written, "", alias, child.start_point[0] + 1, "", target)))
                continue
            module_node = node.child_by_field_name("module_name")
            if module_node is None:
                continue
            written = _SPACE.sub("", self._text(module_node))
            base = resolve_relative(self.module, self.is_package, written) if written[:1] == "." else written
            names = node.children_by_field_name("name")
            if not names:
                if any(c.type == "wildcard_import" for c in node.named_children):
                    add(_new(Import, (written, "*", "", node.start_point[0] + 1, "", base)))
                    self.star_sources.add(base)
                continue
            for child in names:
                if child.type == "aliased_import":
                    name_node, alias_node = child.child_by_field_name("name"), child.child_by_field_name("alias")
                    if name_node is None or alias_node is None:
                        continue
                    name, alias = self._text(name_node), self._text(alias_node)
                else:
                    name = alias = self._text(child)
                bound[alias] = base
                target = f"{base}.{name}" if base else name
                add(_new(Import, (written, name, alias, child.start_point[0] + 1, "", target)))

    # -- receiver types --

    def _receiver_types(
        self,
        call_assignments,
        typed_assignments,
        typed_parameters,
        literal_assignments,
        caught,
        managed=(),
        narrowed=(),
    ) -> None:
        """What syntax says a name holds — ``x = Foo()``, ``x: Foo``, ``def f(x: Foo)``,
        ``self.repo = Repo()``, ``x = []``, ``except Failure as e`` — noted per scope for the call
        sites to look up."""
        text = self.text
        note = self._note_type
        # In source order: the query's captures of one name do not always come in the same order,
        # and the first field assignment and the last local one before a call are what count.
        for node in _in_source_order(call_assignments):
            start = node.start_byte
            m = _ASSIGN_CALL.match(text, start, start + SIGNATURE_SCAN)
            if m is not None:
                is_self, var, annotation, callee = m.groups()
                if annotation:
                    note(start, is_self, var, annotation)
                    self._module_instance(start, is_self, var, annotation)
                elif _is_type_name(callee) or callee in _BUILTIN_CONSTRUCTORS:
                    note(start, is_self, var, callee)
                    self._module_instance(start, is_self, var, callee)
                elif callee in self.return_types:  # `order = make()`, make returning an Order
                    note(start, is_self, var, self.return_types[callee])
                elif callee in self.returned_params and (
                    made := self._instance_returned(node.child_by_field_name("right"), callee)
                ):  # `box = ident(Box())`, ident returning its parameter
                    note(start, is_self, var, FLOWED + made)
                elif is_self:
                    if marked := self._marked_call(callee):  # `self.order = make()`, make another module's
                        note(start, is_self, var, marked)
                elif returned := self._returned(callee):  # `handler = choose()`, choose returning first
                    self._note_value(start, var, returned)
                elif (
                    not is_self
                    and callee in self.noted_values  # (nothing noted: nothing to look up scope by scope)
                    and _is_type_name(held := self._last_before(self.local_values, self._owner(start), callee, start))
                    and self._names_code(held.partition(".")[0])
                ):  # `kind = make(); order = kind()`: an instance of the class kind holds
                    note(start, is_self, var, FLOWED + held)
                elif callee in _PARTIALS and (wrapped := self._first_argument(node)):  # partial(send, "all")
                    self._note_value(start, var, wrapped)
                    self.partials.add(var)  # its calls' arguments come after the ones it holds
                elif not is_self and callee in self.yielded:  # `g = steps()`: a loop over g takes what it yields
                    self._note_container(start, var, {None: tuple(self.yielded[callee])})
                elif (
                    callee == "next"
                    and not is_self
                    and (right := node.child_by_field_name("right")) is not None
                    and (got := self._next(right, callee, self._owner(start)))
                ):  # `f = next(g)`, `f = next(steps())`: the one function the generator yields
                    self._note_value(start, var, got)
                elif marked := self._marked_call(callee):  # `order = make()`: make's returns edge
                    note(start, is_self, var, marked)
        for node in _in_source_order(typed_assignments):
            start = node.start_byte
            m = _ASSIGN_TYPED.match(text, start, min(node.end_byte, start + SIGNATURE_SCAN))
            if m is not None and (named := _annotated_class(m.group(3))):
                note(start, m.group(1), m.group(2), named)
            elif m is not None:
                self._note_elements(start, m.group(2), m.group(3), bool(m.group(1)))
        for node in _in_source_order(literal_assignments):
            start = node.start_byte
            m = _ASSIGN_TARGET.match(text, start, start + SIGNATURE_SCAN)
            right = node.child_by_field_name("right")
            if m is not None and right is not None:
                type_name = _LITERAL_TYPES[right.type]
                if type_name == "str" and _BYTES_PREFIX.match(text, right.start_byte):
                    type_name = "bytes"
                note(start, m.group(1), m.group(2), type_name)
        for node in _in_source_order(caught):
            caught_type, alias = node.children[0], node.child_by_field_name("alias")
            name = alias.named_children[0] if alias is not None and alias.named_child_count else None
            if name is None or name.type != "identifier":
                continue
            if caught_type.type in ("identifier", "attribute"):  # one class caught: an instance of it
                note(node.start_byte, None, self._text(name), self._text(caught_type))
            elif caught_type.type == "tuple":  # `except (A, B) as e`: e.m() is a call of each one's m
                classes = [self._text(c) for c in caught_type.named_children if c.type in _NAME_NODES]
                if 1 < len(classes) == caught_type.named_child_count <= SEVERAL_MAX:
                    self._several.append((node.start_byte, self._text(name), [c + "()" for c in classes]))
        for node in _in_source_order(managed):
            # `with Session() as s`: s holds what Session's __enter__ returns (the resolver follows
            # its returns edge: `return self` is a Session)
            made, alias = node.named_children[0], node.child_by_field_name("alias")
            function = made.child_by_field_name("function")
            callee = _dotted(self._text(function)) if function is not None else ""
            name = alias.named_children[0] if alias is not None and alias.named_child_count else None
            if name is not None and name.type == "identifier" and _is_type_name(callee):
                if self._names_code(callee.partition(".")[0]):
                    note(node.start_byte, None, self._text(name), f"{FLOWED}{callee}().__enter__{INSTANCE}")
        for node in _in_source_order(typed_parameters):
            m = _PARAM_TYPE.match(text, node.start_byte, node.end_byte)
            if m is None:
                continue
            classes = _annotated_classes(m.group(2))
            if len(classes) == 1:
                note(node.start_byte, None, m.group(1), classes[0])
            elif 1 < len(classes) <= SEVERAL_MAX:  # `x: A | B`: a call on x is a call on each
                self._several.append((node.start_byte, m.group(1), [c + "()" for c in classes]))
            elif not classes:
                self._note_elements(node.start_byte, m.group(1), m.group(2))
                if built_in := _BUILTIN_GENERIC.match(_unquoted(m.group(2))):  # `table: dict[str, Item]`
                    note(node.start_byte, None, m.group(1), built_in.group(1).lower())
        self._narrowed(narrowed)
        self.typed_names = {name for names in self.local_types.values() for name in names}
        self._yielded_locals()

    def _yielded_locals(self) -> None:
        """``t = Task(); yield t``: the generator yields a Task instance, as ``yield Task()`` does
        (for the loops over it; a name given the generator before this is known does not see it)."""
        for owner, name, byte in self._yields_of_locals:
            made = self._type_of(owner, name, byte)
            if _is_type_name(made) and self._names_code(made.partition(".")[0]):
                got = self.yielded.setdefault(self.symbols[owner][1], [])
                if made + "()" not in got:
                    got.append(made + "()")

    def _narrowed(self, statements) -> None:
        """``if isinstance(shape, Square): shape.side()`` (or ``elif``): in the block shape holds a
        Square (a class the module names); after the block, what it held before, unless the block
        gives it another value. ``if not isinstance(shape, Square): raise ...`` (a block that always
        leaves: raise, return, continue, break; no else): the same from the ``if`` to the end of the
        block holding it. ``isinstance(shape, (Circle, Square))``: a call on shape calls each one's
        method there, as in a loop over both (_narrowed_loops)."""
        for node in _in_source_order(statements):
            condition, block = node.child_by_field_name("condition"), node.child_by_field_name("consequence")
            negated = condition is not None and condition.type == "not_operator"
            if negated:
                condition = condition.child_by_field_name("argument")
            arguments = condition.child_by_field_name("arguments") if condition is not None else None
            if block is None or arguments is None or arguments.named_child_count != 2 or self._names_code("isinstance"):
                continue
            if negated:  # narrowed after the statement, to the end of the enclosing block
                if node.child_by_field_name("alternative") is not None or not block.named_child_count:
                    continue
                if block.named_children[-1].type not in _LEAVING_STATEMENTS or node.parent is None:
                    continue
                begin, end = node.end_byte, node.parent.end_byte
            else:
                begin, end = condition.end_byte, block.end_byte
            var_node, cls_node = arguments.named_children
            var = self._text(var_node)
            if cls_node.type == "tuple":
                classes = [self._text(c) for c in cls_node.named_children if c.type in _NAME_NODES]
                if len(classes) != cls_node.named_child_count or not 1 < len(classes) <= SEVERAL_MAX:
                    continue
            else:
                classes = [self._text(cls_node)]
            if not all(_is_type_name(c) and self._names_code(c.partition(".")[0]) for c in classes):
                continue
            owner = self._owner(node.start_byte)
            if owner >= 0 and self.is_class[owner]:
                continue
            if len(classes) > 1:
                self._narrowed_to_several.append((owner, begin, end, var, [c + "()" for c in classes]))
                continue
            before = self._type_of(owner, var, begin)
            types = self.local_types.setdefault(owner, {}).setdefault(var, [])
            # The block gives the name a value of its own (`dec = Decimal(dec)`): that one stands after it.
            reassigned = any(begin < at < end for at, _ in types)
            types.append((begin, classes[0]))
            if not reassigned:
                types.append((end, before))  # "" when nothing said: no type

    def _taken(self, assignments) -> None:
        """``obj = kinds["a"]()``, ``h = handlers[0]``, ``box = boxes.pop()``: the name holds an
        instance of the class the container shows there (as ``kinds["a"]().run()`` and
        ``handlers[0].run()`` are calls on one; a pop, when every item is of one class)."""
        text = self.text
        for node in _in_source_order(assignments):
            start = node.start_byte
            if self._sliced(node):
                continue
            m = _TAKEN.match(text, start, node.end_byte)
            if m is None or m.end() != node.end_byte:
                continue
            var, written, popped = m.groups()
            owner = self._owner(start)
            if owner >= 0 and self.is_class[owner]:
                continue
            if popped:  # `boxes.pop()`, `boxes.pop(0)`
                held = self._last_before(self.containers, owner, popped, start)
                items = set(held.get(None, ())) if held else set()
                made = items.pop() if len(items) == 1 else ""
                cls = made[:-2] if made[-2:] == "()" and _is_type_name(made[:-2]) else ""
            else:
                cls = self._item_receiver(written, owner, start)
            if not cls:
                continue
            types = self.local_types.setdefault(owner, {}).setdefault(var, [])
            types[:] = [t for t in types if t[0] != start]  # (what `boxes.pop()` returned, as a call said)
            types.append((start, FLOWED + cls))  # followed through the container: `flow`
            self.typed_names.add(var)

    def _sliced(self, assignment) -> bool:
        """``firsts = funcs[1:3]`` of a list the file shows whole: a list of those items."""
        left, right = assignment.child_by_field_name("left"), assignment.child_by_field_name("right")
        if left is None or right is None or left.type != "identifier" or right.type != "subscript":
            return False
        value, index = right.child_by_field_name("value"), right.child_by_field_name("subscript")
        if value is None or index is None or index.type != "slice" or value.type != "identifier":
            return False
        bounds = [c for c in index.children if c.type != ":"]
        colons = [c for c in index.children if c.type == ":"]
        if len(colons) != 1 or any(b.type != "integer" for b in bounds):
            return True  # a step or a computed bound: what it holds is not followed
        owner, start = self._owner(assignment.start_byte), assignment.start_byte
        held = self._last_before(self.containers, owner, self._text(value), start)
        length = held.get(_LENGTH) if held else None
        if length is None:
            return True
        low = int(self._text(bounds[0])) if bounds and bounds[0].end_byte <= colons[0].start_byte else 0
        high = int(self._text(bounds[-1])) if bounds and bounds[-1].start_byte >= colons[0].end_byte else length
        low, high = max(0, min(low, length)), max(0, min(high, length))
        sliced: dict = {str(i - low): held[str(i)] for i in range(low, high) if str(i) in held}
        sliced[_LENGTH] = max(0, high - low)
        sliced[None] = tuple(v for k, v in sorted(sliced.items(), key=_list_order) if k.__class__ is str)
        self._note_container(start, self._text(left), sliced)
        return True

    def _declared_global(self, names) -> None:
        """``global handler`` in a function: what it gives handler is the module's (globals_of)."""
        for node in names:
            owner = self._owner(node.start_byte)
            if owner >= 0:
                self.globals_of.setdefault(owner, set()).add(self._text(node))

    def _global_choices(self) -> None:
        """A module-level name a function gives another value (`global handler; handler =
        second`) may hold any of its values wherever it is read — when the function runs is not
        written — so a call through it, in the module or a function that does not bind it
        itself, calls each (read as a loop over them around the whole scope)."""
        if not self.globals_of:
            return
        module_values, module_types = self.local_values.get(-1, {}), self.local_types.get(-1, {})
        scopes = [-1] + [
            i for i, s in enumerate(self.symbols) if s[0] in ("function", "method") and not self.is_class[i]
        ]
        for name in sorted(set().union(*self.globals_of.values())):
            values = [value for _, value in module_values.get(name, ())]
            values += [
                t.lstrip(FLOWED) + "()" for _, t in module_types.get(name, ()) if _is_type_name(t.lstrip(FLOWED))
            ]
            values = [v for v in dict.fromkeys(values) if self._names_code(v.partition(".")[0].removesuffix("()"))]
            if not 1 < len(values) <= SEVERAL_MAX:
                continue
            for scope in scopes:
                if scope >= 0 and name not in self.globals_of.get(scope, ()):
                    bound = (table.get(scope, {}) for table in (self.local_values, self.local_types))
                    if any(name in names for names in bound) or self._parameter(scope, name):
                        continue  # its own name
                self.loops.setdefault(scope, []).insert(0, (-1, _END, name, values))  # the outermost
            self.loop_names.add(name)

    def _narrowed_loops(self) -> None:
        """The narrowings to several classes, as loops over their instances (see _narrowed), each
        cut where the name is given another value; then the loops of those scopes by where they
        start, so that the innermost comes last (_loop_values looks from the end)."""
        for owner, begin, end, var, values in self._narrowed_to_several:
            given = [
                at for table in (self.local_types, self.local_values) for at, _ in table.get(owner, {}).get(var, ())
            ]
            end = min((at for at in given if begin < at < end), default=end)
            self.loops.setdefault(owner, []).append((begin, end, var, values))
            self.loop_names.add(var)
        for owner in {narrowing[0] for narrowing in self._narrowed_to_several}:
            self.loops[owner].sort(key=itemgetter(0))

    # -- values --

    def _return_types(self, functions, returns, yields) -> None:
        """What each module-level function of this file returns, when its annotation names one
        class or every `return` makes an instance of the same one; the function or class of the
        module it returns (`return first`, `return wrapper`); what its `yield`s name."""
        made: dict[int, set[str]] = {}
        names: dict[int, set[str]] = {}  # what each function returns by plain name
        literals: dict[int, Any] = {}  # the literal a function's one return gives (None: several returns)
        nested: set[tuple[int, str]] | None = None
        for node in returns:
            owner = self._owner(node.start_byte)
            value = node.named_children[0] if node.named_child_count else None
            kind = value.type if value is not None else ""
            # the one return of each def, for what only the values noted later say (_late_returns)
            self._one_return[owner] = value if owner not in self._one_return else None
            literals[owner] = value if owner not in literals and kind in _RETURNED_LITERALS else None
            names.setdefault(owner, set()).add(
                self._text(value) if kind == "identifier" else "" if kind != "attribute" else _bound(self._text(value))
            )
            callee = value.child_by_field_name("function") if value is not None and value.type == "call" else None
            name = _dotted(self._text(callee)) if callee is not None else ""
            made.setdefault(owner, set()).add(name if name and (_is_type_name(name) or name == "cls") else "")
        for index, literal in literals.items():  # `return first, second`, `return {"a": first}`
            if literal is not None and index >= 0 and self.parents[index] == -1 and not self.is_class[index]:
                self.returned_literals[self.symbols[index][1]] = (index, literal)
        # In source order: the relations it adds come out the same every time (captures do not).
        for index, node in self._module_functions(functions):
            annotation = node.child_by_field_name("return_type")
            named = _annotated_class(self._text(annotation)) if annotation is not None else ""
            if not named:
                types = made.get(index, set())
                named = next(iter(types)) if len(types) == 1 and "" not in types and "cls" not in types else ""
            line = self.symbols[index][3]
            if named:
                self.return_types[self.symbols[index][1]] = FLOWED + named
                self.relations.append(_new(Relation, (RETURNS, index, named, line, "", INSTANCE)))
            returned = names.get(index, set())
            if len(returned) == 1 and "" not in returned:
                if nested is None:  # (enclosing function, name) of every def inside a def
                    parents, is_class = self.parents, self.is_class
                    nested = {
                        (parents[i], s[1]) for i, s in enumerate(self.symbols) if parents[i] >= 0 and not is_class[i]
                    }
                inner = next(iter(returned))
                if (index, inner) in nested:
                    self.returned_functions[self.symbols[index][1]] = inner
                    self.relations.append(
                        _new(Relation, (RETURNS, index, f"{self.symbols[index][1]}.{inner}", line, "", ""))
                    )
                elif self._names_code(inner):
                    self.returned_names[self.symbols[index][1]] = inner
                    self.relations.append(_new(Relation, (RETURNS, index, inner, line, "", "")))
                else:
                    self._returns_parameter(index, inner, node.child_by_field_name("parameters"))
            elif len(returned) > 1 and "" not in returned and all(map(self._names_code, returned)):
                # `return first` on one path, `return second` on another: a call of what it
                # returns may be either (in this file; a returns edge holds one target).
                self.returned_choices[self.symbols[index][1]] = sorted(returned)
        for index, inner, params in self.lambda_returns:  # a named lambda returns what its body names
            if self._names_code(inner):
                self.returned_names[self.symbols[index][1]] = inner
                self.relations.append(_new(Relation, (RETURNS, index, inner, self.symbols[index][3], "", "")))
            else:
                self._returns_parameter(index, inner, params)
        if nested is not None:
            prefix = len(self.module) + 1
            for index, node in self._indexed(functions):
                parent = self.parents[index] if index >= 0 else -1
                returned = names.get(index, set())
                if parent >= 0 and not self.is_class[parent] and len(returned) == 1:
                    inner = next(iter(returned))
                    if (index, inner) in nested:
                        self.nested_returns[self.symbols[index][2][prefix:]] = (inner, node)
        for index, node in self._methods(functions):
            # A method of a module-level class: `-> Order`, `-> Self`, every `return Order(...)`,
            # `return cls(...)` or `return self` (what `self.make()` and `order.copy()` give).
            cls_name = self.symbols[self.parents[index]][1]
            annotation = node.child_by_field_name("return_type")
            named = _annotated_class(self._text(annotation)) if annotation is not None else ""
            if not named:
                types = made.get(index, set())
                named = next(iter(types)) if len(types) == 1 and "" not in types else ""
                if not named and names.get(index) == {"self"}:
                    named = cls_name
            if named in _SELF_TYPES or named == "cls":
                named = cls_name
            if named:
                self.relations.append(_new(Relation, (RETURNS, index, named, self.symbols[index][3], "", INSTANCE)))
                if "property" in self.symbols[index][10]:  # `self.conn.execute()`: conn's getter says what it gives
                    self.field_types.setdefault(self.parents[index], {}).setdefault(self.symbols[index][1], named)
            elif len(returned := names.get(index, ())) == 1 and (bound := next(iter(returned)))[:1] == ".":
                # `return self.pay`: the bound method (a call of what it gives calls pay), when the
                # class defines pay here
                if bound[1:] in self._method_names(self.parents[index]):
                    line = self.symbols[index][3]
                    self.relations.append(_new(Relation, (RETURNS, index, cls_name + bound, line, "", "")))
        delegations: list[tuple[str, str]] = []
        for node in _in_source_order(yields):
            owner = self._owner(node.start_byte)
            if owner < 0 or self.parents[owner] != -1 or self.is_class[owner] or not node.named_child_count:
                continue
            value = node.named_children[0]
            delegated = node.child_count > 2  # `yield from ...`
            if delegated and value.type == "call" and (function := value.child_by_field_name("function")):
                delegations.append((self.symbols[owner][1], self._text(function)))
                continue
            items = value.named_children if value.type in ("list", "tuple") and delegated else [value]
            for item in items:  # `yield first`, `yield from [first, second]`
                if self._names_code(name := self._text(item)):
                    self.yielded.setdefault(self.symbols[owner][1], []).append(name)
                elif item.type == "call" and (made := self._made_instance(item)):  # `yield Task()`: an instance
                    self.yielded.setdefault(self.symbols[owner][1], []).append(made)
                elif item.type == "identifier":  # `t = Task(); yield t`: known once types are (_yielded_locals)
                    self._yields_of_locals.append((owner, name, item.start_byte))
        for _ in range(3):  # `yield from inner()`: what inner yields, a few delegations deep
            for outer, inner in delegations:
                got = self.yielded.setdefault(outer, [])
                got += [name for name in self.yielded.get(inner, ()) if name not in got]

    def _passed_containers(self) -> None:
        """A parameter every call of this file passes the same container name (`run(table)`)
        holds what that container held where the call stands."""
        for at, param, (owner, name, byte, fallback) in self._passed:
            held = self._last_before(self.containers, owner, name, byte)
            if held:
                self._note_container(at, param, held)
            if fallback:  # and the name, as any other passed (`table.get(k)` follows it)
                self._note_value(at, param, fallback)
                self.value_names.add(param)

    def _late_returns(self) -> None:
        """What a module-level function returns when its one `return` gives a name holding a
        function (`a = first; return a`) or calls a function of the module returning one (`return
        pick()`, pick returning first): known once names' values are (a few hops: `return outer()`)."""
        parents, is_class, symbols = self.parents, self.is_class, self.symbols
        for _ in range(3):
            found = False
            for index, value in self._one_return.items():
                if value is None or index < 0 or parents[index] != -1 or is_class[index]:
                    continue
                function = symbols[index][1]
                if function in self.returned_names or function in self.returned_functions:
                    continue
                held = ""
                if value.type == "identifier":
                    held = self._last_before(self.local_values, index, self._text(value), value.start_byte)
                elif value.type == "call" and (callee := value.child_by_field_name("function")) is not None:
                    held = self._returned(self._text(callee)) if callee.type == "identifier" else ""
                if held.__class__ is str and held and held != function and self._names_code(held.partition(".")[0]):
                    self.returned_names[function] = held
                    self.relations.append(_new(Relation, (RETURNS, index, held, symbols[index][3], "", "")))
                    found = True
            if not found:
                return

    def _returned_literal(self, call, kinds: tuple[str, ...]):
        """The tuple, list or dict literal (of ``kinds``) that ``call``'s function of this module
        returns when every name it holds is the module's code (its own locals mean nothing here)."""
        function = call.child_by_field_name("function")
        got = self.returned_literals.get(self._text(function)) if function is not None else None
        if got is None or got[1].type not in kinds:
            return None
        index, literal = got
        local = self.local_values.get(index, {}).keys() | self.local_types.get(index, {}).keys()
        for item in literal.named_children:
            value = item.child_by_field_name("value") if item.type == "pair" else item
            if value is not None and value.type in _NAME_NODES:
                head = self._text(value).partition(".")[0]
                if head in local or not self._is_parameterless_code(index, head):
                    return None
        return literal

    def _returns_parameter(self, index: int, name: str, parameters) -> None:
        """``def pick(a, b): return b`` (every return returns b, which the body never binds
        again): a call of pick gives what it is passed for b (_returned_argument)."""
        if parameters is None:
            return
        at, positional, keyword_only, _, _ = self._parameters(parameters)
        if name in positional:
            self.returned_params[self.symbols[index][1]] = (index, at, positional.index(name), name)
        elif name in keyword_only:
            self.returned_params[self.symbols[index][1]] = (index, at, -1, name)

    def _returned_argument(self, call, callee: str, owner: int) -> str:
        """What ``pick(first, second)`` returns when pick returns its parameter b: the function or
        class passed for b, when the call's scope names one; "" otherwise."""
        value = self._argument_returned(call, callee)
        dotted = _dotted(self._text(value)) if value is not None and value.type in _NAME_NODES else ""
        head = dotted.partition(".")[0]
        if dotted and head not in self.local_values.get(owner, ()) and self._is_parameterless_code(owner, head):
            return dotted
        return ""

    def _argument_returned(self, call, callee: str):
        """The argument node of ``call`` (a call of this module's ``callee``) that callee returns
        (it returns that parameter, never bound again in its body); None when there is none."""
        returned = self.returned_params.get(callee)
        arguments = call.child_by_field_name("arguments") if returned is not None else None
        if arguments is None:
            return None
        index, at, position, name = returned
        for table in (self.local_values, self.local_types):  # what the calls pass is noted at the parameters
            if any(byte != at for byte, _ in table.get(index, {}).get(name, ())):
                return None  # bound again in the body: not only what was passed
        value = None
        for i, arg in enumerate(arguments.named_children):
            kind = arg.type
            if kind == "keyword_argument":
                if (key := arg.child_by_field_name("name")) is not None and self._text(key) == name:
                    value = arg.child_by_field_name("value")
            elif kind in ("list_splat", "dictionary_splat"):
                return None  # where the rest lands is not written
            elif i == position:
                value = arg
        return value

    def _instance_returned(self, call, callee: str) -> str:
        """The class of this module whose instance ``call`` gets back from ``callee`` returning the
        parameter it is passed in (`ident(Box())`: Box); "" otherwise."""
        value = self._argument_returned(call, callee)
        function = value.child_by_field_name("function") if value is not None and value.type == "call" else None
        made = _dotted(self._text(function)) if function is not None and function.type in _NAME_NODES else ""
        return made if _is_type_name(made) and self._names_code(made.partition(".")[0]) else ""

    def _module_classes(self) -> set[str]:
        """The names of the file's module-level classes (found once)."""
        if self._classes is None:
            parents, is_class = self.parents, self.is_class
            self._classes = {s[1] for i, s in enumerate(self.symbols) if parents[i] == -1 and is_class[i]}
        return self._classes

    def _all_method_names(self) -> set[str]:
        """The names of the methods any class of this file defines."""
        self._method_names(-1)  # finds every class's once
        return set().union(*self._methods_by_class.values())

    def _method_names(self, cls: int) -> set[str]:
        """The names of the methods class ``cls`` of this file defines (all classes' found once)."""
        if self._methods_by_class is None:
            self._methods_by_class = {}
            parents, is_class = self.parents, self.is_class
            for i, s in enumerate(self.symbols):
                if s[0] == "method" and not is_class[i]:
                    self._methods_by_class.setdefault(parents[i], set()).add(s[1])
        return self._methods_by_class.get(cls, set())

    def _is_parameterless_code(self, owner: int, name: str) -> bool:
        """Whether ``name`` in def ``owner`` is the module's function, class or import, not one of
        the def's parameters that shadows it."""
        return self._names_code(name) and not self._parameter(owner, name)

    def _names_code(self, name: str) -> bool:
        """Whether ``name`` is one of the module's own functions or classes, or an imported name:
        what a value followed here may safely be (a variable would be a guess)."""
        if name in self.import_sources:
            return True
        defs = self._defs
        if defs is None:
            parents = self.parents
            self._defs = defs = {
                s[1] for i, s in enumerate(self.symbols) if parents[i] == -1 and s[0] in ("function", "class")
            }
        return name in defs

    def _module_instance(self, byte: int, is_self, var: str, type_name: str) -> None:
        """``repo = Repo()`` at module level: what the variable holds, for other modules' calls
        on it (a returns edge from the variable)."""
        if is_self or type_name in _BUILTIN_CONSTRUCTORS or self._owner(byte) != -1:
            return
        if self._variables is None:
            parents = self.parents
            self._variables = {
                s[1]: i for i, s in enumerate(self.symbols) if parents[i] == -1 and s[0] in ("variable", "constant")
            }
        index = self._variables.get(var)
        if index is not None:
            line = self.symbols[index][3]
            self.relations.append(_new(Relation, (RETURNS, index, type_name, line, "", INSTANCE)))

    def _returned(self, callee: str) -> str:
        """The function a call of this module's ``callee`` returns, as the call's scope names it."""
        inner = self.returned_functions.get(callee)
        return f"{callee}.{inner}" if inner else self.returned_names.get(callee, "")

    def _lambda_returned(self, function, owner: int) -> str:
        """What a lambda called where it is written returns, when its body names a function or
        class of this module that is none of its parameters: `(lambda: first)()` gives first (a
        call `(lambda: first)()()` calls it)."""
        if function.type != "parenthesized_expression":
            return ""
        made = _unparenthesized(function)
        if made.type != "lambda":
            return ""
        body = _unparenthesized(made.child_by_field_name("body"))
        params = made.child_by_field_name("parameters")
        name = self._text(body) if body.type == "identifier" else ""
        if not name or (params is not None and name in _WORD.findall(self._text(params))):
            return ""
        return name if self._is_parameterless_code(owner, name) else ""

    def _call_value(self, call) -> str:
        """The function of this module ``call`` gives, each step a function returning another by
        name: ``outer()`` is middle when outer returns middle, ``outer()()`` what middle returns."""
        depth = 0
        while call.type == "call" and depth < RETURN_CHAIN_MAX:
            call = call.child_by_field_name("function")
            depth += 1
            if call is None:
                return ""
        held = _dotted(self._text(call)) if call.type != "call" else ""
        for _ in range(depth):
            held = self._returned(held)
            if not held:
                return ""
        return held

    def _first_argument(self, assignment) -> str:
        """The dotted name passed first in the call an assignment makes (``partial(send, 1)``)."""
        right = assignment.child_by_field_name("right")
        arguments = right.child_by_field_name("arguments") if right is not None else None
        first = arguments.named_children[0] if arguments is not None and arguments.named_child_count else None
        return _dotted(self._text(first)) if first is not None else ""

    def _module_class_inits(self, functions):
        """(symbol index, node) of the ``__init__`` of each module-level class of the file."""
        parents, is_class, symbols = self.parents, self.is_class, self.symbols
        for index, node in self._indexed(functions):
            if index >= 0 and symbols[index][1] == "__init__" and (cls := parents[index]) >= 0:
                if is_class[cls] and parents[cls] == -1:
                    yield index, node

    def _attribute_values(self, assignments) -> None:
        """``self.handler = handler`` in a method, where the name holds a function of the module
        or an instance (a parameter the file's own calls bind, a default): the attribute holds it
        too, for ``self.handler()`` and ``self.repo.find()`` in the class's methods."""
        for node in _in_source_order(assignments):
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if left is None or right is None or left.type != "attribute":
                continue
            if right.type == "attribute":  # `self.handler = self.default`: the class's own method, bound
                self._bound_method_held(node, left, right)
                continue
            if right.type != "identifier":
                continue
            obj, attr = left.child_by_field_name("object"), left.child_by_field_name("attribute")
            owner = self._owner(node.start_byte)
            if obj is None or attr is None:
                continue
            if self._text(obj) not in _SELF_NAMES:  # `box.f = first`: `box.f()` calls first
                value = self._text(right)
                if not (owner >= 0 and self.is_class[owner]) and self._is_parameterless_code(owner, value):
                    self._note_value(node.start_byte, dotted := self._text(left), value)
                    self.value_names.add(dotted)
                    self.attribute_holders.add(self._text(obj))
                continue
            if owner < 0:
                continue
            cls = self.parents[owner]
            if cls < 0 or not self.is_class[cls] or self.is_class[owner]:
                continue
            name, value = self._text(attr), self._text(right)
            if value in self.typed_names and (typ := self._type_of(owner, value, node.start_byte)):
                self.field_types.setdefault(cls, {}).setdefault(name, typ)
            elif value in self.value_names and (held := self._held(owner, value, node.start_byte)):
                if self._names_code(held.partition(".")[0]):
                    self.field_values.setdefault(cls, {}).setdefault(name, held)
            elif value not in self.local_values.get(owner, ()) and self._is_parameterless_code(owner, value):
                self.field_values.setdefault(cls, {}).setdefault(name, value)  # `self.f = first`
            elif value in self.loop_names and (several := self._loop_values(owner, value, node.start_byte)):
                # `Runner(first)`, `Runner(second)`: __init__'s task holds either (_several_values)
                functions = tuple(v for v in several if v[-2:] != "()")
                if len(functions) == len(several):
                    self.field_values.setdefault(cls, {}).setdefault(name, functions)
            elif value not in self.local_values.get(owner, ()) and value not in self.local_types.get(owner, ()):
                if mark := self._parameter(owner, value):  # `self._target = target`
                    self.field_params.setdefault(cls, {}).setdefault(name, f"{mark}:{self.symbols[owner][2]}")

    def _bound_method_held(self, node, left, right) -> None:
        """``self.handler = self.default`` in a method of a module-level class that defines
        default: the attribute holds ``Cls.default`` (as ``self.default()`` there is a call of it)."""
        target, source = left.child_by_field_name("object"), right.child_by_field_name("object")
        attribute, method = left.child_by_field_name("attribute"), right.child_by_field_name("attribute")
        if target is None or source is None or attribute is None or method is None:
            return
        if self._text(target) not in _SELF_NAMES or self._text(source) not in _SELF_NAMES:
            return
        owner = self._owner(node.start_byte)
        cls = self.parents[owner] if owner >= 0 and not self.is_class[owner] else -1
        if cls >= 0 and self.is_class[cls] and (held := self._own_method(node.start_byte, self._text(method))):
            self.field_values.setdefault(cls, {}).setdefault(self._text(attribute), held)

    def _held_returns(self) -> None:
        """``handler = first`` at module level (its one assignment) or as a class attribute (in the
        body, or ``self.handler = first``): a returns edge from the variable to what it holds, so
        that a call through it from elsewhere — ``self.handler()`` in a subclass in another module,
        ``config.handler()`` — reaches first (the resolver follows it; this file's own calls are
        followed here)."""
        held: dict[tuple[int, str], str] = {}
        for cls, values in self.field_values.items():
            for name, value in values.items():
                if value.__class__ is str:  # several (a tuple): one returns edge cannot say
                    held[(cls, name)] = value
        module_types = self.local_types.get(-1, {})
        for name, notes in self.local_values.get(-1, {}).items():
            # Bound once, and by nothing else: not imported too (`try: from _pickle import dumps`
            # / `except ImportError: dumps = _dumps`), nor a def or class of the module.
            if len(notes) == 1 and name not in module_types and "." not in name and not self._names_code(name):
                value = notes[0][1]
                if self._names_code(value.partition(".")[0]):
                    held[(-1, name)] = value
        if not held:
            return
        parents = self.parents
        for i, symbol in enumerate(self.symbols):
            if symbol[0] in _HOLDING_KINDS and (value := held.pop((parents[i], symbol[1]), None)):
                if parents[i] == -1 and symbol[4]:  # indented: under an `if` or a `try`, it may not run
                    continue
                self.relations.append(_new(Relation, (RETURNS, i, value, symbol[3], "", "")))

    def _marked_call(self, callee: str) -> str:
        """``~make()``: what a call returns, for the resolver to follow through the callee's
        returns edge — another module's function (``make``, ``shop.make``) or a method reached
        through self, cls or a name (``self.make``, ``order.copy``: _retyped names its type);
        "" for a class by its name (an instance of it, noted as such) or a name of this module."""
        if not callee or _is_type_name(callee):
            return ""
        head, dot, _ = callee.partition(".")
        return FLOWED + callee + INSTANCE if dot or head in self.import_sources else ""

    def _retyped(self, marked: str, owner: int, byte: int) -> str:
        """``~order.copy()`` as ``~Order.copy()`` when order's type is known here."""
        head, dot, rest = marked[1:-2].partition(".")
        if dot and head in self.typed_names:
            typ = self._type_of(owner, head, byte).lstrip(FLOWED)
            if typ and typ[-2:] != INSTANCE:
                return f"{FLOWED}{typ}.{rest}{INSTANCE}"
        return marked

    def _methods(self, functions):
        """(symbol index, node) of the methods of the file's module-level classes."""
        parents, is_class = self.parents, self.is_class
        for index, node in self._indexed(functions):
            if index >= 0 and not is_class[index] and (cls := parents[index]) >= 0:
                if is_class[cls] and parents[cls] == -1:
                    yield index, node

    def _indexed(self, functions) -> list[tuple[int, Any]]:
        """(symbol index, node) of every def, in source order: found once, walked by several passes."""
        if self._function_nodes is None:
            owner = self._owner
            self._function_nodes = sorted(((owner(n.start_byte), n) for n in functions), key=itemgetter(0))
        return self._function_nodes

    def _module_functions(self, functions):
        """(symbol index, node) of the file's module-level functions, the ones its flow follows."""
        for index, node in self._indexed(functions):
            if index >= 0 and self.parents[index] == -1 and not self.is_class[index]:
                yield index, node

    def _containers(self, assignments, items=(), augmented=()) -> None:
        """``funcs = [first, second]``, ``table = {"a": first}``: what each literal index holds;
        then ``table["b"] = second`` and ``funcs.append(third)`` add to it, in source order."""
        held_before = {name for held in self.containers.values() for name in held}
        lists = {
            self._text(n.child_by_field_name("left"))
            for n in assignments
            if n.child_by_field_name("right").type in ("list", "list_comprehension")
        }
        dicts = {
            self._text(n.child_by_field_name("left"))
            for n in assignments
            if n.child_by_field_name("right").type in ("dictionary", "tuple", "call")
        }
        growing, keyed = lists | held_before, dicts | held_before
        steps = sorted(
            [(n.start_byte, 0, n) for n in assignments]
            + [(n.start_byte, 1, n) for n in items]
            + [(n.start_byte, 2, n) for n in self._method_calls(".append(", growing)]
            + [(n.start_byte, 3, n) for n in self._method_calls(".update(", keyed)]
            + [(n.start_byte, 4, n) for n in self._method_calls(".extend(", growing)]
            + [(n.start_byte, 5, n) for n in self._method_calls(".insert(", growing)]
            + [(n.start_byte, 6, n) for n in self._method_calls(".setdefault(", keyed)]
            + [(n.start_byte, 7, n) for n in augmented],
            key=itemgetter(0, 1),
        )
        changes = (
            None,
            self._item_assigned,
            self._appended,
            self._updated,
            self._extended,
            self._inserted,
            self._defaulted,
            self._augmented,
        )
        for start, step, node in steps:  # the last before a call counts
            if step:
                changes[step](node)
                continue
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if left is None or right is None:
                continue
            if right.type in _COMPREHENSIONS:  # `funcs = (f for f in (first, second))`: a loop's values
                self._note_container(start, self._text(left), {None: tuple(self._iterated(right, self._owner(start)))})
                continue
            if right.type == "dictionary_comprehension":  # its keys are computed: each value under any
                if values := self._comprehended(right, self._owner(start)):
                    self._note_container(start, self._text(left), {None: (), _ANY_KEY: _one_or_all(values)})
                continue
            self._note_container(start, self._text(left), self._literal_held(right))

    def _returned_containers(self, assignments) -> None:
        """``def make(): table = {"a": first}; ...; return table``: what a module-level function's
        one return gives when it is a container of the function's own whose items are the module's
        code (the function's locals mean nothing outside it); ``make()["a"]()`` calls first, and so
        does ``t = make(); t["a"]()`` (t holds what table held, noted here)."""
        returned = self.returned_containers
        parents, is_class, containers = self.parents, self.is_class, self.containers
        for index, value in self._one_return.items():
            if (
                value is None
                or value.type != "identifier"
                or index < 0
                or parents[index] != -1
                or is_class[index]
                or (name := self._text(value)) not in containers.get(index, ())
            ):
                continue
            held = self._last_before(containers, index, name, value.start_byte)
            local = self.local_values.get(index, {}).keys() | self.local_types.get(index, {}).keys()
            if held and self._holds_only_code(held, index, local):
                returned[self.symbols[index][1]] = held
        if not returned:
            return
        for node in assignments:
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            function = right.child_by_field_name("function") if right is not None else None
            if left is None or function is None or left.type != "identifier" or function.type != "identifier":
                continue
            callee = self._text(function)
            if (held := returned.get(callee)) is not None and self._is_parameterless_code(
                self._owner(node.start_byte), callee
            ):
                self._note_container(node.start_byte, self._text(left), dict(held))  # (its own, if changed)

    def _holds_only_code(self, held: dict, index: int, local) -> bool:
        """Whether every value ``held`` (a container's items, _literal_held) names the module's
        code as def ``index`` sees it (not one of its ``local`` names nor parameters)."""
        for value in held.values():
            if value.__class__ is dict:
                if not self._holds_only_code(value, index, local):
                    return False
                continue
            for one in (value,) if value.__class__ is str else value if value.__class__ is tuple else ():
                head = one.partition("(")[0].partition(".")[0]
                if head in local or not self._is_parameterless_code(index, head):
                    return False
        return True

    def _comprehended(self, node, owner: int) -> list[str]:
        """What a dict comprehension's values may be, as far as the file shows: the loop's own
        variable (`{f.__name__: f for f in (first, second)}`), the values of a dict's items
        (`{k: v for k, v in table.items()}`), or one function, class or new instance
        (`{k: handler for k in keys}`, `{k: Box() for k in keys}`)."""
        body, clauses = node.child_by_field_name("body"), node.named_children[1:]
        if body is None or body.type != "pair" or not clauses or clauses[0].type != "for_in_clause":
            return []
        if any(c.type != "if_clause" for c in clauses[1:]):  # (one loop; a filter lets each value pass)
            return []
        value = body.child_by_field_name("value")
        left, right = clauses[0].child_by_field_name("left"), clauses[0].child_by_field_name("right")
        if value is None or left is None or right is None:
            return []
        written = self._text(value)
        if left.type == "identifier":
            if written == self._text(left):
                return self._iterated(right, owner)
        elif left.named_child_count == 2:
            if written == self._text(left.named_children[1]) and right.type == "call":
                return self._paired(right, owner)
            if written in _WORD.findall(self._text(left)):
                return []  # the first of the pair: a key
        elif written in _WORD.findall(self._text(left)):
            return []
        if value.type == "call":
            made = self._made_instance(value)
            return [made] if made else []
        dotted = _dotted(written) if value.type in _NAME_NODES else ""
        return [dotted] if dotted and self._is_parameterless_code(owner, dotted.partition(".")[0]) else []

    def _literal_held(self, literal, depth: int = 0) -> dict:
        """What a list, tuple or dict literal holds at each index or key, as far as it names code;
        a literal inside it (``{"a": [first, second]}``), a few levels deep, under the key as a
        one-element tuple (``("a",)``): every reader of the plain keys skips it."""
        held: dict = {}
        nested = depth < NESTED_LITERALS
        if literal.type == "call":  # `dict(a=first)`: its keywords (the query takes no other)
            arguments = literal.child_by_field_name("arguments")
            args = arguments.named_children if arguments is not None else []
            return self._keywords_held(args) if all(a.type == "keyword_argument" for a in args) else {None: ()}
        if literal.type in ("list", "tuple"):
            i = 0
            for item in literal.named_children:
                # The type first: data tables of thousands of strings and numbers are common.
                if item.type in _NAME_NODES and (dotted := _dotted(self._text(item))):
                    held[str(i)] = dotted
                elif item.type == "call" and (made := self._made_instance(item) or self._returned_by(item)):
                    held[str(i)] = made  # `[JSONHandler(), XMLHandler()]`: instances ("Cls()"); `[pick()]`
                elif nested and item.type in _LITERAL_NODES:
                    held[(str(i),)] = self._literal_held(item, depth + 1)
                elif item.type == "list_splat":  # `[*funcs, third]`: funcs's items, where the file shows them
                    spread = self._spread_of(item, list_like=True)
                    if spread is None:  # nothing after it has a known index, nor the list a length
                        held[None] = tuple(v for k, v in sorted(held.items(), key=_list_order) if k.__class__ is str)
                        return held
                    held.update(_moved(spread, i))
                    i += spread[_LENGTH]
                    continue
                i += 1
            held[_LENGTH] = i  # where an append lands
        else:
            for pair in literal.named_children:
                if pair.type == "dictionary_splat":  # `{**base, "b": second}`: base's keys, then what follows
                    spread = self._spread_of(pair, list_like=False)
                    held = {k: v for k, v in spread.items() if k is not None} if spread is not None else {}
                    continue
                key, value = pair.child_by_field_name("key"), pair.child_by_field_name("value")
                if pair.type == "pair" and key is not None and value is not None and key.type == "string":
                    if value.type in _NAME_NODES and (dotted := _dotted(self._text(value))):
                        held[_string_key(self._text(key))] = dotted
                    elif value.type == "call" and (made := self._made_instance(value) or self._returned_by(value)):
                        held[_string_key(self._text(key))] = made
                    elif nested and value.type in _LITERAL_NODES:
                        held[(_string_key(self._text(key)),)] = self._literal_held(value, depth + 1)
                elif pair.type == "pair" and key is not None and value is not None and key.type == "integer":
                    # `{1: first}`: under the number, which `table[1]` reads (and `table["1"]` does not)
                    if value.type in _NAME_NODES and (dotted := _dotted(self._text(value))):
                        held[self._text(key)] = dotted
        # Under None: what a loop over it gives (a dict's keys are no functions). An empty literal
        # is noted too: what is added to it next is then all it holds.
        held[None] = () if literal.type == "dictionary" else tuple(v for k, v in held.items() if k.__class__ is str)
        return held

    def _returned_by(self, call) -> str:
        """The function a call of this module's function returns (`pick()`, pick returning first), or ""."""
        function = call.child_by_field_name("function")
        return self._returned(self._text(function)) if function is not None and function.type == "identifier" else ""

    def _made_instance(self, call) -> str:
        """``Cls()`` for a call that makes an instance of a class the module names, else ""."""
        function = call.child_by_field_name("function")
        made = _dotted(self._text(function)) if function is not None else ""
        return made + "()" if made and _is_type_name(made) and self._names_code(made.partition(".")[0]) else ""

    def _spread_of(self, splat, list_like: bool) -> dict | None:
        """What the container a ``*name`` (a list) or ``**name`` (a dict) spreads holds, when the
        file shows it (a list: all of it, with its length); None otherwise."""
        name = splat.named_child(0) if splat.named_child_count == 1 else None
        if name is None or name.type != "identifier":
            return None
        byte = splat.start_byte
        held = self._last_before(self.containers, self._owner(byte), self._text(name), byte)
        if not held or (_LENGTH in held) != list_like:
            return None
        return held

    def _method_calls(self, method: str, names: set[str]) -> list:
        """The ``name.append(x)`` (``method`` ".append(") or ``name.update(...)`` calls of the
        containers the file shows. Found by their text, not by a query pattern: a pattern over every
        method call cost more than all the lists of CPython's Lib."""
        found: list = []
        if not names:
            return found
        root, text = self.tree.root_node, self.text
        at = text.find(method)  # str.find first: a regex tried at every byte cost a second on CPython's Lib
        while at >= 0:
            m = _APPENDED_NAME.search(text, max(0, at - 80), at)
            at = text.find(method, at + len(method))
            if m is not None and m.group(1) in names:
                node = root.descendant_for_byte_range(m.start(1), m.start(1))
                while node is not None and node.type != "call" and node.start_byte == m.start(1):
                    node = node.parent
                function = node.child_by_field_name("function") if node is not None and node.type == "call" else None
                if function is not None and node.start_byte == m.start(1):
                    arguments = node.child_by_field_name("arguments")
                    if arguments is not None and arguments.named_child_count >= 1:
                        found.append(node)
        return found

    def _note_container(self, byte: int, name: str, held: dict) -> None:
        self.containers.setdefault(self._owner(byte), {}).setdefault(name, []).append((byte, held))

    def _item_assigned(self, node) -> None:
        """``table["b"] = second``: the key holds it from here on, whatever the dict held before
        (``table[1] = second`` too); ``funcs[1] = second`` only in a list whose literal said how
        long it is; ``table["a"]["b"] = second`` in the literal nested under "a"."""
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        value = _dotted(self._text(right)) if right is not None else ""
        if left is None or not value:
            return
        keys: list[str] = []  # outermost last
        while left is not None and left.type == "subscript":
            index = left.child_by_field_name("subscript")
            if index is None or index.type not in ("string", "integer"):
                return
            keys.append(_string_key(self._text(index)) if index.type == "string" else self._text(index))
            left = left.child_by_field_name("value")
        if left is None or left.type != "identifier" or len(keys) > NESTED_LITERALS + 1:
            return
        name, byte = self._text(left), node.start_byte
        before = self._last_before(self.containers, self._owner(byte), name, byte)
        root = held = dict(before) if before else {None: ()}
        for key in reversed(keys[1:]):  # into the literals nested there, each copied
            inner = held.get((_from_start(held, key),))
            if not inner:
                return
            held[(_from_start(held, key),)] = held = dict(inner)
        key, is_string = keys[0], keys[0][:1] != "-" and not keys[0].isdigit()
        if is_string or _LENGTH not in held:  # a dict's key (a number too: `table[1] = f`)
            if _LENGTH in held:
                return  # a list indexed by a string: not the dict this follows
            held[key] = value
            held.pop((key,), None)  # what was nested there is gone
        else:
            if not key.isdigit() or int(key) >= held[_LENGTH]:
                return
            held[key] = value
            held.pop((key,), None)
            held[None] = tuple(v for k, v in sorted(held.items(), key=_list_order) if k.__class__ is str)
        self._note_container(byte, name, root)

    def _appended(self, call) -> None:
        """``funcs.append(third)`` on a list whose literal said how long it is: the next index."""
        function, arguments = call.child_by_field_name("function"), call.child_by_field_name("arguments")
        container = function.child_by_field_name("object") if function is not None else None
        if container is None or arguments is None or not arguments.named_child_count:
            return
        name, byte = self._text(container), call.start_byte
        before = self._last_before(self.containers, self._owner(byte), name, byte)
        if not before or _LENGTH not in before:
            return
        held = dict(before)
        length = held[_LENGTH]
        held[_LENGTH] = length + 1
        if value := _dotted(self._text(arguments.named_child(0))):
            held[str(length)] = value
            held[None] = (*held[None], value)
        self._note_container(byte, name, held)

    def _extended(self, call) -> None:
        """``funcs.extend([second, third])`` on a list whose literal said how long it is: the next
        indexes; extended by anything else, its length is no longer known (nor what an append adds)."""
        name, byte, before, args = self._changed(call, list_like=True)
        if before is not None:
            self._extend(name, byte, before, args[0])

    def _extend(self, name: str, byte: int, before: dict, added_node) -> None:
        added = self._literal_held(added_node) if added_node.type in ("list", "tuple") else None
        if added is None or _LENGTH not in added:
            held = {k: v for k, v in before.items() if k != _LENGTH}
        else:
            length = before[_LENGTH]
            held = {**before, **_moved(added, length), _LENGTH: length + added[_LENGTH]}
            held[None] = (*before[None], *added[None])
        self._note_container(byte, name, held)

    def _augmented(self, node) -> None:
        """``funcs += [third]`` as ``funcs.extend([third])``; ``table |= {"b": f}`` as an update."""
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        operator = node.child_by_field_name("operator")
        if left is None or right is None or operator is None:
            return
        name, byte = self._text(left), node.start_byte
        before = self._last_before(self.containers, self._owner(byte), name, byte)
        if not before:
            return
        if _LENGTH in before and operator.type == "+=":
            self._extend(name, byte, before, right)
        elif _LENGTH not in before and operator.type == "|=":
            added = self._literal_held(right) if right.type == "dictionary" else {}
            self._note_container(byte, name, {**before, **added, None: ()} if added else {None: ()})

    def _inserted(self, call) -> None:
        """``funcs.insert(0, third)``: the items from that index on move one up; the one inserted
        is known when it is a name. At an index that is no literal, no index is known after."""
        name, byte, before, args = self._changed(call, list_like=True)
        if before is None or len(args) != 2:
            return
        length, at = before[_LENGTH], self._text(args[0])
        value = _dotted(self._text(args[1])) if args[1].type in _NAME_NODES else ""
        if not at.isdigit():
            values = (*before[None], value) if value else before[None]
            self._note_container(byte, name, {None: values})
            return
        at_index = min(int(at), length)
        held: dict = {_LENGTH: length + 1}
        for k, v in before.items():
            index = k if k.__class__ is str else k[0] if k.__class__ is tuple else None
            if index is None:
                continue
            moved = str(int(index) + 1) if int(index) >= at_index else index
            held[moved if k.__class__ is str else (moved,)] = v
        if value:
            held[str(at_index)] = value
        held[None] = tuple(v for k, v in sorted(held.items(), key=_list_order) if k.__class__ is str)
        self._note_container(byte, name, held)

    def _defaulted(self, call) -> None:
        """``table.setdefault("b", second)`` on a dict the file shows: the key holds second unless
        it held something already."""
        name, byte, before, args = self._changed(call, list_like=False)
        if before is None or len(args) != 2 or args[0].type != "string":
            return
        key = _string_key(self._text(args[0]))
        if key in before or (key,) in before or args[1].type not in _NAME_NODES:
            return
        if value := _dotted(self._text(args[1])):
            self._note_container(byte, name, {**before, key: value})

    def _changed(self, call, list_like: bool) -> tuple[str, int, dict | None, list]:
        """(container name, where, what it held before, the arguments) of ``name.method(...)`` on
        a list (``list_like``) or dict the file shows; None for what it held when it does not."""
        function, arguments = call.child_by_field_name("function"), call.child_by_field_name("arguments")
        container = function.child_by_field_name("object") if function is not None else None
        if container is None or arguments is None or not arguments.named_child_count:
            return "", 0, None, []
        name, byte = self._text(container), call.start_byte
        before = self._last_before(self.containers, self._owner(byte), name, byte)
        if not before or (_LENGTH in before) != list_like:
            return name, byte, None, []
        return name, byte, before, arguments.named_children

    def _updated(self, call) -> None:
        """``table.update({"b": second})`` or ``table.update(b=second)`` on a dict the file shows:
        those keys hold those values from here on; anything else passed makes it unknown."""
        function, arguments = call.child_by_field_name("function"), call.child_by_field_name("arguments")
        container = function.child_by_field_name("object") if function is not None else None
        if container is None or arguments is None:
            return
        name, byte = self._text(container), call.start_byte
        before = self._last_before(self.containers, self._owner(byte), name, byte)
        if not before or _LENGTH in before:
            return
        args = arguments.named_children
        if len(args) == 1 and args[0].type == "dictionary":
            added = self._literal_held(args[0])
        elif all(a.type == "keyword_argument" for a in args):
            added = self._keywords_held(args)
        else:
            self._note_container(byte, name, {None: ()})  # what it holds now is not known
            return
        self._note_container(byte, name, {**before, **added, None: ()})

    def _keywords_held(self, arguments) -> dict:
        """What ``dict(a=first, b=second)`` (or an ``update`` with keywords) holds under each key."""
        held: dict = {None: ()}
        for arg in arguments:
            key, value = arg.child_by_field_name("name"), arg.child_by_field_name("value")
            if (
                key is not None
                and value is not None
                and value.type in _NAME_NODES
                and (dotted := _dotted(self._text(value)))
            ):
                held[self._text(key)] = dotted
        return held

    def _subscript_call(self, node, owner: int) -> str | tuple[str, ...]:
        """What ``funcs[1]()``, ``table["a"]()`` or ``table["a"][1]()`` calls, from the container's
        literal, or "" (a tuple: what the calls of a function pass its ``**kwargs`` under one key)."""
        keys: list[str] = []
        while node.type == "subscript":
            value, index = node.child_by_field_name("value"), node.child_by_field_name("subscript")
            if value is None or index is None:
                return ""
            if index.type not in ("integer", "string", "unary_operator"):
                if keys or index.type == "slice":
                    return ""
                keys.append(_ANY_KEY)  # `table[kind]()`: whichever the dict holds
                node = value
                continue
            key = self._text(index)
            keys.append(_string_key(key) if index.type == "string" else key.replace(" ", ""))
            node = value
        if node.type == "call":  # `table()["a"]()`: the literal table returns, or its container
            literal = self._returned_literal(node, ("list", "tuple", "dictionary"))
            held = self._literal_held(literal) if literal is not None else None
            if held is None and (function := node.child_by_field_name("function")) is not None:
                callee = self._text(function)
                held = self.returned_containers.get(callee) if self._is_parameterless_code(owner, callee) else None
        elif node.type == "identifier":
            held = self._last_before(self.containers, owner, self._text(node), node.start_byte)
        else:
            return ""
        for key in reversed(keys[1:]):  # the outer keys, into the literals nested there
            held = held.get((_from_start(held, key),)) if held else None
        if not held:
            return ""
        if keys[0] is _ANY_KEY and _ANY_KEY not in held:
            if _LENGTH in held or held.get(None):
                return ""  # a list's or a container's the file does not show whole: no dispatch table
            values = [v for k, v in held.items() if k.__class__ is str and v.__class__ is str and v]
            return _one_or_all(list(dict.fromkeys(values))) if values else ""
        return _keyed(held, keys[0])

    def _next(self, call, callee: str, owner: int) -> str:
        """What ``next(steps())`` (or ``next(g)``, g = steps()) gives when the generator yields
        one thing this file names, or ""."""
        arguments = call.child_by_field_name("arguments")
        if callee != "next" or self._names_code("next") or arguments is None or arguments.named_child_count != 1:
            return ""
        values = self._iterated(arguments.named_child(0), owner)
        return values[0] if len(values) == 1 and not values[0].endswith("()") else ""

    def _got(self, call, callee: str, owner: int) -> str:
        """What ``table.get("b")`` returns when table's literal holds the key "b", or ""."""
        container, _, method = callee.rpartition(".")
        arguments = call.child_by_field_name("arguments")
        if method != "get" or not container or arguments is None or not arguments.named_child_count:
            return ""
        key = arguments.named_children[0]
        if key.type != "string":
            return ""
        held = self._last_before(self.containers, owner, container, call.start_byte)
        value = _keyed(held, _string_key(self._text(key))) if held else ""
        return value if value.__class__ is str else ""  # several (**kwargs): not one to follow

    def _item_receiver(self, receiver: str, owner: int, byte: int) -> str:
        """The class of what ``handlers[0]`` holds (an instance, "Cls()" in the container) or of
        what ``kinds["a"]()`` makes (a class held there); "" when the container does not say."""
        m = _ITEM_RECEIVER.fullmatch(receiver)
        if m is None:
            return ""
        name, key, called = m.groups()
        held = self._last_before(self.containers, owner, name, byte)
        if not held and not called:  # `items[0].run()` with `items: list[Item]`, `table["a"]` of a dict
            elements = self._elements(owner, name, byte, "values" if key[:1] in "'\"" else "items")
            return elements[0][:-2] if elements else ""
        value = _keyed(held, _string_key(key) if key[:1] in "'\"" else key) if held else ""
        if value.__class__ is not str or not value:
            return ""
        if called:  # the item is called: a class held there makes an instance
            return value if _is_type_name(value) else ""
        return value[:-2] if value[-2:] == "()" else ""

    def _got_attribute(self, call, callee: str, owner: int) -> str:
        """What ``getattr(order, "pay")`` gives when the name is a plain string: ``order.pay`` as
        the call's scope reads it (through order's type when it has one), or ""."""
        arguments = call.child_by_field_name("arguments")
        if callee != "getattr" or arguments is None or arguments.named_child_count != 2 or self._names_code(callee):
            return ""
        obj, attribute = arguments.named_children
        written = self._text(attribute)
        if attribute.type != "string" or not written[1:-1].isidentifier() or written[:1] not in "'\"":
            return ""
        holder = _dotted(self._text(obj))
        if holder in self.typed_names and (typ := self._type_of(owner, holder, call.start_byte)):
            holder = typ.lstrip(FLOWED) if typ[-2:] != INSTANCE else ""
        return f"{holder}.{written[1:-1]}" if holder else ""

    def _loops(self, loops) -> None:
        """``for f in (first, second)``, over a container, a generator of this file or ``*args``,
        and the same in comprehensions: what the loop variable takes, for the calls in the loop."""
        for node in _in_source_order(loops):
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if left is None or right is None:
                continue
            owner = self._owner(node.start_byte)
            if left.type == "identifier":
                values = self._iterated(right, owner)
            elif left.named_child_count == 2 and (second := left.named_children[1]).type == "identifier":
                values, left = self._paired(right, owner), second  # `for key, f in table.items()`
            else:
                continue
            if values:
                span = node if node.type == "for_statement" else node.parent  # a comprehension: all of it
                name = self._text(left)
                self.loops.setdefault(owner, []).append((span.start_byte, span.end_byte, name, values))
                self.loop_names.add(name)

    def _iteration(self, loops) -> None:
        """``for x in Countdown(3)`` (or over a name or parameter holding one) where this module's
        class defines ``__iter__``: the loop calls it, and the ``__next__`` of what it returns when
        that is the instance itself (`return self`) — calls the syntax makes, written as calls."""
        classes: dict[str, int] | None = None
        for node in loops:
            if node.type != "for_statement":
                continue  # a comprehension's loop: its calls are the comprehension's own
            right = node.child_by_field_name("right")
            if right is None:
                continue
            owner = self._owner(node.start_byte)
            if right.type == "call" and (function := right.child_by_field_name("function")) is not None:
                made = self._text(function) if function.type == "identifier" else ""
            elif right.type == "identifier" and (name := self._text(right)) in self.typed_names:
                made = self._type_of(owner, name, node.start_byte).lstrip(FLOWED).removesuffix(INSTANCE)
            else:
                continue
            if not made or "." in made:
                continue
            if classes is None:
                parents, is_class = self.parents, self.is_class
                classes = {s[1]: i for i, s in enumerate(self.symbols) if is_class[i] and parents[i] == -1}
            cls = classes.get(made, -1)
            if cls < 0 or "__iter__" not in (methods := self._method_names(cls)):
                continue
            line = node.start_point[0] + 1
            self.relations.append(_new(Relation, ("calls", owner, "__iter__", line, "", f"{FLOWED}{made}.__iter__")))
            if "__next__" in methods and self._returns_itself(cls, "__iter__"):
                self.relations.append(
                    _new(Relation, ("calls", owner, "__next__", line, "", f"{FLOWED}{made}.__next__"))
                )

    def _next_returned(self, class_name: str, owner: int) -> str:
        """What a loop over an instance of the module's class ``class_name`` takes, when its
        ``__iter__`` returns the instance and its ``__next__``'s one return names the module's code
        (`return handler`), as def ``owner`` sees that name; "" otherwise."""
        if not self._is_parameterless_code(owner, class_name):
            return ""
        parents, symbols = self.parents, self.symbols
        cls = next(
            (i for i, s in enumerate(symbols) if s[1] == class_name and parents[i] == -1 and self.is_class[i]), -1
        )
        if cls < 0 or not self._returns_itself(cls, "__iter__"):
            return ""
        method = next((i for i, s in enumerate(symbols) if s[1] == "__next__" and parents[i] == cls), -1)
        value = self._one_return.get(method)
        if value is None or value.type != "identifier":
            return ""
        name = self._text(value)
        local = self.local_values.get(method, {}).keys() | self.local_types.get(method, {}).keys()
        return name if name not in local and self._is_parameterless_code(method, name) else ""

    def _returns_itself(self, cls: int, method: str) -> bool:
        """Whether class ``cls``'s ``method`` returns ``self`` (and yields nothing)."""
        for i, s in enumerate(self.symbols):
            if s[1] == method and self.parents[i] == cls and (span := self.bodies.get(i)) is not None:
                body = self.text[span[0] : span[1]]
                return "yield" not in body and _RETURN_SELF.search(body) is not None
        return False

    def _iterated(self, node, owner: int) -> list[str]:
        """The dotted names (or ``Cls()`` instances) a loop over ``node`` takes, as far as it shows."""
        kind = node.type
        if kind in ("list", "tuple", "set"):
            values = []
            for item in node.named_children:
                if item.type == "call":
                    made = _dotted(self._text(item.child_by_field_name("function") or item))
                    if made and _is_type_name(made):
                        values.append(made + "()")
                elif dotted := _dotted(self._text(item)):
                    values.append(dotted)
            return values
        if kind == "identifier":
            held = self._last_before(self.containers, owner, self._text(node), node.start_byte)
            if held:
                return list(held[None])
            return self._elements(owner, self._text(node), node.start_byte, "items")  # `items: list[Item]`
        if kind == "attribute" and self.field_elements:  # `for item in self.items` (`items: list[Item]`)
            return self._elements(owner, _dotted(self._text(node)), node.start_byte, "items")
        if kind in _COMPREHENSIONS:  # `(g for g in (first, second))`: the same values, unfiltered
            body, clauses = node.child_by_field_name("body"), node.named_children[1:]
            # `if` clauses filter: which values pass is not known, so each may (as each may in a loop)
            one = clauses[:1] if all(c.type == "if_clause" for c in clauses[1:]) else []
            clause = one[0] if one and one[0].type == "for_in_clause" else None
            left = clause.child_by_field_name("left") if clause is not None else None
            right = clause.child_by_field_name("right") if clause is not None else None
            if body is not None and left is not None and right is not None and self._text(body) == self._text(left):
                return self._iterated(right, owner) if left.type == "identifier" else []
            return []
        if kind == "subscript":  # `funcs[1:]`: the items of a list the file shows, in the slice's range
            value, index = node.child_by_field_name("value"), node.child_by_field_name("subscript")
            if value is None or index is None or value.type != "identifier" or index.type != "slice":
                return []
            held = self._last_before(self.containers, owner, self._text(value), node.start_byte)
            bounds = _SLICE.fullmatch(self._text(index))
            if not held or bounds is None or held.get(_LENGTH) is None:
                return []
            start, stop = (int(b) if b else None for b in bounds.groups())
            wanted = {str(i) for i in range(held[_LENGTH])[start:stop]}
            items = [v for k, v in sorted(held.items(), key=_list_order) if k.__class__ is str and k in wanted]
            return [x for v in items for x in ((v,) if v.__class__ is str else v)]
        if kind == "call" and (function := node.child_by_field_name("function")) is not None:
            callee = self._text(function)
            if callee in self.yielded:  # `for f in steps()`: what the generator yields
                return self.yielded[callee]
            if callee in self._module_classes() and (nexted := self._next_returned(callee, owner)):
                return [nexted]  # `for f in Steps()`: what its __next__ returns
            container, _, method = callee.rpartition(".")
            if method == "values" and _dotted(container):  # `for f in table.values()`
                held = self._last_before(self.containers, owner, container, node.start_byte)
                if not held:  # `table: dict[str, Item]`
                    return self._elements(owner, container, node.start_byte, "values")
                values = [v for k, v in held.items() if k.__class__ is str] if held else []
                return [x for v in values for x in ((v,) if v.__class__ is str else v)]
        return []

    def _paired(self, call, owner: int) -> list[str]:
        """What the second name of ``for k, f in table.items()`` (a dict's values) or
        ``for i, f in enumerate(funcs)`` takes, as far as the file shows."""
        function, arguments = call.child_by_field_name("function"), call.child_by_field_name("arguments")
        if function is None or arguments is None:
            return []
        if (
            self._text(function) == "enumerate"
            and arguments.named_child_count == 1
            and not self._names_code("enumerate")
        ):
            return self._iterated(arguments.named_child(0), owner)
        obj = function.child_by_field_name("object") if function.type == "attribute" else None
        attribute = function.child_by_field_name("attribute") if obj is not None else None
        if obj is None or attribute is None or self._text(attribute) != "items" or arguments.named_child_count:
            return []
        if obj.type == "dictionary":
            held = self._literal_held(obj)
        elif dotted := _dotted(self._text(obj)):
            held = self._last_before(self.containers, owner, dotted, call.start_byte) or {}
            if not held:  # `table: dict[str, Item]`
                return self._elements(owner, dotted, call.start_byte, "values")
        else:
            return []
        values = [v for k, v in held.items() if k.__class__ is str]
        return [x for v in values for x in ((v,) if v.__class__ is str else v)]

    def _loop_values(self, owner: int, name: str, byte: int) -> list[str]:
        for start, end, var, values in reversed(self.loops.get(owner, ())):  # the innermost loop first
            if var == name and start < byte < end:
                return values
        return []

    def _values(self, references, unpackings, defaults, functions, calls, decorated, choices=()) -> None:
        """What names hold, for the calls through them: ``b = a``, ``h = order.pay``,
        ``a, (b, *rest) = first, (second, third, fourth)``, ``def run(handler=fallback)``, and
        ``apply(callback)`` where ``apply(f)`` is defined here and every call of it here passes the
        same module-level name (a parameter another call gives something else holds no one value)."""
        note = self._note_value
        for node in _in_source_order(references):  # a class attribute's last value counts
            left = node.child_by_field_name("left") or node.child_by_field_name("name")  # `(g := first)`
            right = node.child_by_field_name("right") or node.child_by_field_name("value")
            if left is not None and right is not None and (value := _dotted(self._text(right))):
                note(node.start_byte, self._text(left), value)
                for outer in _chained(node):  # `a = b = first`: a too
                    if outer.type == "identifier":
                        note(node.start_byte, self._text(outer), value)
        for node in _in_source_order(unpackings):
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if right is not None and right.type == "call":  # `a, b = pair()`: what pair returns
                right = self._returned_literal(right, ("tuple", "expression_list", "list"))
            if left is not None and right is not None:
                self._unpacked(node.start_byte, left, right)
                for outer in _chained(node):  # `a, b = c, d = first, second`: a and b too
                    self._unpacked(node.start_byte, outer, right)
        for node in defaults:
            name, value = node.child_by_field_name("name"), node.child_by_field_name("value")
            if name is not None and value is not None and (dotted := _dotted(self._text(value))):
                note(node.start_byte, self._text(name), dotted)
        applied = self._decorations(decorated)
        self._arguments(functions, calls, applied)
        self._chosen(choices)
        self.value_names = set(self.noted_values)
        self._several_values()

    def _chosen(self, assignments) -> None:
        """``f = first if fast else second``, ``g = custom or default``: the name holds one of
        them; a call through it calls each (read as a loop over them, until the name is given
        another value in its scope), one alone is what the name holds."""
        for node in _in_source_order(assignments):
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if left is None or right is None:
                continue
            start, name = node.start_byte, self._text(left)
            values = list(dict.fromkeys(self._choices(right, 0)))
            if len(values) == 1:
                self._note_value(start, name, values[0])
                continue
            owner = self._owner(start)
            if not values or len(values) > SEVERAL_MAX or (owner >= 0 and self.is_class[owner]):
                continue
            later = [
                at
                for table in (self.local_values, self.local_types)
                for at, _ in table.get(owner, {}).get(name, ())
                if at > start
            ]
            self.loops.setdefault(owner, []).append((start, min(later, default=_END), name, values))
            self.loop_names.add(name)

    def _choices(self, node, depth: int) -> list[str]:
        """The functions and classes of the module an expression may give: either branch of a
        conditional, either operand of ``or``, the right one of ``and`` (the left is given only
        when false, which a function never is)."""
        kind = node.type
        if depth > CHOICE_DEPTH:
            return []
        if kind == "parenthesized_expression" and node.named_child_count == 1:
            return self._choices(node.named_children[0], depth + 1)
        if kind == "conditional_expression":
            parts = node.named_children
            if len(parts) != 3:
                return []
            return self._choices(parts[0], depth + 1) + self._choices(parts[2], depth + 1)
        if kind == "boolean_operator":
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            operator = node.child_by_field_name("operator")
            got = self._choices(right, depth + 1) if right is not None else []
            if left is not None and operator is not None and self._text(operator) == "or":
                got = self._choices(left, depth + 1) + got
            return got
        if kind in _NAME_NODES and (dotted := _dotted(self._text(node))) and self._names_code(dotted.partition(".")[0]):
            return [dotted]
        return []

    def _unpacked(self, byte: int, targets, values) -> None:
        """``a, b = first, second`` pairs its names with its values, item by item and into nested
        tuples; a starred name (``head, *rest = ...``) holds the values between as a list."""
        names, items = targets.named_children, values.named_children
        stars = [i for i, t in enumerate(names) if t.type == "list_splat_pattern"]
        if len(stars) > 1 or len(items) < len(names) - len(stars) or (not stars and len(items) != len(names)):
            return  # `a, b = pair` or a count that does not match: the syntax does not say
        if any(item.type in ("list_splat", "dictionary_splat") for item in items):
            return  # `a, b = *xs, c`: where each value lands is not written here
        if stars:
            star, after = stars[0], len(names) - stars[0] - 1
            middle = items[star : len(items) - after]
            pairs = list(zip(names[:star], items[:star])) + list(zip(names[star + 1 :], items[len(items) - after :]))
            starred = names[star].named_child(0)
            held: dict = {str(i): dotted for i, item in enumerate(middle) if (dotted := _dotted(self._text(item)))}
            if starred is not None and starred.type == "identifier" and held:
                held[None] = tuple(held.values())
                self._note_container(byte, self._text(starred), held)
        else:
            pairs = list(zip(names, items))
        for name, item in pairs:
            if name.type == "identifier":
                if value := _dotted(self._text(item)):
                    self._note_value(byte, self._text(name), value)
            elif name.type in _TARGET_LISTS and item.type in ("tuple", "list", "parenthesized_expression"):
                if item.type == "parenthesized_expression":  # `(a, b), c = (x, y), z`: x, y is a tuple
                    inner = item.named_child(0)
                    if inner is None or inner.type not in ("tuple", "expression_list"):
                        continue
                    item = inner
                self._unpacked(byte, name, item)

    def _decorations(self, decorated) -> list[tuple[str, str]]:
        """``@deco`` above a definition is a call of deco where the definition stands (made here
        an edge from the enclosing scope); a decorator of this file that returns a function it
        defines (``return wrapper``), or one function of the module (``return other``), makes the
        decorated name hold that function. Returns
        (decorator, what it is applied to) for the decorators' parameters."""
        applied: list[tuple[str, str]] = []
        add = self.relations.append
        for node in _in_source_order(decorated):  # captures do not always come in order
            definition = node.child_by_field_name("definition")
            name_node = definition.child_by_field_name("name") if definition is not None else None
            if name_node is None:
                continue
            name = self._text(name_node)
            scope = self._owner(node.start_byte)
            decorators = [d for d in node.children if d.type == "decorator" and d.named_child_count]
            # What each decorator is handed, innermost first: the definition, then the wrapper the
            # one below it returns (`@outer @inner def f` is f = outer(inner(f))).
            # (A method of a nested class or a def inside a def is handed on, but named from nowhere.)
            bindable = scope == -1 or (self.is_class[scope] and self.parents[scope] == -1)
            passed: str | None = name if scope == -1 else f"{self.symbols[scope][1]}.{name}"
            wrapped = False
            for decorator in reversed(decorators):
                applied_node = decorator.named_children[0]
                written = _dotted(self._text(applied_node))
                if not written:  # `@app.route("/")`: a call, already one of the file's calls
                    self._decorator_factory(applied_node, scope, name, len(node.children) == 2, node, applied)
                    passed = None
                    continue
                held = self._last_before(self.local_values, scope, written, decorator.start_byte)
                if held.__class__ is str and held and held != written and self._names_code(held.partition(".")[0]):
                    # `deco = trace` then `@deco`: trace is what decorates
                    add(_new(Relation, ("calls", scope, written, decorator.start_point[0] + 1, "", FLOWED + held)))
                    written = held
                else:
                    add(_new(Relation, ("calls", scope, written, decorator.start_point[0] + 1, "", "")))
                if passed is not None and bindable:
                    applied.append((written, passed))
                wrapper = self.returned_functions.get(written)
                if passed is not None:  # `def swap(f): return other`: the name holds other
                    passed = f"{written}.{wrapper}" if wrapper else self.returned_names.get(written)
                wrapped = passed is not None
            outermost = _dotted(self._text(decorators[0].named_children[0])) if decorators else ""
            if scope == -1 and outermost and outermost in self._module_classes():
                # `@deco class-based`: the name holds a deco instance (calling it runs __call__)
                self._note_type(node.end_byte, None, name, f"{FLOWED}{outermost}{INSTANCE}")
                self.typed_names.add(name)
            elif wrapped and passed is not None:  # the name holds the outermost decorator's result
                if scope == -1:
                    self._note_value(node.end_byte, name, passed)
                elif self.is_class[scope]:  # a method: the class attribute holds the wrapper
                    self.field_values.setdefault(scope, {})[name] = passed
        return applied

    def _decorator_factory(self, call, scope: int, name: str, alone: bool, decorated, applied: list) -> None:
        """``@retry(3)`` where retry, of this module, returns a decorator it defines: that decorator
        is called where the definition stands, its first parameter is what it decorates, and the
        decorated name holds the wrapper the decorator returns (when it is the only decorator)."""
        function = call.child_by_field_name("function") if call.type == "call" else None
        factory = _dotted(self._text(function)) if function is not None else ""
        inner = self.returned_functions.get(factory)
        if not inner or scope != -1:
            return
        decorator = f"{factory}.{inner}"
        line = call.start_point[0] + 1
        self.relations.append(_new(Relation, ("calls", scope, factory + "()", line, "", FLOWED + decorator)))
        applied.append((decorator, name))
        wrapper = self.nested_returns.get(decorator)
        if wrapper is not None and alone:
            self._note_value(decorated.end_byte, name, f"{decorator}.{wrapper[0]}")

    def _arguments(self, functions, calls, applied: list[tuple[str, str]]) -> None:
        """Parameters of this file's module-level functions bound by its own calls of them (and
        decorators' first parameters by what they decorate); ``*args`` and ``**kwargs`` become
        containers of what the calls pass them."""
        params: dict[str, _Parameters] = {}
        for index, node in self._module_functions(functions):
            parameters = node.child_by_field_name("parameters")
            if parameters is not None:
                params[self.symbols[index][1]] = self._parameters(parameters)
        for index, node in self._module_class_inits(functions):  # `Service(first)` binds __init__'s
            parameters = node.child_by_field_name("parameters")
            if parameters is not None:
                at, names, keyword_only, star, double_star = self._parameters(parameters)
                params[self.symbols[self.parents[index]][1]] = (at, names[1:], keyword_only, star, double_star)
        for name, parameters in self.module_lambdas:
            params.setdefault(name, self._parameters(parameters))
        for decorator, _ in applied:  # a decorator factory's decorator, defined inside it
            if decorator not in params and (found := self.nested_returns.get(decorator)) is not None:
                parameters = found[1].child_by_field_name("parameters")
                if parameters is not None:
                    params[decorator] = self._parameters(parameters)
        if not params:
            return
        module_names = self.scope_names.get(-1, set()) | set(self.import_sources)
        bound: dict[tuple[int, str], set[str]] = {}
        # (where, *args or **kwargs, is it *args) -> index or key -> values
        spread: dict[tuple[int, str, bool], dict[str, set[str]]] = {}
        # `run(*args, **kwargs)` in `def relay(*args, **kwargs)`: (the callee's parameters, where
        # relay's are, the name spread, is it *args, how many positions come before it)
        forwarded: list[tuple[_Parameters, int, str, bool, int]] = []
        first_base: dict[int, str] | None = None
        text = self.text

        def bind(node, target: _Parameters, skip: int, start: int, bound: dict, spread: dict, forwarded: list) -> None:
            """What the call ``node`` of ``target`` passes its parameters, into ``bound`` (and
            ``spread`` for `*args`/`**kwargs`, ``forwarded`` for spreads handed on)."""
            arguments = node.parent.child_by_field_name("arguments") if node.parent is not None else None
            if arguments is None or arguments.type != "argument_list":
                return
            at, names, keyword_only, star, double_star = target
            positions_known = True
            positionals = 0  # written before a spread: `run("tag", *args)` hands args on from 1
            for position, arg in enumerate(self._spread(arguments)[skip:]):
                if arg.type in ("list_splat", "dictionary_splat"):
                    if (caller := self._forwarding(arg, node.start_byte, params)) is not None:
                        forwarded.append((target, *caller, positionals))  # what relay's calls pass it
                    elif arg.type == "dictionary_splat":
                        break  # `f(**opts)`: which keywords it passes is not known
                    positions_known = False  # `f(*xs)`: the positions after it are not known
                    continue
                if arg.type != "keyword_argument" and arg.type != "pair":
                    if not positions_known:
                        continue
                    positionals += 1
                if arg.type == "keyword_argument" or arg.type == "pair":
                    key, value = self._argument_key(arg), arg.child_by_field_name("value")
                    param = key or ""
                    into = bound if param in names or param in keyword_only else None
                    if into is None and double_star:  # `notify(on_done=done)` into **handlers
                        spread.setdefault((at, double_star, False), {}).setdefault(param, set()).add(
                            self._argument_value(value, module_names, start)
                        )
                        continue
                elif position < len(names):
                    param, value, into = names[position], arg, bound
                elif star:  # `run_all(first, second)` into *callbacks
                    slot = spread.setdefault((at, star, True), {}).setdefault(str(position - len(names)), set())
                    slot.add(self._argument_value(arg, module_names, start))
                    continue
                else:
                    continue
                if into is not None and param:
                    got: Any = self._argument_value(value, module_names, start)
                    if not got and value is not None and value.type == "identifier":
                        # `relay(g)` inside `hop(g)`: what hop's g holds, once hop's calls bind it
                        got = (self._owner(node.start_byte), self._text(value), node.start_byte)
                    bound.setdefault((at, param), set()).add(got)

        valued = frozenset(self.noted_values)  # as it stands before the calls bind
        through_parameter: list = []
        for node in calls:
            skip = 0  # arguments that are not the target's (`partial(run, first)`: run)
            start, end = node.start_byte, node.end_byte  # read once: each read of a node is a C call
            if end - start in _PARTIAL_LENGTHS and text[start:end] in _PARTIALS:
                # `partial(run, first)` binds run's first parameter as `run(first)` would
                arguments = node.parent.child_by_field_name("arguments") if node.parent is not None else None
                wrapped = arguments.named_children[0] if arguments is not None and arguments.named_child_count else None
                target = (
                    params.get(self._text(wrapped)) if wrapped is not None and wrapped.type == "identifier" else None
                )
                skip = 1
            elif node.type == "identifier":
                target = params.get(text[start:end])
                if target is None and text[start:end] in valued and text[start:end] not in self.partials:
                    # `c = run; c(first)` binds run's parameters as `run(first)` does
                    held = self._last_before(self.local_values, self._owner(start), text[start:end], start)
                    target = params.get(held) if held.__class__ is str else None
            elif end - start == len(_SUPER_INIT) and text[start:end] == _SUPER_INIT:
                # `super().__init__(first)` in a class of the file whose first base is one too:
                # binds that base's __init__ as `Base(first)` would
                if first_base is None:
                    first_base = {}
                    for r in self.relations:
                        if r[0] == "extends" and r[1] not in first_base:
                            first_base[r[1]] = r[2]
                cls = self._enclosing_class(self._owner(start))
                target = params.get(first_base.get(cls, "")) if cls >= 0 else None
            else:
                continue
            if target is None:
                if (
                    node.type == "identifier"
                    and (owner := self._owner(start)) >= 0
                    and text[start:end] in self.symbols[owner][7]  # (the signature's text first)
                    and self._parameter(owner, text[start:end])
                ):
                    through_parameter.append(node)  # `def apply(f): f(first)`: once f's value is known
                continue
            bind(node, target, skip, start, bound, spread, forwarded)
        for decorator, target in applied:
            if (found := params.get(decorator)) is not None and found[1] and found[1][0]:
                bound.setdefault((found[0], found[1][0]), set()).add(target)
        if forwarded:
            _forward(forwarded, bound, spread)
        self._bind(bound)
        self._spread_held(spread)
        # A call through a parameter the calls above gave a function of the file binds that
        # function's parameters in turn (`def apply(f): f(first)` with `apply(run)`): one more round,
        # for what no call bound yet
        later: dict[tuple[int, str], set] = {}
        for node in through_parameter:
            start = node.start_byte
            held = self._last_before(self.local_values, self._owner(start), self._text(node), start)
            target = params.get(held) if held.__class__ is str else None
            if target is not None:
                bind(node, target, 0, start, later, {}, [])
        self._bind({key: values for key, values in later.items() if key not in bound})

    def _forwarding(self, splat, byte: int, params: dict[str, _Parameters]) -> tuple[int, str, bool] | None:
        """(where the caller's parameters are, the name, is it *args) when ``splat`` (`*args`,
        `**kwargs` in a call at ``byte``) spreads the calling function's own `*args` or `**kwargs`,
        the calling function one of this module's functions."""
        inner = splat.named_children[0] if splat.named_child_count else None
        owner = self._owner(byte)
        if inner is None or inner.type != "identifier" or owner < 0 or self.parents[owner] != -1:
            return None
        caller = params.get(self.symbols[owner][1])
        if caller is None or self.symbols[owner][0] != "function":
            return None
        name, is_star = self._text(inner), splat.type == "list_splat"
        return (caller[0], name, is_star) if name == (caller[3] if is_star else caller[4]) else None

    def _bind(self, bound: dict[tuple[int, str], set]) -> None:
        """Note what each parameter holds when its calls here agree on one value; a value passed
        on from a parameter of the calling function (a tuple: scope, name, byte) counts once that
        parameter is bound, a few hops deep."""
        pending = bound
        for _ in range(4):
            waiting: dict[tuple[int, str], set] = {}
            for (at, param), values in pending.items():
                if any(v.__class__ is tuple for v in values):
                    values = {
                        self._last_before(self.local_values, *v) or "" if v.__class__ is tuple else v for v in values
                    }
                    if "" in values:
                        waiting[(at, param)] = pending[(at, param)]
                        continue
                self._bind_one(at, param, values)
            if len(waiting) == len(pending):
                return
            pending = waiting

    def _bind_one(self, at: int, param: str, values: set) -> None:
        if "" in values:
            return  # some call passes what the file cannot name: nothing is known of the parameter
        if len(values) > 1:
            if len(values) <= SEVERAL_MAX and not any(v[:1] == _LITERAL for v in values):
                self._several.append((at, param, sorted(values)))
            return
        value = next(iter(values))
        if value[:1] == _LITERAL:  # the one literal every call passes: a container
            literal = self.literal_arguments.get(int(value[1:]))
            if literal.__class__ is tuple:  # a container's name: what it held where it was passed
                self._passed.append((at, param, literal))
            elif literal is not None:
                self._note_container(at, param, self._literal_held(literal))
        elif value.endswith("()"):  # an instance of that class
            self._note_type(at, None, param, FLOWED + value[:-2])
            self.typed_names.add(param)
        else:
            self._note_value(at, param, value)

    def _several_values(self) -> None:
        """``apply(first)`` and ``apply(second)`` here: a call through apply's ``f`` calls each of
        them — the body of apply read as a loop whose variable takes the values its calls pass
        (see _loop_calls); the same for a parameter annotated with a union of classes. Not when the
        def gives the name another value (`f = wrap(f)`) or a type."""
        for at, param, values in self._several:
            owner = self._owner(at)
            if param in self.local_values.get(owner, ()) or param in self.local_types.get(owner, ()):
                continue
            self.loops.setdefault(owner, []).append((at, _END, param, values))
            self.loop_names.add(param)

    def _spread_held(self, spread: dict) -> None:
        """``*args`` and ``**kwargs`` as containers of what the calls pass them."""
        for (at, param, is_star), slots in spread.items():
            # An index or key holds what the calls pass it (several: a tuple, a call of it calls
            # each), unless one passes what the file cannot name; a loop takes all that is known.
            held: dict = {}
            for k, v in slots.items():
                functions = tuple(sorted(x for x in v if not x.endswith("()")))
                if functions and "" not in v:
                    held[k] = functions[0] if len(functions) == 1 else functions
            held[None] = tuple(dict.fromkeys(v for vs in slots.values() for v in sorted(vs) if v)) if is_star else ()
            self._note_container(at, param, held)

    def _passes(self, passing: list[tuple[Any, int, str, str, int]]) -> None:
        """What this file's calls of other modules' functions and classes pass them, when it is
        this module's function or class, an imported one, or an instance of such a class
        (``util.apply(callback)``, ``Service(Handler())``, ``runner.start(listener)`` on a typed
        ``runner``): PASSES relations, for the calls through those parameters over there
        (model.PARAMETER). The methods of this module's own classes take them the same way
        (``Runner().run(f)``, ``self.run(f)``). ``passing``: (function node, scope, receiver, name,
        byte) of the calls _calls() found going to an imported name or such a method."""
        add = self.relations.append
        text, names_code, sources, value_names = self._text, self._names_code, self.import_sources, self.value_names
        classes = self._module_classes()
        for node, owner, receiver, name, start in passing:
            arguments = node.next_named_sibling  # a call's argument list follows its function
            if arguments is None or arguments.type != "argument_list":
                continue
            if not receiver:
                callee = name
            elif receiver[-1] == ")":  # `Runner().run(task)`: a method of a new instance
                made = _one_call(receiver)
                callee = f"{made}().{name}" if made and _is_type_name(made) else ""
            elif receiver.partition(".")[0] in sources:
                callee = f"{receiver}.{name}" if _DOTTED_NAME.fullmatch(receiver) else ""
            elif receiver in _SELF_NAMES:  # `self.run(task)`: a method of the calling one's class
                callee = f"{receiver}.{name}"
            else:  # `runner = Runner(); runner.start(listener)`: a method of the class it holds
                held = self._type_of(owner, receiver, start)
                ok = held and (held.partition(".")[0] in sources or held in classes) and _DOTTED_NAME.fullmatch(held)
                callee = f"{held}().{name}" if ok else ""
            if not callee:
                continue
            line = 0
            for position, arg in enumerate(self._spread(arguments)):
                kind = arg.type
                if kind == "keyword_argument" or kind == "pair":
                    key, arg = "=" + self._argument_key(arg), arg.child_by_field_name("value")
                    if key == "=" or arg is None:
                        continue
                    kind = arg.type
                elif kind in ("list_splat", "dictionary_splat"):
                    break  # `f(*xs)`: the positions after it are not known
                else:
                    key = str(position)
                if kind == "identifier":
                    value = text(arg)
                    if not names_code(value):  # a local or parameter: what it holds here, when known
                        if value not in value_names:
                            continue
                        value = self._last_before(self.local_values, owner, value, start) or ""
                        if not value or not names_code(value.partition(".")[0]):
                            continue
                elif kind == "attribute":
                    value = _dotted(text(arg))
                    if not value or not names_code(value.partition(".")[0]):
                        continue
                elif kind == "call":  # `Handler()`: an instance
                    function = arg.child_by_field_name("function")
                    made = _dotted(text(function)) if function is not None else ""
                    if not made or not _is_type_name(made) or not names_code(made.partition(".")[0]):
                        continue
                    value = made + INSTANCE
                else:
                    continue
                if not line:
                    line = node.start_point[0] + 1
                add(_new(Relation, (PASSES, owner, callee, line, value, key)))

    def _parameter(self, owner: int, name: str) -> str:
        """The PARAMETER mark of a call through ``name`` when it is a parameter of the def the call
        is in: its position as a call writes it (a method's counted past ``self``), or "" when it
        is not one."""
        if owner < 0 or name in _SELF_NAMES:
            return ""
        if name not in self.symbols[owner][7]:
            return ""
        return self._parameter_marks(owner).get(name, "")

    def _parameter_marks(self, owner: int) -> dict[str, str]:
        """Def ``owner``'s parameters and their PARAMETER marks (_parameter), read once per def."""
        found = self._parameters_of.get(owner)
        if found is None:
            symbol = self.symbols[owner]
            if symbol[0] not in ("function", "method"):
                found = {}
            else:
                bound = symbol[0] == "method" and "staticmethod" not in symbol[10]
                found = _signature_parameters(symbol[7], bound)
            self._parameters_of[owner] = found
        return found

    def _shadowing_parameters(self, owner: int) -> frozenset[str]:
        """The parameters of def ``owner`` that hide a name of the scopes around it (_last_noted),
        found once per def: all but ``self`` and those defaulting to the name they hide (`def
        f(seen=seen)`, the old idiom binding a value early: unless a call passes another, they hold it)."""
        parameters = self._parameter_marks(owner)
        itself = {m.group(1) for m in _SELF_DEFAULT.finditer(self.symbols[owner][7]) if m.group(1) == m.group(2)}
        names = self._shadowing[owner] = frozenset(parameters).difference(itself, _SELF_NAMES)
        return names

    def _spread(self, arguments) -> list:
        """A call's arguments with literal spreads opened: ``f(*[a, b])`` passes a and b, in
        place; ``f(**{"k": a})`` passes k=a (a pair, read as a keyword argument)."""
        if "*" not in self.text[arguments.start_byte : arguments.end_byte]:
            return arguments.named_children  # nearly every call: nothing spread
        out: list = []
        for arg in arguments.named_children:
            inner = (
                arg.named_children[0]
                if arg.type in ("list_splat", "dictionary_splat") and arg.named_child_count
                else None
            )
            if inner is not None and arg.type == "list_splat" and inner.type in ("list", "tuple"):
                out += inner.named_children
            elif inner is not None and arg.type == "dictionary_splat" and inner.type == "dictionary":
                pairs = inner.named_children
                if not all(
                    p.type == "pair" and (k := p.child_by_field_name("key")) is not None and k.type == "string"
                    for p in pairs
                ):
                    out.append(arg)  # a key that is not a literal: nothing after it is known
                    break
                out += pairs
            else:
                out.append(arg)
        return out

    def _argument_key(self, arg) -> str:
        """The parameter a keyword argument (``k=a``) or a spread dict's pair (``"k": a``) names."""
        key = arg.child_by_field_name("name") if arg.type == "keyword_argument" else arg.child_by_field_name("key")
        if key is None:
            return ""
        return self._text(key) if arg.type == "keyword_argument" else self._text(key)[1:-1]

    def _parameters(self, parameters) -> _Parameters:
        """(where, positional names, keyword-only names, *args name, **kwargs name) of a def's list."""
        names: list[str] = []
        keyword_only: list[str] = []
        star = double_star = ""
        for p in parameters.named_children:
            kind = p.type
            if kind in ("list_splat_pattern", "dictionary_splat_pattern"):
                inner = p.named_children[0] if p.named_child_count else None
                name = self._text(inner) if inner is not None and inner.type == "identifier" else ""
                if kind == "list_splat_pattern":
                    star = name or "*"  # after `*` alone, parameters are keyword-only too
                else:
                    double_star = name
                continue
            if kind == "keyword_separator":
                star = star or "*"
                continue
            if kind == "identifier":
                name = self._text(p)
            elif kind in ("default_parameter", "typed_default_parameter", "typed_parameter"):
                first = p.child_by_field_name("name") or (p.named_children[0] if p.named_child_count else None)
                name = self._text(first) if first is not None and first.type == "identifier" else ""
            else:  # `/`: the names before it are positional-only, as positional as any
                continue
            (keyword_only if star else names).append(name)
        return parameters.start_byte, names, keyword_only, "" if star == "*" else star, double_star

    def _argument_value(self, value, module_names: set[str], byte: int = -1) -> str:
        """What an argument passes, when the module names it: a name, or ``Cls()`` for an instance.
        A name that holds a name where the call at ``byte`` stands passes what it holds there
        (`b = first` then `run(b)`: first, whatever b holds when run's body reads its parameter)."""
        if value is None:
            return ""
        if byte >= 0 and value.type == "identifier":
            owner, name = self._owner(byte), self._text(value)
            held = self._last_before(self.local_values, owner, name, byte)
            if held.__class__ is str and held and held.split(".", 1)[0] in module_names:
                return held
            if held == "" and name in self.container_names:
                # `run(table)`: what table holds here, once containers are known (_passed_containers)
                self.literal_arguments[value.start_byte] = (owner, name, byte, name if name in module_names else "")
                return f"{_LITERAL}{value.start_byte}"
        if byte >= 0 and value.type == "attribute" and (obj := value.child_by_field_name("object")) is not None:
            # `run(box.handle)`, box an instance of Box here: the method Box.handle
            if obj.type == "identifier" and (head := self._text(obj)) in self.typed_names:
                typ = self._type_of(self._owner(byte), head, byte).lstrip(FLOWED)
                attribute = value.child_by_field_name("attribute")
                if (
                    typ[-2:] != INSTANCE
                    and _is_type_name(typ)
                    and typ.split(".", 1)[0] in module_names
                    and attribute is not None
                ):
                    return f"{typ}.{self._text(attribute)}"
        if value.type in ("list", "dictionary") and value.named_child_count:  # `run([first])`
            self.literal_arguments[value.start_byte] = value
            return f"{_LITERAL}{value.start_byte}"
        dotted = _dotted(self._text(value))
        if value.type == "call":  # `settle(Order())`: an instance
            made = _dotted(self._text(value.child_by_field_name("function") or value))
            if made and _is_type_name(made):
                dotted = made + "()"
            else:  # `run(pick())` where pick returns first: first
                dotted = self._returned(made) if made in self.returned_names or made in self.returned_functions else ""
        if dotted[:5] == "self." and dotted.count(".") == 1:  # `apply(self.handle)`: the bound method
            return self._own_method(value.start_byte, dotted[5:])
        known = dotted and dotted.removesuffix("()").split(".", 1)[0] in module_names
        return dotted if known else ""

    def _own_method(self, byte: int, name: str) -> str:
        """``Box.handle`` for ``self.handle`` at ``byte`` in a method of the module-level class Box
        that defines handle; "" otherwise (an inherited or assigned attribute says nothing here)."""
        cls = self._enclosing_class(self._owner(byte))
        if cls < 0 or self.parents[cls] != -1 or name not in self._method_names(cls):
            return ""
        return f"{self.symbols[cls][1]}.{name}"

    def _note_value(self, byte: int, name: str, value: str) -> None:
        owner = self._owner(byte)
        if owner >= 0 and name in self.globals_of.get(owner, ()):  # `global handler; handler = second`
            owner = -1
        if owner >= 0 and self.is_class[owner]:  # a class attribute: reached through self or the class
            if self._names_code(value.partition(".")[0]):
                self.field_values.setdefault(owner, {})[name] = value
            elif self.parents[owner] == -1 and value in self._method_names(owner):  # `alias = pay`
                self.field_values.setdefault(owner, {})[name] = f"{self.symbols[owner][1]}.{value}"
            return
        self.local_values.setdefault(owner, {}).setdefault(name, []).append((byte, value))
        self.noted_values.add(name)

    def _held(self, scope: int, name: str, byte: int, depth: int = 0) -> str:
        """What ``name`` holds at ``byte``, followed through names that hold names (a few hops),
        ending in a dotted name or the type of a typed local; "" when nothing says."""
        # A name handed on (depth > 0) is read where it was given, in the text's order
        value, given = self._last_given(scope, name, byte, crossing=not depth)
        if not value or depth > 4:
            return ""
        head, dot, rest = value.partition(".")
        if head == name:
            return ""  # `x = x.parent`: no fixed point to follow
        if head in self.value_names:
            # What the name held where it was handed on (`b = a; a = second`: b holds a's first
            # value; `a, b = b, a` swaps)
            inner = self._held(scope, head, given, depth + 1)
            if inner:
                return inner + dot + rest
        if head in self.typed_names:
            typ = self._last_noted(self.local_types, scope, head, byte, crossing=False)[0]
            if typ:
                return typ.lstrip(FLOWED) + dot + rest
        return value

    def _note_type(self, byte: int, is_self, name: str, type_name: str) -> None:
        owner = self._owner(byte)
        if not is_self and owner >= 0 and name in self.globals_of.get(owner, ()):
            owner = -1
        is_class = self.is_class
        if is_self:  # self.x = Foo() in a method: a field type of its class
            cls = self.parents[owner] if owner >= 0 and not is_class[owner] else -1
            if cls >= 0 and is_class[cls]:
                self.field_types.setdefault(cls, {}).setdefault(name, type_name)
        elif owner >= 0 and is_class[owner]:  # x: Foo in a class body
            self.field_types.setdefault(owner, {}).setdefault(name, type_name)
        else:
            self.local_types.setdefault(owner, {}).setdefault(name, []).append((byte, type_name))

    def _note_elements(self, byte: int, name: str, annotation: str, is_self: bool = False) -> None:
        """``items: list[Item]``: a loop over items (or over ``table.values()`` of a
        ``dict[str, Item]``) takes Item instances, when Item is a class the module names. In a
        class body or as ``self.items: list[Item]``, a field of the class (``self.items``)."""
        element = _element_class(annotation)
        if element is None or not _is_type_name(element[1]) or not self._names_code(element[1].partition(".")[0]):
            return
        owner = self._owner(byte)
        if is_self:
            owner = self.parents[owner] if owner >= 0 and not self.is_class[owner] else -1
            if owner < 0 or not self.is_class[owner]:
                return
        if owner >= 0 and self.is_class[owner]:
            self.field_elements.setdefault(owner, {}).setdefault(name, element)
            return
        self.element_types.setdefault(owner, {}).setdefault(name, []).append((byte, element))

    def _elements(self, owner: int, name: str, byte: int, kind: str) -> list[str]:
        """[``Item()``] when an annotation says ``name``'s items (``kind`` "items") or values
        ("values") are Items (``self.items``: the class's field); [] otherwise."""
        if name[:5] == "self." and self.field_elements:
            element = self.field_elements.get(self._enclosing_class(owner), {}).get(name[5:])
        else:
            element = self._last_before(self.element_types, owner, name, byte) if self.element_types else None
        return [element[1] + "()"] if element and element[0] == kind else []

    def _type_of(self, scope: int, var: str, byte: int) -> str:
        """The type ``var`` was last given before ``byte``, looked up from ``scope`` outwards
        (class bodies do not enclose their methods, as in Python)."""
        return self._last_before(self.local_types, scope, var, byte)

    def _last_before(self, table: dict[int, dict[str, list[tuple[int, Any]]]], scope: int, var: str, byte: int) -> Any:
        """What ``table`` noted for ``var`` last before ``byte``, from ``scope`` outwards ("" if nothing)."""
        return self._last_noted(table, scope, var, byte)[0]

    def _last_given(self, scope: int, var: str, byte: int, crossing: bool = True) -> tuple[str, int]:
        """_last_before of ``local_values``, with the byte where that value was given (``byte``
        when nothing was)."""
        value, at = self._last_noted(self.local_values, scope, var, byte, crossing)
        return value, (at if at >= 0 else byte)

    def _last_noted(
        self, table: dict[int, dict[str, list[tuple[int, Any]]]], scope: int, var: str, byte: int, crossing: bool = True
    ) -> tuple[Any, int]:
        """(what ``table`` noted for ``var`` last before ``byte``, from ``scope`` outwards, the byte
        it was noted at); ("", -1) if nothing. With ``crossing``, a name a def reads from a scope
        around it holds that scope's last value."""
        is_class, parents, symbols, shadowing = self.is_class, self.parents, self.symbols, self._shadowing
        crossed: list[int] = []  # the defs left on the way out
        while True:
            if scope >= 0 and is_class[scope]:
                scope = parents[scope]
                continue
            seen = table.get(scope)
            if seen is not None and var in seen:
                for inner in crossed:
                    if self._binds(inner, var):
                        return "", -1  # a name the def binds is its own, whatever it holds (not noted here)
                if crossed and crossing:
                    # Read inside a def from a scope around it: the def runs once that scope has
                    # run on (a module's functions after its last line, as a rule), so the name
                    # holds the scope's last value, wherever the def stands
                    byte = _END
                best, best_at = "", -1
                for at, noted in seen[var]:  # noted kind by kind: not one byte order
                    if best_at < at < byte:
                        best, best_at = noted, at
                return best, best_at
            if scope < 0:
                return "", -1
            # (the signature's text first: most names are no parameter of the def)
            if var in symbols[scope][7]:
                names = shadowing.get(scope)
                if names is None:
                    names = self._shadowing_parameters(scope)
                if var in names:
                    return (
                        "",
                        -1,
                    )  # the def's own parameter, not the name around it (calls' values are noted in the def)
            crossed.append(scope)
            scope = parents[scope]

    def _binds(self, scope: int, var: str) -> bool:
        """Whether def ``scope``'s body binds ``var`` (assigns it, loops or catches into it, imports
        it) and does not declare it global or nonlocal: then the name is the def's own throughout,
        as in Python. Read from the lines of the body that hold the name, once per def and name."""
        found = self._binding.get((scope, var))
        if found is None:
            span = self.bodies.get(scope)
            found = self._binding[(scope, var)] = span is not None and _binds_in(
                self.text, span[0], span[1], var, self.tree.root_node
            )
        return found

    def _own_name(self, owner: int, var: str) -> bool:
        """Whether ``var`` in def ``owner`` is a name it (or a def around it) binds itself."""
        is_class, parents = self.is_class, self.parents
        while owner >= 0:
            if not is_class[owner] and self._binds(owner, var):
                return True
            owner = parents[owner]
        return False

    def _enclosing_class(self, scope: int) -> int:
        is_class, parents = self.is_class, self.parents
        while scope >= 0 and not is_class[scope]:
            scope = parents[scope]
        return scope

    # -- calls --

    def _calls(self, nodes: list) -> None:
        """``f()``: target f. ``a.b().c()``: target c, receiver ``a.b()``. Source: the innermost
        enclosing def/class, -1 at module level. In source order."""
        text, symbols = self.text, self.symbols
        bounds, owners = self.bounds, self.owners
        add = self.relations.append
        typed_names, field_types, value_names = self.typed_names, self.field_types, self.value_names
        module_held = {  # module-level names the file follows a value of (see OWN_NAME below)
            name for table in (self.local_values, self.local_types, self.containers) for name in table.get(-1, ())
        }
        field_params = self.field_params
        attribute_names = {name for held in self.field_values.values() for name in held}  # what a class says it holds
        nodes = _in_source_order(nodes)
        sources = self.import_sources
        passing: list[tuple[Any, int, str, str, int]] = []  # calls of imported names: _passes()
        self._names_code("")  # builds self._defs
        passable = (self._defs or set()) | sources.keys() | value_names  # what an argument worth a fact names
        classes = self._module_classes()
        # Locals that hold an instance of an imported class somewhere (`runner = Runner()`): their
        # methods' parameters are another module's too; or of a class of this module, whose
        # methods this file's calls bind the same way (`_arguments` binds its functions only).
        typed_instances = {
            var
            for held in self.local_types.values()
            for var, types in held.items()
            if any((head := t.lstrip(FLOWED).partition(".")[0]) in sources or head in classes for _, t in types)
        }
        # Can a call's arguments bind parameters _passes() records (its receiver or name starts
        # with an imported name, such a local, this module's class)? Asked of every call, answered
        # once per receiver: most repeat (`self`, `os.path`, `assertEqual`).
        passes_by_head: dict[str, bool] = {}
        own_methods = self._all_method_names()
        callback_starts = self.callback_starts
        loop_names, attribute_holders = self.loop_names, self.attribute_holders  # (the sets themselves)
        last = len(bounds) - 1
        i, owner, upcoming = 0, owners[0], bounds[1] if last else _END
        for node in nodes:
            start = node.start_byte
            if start >= upcoming:  # walked into another scope
                i = bisect_right(bounds, start, i) - 1
                owner = owners[i]
                upcoming = bounds[i + 1] if i < last else _END
            call_line = node.start_point[0] + 1
            kind = node.type
            if kind == "subscript":  # `funcs[1]()`: only when the literal says what it holds
                held = self._subscript_call(node, owner)
                for value in (held,) if held.__class__ is str else held:  # `kwargs["a"]()`: each passed
                    if value:
                        add(_new(Relation, ("calls", owner, self._text(node), call_line, "", FLOWED + value)))
                continue
            if kind == "call":  # `factory()()`: what the inner call returns is called
                function = node.child_by_field_name("function")
                callee = _dotted(self._text(function)) if function is not None else ""
                if (
                    callee == "type"
                    and _SPACE.sub("", self._text(node)) == "type(self)"
                    and (made := self._class_of_self(owner))
                ):  # `type(self)(...)`: an instance of the class (as `cls()`, the class the method is in)
                    add(_new(Relation, ("calls", owner, "type(self)()", call_line, "", FLOWED + made)))
                elif held := (
                    self._returned(callee)
                    or (callee in value_names and self._returned(self._held(owner, callee, start)))  # `a = f; a()()`
                    or self._got(node, callee, owner)
                    or self._next(node, callee, owner)
                    or self._returned_argument(node, callee, owner)
                    or self._got_attribute(node, callee, owner)
                ):
                    add(_new(Relation, ("calls", owner, callee + "()", call_line, "", FLOWED + held)))
                elif choices := self.returned_choices.get(callee):  # `pick(n)()`: one call per function
                    for choice in choices:
                        add(_new(Relation, ("calls", owner, callee + "()", call_line, "", FLOWED + choice)))
                elif marked := self._marked_call(callee or (callee := _made_method(function, self._text))):
                    # `choose()()`, choose another module's; `Order().payer()()`: what payer returns
                    marked = self._retyped(marked, owner, start)
                    add(_new(Relation, ("calls", owner, callee + "()", call_line, "", marked)))
                elif _is_type_name(callee) and self._names_code(callee.partition(".")[0]):  # `A()()`: its __call__
                    add(_new(Relation, ("calls", owner, callee + "()", call_line, "", FLOWED + callee + INSTANCE)))
                elif (
                    function is not None
                    and function.type == "call"
                    and (returner := self._call_value(function))
                    and (held := self._returned(returner) or self._returned_argument(node, returner, owner))
                ):  # `outer()()()`: what middle (outer's) returns; `pick()(first)()`: pick returns
                    # ident, ident returns its parameter: first is called
                    add(_new(Relation, ("calls", owner, self._text(function) + "()", call_line, "", FLOWED + held)))
                elif function is not None and (held := self._lambda_returned(function, owner)):
                    add(_new(Relation, ("calls", owner, self._text(function) + "()", call_line, "", FLOWED + held)))
                continue
            receiver, _, name = text[start : node.end_byte].rpartition(".")
            receiver_type = ""
            if loop_names and (receiver in loop_names or (not receiver and name in loop_names)):
                if self._loop_calls(owner, receiver, name, start, call_line):
                    continue
            if receiver:
                if "\n" in receiver:  # the line of the name, not of the receiver's start
                    call_line += receiver.count("\n")
                    receiver = _LINE_BREAK.sub("", receiver)
                if receiver[-1] in _BLANK:
                    receiver = receiver.rstrip(_BLANK)
                if name[:1] in _NAME_GAP:  # obj.\\n    name(): the name's own line
                    call_line += name.count("\n")
                    name = name.lstrip(_NAME_GAP)
                # What was set on this very object before the call (`box.f = first; box.f()`) comes
                # before what its class's attribute holds (`b = Box(); b.handler = second`).
                if name == "__class__" and receiver in _SELF_NAMES and (made := self._class_of_self(owner)):
                    # `self.__class__(...)`: an instance of the class (as `cls()`, the class the method is in)
                    add(_new(Relation, ("calls", owner, name, call_line, "", FLOWED + made)))
                    continue
                if receiver in attribute_holders and (held := self._held(owner, f"{receiver}.{name}", start)):
                    add(_new(Relation, ("calls", owner, name, call_line, "", FLOWED + held)))
                    continue
                if name in attribute_names and (held := self._class_attribute(owner, receiver, name, start)):
                    for value in (held,) if held.__class__ is str else held:  # several: a call of each
                        add(_new(Relation, ("calls", owner, name, call_line, "", FLOWED + value)))
                    continue
                if receiver[-1:] in _SUBSCRIPT_ENDS and (item := self._item_receiver(receiver, owner, start)):
                    receiver_type = FLOWED + item  # `handlers[0].handle()`, `kinds["a"]().run()`
                elif receiver in typed_names:
                    receiver_type = self._type_of(owner, receiver, start)
                elif receiver[:6] == "super(":
                    receiver = "super()"
                elif receiver in _CLASS_OF_SELF and (cls := self._enclosing_class(owner)) >= 0:
                    if self.parents[cls] == -1:  # `type(self).make()`: the class's own (as `self.make()`)
                        receiver_type = self.symbols[cls][1]
                elif field_types and receiver[:5] == "self.":
                    cls = self._enclosing_class(owner)
                    if cls in field_types:
                        receiver_type = field_types[cls].get(receiver[5:], "")
                if not receiver_type and receiver in value_names:  # `alias = order; alias.pay()`
                    held = self._held(owner, receiver, start)
                    receiver_type = FLOWED + held if held else ""
                if not receiver_type and receiver[-1:] == ")":  # `make().pay()`
                    made = _one_call(receiver)
                    if made in self.return_types:
                        receiver_type = self.return_types[made]
                    elif (
                        made in value_names
                        and _is_type_name(held := self._last_before(self.local_values, owner, made, start))
                        and self._names_code(held.partition(".")[0])
                    ):  # `kind = make(); kind().pay()`: an instance of the class kind holds
                        receiver_type = FLOWED + held
                    elif made in self.returned_params and (
                        held := self._instance_returned(node.child_by_field_name("object"), made)
                    ):  # `ident(Box()).handle()`, ident returning its parameter
                        receiver_type = FLOWED + held
                    elif made:  # another module's make, self.make(): its returns edge
                        receiver_type = self._marked_call(made)
                    elif chain := _call_chain(receiver):  # `A().f().g()`, `a.f(1).f().g()`: returns edges, one by one
                        receiver_type = FLOWED + chain
                    elif (maker := _result_called(receiver)) and _is_type_name(made := self._returned(maker)):
                        receiver_type = FLOWED + made  # `kind()().pay()`, kind returning a class of the file
                if len(receiver) > RECEIVER_MAX:
                    receiver = receiver[: RECEIVER_MAX - 1] + self.ellipsis
            elif name in value_names:  # `b = a = first; b()`: what b holds is called
                held = self._held(owner, name, start)
                receiver_type = FLOWED + held if held else ""
            elif name == "cls" and (cls := self._enclosing_class(owner)) >= 0 and self.parents[cls] == -1:
                receiver_type = FLOWED + self.symbols[cls][1]  # `cls()` in a classmethod: its class
            elif name in typed_names:  # `h = choose(); h()`, choose another module's; `a = A(); a()`: its __call__
                made = self._type_of(owner, name, start)
                if made[-2:] != INSTANCE:
                    made = made.lstrip(FLOWED)
                    made = FLOWED + made + INSTANCE if made and _is_type_name(made) else ""
                receiver_type = made
            if not receiver_type and receiver in _SELF_NAMES and field_params and owner >= 0:
                # `self._target()` with `self._target = target` in __init__: what calls pass target
                receiver_type = field_params.get(self._enclosing_class(owner), {}).get(name, "")
            if not receiver_type and owner >= 0:  # `f()`, `f.run()` where f is a parameter: what callers pass
                through = receiver or name
                # Then the signature's text (self and cls are in every method's): most names called are no
                # parameter of their def.
                if through not in _SELF_NAMES and through in symbols[owner][7] and through.isidentifier():
                    # (not one the def gives another value: `f = wrap(f)`)
                    if through not in self.local_values.get(owner, ()) and through not in self.local_types.get(
                        owner, ()
                    ):
                        receiver_type = self._parameter(owner, through)
            if not receiver_type and owner >= 0:
                # `for report in make(): report.render()` beside the module's report: the def's own
                # name (only names the module gives a value are looked at: the rest has no namesake
                # a value would lead to, and the look costs a read of the def's text)
                through = (receiver or name).partition(".")[0]
                if through in module_held and self._own_name(owner, through):
                    receiver_type = OWN_NAME
            if receiver_type[-2:] == INSTANCE:
                receiver_type = self._retyped(receiver_type, owner, start)
            add(_new(Relation, ("calls", owner, name, call_line, receiver, receiver_type)))
            if start in callback_starts:  # a function passed to be called (_callbacks): no arguments here
                continue
            head = receiver or name + "("  # `x()` and `x.f()` differ when x is a local: kept apart
            if (passes := passes_by_head.get(head)) is None:
                first_name = head.partition(".")[0].partition("(")[0]
                passes = passes_by_head[head] = (
                    first_name in sources
                    or receiver in typed_instances
                    # a method of this module's class: `Runner().run(f)` (not `Runner(f)`:
                    # _arguments binds a constructor of the file)
                    or (bool(receiver) and first_name in classes)
                )
            # `self.run(f)`: a method a class of this file defines (not the 40,000 inherited
            # `self.assertEqual(...)` of CPython's tests, whose values would never settle on one)
            if passes or (receiver in _SELF_NAMES and name in own_methods):
                # The text first: nine in ten such calls pass nothing this file names as code. Up to
                # the first ")" it is the whole argument list unless a call, a bracket or a string
                # is inside: then _passes asks the tree (which costs more than reading).
                begin = node.end_byte + 1  # past "("
                first = text[begin : text.find(")", begin)]
                if _NESTED.search(first) or not passable.isdisjoint(_WORD.findall(first)):
                    passing.append((node, owner, receiver, name, start))
            if name in _DEPRECATION_CALLS and receiver in ("warnings", "") and self._warns_deprecation(node, owner):
                target = owner if owner >= 0 else 0  # at module level: the module symbol
                symbol = self.symbols[target]
                if "deprecated" not in symbol[10]:
                    self.symbols[target] = symbol._replace(modifiers=symbol[10] + ("deprecated",))
        if passing:
            self._passes(passing)

    def _tk_event_before(self, arguments, position: int) -> bool:
        """Whether the argument before ``position`` is a string that reads as a Tk event sequence."""
        given = [a for a in arguments.named_children if a.type != "comment"]
        if len(given) <= position or given[position - 1].type != "string":
            return False
        return self._text(given[position - 1]).lstrip("rRbBuU")[1:2] == "<"

    def _callbacks(self, functions) -> list:
        """The functions passed to a standard-library function that calls them, then or later
        (_CALLBACK_TAKERS: `sorted(names, key=_order)`, `map(parse, lines)`, `items.sort(key=
        self._rank)`, `threading.Thread(target=self._run)`): each is called as if where it is
        passed, so _calls reads it as a call there — a function of this module, an imported one, a
        method through ``self`` (its class's or inherited), a parameter (what callers pass it), a name
        holding a followed value, or a built-in. Anything else (a lambda, a call's result, an
        unknown local) says nothing."""
        text, sources = self.text, self.import_sources
        found: list = []
        shadowed: dict[str, bool] = {}
        for function in functions:
            end = function.end_byte
            if text[end - 3 : end] not in _TAKER_ENDINGS:  # most calls are of other names: read 3 letters
                continue
            receiver, _, name = text[function.start_byte : end].rpartition(".")
            taker = _CALLBACK_TAKERS.get(name)
            if taker is None:
                continue
            modules, positions, keywords = taker
            if modules is None:  # `x.sort(key=...)`: a method, whatever x is
                if not receiver:
                    continue
            elif receiver:  # `functools.reduce(...)`, `threading.Thread(...)`
                if sources.get(receiver) not in modules:
                    continue
            elif modules == ("builtins",):  # `sorted(...)`, unless the file gives the name another meaning
                if (was := shadowed.get(name)) is None:
                    was = shadowed[name] = self._names_code(name) or _binds_in(
                        text, 0, len(text), name, self.tree.root_node
                    )
                if was or self._is_parameter(function.start_byte, name):
                    continue
            elif sources.get(name) not in modules and not (  # `from itertools import groupby`
                name not in sources  # `from tkinter import *`, then `Button(...)`, unless the file names its own
                and not self.star_sources.isdisjoint(modules)
                and not self._names_code(name)
            ):
                continue
            call = function.parent
            arguments = call.child_by_field_name("arguments") if call is not None else None
            if arguments is None or arguments.type != "argument_list":
                continue
            if name in _TK_BINDERS and not self._tk_event_before(arguments, _TK_BINDERS[name]):
                continue
            position = 0
            for argument in arguments.named_children:
                if argument.type == "keyword_argument":
                    keyword = argument.child_by_field_name("name")
                    if keyword is None or self._text(keyword) not in keywords:
                        continue
                    argument = argument.child_by_field_name("value")
                elif argument.type == "comment":
                    continue
                elif argument.type in ("list_splat", "dictionary_splat"):
                    break  # positions past a splat are not known
                else:
                    position += 1
                    if position - 1 not in positions:
                        continue
                if argument is None or argument.type not in ("identifier", "attribute"):
                    continue
                written = self._text(argument)
                if not _DOTTED_NAME.fullmatch(written):
                    continue
                head, _, rest = written.partition(".")
                if head in _SELF_NAMES:
                    if "." in rest:  # `self.x` only: `self.server.handle` is another object's
                        continue
                elif not (
                    self._names_code(head)
                    or head in self.value_names
                    or head in self.typed_names
                    or (head in _BUILTIN_NAMES and not self._names_code(head))
                    or self._is_parameter(argument.start_byte, head)
                ):
                    continue
                self.callback_starts.add(argument.start_byte)
                found.append(argument)
        return found

    def _is_parameter(self, byte: int, name: str) -> bool:
        """Whether ``name`` at ``byte`` is a parameter of the def it is in (or of one around it)."""
        owner, symbols, is_class, parents = self._owner(byte), self.symbols, self.is_class, self.parents
        while owner >= 0:
            if not is_class[owner] and name in _WORD.findall(symbols[owner][7]):
                return True
            owner = parents[owner]
        return False

    def _aliased_bases(self) -> None:
        """``class Checks(TestCase)`` with ``TestCase = unittest.TestCase`` above it in the same
        scope extends unittest.TestCase: a base is evaluated where the class statement stands, so a
        name holding a class there is that class (the variable itself has no members to inherit).
        Only a name given one value in that scope: `base = Big` in one branch and `base = Little`
        in the other would be a guess."""
        relations, parents, value_names = self.relations, self.parents, self.value_names
        for position, class_index, byte in self.named_bases:
            written = relations[position][2]
            if written not in value_names or self._names_code(written):
                continue
            scope = parents[class_index]  # (a parameter holds what each call passes: not one value)
            if len(self.local_values.get(scope, {}).get(written, ())) != 1 or self._is_parameter(byte, written):
                continue
            held = self._last_before(self.local_values, scope, written, byte)
            if (
                held
                and held != written
                and _DOTTED_NAME.fullmatch(held)
                and _is_type_name(held)
                and self._names_code(held.partition(".")[0])  # not `self.decimal.Decimal`: an instance's
            ):
                relations[position] = relations[position]._replace(target=held)

    def _class_of_self(self, owner: int) -> str:
        """The name of the top-level class whose method ``owner`` is in ("" in none): what
        `self.__class__` and `type(self)` make when called, as `cls()` in a classmethod."""
        cls = self._enclosing_class(owner) if owner >= 0 else -1
        return self.symbols[cls][1] if cls >= 0 and self.parents[cls] == -1 else ""

    def _loop_calls(self, owner: int, receiver: str, name: str, byte: int, line: int) -> bool:
        """``f()`` or ``shape.area()`` in a loop whose variable takes known values: one call per
        value (a function, or a method of an instance's class). False when the loop says nothing."""
        values = self._loop_values(owner, receiver or name, byte)
        wanted = [v[:-2] for v in values if v[-2:] == "()"] if receiver else [v for v in values if v[-2:] != "()"]
        for value in wanted:
            self.relations.append(_new(Relation, ("calls", owner, name, line, receiver, FLOWED + value)))
        return bool(wanted)

    def _class_attribute(self, owner: int, receiver: str, name: str, byte: int) -> str | tuple[str, ...]:
        """What ``self.handler()``, ``Dispatcher.handler()``, ``Dispatcher().handler()`` or
        ``d.handler()`` (d a Dispatcher) calls when the class says what its attribute holds
        (``handler = default_handler``, ``self.handler = handler``, a decorated method's wrapper;
        a tuple when the calls of the class pass ``handler`` several functions); "" otherwise."""
        if receiver in _SELF_NAMES:
            cls = self._enclosing_class(owner)
        else:
            if receiver in self.typed_names:
                receiver = self._type_of(owner, receiver, byte).lstrip(FLOWED)
            elif receiver[-1:] == ")":
                receiver = _one_call(receiver)
            cls = next((i for i in self.field_values if self.symbols[i][1] == receiver and self.parents[i] == -1), -1)
        return self.field_values.get(cls, {}).get(name, "") if cls >= 0 else ""

    def _warns_deprecation(self, function, owner: int) -> bool:
        """Is this ``warn(...)``/``_deprecated(...)`` call an unconditional deprecation warning of
        its scope: a statement of the scope's own body, and a DeprecationWarning?"""
        call = function.parent
        statement = call.parent if call is not None else None
        if statement is None or statement.type != "expression_statement":
            return False
        block = statement.parent
        if owner < 0:
            if block is None or block.type != "module":
                return False
        elif block is None or block.parent is None or block.parent.type not in _DEFINITIONS:
            return False
        callee = self._text(function)
        if callee == "warnings._deprecated" or (
            callee == "_deprecated" and self.import_sources.get("_deprecated") == "warnings"
        ):
            return True
        return "DeprecationWarning" in self.text[function.end_byte : call.end_byte]

    # -- exports --

    def _exports(self, all_names, all_line) -> list[Export]:
        """``__all__`` when it is a literal; else the public names this module itself defines."""
        if all_names is not None:
            sources = self.import_sources
            return [
                _new(Export, (name, all_line, "all", sources.get(name, ""), "")) for name in dict.fromkeys(all_names)
            ]
        exports = []
        seen = set(self.import_sources)  # an imported name is not this module's own export
        for symbol in self.symbols[1:]:
            name = symbol[1]
            if symbol[9] == -1 and name[:1] != "_" and name not in seen:
                seen.add(name)
                exports.append(_new(Export, (name, symbol[3], "", "", "")))
        return exports


_WORD = re.compile(r"[A-Za-z_]\w*", re.ASCII)
# The key a dict comprehension's values are held under (its keys are computed): no string literal
# of the source can be it (a NUL in source text is written escaped).
_ANY_KEY = "\0any"
# (?<!\w): a name starts at a word boundary only (a search from inside one failed at every letter)
_SELF_DEFAULT = re.compile(r"(?<!\w)([A-Za-z_]\w*)\s*(?::[^=,()]*)?=\s*([A-Za-z_]\w*)\s*(?=[,)])", re.ASCII)
_NESTED = re.compile(r"[(\[{'\"#]")  # past "f(": what may hide a ")" that does not end the call
_PARAMETER_NAME = re.compile(r"\*{0,2}([A-Za-z_]\w*)", re.ASCII)


def _forward(
    forwarded: list[tuple[_Parameters, int, str, bool, int]],
    bound: dict[tuple[int, str], set[str]],
    spread: dict[tuple[int, str, bool], dict[str, set[str]]],
) -> None:
    """What the calls of ``def relay(*args, **kwargs)`` pass it reaches the function relay hands
    its `*args`/`**kwargs` on to (`run(*args, **kwargs)`): by position past those written before
    the spread, by keyword; what runs past the callee's named parameters into its own. A few hops
    (relay to relay to run); what nothing passes is not invented."""
    for _ in range(4):
        grew = False
        for (at, names, keyword_only, star, double_star), caller_at, name, is_star, before in forwarded:
            for key, values in list(spread.get((caller_at, name, is_star), {}).items()):
                if not values:
                    continue
                if is_star:
                    position = before + int(key)
                    if position < len(names):
                        slot, into = names[position], None
                    elif star:
                        slot, into = str(position - len(names)), (at, star, True)
                    else:
                        continue
                elif key in names or key in keyword_only:
                    slot, into = key, None
                elif double_star:
                    slot, into = key, (at, double_star, False)
                else:
                    continue
                held = (
                    bound.setdefault((at, slot), set())
                    if into is None
                    else spread.setdefault(into, {}).setdefault(slot, set())
                )
                if not values <= held:
                    held |= values
                    grew = True
        if not grew:
            return


def _signature_parameters(signature: str, bound: bool) -> dict[str, str]:
    """A def's parameters from its one-line signature: name -> PARAMETER mark (position as a call
    writes it, "" past ``*``; ``self`` not counted when ``bound``). Commas inside brackets and
    strings of a default or annotation do not split."""
    start = signature.find("(")
    if start < 0:
        return {}
    end = signature.find(")", start)
    inner = signature[start + 1 : end]
    if end > 0 and not _NESTED.search(inner):  # nearly every def: split at the commas
        return _positions(inner.split(","), bound)
    parts, depth, quote, begin = [], 0, "", start + 1
    for i in range(start + 1, len(signature)):
        c = signature[i]
        if quote:
            if c == quote and signature[i - 1] != "\\":
                quote = ""
        elif c in "\"'":
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                parts.append(signature[begin:i])
                break
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(signature[begin:i])
            begin = i + 1
    return _positions(parts, bound)


def _positions(parts: list[str], bound: bool) -> dict[str, str]:
    found: dict[str, str] = {}
    position = -1 if bound else 0
    keyword_only = False
    for part in parts:
        part = part.strip()
        if part in ("", "/"):
            continue
        if part == "*":
            keyword_only = True
            continue
        match = _PARAMETER_NAME.match(part)
        if match is None:
            continue
        if part[:1] == "*":  # *args, **kwargs: not one value
            keyword_only = True
            continue
        if position >= 0:  # the bound self or cls is no parameter a call passes
            found[match.group(1)] = f"{PARAMETER}{'' if keyword_only else position}:{match.group(1)}"
        position += 1
    return found


def _with_decorator_modifiers(decorators: tuple[str, ...]) -> tuple[str, ...]:
    """("@abc.abstractmethod",) -> ("@abc.abstractmethod", "abstract")."""
    modifiers = list(decorators)
    for decorator in decorators:
        for modifier in _DECORATOR_MODIFIERS.get(decorator.rpartition(".")[2].lstrip("@"), ()):
            if modifier not in modifiers:
                modifiers.append(modifier)
    return tuple(modifiers)
