"""Cross-file resolution: which symbol does ``order.charge()`` or ``class A(Base)`` mean.

Runs after extraction, over the in-memory symbol index and each file's import bindings, using
only what the syntax says: containment, imports, same-package visibility and inheritance. Every
resolved edge says how it was found (model.EXACT / IMPORT / INHERITED / NAME_ONLY); an edge it
cannot resolve stays unresolved (and countable) rather than pointing at a guess.
"""

from __future__ import annotations

import os
import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from codecairn.extractors.routes import RouteTable
from codecairn.hookspecs import Language, ResolutionRules
from codecairn.index.passed import MAX_VALUES, encoded
from codecairn.index.symbol_index import SymbolIndex
from codecairn.model import (
    CALLABLE_KINDS,
    DATA_KINDS,
    EXACT,
    FLOW,
    FLOWED,
    HARMLESS_BASES,
    HTTP_CALLS,
    IMPORT,
    INHERITED,
    INSTANCE,
    NAME_ONLY,
    OWN_NAME,
    PARAMETER,
    PASSES,
    RETURNS,
    ROUTE,
    TYPE_KINDS,
    FileInfo,
    external_resolution,
)

# Moved on when the resolver finds other targets for the same edges: an index made by an older one
# resolves every edge again once (the facts stay; index/indexer.py). "2": names re-exported through
# `from x import *` reached as module attributes (`collections.abc.MutableMapping`); calls out of
# the index labelled external; a mixin's self calls through its subclasses (flow). "3": a class
# call is an edge to the __init__ it runs; `import *` honours __all__; returns edges and the calls
# that follow them across modules. "4": a method of a class from outside the index, called on an
# instance of it, is external (`d = OrderedDict(); d.move_to_end()`). "5": what other modules pass
# a function's parameters, followed into the calls through them (model.PASSES, PARAMETER). "6":
# `super().__init__()` of a class whose supertypes are all in the index and lack it is object's
# (external); a call through a parameter a few values reach is an edge to each (model.ALSO). "7":
# a call through a parameter nothing is known to bind stays unresolved (not its namesake's); a call
# through a name imported from several places is an edge to each (model.ALSO). "8": supertypes in
# C3 order (Python's MRO, SymbolIndex.ancestors); a call reaching a variable whose returns edge names
# a function or class reaches that (`config.handler()`, a base class's `handler = first`). "9": a
# supertype outside the index is named (`class Table(dict)` extends `builtins.dict`, external), and
# what a class's one such base gives it is that base's (`self.values()` → `builtins.dict.values`).
# "10": a member a built-in type lacks is not called on it (`x = []; x.keys()`, `self.items()` in
# `class Table(list)`: unresolved, not `builtins.list.keys`; ResolutionRules.builtin_members).
# "11": a name-only guess never reaches a function's locals (a function or class defined inside
# one); a mixin's self call does not follow subclasses defined inside functions, nor a class with
# `__getattr__`; a namespace import reaches a name the module exports under another; of the symbols
# one qualified name holds (Rust crates all say `crate::`), the nearest the call is taken; a name in
# an enclosing namespace is looked up in that namespace's other files too.
VERSION = "11"
RESOLVER_META_KEY = "resolver"

SCOPE_ROOT_KINDS = frozenset({"module", "package"})
CLASSLIKE = TYPE_KINDS | {"impl"}
BARE_CALLABLE_KINDS = frozenset({"function", "macro"}) | TYPE_KINDS
REFERENCE_EXCLUDED = (CALLABLE_KINDS - {"macro"}) | DATA_KINDS
_PATH_RE = re.compile(r"^[A-Za-z_$][\w$]*(?:(?:\.|::)[A-Za-z_$][\w$]*)*$")
_PATH_SEP = re.compile(r"\.|::")
PYTHON_BUILTINS = "builtins"
CALL_METHOD = "__call__"  # what calling a Python instance runs
# A call of a dotted name as a call's receiver (`Order(1).pay()`: "Order", "1").
_CALL_RECEIVER = re.compile(r"([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\((.*)\)", re.DOTALL)
# A string literal (any prefix), or a list display, as a call's receiver.
_LITERAL_RECEIVER = re.compile(r"(?:([rRbBuUfF]{0,2})[\"']|\[)")


ModuleMap = tuple[dict[tuple[str, str], list[int]], dict[str, set[str]]]


@dataclass
class Bindings:
    """What a file's imports bring into scope."""

    names: dict[str, list[str]] = field(default_factory=dict)  # local name -> qualified targets
    wildcards: list[str] = field(default_factory=list)  # qualified prefixes (import a.*)
    default: str = ""  # the name the file exports as default
    public: frozenset[str] | None = None  # what `import *` takes from it (its __all__); None: not said


