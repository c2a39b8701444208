"""Go call resolution against `callgraph -algo=static`, on every golang.org/x/tools package that
builds offline (~125 packages, ~280 compiled files of x/tools), with figures by resolution label.

The comparison itself (what is compared, what is set aside and why) lives in
tests/test_go_callgraph_oracle.py, which checks the targets (precision ≥ 90 %, recall ≥ 60 %) on
go/ssa in the default test run; this file prints the broader figures. Both tiers use the go-xtools
corpus: the oracle needs a program that compiles offline, and x/tools in GOPATH mode does.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from measure import report

_spec = importlib.util.spec_from_file_location(
    "go_callgraph_oracle", Path(__file__).resolve().parent.parent / "tests" / "test_go_callgraph_oracle.py"
)
oracle = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(oracle)


def test_go_calls_against_the_static_callgraph_on_all_of_x_tools(tmp_path: Path) -> None:
    figures = oracle.measure(None, tmp_path)
    report(
        "go callgraph oracle, all x/tools packages that build offline",
        {
            **{k: v for k, v in figures.items() if not k.endswith("_examples")},
            "targets": {"precision": oracle.PRECISION_TARGET, "recall": oracle.RECALL_TARGET},
        },
    )
    report("go callgraph oracle: examples", {k: v for k, v in figures.items() if k.endswith("_examples")})
    assert figures["packages"] > 100 and figures["oracle_edges_in_index"] > 5000
    assert figures["precision"] >= oracle.PRECISION_TARGET
    assert figures["recall"] >= oracle.RECALL_TARGET
