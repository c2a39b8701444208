"""Answers an agent can afford: the tokens each answer of benchmarks/agent_questions.py costs,
through the real server, against the same questions' answers before answers were made compact
(issue 20: "median answer tokens per kind down >= 40 % with no fact lost").

The "before" figures are the answers of commit fb0c33f (main before issue 20), measured with this
same module and kept in answer_tokens_baseline.json (token counts do not depend on the machine, so
a recorded baseline is as good as one measured in the same run). Re-measure it with

    BASELINE_COMMIT=fb0c33f PYTHONPATH=<that commit's tree>/core/src python benchmarks/test_answer_tokens.py --baseline

Small tier: the questions over rich; large tier: rich and CPython's Lib.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
from pathlib import Path
from typing import Any

import tokens
from agent_questions import CPYTHON, QUESTIONS, RICH, Question, has_fact
from measure import TIER, RawMcpClient, corpus, report

BASELINE = Path(__file__).with_name("answer_tokens_baseline.json")
WANTED_CUT = 0.40  # median tokens per kind, at least this much smaller


def corpora_for_tier() -> list[str]:
    return [RICH, CPYTHON] if TIER == "large" else [RICH]


def ask(questions: list[Question], cache: Path) -> dict[str, dict[str, Any]]:
    """Each question's answer text as the server sends it, its tokens and the facts it lacks."""
    out: dict[str, dict[str, Any]] = {}
    for name in sorted({q.corpus for q in questions}):
        root = corpus(name, name)
        client = RawMcpClient(root, cache, "--no-watch", "--no-embed", "--no-index")
        try:
            client.request("tools/call", {"name": "index", "arguments": {}})
            for question in (q for q in questions if q.corpus == name):
                result = client.request("tools/call", {"name": question.tool, "arguments": question.args})
                text = result["content"][0]["text"]
                out[question.id] = {
                    "kind": question.kind,
                    "tokens": tokens.count(text),
                    "error": bool(result.get("isError")),
                    "missing": [fact for fact in question.facts if not has_fact(text, fact)],
                }
        finally:
            client.close()
    return out


def medians(answers: dict[str, dict[str, Any]], ids: set[str]) -> dict[str, float]:
    kinds: dict[str, list[int]] = {}
    for qid in sorted(ids):
        kinds.setdefault(answers[qid]["kind"], []).append(answers[qid]["tokens"])
    return {kind: statistics.median(values) for kind, values in sorted(kinds.items())}


def test_answers_cost_forty_percent_fewer_tokens_per_kind_with_no_fact_lost(bench_cache: Path) -> None:
    baseline = json.loads(BASELINE.read_text())["answers"]
    questions = [q for q in QUESTIONS if q.corpus in corpora_for_tier()]
    now = ask(questions, bench_cache)

    errors = [qid for qid, a in now.items() if a["error"]]
    assert not errors, f"these questions got errors instead of answers: {errors}"
    lost = {qid: a["missing"] for qid, a in now.items() if a["missing"]}
    assert not lost, f"facts lost from answers: {lost}"

    ids = set(now)
    before, after = medians(baseline, ids), medians(now, ids)
    cut = {kind: round(1 - after[kind] / before[kind], 3) for kind in before}
    report(
        "answer tokens per kind (median, cl100k_base)",
        {
            "tier": TIER,
            "questions": len(ids),
            "before": before,
            "after": after,
            "cut": cut,
            "total_before": sum(baseline[i]["tokens"] for i in ids),
            "total_after": sum(now[i]["tokens"] for i in ids),
        },
    )
    short = {kind: c for kind, c in cut.items() if c < WANTED_CUT}
    assert not short, f"kinds whose median answer shrank by less than {WANTED_CUT:.0%}: {short}"


def _record_baseline(cache: Path) -> None:
    """Measure every question (both corpora) with the code on PYTHONPATH and write the baseline."""
    import codecairn

    commit = os.environ.get("BASELINE_COMMIT", "")  # the commit whose code is on PYTHONPATH
    print(f"measuring the code in {Path(codecairn.__file__).parent} ({commit or 'commit not given'})")
    answers = ask(QUESTIONS, cache)
    lost = {qid: a["missing"] for qid, a in answers.items() if a["missing"] or a["error"]}
    if lost:
        raise SystemExit(f"the baseline lacks facts its questions expect (fix the questions): {lost}")
    BASELINE.write_text(json.dumps({"commit": commit, "answers": answers}, indent=1) + "\n")
    print(f"wrote {BASELINE}: {len(answers)} answers")


if __name__ == "__main__":
    import tempfile

    if sys.argv[1:] != ["--baseline"]:
        raise SystemExit(__doc__)
    with tempfile.TemporaryDirectory() as cache:
        _record_baseline(Path(cache))
