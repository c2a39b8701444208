"""Java call edges checked against the compiler: JUnit 4.13.2's bytecode, read with `javap`.

Debian builds its junit4 jar from the same source as the java-junit4 corpus (patches applied).
`javap -c -p -l -v` lists every invoke instruction of every method with its *declared* target
(`org/junit/runner/notification/RunNotifier.fireTestIgnored:(...)V`: the static type of the
receiver and the method name) and, through the LineNumberTable, the source line it was compiled
from. That is exact ground truth for every call site of the main sources (src/main/java), without
guessing anything: javac resolved each one.

How the two are compared (per file and line, the way a user reads "this line calls that"):

* A call site is the bytecode's declared target, lifted to the declaration it means: the first
  class, from the declared one up its superclasses and then its interfaces (the jar's own
  hierarchy, not codecairn's), that declares a method of that name. `this.getName()` compiled as
  `TestCase.getName` in a subclass, or `runner.run(n)` compiled as `ParentRunner.run`, name the
  method a reader would open. Overloads share a qualified name in codecairn's graph, so the
  method's name is compared, not its descriptor.
* A codecairn edge (resolved: exact / import / inherited) is correct when some call site on the
  same line accepts its target: a method of that name declared by the declared class or one of its
  supertypes (`Runner.run` for a call javac compiled as `ParentRunner.run` is the same virtual
  method, one declaration up; a subtype's override would not be accepted). A constructor call
  (`<init>`) accepts the class or its constructor: codecairn records `new Foo()` as a call of
  `Foo`, `super(...)` as a call of the superclass constructor. `new Foo() { ... }` compiles to
  the anonymous class's constructor, which stands for its supertype `Foo`. javac gives a call the
  line of its `(`, but an object creation no line entry of its own: `new Foo(...)` is on one of
  the lines from the entry in force at its `new` instruction to the next entry (a call in its
  arguments, the next statement), and an edge to `Foo` on any of them matches it. Methods of
  anonymous classes are matched by their lines (javac numbers `Outer$1` per class, codecairn
  names `Outer.member.$1` per enclosing member).
  - precision = correct edges / resolved edges in src/main/java (edges on lines whose bytecode has
    no invoke at all are counted apart, see `no_invoke_on_line`, and are not in the figure);
  - recall = call sites with a correct codecairn edge on their line / call sites whose target is
    declared inside the jar;
  - name-only guesses are counted apart (they are labelled as guesses in every answer), with
    their own precision, and the recall they would add;
  - strict precision (reported, not asserted) accepts only the nearest declaration;
  - caller agreement: for matched sites, codecairn's caller is the method javac compiled the call
    into (field initialisers: the class; anonymous classes are not compared).
* Counted apart, never silently dropped: calls to methods declared outside the jar (the JDK,
  hamcrest, array `clone()`: not in the indexed tree, they cannot resolve in-corpus); code javac
  writes that is not in the source (synthetic accessors `access$000` are followed to the method
  they call; bridge methods, synthetic classes, enum `values()`/`valueOf()`, implicit `super()`
  calls, enum constants' construction and anonymous classes' calls of their super constructor
  are set aside).

The tools are installed by scripts/test-prerequisites.sh (this test installs nothing itself):
`javap` from openjdk-17-jdk-headless, the junit4 .deb fetched with `apt-get download junit4`
into $CODECAIRN_CORPORA/debs.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

CORPORA_ROOT = Path(os.environ.get("CODECAIRN_CORPORA", Path.home() / ".cache" / "codecairn-corpora"))
CORPUS = CORPORA_ROOT / "c" / "java-junit4"
DEBS = CORPORA_ROOT / "debs"
MAIN = "src/main/java/"
VERSION = "4.13.2"
PRECISION_TARGET = 0.90
RECALL_TARGET = 0.60
RESOLVED = ("exact", "import", "inherited")
FETCH = (
    f"run `scripts/test-prerequisites.sh small`, or by hand: `apt-get install -y openjdk-17-jdk-headless` "
    f"and `mkdir -p {DEBS} && cd {DEBS} && apt-get download junit4`"
)


# ---- the bytecode ---------------------------------------------------------------------------------


@dataclass
class Method:
    name: str  # `<init>` for constructors, `<clinit>` for static initialisers
    synthetic: bool  # ACC_SYNTHETIC or ACC_BRIDGE: javac wrote it, not the source
    # (pc, opcode, class, name, created_at): for an `<init>` that completes a `new` of that class (an
    # object creation, rather than a constructor chaining to super/this), the pc of the `new`.
    invokes: list[tuple[int, str, str, str, int | None]] = field(default_factory=list)
    lines: list[tuple[int, int]] = field(default_factory=list)  # (pc, line)

    def line_at(self, pc: int) -> int | None:
        best = None
        for start, line in self.lines:
            if start <= pc and (best is None or start >= best[0]):
                best = (start, line)
        return best[1] if best else None

    def lines_from(self, pc: int) -> tuple[int, int] | None:
        """javac gives an object creation no line entry of its own: `new Foo(...)` lies between the
        line in force at its `new` and the next line entry (a call in its arguments, the next
        statement)."""
        first = self.line_at(pc)
        if first is None:
            return None
        nxt = min(((start, line) for start, line in self.lines if start > pc), default=None)
        return first, (max(first, nxt[1]) if nxt else first)


@dataclass
class ClassFile:
    name: str  # binary name with dots: org.junit.runners.ParentRunner$1
    source: str  # root-relative source path: src/main/java/org/junit/runners/ParentRunner.java
    superclass: str | None
    interfaces: list[str]
    synthetic: bool
    enum: bool
    methods: list[Method] = field(default_factory=list)

    @property
    def anonymous(self) -> bool:
        return any(part.isdigit() for part in self.name.split("$")[1:])

    def declares(self, name: str) -> bool:
        return any(m.name == name for m in self.methods)


_GENERICS = re.compile(r"<[^<>]*>")
_INVOKE = re.compile(
    r"^\s+(\d+): (invoke(?:virtual|static|special|interface))\s+#\d+(?:,\s*\d+)?\s+"
    r"// (?:Interface)?Method (?:(\S+)\.)?(\"?[^\":.]+\"?):"
)
_NEW = re.compile(r"^\s+(\d+): new\s+#\d+\s+// class (\S+)$")
_LINE = re.compile(r"^\s+line (\d+): (\d+)$")


def _strip_generics(text: str) -> str:
    while True:
        stripped = _GENERICS.sub("", text)
        if stripped == text:
            return text
        text = stripped


def parse_javap(text: str) -> dict[str, ClassFile]:
    """`javap -c -p -l -v` output for many classes -> the classes, their methods, invokes, lines."""
    classes: dict[str, ClassFile] = {}
    for block in text.split("\nClassfile "):
        lines = block.splitlines()
        compiled = next((i for i, text in enumerate(lines) if text.strip().startswith("Compiled from ")), None)
        if compiled is None:
            continue
        source_file = lines[compiled].strip()[len("Compiled from ") :].strip('"')
        decl = _strip_generics(lines[compiled + 1])
        m = re.search(r"(?:class|interface|enum)\s+(\S+)(?:\s+extends\s+(.+?))?(?:\s+implements\s+(.+))?\s*$", decl)
        assert m, decl
        name = m.group(1)
        is_interface = re.search(r"\binterface\s", decl) is not None
        listed_extends = [s.strip() for s in (m.group(2) or "").split(",") if s.strip()]
        implements = [s.strip() for s in (m.group(3) or "").split(",") if s.strip()]
        flags = next(text for text in lines if text.startswith("  flags:"))
        if is_interface:
            superclass, interfaces = None, listed_extends
        else:
            superclass = listed_extends[0] if listed_extends else "java.lang.Object"
            interfaces = implements
        package = name.rsplit(".", 1)[0] if "." in name else ""
        cls = ClassFile(
            name=name,
            source=MAIN + package.replace(".", "/") + "/" + source_file,
            superclass=superclass,
            interfaces=interfaces,
            synthetic="ACC_SYNTHETIC" in flags,
            enum="ACC_ENUM" in flags,
        )
        current: Method | None = None
        for i, line in enumerate(lines):
            if (
                line.startswith("  ")
                and not line.startswith("   ")
                and line.endswith(";")
                and i + 1 < len(lines)
                and lines[i + 1].startswith("    descriptor: (")
            ):
                header = line.strip()
                if header == "static {};":
                    mname = "<clinit>"
                else:
                    found = re.search(r"([\w$.]+)\(", _strip_generics(header))
                    assert found, header
                    mname = "<init>" if found.group(1) == name else found.group(1)
                method_flags = lines[i + 2] if i + 2 < len(lines) else ""
                current = Method(mname, "ACC_SYNTHETIC" in method_flags or "ACC_BRIDGE" in method_flags)
                pending: list[tuple[str, int]] = []  # (class, pc) of `new` instructions not yet constructed
                cls.methods.append(current)
                continue
            if current is None:
                continue
            new = _NEW.match(line)
            if new:
                pending.append((new.group(2).replace("/", "."), int(new.group(1))))
                continue
            inv = _INVOKE.match(line)
            if inv:
                target_class = (inv.group(3) or name.replace(".", "/")).replace("/", ".")
                target = inv.group(4).strip('"')
                created_at = None
                if target == "<init>" and pending and pending[-1][0] == target_class:
                    created_at = pending.pop()[1]
                current.invokes.append((int(inv.group(1)), inv.group(2), target_class, target, created_at))
                continue
            ln = _LINE.match(line)
            if ln:
                current.lines.append((int(ln.group(2)), int(ln.group(1))))
        classes[name] = cls
    return classes


# ---- the ground truth -----------------------------------------------------------------------------


@dataclass
class Site:
    """One call site the compiler wrote: where, what it declared, what codecairn may call it."""

    path: str
    lines: tuple[int, int]  # first, last: a call's line; the lines an object creation may be on
    caller: str  # Class.method in binary names
    declared: str  # Class.method as the bytecode names it
    accepts: frozenset[str]  # codecairn qualified names that are right
    nearest: frozenset[str]  # the nearest declaration only (strict)


def codecairn_class(binary: str) -> str:
    return binary.replace("$", ".")


def ancestors(classes: dict[str, ClassFile], name: str) -> list[str]:
    """The class, its superclasses, then its interfaces (breadth first): Java's lookup order."""
    chain, seen = [], set()
    c: str | None = name
    while c is not None and c in classes and c not in seen:
        chain.append(c)
        seen.add(c)
        c = classes[c].superclass
    queue = list(chain)
    out = list(chain)
    while queue:
        nxt = []
        for c in queue:
            for i in classes[c].interfaces if c in classes else ():
                if i not in seen and i in classes:
                    seen.add(i)
                    out.append(i)
                    nxt.append(i)
        queue = nxt
    return out


