"""The plugin host: an object you construct (twice in a test, if you like).

It registers codecairn's built-in plugins first, then every entry point of the group
``codecairn`` one by one — pluggy's bulk loader registers nothing when a single entry point
fails, and one broken third-party plugin must not take the server down. Failures are kept with
the distribution's name and shown by ``codecairn plugins``, the server log and ``stats``.

Set ``CODECAIRN_TRACE_PLUGINS=1`` to log every hook call with its arguments and results.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.metadata as metadata
import importlib.util
import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pluggy

from codecairn import hookspecs
from codecairn.hookspecs import ENTRY_POINT_GROUP, PROJECT, Embedder, ImportedOnCall, Language, RouteDetector, Tool

log = logging.getLogger("codecairn.host")

# codecairn's own features, registered exactly like third-party plugins.
DEFAULT_PLUGINS = (
    "codecairn.tools.indexing",
    "codecairn.tools.symbols",
    "codecairn.tools.files",
    "codecairn.tools.memory",
    "codecairn.tools.reading",
    "codecairn.tools.searching",
    "codecairn.tools.comparing",
    "codecairn.tools.editing",
    "codecairn.tools.trace",
    "codecairn.tools.references",
    "codecairn.tools.hierarchy",
    "codecairn.tools.impact",
    "codecairn.tools.architecture",
    "codecairn.tools.graph_sql",
    "codecairn.semantic.plugin",
)
# Set to a comma-separated list to choose which language wins an extension claimed twice:
# CODECAIRN_LANGUAGE_FOR=".h=cpp,.js=javascript"
EXTENSION_OVERRIDE_ENV = "CODECAIRN_LANGUAGE_FOR"
# A plugin hook that takes longer than this at start-up is reported and skipped.
PLUGIN_TIMEOUT_SECONDS = float(os.environ.get("CODECAIRN_PLUGIN_TIMEOUT", 20))


@dataclass
class PluginInfo:
    name: str
    distribution: str = "codecairn"
    version: str = ""
    languages: list[str] = field(default_factory=list)
    tools: list[str] = field(default_factory=list)
    builtin: bool = False


@dataclass
class PluginFailure:
    name: str
    distribution: str
    error: str


class PluginHost:
    def __init__(self, *, load_entry_points: bool = True, extra_plugins: tuple[Any, ...] = ()) -> None:
        self.pm = pluggy.PluginManager(PROJECT)
        self.pm.add_hookspecs(hookspecs.CodecairnSpecs)
        if os.environ.get("CODECAIRN_TRACE_PLUGINS"):
            self.pm.trace.root.setwriter(lambda message: log.info("trace %s", message.rstrip()))
            self.pm.enable_tracing()
        self.plugins: dict[str, PluginInfo] = {}
        self.failures: list[PluginFailure] = []
        for module_name in DEFAULT_PLUGINS:
            self.pm.register(importlib.import_module(module_name), name=module_name)
            self.plugins[module_name] = PluginInfo(module_name, version=_version("codecairn"), builtin=True)
        for plugin in extra_plugins:
            name = getattr(plugin, "__name__", repr(plugin))
            self.pm.register(plugin, name=name)
            self.plugins[name] = PluginInfo(name, distribution="(in-process)", builtin=False)
        if load_entry_points:
            self._load_entry_points()
        self.languages: dict[str, Language] = {}
        self.extension_map: dict[str, str] = {}
        self.extension_conflicts: dict[str, list[str]] = {}
        self.tools: dict[str, Tool] = {}
        self.route_detectors: list[RouteDetector] = []
        self._collect_languages()
        self._collect_route_detectors()
        self._collect_tools()
        self._embedder: Embedder | None | bool = False  # False = not asked yet

    # ---- loading ------------------------------------------------------------------------------

    def _load_entry_points(self) -> None:
        for ep in sorted(metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
            dist = ep.dist.name if ep.dist is not None else "?"
            if self.pm.get_plugin(ep.name) is not None or self.pm.is_blocked(ep.name):
                continue
            try:
                plugin = ep.load()
                self.pm.register(plugin, name=ep.name)
            except Exception as exc:  # ImportError, PluginValidationError, ValueError, anything
                self.failures.append(PluginFailure(ep.name, dist, f"{type(exc).__name__}: {exc}"))
                log.error(
                    "plugin %s (%s) failed to load and was skipped: %s: %s", ep.name, dist, type(exc).__name__, exc
                )
                continue
            version = ep.dist.version if ep.dist is not None else ""
            self.plugins[ep.name] = PluginInfo(ep.name, distribution=dist, version=version)

    def _call_each(self, hook_name: str) -> list[tuple[str, Any]]:
        """Call a hook on every plugin separately, so one that raises or returns garbage is
        reported and skipped instead of failing the whole call. The plugins' calls run side by
        side, each in a thread of its own: a grammar pack checks its query in a child process the
        first time (≈ 0.1–0.4 s each, five packs ≈ 0.8 s one after another on a fresh cache)."""
        impls = list(reversed(getattr(self.pm.hook, hook_name).get_hookimpls()))  # registration order
        calls = [_BoundedCall(impl.function) for impl in impls]
        results = []
        for impl, call in zip(impls, calls):
            try:
                value = call.result(PLUGIN_TIMEOUT_SECONDS)
            except TimeoutError:
                self._fail(impl.plugin_name, f"{hook_name} took longer than {PLUGIN_TIMEOUT_SECONDS:g}s")
                continue
            except Exception as exc:
                self._fail(impl.plugin_name, f"{hook_name} raised {type(exc).__name__}: {exc}")
                continue
            results.append((impl.plugin_name, value))
        return results

    def _fail(self, name: str, error: str) -> None:
        info = self.plugins.get(name)
        self.failures.append(PluginFailure(name, info.distribution if info else "?", error))
        log.error("plugin %s misbehaved and was skipped: %s", name, error)

    def _collect_languages(self) -> None:
        overrides = _parse_overrides(os.environ.get(EXTENSION_OVERRIDE_ENV, ""))
        claims: dict[str, list[tuple[bool, bool, str, str]]] = {}
        for plugin_name, value in self._call_each("codecairn_languages"):
            if not isinstance(value, (list, tuple)) or not all(isinstance(v, Language) for v in value):
                self._fail(plugin_name, f"codecairn_languages returned {type(value).__name__}, not a list of Language")
                continue
            for lang in value:
                if lang.name in self.languages:
                    self._fail(plugin_name, f"language {lang.name!r} is already provided by another plugin")
                    continue
                missing = _missing_extractor(lang)
                if missing:
                    self._fail(plugin_name, f"language {lang.name!r}: {missing}")
                    continue
                self.languages[lang.name] = lang
                self.plugins[plugin_name].languages.append(lang.name)
                for position, ext in enumerate((*lang.extensions, *lang.filenames)):
                    claims.setdefault(ext.lower() if ext.startswith(".") else ext, []).append(
                        (lang.depth != "rich", position != 0, lang.name, plugin_name)
                    )
        for ext, claimants in claims.items():
            # Deterministic choice: the user's override; else a rich plugin over a grammar pack;
            # else the language that lists it first (its own extension); else the first name.
            claimants.sort()
            names = [c[2] for c in claimants]
            chosen = overrides[ext] if overrides.get(ext) in names else names[0]
            self.extension_map[ext] = chosen
            if len(claimants) > 1:
                self.extension_conflicts[ext] = names
                log.info(
                    "extension %s is claimed by %s; using %s (override with %s)",
                    ext,
                    ", ".join(names),
                    chosen,
                    EXTENSION_OVERRIDE_ENV,
                )

    def _collect_route_detectors(self) -> None:
        """Route detectors run after their language's extractor, in the parse workers: the
        language's extractor is wrapped (extractors/routes.py), nothing else changes."""
        from codecairn.extractors.routes import WithRoutes

        for plugin_name, value in self._call_each("codecairn_route_detectors"):
            if not isinstance(value, (list, tuple)) or not all(isinstance(v, RouteDetector) for v in value):
                self._fail(plugin_name, f"codecairn_route_detectors returned {type(value).__name__}, not a list")
                continue
            self.route_detectors.extend(value)
        for name, lang in list(self.languages.items()):
            mine = tuple(d for d in self.route_detectors if name in d.languages)
            if mine:
                self.languages[name] = dataclasses.replace(lang, extractor=WithRoutes(lang.extractor, mine))

    def _collect_tools(self) -> None:
        for plugin_name, value in self._call_each("codecairn_tools"):
            if not isinstance(value, (list, tuple)) or not all(isinstance(v, Tool) for v in value):
                self._fail(plugin_name, f"codecairn_tools returned {type(value).__name__}, not a list of Tool")
                continue
            for tool in value:
                if tool.name in self.tools:
                    self._fail(plugin_name, f"tool {tool.name!r} is already provided by {self.tools[tool.name].plugin}")
                    continue
                if not callable(tool.handler) or not isinstance(tool.input_schema, dict):
                    self._fail(plugin_name, f"tool {tool.name!r} has no callable handler or schema")
                    continue
                self.tools[tool.name] = dataclasses.replace(tool, plugin=plugin_name)
                self.plugins[plugin_name].tools.append(tool.name)

    # ---- answers --------------------------------------------------------------------------------

    def language_for(self, path: str) -> Language | None:
        name = os.path.basename(path)
        if name in self.extension_map:
            return self.languages[self.extension_map[name]]
        dot = name.rfind(".")
        if dot <= 0:
            return None
        chosen = self.extension_map.get(name[dot:].lower())
        return self.languages[chosen] if chosen else None

    def embedder(self) -> Embedder | None:
        if self._embedder is False:
            try:
                self._embedder = self.pm.hook.codecairn_embedder()
            except Exception as exc:
                self._fail("embedder", f"codecairn_embedder raised {type(exc).__name__}: {exc}")
                self._embedder = None
        return self._embedder  # type: ignore[return-value]

    def describe(self) -> dict[str, Any]:
        return {
            "plugins": [
                {
                    "name": p.name,
                    "distribution": p.distribution,
                    "version": p.version,
                    **({"languages": p.languages} if p.languages else {}),
                    **({"tools": p.tools} if p.tools else {}),
                    **({"builtin": True} if p.builtin else {}),
                }
                for p in self.plugins.values()
            ],
            **({"failed": [f.__dict__ for f in self.failures]} if self.failures else {}),
            **({"extension_conflicts": self.extension_conflicts} if self.extension_conflicts else {}),
        }


