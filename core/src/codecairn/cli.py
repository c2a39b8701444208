"""The command line: thin wrappers around a Workspace.

codecairn index PATH [--json] [--rebuild] [--no-embed|--embed]   build or refresh the index, then show what it found
codecairn serve [ROOT [MORE_ROOTS...]] [--no-index] [--no-watch] [--no-embed]   MCP stdio server (the first root is indexed)
codecairn plugins [--json]                  loaded plugins, their languages and tools
codecairn query NAME [--root PATH] [--json] get_symbol, else find_symbols, for people; exit 1 if nothing
codecairn export PATH                       the graph as JSON Lines on stdout
codecairn map PATH --html OUT | --mermaid   a picture of the package graph (docs/map.md)
codecairn snapshot export [ROOT]            write ROOT/.codecairn/index.db.zst to commit and share
codecairn workspaces [--gc] [--delete ROOT] [--json]   the index databases in the cache
codecairn clients {claude,codex,cursor,vscode} [ROOT] [--write]   the registration for an agent
codecairn doctor [ROOT] [--json]            what this installation can do, and the fix for what it cannot

Global options (--cache-dir, --log-level) are taken before or after the command.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from codecairn import __version__, logs
from codecairn.errors import DamagedStore, StoreError, StoreNotWritable, ToolError
from codecairn.index.heap import one_malloc_arena

if TYPE_CHECKING:
    import anyio


JSON_HELP = "print the result as JSON (for scripts) instead of text for people"
EMBED_HELP = "compute semantic-search vectors even if the project's configuration says embed = false"


def _global_options(defaults: bool) -> argparse.ArgumentParser:
    """Options every command takes, before or after its name. Given after the command they win;
    a subcommand's copy leaves them unset (SUPPRESS) so it never overwrites one given before."""
    p = argparse.ArgumentParser(add_help=False)
    unset = None if defaults else argparse.SUPPRESS
    p.add_argument(
        "--cache-dir",
        default=unset,
        help="where index databases live (default: $CODECAIRN_CACHE_DIR or $XDG_CACHE_HOME/codecairn)",
    )
    p.add_argument("--log-level", default=unset, help="debug, info, warning, error (default: warning; serve: info)")
    return p


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="codecairn", description="Code knowledge for AI coding agents, over MCP.", parents=[_global_options(True)]
    )
    p.add_argument("--version", action="version", version=f"codecairn {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    common = [_global_options(False)]
    ix = sub.add_parser("index", parents=common, help="index or refresh a root and show what was found")
    ix.add_argument("path", help="the root directory to index (a repository, a project)")
    ix.add_argument("--json", action="store_true", help=JSON_HELP)
    ix.add_argument("--rebuild", action="store_true", help="delete this root's index database first")
    ix.add_argument(
        "--no-embed",
        action="store_true",
        help="do not compute semantic-search vectors (computed by default when the semantic extra is installed)",
    )
    ix.add_argument("--embed", action="store_true", help=EMBED_HELP)
    sv = sub.add_parser("serve", parents=common, help="serve a root over MCP stdio")
    sv.add_argument(
        "roots",
        nargs="*",
        default=["."],
        metavar="ROOT",
        help="the root to index (default: .), then more roots the file tools may use",
    )
    sv.add_argument("--no-index", action="store_true", help="do not refresh the index on start")
    sv.add_argument(
        "--no-watch",
        action="store_true",
        help="do not watch files for changes (answers still name stale files; `index` refreshes)",
    )
    sv.add_argument("--no-embed", action="store_true", help="do not compute semantic-search vectors")
    sv.add_argument("--embed", action="store_true", help=EMBED_HELP)
    pl = sub.add_parser("plugins", parents=common, help="list loaded plugins")
    pl.add_argument("--json", action="store_true", help=JSON_HELP)
    q = sub.add_parser("query", parents=common, help="look a symbol up (exit status 1 when nothing matches)")
    q.add_argument("name", help="a symbol's name or qualified name: Console, rich.console.Console.print")
    q.add_argument("--root", default=".", help="the indexed root to look in (default: .)")
    q.add_argument("--json", action="store_true", help=JSON_HELP)
    ex = sub.add_parser("export", parents=common, help="write symbols, edges, imports and exports as JSON Lines")
    ex.add_argument("path", help="the root whose index is written (refreshed first)")
    mp = sub.add_parser(
        "map", parents=common, help="a picture of the package graph: one HTML page, or a Mermaid diagram"
    )
    mp.add_argument("path", help="the root whose package graph is drawn (refreshed first)")
    shape = mp.add_mutually_exclusive_group(required=True)
    shape.add_argument("--html", metavar="OUT", help="write a self-contained HTML page here")
    shape.add_argument("--mermaid", action="store_true", help="print a Mermaid flowchart (for a README)")
    mp.add_argument("--depth", type=int, default=None, help="directory levels a package spans (default: chosen)")
    sn = sub.add_parser("snapshot", parents=common, help="a shareable, compressed copy of an index")
    sn_sub = sn.add_subparsers(dest="snapshot_command", required=True)
    sne = sn_sub.add_parser(
        "export", parents=common, help="refresh ROOT's index and write it to ROOT/.codecairn/index.db.zst"
    )
    sne.add_argument("root", nargs="?", default=".", help="the root to snapshot (default: .)")
    sne.add_argument("--output", help="write here instead (no .gitattributes is written then)")
    sne.add_argument("--json", action="store_true", help=JSON_HELP)
    rp = sub.add_parser(
        "report", parents=common, help="what the index saved: hit rate, tokens saved and used, from the metrics log"
    )
    rp.add_argument("root", nargs="?", default=".", help="the root whose calls are reported (default: .)")
    rp.add_argument("--json", action="store_true", help="print the report as one JSON object")
    rp.add_argument("--html", metavar="OUT", help="also write a self-contained HTML page with charts to OUT")
    rp.add_argument("--tz", help="time zone for times and days (an IANA name; default: this machine's)")
    rp.add_argument(
        "--from-db",
        action="store_true",
        help="read PostgreSQL's mcp_calls (CODECAIRN_METRICS_DB_URL, or --db-url) instead of the JSONL log",
    )
    rp.add_argument("--db-url", help="the PostgreSQL URL for --from-db")
    rp.add_argument(
        "--claude-logs",
        metavar="DIR",
        help="Claude Code's session logs, for its model usage beside the calls (default ~/.claude/projects)",
    )
    rp.add_argument("--no-claude", action="store_true", help="do not read Claude Code's session logs")
    ws = sub.add_parser("workspaces", parents=common, help="list index databases; --gc deletes unused ones")
    ws.add_argument(
        "--gc",
        action="store_true",
        help="delete indexes whose root is gone, unused ones, then the oldest above the size cap",
    )
    ws.add_argument(
        "--max-age-days",
        type=float,
        default=None,
        help="unused for longer than this is collected (default 90, or $CODECAIRN_GC_MAX_AGE_DAYS)",
    )
    ws.add_argument(
        "--max-bytes", type=int, default=None, help="total size cap (default 2 GiB, or $CODECAIRN_GC_MAX_BYTES)"
    )
    ws.add_argument("--dry-run", action="store_true", help="with --gc or --delete: say what would be deleted")
    ws.add_argument("--delete", metavar="ROOT", help="delete the index of this root (not the root itself)")
    ws.add_argument("--json", action="store_true", help=JSON_HELP)
    dr = sub.add_parser(
        "doctor",
        parents=common,
        help="check grammars, model, cache, plugins, the project's configuration; say how to fix",
    )
    dr.add_argument("root", nargs="?", default=".", help="the project whose configuration is checked (default: .)")
    dr.add_argument("--json", action="store_true", help=JSON_HELP)
    cl = sub.add_parser("clients", parents=common, help="print (or --write) the registration for an agent")
    cl.add_argument("client", choices=sorted(CLIENTS), help="the agent to register codecairn with")
    cl.add_argument("root", nargs="?", default=".", help="the project to serve (default: .)")
    cl.add_argument(
        "--write",
        action="store_true",
        help="write it: ROOT/.mcp.json (claude), ROOT/.cursor/mcp.json, ROOT/.vscode/mcp.json, "
        "~/.codex/config.toml (codex; $CODEX_HOME if set); other entries are kept",
    )
    return p


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command in ("serve", "index"):  # long-lived, and they embed on threads
        one_malloc_arena()
    logs.setup(args.log_level or ("WARNING" if args.command != "serve" else None))
    if args.cache_dir:
        os.environ["CODECAIRN_CACHE_DIR"] = str(Path(args.cache_dir).expanduser().resolve())
    try:
        status = asyncio.run(_dispatch(args))
        # What is still buffered (a short report, a summary: all of it) is written now, while a
        # reader that has gone can still be told from an error; at exit it would be "Exception
        # ignored ... BrokenPipeError" and status 120.
        sys.stdout.flush()
        return status
    except BrokenPipeError:
        return _reader_gone()
    except KeyboardInterrupt:
        print("interrupted: what was indexed is kept; run again to continue", file=sys.stderr)
        return 130
    except (StoreError, ValueError) as exc:
        print(f"codecairn: {exc}", file=sys.stderr)
        return 2
    except ToolError as exc:  # e.g. a root that cannot be read
        print(f"codecairn: {exc.message}", file=sys.stderr)
        return 2
    except PermissionError as exc:  # e.g. a root under a directory this user may not enter
        print(f"codecairn: {exc.filename}: {exc.strerror}", file=sys.stderr)
        return 2


def _reader_gone() -> int:
    """`codecairn export . | head`, `codecairn report | head`: the reader has what it wanted. Stop
    quietly (no traceback, no second error when Python flushes stdout at exit), with the status a
    SIGPIPE gives, as a C tool's would be."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 128 + signal.SIGPIPE


# Where each agent reads its MCP servers from (relative to the project, or ~ for codex), and the
# key its JSON keeps servers under. docs/clients.md shows the same.
CLIENTS = {
    "claude": (".mcp.json", "mcpServers"),
    "cursor": (".cursor/mcp.json", "mcpServers"),
    "vscode": (".vscode/mcp.json", "servers"),
    "codex": ("config.toml", ""),
}


def _serve_command() -> list[str]:
    """The command that starts this installation's server, absolute (agents start it from anywhere)."""
    beside = Path(sys.executable).parent / "codecairn"
    return [str(beside)] if beside.exists() else [sys.executable, "-m", "codecairn.cli"]


def _clients(args: argparse.Namespace) -> int:
    import tomllib

    root = Path(args.root).expanduser().resolve()
    if not root.is_dir():
        print(f"codecairn: {root} is not a directory", file=sys.stderr)
        return 2
    command, *first = _serve_command()
    server = {"command": command, "args": [*first, "serve", str(root)]}
    relative, key = CLIENTS[args.client]
    if args.client == "codex":
        home = Path(os.environ.get("CODEX_HOME") or Path.home() / ".codex")
        target = home / relative
        block = (
            f"[mcp_servers.codecairn]\ncommand = {json.dumps(command)}\n"
            f"args = {json.dumps(server['args'])}\nstartup_timeout_sec = 30\n"
        )
        if not args.write:
            print(f"# {target}\n{block}", end="")
            return 0
        existing = target.read_text() if target.exists() else ""
        try:
            if "codecairn" in tomllib.loads(existing).get("mcp_servers", {}):
                print(f"codecairn: {target} registers codecairn already; edit it there", file=sys.stderr)
                return 1
        except tomllib.TOMLDecodeError as exc:
            print(f"codecairn: {target} is not valid TOML ({exc}); nothing written", file=sys.stderr)
            return 2
        target.parent.mkdir(parents=True, exist_ok=True)
        _write_atomically(target, existing + ("\n" if existing and not existing.endswith("\n") else "") + block)
        print(f"registered codecairn for codex in {target}")
        return 0
    entry = {"type": "stdio", **server} if args.client != "cursor" else server
    target = root / relative
    if not args.write:
        print(f"// {target}")
        print(json.dumps({key: {"codecairn": entry}}, indent=2))
        if args.client == "claude":
            import shlex

            print(f"// or: claude mcp add codecairn -- {shlex.join([command, *server['args']])}")
        return 0
    config: dict[str, Any] = {}
    if target.exists():
        try:
            config = json.loads(target.read_text())
        except ValueError as exc:
            print(f"codecairn: {target} is not valid JSON ({exc}); nothing written", file=sys.stderr)
            return 2
        if not isinstance(config, dict) or not isinstance(config.get(key, {}), dict):
            print(f"codecairn: {target} is not an MCP configuration; nothing written", file=sys.stderr)
            return 2
    config.setdefault(key, {})["codecairn"] = entry
    target.parent.mkdir(parents=True, exist_ok=True)
    _write_atomically(target, json.dumps(config, indent=2) + "\n")
    print(f"registered codecairn for {args.client} in {target}")
    return 0


def _write_atomically(target: Path, text: str) -> None:
    partial = target.with_name(target.name + ".codecairn-partial")
    partial.write_text(text)
    os.replace(partial, target)


def _doctor(args: argparse.Namespace) -> int:
    """Each check: what was found, and when something is wrong, the fix. Exit 1 if anything is."""
    import platform
    import sqlite3
    import tempfile

    checks: list[dict[str, Any]] = []

    def check(name: str, found: str, fix: str = "") -> None:
        checks.append({"check": name, "ok": not fix, "found": found, **({"fix": fix} if fix else {})})

    check("codecairn", __version__)
    old = sys.version_info < (3, 11)
    check("python", platform.python_version(), "install Python 3.11 or later" if old else "")
    version = sqlite3.sqlite_version_info
    old_sqlite = version < (3, 35)
    check("sqlite", sqlite3.sqlite_version, "a Python built with SQLite 3.35 or later" if old_sqlite else "")

    from codecairn.host import PluginHost

    host = PluginHost()
    info = host.describe()
    failed = info.get("failed", [])
    check(
        "plugins",
        f"{len(info['plugins'])} loaded" + (f", {len(failed)} failed" if failed else ""),
        "; ".join(f"{f['name']} ({f['distribution']}): {f['error']} — reinstall or uninstall it" for f in failed),
    )
    import tree_sitter

    for name, language in sorted(host.languages.items()):
        try:
            tree_sitter.Parser(tree_sitter.Language(language.grammar())).parse(b"")
            check(f"grammar {name}", ", ".join(language.extensions))
        except Exception as exc:
            check(f"grammar {name}", f"{type(exc).__name__}: {exc}", "reinstall the plugin that provides it")

    from codecairn.semantic.minilm import unavailable_reason

    reason = unavailable_reason()
    check("semantic model", "installed" if not reason else "not available", reason or "")

    _check_config(check, args.root, host)

    from codecairn.workspaces import workspaces_dir

    cache = workspaces_dir()
    try:
        cache.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=cache, prefix=".doctor-"):
            pass
        check("cache", f"{cache} (writable)")
    except OSError as exc:
        check(
            "cache",
            f"{cache}: {exc.strerror}",
            "set CODECAIRN_CACHE_DIR (or --cache-dir) to a directory this user may write",
        )
    if args.json:
        print(json.dumps({"ok": all(c["ok"] for c in checks), "checks": checks}, indent=2))
    else:
        for c in checks:
            mark = "ok " if c["ok"] else "FIX"
            print(f"{mark} {c['check']}: {c['found']}" + (f"\n    -> {c['fix']}" if not c["ok"] else ""))
    return 0 if all(c["ok"] for c in checks) else 1


