"""Go call edges checked against a compiler-grade oracle nobody here wrote.

`callgraph -algo=static` (Debian's golang-golang-x-tools) type-checks a program from source and
lists every *static* call — a call to a function, or to a concrete method — with its file and line.
codecairn resolves calls from syntax alone. On golang.org/x/tools/go/ssa (and the x/tools packages
it imports: astutil, typeutil, internal/typeparams), every resolved call edge whose caller the
oracle knows is compared with the oracle's edges at the same file and line:

* precision = codecairn edges (exact / import / inherited) that the oracle also has, over all of
  them; name-only guesses are counted apart, they are labelled as guesses in every answer;
* recall = oracle edges codecairn resolved (not name-only) to the same callee, over the oracle
  edges whose callee is indexed at all (calls into the standard library are out of reach: it is not
  part of the indexed tree).

What the oracle cannot judge is set aside and counted, never silently dropped: calls through an
interface (codecairn names the interface method; the static oracle has no edge, the call is
dynamic), calls through a function-valued field or variable, and type conversions (`T(x)`), which
codecairn lists as calls of the type like constructor calls elsewhere.

The tools are installed by scripts/test-prerequisites.sh (this test installs nothing itself). The
callgraph runs offline: the corpus is a GOPATH `src` directory, so GOPATH mode (GO111MODULE=off)
finds x/tools there and the standard library in GOROOT.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from codecairn.testing.corpora import corpus_path

XTOOLS = "golang.org/x/tools"
PRECISION_TARGET = 0.90
RECALL_TARGET = 0.60
TYPE_KINDS = {"struct", "interface", "type", "class", "trait", "enum"}
VALUE_KINDS = {"field", "variable", "constant"}


def go_tools() -> None:
    missing = [tool for tool in ("go", "callgraph") if shutil.which(tool) is None]
    if missing:
        pytest.fail(
            f"{' and '.join(missing)} not on PATH: run `apt-get install -y golang-go golang-golang-x-tools` "
            "(scripts/test-prerequisites.sh does it)"
        )


def xtools_corpus() -> Path:
    return corpus_path("go-xtools")


def go_env(work: Path, root: Path) -> dict[str, str]:
    """GOPATH mode over the corpus, offline: $work/gopath/src -> the corpus."""
    gopath = work / "gopath"
    gopath.mkdir(parents=True, exist_ok=True)
    if not (gopath / "src").exists():
        (gopath / "src").symlink_to(root, target_is_directory=True)
    return {
        **os.environ,
        "GOPATH": str(gopath),
        "GO111MODULE": "off",
        "GOFLAGS": "",
        "GOPROXY": "off",
        "GOCACHE": str(work / "gocache"),
        "GOTOOLCHAIN": "local",
        "CGO_ENABLED": "0",
    }


def buildable_xtools_packages(env: dict[str, str]) -> list[str]:
    """Every x/tools package whose dependencies are all on this machine (x/tools or GOROOT)."""
    out = subprocess.run(
        ["go", "list", "-e", "-f", "{{.ImportPath}}|{{if .DepsErrors}}x{{end}}{{if .Error}}x{{end}}", f"{XTOOLS}/..."],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return [
        p for p, _, bad in (line.partition("|") for line in out.splitlines()) if p and not bad and "/testdata" not in p
    ]


def compiled_files(packages: list[str], env: dict[str, str]) -> dict[str, str]:
    """Root-relative path of every x/tools .go file the program is built from -> its package.
    Files excluded by build constraints (`//go:build !go1.18`) are not in it; codecairn indexes
    them all, so their edges are left out of the comparison."""
    src = Path(env["GOPATH"]) / "src"
    bases = (str(src) + "/", str(src.resolve()) + "/")
    out = subprocess.run(
        ["go", "list", "-deps", "-f", '{{.ImportPath}}|{{.Dir}}|{{join .GoFiles " "}}', *packages],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    files: dict[str, str] = {}
    for line in out.splitlines():
        pkg, directory, names = line.split("|")
        if not pkg.startswith(XTOOLS):
            continue
        rel = next(directory[len(b) :] for b in bases if directory.startswith(b))
        for name in names.split():
            files[f"{rel}/{name}"] = pkg
    return files


def start_callgraph(packages: list[str], env: dict[str, str], out: Path) -> subprocess.Popen:
    return subprocess.Popen(
        ["callgraph", "-algo=static", "-format={{.Caller}}\t{{.Callee}}\t{{.Filename}}\t{{.Line}}", *packages],
        env=env,
        stdout=out.open("w"),
        stderr=subprocess.PIPE,
        text=True,
    )


def codecairn_export(root: Path, cache: Path) -> list[dict[str, Any]]:
    """Index (cold, private cache) and export the graph, through the CLI a user would run."""
    done = subprocess.run(
        [sys.executable, "-m", "codecairn.cli", "--cache-dir", str(cache), "export", str(root)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return [json.loads(line) for line in done.stdout.splitlines()]


_INSTANTIATION = re.compile(r"\[[^\[\]]*\]")
_METHOD = re.compile(r"^\(\*?([^()]+)\)\.(.+)$")
_PACKAGE_INIT = re.compile(
    r"^(?:.*/)?[^/.]+\.init(?:#\d+)?$"
)  # `golang.org/x/tools/go/ssa.init`, `init#1`; not `T.init`


def codecairn_name(callgraph_name: str) -> str:
    """`(*golang.org/x/tools/go/ssa.Function).emit` -> `golang.org/x/tools/go/ssa.Function.emit`;
    generic instantiations lose their type arguments; closures keep their `$1` (skipped later)."""
    name = callgraph_name
    while True:
        stripped = _INSTANTIATION.sub("", name)
        if stripped == name:
            break
        name = stripped
    m = _METHOD.match(name)
    return f"{m.group(1)}.{m.group(2)}" if m else name


def compare(
    callgraph_lines: list[str], records: list[dict[str, Any]], files: dict[str, str], gopath_src: Path
) -> dict[str, Any]:
    bases = (str(gopath_src) + "/", str(gopath_src.resolve()) + "/")
    symbols: dict[str, dict[str, Any]] = {}
    for r in records:
        if r["type"] == "symbol":
            symbols.setdefault(r["qualified_name"], r)

    oracle: Counter = Counter()
    functions: set[str] = set()  # every function the oracle built (callers and callees)
    out_of_reach = synthetic = 0
    for line in callgraph_lines:
        caller, callee, filename, line_no = line.split("\t")
        functions.add(codecairn_name(caller).split("$")[0])
        functions.add(codecairn_name(callee).split("$")[0])
        path = next((filename[len(b) :] for b in bases if filename.startswith(b)), None)
        if path is None or path not in files:
            continue
        target = codecairn_name(callee)
        if "$" in target or _PACKAGE_INIT.match(target):
            synthetic += 1  # closures, bound-method wrappers, package initialisers: no symbol of their own
            continue
        if target not in symbols:
            out_of_reach += 1  # the standard library: not indexed
            continue
        oracle[(path, int(line_no), target)] += 1

    resolved: dict[str, Counter] = {"exact": Counter(), "import": Counter(), "inherited": Counter()}
    name_only: Counter = Counter()
    aside = Counter()
    for r in records:
        if r["type"] != "edge" or r["kind"] != "calls" or r["path"] not in files:
            continue
        if r["resolution"] is None:
            aside["unresolved"] += 1
            continue
        if r["resolution"] == "external":  # a built-in or the standard library: outside the index
            aside["external"] += 1
            continue
        caller = r["source"] if r["source"] != r["path"] else files[r["path"]] + ".init"
        if caller not in functions:
            aside["caller unknown to the oracle"] += 1  # e.g. unexported code nothing reaches
            continue
        target = symbols.get(r["target"], {})
        parent = symbols.get(target.get("parent", ""), {})
        if target.get("kind") in TYPE_KINDS:
            aside["type conversion"] += 1
        elif target.get("kind") in VALUE_KINDS:
            aside["through a function value"] += 1
        elif parent.get("kind") == "interface":
            aside["interface method (dynamic call)"] += 1
        else:
            key = (r["path"], r["line"], r["target"])
            (name_only if r["resolution"] == "name-only" else resolved[r["resolution"]])[key] += 1

    mine = resolved["exact"] + resolved["import"] + resolved["inherited"]
    agreed = mine & oracle
    guessed_right = name_only & oracle
    n_mine, n_oracle, n_name_only = sum(mine.values()), sum(oracle.values()), sum(name_only.values())
    figures: dict[str, Any] = {
        "oracle_edges_in_index": n_oracle,
        "oracle_edges_out_of_reach": out_of_reach,
        "oracle_edges_synthetic": synthetic,
        "resolved_edges": n_mine,
        "precision": sum(agreed.values()) / n_mine if n_mine else 0.0,
        "recall": sum(agreed.values()) / n_oracle if n_oracle else 0.0,
        "precision_by_label": {
            label: sum((c & oracle).values()) / sum(c.values()) for label, c in resolved.items() if c
        },
        "name_only_edges": n_name_only,
        "name_only_precision": sum(guessed_right.values()) / n_name_only if n_name_only else 0.0,
        "recall_with_name_only": (sum(agreed.values()) + sum(guessed_right.values())) / n_oracle if n_oracle else 0.0,
        "set_aside": dict(aside),
        "wrong_examples": [f"{p}:{n} {t}" for p, n, t in sorted(mine - oracle)][:12],
        "missed_examples": [f"{p}:{n} {t}" for p, n, t in sorted(oracle - mine - name_only)][:12],
    }
    return figures


def measure(packages: list[str] | None, work: Path) -> dict[str, Any]:
    """Run callgraph on ``packages`` (None: every x/tools package that builds offline) and compare
    codecairn's edges for the x/tools files of that program."""
    go_tools()
    root = xtools_corpus()
    env = go_env(work, root)
    packages = packages or buildable_xtools_packages(env)
    cg_out = work / "callgraph.tsv"
    proc = start_callgraph(packages, env, cg_out)  # runs while codecairn indexes
    try:
        records = codecairn_export(root, work / "cache")
    finally:
        _, err = proc.communicate(timeout=900)
    assert proc.returncode == 0, f"callgraph failed: {err[-2000:]}"
    files = compiled_files(packages, env)
    lines = [line for line in cg_out.read_text().splitlines() if line]
    figures = compare(lines, records, files, Path(env["GOPATH"]) / "src")
    figures["packages"] = len(packages)
    figures["files_compared"] = len(files)
    return figures


@pytest.mark.slow
def test_go_call_edges_agree_with_the_static_callgraph(tmp_path: Path) -> None:
    figures = measure([f"{XTOOLS}/go/ssa"], tmp_path)
    print("\n[go callgraph oracle, x/tools go/ssa and its x/tools imports] " + json.dumps(figures, indent=1))
    assert figures["files_compared"] >= 30 and figures["oracle_edges_in_index"] > 1000
    assert figures["precision"] >= PRECISION_TARGET, figures["wrong_examples"]
    assert figures["recall"] >= RECALL_TARGET, figures["missed_examples"]
    # The dynamic calls set aside are few next to the static ones compared.
    assert (
        sum(
            figures["set_aside"].get(k, 0)
            for k in ("type conversion", "through a function value", "interface method (dynamic call)")
        )
        < 0.1 * figures["resolved_edges"]
    )
