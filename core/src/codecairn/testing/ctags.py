"""Agreement with universal-ctags: of the definitions ctags finds in a corpus, how many did the
extractor find too (recall, by ctags kind)?

ctags is what a user would otherwise reach for, so each definition it reports that the extractor
misses is a question an agent cannot answer. The two disagree on purpose in places; a language's
:class:`CtagsRules` say how a tag and a symbol are matched and which misses are excused, each with
its reason, and the report prints them beside the figures.
"""

from __future__ import annotations

import collections
import json
import os
import shutil
import subprocess
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import pytest

if TYPE_CHECKING:
    from codecairn.model import FileFacts, Symbol

CTAGS_TIMEOUT_SECONDS = 600
INSTALL = "universal-ctags is not installed: run scripts/test-prerequisites.sh (or apt-get install universal-ctags)"


@dataclass(frozen=True)
class Tag:
    """One ctags definition: root-relative path, line of the name, long kind name, name, and every
    field ctags gave (``pattern``, ``scope``...)."""

    path: str
    line: int
    kind: str
    name: str
    fields: Mapping[str, Any]


class CorpusFile:
    """What an excuse may read about the file a tag is in: its symbols and its text."""

    def __init__(self, root: Path, path: str, facts: FileFacts | None) -> None:
        self.root = root
        self.path = path
        self.facts = facts
        self.symbols: Sequence[Symbol] = facts.symbols if facts is not None else ()
        self.memo: dict[str, Any] = {}  # for an excuse's own per-file work (a syntax tree)

    @cached_property
    def source(self) -> bytes:
        return (self.root / self.path).read_bytes()

    @cached_property
    def lines(self) -> list[str]:
        return self.source.decode("utf-8", "replace").splitlines()

    def line_text(self, line: int) -> str:
        """The text of a 1-based line ("" past the end)."""
        return self.lines[line - 1] if 0 < line <= len(self.lines) else ""


Match = Literal["line", "span"] | Callable[[Tag, Sequence["Symbol"]], bool]
# An excuse names the reason a missed tag is missed on purpose, or None when it is a real miss.
Excuse = Callable[[Tag, "CorpusFile"], str | None]


@dataclass(frozen=True)
class CtagsRules:
    """How one language's definitions are compared with universal-ctags'.

    ``ctags_args``  options for ctags besides output and recursion (``--languages=Go``, kinds, maps).
    ``kinds``       the ctags kinds compared -> the extractor's kinds that count as the same one
                    (None: any kind); ``kinds=None`` compares every kind ctags reports.
    ``match``       ``"line"``: a symbol of that name starts on the tag's line; ``"span"``: a symbol
                    of that name spans the tag's line (ctags gives the name's line, a symbol starts
                    at its first annotation or template); or a function ``(tag, symbols of the file)
                    -> bool``.
    ``normalise``   applied to both names before comparing (``operator !=`` vs ``operator!=``).
    ``excuses``     functions ``(tag, file) -> reason or None``: a missed tag one of them gives a
                    reason for is not counted, but reported under that reason — the by-design
                    differences, each explained where the rules are written. A matched tag always
                    counts.
    ``only_extracted_files``  compare only tags in files that were extracted (ctags maps some
                    extensions differently); otherwise a tag in a file not extracted is a miss.
    """

    ctags_args: tuple[str, ...]
    kinds: Mapping[str, frozenset[str] | None] | None = None
    match: Match = "line"
    normalise: Callable[[str], str] | None = None
    excuses: Sequence[Excuse] = ()
    only_extracted_files: bool = False