def constructor_names(classes: dict[str, ClassFile], name: str) -> frozenset[str]:
    """`new Foo()` -> {Foo, Foo.Foo}; an anonymous class stands for the type it extends/implements."""
    cls = classes.get(name)
    if cls is not None and cls.anonymous:
        supertype = cls.interfaces[0] if cls.interfaces else cls.superclass
        if supertype is None or supertype not in classes:
            return frozenset()
        return constructor_names(classes, supertype)
    if cls is None:
        return frozenset()
    qn = codecairn_class(name)
    return frozenset({qn, f"{qn}.{qn.rsplit('.', 1)[-1]}"})


def anonymous_methods(classes: dict[str, ClassFile], records: list[dict[str, Any]]) -> dict[tuple[str, str], str]:
    """(binary class, method) -> codecairn's qualified name, for methods of anonymous classes.

    javac numbers anonymous classes per top-level class (`RuleContainer$1`), codecairn per
    enclosing member (`RuleContainer.ENTRY_COMPARATOR.$1`): the two meet at the method's lines,
    the innermost codecairn method of that name whose declaration spans them."""
    by_file: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for r in records:
        if r["type"] == "symbol" and r["kind"] in ("method", "constructor"):
            by_file[(r["path"], r["name"])].append(r)
    out = {}
    for cls in classes.values():
        if not cls.anonymous:
            continue
        for m in cls.methods:
            if not m.lines or m.synthetic:
                continue
            first = min(line for _, line in m.lines)
            spans = [r for r in by_file.get((cls.source, m.name), ()) if r["start_line"] <= first <= r["end_line"]]
            if spans:
                out[(cls.name, m.name)] = min(spans, key=lambda r: r["end_line"] - r["start_line"])["qualified_name"]
    return out