def _check_config(check: Callable[..., None], root: str, host: Any) -> None:
    """The project's configuration: where it is and what it sets, or what is wrong with it."""
    from codecairn import config

    try:
        found = config.load(Path(root).expanduser().resolve())
        found.check_languages(host.languages)
    except config.ConfigError as exc:
        check("config", str(exc), "correct it: docs/configuration.md lists the keys and their types")
        return
    if not found.source:
        check("config", f"none in {Path(root).resolve()} (every default)")
        return
    settings = found.settings()
    shown = ", ".join(f"{k}={json.dumps(v, separators=(',', ':'))}" for k, v in settings.items())
    check("config", f"{found.source}: {shown or 'nothing set'}")


async def _dispatch(args: argparse.Namespace) -> int:
    if args.command == "doctor":
        return _doctor(args)
    if args.command == "clients":
        return _clients(args)
    if args.command == "plugins":
        return _plugins(args)
    if args.command == "workspaces":
        return _workspaces(args)
    if args.command == "report":
        return _report(args)
    from codecairn.workspace import Workspace

    if args.command == "index":
        return await _index(args)
    if args.command == "serve":
        from codecairn.paths import validate_root
        from codecairn.server import serve

        # The first root is indexed; the others are declared too (file tools may read, search and
        # edit them), as are the roots the MCP client declares.
        extra = tuple(str(validate_root(r)) for r in args.roots[1:])
        try:
            ws = await Workspace.open(args.roots[0])
        except (DamagedStore, StoreNotWritable) as exc:
            # Served anyway: the agent gets answers that say what is wrong and what to do.
            print(f"codecairn: {exc}", file=sys.stderr)
            ws = Workspace.unusable(args.roots[0], exc)
        try:
            await serve(
                ws,
                index_on_start=not args.no_index,
                watch=not args.no_watch,
                embed=not args.no_embed and (args.embed or ws.config.embed),
                extra_roots=extra,
            )
        finally:
            await ws.close()
        return 0
    if args.command == "snapshot":
        return await _snapshot_export(args)
    root = args.root if args.command == "query" else args.path
    ws = await Workspace.open(root)
    try:
        if ws.read_only is None:
            await ws.index_now()
        else:
            print(f"codecairn: not refreshing {ws.store.path} first: it is read-only ({ws.read_only})", file=sys.stderr)
        if args.command == "query":
            return await _query(ws, args)
        if args.command == "map":
            return await _map(ws, args)
        return await _export(ws)
    finally:
        await ws.close()


