"""codecairn finds Python through the plugin hook and can run its extractor anywhere."""

from __future__ import annotations

import pickle

import codecairn_python.plugin
import pluggy
from codecairn.hookspecs import PROJECT, CodecairnSpecs
from tree_sitter import Language, Parser


def test_the_plugin_adds_python_for_py_and_pyi_files():
    manager = pluggy.PluginManager(PROJECT)
    manager.add_hookspecs(CodecairnSpecs)
    manager.register(codecairn_python.plugin, name="python")

    [languages] = manager.hook.codecairn_languages()
    [python] = languages
    assert python.name == "python"
    assert python.extensions == (".py", ".pyi")
    assert (python.resolution.separator, python.resolution.implicit_members, python.resolution.directory_scope) == (
        ".",
        False,
        False,
    )
    assert python.resolution.self_names == ("self", "cls")
    assert python.resolution.super_names == ("super()", "super")

    # everything in it crosses into a worker process
    python = pickle.loads(pickle.dumps(python))
    source = b"class Greeter:\n    def hello(self):\n        print('hi')\n"
    facts = python.extractor(source, Parser(Language(python.grammar())).parse(source), "app/greet.py")
    assert [s.qualified_name for s in facts.symbols] == ["app.greet", "app.greet.Greeter", "app.greet.Greeter.hello"]
    assert facts.extractor == "python"
