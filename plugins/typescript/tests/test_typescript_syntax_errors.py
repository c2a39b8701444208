"""Broken or too-modern code still answers: declarations outside a syntax error are extracted and
the file is marked partial; TypeScript the PyPI grammar cannot parse (variance annotations, const
type parameters, newline-separated generic call signatures, tagged templates with type arguments,
escaped backticks in template literal types) is repaired before extraction, so those files lose
nothing."""

from codecairn_typescript.repair import repair


def test_declarations_around_a_syntax_error_survive(extract):
    facts = extract(
        """
        export class Before {
          ok() {}
        }
        export function broken( {
          return ;;; }}} ]]
        export class After {
          alsoOk() { call(); }
        }
        """,
        path="src/broken.ts",
    )
    assert facts.facts.partial
    assert {"src/broken.Before", "src/broken.Before.ok", "src/broken.After", "src/broken.After.alsoOk"} <= set(
        facts.names()
    )
    after = facts.symbol("src/broken.After")
    assert (after.start_line, after.start_col) == (6, 7)


def test_variance_annotations_and_const_type_parameters(extract):
    facts = extract(
        """
        export interface Queue<in out A, out E = never> extends Pipeable {
          offer(value: A): boolean
        }
        export const tuple = <const T extends ReadonlyArray<unknown>>(...items: T): T => items
        export class Ref<in out A> {
          get(): A { return this.value }
        }
        """,
        path="src/Queue.ts",
    )
    assert facts.grammar_failed and not facts.facts.partial
    queue = facts.symbol("src/Queue.Queue")
    assert queue.signature == "interface Queue<in out A, out E = never> extends Pipeable"  # the original text
    assert facts.bases("src/Queue.Queue") == [("extends", "Pipeable")]
    assert facts.symbol("src/Queue.Queue.offer").kind == "method"
    assert facts.symbol("src/Queue.tuple").kind == "function"
    assert facts.symbol("src/Queue.Ref.get").start_line == 6


def test_newline_separated_generic_call_signatures(extract):
    facts = extract(
        """
        export const map: {
          /**
           * Data-last.
           */
          <A, B>(f: (a: A) => B): (self: Array<A>) => Array<B>
          /**
           * Data-first.
           */
          <A, B>(self: Array<A>, f: (a: A) => B): Array<B>
          <
            A,
            const K extends string
          >(self: Array<A>, key: K): Array<B>
        } = dual(2, <A, B>(self: Array<A>, f: (a: A) => B): Array<B> => self.map(f))

        export const flatMap = <A, B>(self: Array<A>, f: (a: A) => Array<B>) => self.flatMap(f)
        """,
        path="src/Array.ts",
    )
    assert facts.grammar_failed and not facts.facts.partial
    assert facts.symbol("src/Array.map").kind == "constant"
    assert facts.symbol("src/Array.flatMap").start_line == 16
    assert ("src/Array.map", "", "dual") in facts.calls()  # the constant's initializer: its own call


def test_tagged_templates_with_type_arguments_and_escaped_backticks_in_types(extract):
    facts = extract(
        """
        type Hint<U extends string> = `use \\`Self\\` with ${U}`
        export const count = sql<{ count: number }>`SELECT COUNT(*) FROM t`.pipe(first)
        export function after() {}
        """,
        path="src/sql.ts",
    )
    assert facts.grammar_failed and not facts.facts.partial
    assert facts.symbol("src/sql.Hint").kind == "type"
    assert facts.symbol("src/sql.count").kind == "constant"
    assert facts.symbol("src/sql.after").start_line == 3


def test_repairs_keep_every_byte_offset():
    source = (
        b"interface A<in out K, out V> {}\n"
        b"const f: {\n  (n: number): <A>(a: A) => A\n  <A>(a: A, n: number): A\n} = g\n"
        b"const r = sql<{ id: string }>`x`\n"
        b"type T = `a \\`b\\``\n"
    )
    fixed = repair(source)
    assert fixed is not None and len(fixed) == len(source)
    assert [i for i, c in enumerate(fixed) if c == ord("\n")] == [i for i, c in enumerate(source) if c == ord("\n")]
    assert b"interface A<       K,     V>" in fixed
    assert b"\n ;<A>(a: A, n: number): A" in fixed


def test_a_repair_is_only_kept_when_it_helps(extract):
    # `<A>(a)` on its own line after `=` is a generic arrow function, not a call signature
    facts = extract(
        """
        export const id =
          <A>(a: A): A => a
        export function after() {}
        """,
        path="src/id.ts",
    )
    assert not facts.facts.partial
    assert facts.symbol("src/id.id").kind == "function"
    assert repair(b"export const id =\n  <A>(a: A): A => a\n") is None


def test_repairs_stay_fast_on_comment_banners():
    """`//////` banners after a comma once made the variance pattern backtrack exponentially."""
    import time

    source = (b"call(a, " + b"/" * 80 + b" section\n  b)\n") * 200 + b"interface A<out T> {}\n"
    start = time.perf_counter()
    fixed = repair(source)
    assert time.perf_counter() - start < 1.0
    assert fixed.endswith(b"interface A<    T> {}\n")


def test_pathological_files_do_not_break_extraction(extract):
    assert extract("").symbols == []
    assert extract("// just a comment\n/** and a doc */\n").symbols == []
    chain = "export const built = make()" + "".join(f".with{i}()" for i in range(3000)) + ";\n"
    facts = extract(chain, path="src/generated.ts")
    receivers = [r.receiver for r in facts.facts.relations]
    assert len(receivers) == 3001 and max(len(r) for r in receivers) < 200
    nested = "export const deep = " + "[" * 400 + "1" + "]" * 400 + ";\n"
    assert extract(nested).symbol("src/app/main.deep").kind == "constant"
    junk = extract("\x00\x01 export class \xff\xfe Ok {} }}} ((( \n", path="src/junk.js")
    assert junk.facts.partial
