"""The lines above a definition that belong to it. A symbol's lines start where its grammar's
definition node starts: a Python ``def`` or a Rust ``struct`` line, while its decorators
(``@property``, ``@app.route(...)``) and attributes (``#[derive(Debug)]``) stand above it, and so do
the comments that document it (javadoc, ``///``, Go's ``//``). Code inserted "before" a symbol goes
above all of them — between a decorator and its ``def`` it would take the decorator from it — and
reading or replacing a symbol covers its decorators, which are part of what it is.

Read from the text alone, by the language's syntax for decorators and comments (its plugin's
``Language.attached``), upwards from the symbol's first line, stopping at the first line that is
neither (a blank line ends them too).
"""

from __future__ import annotations

from collections.abc import Sequence

from codecairn.hookspecs import AttachedLines, Language


def syntax_of(language: Language | None) -> AttachedLines:
    return language.attached if language is not None else AttachedLines()


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def decorated_start(lines: Sequence[str], start_line: int, syntax: AttachedLines) -> int:
    """The first line of the decorators (annotations, attributes) directly above ``start_line``
    (1-based), a decorator written over several lines included; ``start_line`` when there are none
    or the language is not known here."""
    return _attached_start(lines, start_line, syntax, comments=False)


def leading_start(lines: Sequence[str], start_line: int, syntax: AttachedLines) -> int:
    """decorated_start, and above it the comments directly above the definition: where code
    inserted before the definition goes."""
    return _attached_start(lines, start_line, syntax, comments=True)


def _attached_start(lines: Sequence[str], start_line: int, syntax: AttachedLines, comments: bool) -> int:
    if not (syntax.decorators or syntax.comments) or not 1 < start_line <= len(lines):
        return start_line
    indent = _indent(lines[start_line - 1])
    top = start_line
    i = start_line - 1  # 1-based number of the line looked at
    while i >= 1:
        line = lines[i - 1]
        text = line.strip()
        if not text:
            break
        at = _indent(line)
        if at == indent and syntax.decorators and text.startswith(syntax.decorators):
            top = i
            i -= 1
            continue
        if comments and at == indent and text.startswith(syntax.comments):
            top = i
            i -= 1
            continue
        if comments and text.endswith("*/") and "/*" in syntax.comments:
            # A block comment's last line: the whole block, when it opens at the definition's indent
            opening = i
            while opening >= 1 and "/*" not in lines[opening - 1]:
                opening -= 1
            if opening < 1 or _indent(lines[opening - 1]) != indent or not lines[opening - 1].strip().startswith("/*"):
                break
            top = i = opening
            i -= 1
            continue
        if at > indent or text[0] in ")]}":
            # Inside a decorator written over several lines (`@route(\n    "/x",\n)`): part of it
            # only if the decorator's first line is found above
            first = i - 1
            while first >= 1:
                above = lines[first - 1]
                if above.strip() and _indent(above) <= indent and above.strip()[0] not in ")]}":
                    break
                first -= 1
            if (
                first >= 1
                and _indent(lines[first - 1]) == indent
                and syntax.decorators
                and lines[first - 1].strip().startswith(syntax.decorators)
            ):
                top = first
                i = first - 1
                continue
            break
        break
    return top
