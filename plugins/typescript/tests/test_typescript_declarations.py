"""An agent asks "where is X defined, what is its signature, what does its doc say" about
TypeScript: every declaration form comes back with a module-qualified name, its range, signature,
first doc line and modifiers."""


def test_a_class_its_members_and_their_modifiers(extract):
    facts = extract(
        """
        /**
         * Charges customers.
         * @see Billing
         */
        export abstract class PaymentService<T> extends Base<T> implements Service {
          private readonly repo: Repo;
          static instances = 0;
          #secret = "";

          constructor(private gateway: Gateway, public readonly region?: string) {
            super();
          }

          /** The display name. */
          get name(): string { return "payments"; }
          set name(value: string) {}

          async charge(order: Order): Promise<Receipt> { return this.gateway.pay(order); }
          async *history() {}
          abstract refund(id: string): void;
          protected override toString() { return ""; }
          onEvent = (e: Event) => this.charge(e.order);
        }
        """,
        path="src/billing/payment.ts",
    )
    cls = facts.symbol("src/billing/payment.PaymentService")
    assert (cls.kind, cls.start_line, cls.end_line) == ("class", 5, 23)
    assert cls.signature == "abstract class PaymentService<T> extends Base<T> implements Service"
    assert cls.doc == "Charges customers."
    assert set(cls.modifiers) == {"export", "abstract"}

    def member(name):
        return facts.symbol(f"src/billing/payment.PaymentService.{name}")

    assert member("repo").kind == "property" and set(member("repo").modifiers) == {"private", "readonly"}
    assert member("instances").modifiers == ("static",)
    assert member("#secret").kind == "property"
    assert member("constructor").kind == "constructor"
    # constructor parameter properties are fields of the class
    assert member("gateway").kind == "property" and member("gateway").modifiers == ("private",)
    assert set(member("region").modifiers) == {"public", "readonly"}
    getter, setter = [s for s in facts.symbols if s.qualified_name.endswith(".name")]
    assert (getter.modifiers, setter.modifiers) == (("get",), ("set",))
    assert getter.doc == "The display name."
    assert member("charge").signature == "async charge(order: Order): Promise<Receipt>"
    assert member("charge").modifiers == ("async",)
    assert set(member("history").modifiers) == {"async", "generator"}
    assert member("refund").modifiers == ("abstract",)
    assert set(member("toString").modifiers) == {"protected", "override"}
    assert member("onEvent").kind == "method"  # a class field holding an arrow function
    assert all(s.parent == 0 for s in facts.symbols[1:])  # every member's parent is the class


def test_interfaces_type_aliases_and_enums(extract):
    facts = extract(
        """
        export interface Repository<T> extends Reader<T>, Writer<T> {
          readonly size: number;
          find(id: string): T | undefined;
        }
        export type Id = string | number;
        export const enum Color { Red = "r", Green = "g" }
        enum Plain { A, B = 2, "quoted" }
        """,
        path="src/model.ts",
    )
    repo = facts.symbol("src/model.Repository")
    assert repo.kind == "interface"
    assert facts.bases("src/model.Repository") == [("extends", "Reader"), ("extends", "Writer")]
    assert facts.symbol("src/model.Repository.size").kind == "property"
    assert facts.symbol("src/model.Repository.find").signature == "find(id: string): T | undefined"
    alias = facts.symbol("src/model.Id")
    assert (alias.kind, alias.signature) == ("type", "type Id = string | number")
    assert facts.symbol("src/model.Color").modifiers == ("export", "const")
    assert facts.names("enum_member") == [
        "src/model.Color.Red",
        "src/model.Color.Green",
        "src/model.Plain.A",
        "src/model.Plain.B",
        "src/model.Plain.quoted",
    ]