async def _snapshot_export(args: argparse.Namespace) -> int:
    from codecairn.snapshot import export_snapshot
    from codecairn.workspace import Workspace

    ws = await Workspace.open(args.root)
    try:
        summary = await ws.index_now()
        out = await export_snapshot(
            ws.root, ws.host, ws.store, ws.indexer.lock, Path(args.output).resolve() if args.output else None
        )
    finally:
        await ws.close()
    if args.json:
        print(json.dumps({**out.to_dict(), "parsed": summary.parsed}))
    else:
        print(
            f"{out.path}: {out.files} files, {out.symbols} symbols, {out.size_bytes // 1024} KiB "
            f"(index {out.database_bytes // 1024} KiB) in {out.seconds:.1f}s. Commit it at a release cadence, "
            "not on every change: each commit adds a whole new blob to the history (docs/freshness.md)."
        )
    return 0


def _report(args: argparse.Namespace) -> int:
    from codecairn.metrics import claude_logs, report
    from codecairn.metrics.html import render_html
    from codecairn.metrics.recorder import DB_URL_ENV

    url = None
    if args.from_db:
        url = args.db_url or os.environ.get(DB_URL_ENV, "").strip()
        if not url:
            print(f"codecairn: --from-db needs --db-url or {DB_URL_ENV}", file=sys.stderr)
            return 2
    claude_dir = None if args.no_claude else Path(args.claude_logs or claude_logs.default_directory()).expanduser()
    made = report.make(args.root, tz_name=args.tz, db_url=url, claude_dir=claude_dir)
    if args.html:
        out = Path(args.html)
        out.write_text(render_html(made), encoding="utf-8")
        if not args.json:
            print(f"wrote {out}", file=sys.stderr)
    if args.json:
        print(json.dumps(made.to_json(), ensure_ascii=False, indent=2))
    else:
        print(report.render_text(made), end="")
    return 0