def ground_truth(
    classes: dict[str, ClassFile], corpus: Path, records: list[dict[str, Any]]
) -> tuple[list[Site], dict[str, int], set[tuple[str, int]]]:
    """Every call site in the main sources, the counts set aside, and every (path, line) with any invoke."""
    anonymous = anonymous_methods(classes, records)

    def method_qn(binary: str, name: str) -> str:
        return anonymous.get((binary, name)) or f"{codecairn_class(binary)}.{name}"

    aside: dict[str, int] = defaultdict(int)
    sites: list[Site] = []
    any_invoke: set[tuple[str, int]] = set()
    source_lines: dict[str, list[str]] = {}

    def text_at(path: str, line: int) -> str:
        if path not in source_lines:
            source_lines[path] = (corpus / path).read_text(encoding="utf-8", errors="replace").splitlines()
        lines = source_lines[path]
        return lines[line - 1] if 0 < line <= len(lines) else ""

    def follow(target_class: str, target: str, depth: int = 0) -> tuple[str, str] | None:
        """A synthetic accessor (`Outer.access$000`) stands for the one method it calls."""
        if not target.startswith("access$") or depth > 2:
            return target_class, target
        cls = classes.get(target_class)
        method = next((m for m in cls.methods if m.name == target), None) if cls else None
        if method is None or not method.invokes:
            return None  # reads or writes a field: not a call
        _, _, c, n, _ = method.invokes[0]
        return follow(c, n, depth + 1)

    for cls in classes.values():
        for method in cls.methods:
            for pc, _opcode, target_class, target, created_at in method.invokes:
                creates = created_at is not None
                lines = method.lines_from(created_at) if creates else (method.line_at(pc),) * 2
                if lines is None or lines[0] is None:
                    aside["no line number"] += 1
                    continue
                line = lines[0]
                any_invoke.update((cls.source, n) for n in range(lines[0], lines[1] + 1))
                if cls.synthetic or method.synthetic:
                    aside["synthetic caller (bridge, accessor, switch map)"] += 1
                    continue
                followed = follow(target_class, target)
                if followed is None:
                    aside["field accessor (not a call)"] += 1
                    continue
                target_class, target = followed
                declared = f"{target_class}.{target}"
                if target == "<init>":
                    if not creates:  # a constructor chaining to super(...) / this(...)
                        written = re.search(r"\b(super|this)\s*\(", text_at(cls.source, line))
                        if cls.anonymous or not written:
                            aside["implicit super() / this()"] += 1
                            continue
                    elif (
                        cls.enum
                        and method.name == "<clinit>"
                        and cls.name in (target_class, getattr(classes.get(target_class), "superclass", None))
                    ):
                        aside["enum constant construction"] += 1
                        continue
                    accepts = constructor_names(classes, target_class)
                    if not accepts:
                        aside["outside the jar (JDK, hamcrest)"] += 1
                        continue
                    sites.append(Site(cls.source, lines, f"{cls.name}.{method.name}", declared, accepts, accepts))
                    continue
                if target_class in classes and classes[target_class].enum and target in ("values", "valueOf"):
                    aside["compiler-generated enum method"] += 1
                    continue
                declaring = [c for c in ancestors(classes, target_class) if classes[c].declares(target)]
                if not declaring:
                    aside["outside the jar (JDK, hamcrest)"] += 1
                    continue
                accepts = frozenset(method_qn(c, target) for c in declaring)
                nearest = frozenset({method_qn(declaring[0], target)})
                sites.append(Site(cls.source, lines, f"{cls.name}.{method.name}", declared, accepts, nearest))
    return sites, dict(aside), any_invoke


