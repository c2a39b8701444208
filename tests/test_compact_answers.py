"""Answers that say only what an agent cannot guess: an import shown with the name it binds anyway
is noise (Go's `"encoding/json"` is `json`); a class's members include the instance fields its
constructor assigns, as names and lines."""

from __future__ import annotations

from pathlib import Path

import pytest
from codecairn.workspace import Workspace
from realcode import answers

pytestmark = pytest.mark.anyio

GO_IMPORTS = """package g

import (
	"encoding/json"
	js "encoding/json"
	yaml "gopkg.in/yaml.v3"
	y2 "gopkg.in/yaml.v3"
	_ "net/http/pprof"
	. "fmt"
	"github.com/mattn/go-sqlite3"
	pb "example.com/api/v2"
)

func F() { json.Marshal(nil); Println(js.Valid, yaml.Marshal, y2.Marshal, sqlite3.X, pb.Y) }
"""


async def test_go_imports_show_only_real_aliases(tmp_path: Path, cache_dir: Path) -> None:
    (tmp_path / "g.go").write_text(GO_IMPORTS)
    ws = await Workspace.open(tmp_path)
    try:
        await ws.index_now()
        names = (await answers(ws).call("file_outline", path="g.go"))["imports"]
        full = (await answers(ws).call("file_outline", path="g.go", detail="full"))["imports"]
    finally:
        await ws.close()
    assert names == {
        "encoding/json": ["as js"],
        "gopkg.in/yaml.v3": ["as y2"],
        "net/http/pprof": [],
        "fmt": ["*"],
        "github.com/mattn/go-sqlite3": [],
        "example.com/api/v2": ["as pb"],
    }
    by_line = {entry["line"]: entry for entry in full}
    assert by_line[4] == {"module": "encoding/json", "line": 4}  # no "as": "json"
    assert by_line[5]["as"] == "js" and by_line[7]["as"] == "y2" and "as" not in by_line[6]
    assert by_line[8]["kind"] == "side-effect" and by_line[9]["names"] == ["*"]  # `_` and `.` stay
    assert "as" not in by_line[10] and by_line[11]["as"] == "pb"


CLASSES = {
    "widget.js": """class Widget {
  count = 0;
  constructor(el) {
    this.el = el;
    this.items = [];
    this.count = 1;
  }
  render() { this.cache = this.el; return this.cache; }
}
""",
    "point.ts": """export class Point {
  x: number;
  constructor(public z: number) {
    this.x = 1;
  }
}
""",
    "Account.java": """package bank;
public class Account {
  private int balance;
  static final String BANK = "b";
  public Account(int b) { this.balance = b; }
  int balance() { return balance; }
}
""",
    "shapes.py": """class Circle:
    unit = "cm"

    def __init__(self, r):
        self.r = r
        self.unit = "mm"

    def area(self):
        return 3.14 * self.r ** 2
""",
}


async def test_a_class_lists_its_instance_fields_once_with_their_lines(tmp_path: Path, cache_dir: Path) -> None:
    for name, text in CLASSES.items():
        (tmp_path / name).write_text(text)
    ws = await Workspace.open(tmp_path)
    try:
        await ws.index_now()
        asked = answers(ws)
        members = {
            name: (await asked.call("get_symbol", name=name))["members"]
            for name in ("Widget", "Point", "bank.Account", "Circle")
        }
    finally:
        await ws.close()
    # JavaScript declares instance fields only by assigning them in the constructor; a field the class
    # declares is not repeated, and what another method assigns is not a field of the class.
    assert members["Widget"]["property"] == {"count": 2, "el": 4, "items": 5}
    assert members["Point"]["property"] == {"x": 2, "z": 3}
    assert members["bank.Account"]["field"] == {"balance": 3, "BANK": 4}
    assert members["Circle"]["field"] == {"unit": 2, "r": 5}