def _workspaces(args: argparse.Namespace) -> int:
    from codecairn import workspaces

    if args.delete:
        return _delete_index(args)
    if args.gc:
        report = workspaces.collect(max_age_days=args.max_age_days, max_bytes=args.max_bytes, dry_run=args.dry_run)
        if args.json:
            print(json.dumps(report.__dict__))
            return 0
        verb = "would delete" if args.dry_run else "deleted"
        for r in report.removed:
            print(f"{verb} {r['database']} ({r.get('root', '?')}, {r['size_bytes'] // 1024} KiB): {r['reason']}")
        print(
            f"{verb} {len(report.removed)} index(es), {report.freed_bytes // 1024} KiB; "
            f"{len(report.kept)} kept, {report.total_bytes // 1024} KiB"
        )
        return 0
    infos = workspaces.list_indexes()
    if args.json:
        print(json.dumps([i.to_dict() for i in infos]))
        return 0
    if not infos:
        print(f"no indexes in {workspaces.workspaces_dir()}")
    for i in infos:
        state = i.error or i.root_state + (", in use" if i.in_use else "")
        used = (i.to_dict().get("last_used") or "")[:16].replace("T", " ")
        counts = "" if i.files is None else f"{i.files} files, {i.symbols} symbols, "
        print(
            f"{i.root or '?'}  [{state}]  {counts}{i.size_bytes / 2**20:.1f} MiB, last used {used or '?'}  "
            f"({i.database})"
        )
    return 0


