"""Does a grammar pack's query compile? Asked of a child process, not of the process that will serve.

Compiling a pack's query reads much of its grammar (C#'s parse tables are megabytes): the pages
stay in the process's RSS for the rest of its life although it may never parse a file of that
language (its parse workers compile their own copy). A server's first start with a new cache
directory checked the C, C++, C#, PHP and Ruby packs and kept 13 MB more RSS than the next start,
which finds the checks remembered (``packs._known_good``); checked here, in ``python -m
codecairn.extractors.query_check MODULE FUNCTION`` with the query text on stdin, it keeps none.
The server's own interpreter, an argument vector, a time limit: like the int8 model's build.
"""

from __future__ import annotations

import subprocess
import sys

CHECK_TIMEOUT = 60.0
DOES_NOT_COMPILE = 3  # the child's exit status when the query does not compile


def compiles(module: str, function: str, source: str) -> bool | None:
    """Does ``source`` compile against ``module.function()``'s grammar? None when the child could not
    say (it could not start, import the grammar, or finish in time): the caller checks in-process."""
    try:
        child = subprocess.run(
            [sys.executable, "-m", "codecairn.extractors.query_check", module, function],
            input=source.encode(),
            capture_output=True,
            timeout=CHECK_TIMEOUT,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if child.returncode == 0:
        return True
    if child.returncode == DOES_NOT_COMPILE:
        return False
    return None


def main(argv: list[str]) -> int:
    import importlib

    from tree_sitter import Language, Query, QueryError

    module, function = argv
    language = Language(getattr(importlib.import_module(module), function)())
    try:
        Query(language, sys.stdin.buffer.read().decode())
    except QueryError:
        return DOES_NOT_COMPILE
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
