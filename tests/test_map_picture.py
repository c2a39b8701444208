"""`codecairn map`: the page a person opens renders the package graph in a real browser (Debian's
Chromium, headless) with no console errors, a click lists a package's top symbols, cycles are
marked; `--mermaid` prints a diagram a README can hold."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

TREE = {
    "shop/orders.py": """
        from shop.payments import charge


        def checkout(total):
            return charge(total)
        """,
    "shop/payments.py": """
        def charge(amount):
            return amount
        """,
    "cli/main.py": """
        from shop.orders import checkout
        from tools.helpers import again


        def main():
            checkout(1)
            again()
        """,
    "tools/helpers.py": """
        from cli.main import main


        def again():
            return main
        """,
}


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        pytest.fail("chromium is not on PATH: run scripts/test-prerequisites.sh (apt-get install chromium)")
    return found


def codecairn(*args: str, cache: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "codecairn.cli", "--cache-dir", str(cache), *args],
                          capture_output=True, text=True, timeout=300)  # fmt: skip


def render(page: Path, fragment: str, work: Path) -> tuple[str, str]:
    """The DOM after the page's scripts ran, and Chromium's log (console messages included)."""
    done = subprocess.run(
        [
            chromium(),
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            f"--user-data-dir={work / 'profile'}",
            "--enable-logging=stderr",
            "--v=0",
            "--dump-dom",
            page.as_uri() + fragment,
        ],  # fmt: skip
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "HOME": str(work)},
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout, done.stderr


def console_errors(log: str) -> list[str]:
    return [line for line in log.splitlines() if ":CONSOLE" in line and re.search(r"Uncaught|Error", line)]


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("maps") / "proj"
    for rel, text in TREE.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text).lstrip())
    return root


def test_the_page_renders_packages_and_a_click_lists_top_symbols(tree: Path, tmp_path: Path) -> None:
    page = tmp_path / "map.html"
    made = codecairn("map", str(tree), "--html", str(page), cache=tmp_path / "cache")
    assert made.returncode == 0, made.stderr
    text = page.read_text()
    assert "http://" not in text.replace('xmlns="http://www.w3.org/2000/svg"', "")  # nothing fetched at view time
    assert "<script src" not in text and "<link" not in text
    dom, log = render(page, "#select=shop", tmp_path)
    assert console_errors(log) == []
    assert set(re.findall(r'class="node[^"]*" data-package="([^"]+)"', dom)) == {"shop", "cli", "tools"}
    # the click (dispatched for #select=shop) filled the side panel with shop's top symbols
    panel = dom[dom.index('id="details"') :]
    assert "<h2>shop</h2>" in panel
    assert "shop.payments.charge" in panel and "shop.orders.checkout" in panel
    # cli -> tools -> cli is a cycle: both marked, the edges between them red
    assert re.search(r'class="node cycle[^"]*" data-package="cli"', dom)
    assert re.search(r'class="node cycle[^"]*" data-package="tools"', dom)
    assert re.search(r'class="edge cycle"[^>]*data-from="tools" data-to="cli"', dom)
    assert not re.search(r'class="node cycle[^"]*" data-package="shop"', dom)


def test_the_console_check_sees_a_broken_page(tmp_path: Path) -> None:
    """The check above can fail: a page whose script throws is caught by it."""
    page = tmp_path / "broken.html"
    page.write_text("<!DOCTYPE html><html><body><script>undefinedFunction();</script></body></html>")
    _, log = render(page, "", tmp_path)
    assert console_errors(log)


def test_mermaid_for_a_readme(tree: Path, tmp_path: Path) -> None:
    made = codecairn("map", str(tree), "--mermaid", cache=tmp_path / "cache")
    assert made.returncode == 0, made.stderr
    text = made.stdout
    assert text.startswith("flowchart LR\n")
    ids = dict(re.findall(r'(p\d+)\["([^"<]+)<br/>', text))
    named = {v: k for k, v in ids.items()}
    assert set(named) == {"shop", "cli", "tools"}
    assert f'{named["cli"]} -- "' in text and f"--> {named['shop']}" in text
    assert "linkStyle" in text and "classDef cycle" in text
