"""What a person knows about code before reading a word of it: the priors of semantic ranking.

Asked "how do I split a URL", a developer wants ``urlsplit``, not ``_splitquery`` (private), not
``test_urlsplit_attributes`` (a test), not ``distutils`` (deprecated), and of two similar answers
the one the rest of the project uses. Each symbol gets a few plain facts, read off what the index
already stores, and one number, its *prior*, added to its similarity score:

* **private** — a leading underscore anywhere in its qualified name (Python's ``_helper``, a
  ``_private`` module), a Python module's ``__all__`` that leaves it out, a declaration that
  says so (Java ``private`` / package-private, Rust without ``pub``, Go lower-case), a Java
  package its ``module-info.java`` does not export; what a package re-exports in its ``__all__``
  is public wherever it is defined;
* **test** — it lives in a test file or directory; unless the query or the path filter asks for
  tests, tests are pushed down (at query time: ``wants_tests``);
* **deprecated** — the code says so: a ``@Deprecated``/``@deprecated`` marker, a module or
  function that warns ``DeprecationWarning`` unconditionally (the Python extractor's
  ``deprecated`` modifier), a doc summary that says "deprecated"; inherited by everything inside;
* **documented** — it has a doc summary;
* **central** — how many files use it through a resolved edge (calls, extends, implements);
* **module** — a module or package is what holds the answer to a question, rarely the answer;
* **member** — a method (or anything defined inside a class or function): asked "queue where
  producers wait", a person names the class or the function, and of a class and one of its
  methods that read alike, the class is the way in.

The weights were chosen on the tuning questions of ``benchmarks/semantic`` (see its README).
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection
from typing import NamedTuple

# Chosen jointly (coordinate search over every weight at once, the lexical weight of ranking.py
# included) on the tuning questions of both question sets; see benchmarks/semantic/README.md.
PRIVATE_PENALTY = 0.12
TEST_PENALTY = 0.25
DEPRECATED_PENALTY = 0.13
UNDOCUMENTED_PENALTY = 0.05
MODULE_PENALTY = 0.3
MEMBER_PENALTY = 0.07
CENTRALITY_WEIGHT = 0.015  # per e-fold of the files that use it
CENTRALITY_CAP = 6.0  # log(1 + files) beyond which more use says nothing new
EXPORTED_BONUS = 0.0  # measured: with the private penalty, being listed in __all__ adds nothing

_TEST_DIRS = frozenset({"test", "tests", "testing", "__tests__", "spec", "specs", "testdata", "test_data"})
_TEST_FILE = re.compile(
    r"(?:^test_.*\.py|.*_test\.(?:py|go|rs|c|cc|cpp)|.*(?:Test|Tests|TestCase|IT)\.(?:java|kt|scala)"
    r"|.*\.(?:test|spec)\.[cm]?[jt]sx?|conftest\.py)$"
)
_TEST_QUERY = re.compile(r"\b(?:tests?|testing|unittests?|test\s+cases?|fixtures?|mocks?)\b", re.IGNORECASE)
_DEPRECATED_DOC = re.compile(r"\bdeprecated\b|\bobsolete\b|\bdo not use\b", re.IGNORECASE)
_DEPRECATED_MODIFIERS = frozenset({"deprecated", "@Deprecated", "@deprecated", "@java.lang.Deprecated"})
_PUBLIC_MODIFIERS = frozenset({"public", "protected", "pub", "export"})
_PRIVATE_MODIFIERS = frozenset({"private", "internal", "fileprivate"})
_JAVA_IMPLICITLY_PUBLIC = frozenset({"interface", "annotation"})


class Traits(NamedTuple):
    """The facts a prior is made of."""

    private: bool = False
    test: bool = False
    deprecated: bool = False
    documented: bool = True
    used_by_files: int = 0
    module: bool = False  # a module or package: what holds the answer, rarely the answer
    exported: bool = False  # listed in its module's __all__ (or inside what is): the API by declaration
    member: bool = False  # defined inside a class (or a function), not at a module's top level


def prior(traits: Traits, wants_tests: bool = False) -> float:
    """What the priors add to one symbol's score."""
    score = CENTRALITY_WEIGHT * min(math.log1p(traits.used_by_files), CENTRALITY_CAP)
    if traits.private:
        score -= PRIVATE_PENALTY
    if traits.deprecated:
        score -= DEPRECATED_PENALTY
    if not traits.documented:
        score -= UNDOCUMENTED_PENALTY
    if traits.exported:
        score += EXPORTED_BONUS
    if traits.module:
        score -= MODULE_PENALTY
    if traits.member:
        score -= MEMBER_PENALTY
    if traits.test and not wants_tests:
        score -= TEST_PENALTY
    return score


def is_test_path(path: str) -> bool:
    """A test file or a file under a test directory: ``tests/x.py``, ``test_x.py``, ``XTest.java``,
    ``x_test.go``, ``x.spec.ts``."""
    parts = path.split("/")
    if _TEST_FILE.match(parts[-1]):
        return True
    return any(part in _TEST_DIRS for part in parts[:-1])


def wants_tests(query: str, path_filter: str | None = None) -> bool:
    """The query or the path filter asks for tests: then tests are not pushed down."""
    if path_filter and is_test_path(path_filter.rstrip("/") + "/x"):
        return True
    return bool(_TEST_QUERY.search(query))


def private_name(qualified_name: str, separators: str = ".:#/") -> bool:
    """A leading underscore on any part of the qualified name, dunders (``__init__``) excepted."""
    for part in re.split(f"[{re.escape(separators)}]+", qualified_name):
        if part.startswith("_") and not (part.startswith("__") and part.endswith("__") and len(part) > 4):
            return True
    return False


def declared_private(
    modifiers: Collection[str], language: str, name: str, parent_kind: str | None = None
) -> bool | None:
    """What a declaration says of its own visibility: True (private), False (public) or None
    (it says nothing; the name decides). ``parent_kind``: the kind of what declares it."""
    if not _PRIVATE_MODIFIERS.isdisjoint(modifiers):
        return True
    if not _PUBLIC_MODIFIERS.isdisjoint(modifiers):
        return False
    if language == "java":
        # What an interface or annotation type declares is public without saying so
        # (``List.of``, ``Map.entrySet``); elsewhere no modifier means package-private: not part
        # of the API a user of the library calls.
        return parent_kind not in _JAVA_IMPLICITLY_PUBLIC
    if language == "rust":
        return True  # no `pub`
    if language == "go":
        return not name[:1].isupper()
    return None


def deprecated(modifiers: Collection[str], doc: str) -> bool:
    return not _DEPRECATED_MODIFIERS.isdisjoint(modifiers) or bool(doc and _DEPRECATED_DOC.search(doc))
