"""Identifier words as the words they stand for: run-together words split, abbreviations spelled out."""

from __future__ import annotations

import pytest
from codecairn.semantic.vocabulary import spelled_out


@pytest.mark.parametrize(
    ("word", "words"),
    [
        ("gettempdir", ["get", "temporary", "directory"]),
        ("readframes", ["read", "frames"]),
        ("urlsplit", ["url", "split"]),
        ("makedirs", ["make", "directories"]),
        ("rmtree", ["remove", "tree"]),
        ("symlink", ["symbolic", "link"]),
        ("ctx", ["context"]),
        ("fd", ["file", "descriptor"]),
        ("parse", ["parse"]),  # a word already
        ("together", ["together"]),  # a word, though "to get her" would split it
        ("storbinary", ["storbinary"]),  # no split into known words: left as written
        ("b64", ["b64"]),
        ("mod", ["mod"]),  # module or modulo: not guessed
    ],
)
def test_a_word_of_an_identifier_is_spelled_out(word, words):
    assert list(spelled_out(word)) == words
