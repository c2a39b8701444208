"""The file tools on real files, in-process: bounded reads (lines, tail, byte windows, JSON
pointers), ripgrep searches with the enclosing symbol, file finding, directory and symbol
comparison, edits with their history and undo. Security rules live in test_file_security.py."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import pytest
from codecairn.errors import ToolError
from codecairn.workspace import Workspace
from realcode import answers

pytestmark = pytest.mark.anyio

SERVICE = '''"""A small service."""


class Cache:
    def __init__(self):
        self.items = {}

    def get(self, key):
        return self.items.get(key)

    def put(self, key, value):
        self.items[key] = value


def make_cache():
    return Cache()
'''


def make_project(root: Path) -> Path:
    (root / "app").mkdir(parents=True)
    (root / "app" / "service.py").write_text(SERVICE)
    (root / "app" / "__init__.py").write_text("")
    (root / "app" / "user_controller.py").write_text("def handle(request):\n    return make_cache().get(request)\n")
    (root / "node_modules" / "dep").mkdir(parents=True)
    (root / "node_modules" / "dep" / "index.js").write_text("function make_cache() { return 1 }\n")
    (root / "config.json").write_text(json.dumps({"name": "demo", "deps": {"react": "18.2", "vue": "3"}, "n": [1, 2]}))
    return root


@pytest.fixture
async def ws(tmp_path: Path, cache_dir: Path):
    workspace = await Workspace.open(str(make_project(tmp_path / "proj")))
    await workspace.indexer.run()
    yield workspace
    await workspace.close()


async def call(ws, tool: str, **args) -> dict:
    return await answers(ws).call(tool, **args)


async def refused(ws, tool: str, **args) -> ToolError:
    with pytest.raises(ToolError) as caught:
        await call(ws, tool, **args)
    return caught.value


# ---- reads -----------------------------------------------------------------------------------


async def test_read_by_lines_and_tail_reports_the_hash_and_where_to_go_on(ws) -> None:
    root = Path(ws.root)
    sha = hashlib.sha256((root / "app/service.py").read_bytes()).hexdigest()
    part = await call(ws, "read", path="app/service.py", start_line=4, end_line=5)
    assert part["text"] == "class Cache:\n    def __init__(self):\n"
    assert (part["start_line"], part["end_line"], part["total_lines"]) == (4, 5, 16)
    assert part["sha256"] == sha
    last = await call(ws, "read", path="app/service.py", tail=2)
    assert last["text"] == "def make_cache():\n    return Cache()\n" and last["start_line"] == 15
    small = await call(ws, "read", path="app/service.py", max_bytes=40)
    assert small["truncated"] is True and small["next_start_line"] > 1
    assert len(small["text"].encode()) <= 40
    rest = await call(ws, "read", path="app/service.py", start_line=small["next_start_line"])
    assert small["text"] + rest["text"] == SERVICE, "continuing where the cut read said gives the rest, nothing lost"


async def test_a_line_longer_than_the_window_comes_back_by_byte_windows(ws) -> None:
    root = Path(ws.root)
    minified = "var a=" + ",".join(str(i) for i in range(60_000)) + ";\n"
    (root / "min.js").write_text(minified)
    first = await call(ws, "read", path="min.js", max_bytes=1000)
    assert first["line_truncated"] is True and first["next_start_byte"] == 1000
    assert first["text"] == minified[:1000]
    pieces, start = [first["text"]], first["next_start_byte"]
    while start is not None:
        window = await call(ws, "read", path="min.js", start_byte=start, max_bytes=100_000)
        pieces.append(window["text"])
        start = window.get("next_start_byte")
    assert "".join(pieces) == minified
    # Past the end: nothing, and no position made up for it (as for a start_line past the end)
    for beyond in (len(minified), 10**9):
        past = await call(ws, "read", path="min.js", start_byte=beyond)
        assert past["text"] == "" and past["size_bytes"] == len(minified), past
        assert not {"start_byte", "end_byte", "start_line"} & set(past), past


async def test_bom_and_crlf_are_normalised_and_said_binary_never_returned(ws) -> None:
    root = Path(ws.root)
    (root / "win.txt").write_bytes(b"\xef\xbb\xbfone\r\ntwo\r\n")
    win = await call(ws, "read", path="win.txt")
    assert win["text"] == "one\ntwo\n" and win["bom"] is True and win["line_endings"] == "crlf"
    (root / "blob.bin").write_bytes(b"PK\x03\x04" + bytes(range(256)) * 10)
    blob = await call(ws, "read", path="blob.bin")
    assert blob["binary"] is True and "text" not in blob and len(blob["sha256"]) == 64


async def test_a_last_line_without_a_line_break_is_shown_as_it_is_and_edited_as_shown(ws) -> None:
    # read added a "\n" the file does not have; an edit's old_text copied from it was "not in" the file
    (ws.root / "noeol.py").write_text("x = 1\ny = 2")
    whole = await call(ws, "read", path="noeol.py")
    assert (whole["text"], whole["no_final_newline"]) == ("x = 1\ny = 2", True)
    assert (await call(ws, "read", path="noeol.py", tail=1))["text"] == "y = 2"
    first = await call(ws, "read", path="noeol.py", end_line=1)
    assert first["text"] == "x = 1\n" and "no_final_newline" not in first
    await call(ws, "edit", path="noeol.py", old_text="x = 1\ny = 2", new_text="x = 1\ny = 3")
    assert (ws.root / "noeol.py").read_text() == "x = 1\ny = 3"
    assert "no_final_newline" not in await call(ws, "read", path="app/service.py")


async def test_read_symbol_numbers_lines_as_the_index_does_and_decodes_as_read_does(ws) -> None:
    # A form feed (CPython's email/parser.py has them) is no line break to the parser: read_symbol
    # split there and showed lines above the symbol, cut short; a byte order mark was shown as text
    (ws.root / "ff.py").write_text("import os\n\x0c\n\n@decorate\ndef after_ff():\n    return os.sep\n")
    (ws.root / "bom.py").write_bytes("\ufeffdef first():\n    return 'café'\n".encode("utf-8"))
    (ws.root / "latin.py").write_bytes("def named():\n    return 'café'\n".encode("latin-1"))
    await ws.indexer.run()
    ff = await call(ws, "read_symbol", name="after_ff")
    assert ff["source"] == "@decorate\ndef after_ff():\n    return os.sep" and ff["lines"] == "4-6"
    assert (await call(ws, "read_symbol", name="first"))["source"] == "def first():\n    return 'café'"
    assert (await call(ws, "read_symbol", name="named"))["source"] == "def named():\n    return 'café'"
    await call(ws, "edit_symbol", name="after_ff", new_text="@decorate\ndef after_ff():\n    return 1\n")
    assert (ws.root / "ff.py").read_text() == "import os\n\x0c\n\n@decorate\ndef after_ff():\n    return 1\n"


async def test_read_symbol_of_a_file_changed_since_it_was_indexed_shows_the_symbol_as_it_is_now(ws) -> None:
    # It showed the old lines of the new text (an empty source past the end), flagged stale
    service = ws.root / "app" / "service.py"
    service.write_text("# a header added by hand\n\n\n" + service.read_text())
    got = await call(ws, "read_symbol", name="make_cache")
    assert got["source"] == "def make_cache():\n    return Cache()" and "stale" not in got


async def test_json_pointer_selects_inside_a_json_file(ws) -> None:
    got = await call(ws, "read", path="config.json", json_pointer="/deps/react")
    assert got["value"] == "18.2"
    assert (await call(ws, "read", path="config.json", json_pointer="/n/1"))["value"] == 2
    missing = await refused(ws, "read", path="config.json", json_pointer="/deps/angular")
    assert missing.code == "not_found"
    bad = await refused(ws, "read", path="config.json", json_pointer="deps")
    assert bad.code == "bad_argument"
    escape = await refused(ws, "read", path="config.json", json_pointer="/deps/re~2act")  # RFC 6901: ~0 or ~1
    assert escape.code == "bad_argument" and "~0" in escape.message
    # As a parser of the whole file reads it: the last of a name given twice, and no value out of a
    # file that breaks after it (one being written, a merge gone wrong)
    (ws.root / "twice.json").write_text('{"port": 80,\n "port": 8080}\n')
    assert (await call(ws, "read", path="twice.json", json_pointer="/port"))["value"] == 8080
    (ws.root / "cut.json").write_text('{"deps": {"react": "18.2",\n  "vue": ')
    cut = await refused(ws, "read", path="cut.json", json_pointer="/deps/react")
    assert cut.code == "bad_argument" and cut.message.startswith("not valid JSON")
    assert (cut.details["line"], cut.details["column"]) == (2, 10)
    # A byte order mark is read past (as read shows the text); a lone surrogate escape, valid JSON
    # but no character, comes back as U+FFFD (it crashed the read)
    (ws.root / "bom.json").write_bytes(b'\xef\xbb\xbf{"k": "v"}')
    assert (await call(ws, "read", path="bom.json", json_pointer="/k"))["value"] == "v"
    (ws.root / "bom_cut.json").write_bytes(b'\xef\xbb\xbf{"k": }')
    bom_cut = await refused(ws, "read", path="bom_cut.json", json_pointer="/k")
    assert (bom_cut.details["line"], bom_cut.details["column"]) == (1, 7)
    (ws.root / "lone.json").write_text('{"s": "\\ud800", "t": "ok"}')
    assert (await call(ws, "read", path="lone.json", json_pointer=""))["value"] == {"s": "\ufffd", "t": "ok"}


async def test_read_snippets_answers_each_in_place(ws) -> None:
    got = await call(
        ws,
        "read_snippets",
        snippets=[{"path": "app/service.py", "start_line": 4, "end_line": 4}, {"path": "app/nope.py"}],
    )
    ok, missing = got["snippets"]
    assert ok["text"] == "class Cache:\n"
    assert missing["error"] == "not_found" and missing["path"] == "app/nope.py"


async def test_file_hash_and_validate_json(ws) -> None:
    root = Path(ws.root)
    digest = await call(ws, "file_hash", path="app/service.py")
    assert digest["sha256"] == hashlib.sha256((root / "app/service.py").read_bytes()).hexdigest()
    assert digest["lines"] == 16
    assert (await call(ws, "validate_json", path="config.json"))["valid"] is True
    (root / "broken.json").write_text('{\n  "a": 1,\n  "b": [1, 2,]\n}\n')
    broken = await call(ws, "validate_json", path="broken.json")
    assert broken["valid"] is False and (broken["line"], broken["column"]) == (3, 14)  # at the "]"
    assert (await call(ws, "validate_json", text="[1, 2"))["valid"] is False


# ---- searching and finding -------------------------------------------------------------------


async def test_search_text_names_the_enclosing_symbol_and_skips_vendored_dirs(ws) -> None:
    found = await call(ws, "search_text", pattern="make_cache")
    by_path = {f["path"]: f["matches"] for f in found["files"]}
    assert set(by_path) == {"app/service.py", "app/user_controller.py"}, "node_modules is not searched"
    assert by_path["app/user_controller.py"][0]["symbol"] == "app.user_controller.handle"
    assert found["complete"] is True and found["matches"] == 2
    items = await call(ws, "search_text", pattern="self.items", literal=True)
    symbols = {m["symbol"] for f in items["files"] for m in f["matches"]}
    assert symbols == {"app.service.Cache.__init__", "app.service.Cache.get", "app.service.Cache.put"}
    named = await call(ws, "search_text", pattern="make_cache", path="node_modules")
    assert [f["path"] for f in named["files"]] == ["node_modules/dep/index.js"], "naming it as the scope searches it"
    # A decorator line is the decorated method's, not the class's (it stands above the def)
    (ws.root / "app" / "shapes.py").write_text(
        "class Circle:\n    r = 1\n\n    @property\n    @cached\n    def area(self):\n        return 3 * self.r\n"
    )
    await ws.indexer.run()
    # the line read_symbol's `lines` start at (its decorators') names the symbol too
    area = await call(ws, "read_symbol", name="Circle.area")
    assert area["lines"] == "4-7"
    assert (await call(ws, "read_symbol", name="Circle.area", line=4))["lines"] == "4-7"
    decorated = await call(ws, "search_text", pattern=r"^\s+@", path="app/shapes.py")
    assert [(m["line"], m["symbol"]) for m in decorated["files"][0]["matches"]] == [
        (4, "app.shapes.Circle.area"),
        (5, "app.shapes.Circle.area"),
    ]


async def test_a_search_right_after_an_edit_names_the_symbols_as_they_are_now(ws) -> None:
    # Lines added above by hand, the watcher not there yet: matches were named by the old lines
    service = ws.root / "app" / "service.py"
    service.write_text(
        service.read_text().replace("class Cache:", "def first():\n    return make_cache()\n\n\nclass Cache:")
    )
    found = await call(ws, "search_text", pattern="make_cache", path="app/service.py")
    named = {m["line"]: m.get("symbol") for f in found["files"] for m in f["matches"]}
    assert named[5] == "app.service.first" and "stale" not in found, named


async def test_search_text_stops_at_max_matches_and_says_so(ws) -> None:
    root = Path(ws.root)
    (root / "many.txt").write_text("needle\n" * 1000)
    got = await call(ws, "search_text", pattern="needle", max_matches=7, context=1)
    assert got["matches"] == 7 and got["complete"] is False
    assert got["limit_reached"] is True and got["limit_reason"] == "max_matches"
    (root / "thrice.txt").write_text("é needle, needle and needle\n")
    (line,) = (await call(ws, "search_text", pattern="needle", path="thrice.txt"))["files"][0]["matches"]
    assert (line["column"], line["more_columns"]) == (3, [11, 22]), "every match on the line, in characters"


async def test_a_search_with_no_match_says_what_could_explain_it(ws) -> None:
    got = await call(ws, "search_text", pattern="MAKE_CACHE", include=["*.py"])
    assert got["matches"] == 0 and got["complete"] is True
    assert got["files_searched"] == 3
    assert "capitals" in got["hint"] and "include" in got["hint"]
    bad = await refused(ws, "search_text", pattern="(unclosed")
    assert bad.code == "bad_argument" and "regex" in bad.message.lower()
    # ripgrep's advice names flags search_text does not take: said in the tool's own terms
    for pattern, says in ((r"def\nclass", "within one line"), (r"(?<=def )get", "without them")):
        refusal = await refused(ws, "search_text", pattern=pattern)
        assert says in refusal.message and "--" not in refusal.message, refusal.message
    nothing = await call(ws, "search_text", pattern="x", include=["*.nothing"])
    assert nothing["files_searched"] == 0 and "errors" not in nothing, "no advice to run ripgrep --debug"


async def test_find_files_ranks_like_quick_open_and_list_files_globs(ws) -> None:
    found = await call(ws, "find_files", query="usrctl")
    assert found["files"][0] == "app/user_controller.py"
    listed = await call(ws, "list_files", include=["*.py"])
    assert listed["files"] == ["app/__init__.py", "app/service.py", "app/user_controller.py"]
    for directory in ("app", "app/", "/app"):  # a directory's name as a glob means the files under it
        named = await call(ws, "list_files", include=[directory])
        assert named["files"] == listed["files"], directory
    searched = await call(ws, "search_text", pattern="make_cache", include=["app"])
    assert [f["path"] for f in searched["files"]] == ["app/service.py", "app/user_controller.py"]
    cut = await call(ws, "list_files", limit=2)
    assert cut["complete"] is False and cut["total"] == 4 and len(cut["files"]) == 2
    tree = await call(ws, "project_map")
    assert tree["files"] == 4 and tree["dirs"][0]["name"] == "app" and tree["dirs"][0]["languages"] == {"python": 3}
    # A glob with a NUL byte (found by fuzzing: an internal error when ripgrep was started with it)
    for tool, args in (("list_files", {"include": ["\0"]}), ("search_text", {"pattern": "x", "exclude": ["a\0"]})):
        nul = await refused(ws, tool, **args)
        assert nul.code == "bad_argument" and "NUL" in nul.message, (tool, nul.message)


# ---- comparing -------------------------------------------------------------------------------


async def test_compare_directories_finds_added_removed_modified_renamed(ws) -> None:
    root = Path(ws.root)
    shutil.copytree(root / "app", root / "app2")
    (root / "app2" / "service.py").write_text(SERVICE.replace("return Cache()", "return Cache()  # new"))
    (root / "app2" / "user_controller.py").rename(root / "app2" / "controller.py")
    (root / "app2" / "__init__.py").unlink()
    (root / "app2" / "extra.py").write_text("X = 1\n")
    got = await call(ws, "compare_directories", left="app", right="app2", include_diff=True)
    assert got["renamed"] == [{"from": "user_controller.py", "to": "controller.py"}]
    assert got["added"] == ["extra.py"] and got["removed"] == ["__init__.py"]
    (modified,) = got["modified"]
    assert modified["path"] == "service.py" and "+    return Cache()  # new" in modified["diff"]
    assert got["complete"] is True and "diff_note" not in modified


async def test_compare_directories_says_what_a_diff_of_the_text_cannot_show(ws) -> None:
    root = Path(ws.root)
    for side, (crlf, final, blob) in {
        "l": (b"a\nb\n", b"no newline", b"\0\1"),
        "r": (b"a\r\nb\r\n", b"no newline\n", b"\0\2"),
    }.items():
        (root / side).mkdir()
        (root / side / "crlf.txt").write_bytes(crlf)
        (root / side / "final.txt").write_bytes(final)
        (root / side / "blob.bin").write_bytes(blob)
    got = await call(ws, "compare_directories", left="l", right="r", include_diff=True)
    by_path = {m["path"]: m for m in got["modified"]}
    # Each was `modified` with no diff, or with "-no newline" / "+no newline" that read the same
    assert by_path["crlf.txt"]["diff_note"] == "line endings lf -> crlf" and "diff" not in by_path["crlf.txt"]
    assert "\\ No newline at end of file" in by_path["final.txt"]["diff"]
    assert by_path["blob.bin"]["diff_note"] == "binary: sizes only"


async def test_compare_symbols_diffs_bodies_and_reports_ambiguity(ws) -> None:
    got = await call(ws, "compare_symbols", left={"name": "Cache.get"}, right={"name": "Cache.put"})
    assert got["same_content"] is False and got["changed"]["name"] == ["get", "put"]
    assert "-    def get(self, key):" in got["unified_diff"]
    root = Path(ws.root)
    (root / "other.py").write_text("class Cache:\n    def get(self, key):\n        return None\n")
    await ws.indexer.refresh(["other.py"])
    both = await call(ws, "compare_symbols", left={"name": "Cache.get"}, right={"name": "app.service.Cache.get"})
    assert both["ambiguous"] is True and len(both["left_candidates"]) == 2 and "unified_diff" not in both


# ---- edits -----------------------------------------------------------------------------------


async def test_edit_replaces_a_unique_span_and_the_index_follows(ws) -> None:
    root = Path(ws.root)
    before = await call(ws, "file_hash", path="app/service.py")
    done = await call(
        ws,
        "edit",
        path="app/service.py",
        old_text="def make_cache():",
        new_text="def build_cache():",
        expected_hash=before["sha256"],
    )
    assert done["sha256_before"] == before["sha256"]
    assert done["sha256_after"] == hashlib.sha256((root / "app/service.py").read_bytes()).hexdigest()
    assert "index" not in done, "re-indexed before the answer"
    found = await call(ws, "find_symbols", name="build_cache")
    assert [e["name"] for e in found["results"]["app/service.py"]] == ["build_cache"]
    assert not (await call(ws, "find_symbols", name="make_cache"))["results"]


async def test_edit_modes_lines_insert_create_delete(ws) -> None:
    root = Path(ws.root)
    await call(ws, "edit", path="app/service.py", start_line=1, end_line=1, new_text='"""Changed."""\n')
    assert (root / "app/service.py").read_text().startswith('"""Changed."""\n\n\nclass Cache:')
    await call(ws, "edit", path="app/service.py", insert_line=17, new_text="\n\nVERSION = 2\n")
    assert (root / "app/service.py").read_text().endswith("return Cache()\n\n\nVERSION = 2\n")
    made = await call(ws, "edit", path="app/new/mod.py", create=True, new_text="A = 1\n")
    assert made["created"] is True and (root / "app/new/mod.py").read_text() == "A = 1\n"
    assert (await refused(ws, "edit", path="app/new/mod.py", create=True, new_text="B\n")).code == "bad_argument"
    gone = await call(ws, "edit", path="app/new/mod.py", delete=True)
    assert gone["deleted"] is True and not (root / "app/new/mod.py").exists()
    twice = await refused(ws, "edit", path="app/service.py", old_text="self.items", new_text="self.data")
    assert "occurs 3 times" in twice.message
    await call(ws, "edit", path="app/service.py", old_text="self.items", new_text="self.data", expected_occurrences=3)
    assert (root / "app/service.py").read_text().count("self.data") == 3


async def test_edit_symbol_replaces_a_method_by_name(ws) -> None:
    root = Path(ws.root)
    got = await call(
        ws, "edit_symbol", name="Cache.get", new_text="    def get(self, key, default=None):\n        return default\n"
    )
    assert got["symbol"] == "app.service.Cache.get" and got["lines"] == "8-9"
    text = (root / "app/service.py").read_text()
    assert "def get(self, key, default=None):\n        return default\n\n    def put" in text
    after = await call(ws, "edit_symbol", name="make_cache", position="after", new_text="\n\ndef other():\n    pass\n")
    assert after["symbol"] == "app.service.make_cache"
    (other,) = (await call(ws, "find_symbols", name="other"))["results"]["app/service.py"]
    assert other["lines"].split("-")[0] == "19"
    # `lines` is where the symbol is after the write, as everywhere else (it was where it had been)
    longer = "    def get(self, key, default=None):\n        found = self.items.get(key)\n        return found\n"
    assert (await call(ws, "edit_symbol", name="Cache.get", new_text=longer))["lines"] == "8-10"
    above = await call(ws, "edit_symbol", name="Cache.put", position="before", new_text="    X = 1\n\n")
    assert above["lines"] == (await call(ws, "get_symbol", name="Cache.put"))["lines"] == "14-15"
    renamed = await call(ws, "edit_symbol", name="Cache.put", new_text="    def store(self, k, v):\n        pass\n")
    assert renamed["lines"] == "14-15" and "renamed" in renamed["symbol_now"]


DECORATED = """class Text:
    def __init__(self):
        self.text = ""

    # How wide the text is on screen.
    @property
    def cell_len(self) -> int:
        return len(self.text)

    @app.route(
        "/render",
        methods=["GET"],
    )
    @cached
    def render(self):
        return self.text