def _delete_index(args: argparse.Namespace) -> int:
    """``workspaces --delete ROOT``: the index of ROOT (which may be gone already), never ROOT."""
    from codecairn import workspaces

    wanted = os.path.realpath(os.path.expanduser(args.delete))
    found = [i for i in workspaces.list_indexes() if i.root and os.path.realpath(i.root) == wanted]
    if not found:
        print(f"codecairn: no index of {wanted} in {workspaces.workspaces_dir()}", file=sys.stderr)
        return 1
    results = []
    for info in found:
        deleted = False if args.dry_run else workspaces.delete_index(Path(info.database))
        results.append({"root": info.root, "database": str(info.database), "deleted": deleted})
        if not args.json:
            if args.dry_run:
                print(f"would delete {info.database} ({info.size_bytes // 1024} KiB)")
            elif deleted:
                print(f"deleted {info.database} ({info.size_bytes // 1024} KiB)")
            else:
                print(f"codecairn: {info.database} is in use (a server has it open); stop it first", file=sys.stderr)
    if args.json:
        print(json.dumps(results))
    return 0 if args.dry_run or all(r["deleted"] for r in results) else 1


def _plugins(args: argparse.Namespace) -> int:
    from codecairn.host import PluginHost

    info = PluginHost().describe()
    if args.json:
        print(json.dumps(info, indent=2))
        return 0
    from rich.console import Console
    from rich.table import Table

    table = Table("plugin", "distribution", "version", "languages", "tools")
    for p in info["plugins"]:
        table.add_row(
            p["name"], p["distribution"], p["version"], ", ".join(p.get("languages", [])), ", ".join(p.get("tools", []))
        )
    console = Console()
    console.print(table)
    for f in info.get("failed", []):
        console.print(f"[red]failed[/red] {f['name']} ({f['distribution']}): {f['error']}")
    for ext, langs in info.get("extension_conflicts", {}).items():
        console.print(f"extension {ext} claimed by {', '.join(langs)} (choose with CODECAIRN_LANGUAGE_FOR={ext}=NAME)")
    return 0


