"""Small Python programs with their call graphs written by hand, one group per kind of value flow
(issue 17's categories), for benchmarks/test_python_callgraph.py.

Each case is ``(files, expected)``: ``files`` maps a path to its source; ``expected`` maps a caller
to the callees Python would call when the program runs. Names follow codecairn's: a function,
method or class by its qualified name (``main.Order.pay``), code at a module's top level by the
module's name (``main``), a call that makes an instance by the class (``main.Order``), a lambda
bound to a name by that name, a call out of the program by the dotted name it reaches
(``builtins.len``, ``os.path.join``); code in a class body by the class. Expected are the calls
each piece of code makes for the values that reach it (a function passed but never called is no
edge, a function handed to a standard-library function that calls it, then or later —
`sorted(names, key=order)`, `map(parse, lines)`, `threading.Thread(target=run)` — is called where it
is handed; a decorator's application is a call where the decorated definition stands; a `for` loop
over an instance of a class of the program that defines `__iter__` calls it, and the `__next__` of
the instance it returns; what else the syntax runs implicitly — `with`'s `__enter__` and
`__exit__`, operators — is not written as a call). Written from the language's rules, before
looking at what codecairn answers.
"""

from __future__ import annotations

Case = tuple[dict[str, str], dict[str, set[str]]]

CASES: dict[str, list[Case]] = {
    "assignments": [
        (
            {
                "main.py": """
def first():
    pass


def second():
    pass


a = first
b = a
b()
c, d = first, second
d()
x = y = second
y()
"""
            },
            {"main": {"main.first", "main.second"}},
        ),
        (
            {
                "main.py": """
class Order:
    def pay(self):
        pass


def run():
    order = Order()
    alias = order
    alias.pay()
    handler = alias.pay
    handler()
"""
            },
            {"main.run": {"main.Order", "main.Order.pay"}},
        ),
        (
            {
                "main.py": """
import functools


def send(to, text):
    pass


def run():
    shout = functools.partial(send, "all")
    shout("hi")
"""
            },
            {"main.run": {"functools.partial", "main.send"}},
        ),
        (
            {
                "main.py": """
def default_handler():
    pass


class Dispatcher:
    handler = default_handler

    def dispatch(self):
        self.handler()


Dispatcher.handler()
"""
            },
            {"main.Dispatcher.dispatch": {"main.default_handler"}, "main": {"main.default_handler"}},
        ),
    ],
    "args": [
        (
            {
                "main.py": """
def callback():
    pass


def apply(f):
    f()


apply(callback)
"""
            },
            {"main": {"main.apply"}, "main.apply": {"main.callback"}},
        ),
        (
            {
                "main.py": """
class Order:
    def pay(self):
        pass


def settle(order):
    order.pay()


settle(Order())
"""
            },
            {"main": {"main.settle", "main.Order"}, "main.settle": {"main.Order.pay"}},
        ),
        (
            {
                "main.py": """
def first():
    pass


def second():
    pass


def run_all(*callbacks):
    for callback in callbacks:
        callback()


def run_first(*callbacks):
    callbacks[0]()


run_all(first, second)
run_first(second)
"""
            },
            {
                "main": {"main.run_all", "main.run_first"},
                "main.run_all": {"main.first", "main.second"},
                "main.run_first": {"main.second"},
            },
        ),
    ],
    "kwargs": [
        (
            {
                "main.py": """
def on_done():
    pass


def run(task=None, done=None):
    done()


run(done=on_done)
"""
            },
            {"main": {"main.run"}, "main.run": {"main.on_done"}},
        ),
        (
            {
                "main.py": """
def fallback():
    pass


def run(handler=fallback):
    handler()


run()
"""
            },
            {"main": {"main.run"}, "main.run": {"main.fallback"}},
        ),
        (
            {
                "main.py": """
def done():
    pass


def notify(**handlers):
    handlers["on_done"]()


notify(on_done=done)
"""
            },
            {"main": {"main.notify"}, "main.notify": {"main.done"}},
        ),
    ],
    "dicts": [
        (
            {
                "main.py": """
def first():
    pass


def second():
    pass


table = {"a": first, "b": second}
table["a"]()
table.get("b")()
"""
            },
            {"main": {"main.first", "main.second", "builtins.dict.get"}},
        ),
    ],
    "lists": [
        (
            {
                "main.py": """
def first():
    pass


def second():
    pass


funcs = [first, second]
funcs[1]()
for f in funcs:
    f()
"""
            },
            {"main": {"main.first", "main.second"}},
        ),
        (
            {
                "main.py": """
def first():
    pass


def second():
    pass


def run():
    for f in (first, second):
        f()
    steps = [first, second]
    return [step() for step in steps]
"""
            },
            {"main.run": {"main.first", "main.second"}},
        ),
    ],
    "lambdas": [
        (
            {
                "main.py": """
def first():
    pass


f = lambda x: first()
f(1)
"""
            },
            {"main": {"main.f"}, "main.f": {"main.first"}},
        ),
        (
            {
                "main.py": """
def first():
    pass


call = lambda f: f()
call(first)
"""
            },
            {"main": {"main.call"}, "main.call": {"main.first"}},
        ),
    ],
    "decorators": [
        (
            {
                "main.py": """
def deco(f):
    def wrapper():
        return f()

    return wrapper


@deco
def target():
    pass


target()
"""
            },
            {"main": {"main.deco", "main.deco.wrapper"}, "main.deco.wrapper": {"main.target"}},
        ),
        (
            {
                "main.py": """
import functools


def logged(f):
    @functools.wraps(f)
    def inner(*args):
        return f(*args)

    return inner


class Service:
    @logged
    def work(self):
        return self.helper()

    def helper(self):
        pass


Service().work()
"""
            },
            {
                "main": {"main.Service", "main.logged.inner"},
                "main.Service": {"main.logged"},  # the decorator runs in the class body
                "main.logged": {"functools.wraps"},
                "main.logged.inner": {"main.Service.work"},
                "main.Service.work": {"main.Service.helper"},
            },
        ),
        (
            {
                "main.py": """
def retry(times):
    def decorator(f):
        def wrapper():
            return f()

        return wrapper

    return decorator


@retry(3)
def fetch():
    pass


fetch()
"""
            },
            {
                "main": {"main.retry", "main.retry.decorator", "main.retry.decorator.wrapper"},
                "main.retry.decorator.wrapper": {"main.fetch"},
            },
        ),
    ],
    "generators": [
        (
            {
                "main.py": """
def first():
    pass


def gen():
    yield first


for f in gen():
    f()
"""
            },
            {"main": {"main.gen", "main.first"}},
        ),
        (
            {
                "main.py": """
def first():
    pass


def second():
    pass


def steps():
    yield first
    yield from [second]


def run():
    return [s() for s in steps()]
"""
            },
            {"main.run": {"main.steps", "main.first", "main.second"}},
        ),
    ],
    "returns": [
        (
            {
                "main.py": """
def first():
    pass


def factory():
    return first


factory()()
"""
            },
            {"main": {"main.factory", "main.first"}},
        ),
        (
            {
                "main.py": """
class Order:
    def pay(self):
        pass


def make():
    return Order()


def run():
    make().pay()
    order = make()
    order.pay()
"""
            },
            {"main.make": {"main.Order"}, "main.run": {"main.make", "main.Order.pay"}},
        ),
        (
            {
                "main.py": """
def first():
    pass


def choose():
    return first


def make_greeter():
    def greet():
        pass

    return greet


def run():
    handler = choose()
    handler()
    greeter = make_greeter()
    greeter()
"""
            },
            {"main.run": {"main.choose", "main.first", "main.make_greeter", "main.make_greeter.greet"}},
        ),
        (
            {
                "shop/orders.py": """
class Order:
    def pay(self):
        pass


def make() -> "Order":
    return Order()


def first():
    pass


def choose():
    return first
""",
                "main.py": """
from shop.orders import make, choose
from shop import orders


def run():
    make().pay()
    order = orders.make()
    order.pay()
    choose()()
    handler = choose()
    handler()
""",
            },
            {
                "shop.orders.make": {"shop.orders.Order"},
                "main.run": {"shop.orders.make", "shop.orders.Order.pay", "shop.orders.choose", "shop.orders.first"},
            },
        ),
        (
            {
                "shop/query.py": """
class Query:
    def where(self, test):
        return self

    def copy(self) -> "Query":
        return Query()

    @classmethod
    def empty(cls):
        return cls()

    def run(self):
        pass
""",
                "main.py": """
from shop.query import Query


def search(query: Query):
    query.where(1).run()
    fresh = query.copy()
    fresh.run()
    Query.empty().run()
""",
            },
            {
                "shop.query.Query": {"builtins.classmethod"},
                "shop.query.Query.copy": {"shop.query.Query"},
                "shop.query.Query.empty": {"shop.query.Query"},
                "main.search": {
                    "shop.query.Query.where",
                    "shop.query.Query.copy",
                    "shop.query.Query.empty",
                    "shop.query.Query.run",
                },
            },
        ),
    ],
    "annotations": [
        (
            {
                "main.py": """
from typing import Optional


class Order:
    def pay(self):
        pass


def make() -> "Order":
    return Order()


def settle(order: Order, other: Optional[Order] = None):
    order.pay()
    if other is not None:
        other.pay()


def run():
    make().pay()
"""
            },
            {
                "main.make": {"main.Order"},
                "main.settle": {"main.Order.pay"},
                "main.run": {"main.make", "main.Order.pay"},
            },
        ),
    ],
    "external": [
        (
            {
                "main.py": """
import os
import sys
from math import sqrt


def run(values):
    print(len(values))
    path = os.path.join("a", "b")
    sys.exit(sqrt(4))
    parts = []
    parts.append(path)
    return ", ".join(parts)
"""
            },
            {
                "main.run": {
                    "builtins.print",
                    "builtins.len",
                    "os.path.join",
                    "sys.exit",
                    "math.sqrt",
                    "builtins.list.append",
                    "builtins.str.join",
                }
            },
        ),
    ],
    "direct_calls": [
        (
            {
                "main.py": """
def helper():
    pass


class Order:
    def total(self):
        return helper()

    def pay(self):
        return self.total()


def run():
    def nested():
        helper()

    nested()
    Order().pay()
"""
            },
            {
                "main.Order.total": {"main.helper"},
                "main.Order.pay": {"main.Order.total"},
                "main.run.nested": {"main.helper"},
                "main.run": {"main.run.nested", "main.Order", "main.Order.pay"},
            },
        ),
    ],
    "exceptions": [
        (
            {
                "main.py": """
class Failure(Exception):
    def describe(self):
        pass


def run():
    try:
        raise Failure()
    except Failure as e:
        e.describe()
"""
            },
            {"main.run": {"main.Failure", "main.Failure.describe"}},
        ),
    ],
    "imports": [
        (
            {
                "shop/__init__.py": "from .orders import Order\n",
                "shop/orders.py": """
from . import money
from .money import round_cents as rc


class Order:
    def pay(self):
        money.charge(1)
        return rc(1)
""",
                "shop/money.py": """
def charge(amount):
    pass


def round_cents(x):
    pass
""",
                "main.py": """
import shop.money as m
from shop import Order


def run():
    m.charge(2)
    Order().pay()
""",
            },
            {
                "shop.orders.Order.pay": {"shop.money.charge", "shop.money.round_cents"},
                "main.run": {"shop.money.charge", "shop.orders.Order", "shop.orders.Order.pay"},
            },
        ),
        (
            {
                "abc_like.py": """
__all__ = ["Mapping"]


class Mapping:
    def get(self, key):
        pass
""",
                "collections_like/__init__.py": "",
                "collections_like/abc.py": "from abc_like import *\n",
                "main.py": """
import collections_like.abc


class Settings(collections_like.abc.Mapping):
    def lookup(self):
        return self.get("a")
""",
            },
            {"main.Settings.lookup": {"abc_like.Mapping.get"}},
        ),
        (
            {
                "shapes/__init__.py": """
from shapes.impl import *
""",
                "shapes/impl.py": """
__all__ = ["area"]


def area():
    pass


def helper():
    pass
""",
                "main.py": """
from shapes import *


def area():
    pass


def run():
    area()
    helper()
""",
            },
            {"main.run": {"main.area"}},
        ),
    ],
    "mro": [
        (
            {
                "main.py": """
class Base:
    def total(self):
        pass


class Left(Base):
    def total(self):
        return super().total()


class Right(Base):
    pass


class Both(Left, Right):
    pass


def run():
    Both().total()
    right = Right()
    right.total()
"""
            },
            {
                "main.Left.total": {"main.Base.total", "builtins.super"},
                "main.run": {"main.Both", "main.Left.total", "main.Right", "main.Base.total"},
            },
        ),
        (
            {
                "main.py": """
class Base:
    def __init__(self):
        self.ready = True


class Child(Base):
    pass


class Own(Base):
    def __init__(self):
        super().__init__()


def run():
    Child()
    Own()
"""
            },
            {
                "main.Own.__init__": {"main.Base.__init__", "builtins.super"},
                "main.run": {"main.Base.__init__", "main.Own.__init__"},
            },
        ),
    ],
    "attributes": [
        (
            {
                "main.py": """
def first():
    pass


class Repo:
    def find(self):
        pass


class Service:
    def __init__(self, callback, repo):
        self.callback = callback
        self.repo = repo
        self.cache = Repo()

    def run(self):
        self.callback()
        self.repo.find()
        self.cache.find()


Service(first, Repo()).run()
"""
            },
            {
                "main": {"main.Repo", "main.Service.__init__", "main.Service.run"},
                "main.Service.__init__": {"main.Repo"},
                "main.Service.run": {"main.first", "main.Repo.find"},
            },
        ),
        (
            {
                "app/db.py": """
class Repo:
    def find(self):
        pass


repo = Repo()
""",
                "main.py": """
from app.db import repo
from app import db


def run():
    repo.find()
    db.repo.find()
""",
            },
            {"app.db": {"app.db.Repo"}, "main.run": {"app.db.Repo.find"}},
        ),
    ],
    "mixins": [
        (
            {
                "main.py": """
class Case:
    def check(self, a, b):
        pass


class CheckMixin:
    def verify(self):
        self.check(1, 1)


class First(CheckMixin, Case):
    pass


class Second(CheckMixin, Case):
    pass
"""
            },
            {"main.CheckMixin.verify": {"main.Case.check"}},
        ),
    ],
}

