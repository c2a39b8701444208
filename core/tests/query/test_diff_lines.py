"""A commit's changed lines, found in a work tree that moved on since: ``onto`` maps a line of a
diff's old side to its new side through the diff's hunks (git's own, parsed)."""

from __future__ import annotations

from codecairn.query.diff import onto, parse

# old: ten lines 1..10. new: two inserted at the top, line 5 replaced by three, line 8 removed.
DIFF = b"""diff --git a/m.py b/m.py
--- a/m.py
+++ b/m.py
@@ -0,0 +1,2 @@
+# one
+# two
@@ -5 +7,3 @@
-five
+five a
+five b
+five c
@@ -8 +11,0 @@
-eight
"""


def test_hunks_are_kept_and_lines_map_through_them() -> None:
    (change,) = parse(DIFF)
    assert change.hunks == [(0, 0, 1, 2), (5, 1, 7, 3), (8, 1, 11, 0)]
    new_of = {line: onto(line, change.hunks) for line in range(1, 11)}
    assert new_of == {1: 3, 2: 4, 3: 5, 4: 6, 5: 7, 6: 10, 7: 11, 8: 11, 9: 12, 10: 13}
    assert onto(5, []) == 5  # no hunks: the same line