class _BoundedCall:
    """A plugin's hook, called in a thread of its own as soon as this is made; ``result`` gives up
    on it ``seconds`` after the call began: a hung plugin must not keep the server from starting.
    (The thread is left to finish on its own; it is a daemon.)"""

    def __init__(self, function: Callable[[], Any]) -> None:
        import threading

        self._function = function
        self._box: dict[str, Any] = {}
        self._started = time.monotonic()
        self._thread = threading.Thread(target=self._run, daemon=True, name="codecairn-plugin-hook")
        self._thread.start()

    def _run(self) -> None:
        try:
            self._box["value"] = self._function()
        except BaseException as exc:  # handed to the caller of result()
            self._box["error"] = exc

    def result(self, seconds: float) -> Any:
        self._thread.join(max(0.0, self._started + seconds - time.monotonic()))
        if self._thread.is_alive():
            raise TimeoutError
        if "error" in self._box:
            raise self._box["error"]
        return self._box.get("value")


def _version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return ""


def _parse_overrides(text: str) -> dict[str, str]:
    out = {}
    for item in text.split(","):
        if "=" in item:
            ext, lang = item.split("=", 1)
            out[ext.strip().lower()] = lang.strip()
    return out


def _missing_extractor(lang: Language) -> str:
    """An extractor named by import path is imported only in the parse workers; a plugin whose
    module or function is not there is reported here, at load, not once per file."""
    if not isinstance(lang.extractor, ImportedOnCall):
        return "" if callable(lang.extractor) else "its extractor is not callable"
    module, sep, name = lang.extractor.target.partition(":")
    if not sep or not module or not name.isidentifier():
        return f"extractor {lang.extractor.target!r} is not of the form 'package.module:function'"
    try:
        found = importlib.util.find_spec(module)
    except (ImportError, ValueError) as exc:
        found, reason = None, f": {exc}"
    else:
        reason = ""
    return "" if found is not None else f"extractor module {module!r} cannot be found{reason}"
