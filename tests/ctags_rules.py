"""Each language's rules for comparing its definitions with universal-ctags 5.9: the ctags kinds
compared (and ours that count as the same), how a tag matches a symbol, and the misses excused by
design — each with the reason, here where the rule is written.

Used by tests/test_ctags_agreement.py (small corpora) and the benchmarks (large ones). TypeScript
and JavaScript have rules of their own, in ctags_typescript.py.
"""

from __future__ import annotations

import re

from codecairn.testing import CtagsRules
from codecairn.testing.ctags import CorpusFile, Tag

# ---- Go ------------------------------------------------------------------------------------------
# Matched by path, line and name. Known, by-design differences (they stay counted as misses):
# * ``const _ = ...`` / ``var _ = ...``: the blank identifier declares nothing, so it is no symbol.
# * ctags 5.9's Go parser predates generics and gets confused by some code in testdata: it tags a
#   local ``var x X`` inside a generic function as package-level, the continuation line of a
#   multi-line constant expression, and members of interface/struct literals inside type aliases
#   (``type P = struct{ N }``) at odd lines. We report what the grammar says.
# Not compared: "package" (we keep the package as FileFacts.module, not a symbol per file),
# "packageName" (an import binding, which we report as Import.alias), "unknown" and "receiver".
GO = CtagsRules(
    ("--languages=Go",),
    kinds=dict.fromkeys(
        (
            "func",  # functions and methods
            "const",
            "var",
            "type",
            "struct",
            "interface",
            "talias",  # type alias
            "member",  # field
            "anonMember",  # embedded field
            "methodSpec",  # interface method
        )
    ),
)

# ---- Rust ----------------------------------------------------------------------------------------
# Matched by path, line and name. Known, by-design differences:
# * ctags 5.9 tags a few ``let`` bindings whose type mentions ``'static str`` as global variables
#   (``let err: &'static str = ...``); they are locals, not items (counted as misses).
# * We find more than ctags: items inside item-level macro bodies (tokio's ``cfg_rt! { ... }``),
#   which ctags skips, and constants. Extra definitions do not count against recall.
# Not compared: "implementation" (an impl block, which is not a symbol for us: its methods are).
RUST = CtagsRules(
    ("--languages=Rust",),
    kinds=dict.fromkeys(
        (
            "function",  # also trait-impl methods
            "method",
            "struct",  # struct / union
            "enum",
            "enumerator",  # variant
            "field",
            "interface",  # trait
            "typedef",  # type
            "variable",  # static
            "macro",
            "module",
        )
    ),
)

# ---- Java ----------------------------------------------------------------------------------------
# A tag matches a symbol of the same name and a corresponding kind whose range holds the tag's line
# (ctags gives the line of the name; our symbols start at their first annotation). ctags runs with
# ``--kinds-Java=-l``: we keep local variables only as receiver types, not symbols, and with
# ``local`` enabled ctags 5.9 also loses about 3% of the methods and tags ``try (...)`` and
# ``new Foo() {`` statements as methods. Known, by-design differences (counted as misses):
# * ``int order() default Rule.DEFAULT_ORDER;`` in an annotation type: ctags tags the *default value*
#   as a field (``Rule.DEFAULT_ORDER``, ``true``, ``None.class``). We report the element ``order``
#   as a method.
# * In the larger corpora (benchmarks): ctags 5.9 predates records and tags ``record Point(int x,
#   int y)`` as a method ``Point``; it tags an enum constant with a body (``UPWARDS() {``) as a
#   method, the argument in ``ADLER32(Hashing.adler32())`` as an enum constant, an annotation on an
#   enum constant (``@SuppressWarnings``) as an enum constant, and ``sealed interface I permits
#   Impl`` as an interface ``Impl``.
# * What we report and ctags does not (not counted): anonymous classes, record components,
#   annotation elements, modules.
JAVA = CtagsRules(
    ("--languages=Java", "--kinds-Java=-l", "--fields=+nKzS", "--sort=no"),
    kinds={
        "package": frozenset({"package"}),
        "class": frozenset({"class", "record"}),
        "interface": frozenset({"interface"}),
        "enum": frozenset({"enum"}),
        "enumConstant": frozenset({"enum_member"}),
        "annotation": frozenset({"annotation"}),
        "field": frozenset({"field"}),
        "method": frozenset({"method", "constructor"}),  # ctags calls a constructor a method
    },
    match="span",
)

# ---- grammar packs: C, C++, Ruby, PHP --------------------------------------------------------------
# A tag is found when a symbol of a matching kind with the same name in the same file spans the
# tag's line: ctags reports the line of the name, codecairn the whole declaration (`template <...>`,
# `typedef struct {...} name;`). Only files the pack extracted are compared (ctags maps some
# extensions differently). Where ctags is the one that is wrong, an excuse below drops the tag.


def _pack_name(name: str) -> str:
    # `operator !=` (ctags) vs `operator!=`; Ruby `key?`, `body=` (ctags drops ? and lists the
    # writer of attr_accessor as `body=`).
    return name.replace(" ", "").rstrip("?!=")


def anonymous(tag: Tag, file: CorpusFile) -> str | None:
    return "ctags' name for an anonymous struct or enum" if tag.name.startswith("__anon") else None


