"""Registers Python with codecairn (entry point ``python`` in the group ``codecairn``)."""

from __future__ import annotations

import builtins

import tree_sitter_python
from codecairn.hookspecs import AttachedLines, ImportedOnCall, Language, ResolutionRules, RouteDetector, hookimpl


@hookimpl
def codecairn_languages() -> list[Language]:
    return [
        Language(
            name="python",
            extensions=(".py", ".pyi"),
            grammar=tree_sitter_python.language,
            extractor=ImportedOnCall("codecairn_python.extractor:extract"),
            # 2: receiver types from forward references, Optional[...] and unions with None;
            # 3: from literals and built-in constructors (`x = []`, `self.seen = set()`), caught
            # exceptions, return types; values followed through the file (model.FLOWED)
            # 5: unpacking, container items and appends, literals passed, stacked decorators, `raise Cls`
            # 6: what calls pass other modules' functions, and calls through parameters (model.PASSES)
            # 7: a base a call makes (`class P(namedtuple(...))`) is an extends edge, never resolved
            # 8: a parameter this file's calls pass a few different values: a call through it calls each;
            #    literals nested in a container's literal (`table["a"][1]()`); unions of classes; an
            #    attribute set from a parameter (`@0:target:threading.Thread.__init__`)
            # 9: containers changed by their methods, spreads, returned parameters and literals, bound
            #    methods, `with ... as`, the walrus, class decorators, instances in containers, and a
            #    returns edge from a variable to the function or class it holds
            # 10: a function's own *args/**kwargs handed on (`run(*args, **kwargs)`) carry what its
            #     calls pass it; keyword arguments after a `*` spread bind; `partial(f, a)` binds f as `f(a)`
            # 11: what a module's calls pass the methods of its own classes (`Runner().run(f)`,
            #     `runner.run(f)`, `self.run(f)`) binds their parameters, as another module's calls do;
            #     a generator yielding an instance (`yield Task()`): a loop over it calls its methods;
            #     a comprehension held in a name (`funcs = (f for f in fs)`) and `f = next(g)` followed;
            #     a decorator returning another function of the module; a class held in a name, made;
            #     filtered comprehensions, slices of lists; an instance's own attribute over its class's;
            #     a name given either of two functions (`f = a if c else b`, `g = a or b`); the items
            #     of containers typed by annotations (`list[Item]`, `dict[str, Item]`); a property's
            #     return annotation as its class's field type; `isinstance` narrowing in an `if`/`elif` block;
            #     fields typed as containers (`items: list[Item]` in a class body, `self.table: dict[...]`)
            # 12: `if not isinstance(x, A): raise` narrows x below the guard; `isinstance(x, (A, B))`
            #     a call on x in the block calls each one's method; `outer()()()` through returned
            #     functions; `t = Task(); yield t`; a bound method passed (`apply(self.handle)`); a name
            #     handed on holds the value it had there (`d = c; c = second`, `a, b = b, a`); an item
            #     taken from a container into a name keeps its class (`obj = kinds["a"]()`,
            #     `h = handlers[0]`, `box = boxes.pop()`)
            # 13: a name called through parentheses (`(first)()`, `(box.handle)()`); a lambda called
            #     where it is written returns what its body names (`(lambda: first)()()`); an instance
            #     handed back by a function returning its parameter (`ident(Box()).handle()`); a name
            #     functions declare `global` and give other values holds each of them wherever it is read;
            #     a parameter is not the enclosing scope's name of the same spelling (`def own(handler)`);
            #     a dict comprehension holds its value expression's values under any key
            # 14: a def reading a name of a scope around it sees that scope's last value, wherever the
            #     def stands (`def main(): handler()` before `handler = first`); a name passed holds
            #     what it held where the call stands (`b = first; run(b)`); a def's own name is no
            #     namesake's (OWN_NAME); `a = b = first`; `{1: f}` apart from `{"1": f}`; `table[key]()`
            #     calls each value; a `for` over an instance of the module's class calls its __iter__
            #     (and __next__ when __iter__ returns self)
            # 15: a function passed to a standard-library function that calls it, then or later, is called
            #     where it is passed (`sorted(names, key=order)`, `map(parse, lines)`, `rows.sort(key=self.rank)`,
            #     `threading.Thread(target=self.run)`, `atexit.register(close)`, `loop.call_soon(tick)`);
            #     `self.__class__(...)` and `type(self)(...)` make the method's class; a base named by a
            #     name given one class in its scope (`Case = unittest.TestCase`) is that class
            # 16: a container a module function builds and returns is followed (`t = make(); t["a"]()`,
            #     `make()["a"]()`); a loop over an instance whose __iter__ returns it takes what its
            #     __next__ returns (`for f in Steps(): f()`)
            # 17: a function a call returns, called in turn, hands back the argument it returns
            #     (`pick()(first)()`, pick returning ident, ident returning its parameter: first)
            # 18: a built-in exception raised bare (`raise KeyError`, `error = ValueError; raise error`)
            #     is no call of it (`raise KeyError()` still is)
            # 19: Tk's handlers are called where they are handed over (`Button(command=self.quit)`,
            #     `menu.add_command(command=save)`, `root.after(100, poll)`, `yscrollcommand=bar.set`);
            #     a function-taker imported with `from m import *` is one (`accumulate(s, max)`)
            # 20: a bound Tk event's handler too (`widget.bind("<Escape>", self.close)`)
            # 21: a module ends on its last line, not on the empty one after its last line break
            # 22: a signature over several lines keeps its parameters past comments that end its lines
            version="22",
            resolution=ResolutionRules(
                separator=".",
                implicit_members=False,
                self_names=("self", "cls"),
                super_names=("super()", "super"),
                directory_scope=False,
                builtins=frozenset(dir(builtins)),
                builtins_module="builtins",
                root_type="object",
                root_members=frozenset(dir(object)),
                builtin_members=_builtin_members(),
                mixins=True,
                wildcard_public_only=True,
                constructor="__init__",
            ),
            attached=AttachedLines(("@",), ("#",)),
        )
    ]


def _builtin_members() -> frozenset[str]:
    """The members of each class of ``builtins`` as ``type.member``, from the running interpreter
    (ResolutionRules.builtin_members): what `x = []; x.keys()` cannot call."""
    types = [(name, value) for name, value in vars(builtins).items() if isinstance(value, type)]
    return frozenset(f"{name}.{member}" for name, value in types for member in dir(value))


@hookimpl
def codecairn_route_detectors() -> list[RouteDetector]:
    return [RouteDetector("python-http", ("python",), ImportedOnCall("codecairn_python.routes:detect"))]
