"""Installing codecairn-typescript adds three languages the host discovers through the
`codecairn` entry point; their extractor runs in worker processes, so it must pickle."""

import pickle
import tomllib
from pathlib import Path

from codecairn.hookspecs import Language
from codecairn_typescript import plugin


def test_the_plugin_declares_typescript_tsx_and_javascript():
    languages = {lang.name: lang for lang in plugin.codecairn_languages()}
    assert set(languages) == {"typescript", "tsx", "javascript"}
    assert languages["typescript"].extensions == (".ts", ".mts", ".cts")
    assert languages["tsx"].extensions == (".tsx",)
    assert languages["javascript"].extensions == (".js", ".jsx", ".mjs", ".cjs")
    for lang in languages.values():
        assert isinstance(lang, Language)
        assert (lang.resolution.separator, lang.resolution.implicit_members, lang.resolution.directory_scope) == (
            ".",
            False,
            False,
        )
        assert (lang.resolution.self_names, lang.resolution.super_names) == (("this",), ("super",))
        assert lang.extractor is languages["typescript"].extractor  # one extractor for all three
    # JavaScript is parsed with the TSX grammar (JSX included)
    assert languages["javascript"].grammar is languages["tsx"].grammar


def test_languages_and_facts_survive_pickling(extract):
    for lang in plugin.codecairn_languages():
        assert pickle.loads(pickle.dumps(lang)) == lang
    facts = extract("export class A { m() { this.n(); } }\n").facts
    assert pickle.loads(pickle.dumps(facts)) == facts


def test_the_entry_point_names_the_plugin_module():
    project = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())
    assert project["project"]["name"] == "codecairn-typescript"
    assert project["project"]["entry-points"]["codecairn"] == {"typescript": "codecairn_typescript.plugin"}