# Written on 2026-12-05 from the same rules, for the forms the first set left out: unpacking into
# nested tuples and a starred name, keys and items assigned after the literal, a literal passed as
# an argument, stacked decorators, a function returning one of several, a named lambda returning
# one, `next()` of a generator and a loop over a generator held in a name, `super()` reaching past
# the project's classes, `raise Cls` without a call, methods of a class from outside the project,
# a bound method passed as an argument, imports inside a function, chains of calls (`A().f().g()`).
MORE_CASES: dict[str, list[Case]] = {
    "assignments": [
        (
            {
                "main.py": """
def first():
    pass


def second():
    pass


def third():
    pass


head, *rest = first, second, third
head()
rest[1]()
*init, last = first, second
last()
(a, b), c = (first, second), third
b()
"""
            },
            {"main": {"main.first", "main.third", "main.second"}},
        ),
    ],
    "args": [
        (
            {
                "main.py": """
def callback():
    pass


def outer(f):
    def inner():
        f()

    return inner


outer(callback)()
"""
            },
            {"main": {"main.outer", "main.outer.inner"}, "main.outer.inner": {"main.callback"}},
        ),
        (
            {
                "main.py": """
class Shop:
    def close(self):
        pass


def apply(f):
    f()


shop = Shop()
apply(shop.close)
"""
            },
            {"main": {"main.Shop", "main.apply"}, "main.apply": {"main.Shop.close"}},
        ),
    ],
    "dicts": [
        (
            {
                "main.py": """
def first():
    pass


def second():
    pass


table = {}
table["a"] = first
table["a"]()
table["a"] = second
table["a"]()
"""
            },
            {"main": {"main.first", "main.second"}},
        ),
        (
            {
                "main.py": """
def first():
    pass


def run(handlers):
    handlers["a"]()


run({"a": first})
"""
            },
            {"main": {"main.run"}, "main.run": {"main.first"}},
        ),
    ],
    "lists": [
        (
            {
                "main.py": """
def first():
    pass


def second():
    pass


funcs = [first]
funcs.append(second)
funcs[1]()
for f in funcs:
    f()
"""
            },
            {"main": {"main.first", "main.second", "builtins.list.append"}},
        ),
        (
            {
                "main.py": """
def first():
    pass


def run(funcs):
    funcs[0]()


run([first])
"""
            },
            {"main": {"main.run"}, "main.run": {"main.first"}},
        ),
    ],
    "decorators": [
        (
            {
                "main.py": """
def outer(f):
    def wrap():
        return f()

    return wrap


def inner(f):
    def wrap():
        return f()

    return wrap


@outer
@inner
def target():
    pass


target()
"""
            },
            {
                "main": {"main.outer", "main.inner", "main.outer.wrap"},
                "main.outer.wrap": {"main.inner.wrap"},
                "main.inner.wrap": {"main.target"},
            },
        ),
        (
            {
                "main.py": """
def register(f):
    return f


@register
def target():
    pass


target()
"""
            },
            {"main": {"main.register", "main.target"}},
        ),
    ],
    "lambdas": [
        (
            {
                "main.py": """
def first():
    pass


get = lambda: first
get()()
"""
            },
            {"main": {"main.get", "main.first"}},
        ),
    ],
    "generators": [
        (
            {
                "main.py": """
def first():
    pass


def second():
    pass


def one():
    yield first


def both():
    yield first
    yield second


next(one())()
steps = both()
for step in steps:
    step()
"""
            },
            {"main": {"main.one", "main.both", "main.first", "main.second", "builtins.next"}},
        ),
    ],
    "direct_calls": [
        (
            {
                "main.py": """
class A:
    def f(self):
        return self

    def g(self):
        pass


A().f().g()
a = A()
a.f(1).f().g()
"""
            },
            {"main": {"main.A", "main.A.f", "main.A.g"}},
        ),
    ],
    "returns": [
        (
            {
                "main.py": """
def first():
    pass


def second():
    pass


def pick(n):
    if n:
        return first
    return second


pick(1)()
"""
            },
            {"main": {"main.pick", "main.first", "main.second"}},
        ),
    ],
    "mro": [
        (
            {
                "main.py": """
class Base:
    @staticmethod
    def helper():
        pass


class Child(Base):
    def __init__(self):
        super().__init__()
        self.helper()


Child()
"""
            },
            {
                "main": {"main.Child.__init__"},
                "main.Base": {"builtins.staticmethod"},
                "main.Child.__init__": {"builtins.super", "main.Base.helper", "builtins.object.__init__"},
            },
        ),
    ],
    "external": [
        (
            {
                "main.py": """
from collections import OrderedDict
import fractions


d = OrderedDict()
d.move_to_end("a")
half = fractions.Fraction(1, 2)
half.limit_denominator()
"""
            },
            {
                "main": {
                    "collections.OrderedDict",
                    "collections.OrderedDict.move_to_end",
                    "fractions.Fraction",
                    "fractions.Fraction.limit_denominator",
                }
            },
        ),
    ],
    "exceptions": [
        (
            {
                "main.py": """
class Failed(Exception):
    def __init__(self):
        pass

    def explain(self):
        pass


def run():
    raise Failed


def check():
    try:
        run()
    except Failed as e:
        e.explain()
"""
            },
            {"main.run": {"main.Failed.__init__"}, "main.check": {"main.run", "main.Failed.explain"}},
        ),
    ],
    "imports": [
        (
            {
                "pkg/__init__.py": "",
                "pkg/a.py": """
def f():
    pass
""",
                "pkg/b.py": """
from . import a
from .a import f as g


def run():
    a.f()
    g()
""",
                "main.py": """
import pkg.a as m


def run():
    import json

    json.dumps(1)
    m.f()
""",
            },
            {"pkg.b.run": {"pkg.a.f"}, "main.run": {"pkg.a.f", "json.dumps"}},
        ),
    ],
}
for _category, _cases in MORE_CASES.items():
    CASES[_category] = CASES[_category] + _cases

