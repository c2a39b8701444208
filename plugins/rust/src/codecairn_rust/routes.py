"""HTTP routes and client calls in Rust: axum (``.route("/p", get(h).post(h2))``, ``.nest("/api",
...)`` is not composed), actix-web (``#[get("/p")]`` on a handler, ``.route("/p", web::get().to(h))``,
``web::resource("/p").route(web::post().to(h))``), and reqwest calls whose URL is a literal.

Precision first: only in files that use the framework (or reqwest), on the framework's own
method-router functions; a URL only when its text is known.
"""

from __future__ import annotations

from typing import Any

from codecairn.model import FileFacts, HttpCall, Route

VERBS = {"get": "GET", "post": "POST", "put": "PUT", "patch": "PATCH", "delete": "DELETE", "head": "HEAD",
         "options": "OPTIONS", "any": "ANY"}  # fmt: skip


class _File:
    def __init__(self, source: bytes, facts: FileFacts) -> None:
        self.source = source
        heads = {i[0].replace("::", ".").split(".")[0] for i in facts.imports}
        self.axum = "axum" in heads
        self.actix = "actix_web" in heads
        self.reqwest = "reqwest" in heads or b"reqwest::" in source
        self.routes: list[Route] = []
        self.calls: list[HttpCall] = []

    def text(self, node: Any) -> str:
        return self.source[node.start_byte : node.end_byte].decode("utf-8", "replace")


def detect(source: bytes, tree: Any, path: str, facts: FileFacts) -> tuple[list[Route], list[HttpCall]]:
    f = _File(source, facts)
    if not (f.axum or f.actix or f.reqwest):
        return [], []
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        if node.type == "call_expression":
            _call(f, node)
        elif node.type == "attribute_item" and f.actix:
            _attribute(f, node)
        stack.extend(reversed(node.named_children))
    return f.routes, f.calls


def _string(f: _File, node: Any) -> str | None:
    if node is None or node.type != "string_literal":
        return None
    return "".join(f.text(c) for c in node.named_children if c.type in ("string_content", "escape_sequence"))


def _args(call: Any) -> list[Any]:
    args = call.child_by_field_name("arguments")
    return [a for a in args.named_children if a.type not in ("line_comment", "block_comment")] if args else []


def _method_router(f: _File, node: Any) -> list[tuple[str, str]]:
    """``get(h).post(h2)`` (axum) or ``web::get().to(h)`` (actix) -> [(verb, handler as written)]."""
    out: list[tuple[str, str]] = []
    while node is not None and node.type == "call_expression":
        function = node.child_by_field_name("function")
        args = _args(node)
        if function is None:
            break
        if function.type == "field_expression":
            field = function.child_by_field_name("field")
            name = f.text(field) if field is not None else ""
            if name == "to" and args:  # actix: web::get().to(h)
                inner = function.child_by_field_name("value")
                verb_fn = inner.child_by_field_name("function") if inner is not None else None
                verb = f.text(verb_fn).split("::")[-1] if verb_fn is not None else ""
                if verb in VERBS:
                    out.append((VERBS[verb], f.text(args[0])))
                break
            if name in VERBS and args:
                out.append((VERBS[name], f.text(args[0])))
            node = function.child_by_field_name("value")
            continue
        name = f.text(function).split("::")[-1]
        if name in VERBS and args and f.axum:
            out.append((VERBS[name], f.text(args[0])))
        break
    return out


def _call(f: _File, node: Any) -> None:
    function = node.child_by_field_name("function")
    if function is None:
        return
    args = _args(node)
    line = node.start_point[0] + 1
    if function.type == "field_expression":
        field = function.child_by_field_name("field")
        name = f.text(field) if field is not None else ""
        if name == "route" and len(args) == 2 and (f.axum or f.actix):
            pattern = _string(f, args[0])
            if pattern and pattern.startswith("/"):
                for verb, handler in _method_router(f, args[1]):
                    f.routes.append(Route(verb, pattern, handler, line, node.end_point[0] + 1,
                                          "axum" if f.axum else "actix"))  # fmt: skip
            elif f.actix and len(args) == 1:  # web::resource("/p").route(web::get().to(h))
                pass
            return
        if name == "route" and len(args) == 1 and f.actix:
            resource = function.child_by_field_name("value")
            while resource is not None and resource.type == "call_expression":
                inner = resource.child_by_field_name("function")
                if inner is not None and f.text(inner).endswith("resource"):
                    pattern = _string(f, (_args(resource) or [None])[0])
                    if pattern and pattern.startswith("/"):
                        for verb, handler in _method_router(f, args[0]):
                            f.routes.append(Route(verb, pattern, handler, line, 0, "actix"))
                    break
                resource = (
                    inner.child_by_field_name("value")
                    if inner is not None and inner.type == "field_expression"
                    else None
                )
            return
        if f.reqwest and name in VERBS and args:
            value = function.child_by_field_name("value")
            url = _string(f, args[0])
            if value is not None and url and url.startswith(("http://", "https://", "/")) and _is_client(f, value):
                f.calls.append(HttpCall(VERBS[name], url, line, "reqwest"))
        return
    written = f.text(function)
    if f.reqwest and written == "reqwest::get" and args:
        url = _string(f, args[0])
        if url and url.startswith(("http://", "https://", "/")):
            f.calls.append(HttpCall("GET", url, line, "reqwest"))


def _is_client(f: _File, node: Any) -> bool:
    text = f.text(node)
    return text.startswith("reqwest::Client") or text.rsplit(".", 1)[-1] in ("client", "http_client", "http")


def _attribute(f: _File, node: Any) -> None:
    attribute = node.named_children[0] if node.named_children else None
    if attribute is None:
        return
    name_node = attribute.named_children[0] if attribute.named_children else None
    verb = f.text(name_node).split("::")[-1] if name_node is not None else ""
    if verb not in VERBS or verb == "any":
        return
    tokens = next((c for c in attribute.named_children if c.type == "token_tree"), None)
    literal = next((c for c in tokens.named_children if c.type == "string_literal"), None) if tokens else None
    pattern = _string(f, literal)
    if not pattern or not pattern.startswith("/"):
        return
    fn = node.next_named_sibling
    while fn is not None and fn.type == "attribute_item":
        fn = fn.next_named_sibling
    if fn is None or fn.type != "function_item":
        return
    name = fn.child_by_field_name("name")
    f.routes.append(Route(VERBS[verb], pattern, f.text(name) if name is not None else "", node.start_point[0] + 1, 0,
                          "actix"))  # fmt: skip
