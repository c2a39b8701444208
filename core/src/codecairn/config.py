"""A project's own settings, kept with its code: ``.codecairn/config.toml`` in the root, or a
``[tool.codecairn]`` table in the root's ``pyproject.toml`` (one or the other: both is an error).

    exclude = ["generated/", "*.pb.go"]     # gitignore patterns, on top of .gitignore
    languages = ["python", "go"]            # index only these (default: every installed one)
    embed = false                           # no semantic-search vectors (`--embed` still computes them)
    [limits]
    max_file_bytes = 2_000_000              # larger files are not indexed
    response_bytes = 100_000                # the largest answer the server sends
    tool_timeout_seconds = 30               # a tool call is stopped after this
    search_timeout_seconds = 10             # search_text and find_files stop after this

Who wins: a command-line flag, then the environment variable of the same limit
(``CODECAIRN_MAX_FILE_BYTES``...), then this file, then the default. A file that cannot be read as
these settings (invalid TOML, an unknown key, a wrong type) is refused with the file and the key:
``index`` and ``serve`` do not start on half a configuration, and ``codecairn doctor`` reports it.
A leaf: it imports nothing of codecairn.
"""

from __future__ import annotations

import logging
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pathspec

log = logging.getLogger(__name__)

CONFIG_FILE = ".codecairn/config.toml"
PYPROJECT = "pyproject.toml"
MAX_CONFIG_BYTES = 1 << 20  # a settings file larger than this is not one


class ConfigError(ValueError):
    """A project configuration that cannot be used; the message names the file and the key."""


@dataclass(frozen=True)
class Limit:
    """One per-project limit: its key under [limits], its type, its default and the environment
    variable that overrides the file."""

    key: str
    kind: type
    default: float
    env: str
    minimum: float


LIMITS = (
    Limit("max_file_bytes", int, 4 * 1024 * 1024, "CODECAIRN_MAX_FILE_BYTES", 1),
    Limit("response_bytes", int, 200_000, "CODECAIRN_RESPONSE_BYTES", 1000),
    Limit("tool_timeout_seconds", float, 60.0, "CODECAIRN_TOOL_TIMEOUT", 0.1),
    Limit("search_timeout_seconds", float, 15.0, "CODECAIRN_SEARCH_TIMEOUT", 0.1),
)
_LIMITS = {limit.key: limit for limit in LIMITS}
TOP_KEYS = {
    "exclude": "a list of gitignore patterns",
    "languages": "a list of language names",
    "embed": "true or false",
}


@dataclass(frozen=True)
class ProjectConfig:
    source: str = ""  # the file the settings came from ("" = none: every default)
    exclude: tuple[str, ...] = ()
    languages: tuple[str, ...] | None = None  # None: every installed language
    embed: bool = True
    limits: dict[str, float] = field(default_factory=dict)  # only those the file sets

    def limit(self, key: str) -> Any:
        """A limit's value: the environment variable if it is set (and a number), else the file's,
        else the default."""
        spec = _LIMITS[key]
        raw = os.environ.get(spec.env, "").strip()
        if raw:
            try:
                return spec.kind(float(raw)) if spec.kind is int else float(raw)
            except ValueError:
                pass  # an unusable variable: as if unset (the file, then the default)
        return spec.kind(self.limits.get(key, spec.default))

    @property
    def max_file_bytes(self) -> int:
        return int(self.limit("max_file_bytes"))

    @property
    def response_bytes(self) -> int:
        return int(self.limit("response_bytes"))

    @property
    def tool_timeout_seconds(self) -> float:
        return float(self.limit("tool_timeout_seconds"))

    @property
    def search_timeout_seconds(self) -> float:
        return float(self.limit("search_timeout_seconds"))

    def exclude_spec(self) -> pathspec.PathSpec | None:
        """The excludes as one gitignore spec matched from the root, or None."""
        return pathspec.GitIgnoreSpec.from_lines(self.exclude) if self.exclude else None

    def check_languages(self, installed: dict[str, Any]) -> None:
        """Every named language is one the loaded plugins provide."""
        unknown = [name for name in self.languages or () if name not in installed]
        if unknown:
            raise ConfigError(
                f"{self.source}: languages: {', '.join(repr(n) for n in unknown[:5])} "
                f"{'is not an installed language' if len(unknown) == 1 else 'are not installed languages'} "
                f"(installed: {', '.join(sorted(installed))})"
            )

    def settings(self) -> dict[str, Any]:
        """What the file sets, as it would be written (for doctor and the docs' examples)."""
        out: dict[str, Any] = {}
        if self.exclude:
            out["exclude"] = list(self.exclude)
        if self.languages is not None:
            out["languages"] = list(self.languages)
        if not self.embed:
            out["embed"] = False
        if self.limits:
            out["limits"] = dict(self.limits)
        return out