class Resolver:
    def __init__(
        self,
        index: SymbolIndex,
        files: dict[int, FileInfo],
        languages: dict[str, Language],
        bindings: dict[int, Bindings],
        modules: ModuleMap | None = None,
    ) -> None:
        """``modules``: module_map() of an earlier resolver over the same files, when the caller
        knows no file came, went or changed module since (the narrow path keeps it between edits)."""
        self.index = index
        self.files = files
        self.languages = languages
        self.rules = {name: lang.resolution for name, lang in languages.items()}
        self.bindings = bindings
        self._top: dict[int, dict[str, list[int]]] = {}
        self._module_files: dict[tuple[str, str], list[int]] | None = modules[0] if modules else None
        self._module_top: dict[tuple[str, str], dict[str, list[int]]] = {}
        self._modules_by_lang: dict[str, set[str]] | None = modules[1] if modules else None
        self._module_cache: dict[tuple[str, str], str | None] = {}
        self._name_only_cache: dict[tuple[str, frozenset[str]], tuple[int, str] | None] = {}
        self._external_cache: dict[tuple[int, str], str | None] = {}  # (module file, name) -> outside
        self._subclass_cache: dict[tuple[int, str], int | None] = {}
        self._root_cache: dict[int, bool] = {}  # type id -> _super_ends_at_root
        self._scope_names: dict[int, dict[str, list[int]]] = {}
        self._member_cache: dict[tuple[int, str], tuple[int, str] | None] = {}
        self._outside_member_cache: dict[tuple[int, str], str | None] = {}  # _from_external_base's
        self._sep_of_file: dict[int, str] = {}
        self._file_lookup_cache: dict[tuple, tuple[int, str] | None] = {}
        self._inherited_cache: dict[tuple, int | None] = {}
        self._lookup_cache: dict[tuple, tuple[int, str] | None] = {}
        self._path_cache: dict[tuple, tuple[str, Any, str] | None] = {}
        self._routes: RouteTable | None = None
        # Functions whose passed values resolve_first changed: the calls through their parameters
        # are resolved again (index/narrow.py).
        self.rebound: set[int] = set()
        # Calls through a parameter a few values reach: edge id -> its targets past the first
        # (model.ALSO), for the rows written beside the call's own edge.
        self.also: dict[int, tuple[int, ...]] = {}

    def names_in(self, scope_id: int) -> dict[str, list[int]]:
        """A scope's direct children by name, in declaration order, built once per scope."""
        names = self._scope_names.get(scope_id)
        if names is None:
            names = {}
            rows = self.index.rows
            for cid in self.index.children.get(scope_id, ()):
                names.setdefault(rows[cid].name, []).append(cid)
            self._scope_names[scope_id] = names
        return names

    def top_level(self, file_id: int) -> dict[str, list[int]]:
        top = self._top.get(file_id)
        if top is None:
            top = defaultdict(list)
            rows = self.index.rows
            for sid in self.index.by_file.get(file_id, ()):
                s = rows[sid]
                if s.parent_id is None or rows[s.parent_id].kind in SCOPE_ROOT_KINDS:
                    if s.kind not in SCOPE_ROOT_KINDS:
                        top[s.name].append(sid)
            self._top[file_id] = top
        return top

    def _modules(self) -> dict[tuple[str, str], list[int]]:
        if self._module_files is None:
            self._module_files = defaultdict(list)
            self._modules_by_lang = defaultdict(set)
            families: dict[str, str] = {}
            for fid, info in self.files.items():
                if (family := families.get(info.language)) is None:
                    family = families[info.language] = self._family(info.language)
                self._module_files[(family, info.module)].append(fid)
                self._modules_by_lang[family].add(info.module)
        return self._module_files

    def module_map(self) -> ModuleMap:
        """(family, module) -> its files, and family -> its modules: what _modules() builds from
        every file (≈ 2 ms on CPython's Lib), for a later resolver over the same files."""
        self._modules()
        assert self._module_files is not None and self._modules_by_lang is not None
        return self._module_files, self._modules_by_lang

    def _family(self, language: str) -> str:
        lang = self.languages.get(language)
        return (lang.family or lang.name) if lang is not None else language

    def package_top(self, language: str, module: str) -> dict[str, list[int]]:
        key = (self._family(language), module)
        top = self._module_top.get(key)
        if top is None:
            top = defaultdict(list)
            for fid in self._modules().get(key, ()):
                for name, ids in self.top_level(fid).items():
                    top[name].extend(ids)
            self._module_top[key] = top
        return top

    def module_named(self, language: str, qualified: str) -> str | None:
        """The indexed module an import target names: exactly, or as a path suffix
        (Go's "golang.org/x/tools/go/ast" is the directory "go/ast" when the root is x/tools)."""
        key = (self._family(language), qualified)
        if key in self._module_cache:
            return self._module_cache[key]
        self._modules()
        assert self._modules_by_lang is not None
        modules = self._modules_by_lang.get(key[0], set())
        found = None
        if qualified in modules:
            found = qualified
        elif "/" in qualified:
            # Longest indexed suffix first: strip leading path components one at a time.
            rest = qualified
            while "/" in rest:
                rest = rest.split("/", 1)[1]
                if rest in modules:
                    found = rest
                    break
        self._module_cache[key] = found
        return found

    # ---- entry point ----------------------------------------------------------------------------

    def resolve_first(self, edges: list[tuple]) -> list[tuple]:
        """extends/implements first, then returns: call resolution walks what they give."""
        out = []
        returns = []
        passes = []
        for eid, file_id, kind, source_id, target, receiver, receiver_type in edges:
            if kind == RETURNS:
                returns.append((eid, file_id, source_id, target, receiver_type))
                continue
            if kind == PASSES:
                passes.append((eid, file_id, source_id, target, receiver, receiver_type))
                continue
            found = self._resolve_type_path(target, file_id, source_id)
            owners = self.owners(source_id, receiver_type)
            if found is not None:
                tid, how = found
                out.append((tid, how, eid))
                for owner in owners:
                    self.index.set_bases([(owner, tid)])
                self.index.set_external_base(owners, eid, None)
            elif target in HARMLESS_BASES:
                out.append((None, None, eid))  # type: ignore[arg-type]  # unresolved: written as NULLs
                self.index.set_external_base(owners, eid, None)
            else:
                self.index.mark_open(owners)
                # `class Table(dict)`, `class Handler(BaseHTTPRequestHandler)`: the base outside the index
                outside = self._external_supertype(file_id, source_id, target)
                out.append((None, external_resolution(outside) if outside else None, eid))  # type: ignore[arg-type]
                self.index.set_external_base(owners, eid, outside)
        # What was looked up so far saw fewer bases than there are now.
        self._subclass_cache.clear()
        self._root_cache.clear()
        self._member_cache.clear()
        self._outside_member_cache.clear()
        self._inherited_cache.clear()
        self._file_lookup_cache.clear()
        self._lookup_cache.clear()
        self._path_cache.clear()
        for eid, file_id, source_id, target, receiver_type in returns:
            got = self._returned_target(target, file_id, source_id)
            if got is not None and source_id is not None:
                self.index.returns[source_id] = (got[0], receiver_type == INSTANCE)
                out.append((got[0], got[1], eid))
            else:
                if source_id is not None:
                    self.index.returns.pop(source_id, None)
                out.append((None, None, eid))  # type: ignore[arg-type]
        # What calls pass other modules' functions: after the returns, as a callee may be reached
        # through one (`make().run(callback)`).
        passed = self.index.passed
        for eid, file_id, source_id, callee, value, key in passes:
            bound = self._passed(file_id, source_id, callee, value, key)
            if bound is None:
                self.rebound |= passed.put(eid, None)
                out.append((None, None, eid))  # type: ignore[arg-type]
            else:
                function, key, vid, instance = bound
                self.rebound |= passed.put(eid, (file_id, function, key, vid, instance))
                out.append((function, encoded(vid, instance), eid))
        return out

    def _passed(
        self, file_id: int, source_id: int | None, callee: str, value: str, key: str
    ) -> tuple[int, str, int, bool] | None:
        """(function, parameter key, value, an instance of it?) of a passes edge: the function
        the call reaches (a class's constructor), the value resolved where the call is written."""
        info = self.files.get(file_id)
        rules = self.rules.get(info.language) if info else None
        if info is None or rules is None:
            return None
        receiver, _, name = callee.rpartition(rules.separator)
        found = self._call_in_index(info, rules, file_id, source_id, name, receiver, "")
        if found is None:
            return None
        rows = self.index.rows
        function = found[0]
        if rows[function].kind in TYPE_KINDS:  # `Service(callback)`: its __init__'s parameters
            init = self.member(function, rules.constructor) if rules.constructor else None
            if init is None:
                return None
            function = init[0]
        if rows[function].kind not in CALLABLE_KINDS:
            return None
        instance = value[-2:] == INSTANCE
        got = self._returned_target(value[:-2] if instance else value, file_id, source_id)
        if got is None:
            return None
        kind = rows[got[0]].kind
        if kind not in TYPE_KINDS and (instance or kind not in CALLABLE_KINDS):
            return None
        return function, key, got[0], instance

    def _returned_target(self, target: str, file_id: int, function_id: int | None) -> tuple[int, str] | None:
        """The class or function a returns edge names, looked up from inside the function."""
        info = self.files.get(file_id)
        rules = self.rules.get(info.language) if info else None
        if rules is None:
            return None
        if rules.separator not in target:  # `return first`: a function or class in scope
            return self.lookup(target, file_id, function_id, rules, callable_only=True, exclude=DATA_KINDS)
        found = self._resolve_path(target, file_id, function_id, rules)
        return (found[1], found[2]) if found is not None and found[0] == "symbol" else None

    def _returned(
        self, callee: str, file_id: int, source_id: int | None, rules: ResolutionRules
    ) -> tuple[int, bool] | None:
        """What a call of ``callee`` gives, as (symbol id, an instance of it?): a class gives an
        instance; a function or method what its returns edge says (another module's `make`,
        `choose`; `self.make`, `Order.copy`)."""
        receiver, dot, name = callee.rpartition(rules.separator)
        if dot:  # a method or a module's function: found as a call of it is
            hit = self._call_in_index(self.files[file_id], rules, file_id, source_id, name, receiver, "")
            if hit is None:
                return None
            sid = hit[0]
        else:
            found = self._resolve_path(callee, file_id, source_id, rules)
            if found is None or found[0] != "symbol":
                return None
            sid = found[1]
        if self.index.rows[sid].kind in CLASSLIKE:
            return sid, True
        got = self.index.returns.get(sid)
        return got if got is not None and got[0] in self.index.rows else None

    def forget_file_scoped(self) -> None:
        """Drop what was remembered per file and scope. Edges come file by file, so once a file's
        are done its entries are never asked for again (≈ 150k of them, ≈ 25 MB, by the end of
        CPython's Lib); what is remembered per type or name stays."""
        self._lookup_cache.clear()
        self._file_lookup_cache.clear()
        self._path_cache.clear()

    def owners(self, source_id: int | None, receiver_type: str) -> list[int]:
        """The type an extends/implements edge belongs to: its source symbol, or — for a Rust
        ``impl Trait for Type`` away from Type's file — the type named (absolutely) in receiver_type."""
        if source_id is not None:
            return [source_id]
        rows = self.index.rows
        return (
            [t for t in self.index.by_qn.get(receiver_type, ()) if rows[t].kind in CLASSLIKE] if receiver_type else []
        )

    def resolve_calls(self, edges: list[tuple]) -> list[tuple]:
        out = []
        found: tuple[int | None, str] | None
        # The same call from the same scope has the same answer (`self.assertEqual(...)` forty
        # times in one test): 40 % of CPython's call edges repeat one of their file. Remembered for
        # the file at hand only (edges come file by file), so it stays small.
        answers: dict[tuple, tuple[int | None, str | None, tuple[int, ...]]] = {}
        answers_file = None
        for eid, file_id, kind, source_id, target, receiver, receiver_type in edges:
            if file_id != answers_file:
                answers.clear()
                answers_file = file_id
            key = (kind, source_id, target, receiver, receiver_type)
            answer = answers.get(key)
            if answer is None:
                also: tuple[int, ...] = ()
                if kind == "references":
                    found = self.resolve_reference(file_id, source_id, target)
                elif kind == HTTP_CALLS:
                    route = self.routes().match(target)
                    found = (route, ROUTE) if route is not None else None
                elif receiver_type[:1] == PARAMETER:
                    found, also = self._through_parameter(file_id, source_id, target, receiver, receiver_type)
                else:
                    found = self.resolve_call(file_id, source_id, target, receiver, receiver_type)
                    if found is not None and found[1] == IMPORT and found[0] is not None:
                        also = self._imported_elsewhere(file_id, target, receiver, found[0])
                answer = answers[key] = (found[0], found[1], also) if found else (None, None, also)
            if answer[2]:
                self.also[eid] = answer[2]
            out.append((answer[0], answer[1], eid))
        return out

    def _through_parameter(
        self, file_id: int, source_id: int | None, name: str, receiver: str, receiver_type: str
    ) -> tuple[tuple[int | None, str] | None, tuple[int, ...]]:
        """A call through a parameter (model.PARAMETER): what each value other modules' calls pass
        it makes the call reach, when they are a few (index/passed.py) — (the first, the others);
        else resolve_call's answer, the one value it follows or none."""
        info = self.files.get(file_id)
        rules = self.rules.get(info.language) if info is not None else None
        marked = self._marked_parameter(source_id, receiver, receiver_type)
        if rules is not None and marked is not None:
            function, position, parameter, receiver = marked
            values = self.index.passed.values(function, position, parameter)
            if len(values) > 1:
                rows = self.index.rows
                targets = sorted(
                    {
                        hit[0]
                        for value in values
                        if value[0] in rows
                        and (hit := self._call_on_returned(value, name, receiver, rules)) is not None
                    }
                )
                if targets:
                    return (targets[0], FLOW), tuple(targets[1:])
        return self.resolve_call(file_id, source_id, name, receiver, receiver_type), ()

    def _marked_parameter(
        self, source_id: int | None, receiver: str, receiver_type: str
    ) -> tuple[int, str, str, str] | None:
        """(function, position, parameter name, receiver) of a call's PARAMETER mark: ``@0:f`` is the
        calling function's own parameter (`f()`, `f.run()`); ``@0:target:threading.Thread.__init__``
        an attribute that function set from its parameter (`self._target()` with `self._target =
        target`), whose value is itself what is called (the receiver, self, is not the value's)."""
        position, _, parameter = receiver_type[1:].partition(":")
        parameter, _, function = parameter.partition(":")
        if not function:
            return (source_id, position, parameter, receiver) if source_id is not None else None
        rows = self.index.rows
        ids = [i for i in self.index.by_qn.get(function, ()) if rows[i].kind in CALLABLE_KINDS]
        return (ids[0], position, parameter, "") if ids else None

    def fan_out(self, calls: Iterable[tuple]) -> list[tuple[int, int, tuple[int, ...]]]:
        """(edge id, file id, targets past the first) of every call among ``calls`` (resolved by
        resolve_calls) that may reach several: through a parameter, or through a name imported
        from several places. The rows beside each are replaced by one per target (model.ALSO;
        Store.write_resolutions); none for a call that reaches one."""
        also = self.also
        return [
            (e[0], e[1], also.get(e[0], ()))
            for e in calls
            if e[6][:1] == PARAMETER or e[0] in also or self._imported_twice(e[1], e[4], e[5])
        ]

    def _imported_twice(self, file_id: int, name: str, receiver: str) -> bool:
        """Is the name a call goes through (``f()``, ``mod.f()``) imported from more than one place
        in its file (`try: from a import f` / `except ImportError: from b import f`)?"""
        binding = self.bindings.get(file_id)
        if binding is None or not binding.names:
            return False
        info = self.files.get(file_id)
        rules = self.rules.get(info.language) if info is not None else None
        head = receiver.partition(rules.separator)[0] if receiver and rules is not None else name
        return len(binding.names.get(head, ())) > 1

    def _imported_elsewhere(self, file_id: int, name: str, receiver: str, found: int) -> tuple[int, ...]:
        """The symbols besides ``found`` that a call reaches when the name it goes through is
        imported from several places — conditional imports, ``try``/``except ImportError`` pairs:
        the analysis follows values, not which branch runs, so each is a call that may happen."""
        if not self._imported_twice(file_id, name, receiver):
            return ()
        info = self.files[file_id]
        rules = self.rules.get(info.language)
        binding = self.bindings[file_id]
        if rules is None:
            return ()
        sep = rules.separator
        head, _, rest = receiver.partition(sep) if receiver else (name, "", "")
        rows = self.index.rows
        out: set[int] = set()
        for imported in binding.names[head]:
            whole = sep.join(p for p in (imported, rest, name if receiver else "") if p)
            ids = self.index.by_qn.get(whole)
            sid = ids[0] if ids else self._via_reexport(whole, info.language, sep)
            if sid is None:
                continue
            if rules.constructor and rows[sid].kind in TYPE_KINDS:
                sid = self._constructed((sid, IMPORT), rules.constructor)[0]
            out.add(sid)
        out.discard(found)
        return tuple(sorted(out)[: MAX_VALUES - 1])

    def routes(self) -> RouteTable:
        """Every route symbol's pattern, gathered on the first http_calls edge (most runs have none)."""
        if self._routes is None:
            self._routes = RouteTable((s.id, s.name) for s in self.index.rows.values() if s.kind == "route")
        return self._routes

    def resolve_reference(self, file_id: int, source_id: int | None, name: str) -> tuple[int, str] | None:
        """A use that is not a call (a Rust macro invocation, a type mention): scope and imports
        only, never a function, never a guess."""
        info = self.files.get(file_id)
        rules = self.rules.get(info.language) if info else None
        if rules is None:
            return None
        return self.lookup(name, file_id, source_id, rules, exclude=REFERENCE_EXCLUDED)

    # ---- calls ------------------------------------------------------------------------------------

    def resolve_call(
        self, file_id: int, source_id: int | None, name: str, receiver: str, receiver_type: str
    ) -> tuple[int | None, str] | None:
        """(symbol id, how), (None, an external resolution) for a call that leaves the indexed code,
        or None when it cannot be told."""
        info = self.files.get(file_id)
        if info is None:
            return None
        rules = self.rules.get(info.language)
        if rules is None:
            return None
        made = ""  # the class a receiver was made by, when only code outside the index may say more
        if receiver_type == OWN_NAME:
            return None  # the calling def's own name, its value unknown: no namesake answers it
        if receiver_type[:1] == PARAMETER:  # a parameter's value, when other modules' calls say it
            marked = self._marked_parameter(source_id, receiver, receiver_type)
            got = self.index.passed.bound(*marked[:3]) if marked is not None else None
            if marked is not None and got is not None and got[0] in self.index.rows:
                receiver = marked[3]
                followed = self._call_on_returned(got, name, receiver, rules)
                if followed is not None:
                    return followed
            # Nothing known of what the parameter holds. It is no namesake in scope: `callback()`
            # in `def run(callback)` is not the module's `callback`, `type.mro()` with a parameter
            # `type` not the built-in's, `string.join()` not the imported module's.
            return None
        if receiver_type[:1] == FLOWED:  # what the called name or the receiver holds, followed
            held = receiver_type[1:]
            if held[-2:] == INSTANCE:  # what a call returns: `make().pay()`, `h = choose(); h()`
                got = self._returned(held[:-2], file_id, source_id, rules)
                if got is not None:
                    return self._call_on_returned(got, name, receiver, rules)
                made = held[:-2] if receiver else ""
                receiver_type = ""  # nothing known of it: the call as if nothing had been followed
            elif receiver:
                found = self.resolve_call(file_id, source_id, name, receiver, held)
                return (found[0], FLOW) if found is not None and found[0] is not None else found
            else:  # `b()` where b = a = first: first(); `h()` where h = order.pay: Order.pay()
                inner = self._nested(held, file_id, source_id, rules)
                if inner is not None:  # `target()` where target = deco(target) returns deco's wrapper
                    return inner, FLOW
                owner, _, called = held.rpartition(".")
                found = self.resolve_call(file_id, source_id, called, owner, "")
                return (found[0], FLOW) if found is not None and found[0] is not None else found
        found = self._call_in_index(info, rules, file_id, source_id, name, receiver, receiver_type)
        if found is not None and rules.builtins_module and self.index.rows[found[0]].kind in DATA_KINDS:
            function = self._held_callable(found[0])  # `config.handler()`, handler = first in config
            if function is not None:
                found = function, FLOW
        if found is not None and rules.constructor and self.index.rows[found[0]].kind in TYPE_KINDS:
            return self._constructed(found, rules.constructor)
        if found is None and rules.builtins_module:
            dotted = self._external(info, rules, file_id, source_id, name, receiver, receiver_type or made)
            if dotted is not None:
                return None, external_resolution(dotted)
        return found

    def _held_callable(self, variable: int) -> int | None:
        """The function or class a variable holds, when its returns edge names one (not an
        instance: `repo = Repo()` is called through its __call__, not followed here)."""
        got = self.index.returns.get(variable)
        if got is None or got[1] or got[0] not in self.index.rows:
            return None
        return got[0] if self.index.rows[got[0]].kind in _HELD_KINDS else None

    def _call_on_returned(
        self, got: tuple[int, bool], name: str, receiver: str, rules: ResolutionRules
    ) -> tuple[int, str] | None:
        """A call on what another call returned: a method of the instance (`make().pay()`), or the
        function or class returned, called (`choose()()`)."""
        target, instance = got
        if instance:  # a method of it, or (Python) the instance called: its __call__
            called = name if receiver else (CALL_METHOD if rules.builtins_module == PYTHON_BUILTINS else "")
            member = self.member(target, called) if called else None
            return (member[0], FLOW) if member is not None else None
        if receiver:
            return None
        if rules.constructor and self.index.rows[target].kind in TYPE_KINDS:
            return self._constructed((target, FLOW), rules.constructor)
        return target, FLOW

    def _constructed(self, found: tuple[int, str], constructor: str) -> tuple[int, str]:
        """`Order()` runs Order's ``__init__``, its own or the first up its supertypes; the class
        when the index holds none (or a supertype outside it may hold the one that runs)."""
        init = self.member(found[0], constructor)
        if init is None or (init[1] == INHERITED and found[0] in self.index.open_types):
            return found
        return init[0], found[1]

    def _nested(self, dotted: str, file_id: int, source_id: int | None, rules: ResolutionRules) -> int | None:
        """A function defined inside a function (`deco.wrapper`), named from the scope of a call."""
        head, _, rest = dotted.partition(rules.separator)
        found = self.lookup(head, file_id, source_id, rules, callable_only=True) if rest else None
        if found is None or self.index.rows[found[0]].kind not in CALLABLE_KINDS:
            return None
        sid: int | None = found[0]
        for part in rest.split(rules.separator):
            inside = self.names_in(sid).get(part, ()) if sid is not None else ()
            sid = next((c for c in inside if self.index.rows[c].kind in CALLABLE_KINDS), None)
        return sid

    def _external(
        self,
        info: FileInfo,
        rules: ResolutionRules,
        file_id: int,
        source_id: int | None,
        name: str,
        receiver: str,
        receiver_type: str = "",
    ) -> str | None:
        """Where a call nothing in the index answers goes, when that is certain: a built-in not
        shadowed here (`len`, `str.join`), a method of a built-in type the receiver is known to
        hold (`x = []; x.append()`, `", ".join()`), or a name imported from a module that is not
        indexed (`from math import sqrt`, `sys.exit`). A module that is indexed but lacks the name
        says nothing certain (it may be made at run time): the call stays unresolved."""
        sep = rules.separator
        if receiver in rules.super_names:  # `super().__init__()` no supertype in the index defines
            owner = self.enclosing_type(source_id, rules)
            if name in rules.root_members and owner is not None and self._super_ends_at_root(owner):
                return sep.join((rules.builtins_module, rules.root_type, name))
            return None
        if receiver in rules.self_names and not receiver_type:  # `self.items()` in `class Table(dict)`
            owner = self.enclosing_type(source_id, rules)
            return self._from_external_base(owner, name, rules) if owner is not None else None
        held = receiver_type or _literal_type(receiver)
        if held and held in rules.builtins and not self._shadowed(held, file_id, source_id, rules, callable_only=False):
            return None if _lacks_builtin_member(rules, held, name) else sep.join((rules.builtins_module, held, name))
        if held and receiver:  # `d = OrderedDict(); d.move_to_end()`, OrderedDict from outside the index
            outside = self._outside_class(info, rules, file_id, source_id, held)
            if outside is not None:
                return f"{outside}{sep}{name}"
            typ = self._resolve_type_path(held, file_id, source_id) if self.index.external_bases else None
            if typ is not None and self.index.rows[typ[0]].kind in CLASSLIKE:  # `t = Table(); t.items()`
                return self._from_external_base(typ[0], name, rules)
        if not receiver:
            head, rest = name, ""
        elif _PATH_RE.match(receiver):
            head, _, rest = receiver.partition(sep)
            rest = f"{rest}{sep}{name}" if rest else name
        else:
            return None  # `f().x()`, `"".join()`: what the receiver is, the syntax does not say
        if self._shadowed(head, file_id, source_id, rules, callable_only=not receiver):
            # Defined or imported from the index here: not a built-in. An indexed module may still
            # hand the name on from outside (`io.BytesIO` is `_io.BytesIO`, `struct.pack` comes
            # from `from _struct import *`).
            if receiver:
                found = self._resolve_path(receiver, file_id, source_id, rules)
                if found is not None and found[0] == "symbol":
                    module = self.index.rows[found[1]]
                    if module.kind in SCOPE_ROOT_KINDS:
                        return self._external_from(module.file_id, name, sep) or (
                            f"{module.qualified_name}{sep}{name}" if self._passes_on_outside(module.file_id) else None
                        )
            return None
        binding = self.bindings.get(file_id)
        targets = binding.names.get(head, ()) if binding is not None else ()
        for target in targets:
            if not self._reaches_the_index(info.language, target, sep):
                return sep.join(p for p in (target, rest) if p)
        if targets:
            return None
        if head in rules.builtins:
            if rest and _lacks_builtin_member(rules, head, rest.partition(sep)[0]):  # `str.joins(...)`
                return None
            return sep.join(p for p in (rules.builtins_module, head, rest) if p)
        if not receiver and binding is not None:  # `from ctypes import *`, then `POINTER(...)`
            return self._external_through_wildcards(binding, info.language, name, sep, 0)
        return None

    def _external_supertype(self, file_id: int, source_id: int | None, target: str) -> str:
        """The dotted name outside the index of a supertype the index does not hold, as a call of
        it would go (`dict` is `builtins.dict`, an imported name its module's); "" when that is not
        certain, or the language names no built-ins (Python only)."""
        info = self.files.get(file_id)
        if info is None:
            return ""
        rules = self.rules.get(info.language)
        if rules is None or not rules.builtins_module or _PATH_RE.match(target) is None:
            return ""
        receiver, _, name = target.rpartition(rules.separator)
        return self._external(info, rules, file_id, source_id, name, receiver) or ""

    def _from_external_base(self, type_id: int, name: str, rules: ResolutionRules) -> str | None:
        """What a call of ``name`` on the type reaches outside the index (_member_outside),
        remembered per (type, name): a class's methods ask for the same names again and again."""
        key = (type_id, name)
        try:
            return self._outside_member_cache[key]
        except KeyError:
            found = self._outside_member_cache[key] = self._member_outside(type_id, name, rules)
            return found

    def _member_outside(self, type_id: int, name: str, rules: ResolutionRules) -> str | None:
        """``base.name`` when the one supertype outside the index of the type (and of its
        supertypes in it) is ``base`` and no type of the index on the way has any member ``name``
        (a method, or an attribute that holds what is called): `self.items()` in `class
        Table(dict)` is `builtins.dict.items`. None when two bases outside could give it, one the
        index cannot name, or a built-in type that lacks the member (`self.items()` in `class
        Table(list)`)."""
        sep = rules.separator
        external = self.index.external_bases
        chain = [type_id, *self.index.ancestors(type_id)]
        found = {base for t in chain for base in external.get(t, {}).values()}
        if len(found) != 1 or "" in found:
            return None
        if any(self._own_member(t, name) is not None for t in chain):
            return None
        # A subtype of the index that has it (`self.run()` in a mixin over a library base, `run`
        # defined below): which one runs depends on the instance, so none is claimed.
        below, seen = list(self.index.subtypes_of.get(type_id, ())), set()
        while below:
            t = below.pop()
            if t in seen:
                continue
            seen.add(t)
            if self._own_member(t, name) is not None:
                return None
            below.extend(self.index.subtypes_of.get(t, ()))
        base = found.pop()
        module, _, builtin = base.partition(sep)
        if module == rules.builtins_module and _lacks_builtin_member(rules, builtin, name):
            return None
        return f"{base}{sep}{name}"

    def _outside_class(
        self, info: FileInfo, rules: ResolutionRules, file_id: int, source_id: int | None, dotted: str
    ) -> str | None:
        """The dotted name outside the index of the class ``dotted`` names here (`OrderedDict`
        imported from collections, `collections.OrderedDict` with collections not indexed); None
        when it is or may be indexed code, or does not name a class (a lower-case callee may be a
        factory: what `socket.create_connection()` makes, its name does not say)."""
        sep = rules.separator
        last = dotted.rpartition(sep)[2]
        if not last[:1].isupper() or _PATH_RE.match(dotted) is None:
            return None
        head, _, rest = dotted.partition(sep)
        if self._shadowed(head, file_id, source_id, rules, callable_only=False):
            return None
        binding = self.bindings.get(file_id)
        targets = binding.names.get(head, ()) if binding is not None else ()
        if len(targets) != 1 or self._reaches_the_index(info.language, targets[0], sep):
            return None
        return sep.join(p for p in (targets[0], rest) if p)

    def _shadowed(
        self, name: str, file_id: int, source_id: int | None, rules: ResolutionRules, callable_only: bool
    ) -> bool:
        """Does ``name`` mean something of the index here (a def, a class, an import, a module-level
        variable)? Asked the way the call's own resolution asked (remembered), then the file's top level."""
        if callable_only:  # a bare call: its own lookup
            found = self.lookup(name, file_id, source_id, rules, callable_only=True, exclude=DATA_KINDS)
        else:  # a receiver: the path's lookup
            found = self.lookup(name, file_id, source_id, rules, exclude=CALLABLE_KINDS)
        return found is not None or bool(self.top_level(file_id).get(name))

    def _external_from(self, file_id: int, name: str, sep: str, depth: int = 0) -> str | None:
        """The dotted name outside the index that module ``file_id`` hands on as ``name``: imported
        by name from a module that is not indexed, or by one `import *` of one."""
        key = (file_id, name)
        if key in self._external_cache:
            return self._external_cache[key]
        found = None
        binding = self.bindings.get(file_id)
        info = self.files.get(file_id)
        if binding is not None and info is not None:
            for target in binding.names.get(name, ()):
                if not self._reaches_the_index(info.language, target, sep):
                    found = target
                    break
            else:
                found = self._external_through_wildcards(binding, info.language, name, sep, depth)
        self._external_cache[key] = found
        return found

    def _external_through_wildcards(
        self, binding: Bindings, language: str, name: str, sep: str, depth: int
    ) -> str | None:
        """``name`` as one `import *` of code outside the index provides it (through indexed
        modules' own `import *` too); None when there is none, or more than one."""
        found: set[str] = set()
        for star in binding.wildcards:
            if not self._reaches_the_index(language, star, sep):
                found.add(f"{star}{sep}{name}")
            elif depth < 3:
                module = self.module_named(language, star)
                for fid in self._modules().get((self._family(language), module), ()) if module else ():
                    hit = self._external_from(fid, name, sep, depth + 1)
                    if hit is not None:
                        found.add(hit)
        return found.pop() if len(found) == 1 else None

    def _passes_on_outside(self, file_id: int) -> bool:
        """Does the module take every name of some module outside the index (`from posix import *`
        in os.py, under a condition that picks `nt` elsewhere)? A name it lacks comes from there."""
        binding = self.bindings.get(file_id)
        info = self.files.get(file_id)
        if binding is None or info is None:
            return False
        sep = self.rules[info.language].separator
        return any(not self._reaches_the_index(info.language, star, sep) for star in binding.wildcards)

    def _reaches_the_index(self, language: str, target: str, sep: str) -> bool:
        """Does ``target`` (an import's dotted target) or any module above it name indexed code?"""
        parts = target.split(sep)
        for end in range(len(parts), 0, -1):
            prefix = sep.join(parts[:end])
            if self.index.by_qn.get(prefix) or self.module_named(language, prefix) is not None:
                return True
        return False

    def _call_in_index(
        self,
        info: FileInfo,
        rules: ResolutionRules,
        file_id: int,
        source_id: int | None,
        name: str,
        receiver: str,
        receiver_type: str,
    ) -> tuple[int, str] | None:
        if receiver_type:
            typ = self._resolve_type_path(receiver_type, file_id, source_id)
            if typ is not None:
                member = self.member(typ[0], name)
                if member is not None:
                    return member[0], (typ[1] if member[1] == EXACT else member[1])
        if not receiver or receiver in ("new",):
            found = self.lookup(name, file_id, source_id, rules, callable_only=True, exclude=DATA_KINDS)
            # A bare name cannot mean someone else's method: guess only among free functions and types.
            if found or rules.directory_scope or name in rules.builtins:
                return found  # Go/Java: a bare name cannot reach another package; `str()` is str
            binding = self.bindings.get(file_id)
            targets = binding.names.get(name, ()) if binding is not None else ()
            if targets and not any(self._reaches_the_index(info.language, t, rules.separator) for t in targets):
                return None  # imported from code the index does not hold: not a namesake found here
            if rules.wildcard_public_only and binding is not None and binding.wildcards and not targets:
                if not self._passes_on_outside(file_id):
                    return None  # its `import *`s are all indexed and none gives the name: not there to guess
            return self._name_only(name, BARE_CALLABLE_KINDS)
        if receiver in rules.self_names:
            owner = self.enclosing_type(source_id, rules)
            if owner is not None:
                found = self.member(owner, name)
                if found is not None and rules.builtins_module == PYTHON_BUILTINS:
                    if self.index.rows[found[0]].kind in DATA_KINDS:
                        # `self.task()` with `self.task = task`: whatever the attribute holds is
                        # called, not the attribute: the function its returns edge names (a
                        # base class's `handler = first`), else nothing.
                        function = self._held_callable(found[0])
                        return (function, FLOW) if function is not None else None
                if found is None and rules.mixins:  # a mixin's self is one of its subclasses: if they all agree
                    sub = self._through_subclasses(owner, name)
                    if sub is not None:
                        return sub, FLOW
                return found
            return None
        if receiver in rules.super_names:
            owner = self.enclosing_type(source_id, rules)
            if owner is not None:
                for base in self.index.ancestors(owner):
                    hit = self._own_member(base, name)
                    if hit is not None:
                        return hit, INHERITED
                if rules.builtins_module:
                    # No supertype in the index has it: one outside does (`super().__init__()` is
                    # object's, or a library base's). A namesake elsewhere — often the very method
                    # making the call — is not it.
                    return None
            return self._name_only(name, CALLABLE_KINDS)
        if _PATH_RE.match(receiver):
            head = self._resolve_path(receiver, file_id, source_id, rules)
            if head is not None:
                kind, ref, how = head
                if kind == "symbol":
                    sym = self.index.rows[ref]
                    if sym.kind in CLASSLIKE:
                        member = self.member(ref, name)
                        if member is not None:
                            return member[0], (how if member[1] == EXACT else member[1])
                    ids = self.index.by_qn.get(sym.qualified_name + rules.separator + name)
                    if ids:
                        return self._nearest(ids, file_id), how
                    if sym.kind in SCOPE_ROOT_KINDS:
                        hit = self.reexported(sym.file_id, name)
                        if hit is not None:
                            return hit, IMPORT
                    held = self.index.returns.get(ref) if sym.kind in DATA_KINDS else None
                    if held is not None and held[1] and held[0] in self.index.rows:
                        member = self.member(held[0], name)  # `repo.find()`, repo = Repo() in its module
                        if member is not None:
                            return member[0], FLOW
                else:  # a module that is not itself a symbol (a Java package, a TS module path)
                    ids = self.index.by_qn.get(ref + rules.separator + name)
                    if ids:
                        return self._nearest(ids, file_id), how
                    hit = self._via_reexport(ref + rules.separator + name, info.language, rules.separator)
                    if hit is not None:  # `H.instanceof()`: H's `export { _instanceof as instanceof }`
                        return hit, IMPORT
                    default = self.default_export(info.language, ref, rules.separator)
                    if default is not None:  # `Foo.make()` where Foo = require('./foo')
                        member = self.member(default, name)
                        if member is not None:
                            return member[0], how
                    return None
        made = _instantiated(receiver)
        if made:  # `Order().pay()`: a method of the instance just made
            typ = self._resolve_type_path(made, file_id, source_id)
            if typ is not None and self.index.rows[typ[0]].kind in CLASSLIKE:
                member = self.member(typ[0], name)
                if member is not None:
                    return member[0], (typ[1] if member[1] == EXACT else member[1])
        if receiver[-2:] == "()" and rules.builtins_module:
            # A link of a call chain the extractor wrote without arguments (`A().f()` of
            # `A().f().g()`): what that call returns, through its returns edge.
            got = self._returned(receiver[:-2], file_id, source_id, rules)
            if got is not None and got[1]:
                member = self.member(got[0], name)
                if member is not None:
                    return member[0], FLOW
        # `x.append()` on an object whose type the syntax does not show: no guess. A unique method
        # name elsewhere is far more often a coincidence (list.append vs. some helper) than a call.
        return None

    # ---- scopes -------------------------------------------------------------------------------------

    def lookup(
        self,
        name: str,
        file_id: int,
        scope_id: int | None,
        rules: ResolutionRules,
        callable_only: bool = False,
        exclude: frozenset[str] = frozenset(),
    ) -> tuple[int, str] | None:
        """A bare name: enclosing scopes, the file, its imports, its package, then wildcards.
        Remembered per (name, scope): a method asks for the same names again and again."""
        key = (name, scope_id, file_id, callable_only, exclude)
        try:
            return self._lookup_cache[key]
        except KeyError:
            found = self._lookup_cache[key] = self._lookup(name, file_id, scope_id, rules, callable_only, exclude)
            return found

    def _lookup(
        self,
        name: str,
        file_id: int,
        scope_id: int | None,
        rules: ResolutionRules,
        callable_only: bool,
        exclude: frozenset[str],
    ) -> tuple[int, str] | None:
        rows = self.index.rows
        sid = scope_id
        while sid is not None:
            s = rows.get(sid)
            if s is None:
                break
            is_type = s.kind in CLASSLIKE
            if s.kind not in SCOPE_ROOT_KINDS and (not is_type or rules.implicit_members or sid == scope_id):
                for cid in self.names_in(sid).get(name, ()):
                    if rows[cid].kind not in exclude:
                        return cid, EXACT
                if s.kind == "namespace":
                    # A namespace is open: its other files' members are in scope too (TypeScript's
                    # `namespace ts {}` across the compiler's files, C++'s and C#'s namespaces)
                    merged = [
                        i
                        for i in self.index.by_qn.get(s.qualified_name + rules.separator + name, ())
                        if rows[i].kind not in exclude
                    ]
                    if merged:
                        return _prefer(rows, [self._nearest(merged, file_id), *merged], callable_only), EXACT
                if is_type and rules.implicit_members:
                    hit = self._inherited_member(sid, name, exclude)
                    if hit is not None:
                        return hit, INHERITED
            sid = s.parent_id
        # Past the enclosing scopes the answer depends only on the file: every scope of a file
        # asks the same questions (`len`, `os.path`, imported helpers), so remember it.
        key = (name, file_id, callable_only, exclude)
        try:
            return self._file_lookup_cache[key]
        except KeyError:
            found = self._file_lookup_cache[key] = self._lookup_in_file(name, file_id, rules, callable_only, exclude)
            return found

    def _lookup_in_file(
        self, name: str, file_id: int, rules: ResolutionRules, callable_only: bool, exclude: frozenset[str]
    ) -> tuple[int, str] | None:
        """lookup's second half: the file's top level, its imports, its package, its wildcards."""
        rows = self.index.rows
        ids: Sequence[int] | None = [i for i in self.top_level(file_id).get(name, ()) if rows[i].kind not in exclude]
        if ids:
            return _prefer(rows, ids, callable_only), EXACT
        binding = self.bindings.get(file_id)
        info = self.files[file_id]
        if binding is not None:
            for target in binding.names.get(name, ()):
                ids = self.index.by_qn.get(target)
                if ids:
                    return _prefer(rows, ids, callable_only), IMPORT
                hit = self._via_reexport(target, info.language, rules.separator)
                if hit is not None:
                    return hit, IMPORT
                hit = self.default_export(info.language, target, rules.separator)
                if hit is not None and rows[hit].kind not in exclude:
                    # `const Foo = require('./a')`: the module's default export. Not as a receiver
                    # when it is a function: `import * as H from './a'; H.fetch()` is a's fetch,
                    # whatever a exports as default
                    return hit, IMPORT
        if rules.directory_scope:
            ids = self.package_top(info.language, info.module).get(name)
            if ids:
                return _prefer(rows, ids, callable_only), EXACT
        if binding is not None:
            for prefix in binding.wildcards:
                module = self.module_named(info.language, prefix) or prefix
                ids = self.index.by_qn.get(module + rules.separator + name)
                if ids and self._wildcard_gives(module, name, info.language):
                    return _prefer(rows, ids, callable_only), IMPORT
        return None

    def _resolve_path(
        self, path: str, file_id: int, scope_id: int | None, rules: ResolutionRules
    ) -> tuple[str, Any, str] | None:
        """``a.b.C`` -> ("symbol", id, how) or ("module", qualified_name, how). Remembered per
        scope: a function names the same receivers again and again (``t.Errorf``, ``self.x``)."""
        key = (path, scope_id, file_id)
        try:
            return self._path_cache[key]
        except KeyError:
            found = self._path_cache[key] = self._walk_path(path, file_id, scope_id, rules)
            return found

    def _walk_path(
        self, path: str, file_id: int, scope_id: int | None, rules: ResolutionRules
    ) -> tuple[str, Any, str] | None:
        sep = rules.separator
        parts = [p for p in _PATH_SEP.split(path) if p]
        if not parts:
            return None
        head = parts[0]
        info = self.files[file_id]
        current: tuple[str, Any, str] | None = None
        # A receiver or base names a type, module or value, never a function (Java's constructor
        # `Runner` must not hide the class `Runner`).
        found = self.lookup(head, file_id, scope_id, rules, exclude=CALLABLE_KINDS)
        if found is not None:
            current = ("symbol", found[0], found[1])
        else:
            binding = self.bindings.get(file_id)
            for target in binding.names.get(head, ()) if binding else ():
                module = self.module_named(info.language, target)
                if module is not None:
                    current = ("module", module, IMPORT)
                    break
            if current is None:
                relative = rules.path_root(head, info.module) if rules.path_root is not None else None
                if relative is not None:  # Rust's `crate::`, `super::`: a module named from here
                    current = ("module", relative, EXACT)
                else:
                    whole = sep.join(parts)
                    ids = self.index.by_qn.get(whole)
                    if ids:
                        return ("symbol", self._nearest(ids, file_id), EXACT)
                    module = self.module_named(info.language, whole)
                    if module is not None:
                        return ("module", module, EXACT)
                    return None
        for part in parts[1:]:
            kind, ref, how = cast(tuple[str, Any, str], current)
            if kind == "symbol":
                sym = self.index.rows[ref]
                qn = sym.qualified_name + sep + part
                nxt = next(
                    (c for c in self.names_in(ref).get(part, ()) if self.index.rows[c].kind not in CALLABLE_KINDS), None
                )
                if nxt is None:
                    ids = self.index.by_qn.get(qn)
                    nxt = self._nearest(ids, file_id) if ids else None
                if nxt is None and sym.kind in SCOPE_ROOT_KINDS:
                    nxt = self.reexported(sym.file_id, part)
                if nxt is None:
                    if sym.kind in SCOPE_ROOT_KINDS:
                        module = self.module_named(info.language, qn)
                        if module is not None:
                            current = ("module", module, how)
                            continue
                    return None
                current = ("symbol", nxt, how)
            else:
                qn = f"{ref}{sep}{part}"
                ids = self.index.by_qn.get(qn)
                if ids:
                    current = ("symbol", self._nearest(ids, file_id), how)
                else:
                    module = self.module_named(info.language, qn) or self.module_named(info.language, f"{ref}/{part}")
                    if module is None:
                        return None
                    current = ("module", module, how)
        return current

    def _resolve_type_path(self, path: str, file_id: int, scope_id: int | None) -> tuple[int, str] | None:
        info = self.files.get(file_id)
        rules = self.rules.get(info.language) if info else None
        if rules is None:
            return None
        # A class's own base clause is evaluated in the scope around the class.
        scope = scope_id
        if scope is not None and scope in self.index.rows and self.index.rows[scope].kind in CLASSLIKE:
            scope = self.index.rows[scope].parent_id
        found = self._resolve_path(path, file_id, scope, rules)
        if found is not None and found[0] == "symbol":
            return found[1], found[2]
        if _PATH_SEP.search(path):
            # `io.Reader`, `std::fs::DirBuilder`: a qualified name into code that is not indexed.
            # Guessing by its last part would pick an unrelated local type of the same name.
            return None
        if path in rules.builtins:  # `class E(Exception)`: the built-in, not a namesake elsewhere
            return None
        return self._name_only(path, TYPE_KINDS)

    def enclosing_type(self, source_id: int | None, rules: ResolutionRules) -> int | None:
        rows = self.index.rows
        sid = source_id
        first = rows.get(source_id) if source_id is not None else None
        while sid is not None:
            s = rows.get(sid)
            if s is None:
                return None
            if s.kind in CLASSLIKE:
                return sid
            sid = s.parent_id
        # Methods declared away from their type (Go methods in another file, Rust impls):
        # the type is the qualified name's prefix.
        if first is not None and rules.separator in first.qualified_name:
            owner = first.qualified_name.rsplit(rules.separator, 1)[0]
            for tid in self.index.by_qn.get(owner, ()):
                if rows[tid].kind in CLASSLIKE:
                    return tid
        return None

    def _via_reexport(self, target: str, language: str, sep: str, depth: int = 0) -> int | None:
        """``from shop import Order`` where shop/__init__ re-exports Order from .orders."""
        if sep not in target or depth > 3:
            return None
        module, name = target.rsplit(sep, 1)
        files = []
        for mid in self.index.by_qn.get(module, ()):
            if self.index.rows[mid].kind in SCOPE_ROOT_KINDS:
                files.append(self.index.rows[mid].file_id)
        if not files:
            found = self.module_named(language, module)
            if found is not None:
                files = self._modules().get((self._family(language), found), [])
        for fid in files:
            binding = self.bindings.get(fid)
            if binding is None:
                continue
            if name == "default" and binding.default:
                # `import X from './m'`: whatever m exports as default.
                ids = self.index.by_qn.get(f"{module}{sep}{binding.default}")
                if ids:
                    return ids[0]
            for nxt in binding.names.get(name, ()):
                ids = self.index.by_qn.get(nxt)
                if ids:
                    return ids[0]
                hit = self._via_reexport(nxt, language, sep, depth + 1)
                if hit is not None:
                    return hit
            for star in binding.wildcards:  # `export * from './x'` in a barrel file
                if not self._wildcard_gives(self.module_named(language, star) or star, name, language):
                    continue
                ids = self.index.by_qn.get(f"{star}{sep}{name}")
                if ids:
                    return ids[0]
                hit = self._via_reexport(f"{star}{sep}{name}", language, sep, depth + 1)
                if hit is not None:
                    return hit
        return None

    def _wildcard_gives(self, module: str, name: str, language: str) -> bool:
        """Does `from module import *` bring ``name``? Where the language says so (Python): only
        when the module's ``__all__`` lists it, or, without one, when it is not private."""
        rules = self.rules.get(language)
        if rules is None or not rules.wildcard_public_only:
            return True
        for fid in self._modules().get((self._family(language), module), ()):
            binding = self.bindings.get(fid)
            if binding is not None and binding.public is not None:
                return name in binding.public
        return name[:1] != "_"

    def default_export(self, language: str, target: str, sep: str) -> int | None:
        """The symbol a module exports as its default, when ``target`` names a whole module."""
        module = self.module_named(language, target)
        if module is None:
            return None
        for fid in self._modules().get((self._family(language), module), ()):
            binding = self.bindings.get(fid)
            if binding is not None and binding.default:
                ids = self.index.by_qn.get(f"{module}{sep}{binding.default}")
                if ids:
                    return ids[0]
        return None

    def reexported(self, file_id: int, name: str) -> int | None:
        """A name a module makes available by importing it (``from .sessions import Session`` in a
        package's ``__init__``, ``export { x } from`` in an index file, ``from _collections_abc
        import *`` in ``collections/abc.py``), followed through further re-exports."""
        binding = self.bindings.get(file_id)
        info = self.files.get(file_id)
        rules = self.rules.get(info.language) if info is not None else None
        if binding is None or info is None or rules is None:
            return None
        sep = rules.separator
        for target in binding.names.get(name, ()):
            ids = self.index.by_qn.get(target)
            if ids:
                return ids[0]
            hit = self._via_reexport(target, info.language, sep)
            if hit is not None:
                return hit
        for star in binding.wildcards:
            module = self.module_named(info.language, star) or star
            if not self._wildcard_gives(module, name, info.language):
                continue
            ids = self.index.by_qn.get(f"{module}{sep}{name}")
            if ids:
                return ids[0]
            hit = self._via_reexport(f"{module}{sep}{name}", info.language, sep)
            if hit is not None:
                return hit
        return None

    def _own_member(self, type_id: int, name: str, exclude: frozenset[str] = frozenset()) -> int | None:
        rows = self.index.rows
        for cid in self.names_in(type_id).get(name, ()):
            if rows[cid].kind not in exclude:
                return cid
        sym = self.index.rows.get(type_id)
        if sym is not None:
            # Members declared away from the type (Go methods in other files, Rust impl blocks).
            ids = self.index.by_qn.get(sym.qualified_name + self._separator(sym.file_id) + name)
            if ids:
                return self._nearest(ids, sym.file_id)
        return None

    def _inherited_member(self, type_id: int, name: str, exclude: frozenset[str]) -> int | None:
        """The nearest supertype's own member ``name``; remembered per (type, name, exclude)."""
        key = (type_id, name, exclude)
        try:
            return self._inherited_cache[key]
        except KeyError:
            pass
        found = None
        for base in self.index.ancestors(type_id):
            found = self._own_member(base, name, exclude)
            if found is not None:
                break
        self._inherited_cache[key] = found
        return found

    def _separator(self, file_id: int) -> str:
        sep = self._sep_of_file.get(file_id)
        if sep is None:
            info = self.files.get(file_id)
            lang = self.languages.get(info.language) if info else None
            sep = self._sep_of_file[file_id] = lang.resolution.separator if lang else "."
        return sep

    def member(self, type_id: int, name: str) -> tuple[int, str] | None:
        key = (type_id, name)
        if key in self._member_cache:
            return self._member_cache[key]
        found = None
        hit = self._own_member(type_id, name, DATA_KINDS)  # a call never means a field
        if hit is not None:
            found = (hit, EXACT)
        else:
            for base in self.index.ancestors(type_id):
                hit = self._own_member(base, name, DATA_KINDS)
                if hit is not None:
                    found = (hit, INHERITED)
                    break
        self._member_cache[key] = found
        return found

    def _closed(self, type_id: int) -> bool:
        """Is every supertype of the type in the index? None is written that the index does not
        hold (SymbolIndex.open_types), and each is a class: a base that names a variable
        (`Base = namedtuple(...)`) holds a class the index does not show."""
        rows, open_types = self.index.rows, self.index.open_types
        if type_id in open_types:
            return False
        for t in self.index.ancestors(type_id):
            s = rows.get(t)
            if t in open_types or s is None or s.kind not in CLASSLIKE:
                return False
        return True

    def _super_ends_at_root(self, type_id: int) -> bool:
        """Does `super()` in the type, past its supertypes, reach the language's root type? Every
        supertype is in the index (_closed), and no class below it puts another supertype after it
        in the method order: `class CMock(MockIO, BytesIO)` makes MockIO's super() BytesIO's, so
        a subclass with two supertypes (or one outside the index) leaves it unknown."""
        found = self._root_cache.get(type_id)
        if found is None:
            found = self._closed(type_id)
            open_types, bases, subclasses = self.index.open_types, self.index.bases, self.index.subtypes_of
            seen, queue = {type_id}, list(subclasses.get(type_id, ()))
            while queue and found:
                sub = queue.pop()
                if sub not in seen:
                    seen.add(sub)
                    found = sub not in open_types and len(bases.get(sub, ())) < 2
                    queue.extend(subclasses.get(sub, ()))
            self._root_cache[type_id] = found
        return found

    def _through_subclasses(self, type_id: int, name: str) -> int | None:
        """The one method ``name`` every subclass of ``type_id`` in the index that has one reaches
        (a mixin calling `self.assertEqual`, defined by the TestCase each subclass also extends);
        None when no subclass has it, they disagree, or a supertype outside the index could hold it."""
        key = (type_id, name)
        if key in self._subclass_cache:
            return self._subclass_cache[key]
        if not self._closed(type_id) or self.member(type_id, "__getattr__") is not None:
            # (a class with __getattr__ answers any name itself: django's CursorWrapper.close() is
            # its cursor's, not a test's subclass's)
            self._subclass_cache[key] = None
            return None
        open_types, subclasses = self.index.open_types, self.index.subtypes_of
        targets: set[int] = set()
        unknowable = False  # a subclass may have it from a supertype outside the index
        seen, queue = {type_id}, list(subclasses.get(type_id, ()))
        while queue and len(targets) < 2 and not unknowable:
            sub = queue.pop()
            if sub in seen or self._local(sub):
                continue  # (a class defined inside a function — a test's mock — says nothing of the others)
            seen.add(sub)
            hit = self.member(sub, name)
            if hit is not None:
                targets.add(hit[0])  # its own subclasses reach it too, or override it (checked)
            unknowable = hit is None and sub in open_types
            queue.extend(subclasses.get(sub, ()))
        found = targets.pop() if len(targets) == 1 and not unknowable else None
        self._subclass_cache[key] = found
        return found

    def _name_only(self, name: str, kinds: frozenset[str]) -> tuple[int, str] | None:
        key = (name, kinds)
        if key in self._name_only_cache:
            return self._name_only_cache[key]
        ids = self.index.by_name.get(name)
        found = None
        if ids:
            rows = self.index.rows
            # (a function or class defined inside a function is its local: no name reaches it from
            # elsewhere — django's runner calling a `handler` nested in a test was such a guess)
            hits = [i for i in ids if rows[i].kind in kinds and not self._local(i)]
            if len(hits) == 1:
                found = (hits[0], NAME_ONLY)
        self._name_only_cache[key] = found
        return found

    def _nearest(self, ids: Sequence[int], file_id: int) -> int:
        """Of the symbols one qualified name holds, the one nearest ``file_id``: in it, else in the
        deepest directory they share. Rust's crates all name themselves `crate::`: core's
        `crate::ffi::c_str::ErrorKind` is alloc's too, and a call next to core's reached alloc's."""
        if len(ids) == 1:
            return ids[0]
        rows, files = self.index.rows, self.files
        first_file = rows[ids[0]].file_id
        here = files.get(file_id)
        if here is None or all(rows[i].file_id == first_file for i in ids):
            return ids[0]  # (overloads of one file, the usual many: nothing to choose between)

        def nearness(sid: int) -> tuple[bool, int]:
            there = files.get(rows[sid].file_id)
            if there is None:
                return (False, 0)
            shared = len(os.path.commonpath([here.path, there.path])) if "/" in here.path and "/" in there.path else 0
            return (rows[sid].file_id == file_id, shared)

        return max(ids, key=nearness)

    def _local(self, symbol_id: int) -> bool:
        """Is the symbol defined inside a function (at any depth)?"""
        rows = self.index.rows
        parent = rows[symbol_id].parent_id
        for _ in range(64):
            if parent is None or parent not in rows:
                return False
            if rows[parent].kind in CALLABLE_KINDS:
                return True
            parent = rows[parent].parent_id
        return False


