"""An agent finds its way around Go code nobody here wrote: golang.org/x/tools 0.5.0 (the small
go-xtools corpus, ~1,070 files), indexed whole by `codecairn serve` and questioned over MCP with
the official client. Types, their methods (declared with receivers, often in other files),
embedding as inheritance, callers and callees with how each was resolved, a file's imports and
exports.

The corpus is a GOPATH ``src`` directory, so package names are full import paths:
``golang.org/x/tools/go/ast/astutil.Apply``, ``golang.org/x/tools/go/ssa.Function.emit``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from realcode import ask_questions, by_name, listed, member_names, shown

pytestmark = [pytest.mark.anyio, pytest.mark.slow]

ASTUTIL = "golang.org/x/tools/go/ast/astutil"
SSA = "golang.org/x/tools/go/ssa"


async def ask_go_questions(root: Path, cache: Path) -> dict[str, dict]:
    """One agent session: index, then the questions. The answers are checked afterwards."""
    questions = {
        "found": ("find_symbols", {"name": "Cursor", "kinds": ["struct"]}),
        "cursor": ("get_symbol", {"name": f"{ASTUTIL}.Cursor"}),
        "apply": ("get_symbol", {"name": f"{ASTUTIL}.Apply"}),
        "emit": ("get_symbol", {"name": "ssa.Function.emit"}),  # a partial name is enough when unique
        "alloc": ("get_symbol", {"name": f"{SSA}.Alloc"}),
        "register": ("get_symbol", {"name": f"{SSA}.register"}),
        "an_instruction": ("get_symbol", {"name": f"{SSA}.anInstruction"}),
        "call_instruction": ("get_symbol", {"name": f"{SSA}.CallInstruction"}),
        "set_pos": ("get_symbol", {"name": f"{SSA}.register.setPos"}),
        "external": ("file_outline", {"path": "golang.org/x/tools/go/packages/external.go", "detail": "names"}),
        "imports_go": ("file_outline", {"path": f"{ASTUTIL}/imports.go"}),
        "stats": ("stats", {}),
    }
    return await ask_questions(root, cache, questions)


async def test_an_agent_explores_go_x_tools(corpus, cache_dir: Path) -> None:
    a = await ask_go_questions(corpus("go-xtools"), cache_dir)
    assert a["index"]["parsed"] == a["index"]["files"] >= 1000 and "failed" not in a["index"]
    assert a["stats"]["languages"]["go"] >= 1000

    # A known type, by a name the agent half remembers.
    top = listed(a["found"]["results"])[0]
    assert top["name"] == "Cursor"  # named relative to its file's package
    assert top["path"] == "golang.org/x/tools/go/ast/astutil/rewrite.go"

    cursor = a["cursor"]
    assert cursor["kind"] == "struct" and cursor["doc"].startswith("A Cursor describes a node")
    assert "public" in cursor["modifiers"]
    methods = member_names(cursor, "method")
    fields = member_names(cursor, "field")
    # Methods are declared apart from the struct (`func (c *Cursor) Replace(...)`), yet listed with it.
    assert {"Node", "Parent", "Name", "Index", "Replace", "Delete", "InsertAfter", "InsertBefore"} <= methods
    assert {"parent", "name", "iter", "node"} <= fields

    # Callees and callers of a known function, each labelled with how it was resolved.
    apply = a["apply"]
    assert apply["signature"] == "func Apply(root ast.Node, pre, post ApplyFunc) (result ast.Node)"
    callees = by_name(apply["callees"])
    # `a := &application{...}; a.apply(...)`: the local's type is read off the composite literal.
    assert callees["application.apply"]["groups"] == {"exact"}
    assert callees["application.apply"]["path"] == "golang.org/x/tools/go/ast/astutil/rewrite.go"
    assert "builtin.recover" in apply["callees"]["external"]  # a built-in: outside the index, named so
    callers = by_name(apply["callers"])
    # Another package calls astutil.Apply through its import.
    assert callers["doCopy"]["groups"] == {"import"}
    assert callers["doCopy"]["path"] == "golang.org/x/tools/internal/typeparams/copytermlist.go"

    # A pointer-receiver method, called from all over its package (`fn.emit(...)`, fn *Function).
    emit = a["emit"]
    assert emit["qualified_name"] == f"{SSA}.Function.emit" and emit["path"].endswith("/go/ssa/func.go")
    assert emit["signature"] == "func (f *Function) emit(instr Instruction) Value"
    emit_callers = by_name(emit["callers"])
    assert {"builder.expr0", "builder.stmt", "emitLoad"} <= set(emit_callers)
    assert all(c["path"].startswith(f"{SSA}/") for c in emit_callers.values())
    assert set(emit["callers"]) == {"exact"}, "all exact"
    assert emit["callers_complete"] is False, "more than a page of callers, and the answer says so"

    # Embedding is inheritance: go/ssa's instructions embed the `register` mix-in, which embeds
    # `anInstruction`; subclasses are the types that embed it.
    assert by_name(a["alloc"]["bases"])["register"]["path"].startswith(f"{SSA}/")
    assert "register" in member_names(a["alloc"], "field")
    assert shown(a["register"]["bases"]) == {"anInstruction"}
    assert {"Alloc", "Call", "Phi", "BinOp", "UnOp"} <= shown(a["register"]["subclasses"])
    assert {"register", "Jump", "If", "Return", "Store"} <= shown(a["an_instruction"]["subclasses"])
    # Interfaces embed interfaces too.
    assert shown(a["call_instruction"]["bases"]) == {"Instruction"}
    assert {"Common", "Value"} <= member_names(a["call_instruction"])

    # A method promoted through embedding: `lookup.setPos(...)` on a *Lookup reaches register.setPos,
    # and the answer says it went through the embedded type.
    how = by_name(a["set_pos"]["callers"])
    assert how["builder.exprN"]["groups"] == {"inherited"}
    assert how["emitNew"]["groups"] == {"inherited"}

    # Imports (an aliased one among them) and exports of known files.
    external = a["external"]
    assert external["language"] == "go"
    imports = external["imports"]  # {module: names taken from it}; "as X" when bound under another name
    assert imports["golang.org/x/sys/execabs"] == ["as exec"]
    assert "encoding/json" in imports
    assert sorted(n["name"] for nodes in external["symbols"].values() for n in nodes) == [
        "driverRequest",
        "findExternalDriver",
    ]

    exported = {name for e in a["imports_go"]["exports"] for name in e["names"]}
    assert {
        "AddImport",
        "AddNamedImport",
        "DeleteImport",
        "DeleteNamedImport",
        "RewriteImport",
        "UsesImport",
        "Imports",
    } <= exported
    # Only capitalised identifiers are exported (an exported method of an unexported type is
    # listed as `type.Method`).
    assert all(name.rsplit(".", 1)[-1][0].isupper() for name in exported), exported
    assert not {"isThirdParty", "importPath", "matchLen"} & exported
    assert {"fmt", "go/ast", "go/token", "strconv", "strings"} <= set(a["imports_go"]["imports"])

    resolution = a["stats"]["call_resolution"]
    assert resolution["exact"] > resolution["import"] > resolution["inherited"] > 0
    assert a["stats"]["unresolved_calls"] > 0  # calls into the standard library (not indexed) stay unresolved
