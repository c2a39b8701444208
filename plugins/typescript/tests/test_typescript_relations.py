"""An agent asks "what does Order extend, who calls charge(), what is `this.repo`": inheritance
targets as written without type arguments, call sites with their receiver text and, where the
syntax says it, the receiver's type."""


def test_extends_and_implements_targets_drop_type_arguments_and_keep_dots(extract):
    facts = extract(
        """
        export class Order extends Base<Item> implements Comparable<Order>, ns.Serializable {}
        class Wrapped extends mixins.Timestamped<Order> {}
        class Mixed extends Mixin(Base) {}
        interface Node extends Parent, Visitable<Node> {}
        """
    )
    assert facts.bases("src/app/main.Order") == [
        ("extends", "Base"),
        ("implements", "Comparable"),
        ("implements", "ns.Serializable"),
    ]
    assert facts.bases("src/app/main.Wrapped") == [("extends", "mixins.Timestamped")]
    assert facts.bases("src/app/main.Mixed") == []  # a computed base names no type
    assert facts.bases("src/app/main.Node") == [("extends", "Parent"), ("extends", "Visitable")]
    assert facts.relation("implements", "Comparable").line == 1


def test_call_sites_carry_the_receiver_as_written(extract):
    facts = extract(
        """
        import { api } from "./api";
        export class Checkout extends Base {
          constructor() {
            super();
          }
          run(order: Order) {
            validate(order);
            this.total(order);
            super.run(order);
            api.client.post("/orders");
            getCart().items.map(toLine);
            order?.lines!.at(0);
            const receipt = new Receipt(order);
            return new billing.Invoice(receipt);
          }
        }
        log("loaded");
        """
    )
    run = "src/app/main.Checkout.run"
    assert facts.calls() == [
        ("src/app/main.Checkout.constructor", "super", "constructor"),
        (run, "", "validate"),
        (run, "this", "total"),
        (run, "super", "run"),
        (run, "api.client", "post"),
        (run, "getCart().items", "map"),
        (run, "", "getCart"),
        (run, "order.lines", "at"),
        (run, "", "Receipt"),
        (run, "billing", "Invoice"),
        ("", "", "log"),
    ]
    assert facts.relation("calls", "post").line == 10


def test_calls_in_callbacks_belong_to_the_enclosing_function(extract):
    facts = extract(
        """
        export function load(ids: string[]) {
          return ids.map((id) => fetchOne(id)).filter(function (x) { return keep(x); });
        }
        """
    )
    assert {c for c in facts.calls()} == {
        ("src/app/main.load", "ids.map()", "filter"),
        ("src/app/main.load", "ids", "map"),
        ("src/app/main.load", "", "fetchOne"),
        ("src/app/main.load", "", "keep"),
    }


def test_calls_in_a_constant_s_initializer_and_its_callbacks_belong_to_the_constant(extract):
    facts = extract(
        """
        export const $ZodUUID = $constructor("$ZodUUID", (inst, def) => {
          def.pattern ??= uuid(def.version);
          $ZodStringFormat.init(inst, def);
        });
        export const handler = memo(function Inner() { return render(); });
        const limit = compute();
        setup();
        """
    )
    assert set(facts.calls()) == {
        ("src/app/main.$ZodUUID", "", "$constructor"),
        ("src/app/main.$ZodUUID", "", "uuid"),  # `impact` on uuid reaches $ZodUUID (the file's before)
        ("src/app/main.$ZodUUID", "$ZodStringFormat", "init"),
        ("src/app/main.handler", "", "memo"),
        ("src/app/main.handler.Inner", "", "render"),  # a named function expression: its own symbol, inside
        ("src/app/main.limit", "", "compute"),
        ("", "", "setup"),  # a statement of the module: the file's
    }


def test_receiver_types_read_from_declarations(extract):
    facts = extract(
        """
        class OrderService {
          private repo: Repository<Order>;
          private cache?: Cache | undefined;
          private clock = new SystemClock();
          constructor(private readonly mailer: mail.Mailer) {}

          place(order: Order, note) {
            this.repo.save(order);
            this.cache.clear();
            this.clock.now();
            this.mailer.send(order.email);
            order.validate();
            note.trim();
            const invoice = new Invoice(order);
            invoice.render();
            const total: Money = order.total();
            total.format();
            (order as Draft).publish();
            new Receipt().print();
          }
        }
        """
    )
    typed = {(r.receiver, r.target): r.receiver_type for r in facts.facts.relations if r.kind == "calls"}
    assert typed[("this.repo", "save")] == "Repository"
    assert typed[("this.cache", "clear")] == "Cache"
    assert typed[("this.clock", "now")] == "SystemClock"
    assert typed[("this.mailer", "send")] == "mail.Mailer"
    assert typed[("order", "validate")] == "Order"
    assert typed[("note", "trim")] == ""  # untyped parameter: unknown, not guessed
    assert typed[("invoice", "render")] == "Invoice"
    assert typed[("total", "format")] == "Money"
    assert typed[("(order as Draft)", "publish")] == "Draft"
    assert typed[("new Receipt()", "print")] == "Receipt"


def test_this_field_types_work_whatever_the_member_order(extract):
    facts = extract(
        """
        class Late {
          go() { this.engine.start(); }
          engine: Engine;
        }
        """
    )
    assert facts.relation("calls", "start").receiver_type == "Engine"


def test_jsx_components_are_calls_and_html_tags_are_not(extract):
    facts = extract(
        """
        export function App() {
          return <Layout title="x"><div><Ui.Button onClick={() => track()} /></div></Layout>;
        }
        """,
        path="src/App.tsx",
    )
    assert facts.calls() == [
        ("src/App.App", "", "Layout"),
        ("src/App.App", "Ui", "Button"),
        ("src/App.App", "", "track"),
    ]
