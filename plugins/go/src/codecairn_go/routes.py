"""HTTP routes and client calls in Go: net/http (``http.HandleFunc``, a ``ServeMux``'s
``HandleFunc``/``Handle``, Go 1.22 ``"GET /items/{id}"`` patterns), gin and echo (``r.GET``,
``Group`` prefixes), chi (``r.Get``, ``r.Route("/x", func(r chi.Router) {...})`` nesting), gorilla/mux
(``HandleFunc(...).Methods("GET")``), and ``http.Get``/``Post``/``NewRequest`` and ``http.Client``
calls whose URL is a literal, a constant, ``fmt.Sprintf`` or a concatenation.

Precision first: routes only on the package ``net/http`` itself or on a router the file makes
with the framework's own constructor; calls only on net/http or a client made from it.
"""

from __future__ import annotations

import re
from typing import Any

from codecairn.model import FileFacts, HttpCall, Route, client_url

FRAMEWORKS = {
    "net/http": "net/http",
    "github.com/gin-gonic/gin": "gin",
    "github.com/labstack/echo": "echo",
    "github.com/labstack/echo/v4": "echo",
    "github.com/go-chi/chi": "chi",
    "github.com/go-chi/chi/v5": "chi",
    "github.com/gorilla/mux": "gorilla",
}
CONSTRUCTORS = {
    ("net/http", "NewServeMux"),
    ("gin", "Default"),
    ("gin", "New"),
    ("echo", "New"),
    ("chi", "NewRouter"),
    ("chi", "NewMux"),
    ("gorilla", "NewRouter"),
}
UPPER = {"GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"}
CHI = {"Get": "GET", "Post": "POST", "Put": "PUT", "Delete": "DELETE", "Patch": "PATCH", "Head": "HEAD",
       "Options": "OPTIONS"}  # fmt: skip
CLIENT_VERBS = {"Get": "GET", "Post": "POST", "Head": "HEAD", "PostForm": "POST"}
_PRINTF = re.compile(r"%[-+# 0-9.]*[a-zA-Z]")


class _File:
    def __init__(self, source: bytes, facts: FileFacts) -> None:
        self.source = source
        self.packages: dict[str, str] = {}  # local package name -> framework
        for i in facts.imports:
            framework = FRAMEWORKS.get(i[0])
            if framework:
                local = i[2] or i[0].rstrip("/").split("/")[-1]
                if local.startswith("v") and local[1:].isdigit():  # .../echo/v4 is package echo
                    local = i[0].rstrip("/").split("/")[-2]
                self.packages[local] = framework
        self.http = next((k for k, v in self.packages.items() if v == "net/http"), None)
        self.constants: dict[str, str] = {}
        self.clients: set[str] = set()
        self.routes: list[Route] = []
        self.calls: list[HttpCall] = []

    def text(self, node: Any) -> str:
        return self.source[node.start_byte : node.end_byte].decode("utf-8", "replace")


def detect(source: bytes, tree: Any, path: str, facts: FileFacts) -> tuple[list[Route], list[HttpCall]]:
    f = _File(source, facts)
    if not f.packages:
        return [], []
    for node in _all(tree.root_node):
        if node.type == "const_spec":
            _constant(f, node)
    _walk(f, tree.root_node, {})
    return f.routes, f.calls


def _all(root: Any):
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(node.named_children))


def _walk(f: _File, node: Any, routers: dict[str, tuple[str, str]]) -> None:
    """Depth-first, carrying the routers in scope: (framework, prefix) by variable name. A chi
    ``Route``/``Group`` callback gets its parameter bound to the nested prefix."""
    routers = dict(routers)
    for child in node.named_children:
        if child.type == "short_var_declaration" or child.type == "assignment_statement":
            _declare(f, child, routers)
        if child.type == "call_expression" and _chi_nest(f, child, routers):
            continue
        if child.type == "call_expression":
            _call(f, child, routers)
        _walk(f, child, routers)


def _declare(f: _File, node: Any, routers: dict[str, tuple[str, str]]) -> None:
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    if left is None or right is None or not left.named_children or not right.named_children:
        return
    name, value = f.text(left.named_children[0]), right.named_children[0]
    if value.type == "unary_expression":
        value = value.named_children[0] if value.named_children else value
    if value.type == "composite_literal" and f.http and f.text(value).startswith(f"{f.http}.Client"):
        f.clients.add(name)
        return
    if value.type != "call_expression":
        return
    function = value.child_by_field_name("function")
    if function is None or function.type != "selector_expression":
        return
    operand, field = function.child_by_field_name("operand"), function.child_by_field_name("field")
    package, method = f.text(operand), f.text(field)
    framework = f.packages.get(package)
    if framework and (framework, method) in CONSTRUCTORS:
        routers[name] = (framework, "")
    elif package in routers and method == "Group":  # gin / echo: v1 := r.Group("/v1")
        args = _args(value)
        prefix = _known_text(f, args[0]) if args else None
        if prefix is not None:
            fw, base = routers[package]
            routers[name] = (fw, _join(base, prefix))


def _chi_nest(f: _File, node: Any, routers: dict[str, tuple[str, str]]) -> bool:
    function = node.child_by_field_name("function")
    if function is None or function.type != "selector_expression":
        return False
    operand, field = function.child_by_field_name("operand"), function.child_by_field_name("field")
    owner = f.text(operand)
    if owner not in routers or routers[owner][0] != "chi" or f.text(field) not in ("Route", "Group"):
        return False
    args = _args(node)
    callback = args[-1] if args else None
    if callback is None or callback.type != "func_literal":
        return False
    prefix = _known_text(f, args[0]) if f.text(field) == "Route" and len(args) == 2 else ""
    if prefix is None:
        return False
    params = callback.child_by_field_name("parameters")
    inner = dict(routers)
    for p in params.named_children if params is not None else ():
        pname = p.child_by_field_name("name")
        if pname is not None:
            inner[f.text(pname)] = ("chi", _join(routers[owner][1], prefix))
    body = callback.child_by_field_name("body")
    if body is not None:
        _walk(f, body, inner)
    return True


