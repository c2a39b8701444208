"""What text is embedded for a symbol.

MiniLM was trained on natural-language sentences, and its WordPiece vocabulary cuts identifiers
into meaningless pieces (``parse_url`` → ``par ##se _ ur ##l``). So a symbol is described to it in
words: its kind, its name split into words, the words of its enclosing class and module, and its
first doc line, the best single clue for a natural-language query. The raw signature is left out:
on the evaluation set (``benchmarks/semantic``) it lowered MRR@10 and it costs tokens, which is what
embedding time is proportional to. ``TEXT_RECIPE`` names this recipe; it is part of what a stored
vector depends on, so store it beside the model id.
"""

from __future__ import annotations

import re

TEXT_RECIPE = "words+doc/1"

# One word of an identifier: "IPv4", "HTTP" (before "Server"), "Header", "parse", "md5", "2".
_PART = re.compile(r"[A-Z]+v\d+(?![a-z])|[A-Z]+(?![a-z])\d*|[A-Z][a-z]+\d*|[a-z]+\d*|\d+")
_DOC_LIMIT = 200


def identifier_words(identifier: str) -> list[str]:
    """``parseHttpHeader`` → ["parse", "http", "header"]; ``HTTPServer`` → ["http", "server"];
    ``snake_case`` → ["snake", "case"]; ``__init__`` → ["init"]; ``IPv4Address`` → ["ipv4", "address"]."""
    return [part.lower() for part in _PART.findall(identifier)]


def split_identifier(identifier: str) -> str:
    return " ".join(identifier_words(identifier))


def _container_words(qualified_name: str, name: str, parent_name: str) -> tuple[str, str]:
    """(words of the enclosing type, words of the module path) from a qualified name.

    The qualified name's components before the symbol are its scope: the parent symbol (when it
    has one) and the module/package path before that. Any separator works ("." or "::" or "/").
    """
    parts = [p for p in re.split(r"[^A-Za-z0-9_$]+", qualified_name) if p]
    if parts and parts[-1] == name:
        parts.pop()
    if parent_name and parts and parts[-1] == parent_name:
        parts.pop()
    module = " ".join(w for p in parts for w in identifier_words(p))
    return split_identifier(parent_name), module


def embedding_text(
    kind: str,
    name: str,
    qualified_name: str = "",
    signature: str = "",
    doc: str = "",
    parent_name: str = "",
) -> str:
    """The sentence embedded for one symbol, e.g. for ``http.client.HTTPConnection.getresponse``:
    ``method get response of http connection in http client. Get the response from the server.``
    """
    del signature  # measured: hurts retrieval (see module docstring); kept in the interface
    parent, module = _container_words(qualified_name or name, name, parent_name)
    text = f"{kind} {split_identifier(name) or name}"
    if parent:
        text += f" of {parent}"
    if module:
        text += f" in {module}"
    doc = " ".join(doc.split())[:_DOC_LIMIT]
    return f"{text}. {doc}" if doc else text
