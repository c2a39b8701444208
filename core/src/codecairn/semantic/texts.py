"""What text is embedded for a symbol.

The first doc line, then the kind and the qualified name as written:
``Recursively delete a directory tree. (function shutil.rmtree)``.

Chosen on the evaluation set in ``benchmarks/semantic`` (85 developer questions over the CPython
standard library; its README has every figure). The doc line is the best clue a natural-language
query can meet, and putting it first helped every variant (+0.01 to +0.05 MRR@10). The qualified
name carries the enclosing class and module (``shutil``, ``HTTPConnection``), which a query often
names. Splitting identifiers into words (``parseHttpHeader`` → "parse http header") was measured
and did *not* help MiniLM: 0.64 MRR@10 with words against 0.675 with the name as written, and
0.674 with both — the model's WordPiece pieces of ``shutil.rmtree`` evidently carry the same
meaning. The signature was left out too: 0.635 with it, and it nearly doubles the tokens, which
is what embedding time is proportional to. ``identifier_words`` remains for lexical matching of
query words against names.

``TEXT_RECIPE`` names the recipe; a stored vector depends on it as much as on the model, so store
it beside the model id (a recipe change means re-embedding, like a model change).
"""

from __future__ import annotations

import re

TEXT_RECIPE = "doc+qualified-name/1"

# One word of an identifier: "IPv4", "HTTP" (before "Server"), "Header", "parse", "md5", "2".
_PART = re.compile(r"[A-Z]+v\d+(?![a-z])|[A-Z]+(?![a-z])\d*|[A-Z][a-z]+\d*|[a-z]+\d*|\d+")
_DOC_LIMIT = 200


def identifier_words(identifier: str) -> list[str]:
    """``parseHttpHeader`` → ["parse", "http", "header"]; ``HTTPServer`` → ["http", "server"];
    ``snake_case`` → ["snake", "case"]; ``__init__`` → ["init"]; ``IPv4Address`` → ["ipv4", "address"]."""
    return [part.lower() for part in _PART.findall(identifier)]


def split_identifier(identifier: str) -> str:
    return " ".join(identifier_words(identifier))


def embedding_text(
    kind: str,
    name: str,
    qualified_name: str = "",
    signature: str = "",
    doc: str = "",
    parent_name: str = "",
) -> str:
    """The text embedded for one symbol, e.g. for ``http.client.HTTPConnection.getresponse``:
    ``Get the response from the server. (method http.client.HTTPConnection.getresponse)``.

    ``signature`` and ``parent_name`` are accepted so callers pass every fact they have; the
    measured recipe uses neither (the qualified name already holds the parent).
    """
    subject = f"{kind} {qualified_name or name}"
    doc = " ".join(doc.split())[:_DOC_LIMIT].rstrip()
    return f"{doc} ({subject})" if doc else subject