# Values passed to a function of another module: its parameters hold them there (issue 17's
# "parameters and arguments" across modules).
ACROSS_MODULES_CASES: dict[str, list[Case]] = {
    "args": [
        (
            {
                "util.py": """
def apply(f, x):
    return f(x)


def each(items, visit):
    for item in items:
        visit(item)
""",
                "main.py": """
import util
from util import each


def double(x):
    return x


def show(x):
    pass


util.apply(double, 3)
each([1, 2], show)
""",
            },
            {"main": {"util.apply", "util.each"}, "util.apply": {"main.double"}, "util.each": {"main.show"}},
        ),
        (
            {
                "lib.py": """
class Runner:
    def __init__(self, job):
        self.job = job

    def start(self, listener):
        listener.notify()

    @staticmethod
    def once(task):
        task()


def drive(engine):
    engine.go()
""",
                "main.py": """
from lib import Runner, drive


class Engine:
    def go(self):
        pass


class Listener:
    def notify(self):
        pass


def work():
    pass


def main():
    runner = Runner(work)
    runner.start(Listener())
    Runner.once(work)
    drive(Engine())
""",
            },
            {
                "main.main": {
                    "lib.Runner.__init__",
                    "lib.Runner.start",
                    "main.Listener",
                    "lib.Runner.once",
                    "lib.drive",
                    "main.Engine",
                },
                "lib.Runner": {"builtins.staticmethod"},
                "lib.Runner.start": {"main.Listener.notify"},
                "lib.Runner.once": {"main.work"},
                "lib.drive": {"main.Engine.go"},
            },
        ),
        (
            {
                "util.py": """
def apply(f):
    f()
""",
                "a.py": """
from util import apply


def first():
    pass


apply(first)
""",
                "b.py": """
from util import apply


def second():
    pass


apply(second)
""",
            },
            {"a": {"util.apply"}, "b": {"util.apply"}, "util.apply": {"a.first", "b.second"}},
        ),
    ],
    "kwargs": [
        (
            {
                "tasks.py": """
def schedule(job, *, on_done=None):
    job()
    on_done()


class Queue:
    def put(self, item, callback):
        callback(item)
""",
                "main.py": """
import tasks


def build():
    pass


def finished():
    pass


def stored(item):
    pass


tasks.schedule(on_done=finished, job=build)
tasks.Queue().put(1, callback=stored)
""",
            },
            {
                "main": {"tasks.schedule", "tasks.Queue", "tasks.Queue.put"},
                "tasks.schedule": {"main.build", "main.finished"},
                "tasks.Queue.put": {"main.stored"},
            },
        ),
    ],
}
for _category, _cases in ACROSS_MODULES_CASES.items():
    CASES[_category] = CASES[_category] + _cases

