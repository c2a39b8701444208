"""Quick-open ranking: which files an editor's "go to file" would list first for a few letters.

Each word of the query must appear in the path in order, letters possibly apart (``usrctl`` finds
``UserController.java``). Matches in the file name beat matches spread over directories; letters
that start a word (after ``/ _ - .``, a camelCase hump, the start of the name) and letters that
follow each other score more; gaps cost a little; an exact name or name prefix wins outright;
shorter paths break ties. A word holding a ``/`` is matched against the whole path.

A regular expression built from the query's letters drops non-matching paths first (in C), so only
candidates are scored in Python.
"""

from __future__ import annotations

import re
from collections.abc import Callable

MATCH = 16
CONSECUTIVE = 24
WORD_START = 32
NAME_START = 48
IN_NAME = 1000
NAME_PREFIX = 500
EXACT_NAME = 2000
SEPARATORS = frozenset("/_-. ")


def _starts_word(text: str, position: int) -> bool:
    if position == 0:
        return True
    previous, ch = text[position - 1], text[position]
    return previous in SEPARATORS or (ch.isupper() and previous.islower()) or (ch.isdigit() and previous.isalpha())


def _score_in(term: str, text: str, lower: str) -> int | None:
    """The score of ``term`` (lower case) as a subsequence of ``text`` (``lower`` is it lower-cased);
    None if absent. Greedy forward, then tightened backwards from the end (fzf's first algorithm)."""
    position = -1
    for ch in term:
        position = lower.find(ch, position + 1)
        if position < 0:
            return None
    positions = [position]
    for ch in reversed(term[:-1]):
        positions.append(lower.rfind(ch, 0, positions[-1]))
    positions.reverse()
    score = len(positions) * MATCH
    previous = -2
    for p in positions:
        if _starts_word(text, p):
            score += WORD_START
        if p == previous + 1:
            score += CONSECUTIVE
        elif previous >= 0:
            score -= min(p - previous - 1, 8)
        previous = p
    if positions[0] == 0:
        score += NAME_START
    return score


def _score(terms: list[str], path: str, lower: str) -> int | None:
    cut = path.rfind("/") + 1
    name, lower_name = path[cut:], lower[cut:]
    stem = lower_name.split(".", 1)[0]
    total = 0
    for term in terms:
        if "/" in term:
            found = _score_in(term, path, lower)
            if found is None:
                return None
            total += found
            continue
        in_name = _score_in(term, name, lower_name)
        if in_name is not None:
            total += in_name + IN_NAME
            if stem == term or lower_name == term:
                total += EXACT_NAME
            elif lower_name.startswith(term):
                total += NAME_PREFIX
            continue
        found = _score_in(term, path, lower)
        if found is None:
            return None
        total += found
    return total


def rank(query: str, paths: list[str], limit: int, stop: Callable[[], bool] | None = None) -> tuple[list[str], int]:
    """The ``limit`` best paths for ``query`` and how many matched in all."""
    terms = [t for t in query.lower().split() if t]
    if not terms:
        return [], 0
    patterns = [_subsequence(t) for t in terms]
    scored: list[tuple[int, int, str]] = []
    for index, path in enumerate(paths):
        if stop is not None and index % 4096 == 0 and stop():
            break
        lower = path.lower()
        if not all(p.match(lower) for p in patterns):
            continue
        score = _score(terms, path, lower)
        if score is not None:
            scored.append((-score, len(path), path))
    scored.sort()
    return [p for _, _, p in scored[:limit]], len(scored)


def _subsequence(term: str) -> re.Pattern[str]:
    """Matches a lower-cased text holding ``term``'s letters in order: ``[^a]*a[^b]*b...`` never
    backtracks, so a path that does not match costs one pass."""
    return re.compile("".join(f"[^{re.escape(c)}]*{re.escape(c)}" for c in term), re.DOTALL)
