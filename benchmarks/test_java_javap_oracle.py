"""Java call resolution against the compiler's own call targets (`javap -c -p -l -v` on Debian's
junit4 jar, built from the same source as the java-junit4 corpus), with figures by resolution
label, the name-only guesses, and what the bytecode has that the source does not.

The comparison itself (what is compared, the matching rule, what is set aside and why) lives in
tests/test_java_javap_oracle.py, which checks the targets (precision ≥ 90 %, recall ≥ 60 %) in the
default test run; this file prints the same figures for the benchmark report. JUnit 4 is the only
corpus with its jar at hand, so both tiers measure it.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from measure import report

_spec = importlib.util.spec_from_file_location(
    "java_javap_oracle", Path(__file__).resolve().parent.parent / "tests" / "test_java_javap_oracle.py"
)
oracle = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = oracle  # its dataclasses look their module up while being built
_spec.loader.exec_module(oracle)


def test_java_calls_against_javap_on_junit4(tmp_path: Path) -> None:
    figures = oracle.measure(tmp_path)
    report(
        "java javap oracle, JUnit 4.13.2 src/main/java",
        {
            **{k: v for k, v in figures.items() if not k.endswith("_examples")},
            "targets": {"precision": oracle.PRECISION_TARGET, "recall": oracle.RECALL_TARGET},
        },
    )
    report("java javap oracle: examples", {k: v for k, v in figures.items() if k.endswith("_examples")})
    assert figures["oracle_call_sites_in_jar"] > 1500
    assert figures["precision"] >= oracle.PRECISION_TARGET
    assert figures["recall"] >= oracle.RECALL_TARGET
