"""Retrieval-quality evaluation of semantic search over the CPython standard library.

``queries.json`` holds natural-language queries, each with the qualified names a developer would
accept. Three rankings are scored with MRR@10, hit@10 (any accepted answer in the top 10) and
recall@10 (share of the accepted answers in the top 10):

* name-only — query words matched against symbol names (what a lexical name search can do);
* semantic  — cosine similarity of the query to each symbol's embedded text;
* hybrid    — reciprocal-rank fusion of the two (``codecairn.semantic.fusion``).

Embeddings of the corpus are cached on disk (keyed by model, recipe and texts), so re-runs are quick.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sysconfig
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pytest
from codecairn.semantic import texts
from codecairn.semantic.fusion import QUERY_WORDS_K, QUERY_WORDS_NAME_WEIGHT, reciprocal_rank_fusion
from codecairn.semantic.vectors import VectorIndex
from stdlib_symbols import STDLIB, AstSymbol, stdlib_symbols

HERE = Path(__file__).parent
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "codecairn-bench" / "semantic"
DEPTH = 10  # MRR@10, recall@10
CANDIDATES = 50  # how many candidates each ranking hands to the fusion


def load_queries() -> list[dict]:
    return json.loads((HERE / "queries.json").read_text())["queries"]


def corpus_symbols(tier: str = "large") -> list[AstSymbol]:
    """The large tier: the whole py-cpython-lib corpus (the figures in the README). The small tier
    (CI): the running interpreter's own standard library, only the packages that hold an accepted
    answer — the same code, fewer distractors, a minute to embed instead of several."""
    if tier == "large":
        if not STDLIB.is_dir():
            pytest.fail(f"{STDLIB} is missing: run `scripts/test-prerequisites.sh large`")
        return stdlib_symbols()
    packages = {q.split(".")[0] for item in load_queries() for q in item["accept"]}
    root = Path(sysconfig.get_paths()["stdlib"])
    return [s for s in stdlib_symbols(root) if s.qualified_name.split(".")[0] in packages]


# ---- text recipes compared (the production one is texts.embedding_text) --------------------------


def _words(s: AstSymbol) -> str:
    """ "method get response of http connection in http client": kind, then the name, the class and
    the module path split into words."""
    scope = [p for p in s.qualified_name.split(".") if p]
    if scope and scope[-1] == s.name:
        scope.pop()
    if s.parent_name and scope and scope[-1] == s.parent_name:
        scope.pop()
    text = f"{s.kind} {texts.split_identifier(s.name) or s.name}"
    if s.parent_name:
        text += f" of {texts.split_identifier(s.parent_name)}"
    module = " ".join(w for p in scope for w in texts.identifier_words(p))
    return f"{text} in {module}" if module else text


def _recipe_sig_doc(s: AstSymbol) -> str:
    return f"{s.signature}  # {s.doc}" if s.doc else s.signature


def _recipe_qname_doc(s: AstSymbol) -> str:
    return f"{s.kind} {s.qualified_name}. {s.doc}" if s.doc else f"{s.kind} {s.qualified_name}"


def _recipe_words_doc(s: AstSymbol) -> str:
    doc = " ".join(s.doc.split())[:200]
    return f"{_words(s)}. {doc}" if doc else _words(s)


def _recipe_words_sig_doc(s: AstSymbol) -> str:
    base = _words(s)
    return f"{base}. {s.signature}. {s.doc}" if s.doc else f"{base}. {s.signature}"


def _recipe_words_params_doc(s: AstSymbol) -> str:
    base = _words(s)
    params = re.findall(r"[A-Za-z_]\w*", s.signature.partition("(")[2])
    words = [w for p in params if p not in ("self", "cls", "None", "True", "False") for w in texts.identifier_words(p)]
    text = f"{base} taking {' '.join(dict.fromkeys(words))}" if words else base
    return f"{text}. {s.doc}" if s.doc else text


def _recipe_name_words_doc(s: AstSymbol) -> str:
    # name and enclosing class words only: no module path
    text = f"{s.kind} {texts.split_identifier(s.name)}"
    if s.parent_name:
        text += f" of {texts.split_identifier(s.parent_name)}"
    return f"{text}. {s.doc}" if s.doc else text


def _recipe_doc_first(s: AstSymbol) -> str:
    base = _words(s)
    return f"{s.doc} ({base})" if s.doc else base


def _recipe_chosen(s: AstSymbol) -> str:
    return texts.embedding_text(s.kind, s.name, s.qualified_name, s.signature, s.doc, s.parent_name)


def _recipe_qname_words_doc(s: AstSymbol) -> str:
    text = f"{s.kind} {s.qualified_name}: {_words(s).partition(' ')[2]}"
    return f"{text}. {s.doc}" if s.doc else text


def _recipe_doc_first_qname_words(s: AstSymbol) -> str:
    text = f"{s.kind} {s.qualified_name}: {_words(s).partition(' ')[2]}"
    return f"{s.doc} ({text})" if s.doc else text


RECIPES: dict[str, Callable[[AstSymbol], str]] = {
    "signature + doc": _recipe_sig_doc,
    "words: kind + name/class words + doc": _recipe_name_words_doc,
    "words: kind + name/class/module words + doc": _recipe_words_doc,
    "words + parameter words": _recipe_words_params_doc,
    "words + raw signature": _recipe_words_sig_doc,
    "doc first, then words": _recipe_doc_first,
    "kind + qualified name + doc": _recipe_qname_doc,
    "kind + qualified name + its words + doc": _recipe_qname_words_doc,
    "doc first, then kind + qualified name + its words": _recipe_doc_first_qname_words,
    "doc first, then kind + qualified name [chosen]": _recipe_chosen,
}
CHOSEN = "doc first, then kind + qualified name [chosen]"


def embed_cached(embedder, symbol_texts: list[str]) -> np.ndarray:
    key = hashlib.sha256("\n".join([embedder.model_id, *symbol_texts]).encode()).hexdigest()[:24]
    path = CACHE / f"{key}.npy"
    if path.is_file():
        return np.load(path)
    vectors = embedder.embed(symbol_texts)
    CACHE.mkdir(parents=True, exist_ok=True)
    np.save(path, vectors)
    return vectors


# ---- rankings -----------------------------------------------------------------------------------

_STOP = set(
    "a an the of to in on for from with by and or is are be it its this that as at into like "
    "how what which when where do does can may get all each every one two several some any".split()
)


def _stem(word: str) -> str:
    for suffix in ("ing", "ed", "es", "s"):
        if len(word) > len(suffix) + 2 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


class NameRanker:
    """A lexical baseline: query words against the words and the text of each symbol's name."""

    def __init__(self, symbols: list[AstSymbol]) -> None:
        self.names = [s.name.lower() for s in symbols]
        self.name_words = [{_stem(w) for w in texts.identifier_words(s.name)} for s in symbols]
        self.scope_words = [{_stem(w) for w in texts.identifier_words(s.qualified_name)} for s in symbols]
        self.private = [s.name.startswith("_") and not s.name.endswith("__") for s in symbols]

    def rank(self, query: str, limit: int = CANDIDATES) -> list[int]:
        words = [_stem(w) for w in re.findall(r"[a-z0-9]+", query.lower()) if w not in _STOP and len(w) > 1]
        scored = []
        for i, name in enumerate(self.names):
            score = 0.0
            for w in words:
                if w in self.name_words[i]:
                    score += 2
                elif len(w) > 2 and w in name:
                    score += 1
                elif w in self.scope_words[i]:
                    score += 0.5
            if score:
                scored.append((-score, self.private[i], len(name), i))
        scored.sort()
        return [i for *_, i in scored[:limit]]