async def _index(args: argparse.Namespace) -> int:
    from codecairn.index.indexer import unreadable_root
    from codecairn.paths import validate_root
    from codecairn.store.overview import index_overview
    from codecairn.workspace import Workspace

    root = validate_root(args.path)
    refusal = unreadable_root(root)  # before anything is opened: nothing changes then
    if refusal is not None:
        raise refusal
    # Symbols load only if something changed: an unchanged re-index reads files and meta alone.
    # A teammate's snapshot (.codecairn/index.db.zst) is adopted when there is no index yet.
    ws = await Workspace.open(root, load_symbols=False, rebuild=args.rebuild)
    imported = ws.imported
    try:
        with _progress_bars(shown=not args.json and sys.stderr.isatty()) as bar, _interruptible() as interrupt:
            task = bar.add_task("indexing", total=None)

            async def progress(done: int, total: int, message: str) -> None:
                bar.update(task, completed=done, total=total or None, description=message)

            summary = await ws.index_now(progress)
            wanted = not args.no_embed and (args.embed or ws.config.embed)
            embedded = await _embed(ws, bar) if wanted and not interrupt.cancel_called else None
        if interrupt.cancelled_caught:
            raise KeyboardInterrupt
        overview = await index_overview(ws.store, ws.state.generation)
        result = {
            "files": summary.files,
            "symbols": overview["symbols"],
            "edges": sum(overview["edges"].values()),
            "skipped": sum(summary.skipped.values()),
            "seconds": round(summary.seconds, 3),
            "parsed": summary.parsed,
            "unchanged": summary.unchanged,
            "deleted": summary.deleted,
            "languages": ws.state.language_counts(),
            "edge_kinds": overview["edges"],
            "symbol_kinds": overview["symbol_kinds"],
            "unresolved_calls": overview["unresolved_calls"],
            "call_resolution": overview["call_resolution"],
            "most_called": overview["most_called"],
            "most_extended": overview["most_extended"],
            "skipped_reasons": summary.skipped,
            "failed": len(summary.failed),
            "database": str(ws.store.path),
            "database_size_bytes": await ws.store.size_bytes(),
            "phases": {k: round(v, 3) for k, v in summary.phases.items()},
        }
        if embedded is not None:
            result["embeddings"] = embedded
        if imported is not None:
            result["snapshot"] = imported.to_dict()
        if summary.unreadable:
            result["unreadable"] = summary.unreadable
            print(
                f"codecairn: could not read {', '.join(summary.unreadable[:5])}"
                f"{' and more' if len(summary.unreadable) > 5 else ''}; what was indexed there is kept "
                "until it can be read again",
                file=sys.stderr,
            )
        if args.json:
            print(json.dumps(result))
        else:
            _show_summary(ws, result)
        return 0
    finally:
        await ws.close()