"""

POINT = """/// A point on the plane.
#[derive(Debug, Clone)]
pub struct Point {
    x: i32,
}
"""


async def test_a_symbol_s_decorators_are_its_own_to_read_and_edit_and_code_before_it_goes_above_them(
    ws,
) -> None:
    root = Path(ws.root)
    (root / "app" / "text.py").write_text(DECORATED)
    (root / "src").mkdir()
    (root / "src" / "point.rs").write_text(POINT)
    await ws.indexer.run()
    read = await call(ws, "read_symbol", name="Text.cell_len")
    assert read["source"].startswith("    @property\n    def cell_len") and read["lines"] == "6-8"
    multi = await call(ws, "read_symbol", name="Text.render")
    assert multi["source"].startswith("    @app.route(\n") and multi["lines"] == "10-16"

    # Before it: above its comment and decorator, which stay with it
    helper = "    def helper(self) -> int:\n        return 1\n\n"
    await call(ws, "edit_symbol", name="Text.cell_len", position="before", new_text=helper)
    text = (root / "app" / "text.py").read_text()
    assert "\n\n" + helper + "    # How wide the text is on screen.\n    @property\n    def cell_len" in text
    cell_len, helper_symbol = (
        await call(ws, "get_symbol", name="Text.cell_len"),
        await call(ws, "get_symbol", name="helper"),
    )
    assert "property" in str(cell_len) and "property" not in str(helper_symbol), (cell_len, helper_symbol)

    # Replaced with what read_symbol showed, changed: the decorators are not doubled
    shown = (await call(ws, "read_symbol", name="Text.render"))["source"]
    await call(ws, "edit_symbol", name="Text.render", new_text=shown.replace("self.text", "self.text.upper()") + "\n")
    text = (root / "app" / "text.py").read_text()
    assert text.count("@app.route(") == 1 and text.count("@cached") == 1 and "self.text.upper()" in text

    # Rust: above the doc comment and the attribute
    await call(ws, "edit_symbol", name="Point", position="before", new_text="use std::fmt;\n\n")
    assert (root / "src" / "point.rs").read_text() == "use std::fmt;\n\n" + POINT


async def test_a_name_that_exists_but_not_where_the_path_or_line_says_is_told_apart_from_an_unknown_name(
    ws,
) -> None:
    in_other_file = await refused(ws, "get_symbol", name="make_cache", path="app/user_controller.py")
    assert in_other_file.code == "not_found" and "in 'app/user_controller.py'" in in_other_file.message
    assert list(in_other_file.details["elsewhere"]) == ["app/service.py"]
    past_the_end = await refused(ws, "read_symbol", name="make_cache", line=1_000_000)
    assert "at line 1000000" in past_the_end.message and "1 elsewhere" in past_the_end.message
    nowhere = await refused(ws, "get_symbol", name="make_cache", path="app/nope.py")
    assert "(not an indexed file)" in nowhere.message
    unknown = await refused(ws, "get_symbol", name="make_cachez", path="app/service.py")
    assert unknown.message == "no symbol named 'make_cachez'" and "elsewhere" not in unknown.details


async def test_edit_files_is_all_or_nothing(ws) -> None:
    root = Path(ws.root)
    service = (root / "app/service.py").read_bytes()
    failed = await refused(
        ws,
        "edit_files",
        files=[
            {"path": "app/service.py", "old_text": "class Cache:", "new_text": "class Store:"},
            {"path": "app/created.py", "create": True, "new_text": "X = 1\n"},
            {"path": "app/user_controller.py", "old_text": "not in the file", "new_text": "y"},
        ],
    )
    assert failed.code == "not_found" or "not in" in failed.message
    assert failed.message.startswith("files[2] (app/user_controller.py)") and failed.details["index"] == 2
    assert (root / "app/service.py").read_bytes() == service and not (root / "app/created.py").exists()
    # The second edit of a file is tried on the first's result: the refusal says so
    twice = await refused(
        ws,
        "edit_files",
        files=[
            {"path": "app/service.py", "old_text": "class Cache:", "new_text": "class Store:"},
            {"path": "app/service.py", "old_text": "class Cache:", "new_text": "class Shop:"},
        ],
    )
    assert twice.message.startswith("files[1] (app/service.py, as the batch's earlier changes to it left it)")
    assert (root / "app/service.py").read_bytes() == service
    ok = await call(
        ws,
        "edit_files",
        files=[
            {"path": "app/service.py", "old_text": "class Cache:", "new_text": "class Store:"},
            {"path": "app/created.py", "create": True, "new_text": "X = 1\n"},
        ],
    )
    assert [f["path"] for f in ok["files"]] == ["app/service.py", "app/created.py"] and "history_id" in ok


async def test_undo_and_history_survive_a_restart(tmp_path: Path, cache_dir: Path) -> None:
    root = make_project(tmp_path / "p")
    original = (root / "app/service.py").read_bytes()
    ws = await Workspace.open(str(root))
    await ws.indexer.run()
    first = await call(ws, "edit", path="app/service.py", old_text="Cache()", new_text="Cache(size=1)")
    await call(ws, "edit", path="app/extra.py", create=True, new_text="Y = 2\n")
    await ws.close()

    ws = await Workspace.open(str(root))
    try:
        history = await call(ws, "history")
        assert [e["tool"] for e in history["entries"]] == ["edit", "edit"]
        # a directory's history is its files' (it was empty)
        assert [e["id"] for e in (await call(ws, "history", path="app"))["entries"]] == [
            e["id"] for e in history["entries"]
        ]
        assert [e["id"] for e in (await call(ws, "history", path="app/extra.py"))["entries"]] == [
            history["entries"][0]["id"]
        ]
        assert history["entries"][0]["files"][0] == {
            "path": "app/extra.py",
            "created": True,
            "sha256_after": hashlib.sha256(b"Y = 2\n").hexdigest(),
        }
        undone = await call(ws, "undo")
        assert undone["files"][0]["deleted"] is True and not (root / "app/extra.py").exists()
        # An entry whose file changed since is not undone: that would lose the later change.
        (root / "app/service.py").write_text((root / "app/service.py").read_text() + "# by hand\n")
        stale = await refused(ws, "undo", id=first["history_id"])
        assert stale.code == "stale_precondition"
        (root / "app/service.py").write_text(original.decode().replace("Cache()", "Cache(size=1)"))
        await call(ws, "undo", id=first["history_id"])
        assert (root / "app/service.py").read_bytes() == original
        again = await refused(ws, "undo", id=first["history_id"])
        assert "already undone" in again.message
    finally:
        await ws.close()


async def test_undo_through_a_link_that_now_leads_out_is_refused_as_outside(ws, tmp_path: Path) -> None:
    # It asked for acknowledge_risk first, which could never let the write through
    (ws.root / "a.txt").write_text("orig\n")
    done = await call(ws, "edit", path="a.txt", old_text="orig", new_text="after")
    outside = tmp_path / "victim.txt"
    outside.write_text("after\n")
    (ws.root / "a.txt").unlink()
    (ws.root / "a.txt").symlink_to(outside)
    refusal = await refused(ws, "undo", id=done["history_id"])
    assert refusal.code == "outside_workspace" and outside.read_text() == "after\n"


async def test_an_edit_keeps_mode_line_endings_and_bom(ws) -> None:
    root = Path(ws.root)
    script = root / "run.sh"
    script.write_bytes(b"\xef\xbb\xbf#!/bin/sh\r\necho one\r\necho two\r\n")
    os.chmod(script, 0o751)
    await call(ws, "edit", path="run.sh", old_text="echo two", new_text="echo three\necho four")
    assert script.read_bytes() == b"\xef\xbb\xbf#!/bin/sh\r\necho one\r\necho three\r\necho four\r\n"
    assert os.stat(script).st_mode & 0o777 == 0o751
    leftovers = [p.name for p in root.iterdir() if ".codecairn-" in p.name]
    assert leftovers == [], "no temporary file is left beside it"


async def test_history_is_bounded_oldest_evicted_first(ws, monkeypatch: pytest.MonkeyPatch) -> None:
    from codecairn.store import history as history_table

    monkeypatch.setattr(history_table, "MAX_ENTRIES", 3)
    ids = [(await call(ws, "edit", path="app/extra.py", create=True, new_text="N = 0\n"))["history_id"]]
    for n in range(1, 5):
        done = await call(ws, "edit", path="app/extra.py", start_line=1, end_line=1, new_text=f"N = {n}\n")
        ids.append(done["history_id"])
    kept = [e["id"] for e in (await call(ws, "history"))["entries"]]
    assert kept == ids[:-4:-1], "the three newest, newest first"
    evicted = await refused(ws, "undo", id=ids[0])
    assert evicted.code == "not_found" and "evicted" in evicted.message


async def test_byte_windows_know_their_line_far_into_a_file(ws) -> None:
    """A byte window's start_line, counted from the nearest remembered mark, equals a full count —
    with a CRLF split across the 1 MiB boundary and lone CRs around it."""
    import re

    root = Path(ws.root)
    chunk = 1 << 20
    head = b"x" * (chunk - 1) + b"\r"  # the CR ends the first MiB; its LF begins the second
    data = head + b"\n" + (b"a\rb\nc\r\n" * 400_000)
    (root / "mixed.txt").write_bytes(data)
    os.utime(root / "mixed.txt", (1_600_000_000, 1_600_000_000))  # not "just written": remembered
    await call(ws, "file_hash", path="mixed.txt")
    for position in (5, chunk - 1, chunk, chunk + 1, chunk + 7, 2 * chunk + 3, len(data) - 10):
        expected = len(re.findall(rb"\r\n|\r|\n", data[:position])) + 1
        got = await call(ws, "read", path="mixed.txt", start_byte=position, max_bytes=16)
        assert got["start_line"] == expected, position


async def test_compare_symbols_across_declared_roots_parses_the_other_side(ws, tmp_path: Path) -> None:
    """A file in another declared root is not indexed: its symbols are parsed on the spot."""
    from codecairn.context import ServedContext
    from codecairn.files.roots import DeclaredRoots

    vendored = tmp_path / "vendored"
    vendored.mkdir()
    (vendored / "service.py").write_text(SERVICE.replace("return self.items.get(key)", "return self.items[key]"))
    ctx = ServedContext(ws, roots=DeclaredRoots(ws.root, (str(vendored),)))
    compare = ws.host.tools["compare_symbols"].handler
    got = await compare(
        ctx, {"left": {"name": "Cache.get"}, "right": {"name": "Cache.get", "path": str(vendored / "service.py")}}
    )
    assert got["right"]["path"] == str(vendored.resolve() / "service.py")
    assert "-        return self.items.get(key)\n+        return self.items[key]" in got["unified_diff"]
    assert "changed" not in got, "same kind, signature, size and name"


async def test_encodings_are_read_and_kept(ws) -> None:
    root = Path(ws.root)
    (root / "latin.txt").write_bytes("café = 1\nnaïve = 2\n".encode("latin-1"))
    got = await call(ws, "read", path="latin.txt")
    assert got["text"] == "café = 1\nnaïve = 2\n" and got["encoding"] == "latin-1"
    await call(ws, "edit", path="latin.txt", old_text="naïve = 2", new_text="déjà = 3")
    assert (root / "latin.txt").read_bytes() == "café = 1\ndéjà = 3\n".encode("latin-1")
    refused_char = await refused(ws, "edit", path="latin.txt", old_text="déjà", new_text="日本")
    assert refused_char.code == "bad_argument" and "latin-1" in refused_char.message
    (root / "wide.txt").write_bytes("\ufeffone\r\ntwo\r\n".encode("utf-16-le"))
    wide = await call(ws, "read", path="wide.txt", start_line=2)
    assert wide["text"] == "two\n" and wide["encoding"].startswith("utf-16") and wide["bom"] is True


async def test_compare_symbols_groups_a_parsed_sides_candidates_by_file(ws, tmp_path: Path) -> None:
    """Ambiguity in a file parsed on the spot (another declared root) is answered like the
    index's: candidates grouped by file, each with its kind and lines — nothing compared."""
    import jsonschema
    from codecairn.context import ServedContext
    from codecairn.files.roots import DeclaredRoots

    vendored = tmp_path / "vendored"
    vendored.mkdir()
    (vendored / "stores.py").write_text(
        SERVICE + "\n\nclass Store:\n    def get(self, key, default=None):\n        return default\n"
    )
    ctx = ServedContext(ws, roots=DeclaredRoots(ws.root, (str(vendored),)))
    tool = ws.host.tools["compare_symbols"]
    other = str(vendored / "stores.py")
    got = await tool.handler(ctx, {"left": {"name": "Cache.get"}, "right": {"name": "get", "path": other}})
    jsonschema.validate(got, tool.output_schema)
    assert got["ambiguous"] is True and "unified_diff" not in got and "left_candidates" not in got
    ((path, candidates),) = got["right_candidates"].items()
    assert path == other
    assert [(c["kind"], c["lines"]) for c in candidates] == [("method", "8-9"), ("method", "20-21")]
    assert candidates[1]["name"].endswith("Store.get") and "default=None" in candidates[1]["signature"]


