"""C# through its grammar pack: namespaces as modules, base lists, usings."""

CODE = """\
using System;
using System.Collections.Generic;
using Json = System.Text.Json.JsonSerializer;
using static System.Math;

namespace Acme.Billing
{
    /// <summary>Charges a <see cref="Card"/>.</summary>
    public class PaymentService : ServiceBase<Order>, IPaymentService, IDisposable
    {
        private readonly IRepository repo;
        public const int MaxRetries = 3;

        public PaymentService(IRepository repo) { this.repo = repo; }

        /// <summary>
        /// The amount charged so far.
        /// </summary>
        public decimal Total { get; private set; }

        public void Charge(Order order)
        {
            Validate(order);
            repo.Save(order);
            var receipt = new Receipts.Receipt(order.Id);
            base.Dispose();
        }

        public enum State { Pending, Done }
    }

    public interface IPaymentService : IService { void Charge(Order order); }
    public struct Money : IEquatable<Money> { }
}
"""


def test_types_and_members_nest_under_the_namespace(packs):
    facts = packs.extract("csharp", CODE)
    symbols = packs.symbols(facts)

    assert {(s.kind, s.qualified_name) for s in facts.symbols} == {
        ("namespace", "Acme.Billing"),
        ("class", "Acme.Billing.PaymentService"),
        ("field", "Acme.Billing.PaymentService.repo"),
        ("constant", "Acme.Billing.PaymentService.MaxRetries"),
        ("constructor", "Acme.Billing.PaymentService.PaymentService"),
        ("property", "Acme.Billing.PaymentService.Total"),
        ("method", "Acme.Billing.PaymentService.Charge"),
        ("enum", "Acme.Billing.PaymentService.State"),
        ("enum_member", "Acme.Billing.PaymentService.State.Pending"),
        ("enum_member", "Acme.Billing.PaymentService.State.Done"),
        ("interface", "Acme.Billing.IPaymentService"),
        ("method", "Acme.Billing.IPaymentService.Charge"),
        ("struct", "Acme.Billing.Money"),
    }
    assert facts.module == "Acme.Billing"
    assert symbols["Acme.Billing.PaymentService"].doc == "Charges a Card."  # XML doc markup removed
    assert symbols["Acme.Billing.PaymentService.Total"].doc == "The amount charged so far."


def test_file_scoped_namespace_prefixes_what_follows(packs):
    facts = packs.extract("csharp", "namespace Acme.Billing;\n\npublic class Invoice { public void Send() { } }\n")

    assert [s.qualified_name for s in facts.symbols] == [
        "Acme.Billing",
        "Acme.Billing.Invoice",
        "Acme.Billing.Invoice.Send",
    ]
    assert facts.module == "Acme.Billing"


def test_base_list_is_split_into_base_class_and_interfaces(packs):
    facts = packs.extract("csharp", CODE)

    assert packs.bases(facts) == {
        ("extends", "Acme.Billing.PaymentService", "ServiceBase"),
        ("implements", "Acme.Billing.PaymentService", "IPaymentService"),
        ("implements", "Acme.Billing.PaymentService", "IDisposable"),
        ("extends", "Acme.Billing.IPaymentService", "IService"),
        ("implements", "Acme.Billing.Money", "IEquatable"),
    }


def test_calls_keep_their_receiver_and_new_calls_the_class(packs):
    facts = packs.extract("csharp", CODE)

    assert packs.calls(facts) == {
        ("Acme.Billing.PaymentService.Charge", "Validate", ""),
        ("Acme.Billing.PaymentService.Charge", "Save", "repo"),
        ("Acme.Billing.PaymentService.Charge", "Receipt", "Receipts"),
        ("Acme.Billing.PaymentService.Charge", "Dispose", "base"),
    }


def test_usings_are_imports(packs):
    facts = packs.extract("csharp", CODE)

    assert packs.imports(facts) == {
        ("System", "*", "", "System"),
        ("System.Collections.Generic", "*", "", "System.Collections.Generic"),
        ("System.Text.Json.JsonSerializer", "", "Json", "System.Text.Json.JsonSerializer"),
        ("System.Math", "*", "", "System.Math"),
    }
    assert {i.kind for i in facts.imports if i.module == "System.Math"} == {"static"}