# Calling an instance, dicts filled by update() and dict(), loops over items() and enumerate(),
# literal spreads into *args and **kwargs, and a parameter passed on to another function.
INSTANCES_AND_SPREADS_CASES: dict[str, list[Case]] = {
    "direct_calls": [
        (
            {
                "main.py": """
class Greeter:
    def __call__(self):
        self.greet()

    def greet(self):
        pass


def run():
    Greeter()()
    g = Greeter()
    g()
"""
            },
            {"main.run": {"main.Greeter", "main.Greeter.__call__"}, "main.Greeter.__call__": {"main.Greeter.greet"}},
        ),
    ],
    "dicts": [
        (
            {
                "main.py": """
def first():
    pass


def second():
    pass


def third():
    pass


table = {"a": first}
table.update({"b": second})
table["b"]()
table.update(c=third)
table["c"]()
other = dict(d=first)
other["d"]()
"""
            },
            {"main": {"builtins.dict", "builtins.dict.update", "main.first", "main.second", "main.third"}},
        ),
        (
            {
                "main.py": """
def first():
    pass


def second():
    pass


handlers = {"x": first, "y": second}
for key, handler in handlers.items():
    handler()
"""
            },
            {"main": {"main.first", "main.second", "builtins.dict.items"}},
        ),
    ],
    "lists": [
        (
            {
                "main.py": """
def first():
    pass


def second():
    pass


for i, step in enumerate([first, second]):
    step()
"""
            },
            {"main": {"builtins.enumerate", "main.first", "main.second"}},
        ),
        (
            # Containers inside containers: the literal says what each inner index or key holds.
            {
                "main.py": """
def first():
    pass


def second():
    pass


def third():
    pass


table = {"a": [first, second], "b": {"c": third}}
table["a"][1]()
table["b"]["c"]()
pairs = [(first, second)]
pairs[0][0]()
"""
            },
            {"main": {"main.first", "main.second", "main.third"}},
        ),
    ],
    "kwargs": [
        (
            {
                "main.py": """
def first():
    pass


def second():
    pass


def on(**events):
    events["done"]()


on(**{"done": first})
on(done=second)
"""
            },
            {"main": {"main.on"}, "main.on": {"main.first", "main.second"}},
        ),
    ],
    "args": [
        (
            {
                "main.py": """
def first():
    pass


def each(*steps):
    steps[0]()


def hop(f):
    relay(f)


def relay(g):
    g()


each(*[first])
hop(first)
"""
            },
            {
                "main": {"main.each", "main.hop"},
                "main.each": {"main.first"},
                "main.hop": {"main.relay"},
                "main.relay": {"main.first"},
            },
        ),
        (
            {
                "util.py": """
def apply(f):
    f()
""",
                "main.py": """
import util


def first():
    pass


def hop(g):
    util.apply(g)


hop(first)
""",
            },
            {"main": {"main.hop"}, "main.hop": {"util.apply"}, "util.apply": {"main.first"}},
        ),
        (
            # A parameter named like a function, a module or a built-in in scope holds what its
            # callers pass, not that namesake: calls through one nothing reaches go nowhere known.
            {
                "main.py": """
import string


def callback():
    pass


def other():
    pass


def run(callback):
    callback()


def join_all(string, parts):
    return string.join(parts)


def kinds(type):
    return type.mro()


run(other)
"""
            },
            {"main": {"main.run"}, "main.run": {"main.other"}},
        ),
        (
            # Several values passed to one parameter by the calls of its own module: each is called.
            {
                "main.py": """
class Shape:
    def area(self):
        pass


class Square(Shape):
    def area(self):
        pass


def first():
    pass


def second():
    pass


def apply(f):
    f()


def measure(shape):
    shape.area()


def rebound(f):
    f = first
    f()


apply(first)
apply(second)
measure(Shape())
measure(Square())
rebound(second)
"""
            },
            {
                "main": {"main.apply", "main.measure", "main.rebound", "main.Shape", "main.Square"},
                "main.apply": {"main.first", "main.second"},
                "main.measure": {"main.Shape.area", "main.Square.area"},
                "main.rebound": {"main.first"},
            },
        ),
    ],
    "imports": [
        (
            # Imported from one place or another: either may be called.
            {
                "a.py": """
def func():
    pass
""",
                "b.py": """
def func():
    pass
""",
                "main.py": """
import sys

if sys.platform == "win32":
    from a import func
else:
    from b import func

try:
    import a as mod
except ImportError:
    import b as mod

func()
mod.func()
""",
            },
            {"main": {"a.func", "b.func"}},
        ),
    ],
    "attributes": [
        (
            # An attribute set from a parameter the class's calls pass two functions: either is
            # called; one nothing is known of calls no attribute (a field is not code).
            {
                "main.py": """
def first():
    pass


def second():
    pass


class Runner:
    def __init__(self, task, hook):
        self.task = task
        self.hook = hook

    def run(self):
        self.task()
        self.hook()


def make_hook():
    return None


Runner(first, make_hook()).run()
Runner(second, make_hook()).run()
"""
            },
            {
                "main": {"main.Runner.__init__", "main.Runner.run", "main.make_hook"},
                "main.Runner.run": {"main.first", "main.second"},
            },
        ),
        (
            # An attribute set to a function of the module, by name.
            {
                "main.py": """
def first():
    pass


class A:
    def __init__(self):
        self.f = first

    def m(self):
        self.f()


A().m()
"""
            },
            {"main": {"main.A.__init__", "main.A.m"}, "main.A.m": {"main.first"}},
        ),
        (
            # An attribute set from a constructor's parameter, called in another method: what the
            # modules that make instances pass.
            {
                "worker.py": """
class Thread:
    def __init__(self, target=None):
        self._target = target

    def run(self):
        self._target()
""",
                "main.py": """
from worker import Thread


def job():
    pass


Thread(target=job).run()
""",
            },
            {"main": {"worker.Thread.__init__", "worker.Thread.run"}, "worker.Thread.run": {"main.job"}},
        ),
    ],
    "annotations": [
        (
            # A union of classes (imported only for type checking): a method call on it may be
            # any of theirs; Optional and `X | None` are the one class.
            {
                "models.py": """
class Order:
    def pay(self):
        pass


class Refund:
    def pay(self):
        pass
""",
                "main.py": """
from __future__ import annotations

from typing import TYPE_CHECKING, Optional, Union

if TYPE_CHECKING:
    from models import Order, Refund


def settle(order: Optional[Order]) -> None:
    order.pay()


def either(x: Union[Order, Refund]) -> None:
    x.pay()


def pipe(x: "Order | Refund | None"):
    x.pay()
""",
            },
            {
                "main.settle": {"models.Order.pay"},
                "main.either": {"models.Order.pay", "models.Refund.pay"},
                "main.pipe": {"models.Order.pay", "models.Refund.pay"},
            },
        ),
    ],
}
for _category, _cases in INSTANCES_AND_SPREADS_CASES.items():
    CASES[_category] = CASES[_category] + _cases


# Sixth round (2026-12-06): lists grown by extend/insert and read from the end, setdefault, dicts
# and lists spread into literals, generator expressions and `yield from`, functions (and named
# lambdas) returning a parameter, a method returned bound, a class returned and then made, an
# attribute set on an instance, a class attribute a base class in another module holds.
CONTAINERS_AND_RETURNS_CASES: dict[str, list[Case]] = {
    "lists": [
        (
            {
                "main.py": """
def first():
    pass


def second():
    pass


def third():
    pass


funcs = [first]
funcs.extend([second])
funcs.insert(0, third)
funcs[0]()
funcs[2]()
"""
            },
            {"main": {"main.third", "main.second", "builtins.list.extend", "builtins.list.insert"}},
        ),
        (
            {
                "main.py": """
def first():
    pass


def second():
    pass


funcs = [first, second]
funcs[-1]()
more = [*funcs, first]
more[1]()
"""
            },
            {"main": {"main.second"}},
        ),
    ],
    "dicts": [
        (
            {
                "main.py": """
def first():
    pass


def second():
    pass


table = {"a": first}
table.setdefault("a", second)
table.setdefault("b", second)
table["a"]()
table["b"]()
"""
            },
            {"main": {"main.first", "main.second", "builtins.dict.setdefault"}},
        ),
        (
            {
                "main.py": """
def first():
    pass


def second():
    pass


base = {"a": first, "b": first}
table = {**base, "b": second}
table["a"]()
table["b"]()
"""
            },
            {"main": {"main.first", "main.second"}},
        ),
    ],
    "generators": [
        (
            {
                "main.py": """
def first():
    pass


def second():
    pass


def inner():
    yield first


def outer():
    yield from inner()
    yield second


for f in outer():
    f()
"""
            },
            {"main": {"main.outer", "main.first", "main.second"}, "main.outer": {"main.inner"}},
        ),
        (
            {
                "main.py": """
def first():
    pass


def second():
    pass


for f in (g for g in (first, second)):
    f()
"""
            },
            {"main": {"main.first", "main.second"}},
        ),
    ],
    "returns": [
        (
            {
                "main.py": """
def first():
    pass


def second():
    pass


def pick(a, b):
    return b


pick(first, second)()
pick(b=first, a=second)()
"""
            },
            {"main": {"main.pick", "main.second", "main.first"}},
        ),
        (
            {
                "main.py": """
class Order:
    def pay(self):
        pass

    def payer(self):
        return self.pay


Order().payer()()
"""
            },
            {"main": {"main.Order", "main.Order.payer", "main.Order.pay"}},
        ),
        (
            {
                "main.py": """
class Order:
    def pay(self):
        pass


def kind():
    return Order


kind()().pay()
"""
            },
            {"main": {"main.kind", "main.Order", "main.Order.pay"}},
        ),
    ],
    "lambdas": [
        (
            {
                "main.py": """
def first():
    pass


def second():
    pass


pick = lambda a, b: b
pick(first, second)()
"""
            },
            {"main": {"main.pick", "main.second"}},
        ),
    ],
    "assignments": [
        (
            {
                "main.py": """
def first():
    pass


class Box:
    pass


box = Box()
box.f = first
box.f()
"""
            },
            {"main": {"main.Box", "main.first"}},
        ),
        (
            {
                "main.py": """
def first():
    pass


def second():
    pass


def third():
    pass


funcs = [first]
funcs += [second]
funcs[1]()
table = {"a": first}
table |= {"a": third}
table["a"]()
"""
            },
            {"main": {"main.second", "main.third"}},
        ),
    ],
    "mro": [
        (
            {
                "base.py": """
def first():
    pass


class Base:
    handler = first
""",
                "main.py": """
import base


class Child(base.Base):
    def run(self):
        self.handler()
""",
            },
            {"main.Child.run": {"base.first"}},
        ),
    ],
}
for _category, _cases in CONTAINERS_AND_RETURNS_CASES.items():
    CASES[_category] = CASES[_category] + _cases


