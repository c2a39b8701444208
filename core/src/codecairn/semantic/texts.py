"""What text stands for a symbol: the sentence that is embedded, and the words the lexical
ranking indexes.

Embedded: the doc summary, then the qualified name as the words it spells out, each once:
``Get the response from the server. (http client connection get response)``; a method without a
doc borrows its class's summary. Indexed for BM25: the words of the name as written (counted three
times: a name is a stronger clue than a sentence) and the words it spells out
(``gettempdir`` → get temporary directory, once), the words of the enclosing module and class, and
of the doc summary.

Chosen on the question sets in ``benchmarks/semantic`` (its README has every variant measured).
Stored vectors are keyed by the hash of their text (and the model), so a change here re-embeds
exactly the texts it changes; ``TEXT_RECIPE`` only names the recipe.
"""

from __future__ import annotations

import re
from collections import Counter

from codecairn.semantic.vocabulary import spelled_out

TEXT_RECIPE = "doc+spelled-out-name-words/4"

# One word of an identifier: "IPv4", "HTTP" (before "Server"), "Header", "parse", "md5", "2".
_PART = re.compile(r"[A-Z]+v\d+(?![a-z])|[A-Z]+(?![a-z])\d*|[A-Z][a-z]+\d*|[a-z]+\d*|\d+")
_DOC_LIMIT = 200  # characters of doc summary embedded: tokens are what embedding time is made of
_CLASS_LIMIT = 80  # characters of the enclosing class's summary
# Javadoc/JSDoc inline tags and HTML: {@code x} -> x, {@link A#b label} -> label, <b>x</b> -> x.
_INLINE_TAG = re.compile(r"\{@\w+\s+([^{}]*)\}")
_HTML_TAG = re.compile(r"</?[A-Za-z][^<>]*>")
_ENTITIES = {"&lt;": "<", "&gt;": ">", "&amp;": "&", "&quot;": '"', "&#39;": "'", "&nbsp;": " "}
_ENTITY = re.compile("|".join(_ENTITIES))
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*|\d+")
NAME_WEIGHT = 3  # a word of the symbol's own name counts this many times in BM25

# Words that carry no meaning for a search: English function words and the words every
# docstring uses ("return", "given"). Kept short: a word missing here only costs a little BM25.
STOP_WORDS = frozenset(
    """a an and are as at be by can do does for from has have how i if in into is it its of on or
    so such that the their them then there these this to was we what when where which while who will
    with without you your me my our us should would could may might must not no all any each every
    some than too very just also only other same given return returns returned get gets use used
    using way want need new one two""".split()
)


def identifier_words(identifier: str) -> list[str]:
    """``parseHttpHeader`` → ["parse", "http", "header"]; ``HTTPServer`` → ["http", "server"];
    ``snake_case`` → ["snake", "case"]; ``__init__`` → ["init"]; ``IPv4Address`` → ["ipv4", "address"]."""
    return [part.lower() for part in _PART.findall(identifier)]


def split_identifier(identifier: str) -> str:
    return " ".join(identifier_words(identifier))


def clean_doc(doc: str, limit: int = _DOC_LIMIT) -> str:
    """A doc summary as plain words: inline tags and HTML dropped, whitespace collapsed, cut at a
    word boundary after ``limit`` characters."""
    if "{@" in doc:
        doc = _INLINE_TAG.sub(lambda m: _link_text(m.group(1)), doc)
    if "<" in doc:
        doc = _HTML_TAG.sub("", doc)
    if "&" in doc:
        doc = _ENTITY.sub(lambda m: _ENTITIES[m.group(0)], doc)
    doc = " ".join(doc.split())
    if len(doc) > limit:
        doc = doc[:limit].rsplit(" ", 1)[0]
    return doc


def _link_text(tag_body: str) -> str:
    """``{@link Foo#bar(int) the bar}`` → "the bar"; ``{@link Foo#bar(int)}`` → "Foo.bar"."""
    target, _, label = tag_body.strip().partition(" ")
    if label.strip():
        return label.strip()
    return target.split("(", 1)[0].replace("#", ".").strip(".")


def name_words(qualified_name: str) -> str:
    """A qualified name as the words a person would say, each once, run-together words and
    abbreviations spelled out (``vocabulary``): ``http.client.HTTPConnection.getresponse`` →
    "http client connection get response", ``tempfile.gettempdir`` → "tempfile get temporary
    directory"."""
    return " ".join(dict.fromkeys(w for word in identifier_words(qualified_name) for w in spelled_out(word)))


def embedding_text(
    kind: str,
    name: str,
    qualified_name: str = "",
    signature: str = "",
    doc: str = "",
    parent_name: str = "",
    parent_doc: str = "",
) -> str:
    """The text embedded for one symbol: its doc summary, then its qualified name as words.
    ``http.client.HTTPConnection.getresponse`` → ``Get the response from the server. (http
    client connection get response)``. A method without a doc borrows its class's summary.

    ``kind``, ``signature`` and ``parent_name`` are accepted so callers pass every fact they
    have; the measured recipe uses none of them.
    """
    words = name_words(qualified_name or name)
    doc = clean_doc(doc)
    if doc:
        return f"{doc} ({words})"
    if parent_doc and kind in ("method", "constructor"):
        return f"{words}: {clean_doc(parent_doc, _CLASS_LIMIT)}"
    return words


def _stem(word: str) -> str:
    """A light, conservative suffix stripper, the same for documents and queries: plurals and
    verb endings only ("parses", "parsing", "parsed" -> "pars"; "files" -> "fil"), so that
    "enter" and "number" stay themselves. A final "y" and "ies" both end in "i", so that
    "copy", "copies" and "copied" meet, and so do "cookie" and "cookies"."""
    if len(word) <= 3 or not word.isalpha():
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-2]
    for suffix in ("ing", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            word = word[:-1] if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "lsz" else word
            return word[:-1] + "i" if word.endswith("y") and len(word) > 3 else word
    if word.endswith(("sses", "xes", "ches", "shes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    if word.endswith("y") and len(word) > 3:
        return word[:-1] + "i"
    return word[:-1] if word.endswith("e") and len(word) > 3 else word


def text_terms(text: str) -> list[str]:
    """The index terms of a piece of prose: lower-case words (identifiers split), stop words
    dropped, stemmed."""
    out = []
    for word in _WORD.findall(text):
        for part in identifier_words(word) if not word.islower() else (word,):
            if part not in STOP_WORDS and len(part) > 1:
                out.append(_stem(part))
    return out


def query_terms(query: str) -> list[str]:
    """The distinct terms of a search, in order."""
    return list(dict.fromkeys(text_terms(query)))


def lexical_terms(qualified_name: str, name: str, doc: str) -> Counter[str]:
    """Term frequencies of one symbol for BM25: its name's words count ``NAME_WEIGHT`` times and
    the words they spell out (``gettempdir`` → temporary, directory) once more each; the words of
    its module and class path and of its doc summary once."""
    terms: Counter[str] = Counter()
    for word in identifier_words(name):
        if word not in STOP_WORDS:
            terms[_stem(word)] += NAME_WEIGHT
        # Counted like a word of the doc, not of the name: the split is a guess, the name is not.
        for part in spelled_out(word):
            if part != word and part not in STOP_WORDS and len(part) > 1:
                terms[_stem(part)] += 1
    scope = qualified_name[: len(qualified_name) - len(name)] if qualified_name.endswith(name) else qualified_name
    terms.update(text_terms(scope))
    if doc:
        terms.update(text_terms(clean_doc(doc)))
    return terms
