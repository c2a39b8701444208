"""HTTP routes and client calls in TypeScript and JavaScript: Express and Koa routers
(``app.get('/x', h)``, ``router.route('/x').post(h)``, ``app.use('/api', router)`` prefixes within a
file), NestJS controllers (``@Controller('users')`` + ``@Get(':id')``), and fetch / axios / Angular
HttpClient calls whose URL is a literal, a template or a module constant.

Precision first: a route only on an object the file makes an Express app or router (or a Koa
router), in a file that imports the framework; a NestJS route only under a ``@Controller`` in a
file importing ``@nestjs/common``; a call only when its URL text is known up to the values
interpolated into it.
"""

from __future__ import annotations

from typing import Any

from codecairn.model import FileFacts, HttpCall, Route, client_url

VERBS = {"get": "GET", "post": "POST", "put": "PUT", "patch": "PATCH", "delete": "DELETE", "del": "DELETE",
         "head": "HEAD", "options": "OPTIONS", "all": "ANY"}  # fmt: skip
NEST_VERBS = {"Get": "GET", "Post": "POST", "Put": "PUT", "Patch": "PATCH", "Delete": "DELETE", "Head": "HEAD",
              "Options": "OPTIONS", "All": "ANY"}  # fmt: skip
ROUTER_MODULES = {"express": "express", "koa-router": "koa", "@koa/router": "koa", "router": "express"}


class _File:
    def __init__(self, source: bytes, facts: FileFacts) -> None:
        self.source = source
        modules = {i[0] for i in facts.imports}
        self.router_framework = next((ROUTER_MODULES[m] for m in ROUTER_MODULES if m in modules), "")
        if not self.router_framework and any(_wraps_express(m) for m in modules):
            self.router_framework = "express"
        self.nest = "@nestjs/common" in modules
        self.axios = {i[2] or "axios" for i in facts.imports if i[0] == "axios"}
        self.angular = "@angular/common/http" in modules
        self.apps: dict[str, str] = {}  # app / router variable -> prefix ("" unless mounted here)
        self.constants: dict[str, str] = {}
        self.routes: list[Route] = []
        self.calls: list[HttpCall] = []

    def text(self, node: Any) -> str:
        return self.source[node.start_byte : node.end_byte].decode("utf-8", "replace")


def _wraps_express(module: str) -> bool:
    """A project's own module named express (Ghost's ``../shared/express``): a wrapper that
    re-exports Express, so its ``express.Router()`` is Express's router."""
    return module.startswith(".") and module.rstrip("/").rsplit("/", 1)[-1] in ("express", "express.js")


def detect(source: bytes, tree: Any, path: str, facts: FileFacts) -> tuple[list[Route], list[HttpCall]]:
    f = _File(source, facts)
    root = tree.root_node
    nodes = list(_walk(root))
    for node in nodes:
        if node.type == "variable_declarator":
            _declarator(f, node)
    for node in nodes:  # mounts first: `app.use('/api', router)` prefixes router's routes
        if node.type == "call_expression":
            _mount(f, node)
    for node in nodes:
        if node.type == "call_expression":
            _call(f, node)
        elif node.type == "class_declaration" and f.nest:
            _controller(f, node)
    return f.routes, f.calls


def _walk(root: Any):
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(node.named_children))


def _declarator(f: _File, node: Any) -> None:
    name, value = node.child_by_field_name("name"), node.child_by_field_name("value")
    if name is None or value is None or name.type != "identifier":
        return
    if value.type in ("string", "template_string"):
        text = _known_text(f, value)
        if text is not None and "{}" not in text:
            f.constants[f.text(name)] = text
        return
    if not f.router_framework:
        return
    callee = value
    if value.type == "new_expression":
        callee = value.child_by_field_name("constructor")
    elif value.type == "call_expression":
        callee = value.child_by_field_name("function")
    else:
        return
    written = f.text(callee) if callee is not None else ""
    if written in ("express", "express.Router", "Router", "KoaRouter", "Koa.Router") or written.endswith("Router"):
        f.apps[f.text(name)] = ""


def _mount(f: _File, node: Any) -> None:
    function = node.child_by_field_name("function")
    if function is None or function.type != "member_expression":
        return
    obj, prop = function.child_by_field_name("object"), function.child_by_field_name("property")
    if obj is None or prop is None or f.text(prop) != "use" or f.text(obj) not in f.apps:
        return
    args = _args(node)
    if len(args) >= 2 and args[0].type == "string" and args[-1].type == "identifier":
        prefix, router = _string(f, args[0]), f.text(args[-1])
        if prefix is not None and router in f.apps and router != f.text(obj):
            f.apps[router] = _join(f.apps[f.text(obj)], prefix)


def _call(f: _File, node: Any) -> None:
    function = node.child_by_field_name("function")
    if function is None:
        return
    args = _args(node)
    if function.type == "identifier" and f.text(function) == "fetch" and args:
        url = _url(f, args[0])
        if url is not None:
            method = "GET"
            if len(args) > 1 and args[1].type == "object":
                given = _property(f, args[1], "method")
                method = given.upper() if given else "GET"
            f.calls.append(HttpCall(method, url, node.start_point[0] + 1, "fetch"))
        return
    if function.type != "member_expression":
        return
    obj, prop = function.child_by_field_name("object"), function.child_by_field_name("property")
    if obj is None or prop is None:
        return
    verb, owner = f.text(prop), f.text(obj)
    if verb in VERBS and args:
        if owner in f.apps and args[0].type in ("string", "template_string"):
            pattern = _string(f, args[0])
            if pattern is not None and pattern.startswith("/"):
                handler = _handler(f, args[-1]) if len(args) > 1 else ""
                f.routes.append(Route(VERBS[verb], _join(f.apps[owner], pattern), handler, node.start_point[0] + 1,
                                      node.end_point[0] + 1, f.router_framework))  # fmt: skip
            return
        chained = _route_chain(f, obj)
        if chained is not None:
            app, pattern = chained
            f.routes.append(Route(VERBS[verb], _join(f.apps[app], pattern), _handler(f, args[-1]),
                                  node.start_point[0] + 1, node.end_point[0] + 1, f.router_framework))  # fmt: skip
            return
        client = ""
        if owner in f.axios:
            client = "axios"
        elif f.angular and owner.rsplit(".", 1)[-1] in ("http", "httpClient"):
            client = "angular"
        if client and verb != "all":
            url = _url(f, args[0])
            if url is not None:
                f.calls.append(HttpCall(VERBS[verb], url, node.start_point[0] + 1, client))