def test_functions_generators_and_function_valued_variables(extract):
    facts = extract(
        """
        /** Adds two numbers. */
        export function add(a: number, b: number): number { return a + b; }
        function* ids() { yield 1; }
        export const double = (x: number): number => x * 2;
        const legacy = function (x) { return x; };
        let handler = async function* stream() {};
        export const LIMIT = 10;
        export let counter = 0;
        const { host, port: listenPort } = config;
        """,
        path="src/math/index.ts",
    )
    add = facts.symbol("src/math.add")
    assert (add.kind, add.doc, add.signature) == (
        "function",
        "Adds two numbers.",
        "function add(a: number, b: number): number",
    )
    assert facts.symbol("src/math.ids").modifiers == ("generator",)
    double = facts.symbol("src/math.double")
    assert (double.kind, double.signature) == ("function", "const double = (x: number): number =>")
    assert facts.symbol("src/math.legacy").kind == "function"
    assert set(facts.symbol("src/math.handler").modifiers) == {"async", "generator"}
    assert facts.symbol("src/math.LIMIT").kind == "constant"
    assert facts.symbol("src/math.counter").kind == "variable"
    # destructuring binds the local names, at their own positions
    assert facts.symbol("src/math.listenPort").start_line == 9
    assert "src/math.host" in facts.names("constant")


def test_overloads_are_one_symbol_from_first_signature_to_implementation(extract):
    facts = extract(
        """
        /** Parses a value. */
        export function parse(input: string): Ast;
        export function parse(input: Buffer): Ast;
        export function parse(input: string | Buffer): Ast {
          return build(input);
        }
        class Reader {
          read(n: number): string;
          read(): string;
          read(n?: number) { return ""; }
        }
        """
    )
    parse = facts.symbol("src/app/main.parse")
    assert (parse.start_line, parse.end_line) == (2, 6)
    assert parse.signature == "function parse(input: string): Ast"
    assert parse.doc == "Parses a value."
    read = facts.symbol("src/app/main.Reader.read")
    assert (read.start_line, read.end_line) == (8, 10)
    assert facts.calls() == [("src/app/main.parse", "", "build")]  # the implementation body is parse's


def test_namespaces_ambient_modules_and_global_augmentations(extract):
    facts = extract(
        """
        export namespace Geometry.Shapes {
          export class Circle {}
          export function area(c: Circle): number { return 0; }
        }
        declare module "express" {
          interface Request { user?: User }
        }
        declare global {
          interface Window { app: App }
        }
        declare function ambient(x: number): void;
        """,
        path="src/geo.ts",
    )
    ns = facts.symbol("src/geo.Geometry.Shapes")
    assert (ns.kind, ns.modifiers) == ("namespace", ("export",))
    assert facts.parent_of("src/geo.Geometry.Shapes.Circle") == "src/geo.Geometry.Shapes"
    assert facts.symbol("src/geo.Geometry.Shapes.area").kind == "function"
    # an ambient module names the package it describes; `declare global` adds globals
    assert facts.symbol("express").kind == "namespace"
    assert facts.symbol("express.Request").kind == "interface"
    assert facts.symbol("Window").kind == "interface"
    assert facts.symbol("src/geo.ambient").modifiers == ("declare",)


def test_default_exports_are_named_by_their_own_name_or_default(extract):
    named = extract("export default class Router {}\n", path="src/router.ts")
    assert set(named.symbol("src/router.Router").modifiers) == {"export", "default"}
    anonymous = extract("export default function (req: Request) { handle(req); }\n", path="src/handler.ts")
    fn = anonymous.symbol("src/handler.default")
    assert (fn.kind, fn.modifiers) == ("function", ("export", "default"))
    assert anonymous.calls() == [("src/handler.default", "", "handle")]
    obj = extract("export default { install(app) { app.use(); } };\n", path="src/plugin.ts")
    assert obj.symbol("src/plugin.default.install").kind == "method"


def test_methods_of_named_object_literals(extract):
    facts = extract(
        """
        export const api = {
          async get(url: string) { return fetch(url); },
          post: (url: string, body: unknown) => send(url, body),
          nested: { remove: function () {} },
          version: "1.0",
        };
        function build() {
          const visitors = { Program(node) { enter(node); } };
          return { anonymous() {} };
        }
        """,
        path="src/api.ts",
    )
    assert facts.symbol("src/api.api").kind == "constant"
    assert facts.symbol("src/api.api.get").modifiers == ("async",)
    assert facts.symbol("src/api.api.post").kind == "method"
    assert facts.symbol("src/api.api.nested.remove").kind == "method"
    assert "src/api.api.version" not in facts.names()  # data, not a definition
    assert facts.symbol("src/api.build.visitors.Program").kind == "method"
    assert not [n for n in facts.names() if n.endswith("anonymous")]
    assert ("src/api.build.visitors.Program", "", "enter") in facts.calls()


