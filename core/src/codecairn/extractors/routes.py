"""HTTP routes and client calls as graph facts, and how a call finds its route.

Route detectors (hookspecs.RouteDetector, contributed by language plugins) run in the parse
workers right after a language's extractor (``WithRoutes`` wraps it, so nothing else in the
pipeline changes): a route becomes a ``route`` symbol named ``"METHOD /path"`` plus a
``routes_to`` relation to its handler (resolved like a call); a client call with a literal or
constant URL becomes an ``http_calls`` relation whose target is ``"METHOD url"``. When indexing
resolves, ``RouteTable`` matches each http_calls edge to the one route whose method and path
pattern fit it (resolution ``route``); none, or several equally good, leave it unresolved.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from codecairn.model import HTTP_CALLS, ROUTES_TO, FileFacts, HttpCall, Relation, Route, Symbol, route_name

_SCOPE_KINDS = frozenset({"module", "package", "namespace"})


@dataclass(frozen=True)
class WithRoutes:
    """A language's extractor followed by the route detectors for its language (picklable)."""

    extractor: Any
    detectors: tuple[Any, ...]  # hookspecs.RouteDetector

    def __call__(self, source: bytes, tree: Any, path: str) -> FileFacts:
        facts = self.extractor(source, tree, path)
        for detector in self.detectors:
            try:
                routes, calls = detector.detect(source, tree, path, facts)
            except Exception:  # a detector's bug must not cost the file its facts
                continue
            if routes or calls:
                facts = add_routes(facts, routes, calls)
        return facts


def enclosing(symbols: list, line: int) -> int:
    """Index of the innermost symbol (not a module) whose lines contain ``line``; -1 for none."""
    best, span = -1, None
    for i, s in enumerate(symbols):
        kind, start, end = s[0], s[3], s[5]
        if kind in _SCOPE_KINDS or kind == "route" or not start <= line <= end:
            continue
        if span is None or end - start < span:
            best, span = i, end - start
    return best


def add_routes(facts: FileFacts, routes: Iterable[Route], calls: Iterable[HttpCall]) -> FileFacts:
    symbols = list(facts.symbols)
    relations = list(facts.relations)
    for r in routes:
        name = route_name(r.method, r.path)
        parent = enclosing(facts.symbols, r.line)
        signature = f"{name} -> {r.handler}" if r.handler else name
        symbols.append(Symbol("route", name, name, r.line, 0, r.end_line or r.line, 0, signature, "", parent,
                              (r.framework,) if r.framework else ()))  # fmt: skip
        if r.handler:
            receiver, _, target = r.handler.rpartition("::" if "::" in r.handler else ".")
            relations.append(Relation(ROUTES_TO, len(symbols) - 1, target, r.line, receiver))
    for c in calls:
        relations.append(Relation(HTTP_CALLS, enclosing(facts.symbols, c.line), f"{c.method} {c.url}", c.line,
                                  c.client))  # fmt: skip
    return facts._replace(symbols=symbols, relations=relations)


# ---- matching a call's URL to a route's pattern --------------------------------------------------

PARAM = None  # a path segment that stands for any value
_SCHEME_HOST = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*://[^/]*")
_PARAM_SEGMENT = re.compile(r"^(?:<[^>]*>|\{[^}]*\}|:[A-Za-z_]\w*\??|\*\w*|\[[^\]]*\])$")
_TEMPLATE = re.compile(r"\$\{[^}]*\}|\{[^}]*\}|%[sdv]")


def pattern_segments(path: str) -> list[str | None] | None:
    """A route pattern as segments (PARAM for a parameter), or None when it is a regex this cannot
    read (Django's re_path with anything beyond simple groups)."""
    text = path.strip()
    if text.startswith("^") or text.endswith("$"):  # a regex (re_path, url())
        text = text.lstrip("^").rstrip("$")
        text = re.sub(r"\(\?P<\w+>[^)]*\)|\([^)]*\)", "{}", text)
        if re.search(r"[\\^$*+?()[\]|]", text):
            return None
    return [PARAM if _PARAM_SEGMENT.match(s) or s == "{}" else s for s in text.strip("/").split("/") if s != ""]


def url_segments(url: str) -> tuple[list[str | None], bool] | None:
    """A call's URL as path segments (PARAM for an interpolated value), and whether its start is
    unknown (it began with a value: ``f"{BASE}/users"``); None when it is no URL path at all."""
    text = url.strip()
    text = _SCHEME_HOST.sub("", text)
    text = text.split("?", 1)[0].split("#", 1)[0]
    unknown_start = False
    if not text.startswith("/"):
        if _TEMPLATE.match(text):
            unknown_start = True
            text = _TEMPLATE.sub("{}", text, count=1)
            text = text[2:] if text.startswith("{}") else text
        else:
            return None
    segments = []
    for s in text.strip("/").split("/"):
        if not s:
            continue
        segments.append(PARAM if _TEMPLATE.search(s) or s == "{}" else s)
    return segments, unknown_start


@dataclass(frozen=True)
class _Pattern:
    route_id: int
    method: str
    segments: tuple[str | None, ...]
    literal: int  # literal segments: the more, the more specific


class RouteTable:
    """Every route symbol's pattern, for matching http_calls edges (built once per resolution)."""

    def __init__(self, routes: Iterable[tuple[int, str]]) -> None:
        """``routes``: (symbol id, "METHOD /path") of every route symbol."""
        self.patterns: list[_Pattern] = []
        for rid, name in routes:
            method, _, path = name.partition(" ")
            segments = pattern_segments(path)
            if segments is not None:
                self.patterns.append(_Pattern(rid, method, tuple(segments), sum(s is not None for s in segments)))

    def match(self, written: str) -> int | None:
        """The route an http_calls edge's target (``"METHOD url"``) reaches: the most specific of
        those whose method and pattern fit; None when none does, or two fit equally well."""
        method, _, url = written.partition(" ")
        found = url_segments(url)
        if found is None:
            return None
        segments, unknown_start = found
        fits = []
        for p in self.patterns:
            if p.method not in ("ANY", method) and method != "ANY":
                continue
            candidate = (
                p.segments[-len(segments) :] if unknown_start and len(p.segments) >= len(segments) else p.segments
            )
            if len(candidate) != len(segments) or (unknown_start and not segments):
                continue
            if all(a is None or b is None or a == b for a, b in zip(candidate, segments)):
                exact = sum(a is not None and a == b for a, b in zip(candidate, segments))
                fits.append((exact, p.method != "ANY", p.route_id))
        if not fits:
            return None
        fits.sort(reverse=True)
        if len(fits) > 1 and fits[0][:2] == fits[1][:2]:
            return None  # two routes fit as well as each other: not guessed
        return fits[0][2]