async def test_an_unknown_name_suggests_each_near_name_once_not_once_per_overload(ws) -> None:
    overloads = "".join(f"    void write(int[] a{n}) {{}}\n" for n in range(6))
    (ws.root / "app" / "Out.java").write_text(f"class Out {{\n{overloads}    void writeLine() {{}}\n}}\n")
    await ws.indexer.run()
    unknown = await refused(ws, "get_symbol", name="Out.writ")
    assert unknown.details["did_you_mean"] == ["Out.write", "Out.writeLine"]


async def test_an_outline_filtered_by_kind_says_whose_member_each_symbol_is(ws) -> None:
    (ws.root / "app" / "Shapes.java").write_text(
        "class Shapes {\n  static class Circle {\n    double area() { return 0; }\n  }\n  int count() { return 1; }\n}\n"
    )
    await ws.indexer.run()
    methods = await call(ws, "file_outline", path="app/service.py", kinds=["method"], detail="names")
    assert methods["symbols"] == {
        "method": [
            {"name": "__init__", "lines": "5-6", "in": "Cache"},
            {"name": "get", "lines": "8-9", "in": "Cache"},
            {"name": "put", "lines": "11-12", "in": "Cache"},
        ]
    }
    functions = await call(ws, "file_outline", path="app/service.py", kinds=["function"], detail="names")
    assert functions["symbols"] == {"function": [{"name": "make_cache", "lines": "15-16"}]}  # the module: unsaid
    nested = await call(ws, "file_outline", path="app/Shapes.java", kinds=["method"], detail="names")
    assert [(m["name"], m["in"]) for m in nested["symbols"]["method"]] == [
        ("area", "Shapes.Circle"),
        ("count", "Shapes"),
    ]
    whole = await call(ws, "file_outline", path="app/service.py", detail="names")
    assert "in" not in whole["symbols"]["class"][0]["members"]["method"][0]  # under its class already


