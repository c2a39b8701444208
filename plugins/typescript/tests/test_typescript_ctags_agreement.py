"""universal-ctags, run on the same code, is an independent witness of what is defined where: at
least 97 % of its definitions (path, line, name) must be codecairn symbols too.

Compared: every ctags TypeScript and JavaScript kind (class, interface, alias, enum, enumerator,
function, generator, method, getter, setter, property, field, namespace, constant, variable) —
codecairn produces each of them. Not counted, because the two disagree on purpose (see
``typescript_corpus.by_design``, which classifies each such tag from the syntax tree): local
variables, import bindings, object-literal data, members of anonymous objects and of type
literals, anonymous functions, construct signatures, ``module.exports`` values, destructuring
keys, and ctags tags that are not declarations at all (ctags losing track inside types and
expressions). The excluded counts are printed with the figures. Matching allows for two naming
differences: ctags drops the ``#`` of private members, and tags each overload signature where
codecairn has one symbol spanning all of them.
"""

import shutil

import pytest


@pytest.mark.parametrize("name", ["ts-rxjs", "js-eslint"])
def test_codecairn_finds_what_ctags_finds(corpus_index, corpus_helper, name):
    assert shutil.which("ctags"), "universal-ctags is needed: apt-get install universal-ctags"
    root, indexed = corpus_index(name)
    agreement = corpus_helper.agreement(root, indexed)
    print()
    print(agreement.report(name))
    assert sum(agreement.total.values()) > 800
    assert agreement.recall >= 0.97, [(t["path"], t["line"], t["name"], t["kind"]) for t in agreement.misses[:20]]