_HELD_KINDS = CALLABLE_KINDS | TYPE_KINDS  # what a variable's returns edge may name for a call through it


def _instantiated(receiver: str) -> str:
    """The class a receiver calls, when the receiver is one call of a dotted name (`Order()`,
    `shop.Order(total=1)`), or ""."""
    m = _CALL_RECEIVER.match(receiver)
    if m is None:
        return ""
    depth = 0
    for ch in m.group(2):  # the arguments: `Order(a)(b)` is no one call
        depth += (ch == "(") - (ch == ")")
        if depth < 0:
            return ""
    return m.group(1) if depth == 0 else ""


def _lacks_builtin_member(rules: ResolutionRules, type_name: str, member: str) -> bool:
    """Do the rules list the built-in types' members, without ``member`` for ``type_name`` — a
    type that lacks it (`[].keys()`), or a built-in that is no type (`None.method()`)?"""
    known = rules.builtin_members
    return bool(known) and f"{type_name}{rules.separator}{member}" not in known


def _literal_type(receiver: str) -> str:
    """The built-in type a literal receiver is (`", ".join`, `b"".join`, `[1, 2].index`), or ""."""
    m = _LITERAL_RECEIVER.match(receiver)
    if m is None:
        return ""
    if m.group(1) is not None:
        return "bytes" if "b" in m.group(1).lower() else "str"
    return "list"