def load(root: str | os.PathLike) -> ProjectConfig:
    """The settings of the project at ``root`` (every default when it has none)."""
    root = Path(root)
    own = root / CONFIG_FILE
    pyproject = root / PYPROJECT
    table: dict[str, Any] | None = None
    source = ""
    if _present(own):
        table, source = _read(own), str(own)
    if _present(pyproject):
        tool = _read(pyproject).get("tool", {})
        theirs = tool.get("codecairn") if isinstance(tool, dict) else None
        if theirs is not None:
            if table is not None:
                raise ConfigError(
                    f"{own} and [tool.codecairn] in {pyproject} both configure codecairn: keep one of them"
                )
            if not isinstance(theirs, dict):
                raise ConfigError(f"{pyproject}: tool.codecairn must be a table")
            table, source = theirs, f"{pyproject} [tool.codecairn]"
    if table is None:
        return ProjectConfig()
    return _parse(table, source)


def _present(path: Path) -> bool:
    """Whether a settings file is there. A root that cannot be searched (its permissions taken
    away) hides its settings as it hides its files: the stored index is still served, with the
    defaults, and the warning says why. A file that is there but unreadable is an error (_read)."""
    try:
        return path.is_file()
    except PermissionError as exc:
        log.warning("cannot look for settings in %s (%s): using the defaults", path.parent, exc.strerror or exc)
        return False


def _read(path: Path) -> dict[str, Any]:
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_CONFIG_BYTES + 1)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    if len(data) > MAX_CONFIG_BYTES:
        raise ConfigError(f"{path}: larger than {MAX_CONFIG_BYTES} bytes; not a settings file")
    try:
        return tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML ({exc})") from None


def _parse(table: dict[str, Any], source: str) -> ProjectConfig:
    def wrong(key: str, expected: str, value: Any) -> ConfigError:
        shown = repr(value) if len(repr(value)) <= 60 else repr(value)[:60] + "…"
        return ConfigError(f"{source}: {key} must be {expected}, not {type(value).__name__} {shown}")

    unknown = sorted(set(table) - set(TOP_KEYS) - {"limits"})
    if unknown:
        known = ", ".join([*TOP_KEYS, "limits"])
        raise ConfigError(f"{source}: unknown key {unknown[0]!r} (known: {known})")
    exclude = _strings(table, "exclude", wrong)
    if exclude:
        try:
            pathspec.GitIgnoreSpec.from_lines(exclude)
        except Exception as exc:  # pathspec raises several types for a pattern it cannot compile
            raise ConfigError(f"{source}: exclude: {exc}") from None
    languages = _strings(table, "languages", wrong) if "languages" in table else None
    embed = table.get("embed", True)
    if not isinstance(embed, bool):
        raise wrong("embed", TOP_KEYS["embed"], embed)
    limits_table = table.get("limits", {})
    if not isinstance(limits_table, dict):
        raise wrong("limits", "a table", limits_table)
    limits: dict[str, float] = {}
    for key, value in limits_table.items():
        spec = _LIMITS.get(key)
        if spec is None:
            raise ConfigError(f"{source}: unknown key 'limits.{key}' (known: {', '.join(_LIMITS)})")
        number_types = (int,) if spec.kind is int else (int, float)
        if isinstance(value, bool) or not isinstance(value, number_types):
            raise wrong(f"limits.{key}", "an integer" if spec.kind is int else "a number", value)
        if value < spec.minimum:
            raise ConfigError(f"{source}: limits.{key} must be at least {spec.minimum:g}, not {value}")
        limits[key] = value
    return ProjectConfig(source, tuple(exclude), tuple(languages) if languages is not None else None, embed, limits)


def _strings(table: dict[str, Any], key: str, wrong: Any) -> list[str]:
    value = table.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise wrong(key, TOP_KEYS[key], value)
    return value