# Seventh round (2026-12-06): `with Cls() as c`, the walrus, a function returning a tuple or a dict
# literal (unpacked, subscripted), `getattr(obj, "name")()`, a class used as a decorator, a class
# attribute naming one of the class's methods, instances and classes held in containers.
PROTOCOLS_AND_LITERALS_CASES: dict[str, list[Case]] = {
    "assignments": [
        (
            {
                "main.py": """
def first():
    pass


if (g := first) is not None:
    g()
"""
            },
            {"main": {"main.first"}},
        ),
    ],
    "returns": [
        (
            {
                "main.py": """
class Session:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def query(self):
        pass


with Session() as s:
    s.query()
"""
            },
            {"main": {"main.Session", "main.Session.query"}},
        ),
        (
            {
                "main.py": """
def first():
    pass


def second():
    pass


def pair():
    return first, second


def table():
    return {"a": first, "b": second}


a, b = pair()
b()
table()["a"]()
"""
            },
            {"main": {"main.pair", "main.second", "main.table", "main.first"}},
        ),
    ],
    "lists": [
        (
            {
                "main.py": """
class JSONHandler:
    def handle(self):
        pass


class XMLHandler:
    def handle(self):
        pass

    def __call__(self):
        pass


handlers = [JSONHandler(), XMLHandler()]
for handler in handlers:
    handler.handle()
handlers[-1]()
"""
            },
            {
                "main": {
                    "main.JSONHandler",
                    "main.XMLHandler",
                    "main.JSONHandler.handle",
                    "main.XMLHandler.handle",
                    "main.XMLHandler.__call__",
                }
            },
        ),
    ],
    "dicts": [
        (
            {
                "main.py": """
class Order:
    def pay(self):
        pass


kinds = {"order": Order}
kinds["order"]().pay()
made = {"order": Order()}
made["order"].pay()
"""
            },
            {"main": {"main.Order", "main.Order.pay"}},
        ),
    ],
    "args": [
        (
            {
                "main.py": """
def first():
    pass


class Button:
    def __init__(self, on_click):
        self.on_click = on_click

    def click(self):
        self.on_click()


class OkButton(Button):
    def __init__(self):
        super().__init__(first)


OkButton().click()
"""
            },
            {
                "main": {"main.OkButton.__init__", "main.Button.click"},
                "main.OkButton.__init__": {"builtins.super", "main.Button.__init__"},
                "main.Button.click": {"main.first"},
            },
        ),
    ],
    "exceptions": [
        (
            {
                "main.py": """
class Timeout(Exception):
    def describe(self):
        pass


class Refused(Exception):
    def describe(self):
        pass


def run():
    try:
        pass
    except (Timeout, Refused) as error:
        error.describe()
"""
            },
            {"main.run": {"main.Timeout.describe", "main.Refused.describe"}},
        ),
    ],
    "mro": [
        (
            {
                "main.py": """
class Shape:
    def copy(self):
        return type(self).empty()

    def clone(self):
        return self.__class__.empty()

    @classmethod
    def empty(cls):
        return cls()
"""
            },
            {
                "main.Shape": {"builtins.classmethod"},
                "main.Shape.copy": {"builtins.type", "main.Shape.empty"},
                "main.Shape.clone": {"main.Shape.empty"},
                "main.Shape.empty": {"main.Shape"},
            },
        ),
    ],
    "decorators": [
        (
            {
                "main.py": """
class traced:
    def __init__(self, f):
        self.f = f

    def __call__(self, *args):
        return self.f(*args)


@traced
def work():
    pass


work()
"""
            },
            {
                "main": {"main.traced.__init__", "main.traced.__call__"},
                "main.traced.__call__": {"main.work"},
            },
        ),
    ],
    "attributes": [
        (
            {
                "main.py": """
class Order:
    def pay(self):
        pass

    settle = pay


order = Order()
order.settle()
getattr(order, "pay")()
"""
            },
            {"main": {"main.Order", "main.Order.pay", "builtins.getattr"}},
        ),
    ],
}
for _category, _cases in PROTOCOLS_AND_LITERALS_CASES.items():
    CASES[_category] = CASES[_category] + _cases

# A function handing its own *args and **kwargs on (`relay(*args, **kwargs)` calling `run(*args,
# **kwargs)`): what relay's calls pass reaches run's parameters, by position past the arguments
# written before the spread, by keyword, over a few hops; a spread of anything else says nothing.
# `functools.partial(run, first)` binds run's parameters as `run(first)` does.
FORWARDING_CASES: dict[str, list[Case]] = {
    "args": [
        (
            {
                "main.py": """
def first():
    pass


def second():
    pass


def run(job, then):
    job()
    then()


def relay(*args):
    run(*args)


def hop(*args):
    relay(*args)


hop(first, second)
"""
            },
            {
                "main": {"main.hop"},
                "main.hop": {"main.relay"},
                "main.relay": {"main.run"},
                "main.run": {"main.first", "main.second"},
            },
        ),
        (
            {
                "main.py": """
def first():
    pass


def second():
    pass


def run(label, job, *rest):
    job()
    rest[0]()


def relay(*args):
    return run("tag", *args)


def unknown(*others):
    run(*others)


relay(first, second)
"""
            },
            {
                "main": {"main.relay"},
                "main.relay": {"main.run"},
                "main.unknown": {"main.run"},
                "main.run": {"main.first", "main.second"},
            },
        ),
        (
            {
                "main.py": """
import functools


def first():
    pass


def run(job, times):
    job()


go = functools.partial(run, first)
go(3)
"""
            },
            {"main": {"functools.partial", "main.run"}, "main.run": {"main.first"}},
        ),
    ],
    "kwargs": [
        (
            {
                "main.py": """
def first():
    pass


def second():
    pass


def run(job=None, **hooks):
    job()
    hooks["done"]()


def relay(*args, **kwargs):
    run(*args, **kwargs)


relay(job=first, done=second)
"""
            },
            {"main": {"main.relay"}, "main.relay": {"main.run"}, "main.run": {"main.first", "main.second"}},
        ),
        (
            {
                "main.py": """
def first():
    pass


def second():
    pass


def run(job, *, then=None):
    job()
    then()


def start(items):
    run(*items, then=second)


run(first, then=second)
"""
            },
            {"main": {"main.run"}, "main.start": {"main.run"}, "main.run": {"main.first", "main.second"}},
        ),
    ],
}
for _category, _cases in FORWARDING_CASES.items():
    CASES[_category] = CASES[_category] + _cases