def test_doc_comments_must_touch_the_declaration(extract):
    facts = extract(
        """
        /** File overview. */

        export function first() {}
        /** Real doc. */
        // eslint-disable-next-line
        export function second() {}
        /* not a doc comment */
        export function third() {}
        """
    )
    assert facts.symbol("src/app/main.first").doc == ""
    assert facts.symbol("src/app/main.second").doc == "Real doc."
    assert facts.symbol("src/app/main.third").doc == ""


def test_module_names_come_from_the_path(extract):
    assert extract("export const a = 1;\n", path="src/util/index.ts").facts.module == "src/util"
    assert extract("export const a = 1;\n", path="src/a/b.ts").facts.module == "src/a/b"
    assert extract("export const a = 1;\n", path="src/types.d.ts").facts.module == "src/types"
    assert extract("export const a = 1;\n", path="lib/cli.mjs").facts.module == "lib/cli"
    assert extract("export const a = 1;\n", path="index.ts").facts.module == "index"
    assert extract("export const a = 1;\n", path="src/a/b.ts").symbol("src/a/b.a")


def test_a_script_declares_globals(extract):
    """No import/export/require: TypeScript treats the file as a script, and its names are global
    (this is how `namespace ts {}` merges across the files of the TypeScript compiler)."""
    facts = extract(
        """
        namespace ts {
          export function createProgram(options: Options) { return createHost(options); }
        }
        """,
        path="src/compiler/program.ts",
    )
    assert facts.facts.module == ""
    assert facts.symbol("ts.createProgram").kind == "function"
    assert facts.calls() == [("ts.createProgram", "", "createHost")]


def test_decorators_are_modifiers_and_not_part_of_the_signature(extract):
    facts = extract(
        """
        @Component({ selector: "app" })
        export class AppComponent {
          @Input() title: string;
          /** Handles clicks. */
          @HostListener("click") onClick() {}
        }
        """
    )
    cls = facts.symbol("src/app/main.AppComponent")
    assert "@Component" in cls.modifiers and "export" in cls.modifiers
    assert cls.signature == "class AppComponent"
    assert facts.symbol("src/app/main.AppComponent.title").modifiers == ("@Input",)
    on_click = facts.symbol("src/app/main.AppComponent.onClick")
    assert (on_click.modifiers, on_click.doc) == (("@HostListener",), "Handles clicks.")


def test_a_constructor_binding_a_method_declared_below_it_makes_no_property(extract):
    facts = extract(
        """
        export class ZodType {
          constructor(def: Def) {
            this.parse = this.parse.bind(this);
            this.optional = this.optional.bind(this);
            this.cache = new Map();
          }
          parse(data: unknown) { return data; }
          optional() { return this; }
        }
        """
    )
    kinds = {s.qualified_name: s.kind for s in facts.facts.symbols}
    assert kinds["src/app/main.ZodType.optional"] == "method"  # one symbol, not a property beside it
    assert [s.kind for s in facts.facts.symbols if s.name == "optional"] == ["method"]
    assert kinds["src/app/main.ZodType.cache"] == "property"  # a field only the constructor gives


def test_signatures_keep_their_parameters_past_a_comment_and_leave_a_constant_s_body_out(extract):
    facts = extract(
        """
        export const instanceOfType = <T extends typeof Class>(
          // const instanceOfType = <T extends new (...args: any[]) => any>(
          cls: T,
          params: Params = {}
        ) => custom(cls, params);

        export const $ZodUUID = $constructor("$ZodUUID", (inst, def) => {
          def.pattern ??= uuid(def.version);
          $ZodStringFormat.init(inst, def);
        });

        export const limit = compute(1, 2);
        """
    )
    sig = {s.name: s.signature for s in facts.facts.symbols}
    assert sig["instanceOfType"] == "const instanceOfType = <T extends typeof Class>( cls: T, params: Params = {} ) =>"
    assert sig["$ZodUUID"] == 'const $ZodUUID = $constructor("$ZodUUID", (inst, def) => …'
    assert sig["limit"] == "const limit = compute(1, 2)"