def _route_chain(f: _File, obj: Any) -> tuple[str, str] | None:
    """``router.route('/x').get(a).post(b)``: the app and the pattern a chained verb belongs to."""
    while obj is not None and obj.type == "call_expression":
        function = obj.child_by_field_name("function")
        if function is None or function.type != "member_expression":
            return None
        inner, prop = function.child_by_field_name("object"), function.child_by_field_name("property")
        if prop is not None and f.text(prop) == "route" and inner is not None and f.text(inner) in f.apps:
            args = _args(obj)
            pattern = _string(f, args[0]) if args else None
            return (f.text(inner), pattern) if pattern and pattern.startswith("/") else None
        obj = inner
    return None


def _controller(f: _File, node: Any) -> None:
    decorators = [c for c in _decorators_before(node) if c.type == "decorator"]
    prefix = None
    for d in decorators:
        call = d.named_children[0] if d.named_children else None
        if call is not None and call.type == "call_expression" and _callee(f, call) == "Controller":
            args = _args(call)
            prefix = ""
            if args and args[0].type == "string":
                prefix = _string(f, args[0]) or ""
            elif args and args[0].type == "object":
                prefix = _property(f, args[0], "path") or ""
    if prefix is None:
        return
    name = node.child_by_field_name("name")
    body = node.child_by_field_name("body")
    if name is None or body is None:
        return
    pending: list[tuple[str, str, int]] = []
    for member in body.named_children:
        if member.type == "decorator":
            call = member.named_children[0] if member.named_children else None
            verb = _callee(f, call) if call is not None and call.type == "call_expression" else ""
            if verb in NEST_VERBS:
                args = _args(call)
                sub = _string(f, args[0]) if args and args[0].type == "string" else ""
                pending.append((NEST_VERBS[verb], sub or "", member.start_point[0] + 1))
            continue
        if member.type == "method_definition" and pending:
            method_name = member.child_by_field_name("name")
            handler = f"{f.text(name)}.{f.text(method_name)}" if method_name is not None else ""
            for verb, sub, line in pending:
                f.routes.append(Route(verb, _join("/" + prefix.strip("/"), sub), handler, line, 0, "nestjs"))
        pending = []


def _decorators_before(node: Any) -> list[Any]:
    """A class's decorators: its own children, or (``export @X class``) its parent's."""
    own = [c for c in node.named_children if c.type == "decorator"]
    if own:
        return own
    parent = node.parent
    return [c for c in parent.named_children if c.type == "decorator"] if parent is not None else []


def _callee(f: _File, call: Any) -> str:
    function = call.child_by_field_name("function")
    return f.text(function) if function is not None else ""


def _args(call: Any) -> list[Any]:
    args = call.child_by_field_name("arguments")
    return [a for a in args.named_children if a.type != "comment"] if args is not None else []


def _property(f: _File, obj: Any, key: str) -> str | None:
    for pair in obj.named_children:
        if pair.type == "pair":
            k, v = pair.child_by_field_name("key"), pair.child_by_field_name("value")
            if k is not None and v is not None and f.text(k).strip("'\"") == key:
                return _string(f, v)
    return None


def _handler(f: _File, node: Any) -> str:
    return f.text(node) if node.type in ("identifier", "member_expression") else ""


def _string(f: _File, node: Any) -> str | None:
    if node is None:
        return None
    if node.type == "string":
        return "".join(f.text(c) for c in node.named_children if c.type in ("string_fragment", "escape_sequence"))
    if node.type == "template_string" and not any(c.type == "template_substitution" for c in node.named_children):
        return "".join(f.text(c) for c in node.named_children if c.type == "string_fragment")
    return None


def _known_text(f: _File, node: Any) -> str | None:
    if node.type == "string":
        return _string(f, node)
    if node.type == "template_string":
        parts = []
        for c in node.named_children:
            if c.type == "string_fragment":
                parts.append(f.text(c))
            elif c.type == "template_substitution":
                inner = c.named_children[0] if c.named_children else None
                known = f.constants.get(f.text(inner)) if inner is not None and inner.type == "identifier" else None
                parts.append(known if known is not None else "{}")
        return "".join(parts)
    if node.type == "identifier":
        return f.constants.get(f.text(node))
    if node.type == "binary_expression":
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        operator = node.child_by_field_name("operator")
        if left is None or right is None or operator is None or f.text(operator) != "+":
            return None
        a, b = _known_text(f, left), _known_text(f, right)
        if b is None:
            return None
        return (a if a is not None else "{}") + b
    return None


def _url(f: _File, node: Any) -> str | None:
    return client_url(_known_text(f, node))


def _join(prefix: str, path: str) -> str:
    if not prefix:
        return path if path.startswith("/") else "/" + path
    return "/" + "/".join(p for p in (prefix.strip("/"), path.strip("/")) if p)
