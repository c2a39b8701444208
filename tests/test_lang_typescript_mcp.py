"""An agent finds its way around TypeScript and JavaScript nobody here wrote, through the MCP server
with the official client: rxjs 7.8.2's sources (the small ts-rxjs corpus, 251 .ts files) and ESLint's
`lib/` (js-eslint, ~390 CommonJS .js files), each indexed whole, once for the module.

Names are module-qualified from the file path (without its extension): rxjs's `Observable` is
`internal/Observable.Observable`; ESLint's `DecorativeCursor` is
`languages/js/source-code/token-store/decorative-cursor.DecorativeCursor`.
"""

from __future__ import annotations

import anyio
import pytest
from realcode import ask_questions, by_name, listed, member_names, outline_names

pytestmark = pytest.mark.slow

OBSERVABLE = "internal/Observable.Observable"
SUBJECT = "internal/Subject.Subject"
TOKEN_STORE = "languages/js/source-code/token-store"
DECORATIVE = f"{TOKEN_STORE}/decorative-cursor.DecorativeCursor"


def ts_name(path: str, name: str) -> str:
    """A TypeScript/JavaScript symbol's qualified name from its place in an answer: the file's
    module (its path without the extension), then the name relative to it."""
    module = path.rsplit(".", 1)[0]
    return name if name.startswith(module + ".") else f"{module}.{name}"


def ts_places(groups: dict) -> dict[str, dict]:
    """Places by qualified name: ``{"group", "groups", "line", "path"}``."""
    return {ts_name(p["path"], name): p for name, p in by_name(groups).items()}


def members(answer: dict) -> set[tuple[str, str]]:
    return {(name, kind) for kind, names in answer.get("members", {}).items() for name in names}


RXJS_QUESTIONS = {
    "found": ("find_symbols", {"name": "Observable", "kinds": ["class"]}),
    "observable": ("get_symbol", {"name": OBSERVABLE}),
    "subject": ("get_symbol", {"name": "Subject", "path": "internal/Subject.ts"}),
    "try_subscribe": ("get_symbol", {"name": "Observable._trySubscribe"}),  # a partial name is enough
    "subject_next": ("get_symbol", {"name": f"{SUBJECT}.next"}),
    "lift": ("get_symbol", {"name": f"{OBSERVABLE}.lift"}),
    "outline": ("file_outline", {"path": "internal/Observable.ts", "detail": "names"}),
    "barrel": ("file_outline", {"path": "index.ts"}),
    "stats": ("stats", {}),
}

ESLINT_QUESTIONS = {
    "decorative": ("get_symbol", {"name": DECORATIVE}),
    "move_next": ("get_symbol", {"name": f"{DECORATIVE}.moveNext"}),
    "outline": ("file_outline", {"path": f"{TOKEN_STORE}/decorative-cursor.js", "detail": "full"}),
    "stats": ("stats", {}),
}


