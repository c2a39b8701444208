"""The file tools' security layer, attacked: paths that leave the declared roots (``..``, absolute,
symlinks, NUL bytes, over-long), writes into .git, credential files or through a link, binary and
huge files, stale and malformed preconditions, two edits racing for one file, a file changed
between the plan and the write, and a search's ripgrep child killed when its call is cancelled.
Every refusal is typed and changes nothing."""

from __future__ import annotations

import asyncio
import hashlib
import os
from pathlib import Path

import pytest
from codecairn import subprocesses
from codecairn.errors import ToolError
from codecairn.files import writing
from codecairn.files.roots import DeclaredRoots
from codecairn.workspace import Workspace
from realcode import answers

pytestmark = pytest.mark.anyio

SECRET = "SECRET-0c1d2e"


@pytest.fixture
def tree(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / "proj"
    (root / "src").mkdir(parents=True)
    (root / "src" / "main.py").write_text("def main():\n    return 1\n")
    (root / ".git").mkdir()
    (root / ".git" / "config").write_text("[core]\n")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text(SECRET + "\n")
    return root, outside


@pytest.fixture
async def ws(tree: tuple[Path, Path], cache_dir: Path):
    workspace = await Workspace.open(str(tree[0]))
    await workspace.indexer.run()
    yield workspace
    await workspace.close()


async def call(ws, tool: str, **args) -> dict:
    return await answers(ws).call(tool, **args)


async def refused(ws, tool: str, **args) -> ToolError:
    with pytest.raises(ToolError) as caught:
        await call(ws, tool, **args)
    assert SECRET not in caught.value.message
    return caught.value


def snapshot(*dirs: Path) -> dict[str, bytes]:
    """Every file's bytes (links as their target's name): what "changes nothing" compares."""
    out = {}
    for d in dirs:
        for p in sorted(d.rglob("*")):
            if p.is_symlink():
                out[str(p)] = os.readlink(p).encode()
            elif p.is_file():
                out[str(p)] = p.read_bytes()
    return out


ESCAPES = [
    "../outside/secret.txt",
    "src/../../outside/secret.txt",
    "{outside}/secret.txt",
    "link_out/secret.txt",
    "secret_link.txt",
]


@pytest.mark.parametrize("given", ESCAPES)
async def test_no_tool_reads_or_writes_outside_the_roots(ws, tree, given: str) -> None:
    root, outside = tree
    (root / "link_out").symlink_to(outside, target_is_directory=True)
    (root / "secret_link.txt").symlink_to(outside / "secret.txt")
    before = snapshot(root, outside)
    path = given.format(outside=outside)
    attempts = [
        ("read", {"path": path}),
        ("read", {"path": path, "tail": 1}),
        ("file_hash", {"path": path}),
        ("validate_json", {"path": path}),
        ("search_text", {"pattern": "SECRET", "path": path}),
        ("list_files", {"path": path}),
        ("edit", {"path": path, "old_text": SECRET, "new_text": "x", "acknowledge_risk": True}),
        ("edit", {"path": path, "delete": True, "acknowledge_risk": True}),
    ]
    if "/" in path:  # a new file beside it: its directory is outside too
        new_file = path.rsplit("/", 1)[0] + "/new.txt"
        attempts.append(("edit", {"path": new_file, "create": True, "new_text": "x", "acknowledge_risk": True}))
    for tool, args in attempts:
        error = await refused(ws, tool, **args)
        assert error.code == "outside_workspace", (tool, error.code, error.message)
    assert snapshot(root, outside) == before


async def test_a_search_of_the_whole_root_does_not_follow_a_link_out(ws, tree) -> None:
    root, outside = tree
    (root / "link_out").symlink_to(outside, target_is_directory=True)
    found = await call(ws, "search_text", pattern=SECRET)
    assert found["matches"] == 0


@pytest.mark.parametrize(
    "given, words",
    [("src/\0main.py", "NUL"), ("a/" * 3000 + "x.py", "longer than"), ("", "empty")],
)
async def test_nul_bytes_over_long_and_empty_paths_are_refused(ws, given: str, words: str) -> None:
    for tool, args in [("read", {}), ("edit", {"create": True, "new_text": "x"})]:
        error = await refused(ws, tool, path=given, **args)
        assert error.code == "bad_argument" and words in error.message
        assert len(error.message) < 300, "the error quotes a short prefix at most"


async def test_a_link_inside_the_root_is_read_but_written_only_when_acknowledged(ws, tree) -> None:
    root, _ = tree
    (root / "alias.py").symlink_to(root / "src" / "main.py")
    assert (await call(ws, "read", path="alias.py"))["text"].startswith("def main")
    error = await refused(ws, "edit", path="alias.py", old_text="return 1", new_text="return 2")
    assert error.code == "risk_confirmation_required" and error.details["rule"] == "symlink"
    assert (root / "src" / "main.py").read_text() == "def main():\n    return 1\n"
    done = await call(ws, "edit", path="alias.py", old_text="return 1", new_text="return 2", acknowledge_risk=True)
    assert done["acknowledged"] == ["symlink"]
    assert (root / "alias.py").is_symlink(), "the link stays a link; its target is written"
    assert (root / "src" / "main.py").read_text() == "def main():\n    return 2\n"


@pytest.mark.parametrize(
    "path, rule",
    [
        (".git/config", "git_internals"),
        (".git/hooks/pre-commit", "git_internals"),
        (".env", "credentials"),
        (".env.local", "credentials"),
        ("deploy/server.pem", "credentials"),
        ("keys/id_ed25519", "credentials"),
        (".ssh/config", "credentials"),
        ("home/.aws/credentials", "credentials"),
        ("home/.gnupg/pubring.kbx", "credentials"),
        (".git-credentials", "credentials"),
        ("certs/client.key", "credentials"),
    ],
)
async def test_risky_places_need_acknowledge_risk(ws, tree, path: str, rule: str) -> None:
    root, _ = tree
    before = snapshot(root)
    how = {"delete": True} if (root / path).exists() else {"create": True, "new_text": "x\n"}
    error = await refused(ws, "edit", path=path, **how)
    assert error.code == "risk_confirmation_required" and error.details["rule"] == rule
    assert rule in error.message and "acknowledge_risk" in error.message
    assert snapshot(root) == before
    batch = await refused(
        ws,
        "edit_files",
        files=[{"path": "src/ok.py", "create": True, "new_text": "x\n"}, {"path": path, "delete": True}],
    )
    assert batch.code == "risk_confirmation_required" and snapshot(root) == before, "one risky file stops the batch"
    done = await call(ws, "edit", path=path, acknowledge_risk=True, **how)
    assert done["acknowledged"] == [rule]
    assert (root / path).exists() == ("create" in how)


async def test_binary_files_are_never_returned_nor_edited_as_text(ws, tree) -> None:
    root, _ = tree
    (root / "nul.txt").write_bytes(b"text then a NUL\x00 and more text\n")
    got = await call(ws, "read", path="nul.txt")
    assert got["binary"] is True and "text" not in got
    window = await call(ws, "read", path="nul.txt", start_byte=0, max_bytes=10)
    assert window["binary"] is True and "text" not in window
    error = await refused(ws, "edit", path="nul.txt", old_text="text", new_text="x", expected_occurrences=2)
    assert error.code == "bad_argument" and "binary" in error.message
    assert (root / "nul.txt").read_bytes() == b"text then a NUL\x00 and more text\n"
    assert (await call(ws, "search_text", pattern="more text"))["matches"] == 0, "a binary match is not shown"
    (root / "late.txt").write_bytes(b"plain line\n" * 2000 + b"then\x00binary\n")  # past the first 8 KiB
    assert (await call(ws, "read", path="late.txt", start_line=1990))["binary"] is True
    assert (await call(ws, "read", path="late.txt", tail=1))["binary"] is True
    assert (await call(ws, "read", path="late.txt", start_line=1, end_line=3))["text"] == "plain line\n" * 3


async def test_huge_files_are_read_in_bounded_windows_and_not_edited_whole(ws, tree) -> None:
    root, _ = tree
    line = "x" * 99 + "\n"
    with open(root / "big.log", "w") as fh:
        for _ in range(200):
            fh.write(line * 1000)  # 20 MB
    got = await call(ws, "read", path="big.log")
    assert got["truncated"] is True and len(got["text"].encode()) <= 64 * 1024
    assert got["total_lines"] == 200_000 and got["size_bytes"] == 20_000_000
    assert got["sha256"] == hashlib.sha256((root / "big.log").read_bytes()).hexdigest()
    assert (await call(ws, "read", path="big.log", tail=1))["start_line"] == 200_000
    with open(root / "huge.txt", "wb") as fh:
        fh.truncate(65 * 1024 * 1024)  # sparse: large without being written
    error = await refused(ws, "edit", path="huge.txt", insert_line=1, new_text="x\n")
    assert error.code == "bad_argument" and "larger than 64 MiB" in error.message


async def test_a_stale_or_malformed_expected_hash_is_refused_before_anything_changes(ws, tree) -> None:
    root, _ = tree
    target = root / "src" / "main.py"
    read = await call(ws, "read", path="src/main.py")
    target.write_text("def main():\n    return 10\n")  # changed by someone else since the read
    stale = await refused(
        ws, "edit", path="src/main.py", old_text="def main", new_text="def start", expected_hash=read["sha256"]
    )
    assert stale.code == "stale_precondition"
    for bad in ("abc", "g" * 64, "sha256:" + "0" * 63):
        malformed = await refused(
            ws, "edit", path="src/main.py", old_text="def main", new_text="def start", expected_hash=bad
        )
        assert malformed.code == "bad_argument" and "sha256" in malformed.message
    batch = await refused(
        ws,
        "edit_files",
        files=[
            {"path": "src/new.py", "create": True, "new_text": "x\n"},
            {"path": "src/main.py", "old_text": "def main", "new_text": "def go", "expected_hash": read["sha256"]},
        ],
    )
    assert batch.code == "stale_precondition" and not (root / "src" / "new.py").exists()
    assert target.read_text() == "def main():\n    return 10\n"
    assert (await call(ws, "history"))["entries"] == []


async def test_two_edits_racing_on_one_hash_only_one_wins(ws, tree) -> None:
    root, _ = tree
    sha = (await call(ws, "file_hash", path="src/main.py"))["sha256"]

    async def edit(value: str):
        try:
            return await call(
                ws, "edit", path="src/main.py", old_text="return 1", new_text=f"return {value}", expected_hash=sha
            )
        except ToolError as exc:
            return exc

    results = await asyncio.gather(edit("2"), edit("3"))
    won = [r for r in results if isinstance(r, dict)]
    lost = [r for r in results if isinstance(r, ToolError)]
    assert len(won) == 1 and len(lost) == 1 and lost[0].code == "stale_precondition"
    assert (root / "src" / "main.py").read_text() in ("def main():\n    return 2\n", "def main():\n    return 3\n")


def test_a_file_changed_between_plan_and_write_stops_the_whole_batch(tree) -> None:
    root, _ = tree
    roots = DeclaredRoots(root)
    first = writing.plan_file(roots.place("src/main.py"))
    first.after = b"def main():\n    return 2\n"
    second = writing.plan_file(roots.place("src/other.py"))
    second.after = b"X = 1\n"
    (root / "src" / "main.py").write_text("changed meanwhile\n")  # after the plan, before the write
    with pytest.raises(ToolError) as caught:
        writing.commit([second, first])
    assert caught.value.code == "stale_precondition"
    assert (root / "src" / "main.py").read_text() == "changed meanwhile\n"
    assert not (root / "src" / "other.py").exists()
    assert sorted(p.name for p in (root / "src").iterdir()) == ["main.py"], "no temporary file is left"


async def test_a_write_replaces_the_file_atomically(ws, tree) -> None:
    root, _ = tree
    target = root / "src" / "main.py"
    with open(target) as reader:  # a reader holding the file open sees the whole old content
        old_inode = os.fstat(reader.fileno()).st_ino
        await call(ws, "edit", path="src/main.py", old_text="return 1", new_text="return 2")
        assert reader.read() == "def main():\n    return 1\n"
    assert os.stat(target).st_ino != old_inode, "a new file renamed into place, not the old one rewritten"
    assert target.read_text() == "def main():\n    return 2\n"


async def test_a_cancelled_search_kills_its_ripgrep_child(ws, tree) -> None:
    root, _ = tree
    os.mkfifo(root / "pipe")  # ripgrep named it reads it, and blocks until a writer comes: it never does
    search = asyncio.create_task(call(ws, "search_text", pattern="x", path="pipe"))
    for _ in range(500):
        if subprocesses.running_children():
            break
        await asyncio.sleep(0.01)
    (pid,) = subprocesses.running_children()
    search.cancel()
    with pytest.raises(asyncio.CancelledError):
        await search
    assert subprocesses.running_children() == []
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # gone, and reaped (a zombie would still answer)


def test_only_allowlisted_programs_run() -> None:
    for name in ("sh", "bash", "python3", "rg;id", "/usr/bin/rg"):
        with pytest.raises(ValueError, match="not an allowed program"):
            subprocesses.program(name)
    assert Path(subprocesses.program("rg")).name == "rg"