def _call(f: _File, node: Any, routers: dict[str, tuple[str, str]]) -> None:
    function = node.child_by_field_name("function")
    if function is None or function.type != "selector_expression":
        return
    operand, field = function.child_by_field_name("operand"), function.child_by_field_name("field")
    owner, method = f.text(operand), f.text(field)
    args = _args(node)
    line = node.start_point[0] + 1
    # gorilla: r.HandleFunc("/x", h).Methods("GET") — the verb comes after
    if method == "Methods" and operand.type == "call_expression":
        inner_fn = operand.child_by_field_name("function")
        if inner_fn is not None and inner_fn.type == "selector_expression":
            inner_owner = f.text(inner_fn.child_by_field_name("operand"))
            if inner_owner in routers and routers[inner_owner][0] == "gorilla":
                verbs = [v for a in args if (v := (_known_text(f, a) or "").upper()) in UPPER]
                inner_args = _args(operand)
                pattern = _known_text(f, inner_args[0]) if inner_args else None
                if pattern and pattern.startswith("/") and verbs:
                    handler = _handler(f, inner_args[-1]) if len(inner_args) > 1 else ""
                    for verb in verbs:
                        f.routes.append(Route(verb, _join(routers[inner_owner][1], pattern), handler, line, 0,
                                              "gorilla"))  # fmt: skip
        return
    router = routers.get(owner)
    is_http_package = owner == f.http
    if router is not None or (is_http_package and method in ("HandleFunc", "Handle")):
        framework, prefix = router if router is not None else ("net/http", "")
        verb = None
        if method in ("HandleFunc", "Handle") and framework in ("net/http", "chi"):
            verb = "ANY"
        elif framework in ("gin", "echo") and (method in UPPER or method == "Any"):
            verb = "ANY" if method == "Any" else method
        elif framework == "chi" and method in CHI:
            verb = CHI[method]
        if verb is None or not args:
            return
        pattern = _known_text(f, args[0])
        if pattern is None:
            return
        if framework == "net/http" and " " in pattern:  # Go 1.22: "GET /items/{id}"
            given, _, pattern = pattern.partition(" ")
            verb = given.upper() if given.upper() in UPPER else verb
        if not pattern.startswith("/"):
            return
        handler = _handler(f, args[-1]) if len(args) > 1 else ""
        if framework == "gorilla":
            return  # without .Methods(...) handled above as ANY only when chained; a bare HandleFunc is ANY
        f.routes.append(Route(verb, _join(prefix, pattern), handler, line, 0, framework))
        return
    if is_http_package or owner in f.clients or (f.http and owner == f"{f.http}.DefaultClient"):
        verb, url_node = None, None
        if method in CLIENT_VERBS and args:
            verb, url_node = CLIENT_VERBS[method], args[0]
        elif is_http_package and method in ("NewRequest", "NewRequestWithContext"):
            shift = 1 if method == "NewRequestWithContext" else 0
            if len(args) > 1 + shift:
                verb = (_known_text(f, args[shift]) or _method_constant(f, args[shift]) or "").upper()
                url_node = args[1 + shift]
        if verb in UPPER and url_node is not None:
            url = _url(f, url_node)
            if url is not None:
                f.calls.append(HttpCall(verb, url, line, "net/http"))


def _method_constant(f: _File, node: Any) -> str | None:
    text = f.text(node)  # http.MethodGet
    if f.http and text.startswith(f"{f.http}.Method"):
        return text[len(f.http) + len(".Method") :].upper()
    return None


def _constant(f: _File, node: Any) -> None:
    name = node.child_by_field_name("name")
    value = node.child_by_field_name("value")
    if name is None or value is None or not value.named_children:
        return
    text = _known_text(f, value.named_children[0])
    if text is not None and "{}" not in text:
        f.constants[f.text(name)] = text


def _args(call: Any) -> list[Any]:
    args = call.child_by_field_name("arguments")
    return [a for a in args.named_children if a.type != "comment"] if args is not None else []


def _handler(f: _File, node: Any) -> str:
    return f.text(node) if node.type in ("identifier", "selector_expression") else ""


def _known_text(f: _File, node: Any) -> str | None:
    if node.type == "interpreted_string_literal":
        return "".join(f.text(c) for c in node.named_children if c.type in ("interpreted_string_literal_content",
                                                                           "escape_sequence"))  # fmt: skip
    if node.type == "raw_string_literal":
        return f.text(node)[1:-1]
    if node.type == "identifier":
        return f.constants.get(f.text(node))
    if node.type == "binary_expression":
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        operator = node.child_by_field_name("operator")
        if left is None or right is None or operator is None or f.text(operator) != "+":
            return None
        a, b = _known_text(f, left), _known_text(f, right)
        return (a if a is not None else "{}") + (b if b is not None else "{}")
    if node.type == "call_expression" and f.text(node.child_by_field_name("function") or node) == "fmt.Sprintf":
        args = _args(node)
        if args:
            template = _known_text(f, args[0])
            return _PRINTF.sub("{}", template) if template is not None else None
    return None


def _url(f: _File, node: Any) -> str | None:
    return client_url(_known_text(f, node))


def _join(prefix: str, path: str) -> str:
    if not prefix:
        return path
    return "/" + "/".join(p for p in (prefix.strip("/"), path.strip("/")) if p) + ("/" if path.endswith("/") else "")