class Scores(NamedTuple):
    mrr: float
    hit: float
    recall: float


def _distinct(ranked_ids: list[int], qualified: list[str]) -> list[str]:
    seen: dict[str, None] = {}
    for i in ranked_ids:
        seen.setdefault(qualified[i])
    return list(seen)


def score(rankings: list[list[str]], queries: list[dict]) -> Scores:
    mrr = hit = recall = 0.0
    for ranked, q in zip(rankings, queries, strict=True):
        accept = set(q["accept"])
        top = ranked[:DEPTH]
        first = next((pos for pos, name in enumerate(top, 1) if name in accept), None)
        mrr += 1 / first if first else 0
        hit += 1 if first else 0
        recall += len(accept & set(top)) / min(len(accept), DEPTH)
    n = len(queries)
    return Scores(mrr / n, hit / n, recall / n)


class Evaluation(NamedTuple):
    name_only: Scores
    semantic: Scores
    hybrid: Scores
    misses: list[tuple[str, list[str]]]  # hybrid misses: query, its top 3


def evaluate(embedder, symbols: list[AstSymbol], recipe: Callable[[AstSymbol], str], queries: list[dict]) -> Evaluation:
    qualified = [s.qualified_name for s in symbols]
    index = VectorIndex(np.arange(len(symbols)), embed_cached(embedder, [recipe(s) for s in symbols]))
    query_vectors = embedder.embed([q["query"] for q in queries])
    names = NameRanker(symbols)
    by_name, by_meaning, fused = [], [], []
    for q, qv in zip(queries, query_vectors, strict=True):
        lexical = names.rank(q["query"])
        semantic = index.search(qv, CANDIDATES)
        hybrid = reciprocal_rank_fusion(
            lexical, semantic, k=QUERY_WORDS_K, name_weight=QUERY_WORDS_NAME_WEIGHT, limit=CANDIDATES
        )
        by_name.append(_distinct(lexical, qualified))
        by_meaning.append(_distinct([i for i, _ in semantic], qualified))
        fused.append(_distinct([r.id for r in hybrid], qualified))
    misses = [(q["query"], f[:3]) for q, f in zip(queries, fused, strict=True) if not set(q["accept"]) & set(f[:DEPTH])]
    return Evaluation(score(by_name, queries), score(by_meaning, queries), score(fused, queries), misses)