async def test_an_outline_of_a_file_the_index_lacks_says_which_kind_of_absence_it_is(ws) -> None:
    await call(ws, "invalidate", paths=["app/service.py"])
    dropped = await refused(ws, "file_outline", path="app/service.py")
    assert dropped.code == "not_found" and "invalidated since the last index run" in dropped.message
    assert "paths ['app/service.py']" in dropped.message
    (ws.root / "notes.txt").write_text("plain text\n")
    unread = await refused(ws, "file_outline", path="notes.txt")
    assert unread.message == "notes.txt is not indexed: no installed language plugin reads it"
    await call(ws, "index", paths=["app/service.py"])
    assert (await call(ws, "file_outline", path="app/service.py"))["symbols"]


async def test_edit_symbol_refuses_a_symbol_sharing_its_lines_with_its_class_or_a_sibling(ws) -> None:
    source = "class Outer {\n  enum Color { RED, GREEN; void m() {} }\n  int a; int b;\n  void whole() {\n  }\n}\n"
    (ws.root / "app" / "Outer.java").write_text(source)
    await ws.indexer.run()
    said = []
    for name, position in [("Outer.Color.m", "replace"), ("Outer.Color.m", "after"), ("Outer.b", "replace")]:
        shared = await refused(ws, "edit_symbol", name=name, position=position, new_text="void m() { }\n")
        assert shared.code == "bad_argument" and shared.message.endswith(
            "nothing was changed: edit the text itself (edit with old_text)"
        )
        said.append(shared.message.partition(";")[0])
    assert said == [
        "Outer.Color.m shares its lines with enum Outer.Color (which starts on line 2)",
        "Outer.Color.m shares its lines with enum Outer.Color (which starts on line 2)",
        "Outer.b shares its lines with field Outer.a (which is on line 3)",
    ]
    assert (ws.root / "app" / "Outer.java").read_text() == source  # the enum was deleted before
    # read_symbol shows whole lines: it says when they hold part of another symbol
    assert (await call(ws, "read_symbol", name="Outer.Color.m"))["shares_lines_with"] == "Outer.Color"
    assert "shares_lines_with" not in await call(ws, "read_symbol", name="Outer.whole")
    # a symbol on lines of its own is edited as before
    await call(ws, "edit_symbol", name="Outer.whole", new_text="  void whole() { return; }\n")
    assert "void whole() { return; }\n}\n" in (ws.root / "app" / "Outer.java").read_text()
    # the fields a method sets in its body are the method's lines, not lines shared with them
    # (every Python __init__ assigning self.x was refused)
    assert "shares_lines_with" not in await call(ws, "read_symbol", name="Cache.__init__")
    await call(ws, "edit_symbol", name="Cache.__init__", new_text="    def __init__(self):\n        self.items = []\n")
    assert "        self.items = []\n" in (ws.root / "app" / "service.py").read_text()
    # an insert asks about the line it goes next to: after a constructor whose first line declares
    # a parameter property, nothing of the property is taken (a replace would take it)
    (ws.root / "app" / "p.ts").write_text("class P {\n  constructor(private x: number) {\n    this.y = 1;\n  }\n}\n")
    await ws.indexer.run()
    assert (await refused(ws, "edit_symbol", name="P.constructor", new_text="  constructor() {}\n")).code == (
        "bad_argument"
    )
    await call(ws, "edit_symbol", name="P.constructor", position="after", new_text="  m() {}\n")
    assert (ws.root / "app" / "p.ts").read_text().endswith("    this.y = 1;\n  }\n  m() {}\n}\n")


