"""Do we find the definitions universal-ctags finds in x/tools? (recall, matched by path, line, name)

ctags is the tool a user would otherwise reach for, so every definition it reports that we miss is
a question an agent cannot answer. Known, by-design differences (printed below as misses):

* ``const _ = ...`` / ``var _ = ...``: the blank identifier declares nothing, so it is no symbol.
* ctags 5.9's Go parser predates generics and gets confused by some code in testdata: it tags a
  local ``var x X`` inside a generic function as package-level, the continuation line of a
  multi-line constant expression, and members of interface/struct literals inside type aliases
  (``type P = struct{ N }``) at odd lines. We report what the grammar says.
"""

from __future__ import annotations

import collections
import subprocess

# ctags kind -> what we call it (for the per-kind report; matching itself is by path, line, name).
KINDS = {
    "func": "function/method",
    "const": "constant",
    "var": "variable",
    "type": "type",
    "struct": "struct",
    "interface": "interface",
    "talias": "type (alias)",
    "member": "field",
    "anonMember": "field (embedded)",
    "methodSpec": "method (interface)",
}
# Not compared: "package" (we keep the package as FileFacts.module, not a symbol per file),
# "packageName" (an import binding, which we report as Import.alias), "unknown" and "receiver".


def ctags_definitions(root):
    out = subprocess.run(
        ["ctags", "-R", "--languages=Go", "-f", "-", "-x", "--_xformat=%F\t%n\t%K\t%N", "."],
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


def test_we_find_what_ctags_finds_in_xtools(xtools, xtools_facts):
    ours = {(path, s.start_line, s.name) for path, facts in xtools_facts.items() for s in facts.symbols}
    total, found = collections.Counter(), collections.Counter()
    missed = collections.defaultdict(list)
    for path, line, kind, name in ctags_definitions(xtools):
        total[kind] += 1
        if (path, line, name) in ours:
            found[kind] += 1
        else:
            missed[kind].append(f"{path}:{line} {name}")
    for kind in sorted(total):
        print(
            f"{kind:11} {KINDS[kind]:20} {found[kind]:6}/{total[kind]:<6} {found[kind] / total[kind]:.3f}",
            missed[kind][:3],
        )
    recall = sum(found.values()) / sum(total.values())
    print(f"recall {recall:.4f} over {sum(total.values())} ctags definitions")
    assert sum(total.values()) > 14_000
    assert recall >= 0.97
