"""`trace` and `impact` checked against the compilers' call graphs: transitive callers, not just
single edges.

For a sample of functions and methods that the oracle says are called, the callers `trace` reports
(to depth 3) and the callers `impact` reports for the same symbol (calls only) are compared with the
callers the oracle's own graph reaches in as many steps:

* Go: `callgraph -algo=static` over golang.org/x/tools/go/ssa (tests/test_go_callgraph_oracle.py
  says how it is run and what it cannot judge); calls inside closures count for the function around
  them, as codecairn attributes them.
* Java: `javap` over JUnit 4.13.2's jar (tests/test_java_javap_oracle.py): a call site's caller is the
  method javac compiled it into; a site names the declarations its target may be (the declared one
  and those it overrides), and `trace` is right to list the site's method as a caller of any of them.

precision = reported callers the oracle also reaches / reported callers (resolved hops only;
name-only guesses are counted apart); recall = oracle-reached callers reported / oracle-reached
callers. Only hops the oracle can judge are compared: callers at file level, in anonymous classes,
or unknown to the oracle are set aside and counted.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
import test_go_callgraph_oracle as go_oracle
import test_java_javap_oracle as java_oracle
from codecairn.workspace import Workspace
from realcode import answers

DEPTH = 3
SAMPLE = 40
PRECISION_TARGET = 0.85
RECALL_TARGET = 0.55


def reach(callers_of: dict[str, set[str]], start: str, depth: int) -> dict[str, int]:
    """Callers the oracle graph reaches from ``start`` in up to ``depth`` steps, with their distance."""
    seen = {start: 0}
    frontier = [start]
    for level in range(1, depth + 1):
        nxt = []
        for node in frontier:
            for caller in callers_of.get(node, ()):
                if caller not in seen:
                    seen[caller] = level
                    nxt.append(caller)
        frontier = nxt
    seen.pop(start)
    return seen


def sample(targets: list[str], n: int) -> list[str]:
    """Every k-th target in name order: spread over the corpus, the same on every run."""
    targets = sorted(targets)
    step = max(1, len(targets) // n)
    return targets[::step][:n]


async def codecairn_callers(root: Path, cache: Path, targets: list[str]) -> dict[str, Any]:
    """For each target (a qualified name): trace's callers and impact's (calls only)."""
    os.environ["CODECAIRN_CACHE_DIR"] = str(cache)
    ws = await Workspace.open(root)
    out: dict[str, Any] = {}
    try:
        await ws.index_now()  # the export already indexed it: nothing to parse
        a = answers(ws)
        for qn in targets:
            hops: dict[str, int] = {}
            guessed: set[str] = set()
            complete = True
            # Overloads share a qualified name (as in the oracle's names): trace each.
            for sym in [s for s in a.ctx.lookup(qn) if s.qualified_name == qn]:
                traced = await a.call("trace", name=qn, path=a.ctx.path_of(sym), line=sym.start_line, depth=DEPTH,
                                      fan_out=200, limit=2000)  # fmt: skip
                complete = complete and traced.get("complete", False)
                for h in traced.get("callers", ()):
                    if h.get("kind") or h.get("cycle") or h.get("seen"):
                        continue
                    if h.get("resolution") == "name-only":
                        guessed.add(h["caller"])
                    elif h["depth"] < hops.get(h["caller"], DEPTH + 1):
                        hops[h["caller"]] = h["depth"]
            impact = await a.call("impact", symbols=[qn], depth=DEPTH, limit=2000)
            impacted = {
                s["qualified_name"]: s["distance"]
                for g in impact["impacted"]
                for s in g["symbols"]
                if "kind" not in s and s.get("resolution") != "name-only"
            }
            out[qn] = {"trace": hops, "guessed": guessed, "impact": impacted, "complete": complete}
    finally:
        await ws.close()
    return out


def score(oracle: dict[str, dict[str, int]], found: dict[str, Any], judged: set[str], key: str) -> dict[str, Any]:
    right = reported = expected = hit = aside = 0
    wrong_examples, missed_examples = [], []
    for target, truth in oracle.items():
        mine = found.get(target, {}).get(key, {})
        for caller, depth in mine.items():
            if caller not in judged:
                aside += 1
                continue
            reported += 1
            if caller in truth:
                right += 1
            elif len(wrong_examples) < 10:
                wrong_examples.append(f"{target} <- {caller} (depth {depth})")
        for caller in truth:
            expected += 1
            if caller in mine:
                hit += 1
            elif len(missed_examples) < 10:
                missed_examples.append(f"{target} <- {caller} (depth {truth[caller]})")
    return {
        "reported": reported,
        "expected": expected,
        "precision": right / reported if reported else 0.0,
        "recall": hit / expected if expected else 0.0,
        "set_aside": aside,
        "wrong_examples": wrong_examples,
        "missed_examples": missed_examples,
    }


# ---- Go -------------------------------------------------------------------------------------------


def go_measure(work: Path) -> dict[str, Any]:
    go_oracle.go_tools()
    root = go_oracle.xtools_corpus()
    env = go_oracle.go_env(work, root)
    packages = [f"{go_oracle.XTOOLS}/go/ssa"]
    out = work / "callgraph.tsv"
    proc = go_oracle.start_callgraph(packages, env, out)
    try:
        records = go_oracle.codecairn_export(root, work / "cache")
    finally:
        _, err = proc.communicate(timeout=900)
    assert proc.returncode == 0, err[-2000:]
    files = go_oracle.compiled_files(packages, env)
    src = Path(env["GOPATH"]) / "src"
    bases = (str(src) + "/", str(src.resolve()) + "/")
    symbols = {r["qualified_name"]: r for r in records if r["type"] == "symbol"}
    callers_of: dict[str, set[str]] = defaultdict(set)
    functions: set[str] = set()
    for line in out.read_text().splitlines():
        caller, callee, filename, _ = line.split("\t")
        path = next((filename[len(b) :] for b in bases if filename.startswith(b)), None)
        if path is None or path not in files:
            continue
        caller_qn = go_oracle.codecairn_name(caller).split("$")[0]  # a closure's calls are its function's
        callee_qn = go_oracle.codecairn_name(callee)
        functions.add(caller_qn)
        if "$" in callee_qn or go_oracle._PACKAGE_INIT.match(callee_qn) or callee_qn not in symbols:
            continue
        if caller_qn != callee_qn:
            callers_of[callee_qn].add(caller_qn)
    candidates = [t for t in callers_of if symbols[t]["kind"] in ("function", "method") and symbols[t]["path"] in files]
    targets = sample(candidates, SAMPLE)
    truth = {t: reach(callers_of, t, DEPTH) for t in targets}
    found = asyncio.run(codecairn_callers(root, work / "cache", targets))
    return {
        "targets": len(targets),
        "trace": score(truth, found, functions, "trace"),
        "impact": score(truth, found, functions, "impact"),
        "name_only_callers": sum(len(f["guessed"]) for f in found.values()),
        "incomplete_traces": sum(1 for f in found.values() if not f["complete"]),
    }


@pytest.mark.slow
def test_trace_and_impact_reach_the_callers_go_callgraph_reaches(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("CODECAIRN_CACHE_DIR", str(tmp_path / "cache"))
    figures = go_measure(tmp_path)
    print("\n[trace/impact vs go callgraph, x/tools go/ssa, depth 3] " + json.dumps(figures, indent=1))
    assert figures["targets"] >= 30
    for tool in ("trace", "impact"):
        assert figures[tool]["expected"] > 100
        assert figures[tool]["precision"] >= PRECISION_TARGET, figures[tool]["wrong_examples"]
        assert figures[tool]["recall"] >= RECALL_TARGET, figures[tool]["missed_examples"]


# ---- Java -----------------------------------------------------------------------------------------


def java_measure(work: Path) -> dict[str, Any]:
    deb = java_oracle.javap_tools()
    jar = java_oracle.unpack_jar(deb, work)
    out = work / "javap.txt"
    proc = java_oracle.start_javap(jar, out)
    try:
        records = java_oracle.codecairn_export(java_oracle.CORPUS, work / "cache")
    finally:
        _, err = proc.communicate(timeout=900)
    assert proc.returncode == 0, err[-2000:]
    classes = java_oracle.parse_javap(out.read_text())
    sites, _, _ = java_oracle.ground_truth(classes, java_oracle.CORPUS, records)
    symbols = {r["qualified_name"]: r for r in records if r["type"] == "symbol"}
    callers_of: dict[str, set[str]] = defaultdict(set)
    judged: set[str] = set()
    for s in sites:
        cls, _, method = s.caller.rpartition(".")
        if any(part.isdigit() for part in cls.split("$")[1:]):
            continue  # anonymous classes: named differently by design
        qn = java_oracle.codecairn_class(cls)
        if method == "<clinit>":
            caller = qn
        elif method == "<init>":
            caller = f"{qn}.{qn.rsplit('.', 1)[-1]}"
        else:
            caller = f"{qn}.{method}"
        judged.add(caller)
        for target in s.accepts:
            if target != caller:
                callers_of[target].add(caller)
    candidates = [t for t in callers_of if symbols.get(t, {}).get("kind") == "method"]
    targets = sample(candidates, SAMPLE)
    truth = {t: reach(callers_of, t, DEPTH) for t in targets}
    found = asyncio.run(codecairn_callers(java_oracle.CORPUS, work / "cache", targets))
    return {
        "targets": len(targets),
        "trace": score(truth, found, judged, "trace"),
        "impact": score(truth, found, judged, "impact"),
        "name_only_callers": sum(len(f["guessed"]) for f in found.values()),
        "incomplete_traces": sum(1 for f in found.values() if not f["complete"]),
    }


@pytest.mark.slow
def test_trace_and_impact_reach_the_callers_javap_reaches(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("CODECAIRN_CACHE_DIR", str(tmp_path / "cache"))
    figures = java_measure(tmp_path)
    print("\n[trace/impact vs javap, JUnit 4.13.2, depth 3] " + json.dumps(figures, indent=1))
    assert figures["targets"] >= 30
    for tool in ("trace", "impact"):
        assert figures[tool]["expected"] > 100
        assert figures[tool]["precision"] >= PRECISION_TARGET, figures[tool]["wrong_examples"]
        assert figures[tool]["recall"] >= RECALL_TARGET, figures[tool]["missed_examples"]