async def test_edit_symbol_and_compare_symbols_say_when_only_the_line_is_wrong(ws) -> None:
    moved = await refused(ws, "edit_symbol", name="make_cache", line=3, new_text="x = 1\n")
    assert "at line 3" in moved.message and "nothing was changed" in moved.message
    assert list(moved.details["elsewhere"]) == ["app/service.py"]
    left = await refused(ws, "compare_symbols", left={"name": "make_cache", "line": 3}, right={"name": "make_cache"})
    assert left.message.startswith("left: no symbol named 'make_cache' at line 3")


async def test_find_symbols_with_a_path_that_holds_nothing_says_so(ws) -> None:
    nowhere = await call(ws, "find_symbols", name="get", path="app/nope")
    assert nowhere["results"] == {} and nowhere["note"] == "path 'app/nope' does not exist: nothing could match"
    (ws.root / "docs").mkdir()
    (ws.root / "docs" / "notes.txt").write_text("get\n")
    empty = await call(ws, "find_symbols", name="get", path="docs")
    assert empty["note"] == "path 'docs' holds no indexed file: nothing could match"
    there = await call(ws, "find_symbols", name="nothing_like_it", path="app")
    assert there["results"] == {} and "note" not in there  # the path is fine: the name matches nothing
    assert (await call(ws, "find_symbols", name="get", path="app"))["results"]