@dataclass
class Agreement:
    """Per ctags kind: tags found by the extractor too, tags compared, the first misses."""

    found: collections.Counter = field(default_factory=collections.Counter)
    total: collections.Counter = field(default_factory=collections.Counter)
    missed: dict[str, list[Tag]] = field(default_factory=lambda: collections.defaultdict(list))
    excused: collections.Counter = field(default_factory=collections.Counter)  # reason -> tags
    files: int = 0  # files extracted
    ctags_tags: int = 0  # ctags definitions in the compared files, of the compared kinds
    symbols: int = 0  # the extractor's symbols in the extracted files
    symbols_not_in_ctags: int = 0  # ... at a (path, line, name) ctags has no definition at

    @property
    def recall(self) -> float:
        """Of every tag compared, the share found (1.0 when none was compared)."""
        total = sum(self.total.values())
        return sum(self.found.values()) / total if total else 1.0

    def recall_of(self, kind: str) -> float:
        return self.found[kind] / self.total[kind] if self.total[kind] else 1.0

    @property
    def misses(self) -> list[Tag]:
        return [tag for kind in sorted(self.missed) for tag in self.missed[kind]]

    def report(self, title: str) -> str:
        found, total = sum(self.found.values()), sum(self.total.values())
        rows = [f"{title}: {found}/{total} ctags definitions found, recall {self.recall:.4f} ({self.files} files)"]
        for kind in sorted(self.total):
            first = [f"{t.path}:{t.line} {t.name}" for t in self.missed[kind][:3]]
            rows.append(
                f"  {kind:16} {self.found[kind]:7}/{self.total[kind]:<7} {self.recall_of(kind):.4f}"
                + (f"  missed: {first}" if first else "")
            )
        rows += [f"  not compared ({why}): {n}" for why, n in self.excused.most_common()]
        rows.append(
            f"  ctags definitions {self.ctags_tags}, codecairn symbols {self.symbols}"
            f" ({self.symbols_not_in_ctags} at a (path, line, name) ctags has not)"
        )
        return "\n".join(rows)


def ctags_definitions(root: Path, args: Sequence[str]) -> list[Tag]:
    """Every tag universal-ctags reports under ``root``, run with ``args``."""
    ctags = shutil.which("ctags")
    if ctags is None:
        pytest.fail(INSTALL)
    out = subprocess.run(
        # Sorted, as ctags does by default, a tag reported twice over (the same line) counts once.
        [ctags, "--output-format=json", "--fields=+nK", *args, "-R", "-f", "-", "."],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
        timeout=CTAGS_TIMEOUT_SECONDS,
    ).stdout
    tags = []
    for line in out.splitlines():
        tag = json.loads(line)
        if tag.get("_type") == "tag":
            path = os.path.normpath(tag["path"]).replace(os.sep, "/")
            tags.append(Tag(path, tag["line"], tag["kind"], tag["name"], tag))
    return tags


def _same(name: str) -> str:
    return name


def compare(root: Path, facts: Mapping[str, FileFacts], rules: CtagsRules) -> Agreement:
    """Run ctags on ``root`` and count, kind by kind, its definitions the extractor found in
    ``facts`` (root-relative path -> FileFacts)."""
    norm = rules.normalise or _same
    kinds = rules.kinds
    # What the extractor found, indexed for the two built-in ways of matching.
    at_line: dict[tuple[str, int, str], set[str]] = collections.defaultdict(set)  # -> kinds
    by_name: dict[tuple[str, str], list[tuple[str, int, int]]] = collections.defaultdict(list)
    for path, file_facts in facts.items():
        for s in file_facts.symbols:
            name = norm(s.name)
            at_line[path, s.start_line, name].add(s.kind)
            by_name[path, name].append((s.kind, s.start_line, s.end_line))

    def matched(tag: Tag) -> bool:
        if callable(rules.match):
            file_facts = facts.get(tag.path)
            return rules.match(tag, file_facts.symbols if file_facts is not None else ())
        wanted = kinds.get(tag.kind) if kinds is not None else None
        name = norm(tag.name)
        if rules.match == "line":
            found = at_line.get((tag.path, tag.line, name))
            if not found:
                return False
            return wanted is None or not found.isdisjoint(wanted)
        return any(
            (wanted is None or kind in wanted) and start <= tag.line <= end
            for kind, start, end in by_name.get((tag.path, name), ())
        )

    result = Agreement(files=len(facts))
    files: dict[str, CorpusFile] = {}
    ctags_keys = set()
    for tag in ctags_definitions(root, rules.ctags_args):
        if kinds is not None and tag.kind not in kinds:
            continue
        if rules.only_extracted_files and tag.path not in facts:
            continue
        result.ctags_tags += 1
        ctags_keys.add((tag.path, tag.line, norm(tag.name)))
        if matched(tag):
            result.found[tag.kind] += 1
            result.total[tag.kind] += 1
            continue
        file = files.get(tag.path)
        if file is None:
            file = files[tag.path] = CorpusFile(root, tag.path, facts.get(tag.path))
        reason = next((why for excuse in rules.excuses if (why := excuse(tag, file))), None)
        if reason is not None:
            result.excused[reason] += 1
            continue
        result.total[tag.kind] += 1
        result.missed[tag.kind].append(tag)
    for path, file_facts in facts.items():
        result.symbols += len(file_facts.symbols)
        result.symbols_not_in_ctags += sum(
            (path, s.start_line, norm(s.name)) not in ctags_keys for s in file_facts.symbols
        )
    return result
