"""Questions agents really ask about code they have not read, over two real corpora (rich, and
CPython's Lib), each with the tool call an agent makes for it and the facts a right answer must
contain.

A fact is a string that must appear in the answer's text (a path, a line number, part of a
signature), or a qualified name with its file, ``"pdb.Pdb.do_run@pdb.py"``: the answer names it in
full, or lists ``Pdb.do_run`` inside the group of ``pdb.py`` (docs/tools.md: names inside a file's
group are relative to the file's module). That is the measure of "no fact lost" when answers are
made smaller. Kinds
group the questions the way agents phrase them ("where is X defined", "what is in this module",
"what does X extend"...), so that answer sizes can be compared per kind.

Written for benchmarks/test_answer_tokens.py; shareable with any benchmark that needs real agent
questions with known answers (import ``QUESTIONS``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

RICH = "py-rich"  # small tier
CPYTHON = "py-cpython-lib"  # large tier


@dataclass(frozen=True)
class Question:
    id: str
    corpus: str
    kind: str
    text: str
    tool: str
    args: dict[str, Any]
    facts: tuple[str, ...]
    note: str = field(default="", compare=False)


def q(id: str, corpus: str, kind: str, text: str, tool: str, args: dict[str, Any], *facts: str) -> Question:
    return Question(id, corpus, kind, text, tool, args, facts)


QUESTIONS: list[Question] = [
    # ---- where is X defined ------------------------------------------------------------------
    q("where-console", RICH, "where", "Where is Console defined?", "find_symbols", {"name": "Console"},
      "rich/console.py", "581"),
    q("where-live", RICH, "where", "Where is Live defined?", "find_symbols", {"name": "Live"}, "rich/live.py", "41"),
    q("where-segment", RICH, "where", "Where is Segment defined?", "find_symbols", {"name": "Segment"},
      "rich/segment.py", "61"),
    q("where-progress", RICH, "where", "Where is Progress defined?", "find_symbols", {"name": "Progress"},
      "rich/progress.py", "1061"),
    q("where-syntax", RICH, "where", "Where is Syntax defined?", "find_symbols", {"name": "Syntax"},
      "rich/syntax.py", "243"),
    q("where-jsondecoder", CPYTHON, "where", "Where is JSONDecoder defined?", "find_symbols",
      {"name": "JSONDecoder"}, "json/decoder.py", "254"),
    q("where-httpconnection", CPYTHON, "where", "Where is HTTPConnection defined?", "find_symbols",
      {"name": "HTTPConnection"}, "http/client.py", "809"),
    q("where-argumentparser", CPYTHON, "where", "Where is ArgumentParser defined?", "find_symbols",
      {"name": "ArgumentParser"}, "argparse.py", "1720"),
    q("where-thread", CPYTHON, "where", "Where is Thread defined?", "find_symbols", {"name": "Thread"},
      "threading.py", "838"),
    q("where-dataclass", CPYTHON, "where", "Where is dataclass defined?", "find_symbols", {"name": "dataclass"},
      "dataclasses.py", "1192"),
    q("where-path", CPYTHON, "where", "Where is Path defined?", "find_symbols", {"name": "Path"}, "pathlib.py", "858"),
    q("where-ordereddict", CPYTHON, "where", "Where is OrderedDict defined?", "find_symbols",
      {"name": "OrderedDict"}, "collections/__init__.py", "78"),
    # ---- what is in this module --------------------------------------------------------------
    q("outline-live", RICH, "outline", "What is in rich/live.py?", "file_outline", {"path": "rich/live.py"},
      "_RefreshThread", "22", "Live", "41", "def start(self, refresh: bool = False) -> None", "111", "JupyterMixin"),
    q("outline-segment", RICH, "outline", "What is in rich/segment.py?", "file_outline", {"path": "rich/segment.py"},
      "ControlType", "Segment", "61", "def split_cells(self, cut: int)", "155"),
    q("outline-progress-bar", RICH, "outline", "What is in rich/progress_bar.py?", "file_outline",
      {"path": "rich/progress_bar.py"}, "ProgressBar", "18", "def update(self, completed: float, total: Optional[float] = None) -> None",
      "116", "lru_cache"),
    q("outline-rich-init", RICH, "outline", "What is in rich/__init__.py?", "file_outline",
      {"path": "rich/__init__.py"}, "get_console", "23", "reconfigure", "39", "print_json", "77"),
    q("outline-json-decoder", CPYTHON, "outline", "What is in json/decoder.py?", "file_outline",
      {"path": "json/decoder.py"}, "JSONDecodeError", "20", "def py_scanstring(s, end, strict=True", "JSONArray", "217"),
    q("outline-shlex", CPYTHON, "outline", "What is in shlex.py?", "file_outline", {"path": "shlex.py"},
      "def push_token(self, tok)", "72", "def split(s, comments=False, posix=True)", "305"),
    q("outline-textwrap", CPYTHON, "outline", "What is in textwrap.py?", "file_outline", {"path": "textwrap.py"},
      "TextWrapper", "def dedent(text)", "419", "def shorten(text, width, **kwargs)"),
    q("outline-json-init", CPYTHON, "outline", "What is in json/__init__.py?", "file_outline",
      {"path": "json/__init__.py"}, "def dumps(obj, *, skipkeys=False", "183", "def loads(s, *, cls=None"),
    # ---- what does X extend ------------------------------------------------------------------
    q("extends-live", RICH, "extends", "What does Live extend?", "get_symbol", {"name": "rich.live.Live"},
      "rich.jupyter.JupyterMixin@rich/jupyter.py", "rich.console.RenderHook@rich/console.py"),
    q("extends-table", RICH, "extends", "What does Table extend?", "get_symbol", {"name": "rich.table.Table"},
      "rich.jupyter.JupyterMixin@rich/jupyter.py"),
    q("extends-progress-column", RICH, "extends", "What does ProgressColumn extend?", "get_symbol",
      {"name": "rich.progress.ProgressColumn"}, "ABC"),
    q("extends-https-connection", CPYTHON, "extends", "What does HTTPSConnection extend?", "get_symbol",
      {"name": "http.client.HTTPSConnection"}, "http.client.HTTPConnection@http/client.py"),
    q("extends-json-decode-error", CPYTHON, "extends", "What does JSONDecodeError extend?", "get_symbol",
      {"name": "json.decoder.JSONDecodeError"}, "ValueError"),
    q("extends-argument-defaults", CPYTHON, "extends", "What does ArgumentDefaultsHelpFormatter extend?",
      "get_symbol", {"name": "argparse.ArgumentDefaultsHelpFormatter"}, "argparse.HelpFormatter@argparse.py"),
    # ---- what extends X ----------------------------------------------------------------------
    q("subclasses-jupyter-mixin", RICH, "subclasses", "Which classes extend JupyterMixin?", "get_symbol",
      {"name": "rich.jupyter.JupyterMixin"}, "rich.live.Live@rich/live.py", "rich.table.Table@rich/table.py", "rich.panel.Panel@rich/panel.py"),
    q("subclasses-progress-column", RICH, "subclasses", "Which classes extend ProgressColumn?", "get_symbol",
      {"name": "rich.progress.ProgressColumn"}, "rich.progress.SpinnerColumn@rich/progress.py", "rich.progress.BarColumn@rich/progress.py"),
    q("subclasses-help-formatter", CPYTHON, "subclasses", "Which classes extend argparse's HelpFormatter?",
      "get_symbol", {"name": "argparse.HelpFormatter"}, "argparse.RawDescriptionHelpFormatter@argparse.py",
      "argparse.ArgumentDefaultsHelpFormatter@argparse.py"),
    q("subclasses-json-encoder", CPYTHON, "subclasses", "Which classes extend JSONEncoder?", "get_symbol",
      {"name": "json.encoder.JSONEncoder"}, "test.libregrtest.runtest_mp.EncodeTestResult@test/libregrtest/runtest_mp.py"),
    # ---- who calls X -------------------------------------------------------------------------
    q("callers-split-and-crop", RICH, "callers", "Who calls Segment.split_and_crop_lines?", "get_symbol",
      {"name": "rich.segment.Segment.split_and_crop_lines"}, "rich.console.Console.render_lines@rich/console.py", "1381",
      "rich.console.Console.print@rich/console.py", "1751"),
    q("callers-from-markup", RICH, "callers", "Who calls Text.from_markup?", "get_symbol",
      {"name": "rich.text.Text.from_markup"}, "rich.panel.Panel._title@rich/panel.py", "113", "rich.logging.RichHandler.render_message@rich/logging.py"),
    q("callers-shlex-split", CPYTHON, "callers", "Who calls shlex.split?", "get_symbol", {"name": "shlex.split"},
      "pdb.Pdb.do_run@pdb.py", "1114", "idlelib.query.CustomRun.cli_args_ok@idlelib/query.py"),
    q("callers-json-decode-error", CPYTHON, "callers", "Who raises JSONDecodeError?", "get_symbol",
      {"name": "json.decoder.JSONDecodeError"}, "json.loads@json/__init__.py", "335", "json.decoder.py_scanstring@json/decoder.py"),
    # ---- what does X call --------------------------------------------------------------------
    q("callees-console-print", RICH, "callees", "What does Console.print call?", "get_symbol",
      {"name": "rich.console.Console.print"}, "rich.console.Console._collect_renderables@rich/console.py",
      # `render = self.render; render(...)`: Console.render (a name-only guess once said rich.markup.render)
      "rich.segment.Segment.split_and_crop_lines@rich/segment.py", "rich.console.Console.render@rich/console.py"),
    q("callees-shlex-split", CPYTHON, "callees", "What does shlex.split call?", "get_symbol",
      {"name": "shlex.split"}, "warnings.warn@warnings.py", "shlex.shlex@shlex.py"),
    q("callees-json-dumps", CPYTHON, "callees", "What does json.dumps call?", "get_symbol", {"name": "json.dumps"},
      "json.encoder.JSONEncoder.encode@json/encoder.py"),
    # ---- how do I call X ---------------------------------------------------------------------
    q("signature-from-markup", RICH, "signature", "How do I call Text.from_markup?", "get_symbol",
      {"name": "rich.text.Text.from_markup"}, "emoji: bool = True", "Create Text instance from markup"),
    q("signature-split-and-crop", RICH, "signature", "How do I call Segment.split_and_crop_lines?", "get_symbol",
      {"name": "rich.segment.Segment.split_and_crop_lines"}, "length: int", "include_new_lines: bool = True"),
    q("signature-json-dumps", CPYTHON, "signature", "How do I call json.dumps?", "get_symbol", {"name": "json.dumps"},
      "sort_keys=False", "Serialize"),
    q("signature-dedent", CPYTHON, "signature", "How do I call textwrap.dedent?", "get_symbol",
      {"name": "textwrap.dedent"}, "def dedent(text)", "Remove any common leading whitespace"),
    # ---- which names match a pattern ---------------------------------------------------------
    q("pattern-progress-columns", RICH, "pattern", "Which *Column classes are in rich/progress.py?", "find_symbols",
      {"pattern": "*Column", "path": "rich/progress.py"}, "rich.progress.BarColumn@rich/progress.py", "rich.progress.SpinnerColumn@rich/progress.py",
      "rich.progress.TransferSpeedColumn@rich/progress.py"),
    q("pattern-json-errors", CPYTHON, "pattern", "Which *Error classes does json define?", "find_symbols",
      {"pattern": "*Error", "path": "json"}, "json.decoder.JSONDecodeError@json/decoder.py"),
]  # fmt: skip


def corpora() -> list[str]:
    return sorted({question.corpus for question in QUESTIONS})


def has_fact(text: str, fact: str) -> bool:
    """Does an answer's text hold ``fact`` (see the module's docstring)?"""
    qualified, at, path = fact.partition("@")
    if not at or qualified in text:
        return fact in text if not at else True
    local = qualified.removeprefix(python_module(path) + ".")
    return any(local in json.dumps(group) for group in file_groups(json.loads(text), path))


def python_module(path: str) -> str:
    return path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")


def file_groups(value: Any, path: str) -> list[Any]:
    """Every value the answer keys by ``path`` (a file's group), however deep."""
    found = []
    if isinstance(value, dict):
        for key, item in value.items():
            if key == path:
                found.append(item)
            found.extend(file_groups(item, path))
    elif isinstance(value, list):
        for item in value:
            found.extend(file_groups(item, path))
    return found