class _NoBars:
    """What `_progress_bars` gives when nothing is shown: rich stays unimported (≈0.1 s)."""

    def __enter__(self) -> _NoBars:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def add_task(self, description: str, total: float | None = None) -> int:
        return 0

    def update(self, task: int, **fields: Any) -> None:
        return None


def _progress_bars(shown: bool):
    if not shown:
        return _NoBars()
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), transient=True
    )


@contextmanager
def _interruptible() -> Iterator[anyio.CancelScope]:
    """Ctrl-C cancels the run the way an MCP client's cancel does: through a cancel scope, which
    lets a batch being written finish (a native task cancel would cut it off mid-transaction).
    A second Ctrl-C stops at once."""
    import anyio

    loop = asyncio.get_running_loop()
    with anyio.CancelScope() as scope:

        def interrupt() -> None:
            loop.remove_signal_handler(signal.SIGINT)
            scope.cancel()

        try:
            loop.add_signal_handler(signal.SIGINT, interrupt)
        except (NotImplementedError, RuntimeError, ValueError):  # no signal handlers here (Windows, a thread)
            pass
        try:
            yield scope
        finally:
            loop.remove_signal_handler(signal.SIGINT)  # False, and harmless, when none was added


async def _embed(ws, bar) -> dict[str, int] | None:
    """Semantic-search vectors for what was indexed, with a progress bar of their own, so that a
    client that starts a server only for a moment gets semantic answers too. Nothing to do (and
    nothing loaded) when the index did not change since its vectors were last complete; None when
    the semantic extra is not installed."""
    from codecairn.semantic.minilm import unavailable_reason

    if unavailable_reason() is not None:
        return None
    job = ws.embeddings
    if await job.up_to_date():
        return {"computed": 0}
    task = bar.add_task("embedding", total=None)

    async def progress(done: int, total: int, message: str) -> None:
        bar.update(task, completed=done, total=total or None, description=message)

    computed = await job.run_once(progress)
    return {"computed": computed, "embedded": job.embedded}


