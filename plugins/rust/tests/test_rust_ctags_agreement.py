"""Do we find the definitions universal-ctags finds in tokio? (recall, matched by path, line, name)

ctags is what a user would otherwise run, so each definition it reports that we miss is a
question an agent cannot answer. Known, by-design differences:

* ctags 5.9 tags a few ``let`` bindings whose type mentions ``'static str`` as global variables
  (``let err: &'static str = ...``); they are locals, not items.
* We find more than ctags: items inside item-level macro bodies (tokio's ``cfg_rt! { ... }``),
  which ctags skips, and constants. Extra definitions do not count against recall.
"""

from __future__ import annotations

import collections
import subprocess

# ctags kind -> what we call it (for the per-kind report; matching is by path, line, name).
KINDS = {
    "function": "function (also trait-impl methods)",
    "method": "method",
    "struct": "struct / union",
    "enum": "enum",
    "enumerator": "variant",
    "field": "field",
    "interface": "trait",
    "typedef": "type",
    "variable": "static (variable)",
    "macro": "macro",
    "module": "module",
}
# Not compared: "implementation" (an impl block, which is not a symbol for us: its methods are).


def ctags_definitions(root):
    out = subprocess.run(
        ["ctags", "-R", "--languages=Rust", "-f", "-", "-x", "--_xformat=%F\t%n\t%K\t%N", "."],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout
    for line in out.splitlines():
        path, number, kind, name = line.split("\t")
        if kind in KINDS:
            yield path.removeprefix("./"), int(number), kind, name


def test_we_find_what_ctags_finds_in_tokio(tokio, tokio_facts):
    ours = {(path, s.start_line, s.name) for path, facts in tokio_facts.items() for s in facts.symbols}
    total, found = collections.Counter(), collections.Counter()
    missed = collections.defaultdict(list)
    for path, line, kind, name in ctags_definitions(tokio):
        total[kind] += 1
        if (path, line, name) in ours:
            found[kind] += 1
        else:
            missed[kind].append(f"{path}:{line} {name}")
    for kind in sorted(total):
        print(
            f"{kind:10} {KINDS[kind]:36} {found[kind]:5}/{total[kind]:<5} {found[kind] / total[kind]:.3f}",
            missed[kind][:3],
        )
    recall = sum(found.values()) / sum(total.values())
    print(f"recall {recall:.4f} over {sum(total.values())} ctags definitions; we report {len(ours)} symbols")
    assert sum(total.values()) > 5_000
    assert recall >= 0.97