# 2026-12-06 evening: what a module's calls pass the methods of its own classes — on
# a new instance, on one held in a name, through self and cls, and handed on through `*args`; a
# generator yielding instances, looped over directly and through a name; a comprehension held in a
# name and looped over; `f = next(g)`; a decorator returning another function of the module; a class
# returned, held in a name, then made; a comprehension with a filter, a slice of a list; an
# attribute set on an instance over its class's; a name given one of two functions by a
# conditional or `or`; containers typed by their annotations (`list[Item]`, `Dict[str, "Item"]`);
# a property's annotated return as its class's field type; `isinstance` narrowing in an `if` block;
# fields typed as containers (a dataclass's `items: list[Item]`, `self.table: dict[str, Item]`).
OWN_METHODS_CASES: dict[str, list[Case]] = {
    "args": [
        (
            {
                "main.py": """
def first():
    pass


def second():
    pass


def third():
    pass


class Runner:
    def run(self, job):
        job()

    def again(self):
        self.run(second)

    @classmethod
    def boot(cls, hook):
        hook()

    @classmethod
    def setup(cls):
        cls.boot(third)


Runner().run(first)
runner = Runner()
runner.again()
Runner.setup()
"""
            },
            {
                "main": {"main.Runner", "main.Runner.run", "main.Runner.again", "main.Runner.setup"},
                "main.Runner": {"builtins.classmethod"},
                "main.Runner.run": {"main.first", "main.second"},
                "main.Runner.again": {"main.Runner.run"},
                "main.Runner.boot": {"main.third"},
                "main.Runner.setup": {"main.Runner.boot"},
            },
        ),
        (
            {
                "main.py": """
class Runner:
    def run(self, f, *args):
        f(*args)


def first(x):
    pass


def relay(*args):
    Runner().run(first, *args)


relay(1)
"""
            },
            {
                "main": {"main.relay"},
                "main.relay": {"main.Runner", "main.Runner.run"},
                "main.Runner.run": {"main.first"},
            },
        ),
    ],
    "generators": [
        (
            {
                "main.py": """
class Task:
    def run(self):
        pass


def tasks():
    yield Task()


for t in tasks():
    t.run()
pending = tasks()
for job in pending:
    job.run()
"""
            },
            {"main": {"main.tasks", "main.Task.run"}, "main.tasks": {"main.Task"}},
        ),
        (
            {
                "main.py": """
def first():
    pass


def second():
    pass


def third():
    pass


funcs = (f for f in [first, second])
for f in funcs:
    f()
more = [g for g in (third,)]
for g in more:
    g()
"""
            },
            {"main": {"main.first", "main.second", "main.third"}},
        ),
        (
            {
                "main.py": """
def first():
    pass


def gen():
    yield first


g = gen()
f = next(g)
f()
h = next(gen())
h()
"""
            },
            {"main": {"main.gen", "builtins.next", "main.first"}},
        ),
    ],
    "decorators": [
        (
            {
                "main.py": """
def other():
    pass


def swap(f):
    return other


@swap
def original():
    pass


original()
"""
            },
            {"main": {"main.swap", "main.other"}},
        ),
    ],
    "returns": [
        (
            {
                "main.py": """
class A:
    def go(self):
        pass


def make():
    return A


kind = make()
kind().go()
made = kind()
made.go()
"""
            },
            {"main": {"main.make", "main.A", "main.A.go"}},
        ),
    ],
    "lists": [
        (
            {
                "main.py": """
def first():
    pass


def second():
    pass


def third():
    pass


for f in [g for g in [first, second] if g]:
    f()
funcs = [first, second, third]
for h in funcs[1:-1]:
    h()
"""
            },
            {"main": {"main.first", "main.second"}},
        ),
    ],
    "attributes": [
        (
            {
                "main.py": """
def first():
    pass


def second():
    pass


class Box:
    handler = first


box = Box()
box.handler = second
box.handler()
"""
            },
            {"main": {"main.Box", "main.second"}},
        ),
    ],
    "assignments": [
        (
            {
                "main.py": """
import sys


def first():
    pass


def second():
    pass


def third():
    pass


f = first if sys.argv else second
f()
g = sys.argv and third or first
g()
h = sys.argv and second
h()
f = third
f()
"""
            },
            {"main": {"main.first", "main.second", "main.third"}},
        ),
    ],
    "annotations": [
        (
            {
                "main.py": """
from typing import Dict, Sequence


class Item:
    def run(self):
        pass


def run_all(items: list[Item]):
    for item in items:
        item.run()
    items[0].run()
    items.append(Item())


def run_map(table: Dict[str, "Item"]):
    for item in table.values():
        item.run()
    for key, value in table.items():
        value.run()
    table["a"].run()


def run_some(items: Sequence[Item]):
    for i, item in enumerate(items):
        item.run()
"""
            },
            {
                "main.run_all": {"main.Item.run", "main.Item", "builtins.list.append"},
                "main.run_map": {"main.Item.run", "builtins.dict.values", "builtins.dict.items"},
                "main.run_some": {"main.Item.run", "builtins.enumerate"},
            },
        ),
        (
            {
                "main.py": """
class Conn:
    def execute(self):
        pass


class Repo:
    def __init__(self):
        self._conn = Conn()

    @property
    def conn(self) -> Conn:
        return self._conn

    def save(self):
        self.conn.execute()


Repo().save()
"""
            },
            {
                "main": {"main.Repo.__init__", "main.Repo.save"},
                "main.Repo": {"builtins.property"},
                "main.Repo.__init__": {"main.Conn"},
                "main.Repo.save": {"main.Conn.execute"},
            },
        ),
        (
            {
                "main.py": """
class Circle:
    def area(self):
        pass


class Square:
    def side(self):
        pass


def measure(shape: Circle):
    if isinstance(shape, Square):
        shape.side()
    shape.area()


def either(shape):
    if isinstance(shape, Circle):
        shape.area()
    elif isinstance(shape, Square):
        shape.side()
"""
            },
            {
                "main.measure": {"builtins.isinstance", "main.Square.side", "main.Circle.area"},
                "main.either": {"builtins.isinstance", "main.Square.side", "main.Circle.area"},
            },
        ),
        (
            {
                "main.py": """
from dataclasses import dataclass, field


class Item:
    def run(self):
        pass


@dataclass
class Batch:
    items: list[Item] = field(default_factory=list)

    def run(self):
        for item in self.items:
            item.run()


class Registry:
    def __init__(self):
        self.table: dict[str, Item] = {}

    def run(self):
        for item in self.table.values():
            item.run()
"""
            },
            {
                "main": {"dataclasses.dataclass"},
                "main.Batch": {"dataclasses.field"},
                "main.Batch.run": {"main.Item.run"},
                "main.Registry.run": {"main.Item.run"},
            },
        ),
    ],
}
for _category, _cases in OWN_METHODS_CASES.items():
    CASES[_category] = CASES[_category] + _cases

# 2026-12-06 night: guards and tuples of classes, chains of returned functions, yielded locals,
# bound methods passed as arguments, values handed on (written before the code that finds them).
NARROWING_AND_CHAINS_CASES: dict[str, list[Case]] = {
    "annotations": [
        (
            {
                "main.py": """
class Circle:
    def draw(self):
        pass


class Square:
    def draw(self):
        pass


def guarded(shape):
    if not isinstance(shape, Circle):
        raise TypeError("a circle")
    shape.draw()


def either(shape):
    if isinstance(shape, (Circle, Square)):
        shape.draw()
"""
            },
            {
                "main.guarded": {"builtins.isinstance", "builtins.TypeError", "main.Circle.draw"},
                "main.either": {"builtins.isinstance", "main.Circle.draw", "main.Square.draw"},
            },
        ),
    ],
    "returns": [
        (
            {
                "main.py": """
def first():
    pass


def middle():
    return first


def outer():
    return middle


outer()()()
"""
            },
            {"main": {"main.outer", "main.middle", "main.first"}},
        ),
    ],
    "generators": [
        (
            {
                "main.py": """
class Task:
    def run(self):
        pass


def tasks():
    t = Task()
    yield t


def main():
    for task in tasks():
        task.run()
"""
            },
            {"main.tasks": {"main.Task"}, "main.main": {"main.tasks", "main.Task.run"}},
        ),
    ],
    "args": [
        (
            {
                "main.py": """
def apply(f):
    f()


class Box:
    def handle(self):
        pass

    def go(self):
        apply(self.handle)
"""
            },
            {"main.apply": {"main.Box.handle"}, "main.Box.go": {"main.apply"}},
        ),
    ],
    "assignments": [
        (
            {
                "main.py": """
def first():
    pass


def second():
    pass


c = first
d = c
c = second
d()
a, b = first, second
a, b = b, a
a()
"""
            },
            {"main": {"main.first", "main.second"}},
        ),
    ],
}
NARROWING_AND_CHAINS_CASES["external"] = [
    (
        {
            "main.py": """
import threading


class Table(dict):
    def total(self):
        return sum(self.values())


class Worker(threading.Thread):
    def go(self):
        self.start()


class Mixed(threading.Thread):
    def go(self):
        self.run()


class Runner(Mixed):
    def run(self):
        pass


t = Table()
t.items()
"""
        },
        {
            "main.Table.total": {"builtins.sum", "builtins.dict.values"},
            "main.Worker.go": {"threading.Thread.start"},
            # Mixed's own instances run Thread.run, a Runner its own: no one answer
            "main": {"main.Table", "builtins.dict.items"},
        },
    ),
]
NARROWING_AND_CHAINS_CASES["dicts"] = [
    (
        {
            "main.py": """
class A:
    def run(self):
        pass


class B:
    def run(self):
        pass


def go():
    kinds = {"a": A, "b": B}
    obj = kinds["a"]()
    obj.run()
"""
        },
        {"main.go": {"main.A", "main.A.run"}},
    ),
]
NARROWING_AND_CHAINS_CASES["lists"] = [
    (
        {
            "main.py": """
class Box:
    def handle(self):
        pass


def go():
    boxes = [Box()]
    first = boxes[0]
    first.handle()
    box = boxes.pop()
    box.handle()
"""
        },
        {"main.go": {"main.Box", "main.Box.handle", "builtins.list.pop"}},
    ),
]
for _category, _cases in NARROWING_AND_CHAINS_CASES.items():
    CASES[_category] = CASES[_category] + _cases