def _prefer(rows, ids: Sequence[int], callable_only: bool) -> int:
    if len(ids) > 1 and callable_only:
        for i in ids:
            if rows[i].kind in CALLABLE_KINDS or rows[i].kind in TYPE_KINDS:
                return i
    return ids[0]


def build_bindings(rows: list[tuple]) -> dict[int, Bindings]:
    """rows: (file_id, name, alias, target) from the imports table."""
    out: dict[int, Bindings] = {}
    for file_id, name, alias, target in rows:
        b = out.get(file_id)
        if b is None:
            b = out[file_id] = Bindings()
        if not target:
            continue
        if name == "*":
            b.wildcards.append(target)
        elif alias:
            b.names.setdefault(alias, []).append(target)
    return out


def add_exports(bindings: dict[int, Bindings], rows: Iterable[tuple[int, str, str]]) -> None:
    """rows: (file_id, name, kind) of exports of kind "default" (JavaScript's `export default`) and
    "all" (Python's ``__all__``); others are ignored."""
    public: dict[int, set[str]] = {}
    for file_id, name, kind in rows:
        if kind == "all":
            public.setdefault(file_id, set()).add(name)
        elif kind == "default" and name and name != "*":
            bindings.setdefault(file_id, Bindings()).default = name
    for file_id, names in public.items():
        bindings.setdefault(file_id, Bindings()).public = frozenset(names)
