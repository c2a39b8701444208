"""A project's own settings (.codecairn/config.toml, or [tool.codecairn] in pyproject.toml): what it
excludes and which languages it indexes, its limits, the environment winning over it, and a file
that is wrong refused with its file and key — by `index`, by `serve`, reported by `doctor`."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from codecairn.config import ConfigError, load
from codecairn.workspace import Workspace
from rawwire import RawServer, tool_call
from realcode import answers, listed


def run(exe: str, cache: Path, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([exe, "--cache-dir", str(cache), *args], capture_output=True, text=True, timeout=120, cwd=cwd)


def _project(root: Path, config: str, where: str = ".codecairn/config.toml") -> Path:
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "core.py").write_text("def kept():\n    return 1\n")
    (root / "generated").mkdir()
    (root / "generated" / "table.py").write_text("def generated_table():\n    return 2\n")
    (root / "pkg" / "big.py").write_text("def too_big():\n    return 3\n" + "# padding\n" * 40)
    (root / "server.go").write_text("package main\n\nfunc GoMain() {}\n")
    target = root / where
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(config)
    return root


CONFIG = """
exclude = ["generated/"]
languages = ["python"]
[limits]
max_file_bytes = 200
"""


@pytest.mark.anyio
@pytest.mark.parametrize("where", [".codecairn/config.toml", "pyproject.toml"])
async def test_excludes_languages_and_file_size_come_from_the_project(
    tmp_path: Path, cache_dir: Path, where: str
) -> None:
    text = (
        CONFIG
        if where != "pyproject.toml"
        else '[project]\nname = "p"\n[tool.codecairn]\n' + CONFIG.replace("[limits]", "[tool.codecairn.limits]")
    )
    root = _project(tmp_path / "p", text, where)
    ws = await Workspace.open(root)
    try:
        summary = await ws.index_now()
        assert sorted(ws.state.files_by_path) == ["pkg/core.py"]
        assert summary.skipped == {"larger than 200 bytes": 1}
        asked = answers(ws)
        assert [e["name"] for e in listed((await asked.find_symbols(name="kept"))["results"])] == ["kept"]
        for excluded in ("generated_table", "GoMain", "too_big"):
            assert not (await asked.find_symbols(name=excluded))["results"], excluded
    finally:
        await ws.close()


@pytest.mark.anyio
async def test_what_a_new_exclude_names_leaves_the_index_and_the_environment_wins_over_the_file(
    tmp_path: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _project(tmp_path / "p", "")
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        assert "generated/table.py" in ws.state.files_by_path and "server.go" in ws.state.files_by_path
    finally:
        await ws.close()
    (root / ".codecairn" / "config.toml").write_text(CONFIG)
    monkeypatch.setenv("CODECAIRN_MAX_FILE_BYTES", "100000")
    ws = await Workspace.open(root)
    try:
        summary = await ws.index_now()
        assert sorted(ws.state.files_by_path) == ["pkg/big.py", "pkg/core.py"] and summary.deleted == 2
    finally:
        await ws.close()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('exclude = ["a/"]\nexcludes = ["b/"]\n', "unknown key 'excludes'"),
        ("[limits]\nresponse_byte = 1000\n", "unknown key 'limits.response_byte'"),
        ('exclude = "generated/"\n', "exclude must be a list of gitignore patterns, not str 'generated/'"),
        ('[limits]\ntool_timeout_seconds = "30"\n', "limits.tool_timeout_seconds must be a number, not str '30'"),
        ("[limits]\nmax_file_bytes = 1.5\n", "limits.max_file_bytes must be an integer, not float 1.5"),
        ("embed = 1\n", "embed must be true or false, not int 1"),
        ("[limits]\nresponse_bytes = 10\n", "limits.response_bytes must be at least 1000, not 10"),
        ("exclude = [\n", "not valid TOML"),
    ],
)
def test_a_wrong_key_or_type_is_an_error_naming_the_file_and_the_key(tmp_path: Path, text: str, expected: str) -> None:
    config = tmp_path / ".codecairn" / "config.toml"
    config.parent.mkdir()
    config.write_text(text)
    with pytest.raises(ConfigError) as caught:
        load(tmp_path)
    assert str(caught.value).startswith(str(config)) and expected in str(caught.value)


@pytest.mark.anyio
async def test_a_language_that_is_not_installed_is_refused_before_anything_is_opened(
    tmp_path: Path, cache_dir: Path
) -> None:
    root = _project(tmp_path / "p", 'languages = ["python", "pyhton"]\n')
    with pytest.raises(ConfigError, match="languages: 'pyhton' is not an installed language"):
        await Workspace.open(root)
    assert not list(cache_dir.rglob("*.db"))  # no index database was created


def test_both_places_at_once_is_an_error_and_no_file_is_every_default(tmp_path: Path) -> None:
    assert load(tmp_path).source == "" and load(tmp_path).response_bytes == 200_000
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "p"\n')  # no [tool.codecairn]: nothing set
    assert load(tmp_path).source == ""
    (tmp_path / "pyproject.toml").write_text("[tool.codecairn]\nembed = false\n")
    assert load(tmp_path).embed is False and "[tool.codecairn]" in load(tmp_path).source
    (tmp_path / ".codecairn").mkdir()
    (tmp_path / ".codecairn" / "config.toml").write_text("embed = true\n")
    with pytest.raises(ConfigError, match="keep one of them"):
        load(tmp_path)


def test_index_and_serve_refuse_a_wrong_file_and_doctor_reports_it(tmp_path: Path, codecairn_exe: str) -> None:
    root = _project(tmp_path / "p", '[limits]\nsearch_timeout = 5\nlanguages = ["python"]\n')
    cache = tmp_path / "cache"
    config = root / ".codecairn" / "config.toml"
    indexed = run(codecairn_exe, cache, "index", str(root), "--no-embed")
    assert indexed.returncode == 2 and not indexed.stdout
    assert f"{config}: unknown key 'limits.search_timeout'" in indexed.stderr
    assert not (cache / "workspaces").exists() or not any((cache / "workspaces").iterdir())  # nothing written
    served = subprocess.run(
        [codecairn_exe, "--cache-dir", str(cache), "serve", str(root)],
        input="",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert served.returncode == 2 and "unknown key 'limits.search_timeout'" in served.stderr

    doctor = run(codecairn_exe, cache, "doctor", str(root), "--json")
    report = json.loads(doctor.stdout)
    (check,) = [c for c in report["checks"] if c["check"] == "config"]
    assert doctor.returncode == 1 and not check["ok"]
    assert "limits.search_timeout" in check["found"] and "docs/configuration.md" in check["fix"]

    config.write_text('languages = ["python"]\nembed = false\n[limits]\nsearch_timeout_seconds = 5\n')
    doctor = run(codecairn_exe, cache, "doctor", "--json", cwd=root)  # the current directory by default
    (check,) = [c for c in json.loads(doctor.stdout)["checks"] if c["check"] == "config"]
    assert check["ok"] and 'languages=["python"]' in check["found"] and "search_timeout_seconds" in check["found"]
    indexed = run(codecairn_exe, cache, "index", str(root), "--json")  # no vectors: the project said so
    summary = json.loads(indexed.stdout)
    assert indexed.returncode == 0 and summary["languages"] == {"python": 3} and "embeddings" not in summary


def test_the_served_answer_budget_comes_from_the_project(tmp_path: Path, cache_dir: Path) -> None:
    root = _project(tmp_path / "p", "[limits]\nresponse_bytes = 1500\n")
    (root / "pkg" / "codecs.py").write_text("".join(f"def decode_{i}(data):\n    return data\n\n" for i in range(50)))
    with RawServer(root, cache_dir, "--no-watch", "--no-embed") as server:
        server.initialize()
        server.send(tool_call("index", "index", {}))
        server.reply("index")
        server.send(tool_call("big", "find_symbols", {"name": "decode", "match": "substring", "limit": 50}))
        text = server.reply("big")["result"]["content"][0]["text"]
        server.close()
    answer = json.loads(text)
    assert answer["error"] == "too_large" and "larger than 1500 bytes" in answer["message"]