def _show_summary(ws, result: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    console.print(
        f"[bold]{ws.root}[/bold]: {result['files']} files ({result['parsed']} parsed, "
        f"{result['unchanged']} unchanged, {result['deleted']} deleted) in {result['seconds']}s"
    )
    t = Table("languages", "files", "symbol kinds", "count", "edges", "count")
    langs = list(result["languages"].items())
    top_kinds = list(result["symbol_kinds"].items())
    edges = list(result["edge_kinds"].items())
    for i in range(max(len(langs), len(top_kinds), len(edges))):
        row = [
            *(langs[i] if i < len(langs) else ("", "")),
            *(top_kinds[i] if i < len(top_kinds) else ("", "")),
            *(edges[i] if i < len(edges) else ("", "")),
        ]
        t.add_row(*[str(c) for c in row])
    console.print(t)
    calls = result["edge_kinds"].get("calls", 0)
    resolved = calls - result["unresolved_calls"]
    if calls:
        how = ", ".join(f"{k} {v}" for k, v in sorted(result["call_resolution"].items()))
        console.print(f"calls resolved: {resolved}/{calls} ({100 * resolved / calls:.0f}%): {how}")
    # The most-subclassed types and most-called functions: a first map of the code.
    for label, top in (("most called", result["most_called"]), ("most extended", result["most_extended"])):
        if top:
            console.print(f"{label}: " + ", ".join(f"{qn} ({n})" for qn, n in top))
    if result["skipped"]:
        console.print("skipped: " + ", ".join(f"{n} {reason}" for reason, n in result["skipped_reasons"].items()))
    console.print(f"index: {result['database']} ({result['database_size_bytes'] // 1024} KiB)")


async def _query(ws, args: argparse.Namespace) -> int:
    from codecairn.context import ServedContext

    ctx = ServedContext(ws)
    try:
        answer = await ws.host.tools["get_symbol"].handler(ctx, {"name": args.name})
    except ToolError as exc:
        if exc.code != "not_found":
            raise
        answer = await ws.host.tools["find_symbols"].handler(ctx, {"name": args.name})
    found = "results" not in answer or bool(answer["results"])
    if args.json:
        print(json.dumps(answer, indent=2))
    elif found:
        _show_answer(answer)
    if not found:
        print(f"codecairn: no symbol named {args.name!r} in {ws.root}", file=sys.stderr)
        return 1
    return 0


def _show_answer(answer: dict[str, Any]) -> None:
    """An answer for people: the symbol's header, then each part as an indented outline (places
    as ``path:line  name``), instead of a dict's repr."""
    from rich.console import Console
    from rich.markup import escape

    console = Console(highlight=False)
    if "results" in answer:  # find_symbols: places grouped by file
        for path, entries in answer["results"].items():
            for e in entries:
                line = e["lines"].split("-")[0]
                console.print(f"[cyan]{escape(path)}:{line}[/cyan]  {e['kind']} [bold]{escape(e['name'])}[/bold]")
                if "signature" in e:
                    console.print(f"    {escape(e['signature'])}")
        for tier, n in answer.get("not_listed", {}).items():
            console.print(f"[dim]{n} {tier.replace('_', ' ')} match(es) not listed[/dim]")
        return
    if answer.get("ambiguous"):
        console.print(f"[yellow]ambiguous:[/yellow] {escape(answer.get('hint', ''))}")
        _show_answer({"results": answer["candidates"]})
        return
    console.print(
        f"{answer['kind']} [bold]{escape(answer['qualified_name'])}[/bold]  "
        f"[cyan]{escape(answer['path'])}:{answer['lines']}[/cyan]"
    )
    for key in ("signature", "doc"):
        if key in answer:
            console.print(escape(str(answer[key]).strip()))
    for key in ("members", "bases", "subclasses", "callees", "callers"):
        if key in answer:
            console.print(f"[bold]{key}[/bold]")
            _show_places(console, answer[key], "  ")


def _show_places(console: Any, value: Any, indent: str) -> None:
    from rich.markup import escape

    if isinstance(value, dict):
        for k, v in value.items():
            if isinstance(v, (dict, list)):
                console.print(f"{indent}{escape(str(k))}")
                _show_places(console, v, indent + "  ")
            else:
                console.print(f"{indent}{escape(str(k))}  [dim]{v}[/dim]")
    elif isinstance(value, list):
        for v in value:
            console.print(f"{indent}{escape(str(v))}")


async def _map(ws, args: argparse.Namespace) -> int:
    from codecairn.context import ServedContext
    from codecairn.pictures import html_page, mermaid, package_map

    data = await package_map(ServedContext(ws), args.depth)
    if args.mermaid:
        sys.stdout.write(mermaid(data))
        return 0
    out = Path(args.html).expanduser()
    out.write_text(html_page(data), encoding="utf-8")
    print(
        f"{out}: {len(data['packages'])} packages, {len(data['edges'])} dependencies, {len(data['cycles'])} cycle(s)",
        file=sys.stderr,
    )
    return 0


async def _export(ws) -> int:
    from codecairn.export import write_graph

    await write_graph(ws.state, ws.store, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
