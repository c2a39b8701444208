"""The host loads built-in plugins, then entry points one by one: a broken third-party plugin is
reported with its distribution and skipped, and everything else still works."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from codecairn.host import PluginHost


def _fake_distribution(site: Path, dist: str, module: str, source: str | None) -> None:
    """A real installed-distribution layout (dist-info with entry points) on a path entry."""
    info = site / f"{dist.replace('-', '_')}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[codecairn]\n{dist} = {module}\n")
    if source is not None:
        (site / f"{module}.py").write_text(source)


def test_plugins_are_listed_with_distribution_languages_and_tools(codecairn_exe: str) -> None:
    out = subprocess.run([codecairn_exe, "plugins", "--json"], capture_output=True, text=True, timeout=60)
    info = json.loads(out.stdout)
    by_name = {p["name"]: p for p in info["plugins"]}
    assert by_name["python"]["distribution"] == "codecairn-python"
    assert by_name["python"]["languages"] == ["python"]
    assert by_name["python"]["version"]
    tools = {t for p in info["plugins"] for t in p.get("tools", [])}
    assert {"index", "find_symbols", "get_symbol", "read_symbol", "file_outline", "stats"} <= tools


def test_a_broken_plugin_is_reported_and_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    site = tmp_path / "site"
    _fake_distribution(site, "cc-broken-import", "cc_missing_module_xyz", None)
    _fake_distribution(
        site,
        "cc-garbage",
        "cc_garbage_plugin",
        "from codecairn.hookspecs import hookimpl\n\n@hookimpl\ndef codecairn_languages():\n    return 42\n"
        "\n@hookimpl\ndef codecairn_tools():\n    raise RuntimeError('boom')\n",
    )
    monkeypatch.syspath_prepend(str(site))
    host = PluginHost()
    failures = {f.distribution: f.error for f in host.failures}
    assert "ModuleNotFoundError" in failures["cc-broken-import"]
    assert any("boom" in f.error for f in host.failures if f.distribution == "cc-garbage")
    assert any("not a list of Language" in f.error for f in host.failures if f.distribution == "cc-garbage")
    assert "python" in host.languages, "the working plugins are still loaded"
    assert "find_symbols" in host.tools

    described = host.describe()
    assert {f["distribution"] for f in described["failed"]} >= {"cc-broken-import", "cc-garbage"}


def test_the_host_is_an_object_you_can_build_twice() -> None:
    a, b = PluginHost(), PluginHost()
    assert a.pm is not b.pm and set(a.tools) == set(b.tools)
    assert sys.modules["codecairn.tools.symbols"]


def test_a_slow_plugin_is_bounded_and_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    import codecairn.host as host_module

    site = tmp_path / "site"
    _fake_distribution(
        site,
        "cc-sleepy",
        "cc_sleepy_plugin",
        "import time\nfrom codecairn.hookspecs import hookimpl\n\n@hookimpl\n"
        "def codecairn_languages():\n    time.sleep(30)\n    return []\n",
    )
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setattr(host_module, "PLUGIN_TIMEOUT_SECONDS", 1.0)
    started = time.monotonic()
    host = PluginHost()
    assert time.monotonic() - started < 15, "start-up did not wait for the sleeping plugin"
    assert any(f.distribution == "cc-sleepy" and "longer than" in f.error for f in host.failures)
    assert "python" in host.languages


def test_plugins_declare_their_languages_side_by_side(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each plugin's hook runs in a thread of its own, all at once: two plugins that each wait
    for the other (as two grammar packs each wait for their query check) both load. One after the
    other, the first would give up waiting and be reported."""
    import threading

    import codecairn.host as host_module

    meeting = threading.Barrier(2, timeout=10)
    site = tmp_path / "site"
    for n in (1, 2):
        _fake_distribution(
            site,
            f"cc-waiting-{n}",
            f"cc_waiting_{n}",
            "import threading\nfrom codecairn.hookspecs import hookimpl\nmeeting = None\n\n@hookimpl\n"
            "def codecairn_languages():\n    meeting.wait()\n    return []\n",
        )
    monkeypatch.syspath_prepend(str(site))
    for n in (1, 2):
        module = __import__(f"cc_waiting_{n}")
        monkeypatch.setattr(module, "meeting", meeting)
    monkeypatch.setattr(host_module, "PLUGIN_TIMEOUT_SECONDS", 20.0)
    host = PluginHost()
    assert not [f for f in host.failures if f.distribution.startswith("cc-waiting")], host.failures
    assert {"cc-waiting-1", "cc-waiting-2"} <= {p.distribution for p in host.plugins.values()}


def test_an_extractor_named_by_import_path_is_checked_at_load(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Extractors named "module:function" are imported only in the parse workers; one that is not
    installed is reported when the host loads, not once per file."""
    declare = (
        "import tree_sitter_python\nfrom codecairn.hookspecs import ImportedOnCall, Language, hookimpl\n\n"
        "@hookimpl\ndef codecairn_languages():\n    return [Language(name={name!r}, extensions=({ext!r},), "
        "grammar=tree_sitter_python.language, extractor=ImportedOnCall({target!r}))]\n"
    )
    site = tmp_path / "site"
    _fake_distribution(
        site,
        "cc-lazy-missing",
        "cc_lazy_missing",
        declare.format(name="ghost", ext=".ghost", target="cc_no_such_extractor:extract"),
    )
    _fake_distribution(
        site, "cc-lazy-bad", "cc_lazy_bad", declare.format(name="badform", ext=".badform", target="no colon here")
    )
    _fake_distribution(
        site,
        "cc-lazy-good",
        "cc_lazy_good",
        declare.format(name="pyagain", ext=".pyagain", target="codecairn_python.extractor:extract"),
    )
    monkeypatch.syspath_prepend(str(site))
    host = PluginHost()
    failures = {f.distribution: f.error for f in host.failures}
    assert "cc_no_such_extractor" in failures["cc-lazy-missing"] and "ghost" not in host.languages
    assert "package.module:function" in failures["cc-lazy-bad"] and "badform" not in host.languages
    good = host.languages["pyagain"]
    import tree_sitter

    tree = tree_sitter.Parser(tree_sitter.Language(good.grammar())).parse(b"def f():\n    return 1\n")
    facts = good.extractor(b"def f():\n    return 1\n", tree, "m.pyagain")
    assert [s.name for s in facts.symbols if s.kind == "function"] == ["f"]
