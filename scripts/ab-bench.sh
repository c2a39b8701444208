#!/usr/bin/env bash
# ab-bench.sh REF [ROUNDS] — the Python indexing benchmarks A/B: REF's installs ("before") against
# this checkout's .venv ("after"), in interleaved rounds so the shared machine's noise hits both alike.
#
#   scripts/ab-bench.sh 2d052be 6          # CODECAIRN_BENCH_TIER=large by default (CPython's Lib)
#
# Both sides run THIS checkout's benchmarks/ files (so the measurement is the same code); only the
# installed codecairn differs. Each round runs before then after, the next after then before (ABBA),
# each side with its own CODECAIRN_CACHE_DIR. Prints per benchmark the median over rounds of each
# side's pytest-benchmark median, and after/before.
#
# Both sides must understand the CLI options those files pass (main's benchmarks pass `index
# --no-embed` since the semantic work of issue 18: a REF older than that fails at its first run).
#
# Environment: AB_BEFORE=DIR   an existing checkout of REF with its .venv (skips building one)
#              AB_AFTER=DIR    the after side and its benchmark files: a checkout with a .venv (default: this one)
#              AB_OUT=DIR      where the pytest-benchmark JSON files go (default: a new dir in /tmp)
#              AB_TESTS=...    pytest -k expression (default: the three benchmarks below)
set -euo pipefail
ref=${1:?usage: ab-bench.sh REF [ROUNDS]}
rounds=${2:-4}
after=${AB_AFTER:-$(cd "$(dirname "$0")/.." && pwd)}
export CODECAIRN_BENCH_TIER=${CODECAIRN_BENCH_TIER:-large}
# Bytecode written and reused, as an installed package has it: with PYTHONDONTWRITEBYTECODE set every
# process (the indexer, each parse worker, the edge loader) compiles its modules from source at every
# start, which weighs on the side with more code and is not indexing.
unset PYTHONDONTWRITEBYTECODE
tests=${AB_TESTS:-"test_cold_index_vs_ctags or test_unchanged_reindex or test_query_latency_through_mcp"}
out=${AB_OUT:-$(mktemp -d /tmp/codecairn-ab.XXXXXX)}
mkdir -p "$out"

# The before side: a detached worktree of REF with editable installs, as scripts/dev-install.sh makes.
before=${AB_BEFORE:-}
if [[ -z $before ]]; then
    before=/tmp/codecairn-ab-$(git -C "$after" rev-parse --short "$ref")
    if [[ ! -x $before/.venv/bin/pytest ]]; then
        [[ -d $before ]] || git -C "$after" worktree add -q --detach "$before" "$ref"
        python3 -m venv "$before/.venv"
        (
            cd "$before"
            eds=(-e './core[semantic]')
            for d in plugins/* grammars/*; do [[ -f $d/pyproject.toml ]] && eds+=(-e "./$d"); done
            .venv/bin/pip install -q "${eds[@]}" 'pytest>=8' 'pytest-benchmark>=4'
        )
    fi
    echo "before: $before (remove with: git worktree remove --force $before)"
fi

run_side() { # NAME VENV ROUND (a --basetemp of its own: other pytest runs in /tmp cannot prune it)
    echo "== round $3: $1"
    (cd "$after" && CODECAIRN_CACHE_DIR=$out/cache-$1 "$2/bin/pytest" -q -p no:cacheprovider --basetemp="$out/tmp-$1" \
        benchmarks/test_index_python.py -k "$tests" --benchmark-json="$out/$1-$3.json" >"$out/$1-$3.log" 2>&1) \
        || { tail -30 "$out/$1-$3.log"; exit 1; }
}

for ((r = 1; r <= rounds; r++)); do
    if ((r % 2)); then order=(before after); else order=(after before); fi
    for side in "${order[@]}"; do
        if [[ $side == before ]]; then run_side before "$before/.venv" "$r"; else run_side after "$after/.venv" "$r"; fi
    done
done

"$after/.venv/bin/python" - "$out" <<'EOF'
import json, statistics, sys
from pathlib import Path

out = Path(sys.argv[1])
medians = {}  # (benchmark, side) -> [its median, one per round]
figures = {}  # (figure, side) -> [value, one per round]: the numbers the benchmarks report besides
for f in sorted(out.glob("*-*.json")):
    side = f.stem.split("-")[0]
    for b in json.loads(f.read_text())["benchmarks"]:
        medians.setdefault((b["name"], side), []).append(b["stats"]["median"])
        for key, value in b["extra_info"].items():
            if isinstance(value, (int, float)):
                figures.setdefault((key, side), []).append(value)


def table(title, values):
    print(f"\n{title:44} {'rounds':>6} {'before':>10} {'after':>10} {'after/before':>12}")
    for name in sorted({name for name, _ in values}):
        b, a = values.get((name, "before"), []), values.get((name, "after"), [])
        if a and b and statistics.median(b):
            mb, ma = statistics.median(b), statistics.median(a)
            print(f"{name:44} {min(len(a), len(b)):>6} {mb:>10.4g} {ma:>10.4g} {ma / mb:>12.3f}")


table("benchmark (median of medians, s)", medians)
table("figure (median over rounds)", figures)
print(f"\nJSON and logs: {out}")
EOF
