"""The rules a write must pass before anything is touched, each with a name a refusal quotes.

A path outside the declared roots is never written (roots.py refuses it, acknowledgement or not).
Inside them, three kinds of places are refused unless the call says ``acknowledge_risk: true``:

* ``git_internals``: anything inside a ``.git`` directory (hooks run code; a broken index or ref
  loses work);
* ``credentials``: well-known credential locations — ``.ssh/``, ``.aws/``, ``.gnupg/``, ``.kube/``,
  ``.env`` files (``.env``, ``.env.local``...), private keys and certificates (``*.pem``, ``*.key``,
  ``*.p12``, ``*.pfx``, ``id_*``), stored passwords (``.netrc``, ``.git-credentials``, ``.pgpass``);
* ``symlink``: a path that passes through a symbolic link (the write would land somewhere other
  than the name says). Acknowledged, the link's target is written and the link stays a link.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass

from codecairn.errors import RISK, ToolError, quoted
from codecairn.files.roots import Place

CREDENTIAL_DIRS = frozenset({".ssh", ".aws", ".gnupg", ".kube"})
CREDENTIAL_NAMES = (".env*", "*.pem", "*.key", "*.p12", "*.pfx", "id_*", ".netrc", ".git-credentials", ".pgpass")
CREDENTIAL_RULE = "it is a well-known credential location (.ssh, .aws, .gnupg, .kube, .env*, keys, .netrc...)"


@dataclass(frozen=True)
class Risk:
    rule: str
    why: str


def risks(place: Place) -> list[Risk]:
    """The rules writing ``place`` would break (empty: none)."""
    parts = place.rel.split("/") if place.rel else []
    found = []
    if ".git" in parts:
        found.append(Risk("git_internals", "it is inside a .git directory"))
    name = parts[-1] if parts else ""
    if any(p in CREDENTIAL_DIRS for p in parts[:-1]) or any(fnmatch.fnmatchcase(name, pat) for pat in CREDENTIAL_NAMES):
        found.append(Risk("credentials", CREDENTIAL_RULE))
    if place.through_link:
        found.append(Risk("symlink", "the path passes through a symbolic link"))
    return found


def check(place: Place, given: str, acknowledged: bool) -> list[str]:
    """Refuse (ToolError ``risk_confirmation_required``, naming the rule) unless acknowledged;
    returns the rules that were acknowledged, for the answer to say."""
    found = risks(place)
    if found and not acknowledged:
        first = found[0]
        raise ToolError(
            RISK,
            f"writing {quoted(given)} is refused by rule {first.rule!r}: {first.why}; nothing was changed. "
            "Repeat the call with acknowledge_risk: true to write it anyway.",
            rule=first.rule,
            rules=[r.rule for r in found],
            path=place.shown,
        )
    return [r.rule for r in found]
