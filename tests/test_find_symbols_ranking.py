"""Name search over real standard-library code: what ranks first, case, substrings of every
length, globs, limits, and answers that follow edits (the substring index is kept current)."""

from __future__ import annotations

from pathlib import Path

import pytest
from codecairn.errors import ToolError
from codecairn.workspace import Workspace
from realcode import answers, listed, python_qualified

pytestmark = pytest.mark.anyio


def names(answer: dict) -> list[str]:
    return [python_qualified(r) for r in listed(answer["results"])]


def short(name: str) -> str:
    return name.rsplit(".", 1)[-1].lower()


@pytest.fixture
async def ws(stdlib_part: Path, cache_dir: Path):
    """A workspace over the standard-library part, indexed."""
    workspace = await Workspace.open(stdlib_part)
    try:
        await workspace.index_now()
        yield workspace
    finally:
        await workspace.close()


async def test_exact_matches_are_listed_and_the_rest_counted(ws: Workspace) -> None:
    rows = ws.state.symbols.rows.values()
    answer = await answers(ws).find_symbols(name="jsondecoder", limit=50)
    assert names(answer) == ["json.decoder.JSONDecoder"]  # exact, case-insensitive, and only it
    decode = await answers(ws).find_symbols(name="decode", limit=500)
    assert {short(n) for n in names(decode)} == {"decode"}
    # What was not listed is counted, so an agent knows to ask for it (match: prefix | substring).
    assert decode["not_listed"]["prefix"] == sum(
        1 for s in rows if s.name.lower().startswith("decode") and s.name.lower() != "decode"
    )
    assert decode["not_listed"]["substring"] == sum(
        1 for s in rows if "decode" in s.name.lower() and not s.name.lower().startswith("decode")
    )
    prefix = await answers(ws).find_symbols(name="decode", match="prefix", limit=500)
    assert {short(n) for n in names(prefix)} > {"decode"}
    assert all(short(n).startswith("decode") for n in names(prefix)) and "prefix" not in prefix.get("not_listed", {})


async def test_a_name_with_its_qualifier_finds_the_symbols_it_qualifies(ws: Workspace) -> None:
    rows = ws.state.symbols.rows.values()
    decode = await answers(ws).find_symbols(name="JSONDecoder.decode")
    assert names(decode) == ["json.decoder.JSONDecoder.decode"]
    assert names(await answers(ws).find_symbols(name="json.decoder.jsondecoder")) == ["json.decoder.JSONDecoder"]
    # the qualifier as written, the last part by the usual tiers (every Logger method starting "warn")
    warn = await answers(ws).find_symbols(name="Logger.warn", match="prefix", limit=50)
    expected = {
        s.qualified_name for s in rows if s.qualified_name.startswith("logging.Logger.") and s.name.startswith("warn")
    }
    assert set(names(warn)) == expected and len(expected) >= 2
    # a module is found by its dotted name, as before
    assert names(await answers(ws).find_symbols(name="json.decoder", kinds=["module"])) == ["json.decoder"]
    assert (await answers(ws).find_symbols(name="NoSuchClass.decode"))["results"] == {}


async def test_a_kind_no_language_has_is_refused_with_the_kinds_there_are(ws: Workspace) -> None:
    for tool, args in (("find_symbols", {"name": "decode"}), ("file_outline", {"path": "json/decoder.py"})):
        for wrong in ("Function", "nonsense"):
            with pytest.raises(ToolError) as caught:
                await answers(ws).call(tool, kinds=[wrong], **args)
            assert caught.value.code == "bad_argument" and repr(wrong) in caught.value.message
            assert {"function", "class", "method"} <= set(caught.value.details["kinds"])
    # a kind of the model that this index holds none of is an empty answer, not a mistake
    assert (await answers(ws).find_symbols(name="decode", kinds=["trait"]))["results"] == {}


async def test_exact_then_prefix_then_substring_and_types_first_within_each(ws: Workspace) -> None:
    decode = await answers(ws).find_symbols(name="decode", match="substring", limit=500)
    # Grouped by file: each group in rank order, the groups where their first symbol ranks.
    all_tiers = set()
    for entries in decode["results"].values():
        ranked = [(short(r["name"]), r["kind"]) for r in entries]
        tiers = [0 if n == "decode" else 1 if n.startswith("decode") else 2 for n, _ in ranked]
        assert tiers == sorted(tiers)
        all_tiers.update(tiers)
        assert all("decode" in n for n, _ in ranked)
        substring = [kind for (n, kind), tier in zip(ranked, tiers) if tier == 2]
        kinds_order = [0 if k == "class" else 1 for k in substring if k in ("class", "function", "method")]
        assert kinds_order == sorted(kinds_order), "classes before functions within a tier"
    assert all_tiers == {0, 1, 2}
    first_group = next(iter(decode["results"].values()))
    assert short(first_group[0]["name"]) == "decode"
    assert "json.decoder.JSONDecodeError" in names(decode)  # 'decode' in the middle of a name


async def test_substrings_of_any_length_globs_and_limits(ws: Workspace) -> None:
    rows = ws.state.symbols.rows.values()
    for needle in ("pa", "arse", "ENCODE", "quote_"):  # short needles scan; longer ones use trigrams
        expected = {s.id for s in rows if needle.lower() in s.name.lower()}
        answer = await answers(ws).find_symbols(name=needle, match="substring", limit=100000)
        assert {sid for q in names(answer) for sid in ws.state.symbols.by_qn[q]} <= expected
        assert len(listed(answer["results"])) == len(expected) and "limit_reached" not in answer

    # Names that only contain the needle are counted when they reach the answer...
    inside = await answers(ws).find_symbols(name="arse", limit=3)
    assert len(listed(inside["results"])) == 3 and not inside["complete"] and inside["limit_reached"]
    assert inside["total"] == sum(1 for s in rows if "arse" in s.name.lower())

    # ...and not when exact and prefix matches fill the answer: then the total never overstates.
    for needle in ("parse", "q"):
        limited = await answers(ws).find_symbols(name=needle, match="substring", limit=3)
        starting = sum(1 for s in rows if s.name.lower().startswith(needle))
        containing = sum(1 for s in rows if needle in s.name.lower())
        assert len(listed(limited["results"])) == 3 and not limited["complete"] and limited["limit_reached"]
        assert all(short(r["name"]).startswith(needle) for r in listed(limited["results"]))
        assert "total" not in limited and starting <= limited["total_at_least"] <= containing

    glob = await answers(ws).find_symbols(pattern="*Decode*Error", limit=50)
    assert "json.decoder.JSONDecodeError" in names(glob)
    assert all(r["name"].lower().endswith("error") for r in listed(glob["results"]))
    # Smart case: capitals in the pattern match case-sensitively (`[A-Z]*` asks for capitalised names);
    # a pattern in lower case matches any case
    capitalised = await answers(ws).find_symbols(pattern="[A-Z]*", limit=1000)
    assert capitalised.get("total", len(listed(capitalised["results"]))) == sum(1 for s in rows if s.name[:1].isupper())
    anycase = await answers(ws).find_symbols(pattern="*decode*error", limit=50)
    assert "json.decoder.JSONDecodeError" in names(anycase)


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
        {"name": "decode", "match": "prefix"},
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
    assert "textwrap.ZyxHelper" in names(after_edits[2]) and "json.decoder.JSONDecoderZyx" in names(after_edits[2])
    assert "json.decoder.JSONDecoder" not in names(after_edits[8])