# Ninth round: a name called through parentheses, a lambda called where it is written, and an
# instance handed back by a function returning its parameter.
PARENTHESES_AND_IDENTITY_CASES: dict[str, list[Case]] = {
    "direct_calls": [
        (
            {
                "main.py": """
class Box:
    def handle(self):
        pass


def first():
    pass


def second():
    pass


def third():
    pass


def go():
    (first)()
    ((second))()
    box = Box()
    (box.handle)()
"""
            },
            {"main.go": {"main.first", "main.second", "main.Box", "main.Box.handle"}},
        ),
    ],
    "lambdas": [
        (
            {
                "main.py": """
def first():
    pass


def second():
    pass


def go(first=second):
    (lambda: second)()()
    (lambda: third())()
    (lambda first: first)(second)
    (lambda: first)()()


def third():
    pass
"""
            },
            # `(lambda: first)()()` in go calls go's parameter first (second by default): the
            # module's first is not what it names
            {"main.go": {"main.second", "main.third"}},
        ),
    ],
    "returns": [
        (
            {
                "main.py": """
class Box:
    def handle(self):
        pass


def ident(x):
    return x


def go():
    ident(Box()).handle()
    box = ident(Box())
    box.handle()
"""
            },
            {"main.go": {"main.ident", "main.Box", "main.Box.handle"}},
        ),
    ],
}
for _category, _cases in PARENTHESES_AND_IDENTITY_CASES.items():
    CASES[_category] = CASES[_category] + _cases
PARENTHESES_AND_IDENTITY_CASES_GLOBALS: list[Case] = [
    (
        {
            "main.py": """
class A:
    def run(self):
        pass


class B:
    def run(self):
        pass


def first():
    pass


def second():
    pass


handler = first
worker = A()


def swap():
    global handler, worker
    handler = second
    worker = B()


def use():
    handler()
    worker.run()


def own(handler):
    handler()


def third():
    pass


swap()
use()
own(third)
"""
        },
        {
            # swap may have run before use: each value the module's names may hold
            "main.use": {"main.first", "main.second", "main.A.run", "main.B.run"},
            "main.swap": {"main.B"},
            # own's parameter, not the module's handler
            "main.own": {"main.third"},
            "main": {"main.A", "main.swap", "main.use", "main.own"},
        },
    ),
]
CASES["assignments"] = CASES["assignments"] + PARENTHESES_AND_IDENTITY_CASES_GLOBALS
CASES["dicts"] = CASES["dicts"] + [
    (
        {
            "main.py": """
def first():
    pass


def second():
    pass


class Box:
    def handle(self):
        pass


def go(keys):
    table = {f.__name__: f for f in (first, second)}
    table["first"]()
    copied = {k: v for k, v in table.items()}
    for f in copied.values():
        f()
    boxes = {k: Box() for k in keys}
    boxes["a"].handle()


def only(keys):
    made = {k: first for k in keys}
    made.get("x")()
"""
        },
        {
            "main.go": {
                "main.first",
                "main.second",
                "main.Box",
                "main.Box.handle",
                "builtins.dict.items",
                "builtins.dict.values",
            },
            "main.only": {"main.first", "builtins.dict.get"},
        },
    ),
]

# Tenth round: a def reads a module-level name as it stands when the def runs — the module's last
# value, even when assigned below the def — unless the def binds the name itself (then it is the
# def's own, whatever it holds); a name passed holds what it held where the call stands; a call
# through a name holding a function binds that function's parameters; an argument that calls a
# function returning one passes what it returns; chained assignments bind every target; a dict
# keeps the number 1 and the string "1" apart, and a key the file cannot read calls each value.
LATE_NAMES_AND_DISPATCH_CASES: dict[str, list[Case]] = {
    "assignments": [
        (
            {
                "main.py": """
def first():
    pass


def second():
    pass


def third():
    pass


def run():
    handler()
    picked()


def shadow():
    handler = third
    handler()
    for picked in (third,):
        picked()


handler = first
picked = second
head = tail = third
head()
left, right = one, two = first, second
one()
right()
"""
            },
            {
                "main.run": {"main.first", "main.second"},
                "main.shadow": {"main.third"},
                "main": {"main.third", "main.first", "main.second"},
            },
        ),
    ],
    "args": [
        (
            {
                "main.py": """
def first():
    pass


def second():
    pass


def apply(job):
    job()


def choose():
    return second


def twice(job, then):
    job()
    then()


held = first
apply(held)
alias = twice
alias(first, choose())
"""
            },
            {
                "main": {"main.apply", "main.twice", "main.choose"},
                "main.apply": {"main.first"},
                "main.twice": {"main.first", "main.second"},
            },
        ),
    ],
    "dicts": [
        (
            {
                "main.py": """
def first():
    pass


def second():
    pass


def third():
    pass


by_number = {1: first, "1": second}
by_number[1]()
by_number["1"]()

actions = {"start": first, "stop": second}


def dispatch(name):
    actions[name]()
"""
            },
            {
                "main": {"main.first", "main.second"},
                "main.dispatch": {"main.first", "main.second"},
            },
        ),
    ],
}
LATE_NAMES_AND_DISPATCH_CASES["generators"] = [
    (
        {
            "main.py": """
class Countdown:
    def __init__(self, start):
        self.left = start

    def __iter__(self):
        return self

    def __next__(self):
        if not self.left:
            raise StopIteration()
        self.left -= 1
        return self.left


class Pages:
    def __iter__(self):
        yield 1

    def __next__(self):
        return 2


def total(steps):
    for _ in steps:
        pass


for n in Countdown(3):
    pass
total(Countdown(2))
pages = Pages()
for page in pages:
    pass
"""
        },
        {
            "main": {
                "main.Countdown.__init__",
                "main.Countdown.__iter__",
                "main.Countdown.__next__",
                "main.total",
                "main.Pages",
                "main.Pages.__iter__",
            },
            "main.total": {"main.Countdown.__iter__", "main.Countdown.__next__"},
            "main.Countdown.__next__": {"builtins.StopIteration"},
        },
    ),
]
for _category, _cases in LATE_NAMES_AND_DISPATCH_CASES.items():
    CASES[_category] = CASES[_category] + _cases

# Tenth round, continued: what a function returns when its one `return` gives a local name holding
# a function or calls a function returning one, followed through calls of calls (`make()()()`) and
# names holding such a function; a decorator named through a variable; `raise` of a name holding a
# class; a container passed by name; a dict value a call returns; a slice of a list.
RETURNS_AND_CONTAINERS_CASES: dict[str, list[Case]] = {
    "returns": [
        (
            {
                "main.py": """
def first():
    pass


def outer():
    def inner():
        pass

    return inner


def local():
    chosen = first
    return chosen


def relay():
    return local()


def maker():
    return outer


local()()
relay()()
maker()()()
factory = maker
factory()()
"""
            },
            {
                "main": {
                    "main.local",
                    "main.first",
                    "main.relay",
                    "main.maker",
                    "main.outer",
                    "main.outer.inner",
                },
                "main.relay": {"main.local"},
            },
        ),
    ],
    "decorators": [
        (
            {
                "main.py": """
def loud(f):
    return f


def quiet(f):
    f()
    return f


deco = loud
deco = quiet


@deco
def work():
    pass
"""
            },
            {"main": {"main.quiet"}, "main.quiet": {"main.work"}},
        ),
    ],
    "exceptions": [
        (
            {
                "main.py": """
class Refused(Exception):
    def __init__(self):
        pass


error = Refused


def check():
    raise error
"""
            },
            {"main.check": {"main.Refused.__init__"}},
        ),
    ],
    "dicts": [
        (
            {
                "main.py": """
def first():
    pass


def second():
    pass


def pick():
    return second


def run(table):
    table["a"]()
    table["b"]()


handlers = {"a": first, "b": pick()}
run(handlers)
"""
            },
            {"main": {"main.pick", "main.run"}, "main.run": {"main.first", "main.second"}},
        ),
        (
            {
                "main.py": """
def first():
    pass


def second():
    pass


def third():
    pass


config = {"on": {"save": first}, 2: first}
config["on"]["save"] = second
config["on"]["save"]()
config[2] = third
config[2]()
"""
            },
            {"main": {"main.second", "main.third"}},
        ),
    ],
    "lists": [
        (
            {
                "main.py": """
def first():
    pass


def second():
    pass


def third():
    pass


steps = [first, second, third]
rest = steps[1:]
rest[0]()
middle = steps[1:2]
middle[-1]()
"""
            },
            {"main": {"main.second"}},
        ),
    ],
}
RETURNS_AND_CONTAINERS_CASES["args"] = [
    (
        {
            "main.py": """
from shapes import Circle


def run(job):
    job()


circle = Circle()
run(circle.area)
"""
        },
        {"main": {"shapes.Circle", "main.run"}, "main.run": {"shapes.Circle.area"}},
    ),
    (
        {
            "main.py": """
def first():
    pass


def call_it(f):
    f()


def apply(g):
    g(first)


apply(call_it)
"""
        },
        {"main": {"main.apply"}, "main.apply": {"main.call_it"}, "main.call_it": {"main.first"}},
    ),
]
RETURNS_AND_CONTAINERS_CASES["attributes"] = [
    (
        {
            "main.py": """
class Saver:
    def __init__(self, fast):
        self.write = self.write_fast

    def write_fast(self):
        pass

    def save(self):
        self.write()


Saver(True).write()
"""
        },
        {
            "main": {"main.Saver.__init__", "main.Saver.write_fast"},
            "main.Saver.save": {"main.Saver.write_fast"},
        },
    ),
]
for _category, _cases in RETURNS_AND_CONTAINERS_CASES.items():
    CASES[_category] = CASES[_category] + _cases