# ---- the two tools --------------------------------------------------------------------------------


def javap_tools() -> Path:
    """The junit4 jar from Debian's .deb, unpacked; fails with the commands that fetch what is missing."""
    if shutil.which("javap") is None:
        pytest.fail(f"javap is not on PATH: {FETCH}")
    if not CORPUS.is_dir():
        pytest.fail(f"corpus java-junit4 is missing at {CORPUS}: run `scripts/test-prerequisites.sh small`")
    debs = sorted(DEBS.glob("junit4_*.deb"))
    if not debs:
        pytest.fail(f"the junit4 .deb is not in {DEBS}: {FETCH}")
    deb = debs[-1]
    if not deb.name.startswith(f"junit4_{VERSION}"):
        pytest.fail(f"{deb.name} is not JUnit {VERSION}, the version of the java-junit4 corpus")
    return deb


def unpack_jar(deb: Path, work: Path) -> Path:
    out = work / "deb"
    subprocess.run(["dpkg-deb", "-x", str(deb), str(out)], check=True)
    jar = out / "usr" / "share" / "java" / "junit4.jar"
    assert jar.is_file(), f"no junit4.jar in {deb}"
    return jar


def start_javap(jar: Path, out: Path) -> subprocess.Popen:
    with zipfile.ZipFile(jar) as z:
        names = [n[: -len(".class")].replace("/", ".") for n in z.namelist() if n.endswith(".class")]
    with out.open("w") as sink:  # the child keeps its own copy of the descriptor
        return subprocess.Popen(
            ["javap", "-c", "-p", "-l", "-v", "-cp", str(jar), *sorted(names)],
            stdout=sink,
            stderr=subprocess.PIPE,
            text=True,
        )


