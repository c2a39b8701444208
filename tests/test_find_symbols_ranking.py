"""Name search over real standard-library code: what ranks first, case, substrings of every
length, globs, limits, and answers that follow edits (the substring index is kept current)."""

from __future__ import annotations

from pathlib import Path

import pytest
from codecairn.workspace import Workspace
from realcode import answers

pytestmark = pytest.mark.anyio


def names(answer: dict) -> list[str]:
    return [r["qualified_name"] for r in answer["results"]]


@pytest.fixture
async def ws(stdlib_part: Path, cache_dir: Path):
    """A workspace over the standard-library part, indexed."""
    workspace = await Workspace.open(stdlib_part)
    try:
        await workspace.index_now()
        yield workspace
    finally:
        await workspace.close()


async def test_exact_then_prefix_then_substring_and_types_first_within_each(ws: Workspace) -> None:
    answer = await answers(ws).find_symbols(name="jsondecoder", limit=50)
    found = names(answer)
    assert found[0] == "json.decoder.JSONDecoder"  # exact, case-insensitive

    decode = await answers(ws).find_symbols(name="decode", limit=500)
    ranked = [(r["name"].lower(), r["kind"]) for r in decode["results"]]
    tiers = [0 if n == "decode" else 1 if n.startswith("decode") else 2 for n, _ in ranked]
    assert tiers == sorted(tiers) and set(tiers) == {0, 1, 2}
    assert all("decode" in n for n, _ in ranked)
    substring = [kind for (n, kind), tier in zip(ranked, tiers) if tier == 2]
    kinds_order = [0 if k == "class" else 1 for k in substring if k in ("class", "function", "method")]
    assert kinds_order == sorted(kinds_order), "classes before functions within a tier"
    assert any(n == "jsondecodeerror" for n, _ in ranked)  # 'decode' in the middle of a name


async def test_substrings_of_any_length_globs_and_limits(ws: Workspace) -> None:
    rows = ws.state.symbols.rows.values()
    for needle in ("pa", "arse", "ENCODE", "quote_"):  # short needles scan; longer ones use trigrams
        expected = {s.id for s in rows if needle.lower() in s.name.lower()}
        answer = await answers(ws).find_symbols(name=needle, limit=100000)
        assert {ws.state.symbols.by_qn[q][0] for q in names(answer)} <= expected
        assert len(answer["results"]) == len(expected) and answer["complete"]

    # Names that only contain the needle are counted when they reach the answer...
    inside = await answers(ws).find_symbols(name="arse", limit=3)
    assert len(inside["results"]) == 3 and not inside["complete"] and inside["limit_reached"]
    assert inside["total"] == sum(1 for s in rows if "arse" in s.name.lower())

    # ...and not when exact and prefix matches fill the answer: then the total never overstates.
    for needle in ("parse", "q"):
        limited = await answers(ws).find_symbols(name=needle, limit=3)
        starting = sum(1 for s in rows if s.name.lower().startswith(needle))
        containing = sum(1 for s in rows if needle in s.name.lower())
        assert len(limited["results"]) == 3 and not limited["complete"] and limited["limit_reached"]
        assert all(r["name"].lower().startswith(needle) for r in limited["results"])
        assert "total" not in limited and starting <= limited["total_at_least"] <= containing

    glob = await answers(ws).find_symbols(pattern="*Decode*Error", limit=50)
    assert "json.decoder.JSONDecodeError" in names(glob)
    assert all(r["name"].lower().endswith("error") for r in glob["results"])


async def test_substring_search_follows_added_and_removed_symbols(ws: Workspace, stdlib_part: Path) -> None:
    assert not (await answers(ws).find_symbols(name="zyxwvu"))["results"]  # builds the substring index
    module = stdlib_part / "textwrap.py"
    original = module.read_text()
    module.write_text(original + "\n\nclass HelperZyxwvuThing:\n    pass\n")
    await ws.index_now()
    assert names(await answers(ws).find_symbols(name="zyxwvu")) == ["textwrap.HelperZyxwvuThing"]

    module.write_text(original)
    await ws.index_now()
    assert not (await answers(ws).find_symbols(name="zyxwvu"))["results"]


async def test_after_edits_every_kind_of_name_search_answers_as_a_fresh_server_would(
    stdlib_part: Path, cache_dir: Path
) -> None:
    """Name search is kept current edit by edit (not rebuilt): after additions, renames and
    removals, exact, prefix, substring, glob and count answers equal those of a server that
    loads the same index from scratch."""
    queries = [
        {"name": "decode"},
        {"name": "Zyx"},
        {"name": "zyxwv"},
        {"name": "helper", "limit": 3},
        {"name": "e", "limit": 5},
        {"pattern": "*Zyx*"},
        {"pattern": "dec*", "limit": 50},
        {"name": "JSONDecoder"},
        {"name": "wrap", "limit": 2},
    ]
    ws = await Workspace.open(stdlib_part)
    try:
        await ws.index_now()
        for q in queries:  # builds every search structure before the edits
            await answers(ws).find_symbols(**q)
        textwrap, decoder = stdlib_part / "textwrap.py", stdlib_part / "json" / "decoder.py"
        textwrap.write_text(textwrap.read_text() + "\n\nclass ZyxHelper:\n    def decode_zyx(self):\n        pass\n")
        await ws.index_now()
        source = decoder.read_text()
        decoder.write_text(
            source.replace("def raw_decode(", "def zyxwv_raw_decode(").replace(
                "class JSONDecoder", "class JSONDecoderZyx"
            )
        )
        await ws.index_now()
        (stdlib_part / "shlex.py").unlink()
        await ws.index_now()
        after_edits = [await answers(ws).find_symbols(**q) for q in queries]
    finally:
        await ws.close()
    fresh = await Workspace.open(stdlib_part)
    try:
        from_scratch = [await answers(fresh).find_symbols(**q) for q in queries]
    finally:
        await fresh.close()
    for q, edited, scratch in zip(queries, after_edits, from_scratch, strict=True):
        edited.pop("generation", None)
        scratch.pop("generation", None)
        assert edited == scratch, q
    assert "textwrap.ZyxHelper" in names(after_edits[1]) and "json.decoder.JSONDecoderZyx" in names(after_edits[1])
    assert not any(r["name"] == "JSONDecoder" for r in after_edits[7]["results"])