async def test_names_as_stack_traces_and_go_docs_print_them_are_found(ws) -> None:
    (ws.root / "app" / "Outer.java").write_text("class Outer {\n  static class Inner {\n    void run() {}\n  }\n}\n")
    (ws.root / "pkg").mkdir()
    (ws.root / "pkg" / "alloc.go").write_text(
        'package pkg\n\ntype Alloc struct{}\n\nfunc (a *Alloc) String() string { return "" }\n'
    )
    await ws.indexer.run()
    inner = await call(ws, "get_symbol", name="Outer$Inner.run")  # Java's binary name, from a stack trace
    assert inner["qualified_name"] == "Outer.Inner.run"
    method = await call(ws, "read_symbol", name="(*Alloc).String")  # Go's method expression
    assert method["qualified_name"] == "pkg.Alloc.String" and "func (a *Alloc) String()" in method["source"]
    for written in ("Outer$Inner", "(*Alloc).String"):  # find_symbols reads them as get_symbol does
        found = await call(ws, "find_symbols", name=written)
        first = next(iter(found["results"].items()), ("", [{}]))
        assert (first[0], first[1][0].get("name")) == {
            "Outer$Inner": ("app/Outer.java", "Outer.Inner"),
            "(*Alloc).String": ("pkg/alloc.go", "Alloc.String"),
        }[written], found