def variable_inside_a_function(tag: Tag, file: CorpusFile) -> str | None:
    # zlib's contrib/minizip/mztools.c: after a K&R header, ctags reads the parameter declarations
    # and the locals of unzRepair() as global variables.
    if tag.kind == "variable" and any(
        s.kind in ("function", "method") and s.start_line < tag.line <= s.end_line for s in file.symbols
    ):
        return "variable inside a function body"
    return None


def explicit_template_instantiation(tag: Tag, file: CorpusFile) -> str | None:
    # `template class file_access<...>;` is an explicit instantiation, not a variable.
    if tag.kind == "variable" and file.line_text(tag.line).lstrip().startswith("template class"):
        return "explicit template instantiation"
    return None


def parenthesised_prototype(tag: Tag, file: CorpusFile) -> str | None:
    # `int(fileno)(FILE* stream);` is a function prototype.
    if tag.kind == "variable" and re.search(rf"\(\s*{re.escape(tag.name)}\s*\)\s*\(", file.line_text(tag.line)):
        return "parenthesised prototype"
    return None


def constant_not_assigned(tag: Tag, file: CorpusFile) -> str | None:
    # ctags tags Ruby constants where they are only used: hash keys (`CONTENT_TYPE => ...`),
    # comparisons (`CHUNKED == ...`). Only an assignment defines a constant.
    if tag.kind == "constant" and not re.search(
        rf"\b{re.escape(tag.name)}\s*(\|\|)?=(?![=>~])", file.line_text(tag.line)
    ):
        return "constant that is not assigned"
    return None


# zlib 1.2.13. codecairn's misses: functions whose K&R definition hides behind macros
# (`local void braid(ltl, big, n, w)`, `char ZLIB_INTERNAL *gz_strwinerror(error)`), which tree-sitter
# cannot parse without the preprocessor; `const uch ZLIB_INTERNAL _dist_code[]` (a macro between
# type and name). ctags' misses counted against us anyway: `typedef voidpf (ZCALLBACK *f) OF((...))`
# gives ctags the typedef `voidpf`, the name is `f`.
C = CtagsRules(
    ("--fields=+nK", "--languages=C", "--langmap=C:+.h"),  # ctags maps .h to C++ by default
    kinds={
        "function": frozenset({"function"}),
        "macro": frozenset({"macro"}),
        "struct": frozenset({"struct"}),
        "union": frozenset({"union"}),
        "enum": frozenset({"enum"}),
        "enumerator": frozenset({"enum_member"}),
        "typedef": frozenset({"type"}),
        "member": frozenset({"field"}),
        "variable": frozenset({"variable"}),
    },
    match="span",
    normalise=_pack_name,
    excuses=(anonymous, variable_inside_a_function),
    only_extracted_files=True,
)

# {fmt} 9.1. codecairn's misses: constructors and methods led by a macro (`FMT_CONSTEXPR arg_ref()`),
# classes whose head holds an `#if` (`class dynamic_format_arg_store #if ... : public ...`), and
# gtest `TEST(...)` bodies after a parse error. Lines holding only a macro (FMT_BEGIN_NAMESPACE)
# would cost far more (enumerators 40%, namespaces 74%) without the C pack's blank-and-reparse.
CPP = CtagsRules(
    ("--fields=+nK", "--languages=C++"),
    kinds={
        "function": frozenset({"function", "method"}),
        "class": frozenset({"class"}),
        "struct": frozenset({"struct"}),
        "union": frozenset({"union"}),
        "enum": frozenset({"enum"}),
        "enumerator": frozenset({"enum_member"}),
        "namespace": frozenset({"namespace"}),
        "typedef": frozenset({"type"}),  # typedef and `using X = ...`
        "member": frozenset({"field"}),
        "variable": frozenset({"variable"}),
        "macro": frozenset({"macro"}),
    },
    match="span",
    normalise=_pack_name,
    excuses=(anonymous, explicit_template_instantiation, parenthesised_prototype),
    only_extracted_files=True,
)

# Rack 2.2: every tag found once ctags' false constants are set aside.
RUBY = CtagsRules(
    ("--fields=+nK", "--languages=Ruby"),
    kinds={
        "class": frozenset({"class"}),
        "module": frozenset({"module"}),
        "method": frozenset({"method"}),
        "singletonMethod": frozenset({"method"}),
        "alias": frozenset({"method"}),
        "accessor": frozenset({"property"}),
        "constant": frozenset({"constant"}),
    },
    match="span",
    normalise=_pack_name,
    excuses=(anonymous, constant_not_assigned),
    only_extracted_files=True,
)

# Monolog 2.9. autoload.php: `$classes`, `$cn` are locals of a closure; ctags lists them as
# variables. They stay counted (recall is still above the floor) and are the only misses.
PHP = CtagsRules(
    ("--fields=+nK", "--languages=PHP"),
    kinds={
        "class": frozenset({"class"}),
        "interface": frozenset({"interface"}),
        "trait": frozenset({"trait"}),
        "namespace": frozenset({"namespace"}),
        "function": frozenset({"function", "method"}),  # ctags: functions and methods alike
        "define": frozenset({"constant"}),  # class constants and define()
        "variable": frozenset({"property"}),  # ctags: properties (and, wrongly, closure locals)
        # not compared: "alias" (a `use` statement is an import for codecairn, not a symbol)
    },
    match="span",
    normalise=_pack_name,
    excuses=(anonymous,),
    only_extracted_files=True,
)
