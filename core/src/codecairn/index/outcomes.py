"""The parse-result loop, once for every kind of run: each file's result becomes a file to write,
a touch (content unchanged, only its mtime moved), a skip counted by reason, or a failure that keeps
the file's previous facts."""

from __future__ import annotations

import logging

from codecairn.index.state import IndexState
from codecairn.model import IndexSummary
from codecairn.store.store import ParsedFile

log = logging.getLogger("codecairn.index")


class Outcomes:
    def __init__(
        self,
        state: IndexState,
        summary: IndexSummary,
        stats: dict[str, tuple[int, int]],
        languages: dict[str, str],
    ) -> None:
        self.state = state
        self.summary = summary
        self.stats = stats  # path -> (size, mtime_ns) as walked
        self.languages = languages  # path -> language name
        self.parsed: list[ParsedFile] = []
        self.touched: list[tuple[int, int]] = []  # (file id, mtime_ns)

    def consume(self, results: list[tuple]) -> None:
        """parse_pool results: ("parsed", path, hash, lines, facts) | ("same", path, hash) |
        ("skipped", path, reason) | ("failed", path, error)."""
        summary = self.summary
        for res in results:
            status, path = res[0], res[1]
            if status == "parsed":
                size, mtime = self.stats[path]
                self.parsed.append(ParsedFile(path, self.languages[path], size, mtime, res[2], res[3], res[4]))
                summary.parsed += 1
            elif status == "same":
                self.touched.append((self.state.files_by_path[path].id, self.stats[path][1]))
                summary.unchanged += 1
            elif status == "skipped":
                summary.skipped[res[2]] = summary.skipped.get(res[2], 0) + 1
            else:  # the extractor failed: this file keeps its previous facts
                summary.failed[path] = res[2]
                log.warning("extraction failed for %s: %s", path, res[2])

    def take(self) -> tuple[list[ParsedFile], list[tuple[int, int]]]:
        """What was consumed since the last take: files to write, files to touch."""
        parsed, touched = self.parsed, self.touched
        self.parsed, self.touched = [], []
        return parsed, touched