def codecairn_export(root: Path, cache: Path) -> list[dict[str, Any]]:
    """Index (cold, private cache) and export the graph, through the CLI a user would run."""
    done = subprocess.run(
        [sys.executable, "-m", "codecairn.cli", "--cache-dir", str(cache), "export", str(root)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return [json.loads(line) for line in done.stdout.splitlines()]


# ---- the comparison -------------------------------------------------------------------------------


def compare(
    sites: list[Site], aside: dict[str, int], any_invoke: set[tuple[str, int]], records: list[dict[str, Any]]
) -> dict[str, Any]:
    by_line: dict[tuple[str, int], list[Site]] = defaultdict(list)
    for s in sites:
        for n in range(s.lines[0], s.lines[1] + 1):
            by_line[(s.path, n)].append(s)

    edges: dict[str, list[dict]] = defaultdict(list)  # resolution label -> edges
    unresolved = 0
    for r in records:
        if r["type"] != "edge" or r["kind"] != "calls" or not r["path"].startswith(MAIN):
            continue
        if r["resolution"] is None:
            unresolved += 1
        else:
            edges[r["resolution"]].append(r)

    def judge(batch: list[dict], strict: bool = False) -> tuple[list[dict], list[dict], int]:
        right, wrong, unjudged = [], [], 0
        for e in batch:
            key = (e["path"], e["line"])
            if key not in any_invoke:
                unjudged += 1
                continue
            ok = any(e["target"] in (s.nearest if strict else s.accepts) for s in by_line.get(key, ()))
            (right if ok else wrong).append(e)
        return right, wrong, unjudged

    resolved = [e for label in RESOLVED for e in edges[label]]
    right, wrong, no_invoke = judge(resolved)
    strict_right, _, _ = judge(resolved, strict=True)
    guessed_right, guessed_wrong, _ = judge(edges["name-only"])

    def found(site: Site, batch: list[dict]) -> bool:
        return any(e["target"] in site.accepts for e in batch)

    def near(index: dict[tuple[str, int], list[dict]], s: Site) -> list[dict]:
        """The edges codecairn has on the site's line (lines, for an object creation)."""
        return [e for n in range(s.lines[0], s.lines[1] + 1) for e in index[(s.path, n)]]

    at_line: dict[tuple[str, int], list[dict]] = defaultdict(list)
    for e in resolved:
        at_line[(e["path"], e["line"])].append(e)
    guessed_at: dict[tuple[str, int], list[dict]] = defaultdict(list)
    for e in edges["name-only"]:
        guessed_at[(e["path"], e["line"])].append(e)
    unique_sites = {(s.path, s.lines, s.declared): s for s in sites}.values()  # finally blocks repeat code
    hit = [s for s in unique_sites if found(s, near(at_line, s))]
    hit_with_guesses = [s for s in unique_sites if found(s, near(at_line, s) + near(guessed_at, s))]
    hit_ids = {id(s) for s in hit}
    missed = [s for s in unique_sites if id(s) not in hit_ids]

    def caller_ok(s: Site, e: dict) -> bool:
        """codecairn's caller for an edge is the method javac compiled the call into (field
        initialisers belong to the class in codecairn, to <init>/<clinit> in bytecode)."""
        cls, _, method = s.caller.rpartition(".")
        if "$" in cls and any(p.isdigit() for p in cls.split("$")[1:]):
            return True  # anonymous classes: named differently by design (`method.$1`)
        qn = codecairn_class(cls)
        names = {qn, f"{qn}.{qn.rsplit('.', 1)[-1]}"} if method in ("<init>", "<clinit>") else {f"{qn}.{method}"}
        return e["source"] in names

    callers_agree = sum(1 for s in hit if any(caller_ok(s, e) for e in near(at_line, s) if e["target"] in s.accepts))

    n = len(right) + len(wrong)
    n_guess = len(guessed_right) + len(guessed_wrong)
    return {
        "files_compared": len({s.path for s in sites}),
        "oracle_call_sites_in_jar": len(unique_sites),
        "set_aside_by_oracle": aside,
        "resolved_edges": n,
        "resolved_by_label": {label: len(edges[label]) for label in RESOLVED},
        "precision": len(right) / n if n else 0.0,
        "precision_strict_nearest_declaration": len(strict_right) / n if n else 0.0,
        "precision_by_label": {
            label: sum(1 for e in right if e["resolution"] == label)
            / max(1, sum(1 for e in right + wrong if e["resolution"] == label))
            for label in RESOLVED
        },
        "recall": len(hit) / len(unique_sites) if unique_sites else 0.0,
        "name_only_edges": n_guess,
        "name_only_precision": len(guessed_right) / n_guess if n_guess else 0.0,
        "recall_with_name_only": len(hit_with_guesses) / len(unique_sites) if unique_sites else 0.0,
        "caller_agreement": callers_agree / len(hit) if hit else 0.0,
        "unresolved_edges": unresolved,
        "no_invoke_on_line": no_invoke,
        "wrong_examples": sorted(
            f"{e['path'][len(MAIN) :]}:{e['line']} {e['source']} -> {e['target']} ({e['resolution']})"
            f" | javap: {sorted(s.declared for s in by_line.get((e['path'], e['line']), ()))}"
            for e in wrong
        )[:15],
        "missed_examples": sorted(f"{s.path[len(MAIN) :]}:{s.lines[0]} {s.caller} -> {s.declared}" for s in missed)[
            :15
        ],
    }


def measure(work: Path) -> dict[str, Any]:
    deb = javap_tools()
    jar = unpack_jar(deb, work)
    out = work / "javap.txt"
    proc = start_javap(jar, out)  # runs while codecairn indexes
    try:
        records = codecairn_export(CORPUS, work / "cache")
    finally:
        _, err = proc.communicate(timeout=900)
    assert proc.returncode == 0, f"javap failed: {err[-2000:]}"
    classes = parse_javap(out.read_text())
    sites, aside, any_invoke = ground_truth(classes, CORPUS, records)
    figures = compare(sites, aside, any_invoke, records)
    figures["classes"] = len(classes)
    return figures


@pytest.mark.slow
def test_java_call_edges_agree_with_the_bytecode(tmp_path: Path) -> None:
    figures = measure(tmp_path)
    print("\n[java javap oracle, JUnit 4.13.2 src/main/java] " + json.dumps(figures, indent=1))
    assert figures["classes"] > 300 and figures["oracle_call_sites_in_jar"] > 1500
    assert figures["precision"] >= PRECISION_TARGET, figures["wrong_examples"]
    assert figures["recall"] >= RECALL_TARGET, figures["missed_examples"]
    assert figures["caller_agreement"] >= 0.95