async def test_a_bare_name_and_a_php_namespace_name_are_found_in_every_language(ws) -> None:
    # A C function's qualified name is its bare name: it hid every other `make_cache` (get_symbol
    # picked it, and with a path the Python one was "not there")
    (ws.root / "native.c").write_text("int make_cache(void) { return 1; }\n")
    (ws.root / "app" / "Foo.php").write_text(
        "<?php\nnamespace App;\nclass Foo {\n  public function bar() { return 1; }\n}\n"
    )
    await ws.indexer.run()
    both = await call(ws, "get_symbol", name="make_cache")
    assert both["ambiguous"] is True and set(both["candidates"]) == {"native.c", "app/service.py"}
    python = await call(ws, "read_symbol", name="make_cache", path="app/service.py")
    assert python["qualified_name"] == "app.service.make_cache"
    # PHP names its parts with \: any suffix of them is the symbol, as in every other language
    for written in ("bar", "Foo\\bar", "Foo::bar", "Foo.bar"):
        assert (await call(ws, "read_symbol", name=written))["qualified_name"] == "App\\Foo\\bar", written
    assert (await call(ws, "get_symbol", name="Foo"))["qualified_name"] == "App\\Foo"


async def test_edit_symbol_does_not_trust_a_grammar_pack_s_extents_in_a_file_that_did_not_parse(ws) -> None:
    # zlib's K&R definitions: the C pack's `inflateEnd` ended at its header, and a replace left the
    # old body behind, reported as a clean edit
    kr = "int good(int a) {\n  return a;\n}\n\nint ZEXPORT ended(strm)\nz_streamp strm;\n{\n    return 0;\n}\n"
    (ws.root / "kr.c").write_text(kr)
    (ws.root / "clean.c").write_text("int fine(int a) {\n  return a;\n}\n")
    await ws.indexer.run()
    for position in ("replace", "after"):
        refusal = await refused(ws, "edit_symbol", name="ended", position=position, new_text="int x;\n")
        assert refusal.code == "bad_argument" and "did not parse cleanly" in refusal.message
    assert (ws.root / "kr.c").read_text() == kr
    shown = await call(ws, "read_symbol", name="ended")  # its extent may stop short: said, with where to read on
    assert shown["extent_uncertain"] is True and "read on" in shown["hint"]
    assert "extent_uncertain" not in await call(ws, "read_symbol", name="fine")
    await call(ws, "edit_symbol", name="ended", position="before", new_text="int before_it;\n")
    await call(ws, "edit_symbol", name="fine", new_text="int fine(int a) { return 2; }\n")
    assert (ws.root / "clean.c").read_text() == "int fine(int a) { return 2; }\n"


