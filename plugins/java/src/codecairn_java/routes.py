"""HTTP routes and client calls in Java: Spring MVC / WebFlux controllers (``@RequestMapping`` on the
class, ``@GetMapping``... or ``@RequestMapping(method=...)`` on methods), JAX-RS resources (``@Path``
+ ``@GET``...), and RestTemplate, WebClient and ``java.net.http`` calls whose URL is a literal, a
``static final`` constant, or a concatenation of those with values.

Precision first: routes only in files importing Spring's web annotations or JAX-RS, on classes the
framework's annotations mark; calls only on the clients' own methods with a known URL text.
"""

from __future__ import annotations

from typing import Any

from codecairn.model import FileFacts, HttpCall, Route, client_url

SPRING_VERBS = {"GetMapping": "GET", "PostMapping": "POST", "PutMapping": "PUT", "DeleteMapping": "DELETE",
                "PatchMapping": "PATCH"}  # fmt: skip
JAXRS_VERBS = {"GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"}
REST_TEMPLATE = {"getForObject": "GET", "getForEntity": "GET", "postForObject": "POST", "postForEntity": "POST",
                 "postForLocation": "POST", "put": "PUT", "delete": "DELETE", "patchForObject": "PATCH"}  # fmt: skip
WEBCLIENT_VERBS = {"get": "GET", "post": "POST", "put": "PUT", "delete": "DELETE", "patch": "PATCH", "head": "HEAD"}


class _File:
    def __init__(self, source: bytes, facts: FileFacts) -> None:
        self.source = source
        modules = {i[0] for i in facts.imports}
        self.spring = any(m.startswith("org.springframework.web.bind.annotation") for m in modules)
        self.jaxrs = any(m.startswith(("javax.ws.rs", "jakarta.ws.rs")) for m in modules)
        self.rest_template = any(m.startswith("org.springframework.web.client") for m in modules)
        self.webclient = any(m.startswith("org.springframework.web.reactive.function.client") for m in modules)
        self.java_http = any(m.startswith("java.net.http") for m in modules)
        self.constants: dict[str, str] = {}
        self.routes: list[Route] = []
        self.calls: list[HttpCall] = []

    def text(self, node: Any) -> str:
        return self.source[node.start_byte : node.end_byte].decode("utf-8", "replace")


def detect(source: bytes, tree: Any, path: str, facts: FileFacts) -> tuple[list[Route], list[HttpCall]]:
    f = _File(source, facts)
    if not (f.spring or f.jaxrs or f.rest_template or f.webclient or f.java_http):
        return [], []
    nodes = list(_walk(tree.root_node))
    for node in nodes:
        if node.type == "field_declaration":
            _constant(f, node)
    for node in nodes:
        if node.type in ("class_declaration", "interface_declaration") and (f.spring or f.jaxrs):
            _controller(f, node)
        elif node.type == "method_invocation":
            _call(f, node)
    return f.routes, f.calls


def _walk(root: Any):
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(node.named_children))


def _constant(f: _File, node: Any) -> None:
    mods = next((c for c in node.named_children if c.type == "modifiers"), None)
    if mods is None or "static" not in f.text(mods) or "final" not in f.text(mods):
        return
    for d in node.named_children:
        if d.type == "variable_declarator":
            name, value = d.child_by_field_name("name"), d.child_by_field_name("value")
            if name is not None and value is not None:
                text = _known_text(f, value)
                if text is not None and "{}" not in text:
                    f.constants[f.text(name)] = text


def _annotations(node: Any) -> list[Any]:
    mods = next((c for c in node.named_children if c.type == "modifiers"), None)
    return [c for c in mods.named_children if c.type in ("annotation", "marker_annotation")] if mods else []


def _name(f: _File, annotation: Any) -> str:
    name = annotation.child_by_field_name("name")
    return f.text(name).rsplit(".", 1)[-1] if name is not None else ""


def _values(f: _File, annotation: Any, keys: tuple[str, ...] = ("value", "path")) -> list[str] | None:
    """The paths an annotation names: its single value, or its value=/path= element (one or an array)."""
    args = annotation.child_by_field_name("arguments")
    if args is None:
        return None
    for item in args.named_children:
        if item.type == "element_value_pair":
            key, value = item.child_by_field_name("key"), item.child_by_field_name("value")
            if key is not None and f.text(key) in keys and value is not None:
                return _strings(f, value)
        elif item.type != "comment":
            return _strings(f, item)
    return []


def _strings(f: _File, node: Any) -> list[str] | None:
    if node.type == "element_value_array_initializer":
        out = []
        for c in node.named_children:
            text = _known_text(f, c)
            if text is None:
                return None
            out.append(text)
        return out
    text = _known_text(f, node)
    return [text] if text is not None else None


def _request_methods(f: _File, annotation: Any) -> list[str]:
    args = annotation.child_by_field_name("arguments")
    for item in args.named_children if args is not None else ():
        if item.type == "element_value_pair":
            key, value = item.child_by_field_name("key"), item.child_by_field_name("value")
            if key is not None and f.text(key) == "method" and value is not None:
                words = [w.rsplit(".", 1)[-1] for w in f.text(value).strip("{}").split(",")]
                return [w.strip() for w in words if w.strip() in JAXRS_VERBS]
    return ["ANY"]


