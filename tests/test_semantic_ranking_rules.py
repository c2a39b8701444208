"""Rules of semantic ranking a person would apply, each on a few files of real code, indexed and
embedded with the real local model and asked through find_symbols(query=...): what a Java
interface declares is public API, a word of the same family as the query's counts, and a
docstring or javadoc is summarised by its first sentence, not by a line cut mid-sentence, a
repeated call signature or an opening ``<p>``."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from codecairn.workspace import Workspace
from realcode import answers, listed

pytestmark = pytest.mark.anyio


async def embedded(root: Path, files: dict[str, str]) -> Workspace:
    for path, source in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(textwrap.dedent(source))
    ws = await Workspace.open(root)
    await ws.index_now()
    await ws.embeddings.run_once()
    return ws


async def top(ws: Workspace, query: str, limit: int = 5) -> list[str]:
    found = await answers(ws).find_symbols(query=query, limit=limit)
    return [entry["name"] for entry in listed(found["results"])]


async def test_what_a_java_interface_declares_is_public_api(tmp_path: Path, cache_dir: Path) -> None:
    # The interface's method says no `public`: the language makes it public. The helper beside it
    # reads the same but is package-private, not an API anyone outside calls.
    ws = await embedded(
        tmp_path,
        {
            "src/shop/PaymentGateway.java": """
                package shop;

                /** Takes payments from customers. */
                public interface PaymentGateway {
                    /** Charge the customer's card for the total of an order. */
                    Receipt charge(Order order);
                }
                """,
            "src/shop/CardCharges.java": """
                package shop;

                public class CardCharges {
                    /** Charge the customer's card for the total of an order. */
                    Receipt chargeNow(Order order) { return null; }
                }
                """,
        },
    )
    try:
        names = await top(ws, "charge a customer's card for an order")
        assert names[0] == "PaymentGateway.charge", names
    finally:
        await ws.close()


async def test_a_query_word_meets_the_words_of_its_family(tmp_path: Path, cache_dir: Path) -> None:
    # "cookies" and "Cookie" share a stem; "comparison" and "compares" a family.
    ws = await embedded(
        tmp_path,
        {
            "jar.py": '''
                class CookieJar:
                    """Holds what a web site asked the browser to keep."""


                class VersionOrder:
                    """Compares release numbers such as 1.10 and 1.9."""


                class ReleaseNotes:
                    """Release numbers such as 1.10 and 1.9, and what changed in each."""
                ''',
        },
    )
    try:
        assert (await top(ws, "keep cookies between requests"))[0] == "CookieJar"
        assert (await top(ws, "comparison of release numbers"))[0] == "VersionOrder"
    finally:
        await ws.close()


async def test_a_summary_is_the_first_sentence_not_a_cut_line_or_a_signature(tmp_path: Path, cache_dir: Path) -> None:
    ws = await embedded(
        tmp_path,
        {
            "urls.py": '''
                def urlsplit(url):
                    """Parse a URL into 5 components:
                    <scheme>://<netloc>/<path>?<query>#<fragment>

                    The result is a named 5-tuple.
                    """


                def renames(old, new):
                    """renames(old, new)

                    Super-rename; create directories as necessary and delete any left
                    empty.  Works like rename, except creation of any intermediate
                    directories needed to make the new pathname good is attempted first.
                    """
                ''',
            "src/util/LinkedTable.java": """
                package util;

                /**
                 * <p>Hash table and linked list implementation of a map,
                 * with predictable iteration order.
                 *
                 * <p>It keeps the order in which keys were inserted.
                 */
                public class LinkedTable {}
                """,
        },
    )
    try:
        ask = answers(ws)
        assert (await ask.get_symbol("urlsplit"))["doc"] == (
            "Parse a URL into 5 components: <scheme>://<netloc>/<path>?<query>#<fragment>"
        )
        assert (await ask.get_symbol("renames"))["doc"] == (
            "Super-rename; create directories as necessary and delete any left empty."
        )
        assert (await ask.get_symbol("util.LinkedTable"))["doc"] == (
            "Hash table and linked list implementation of a map, with predictable iteration order."
        )
        assert (await top(ws, "rename a file and create the directories it needs"))[0] == "renames"
        assert (await top(ws, "map that remembers the order of its keys"))[0] == "LinkedTable"
    finally:
        await ws.close()


async def test_code_embedded_in_this_session_is_judged_as_it_is_after_a_restart(
    tmp_path: Path, cache_dir: Path
) -> None:
    # A deprecated package deprecates every module inside it. The embedding job judges a batch of
    # symbols at a time; the package's own symbol is far from its modules' functions (hundreds of
    # symbols between them), and the functions must be pushed down all the same, right away.
    filler = "\n\n".join(f'def step_{i}(x):\n    """Step number {i} of the pipeline."""\n' for i in range(400))
    files = {
        "oldurls/__init__.py": '''
            """URL helpers of the first release."""
            import warnings

            warnings.warn("oldurls is deprecated; use urlkit", DeprecationWarning, stacklevel=2)
            ''',
        "oldurls/m_steps.py": filler,
        "oldurls/z_parse.py": '''
            def split_url(url):
                """Split a URL into its scheme, host, path and query."""
            ''',
        "urlkit/__init__.py": '''
            def split_url(url):
                """Split a URL into scheme, host, path and query string parts."""
            ''',
    }
    ws = await embedded(tmp_path, files)
    try:
        catalog = ws.embeddings.catalog
        assert catalog is not None and len(catalog) > 400
        fresh = {
            sid: tuple(getattr(catalog.traits, f)[row] for f in catalog.traits._FIELDS)
            for sid, row in catalog.row_of.items()
        }
        found = await answers(ws).find_symbols(query="split a URL into scheme, host, path and query", limit=3)
        assert listed(found["results"])[0]["path"] == "urlkit/__init__.py", found["results"]
    finally:
        await ws.close()

    again = await Workspace.open(tmp_path)
    try:
        await again.embeddings.run_once()
        catalog = again.embeddings.catalog
        assert catalog is not None
        loaded = {
            sid: tuple(getattr(catalog.traits, f)[row] for f in catalog.traits._FIELDS)
            for sid, row in catalog.row_of.items()
        }
        assert loaded == fresh
    finally:
        await again.close()