# Functions handed to the standard library's functions that call them: built-ins, functools,
# itertools, heapq, list.sort; threads, atexit, the event loop's and unittest's callbacks, called
# later; not when the file gives the built-in's name another meaning.
CASES["callbacks"] = [
    (
        {
            "main.py": """
import functools
import heapq
from itertools import groupby


def order(item):
    return item


def parse(line):
    return line


def total(a, b):
    return a + b


def main(lines):
    names = sorted(lines, key=order)
    parsed = list(map(parse, lines))
    functools.reduce(total, parsed)
    groupby(parsed, key=order)
    heapq.nlargest(3, parsed, key=order)
    return names
"""
        },
        {
            "main.main": {
                "builtins.sorted",
                "main.order",
                "builtins.list",
                "builtins.map",
                "main.parse",
                "functools.reduce",
                "main.total",
                "itertools.groupby",
                "heapq.nlargest",
            }
        },
    ),
    (
        {
            "main.py": """
class Table:
    def rank(self, row):
        return row

    def best(self, rows):
        rows.sort(key=self.rank)
        return max(rows, key=self.rank)


def parse(line):
    return line


def shadowed(map):
    map(parse, [])


def sort_by(items, key):
    return sorted(items, key=key)


def by_length(word):
    return len(word)


sort_by(["a"], by_length)
"""
        },
        {
            "main.Table.best": {"main.Table.rank", "builtins.max"},
            "main.sort_by": {"builtins.sorted", "main.by_length"},
            "main.by_length": {"builtins.len"},
            "main": {"main.sort_by"},
        },
    ),
    (
        {
            "main.py": """
import atexit
import threading
import unittest
from threading import Thread


def close():
    pass


def tick():
    pass


class Worker:
    def __init__(self, loop):
        self.loop = loop
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.timer = Thread(None, self.run)

    def run(self):
        self.loop.call_soon(tick)


atexit.register(close)


class Tests(unittest.TestCase):
    def test_cleanup(self):
        self.addCleanup(close)
"""
        },
        {
            "main.Worker.__init__": {"threading.Thread", "main.Worker.run"},
            "main.Worker.run": {"main.tick"},
            "main": {"atexit.register", "main.close"},
            "main.Tests.test_cleanup": {"unittest.TestCase.addCleanup", "main.close"},
        },
    ),
    (
        # A Tk program: Tk calls a widget's command, a menu entry's, the scroll commands, the
        # after(), protocol() and bind() handlers — each is called where it is handed over.
        {
            "main.py": """
import tkinter as tk
from tkinter import ttk


class App:
    def __init__(self, root):
        self.root = root
        tk.Button(root, text="Quit", command=self.quit)
        ttk.Checkbutton(root, command=self.toggle)
        menu = tk.Menu(root)
        menu.add_command(label="Save", command=save)
        listing = tk.Listbox(root)
        bar = tk.Scrollbar(root, command=listing.yview)
        listing.config(yscrollcommand=bar.set)
        listing.bind("<Double-1>", self.toggle)
        root.after(100, self.poll)
        root.protocol("WM_DELETE_WINDOW", self.quit)

    def quit(self):
        pass

    def toggle(self):
        pass

    def poll(self):
        pass


def save():
    pass
"""
        },
        {
            "main.App.__init__": {
                "main.App.quit",
                "main.App.toggle",
                "main.App.poll",
                "main.save",
                "tkinter.Button",
                "tkinter.ttk.Checkbutton",
                "tkinter.Menu",
                "tkinter.Menu.add_command",
                "tkinter.Listbox",
                "tkinter.Listbox.config",
                "tkinter.Listbox.bind",
                "tkinter.Listbox.yview",
                "tkinter.Scrollbar",
                "tkinter.Scrollbar.set",
            }
        },
    ),
]

# An instance of the class a method is in, made through the instance (`self.__class__(...)`,
# `type(self)(...)`), runs that class's __init__; a base named through a name holding a class
# (`TestCase = unittest.TestCase`) is that class, so what it gives the subclass is reached.
CASES["mro"] = CASES["mro"] + [
    (
        {
            "main.py": """
import unittest

Case = unittest.TestCase


class Point:
    def __init__(self, x):
        self.x = x

    def moved(self):
        return self.__class__(self.x + 1)

    def copied(self):
        return type(self)(self.x)


class Checks(Case):
    def test_point(self):
        self.assertEqual(Point(1).moved().x, 2)
"""
        },
        {
            "main.Point.moved": {"main.Point.__init__"},
            "main.Point.copied": {"main.Point.__init__", "builtins.type"},
            "main.Checks.test_point": {"unittest.TestCase.assertEqual", "main.Point.__init__", "main.Point.moved"},
        },
    ),
]

# A container a function builds and returns holds, for the caller, what it held there
# (`t = make(); t["a"]()`); a loop over an instance whose __iter__ returns it takes what its
# __next__ returns (`for f in Steps(): f()`).
CASES["dicts"] = CASES["dicts"] + [
    (
        {
            "main.py": """
def first():
    pass


def second():
    pass


def make():
    table = {"a": first}
    table["b"] = second
    return table


def listed():
    found = [first]
    found.append(second)
    return found


t = make()
t["a"]()
make()["b"]()
listed()[1]()
"""
        },
        {"main": {"main.make", "main.first", "main.second", "main.listed"}, "main.listed": {"builtins.list.append"}},
    ),
]
CASES["generators"] = CASES["generators"] + [
    (
        {
            "main.py": """
def handle():
    pass


class Steps:
    def __init__(self, count):
        self.count = count

    def __iter__(self):
        return self

    def __next__(self):
        if not self.count:
            raise StopIteration
        self.count -= 1
        return handle


for step in Steps(2):
    step()
"""
        },
        # (`raise StopIteration`, bare: no call of the built-in; see the exceptions case below)
        {"main": {"main.Steps.__init__", "main.Steps.__iter__", "main.Steps.__next__", "main.handle"}},
    ),
]

# `pick()(first)()`: pick returns ident, ident returns its parameter, so first is what is called
# (not pick in `other()(pick)()`, where the function other returns gives its parameter another value).
CASES["direct_calls"] = CASES["direct_calls"] + [
    (
        {
            "main.py": """
def first():
    pass


def ident(f):
    return f


def rebinds(f):
    f = first
    return f


def pick():
    return ident


def other():
    return rebinds


def direct():
    pick()(first)()


def rebound():
    other()(pick)()
"""
        },
        {
            "main.direct": {"main.pick", "main.ident", "main.first"},
            "main.rebound": {"main.other", "main.rebinds", "main.first"},
        },
    ),
]

# `raise Refused` makes a Refused (its __init__ runs), as `raise Refused()` does; a built-in exception
# raised bare (`raise KeyError`, or through a name: `error = ValueError; raise error`) is no call
# the graph holds, the same one raised with parentheses is (`raise OSError()`: builtins.OSError).
CASES["exceptions"] = CASES["exceptions"] + [
    (
        {
            "main.py": """
class Refused(Exception):
    def __init__(self):
        pass


def check(table, key):
    if key not in table:
        raise KeyError
    if not table[key]:
        raise Refused
    error = ValueError
    if key == "":
        raise error
    raise OSError()
"""
        },
        {"main.check": {"main.Refused.__init__", "builtins.OSError"}},
    ),
]
