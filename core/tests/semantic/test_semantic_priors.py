"""What a person knows before reading any code: private, test, deprecated, undocumented and
unused code is a worse answer than the public API everybody calls."""

from __future__ import annotations

import pytest
from codecairn.semantic import priors
from codecairn.semantic.priors import Traits


@pytest.mark.parametrize(
    ("path", "test"),
    [
        ("Lib/test/test_asyncio/test_tasks.py", True),
        ("tests/unit/helpers.py", True),
        ("pkg/test_urls.py", True),
        ("src/test/java/org/junit/AssertTest.java", True),
        ("net/http/server_test.go", True),
        ("src/app.spec.ts", True),
        ("conftest.py", True),
        ("unittest/case.py", False),  # the testing framework itself is code
        ("asyncio/tasks.py", False),
        ("src/main/java/org/junit/Assert.java", False),
        ("contest/results.py", False),
    ],
)
def test_tests_are_recognised_by_their_file_or_directory(path, test):
    assert priors.is_test_path(path) is test


def test_tests_are_wanted_when_the_query_or_the_path_filter_asks_for_them():
    assert priors.wants_tests("tests of the URL parser")
    assert priors.wants_tests("mock an HTTP server in a unit test")
    assert priors.wants_tests("parse a URL", path_filter="Lib/test/")
    assert not priors.wants_tests("split a URL into its parts")
    assert not priors.wants_tests("parse a URL", path_filter="Lib/urllib")


@pytest.mark.parametrize(
    ("qualified_name", "private"),
    [
        ("urllib.parse._splitquery", True),
        ("_osx_support.find_executable", True),
        ("concurrent.futures._base.wait", True),  # (re-export is decided by the job, which sees __all__)
        ("http.client.HTTPConnection.__init__", False),
        ("pkg.Class.__private", True),
        ("crate::io::_inner", True),
        ("java.util.Base64.Encoder", False),
    ],
)
def test_a_leading_underscore_anywhere_in_the_name_is_private(qualified_name, private):
    assert priors.private_name(qualified_name) is private


def test_a_declaration_says_its_own_visibility_where_the_language_has_one():
    assert priors.declared_private(("private", "static"), "java", "f") is True
    assert priors.declared_private(("public",), "java", "f") is False
    assert priors.declared_private((), "java", "f") is True  # package-private
    assert priors.declared_private((), "java", "f", "interface") is False  # public without saying so
    assert priors.declared_private((), "java", "value", "annotation") is False
    assert priors.declared_private(("private",), "java", "f", "interface") is True
    assert priors.declared_private(("pub",), "rust", "f") is False
    assert priors.declared_private((), "go", "Marshal") is False
    assert priors.declared_private((), "go", "marshal") is True
    assert priors.declared_private(("async",), "python", "f") is None  # the name decides


def test_deprecation_is_read_from_markers_and_doc():
    assert priors.deprecated(("@Deprecated", "public"), "")
    assert priors.deprecated(("deprecated",), "")
    assert priors.deprecated((), "Deprecated since 3.10; use urlsplit.")
    assert not priors.deprecated(("public",), "Split a URL.")


def test_the_public_central_documented_api_scores_above_its_lookalikes():
    api = priors.prior(Traits(used_by_files=40, exported=True))
    worse = {
        "private": Traits(private=True, used_by_files=40, exported=True),
        "test": Traits(test=True, used_by_files=40, exported=True),
        "deprecated": Traits(deprecated=True, used_by_files=40, exported=True),
        "undocumented": Traits(documented=False, used_by_files=40, exported=True),
        "unused": Traits(exported=True),
        "a module": Traits(module=True, used_by_files=40, exported=True),
        "a method": Traits(member=True, used_by_files=40, exported=True),
    }
    for why, traits in worse.items():
        assert priors.prior(traits) < api, why
    assert priors.prior(Traits(test=True), wants_tests=True) == priors.prior(Traits())