@pytest.fixture(scope="module")
def rx(corpus, tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    return anyio.run(ask_questions, corpus("ts-rxjs"), tmp_path_factory.mktemp("rxjs-cache"), RXJS_QUESTIONS)


@pytest.fixture(scope="module")
def eslint(corpus, tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    return anyio.run(ask_questions, corpus("js-eslint"), tmp_path_factory.mktemp("eslint-cache"), ESLINT_QUESTIONS)


def test_all_of_rxjs_is_indexed(rx: dict[str, dict]) -> None:
    assert rx["index"]["parsed"] == rx["index"]["files"] >= 250 and "failed" not in rx["index"]
    assert rx["stats"]["languages"]["typescript"] >= 250
    assert "partial_files" not in rx["stats"]
    resolution = rx["stats"]["call_resolution"]
    assert resolution["import"] > resolution["exact"] > resolution["inherited"] > 0


def test_the_observable_class_its_members_and_its_family(rx: dict[str, dict]) -> None:
    top = listed(rx["found"]["results"])[0]
    assert (ts_name(top["path"], top["name"]), top["path"]) == (OBSERVABLE, "internal/Observable.ts")

    observable = rx["observable"]
    assert observable["path"].endswith(".ts") and observable["kind"] == "class"
    assert observable["signature"] == "class Observable<T> implements Subscribable<T>"
    assert observable["doc"].startswith("A representation of any set of values over any amount of time.")
    assert "export" in observable["modifiers"]
    assert {
        ("constructor", "constructor"),
        ("lift", "method"),
        ("subscribe", "method"),
        ("pipe", "method"),
        ("forEach", "method"),
        ("toPromise", "method"),
        ("_trySubscribe", "method"),
        ("source", "property"),
        ("operator", "property"),
    } <= members(observable)
    # `implements Subscribable<T>`: an interface imported from ./types, without its type argument.
    assert {name: (b["groups"], b["path"]) for name, b in ts_places(observable["bases"]).items()} == {
        "internal/types.Subscribable": ({"implements (import)"}, "internal/types.ts")
    }
    # Subclasses all over the tree, each extending the imported Observable; an interface extends it too.
    assert {
        SUBJECT,
        "internal/observable/ConnectableObservable.ConnectableObservable",
        "internal/operators/groupBy.GroupedObservable",
        "internal/testing/ColdObservable.ColdObservable",
        "internal/types.Connectable",
    } <= set(ts_places(observable["subclasses"]))

    # Subject extends Observable (the subclass's side of the same edge) and implements SubscriptionLike.
    subject = rx["subject"]
    assert subject["qualified_name"] == SUBJECT
    bases = ts_places(subject["bases"])
    assert bases[OBSERVABLE]["groups"] == {"extends (import)"}
    assert bases["internal/types.SubscriptionLike"]["groups"] == {"implements (import)"}
    assert {
        "internal/BehaviorSubject.BehaviorSubject",
        "internal/ReplaySubject.ReplaySubject",
        "internal/AsyncSubject.AsyncSubject",
        "internal/Subject.AnonymousSubject",
    } <= set(ts_places(subject["subclasses"]))
    assert {"next", "error", "complete", "asObservable", "observers"} <= member_names(subject)


def test_callers_and_callees_of_known_methods(rx: dict[str, dict]) -> None:
    try_subscribe = rx["try_subscribe"]
    assert try_subscribe["qualified_name"] == f"{OBSERVABLE}._trySubscribe"
    assert try_subscribe["signature"] == "protected _trySubscribe(sink: Subscriber<T>): TeardownLogic"
    callees = ts_places(try_subscribe["callees"])
    assert callees[f"{OBSERVABLE}._subscribe"]["groups"] == {"exact"}  # this._subscribe(sink)
    # sink.error(err), `sink: Subscriber<T>` a parameter of an imported type.
    assert callees["internal/Subscriber.Subscriber.error"]["groups"] == {"import"}
    callers = ts_places(try_subscribe["callers"])
    assert callers[f"{OBSERVABLE}.subscribe"]["groups"] == {"exact"}
    # Subject overrides it and calls `super._trySubscribe(subscriber)`.
    assert callers[f"{SUBJECT}._trySubscribe"]["groups"] == {"inherited"}
    assert callers[f"{SUBJECT}._trySubscribe"]["path"] == "internal/Subject.ts"

    how = ts_places(rx["subject_next"]["callers"])
    assert how["internal/BehaviorSubject.BehaviorSubject.next"]["groups"] == {"inherited"}  # super.next(...)
    assert how["internal/ReplaySubject.ReplaySubject.next"]["groups"] == {"inherited"}

    lift = rx["lift"]
    assert set(ts_places(lift["callees"])) == {OBSERVABLE}  # new Observable<R>()
    # `source.lift(...)` in another module, source typed by an imported interface or class.
    assert ts_places(lift["callers"])["internal/util/lift.operate"]["groups"] == {"import"}


def test_imports_and_exports_of_observable_ts_and_of_the_barrel(rx: dict[str, dict]) -> None:
    outline = rx["outline"]
    assert outline["language"] == "typescript" and not outline.get("partial")
    imports = {(module, name) for module, names in outline["imports"].items() for name in names}
    assert {
        ("./Subscriber", "SafeSubscriber"),
        ("./Subscriber", "Subscriber"),
        ("./types", "Observer"),
        ("./util/pipe", "pipeFromArray"),
        ("./config", "config"),
    } <= imports
    assert ("./symbol/observable", "observable as Symbol_observable") in imports  # `as` renames
    assert [name for e in outline["exports"] for name in e["names"]] == ["Observable"]
    assert outline_names(outline) == ["Observable", "getPromiseCtor", "isObserver", "isSubscriber"]

    # The package's index.ts only re-exports: each name with the module it comes from.
    barrel = rx["barrel"]
    assert barrel["symbols"] == {}
    reexports = {name: e for e in barrel["exports"] for name in e["names"]}
    assert reexports["Observable"]["kind"] == "re-export"
    assert reexports["Observable"]["source"] == "internal/Observable"
    assert reexports["Subject"]["source"] == "internal/Subject"
    assert {"of", "from", "map", "firstValueFrom", "BehaviorSubject"} <= set(reexports)


def test_a_javascript_class_from_eslint(eslint: dict[str, dict]) -> None:
    assert eslint["index"]["parsed"] == eslint["index"]["files"] >= 380
    assert eslint["stats"]["languages"]["javascript"] >= 380

    # `module.exports = class DecorativeCursor extends Cursor { ... }` with `const Cursor = require("./cursor")`.
    decorative = eslint["decorative"]
    assert decorative["kind"] == "class"
    assert decorative["path"] == f"{TOKEN_STORE}/decorative-cursor.js"
    assert decorative["doc"] == "The abstract class about cursors which manipulate another cursor."
    # its constructor's `this.cursor = cursor` is an instance field
    assert members(decorative) == {("constructor", "constructor"), ("moveNext", "method"), ("cursor", "property")}
    assert set(ts_places(decorative["bases"])) == {f"{TOKEN_STORE}/cursor.Cursor"}
    assert {
        f"{TOKEN_STORE}/filter-cursor.FilterCursor",
        f"{TOKEN_STORE}/limit-cursor.LimitCursor",
        f"{TOKEN_STORE}/skip-cursor.SkipCursor",
    } <= set(ts_places(decorative["subclasses"]))

    # Subclasses call `super.moveNext()`.
    how = ts_places(eslint["move_next"]["callers"])
    assert how[f"{TOKEN_STORE}/filter-cursor.FilterCursor.moveNext"]["groups"] == {"inherited"}

    outline = eslint["outline"]
    assert outline["language"] == "javascript"
    (required,) = outline["imports"]
    assert (required["module"], required["as"], required["kind"], required["line"]) == (
        "./cursor",
        "Cursor",
        "require",
        11,
    )
    (exported,) = outline["exports"]
    assert (exported["names"], exported["kind"]) == (["DecorativeCursor"], "default")  # module.exports = class ...