async def test_code_inserted_before_a_symbol_goes_above_its_comments_in_every_language(ws) -> None:
    # The grammar packs' languages kept their doc comments (and C++ its template line) above the
    # inserted code: it took the documentation, and a template header now applied to `int pre;`
    files = {
        "a.cpp": ("h", "/// Doc for h\ntemplate <typename T>\nT h(T x) {\n  return x;\n}\n"),
        "a.c": ("g", "int f(void) {\n  return 1;\n}\n\n/* Doc for g */\nint g(void) {\n  return 2;\n}\n"),
        "a.rb": ("foo", "# Doc for foo\n# more doc\ndef foo\n  1\nend\n"),
        "a.php": ("m", "<?php\nclass K {\n  /** method doc */\n  #[Pure]\n  public function m() { return 1; }\n}\n"),
        "a.cs": ("Run", "class C {\n  /// <summary>Doc</summary>\n  [Obsolete]\n  void Run() {}\n}\n"),
    }
    for rel, (_, text) in files.items():
        (ws.root / rel).write_text(text)
    await ws.indexer.run()
    cpp = await call(ws, "read_symbol", name="h", path="a.cpp")
    assert cpp["source"].startswith("template <typename T>\nT h(T x)"), "its template line is its own"
    for rel, (name, text) in files.items():
        await call(ws, "edit_symbol", name=name, path=rel, position="before", new_text="PRE\n")
        now = (ws.root / rel).read_text().splitlines()
        after = now[now.index("PRE") + 1]
        assert after.strip().startswith(("///", "/*", "/**", "#")), (rel, now)


async def test_an_outline_shows_the_name_a_namespace_import_or_re_export_chooses(ws) -> None:
    (ws.root / "app" / "iso.ts").write_text("export const a = 1;\n")
    (ws.root / "app" / "external.ts").write_text(
        'export { a } from "./iso.js";\nexport * as iso from "./iso.js";\nimport * as util from "./util";\n'
    )
    await ws.indexer.run()
    outline = await call(ws, "file_outline", path="app/external.ts", detail="names")
    # `iso` was left out as if the module's path implied it (a rule of Go's import paths)
    assert outline["imports"] == {"./iso.js": ["a", "as iso"], "./util": ["as util"]}


async def test_an_include_glob_does_not_bring_back_what_gitignore_leaves_out(ws) -> None:
    # ripgrep's --glob overrides ignore rules: "**/*.log" listed and searched the ignored debug.log
    root = Path(ws.root)
    (root / ".gitignore").write_text("*.log\n")
    (root / "debug.log").write_text("make_cache failed\n")
    (root / "app" / "keep.txt").write_text("make_cache\n")
    listed = await call(ws, "list_files", include=["**/*.log", "**/*.txt"])
    assert listed["files"] == ["app/keep.txt"] and listed["total"] == 1
    found = await call(ws, "search_text", pattern="make_cache", include=["*.log", "*.txt"])
    assert [f["path"] for f in found["files"]] == ["app/keep.txt"] and found["complete"] is True
    none = await call(ws, "search_text", pattern="failed", include=["*.log"])
    assert none["matches"] == 0 and none["files_searched"] == 0
    named = await call(ws, "search_text", pattern="make_cache", path="debug.log", include=["*.log"])
    assert [f["path"] for f in named["files"]] == ["debug.log"], "a file named as the scope is searched"
