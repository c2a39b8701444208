"""What every grammar pack promises the host: a declared language, a picklable extractor that says
it is the tags extractor, partial facts from broken files, and clear errors from broken queries."""

import os
import pickle
import subprocess
import sys

import pytest
import tree_sitter_c
from codecairn.extractors.packs import GrammarPackError, bundled_tags, grammar_pack

EXPECTED = {
    "c": {".c", ".h"},
    "cpp": {".cc", ".cpp", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++"},
    "csharp": {".cs"},
    "ruby": {".rb", ".rake", ".gemspec", ".ru"},
    "php": {".php"},
}


@pytest.mark.parametrize("pack", sorted(EXPECTED))
def test_each_pack_declares_a_language_through_its_hook(packs, pack):
    lang = packs.language(pack)

    assert lang.name == pack
    assert set(lang.extensions) == EXPECTED[pack]
    assert lang.depth == "tags"  # answers about these files say the facts are shallow
    assert pickle.loads(pickle.dumps(lang)) == lang  # the whole declaration travels to workers
    assert pickle.loads(pickle.dumps(lang.grammar))() is not None


def test_no_two_packs_claim_the_same_extension(packs):
    seen: dict[str, str] = {}
    for pack in EXPECTED:
        for ext in packs.language(pack).extensions:
            assert ext not in seen, f"{ext} claimed by {seen[ext]} and {pack}"
            seen[ext] = pack


# A fresh interpreter, as a worker process is: it gets the extractor by pickle, nothing is compiled
# there yet, and the query must be compiled from the pickled source.
WORKER = """
import pickle, sys
import tree_sitter_ruby
from tree_sitter import Language, Parser

extractor, source = pickle.load(sys.stdin.buffer)
tree = Parser(Language(tree_sitter_ruby.language())).parse(source)
pickle.dump(extractor(source, tree, "worker.rb"), sys.stdout.buffer)
"""


def test_the_extractor_runs_in_a_fresh_worker_process(packs):
    source = b"class Greeter\n  def hello(name)\n    puts name\n  end\nend\n"
    extractor = packs.language("ruby").extractor

    worker = subprocess.run(
        [sys.executable, "-c", WORKER],
        input=pickle.dumps((extractor, source)),
        capture_output=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        timeout=60,
        check=True,
    )
    remote = pickle.loads(worker.stdout)

    assert remote == packs.extract("ruby", source)
    assert [s.qualified_name for s in remote.symbols] == ["Greeter", "Greeter::hello"]
    assert remote.extractor == "tags"


C_WORKER = """
import pickle, sys
import tree_sitter_c
from tree_sitter import Language, Parser

extractor, source = pickle.load(sys.stdin.buffer)
tree = Parser(Language(tree_sitter_c.language())).parse(source)
pickle.dump(extractor(source, tree, "worker.c"), sys.stdout.buffer)
"""


def test_a_packs_repair_of_the_parse_travels_to_a_fresh_worker_by_name(packs):
    # The C pack blanks macro-only lines before its query runs (codecairn_grammar_c.macros): the
    # extractor pickles that function by name, and a worker that imported nothing yet gets it too.
    source = (
        b"Z_BEGIN_DECLS\nstruct later { int x; };\nint visible(void) { return 1; }\n"  # unrepaired: a function "struct"
    )
    extractor = packs.language("c").extractor

    worker = subprocess.run(
        [sys.executable, "-c", C_WORKER],
        input=pickle.dumps((extractor, source)),
        capture_output=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        timeout=60,
        check=True,
    )
    remote = pickle.loads(worker.stdout)

    assert remote == packs.extract("c", source)
    assert [(s.kind, s.name) for s in remote.symbols] == [("struct", "later"), ("field", "x"), ("function", "visible")]


def test_a_file_with_syntax_errors_still_gives_what_is_outside_the_error(packs):
    code = "class Good\n  def fine; end\nend\n\ndef broken(\n  ]]]\nend\n\nclass AlsoGood; end\n"
    facts = packs.extract("ruby", code)

    assert facts.partial
    assert {"Good", "Good::fine", "AlsoGood"} <= {s.qualified_name for s in facts.symbols}


def test_a_broken_pack_query_names_the_pack_the_file_and_the_position(tmp_scm):
    scm = tmp_scm("; extra definitions\n(function_definition) @definition.function\n  (no_such_node) @name\n")

    with pytest.raises(GrammarPackError) as error:
        grammar_pack("broken-c", (".c",), module="tree_sitter_c", queries=[scm])

    message = str(error.value)
    assert "'broken-c'" in message and str(scm) in message
    assert "line 3, column 4" in message and "no_such_node" in message


def test_an_unclosed_pattern_is_reported_against_its_file(tmp_scm):
    scm = tmp_scm("(function_definition\n")

    with pytest.raises(GrammarPackError, match=r"'broken-c'.*broken\.scm"):
        grammar_pack("broken-c", (".c",), module="tree_sitter_c", queries=[scm])


def test_a_missing_grammar_package_is_a_clear_error():
    with pytest.raises(GrammarPackError, match=r"'cobol'.*tree_sitter_cobol"):
        grammar_pack("cobol", (".cob",), module="tree_sitter_cobol")


def test_bundled_tags_are_found_even_where_the_package_misplaces_them():
    # tree-sitter-c-sharp 0.23 installs queries/ beside its package, so its TAGS_QUERY is None.
    label, text = bundled_tags("tree_sitter_c_sharp")
    assert label.endswith("queries/tags.scm") and "@definition.class" in text
    assert bundled_tags("tree_sitter_c")[1] == tree_sitter_c.TAGS_QUERY


def test_a_pack_can_be_just_the_bundled_tags():
    # The smallest grammar pack: a grammar package and its own tags.scm, nothing else.
    ruby = grammar_pack("ruby-plain", (".rb",), module="tree_sitter_ruby")
    from tree_sitter import Language, Parser

    source = b"module Shop\n  class Cart\n    def total; sum(items); end\n  end\nend\n"
    facts = ruby.extractor(source, Parser(Language(ruby.grammar())).parse(source), "cart.rb")

    assert [(s.kind, s.qualified_name) for s in facts.symbols] == [
        ("module", "Shop"),
        ("class", "Shop.Cart"),
        ("method", "Shop.Cart.total"),
    ]
    # `items` may be a method or a local variable: tags.scm leaves that to `(#is-not? local)`,
    # which codecairn does not evaluate, so the pattern is off and only `sum(...)` is a call.
    assert {(r.target, facts.symbols[r.source].name) for r in facts.relations} == {("sum", "total")}


# A fresh interpreter with a fresh cache: the C# pack's query has never been checked there. Prints
# how much of the C# grammar's library is resident once the pack is loaded, and whether the check
# was remembered.
FIRST_LOAD = """
from codecairn.host import PluginHost

assert "csharp" in PluginHost().languages
resident = 0
mapping = ""
with open("/proc/self/smaps") as smaps:
    for line in smaps:
        first = line.split()
        if "-" in first[0] and len(first) >= 6:
            mapping = first[5]
        elif line.startswith("Rss:") and "tree_sitter_c_sharp" in mapping:
            resident += int(first[1])
print(resident)
"""


def test_a_first_load_checks_pack_queries_without_keeping_their_grammars_in_memory(tmp_path):
    # Compiling C#'s tags query reads megabytes of its grammar; the server would keep those pages
    # for good (13 MB for the five packs). A child process checks the query instead.
    env = {**os.environ, "CODECAIRN_CACHE_DIR": str(tmp_path / "cache")}
    first = subprocess.run([sys.executable, "-c", FIRST_LOAD], env=env, capture_output=True, text=True, check=True)
    checked = list((tmp_path / "cache" / "checked-queries").iterdir())

    assert int(first.stdout) < 2048, f"{first.stdout.strip()} KiB of the C# grammar resident after loading the pack"
    assert any(p.name.startswith("csharp-") for p in checked)  # remembered: the next start checks nothing
