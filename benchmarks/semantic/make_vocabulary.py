"""Regenerate the word list of ``codecairn.semantic.vocabulary``: the words identifiers are made of.

A word is kept when it is at least three letters long and is a separate part (snake_case or
camelCase) of at least three distinct identifiers in at least three of the corpora below. None of
them is a corpus a question set asks about (CPython's Lib, the JDK's java.base), so the list is
not fitted to the questions it is measured on.

Run: ``python benchmarks/semantic/make_vocabulary.py > words.txt`` (corpora from
``shared/corpora/get-corpora.sh --tier all``), then paste the words into ``vocabulary.py``.
"""

from __future__ import annotations

import os
import re
import sys
from collections import Counter
from pathlib import Path

from codecairn.semantic.texts import identifier_words

CORPORA = {
    "py-django": (".py",),
    "java-guava": (".java",),
    "java-jackson": (".java",),
    "ts-typescript": (".ts",),
    "go-1.19": (".go",),
    "rust-library": (".rs",),
    "js-three": (".js",),
}
FILES_PER_CORPUS = 6000
MIN_IDENTIFIERS = 3
MIN_CORPORA = 3
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]{3,}")


def word_counts(root: Path, extensions: tuple[str, ...]) -> Counter[str]:
    """How many distinct identifiers of a corpus have each word as a separate part."""
    identifiers: set[str] = set()
    files = 0
    for folder, _, names in os.walk(root, followlinks=True):
        for name in names:
            if name.endswith(extensions) and files < FILES_PER_CORPUS:
                files += 1
                identifiers.update(_IDENTIFIER.findall((Path(folder) / name).read_text(errors="ignore")))
    counts: Counter[str] = Counter()
    for identifier in identifiers:
        words = identifier_words(identifier)
        if len(words) > 1:
            counts.update(set(words))
    return counts


def main() -> None:
    base = Path(os.environ.get("CODECAIRN_CORPORA", Path.home() / ".cache" / "codecairn-corpora")) / "c"
    per_corpus = [word_counts(base / name, extensions) for name, extensions in CORPORA.items()]
    words = {
        word
        for counts in per_corpus
        for word in counts
        if word.isalpha() and len(word) >= 3 and sum(1 for c in per_corpus if c[word] >= MIN_IDENTIFIERS) >= MIN_CORPORA
    }
    sys.stdout.write("\n".join(sorted(words)) + "\n")


if __name__ == "__main__":
    main()