def _controller(f: _File, node: Any) -> None:
    marks = {_name(f, a): a for a in _annotations(node)}
    spring = f.spring and bool({"RestController", "Controller", "RequestMapping"} & set(marks))
    jaxrs = f.jaxrs and "Path" in marks
    if not (spring or jaxrs):
        return
    prefixes = [""]
    if spring and "RequestMapping" in marks:
        prefixes = _values(f, marks["RequestMapping"]) or [""]
    elif jaxrs:
        prefixes = _values(f, marks["Path"], ("value",)) or [""]
    class_name = node.child_by_field_name("name")
    body = node.child_by_field_name("body")
    if class_name is None or body is None:
        return
    for method in body.named_children:
        if method.type != "method_declaration":
            continue
        name = method.child_by_field_name("name")
        handler = f"{f.text(class_name)}.{f.text(name)}" if name is not None else ""
        found: list[tuple[str, list[str]]] = []
        annotations = {_name(f, a): a for a in _annotations(method)}
        if spring:
            for mark, annotation in annotations.items():
                if mark in SPRING_VERBS:
                    found.append((SPRING_VERBS[mark], _values(f, annotation) or [""]))
                elif mark == "RequestMapping":
                    paths = _values(f, annotation) or [""]
                    found.extend((verb, paths) for verb in _request_methods(f, annotation))
        if jaxrs:
            verbs = [m for m in annotations if m in JAXRS_VERBS]
            sub = _values(f, annotations["Path"], ("value",)) if "Path" in annotations else [""]
            found.extend((verb, sub or [""]) for verb in verbs)
        line = method.start_point[0] + 1
        for verb, paths in found:
            for prefix in prefixes:
                for sub in paths:
                    framework = "spring" if spring else "jax-rs"
                    f.routes.append(Route(verb, _join(prefix, sub), handler, line, 0, framework))


def _call(f: _File, node: Any) -> None:
    name = node.child_by_field_name("name")
    if name is None:
        return
    method = f.text(name)
    args = node.child_by_field_name("arguments")
    positional = [a for a in args.named_children if a.type != "comment"] if args is not None else []
    line = node.start_point[0] + 1
    if f.rest_template and positional and (method in REST_TEMPLATE or method == "exchange"):
        verb = REST_TEMPLATE.get(method)
        if method == "exchange":
            if len(positional) < 2:
                return
            verb = f.text(positional[1]).rsplit(".", 1)[-1]
            if verb not in JAXRS_VERBS:
                return
        url = _url(f, positional[0])
        if url is not None and verb:
            f.calls.append(HttpCall(verb, url, line, "resttemplate"))
        return
    if f.webclient and method == "uri" and positional:
        obj = node.child_by_field_name("object")
        inner = obj.child_by_field_name("name") if obj is not None and obj.type == "method_invocation" else None
        verb = WEBCLIENT_VERBS.get(f.text(inner)) if inner is not None else None
        url = _url(f, positional[0])
        if verb and url is not None:
            f.calls.append(HttpCall(verb, url, line, "webclient"))
        return
    if f.java_http and method in JAXRS_VERBS | {"DELETE"}:
        url = _builder_uri(f, node.child_by_field_name("object"))
        if url is not None:
            f.calls.append(HttpCall(method, url, line, "java.net.http"))


def _builder_uri(f: _File, obj: Any) -> str | None:
    """The URL of an ``HttpRequest.newBuilder(URI.create(u))`` / ``.uri(URI.create(u))`` chain."""
    while obj is not None and obj.type == "method_invocation":
        name = obj.child_by_field_name("name")
        args = obj.child_by_field_name("arguments")
        if name is not None and f.text(name) in ("newBuilder", "uri") and args is not None and args.named_children:
            arg = args.named_children[0]
            if arg.type == "method_invocation" and f.text(arg).startswith("URI.create("):
                inner = arg.child_by_field_name("arguments")
                if inner is not None and inner.named_children:
                    return _url(f, inner.named_children[0])
        obj = obj.child_by_field_name("object")
    return None


def _known_text(f: _File, node: Any) -> str | None:
    if node.type == "string_literal":
        return "".join(f.text(c) for c in node.named_children if c.type in ("string_fragment", "escape_sequence"))
    if node.type == "identifier":
        return f.constants.get(f.text(node))
    if node.type == "binary_expression":
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        operator = node.child_by_field_name("operator")
        if left is None or right is None or operator is None or f.text(operator) != "+":
            return None
        a, b = _known_text(f, left), _known_text(f, right)
        return (a if a is not None else "{}") + (b if b is not None else "{}")
    return None


def _url(f: _File, node: Any) -> str | None:
    return client_url(_known_text(f, node))


def _join(prefix: str, path: str) -> str:
    return "/" + "/".join(p for p in (prefix.strip("/"), path.strip("/")) if p)
