"""HTTP routes and client calls in Python: Flask / Quart (``@app.route``, ``@bp.get``,
``add_url_rule``), FastAPI / Starlette (``@app.get``, ``@router.post`` with an ``APIRouter(prefix=)``),
Django URLconfs (``path``, ``re_path``, ``url`` in a file importing them), and requests / httpx /
aiohttp calls whose URL is a literal, an f-string or a module constant.

Precision first: a decorator counts only on an object the file makes a Flask/FastAPI app, blueprint
or router, or — for ``.route("/...")`` — in a file importing one of those frameworks; a call only
on the requests/httpx module or a session/client the file creates; a URL only when its text is
known up to the values interpolated into it.
"""

from __future__ import annotations

from typing import Any

from codecairn.model import FileFacts, HttpCall, Route, client_url

APP_FACTORIES = {
    "Flask": ("flask", ""),
    "Quart": ("quart", ""),
    "Blueprint": ("flask", "url_prefix"),
    "FastAPI": ("fastapi", ""),
    "APIRouter": ("fastapi", "prefix"),
    "Starlette": ("starlette", ""),
}
CLIENT_FACTORIES = {"Session": "requests", "Client": "httpx", "AsyncClient": "httpx", "ClientSession": "aiohttp"}
CLIENT_MODULES = ("requests", "httpx")
VERBS = {"get": "GET", "post": "POST", "put": "PUT", "patch": "PATCH", "delete": "DELETE", "head": "HEAD",
         "options": "OPTIONS"}  # fmt: skip
FRAMEWORK_MODULES = ("flask", "quart", "fastapi", "starlette")
DJANGO_URL_FUNCTIONS = {"path", "re_path", "url"}


class _File:
    def __init__(self, source: bytes, facts: FileFacts) -> None:
        self.source = source
        modules = {i[0].split(".")[0] for i in facts.imports}
        self.frameworks = [m for m in FRAMEWORK_MODULES if m in modules]
        self.django_names = {
            (i[2] or i[1]) for i in facts.imports if i[0] in ("django.urls", "django.conf.urls") and i[1]
        }
        self.client_modules = {i[2] or i[0] for i in facts.imports if i[0] in CLIENT_MODULES and not i[1]}
        self.apps: dict[str, tuple[str, str]] = {}  # name -> (framework, prefix)
        self.clients: dict[str, str] = {}  # name -> library
        self.constants: dict[str, str] = {}  # module-level string constants
        self.routes: list[Route] = []
        self.calls: list[HttpCall] = []

    def text(self, node: Any) -> str:
        return self.source[node.start_byte : node.end_byte].decode("utf-8", "replace")


def detect(source: bytes, tree: Any, path: str, facts: FileFacts) -> tuple[list[Route], list[HttpCall]]:
    f = _File(source, facts)
    if not (f.frameworks or f.django_names or f.client_modules or b"aiohttp" in source):
        return [], []
    root = tree.root_node
    for node in root.named_children:  # module level: apps, clients, constants
        stmt = node.named_children[0] if node.type == "expression_statement" and node.named_children else node
        if stmt.type == "assignment":
            _assignment(f, stmt)
    stack = [root]
    while stack:
        node = stack.pop()
        kind = node.type
        if kind == "decorated_definition":
            _decorated(f, node)
        elif kind == "call":
            _call(f, node)
        elif kind == "with_item":
            _with_item(f, node)
        elif kind == "assignment" and node.parent is not None and node.parent.parent is not root:
            _client_assignment(f, node)
        stack.extend(reversed(node.named_children))
    return f.routes, f.calls


def _assignment(f: _File, node: Any) -> None:
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    if left is None or right is None or left.type != "identifier":
        return
    name = f.text(left)
    if right.type == "string":
        value = _string(f, right)
        if value is not None:
            f.constants[name] = value
        return
    _client_assignment(f, node)
    if right.type != "call":
        return
    factory = _last_name(f, right.child_by_field_name("function"))
    if factory in APP_FACTORIES:
        framework, prefix_kw = APP_FACTORIES[factory]
        prefix = _keyword(f, right, prefix_kw) if prefix_kw else ""
        f.apps[name] = (framework, prefix or "")


def _client_assignment(f: _File, node: Any) -> None:
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    if left is None or right is None or left.type != "identifier" or right.type != "call":
        return
    library = _client_factory(f, right)
    if library:
        f.clients[f.text(left)] = library


def _client_factory(f: _File, call: Any) -> str:
    function = call.child_by_field_name("function")
    if function is None or function.type != "attribute":
        return ""
    obj, attr = function.child_by_field_name("object"), function.child_by_field_name("attribute")
    if obj is None or attr is None:
        return ""
    module, factory = f.text(obj), f.text(attr)
    library = CLIENT_FACTORIES.get(factory, "")
    return library if library and module == library else ""


def _with_item(f: _File, node: Any) -> None:
    value = node.child_by_field_name("value")
    if value is None or value.type != "as_pattern":
        return
    call = value.named_children[0] if value.named_children else None
    alias = value.child_by_field_name("alias")
    if call is not None and call.type == "call" and alias is not None:
        library = _client_factory(f, call)
        if library:
            f.clients[f.text(alias).strip()] = library


def _decorated(f: _File, node: Any) -> None:
    definition = node.child_by_field_name("definition")
    if definition is None or definition.type != "function_definition":
        return
    name_node = definition.child_by_field_name("name")
    handler = f.text(name_node) if name_node is not None else ""
    for decorator in node.named_children:
        if decorator.type != "decorator" or not decorator.named_children:
            continue
        call = decorator.named_children[0]
        if call.type != "call":
            continue
        function = call.child_by_field_name("function")
        if function is None or function.type != "attribute":
            continue
        obj, attr = function.child_by_field_name("object"), function.child_by_field_name("attribute")
        owner, verb = f.text(obj), f.text(attr)
        app = f.apps.get(owner)
        args = _positional(call)
        route_path = _string(f, args[0]) if args else _keyword(f, call, "path") or _keyword(f, call, "rule")
        if route_path is None or not (route_path.startswith("/") or (route_path == "" and app)):
            continue
        if verb == "route":
            if app is None and not f.frameworks:
                continue
            framework = app[0] if app else f.frameworks[0]
            methods = _methods(f, call) or ["GET"]
        elif verb in VERBS or verb == "api_route":
            if app is None and not f.frameworks:
                continue
            framework = app[0] if app else f.frameworks[0]
            methods = [VERBS[verb]] if verb in VERBS else (_methods(f, call) or ["GET"])
        elif verb == "websocket":
            continue
        else:
            continue
        prefix = app[1] if app else ""
        for method in methods:
            f.routes.append(Route(method, _join(prefix, route_path), handler, call.start_point[0] + 1, 0, framework))


def _call(f: _File, node: Any) -> None:
    function = node.child_by_field_name("function")
    if function is None:
        return
    if function.type == "identifier" and f.text(function) in f.django_names:
        _django(f, node)
        return
    if function.type != "attribute":
        return
    obj, attr = function.child_by_field_name("object"), function.child_by_field_name("attribute")
    owner, verb = f.text(obj), f.text(attr)
    if owner in f.apps and verb == "add_url_rule":
        args = _positional(node)
        rule = _string(f, args[0]) if args else _keyword(f, node, "rule")
        view = _keyword_node(node, "view_func") or (args[2] if len(args) > 2 else None)
        if rule and rule.startswith("/") and view is not None:
            handler = _handler(f, view)
            for method in _methods(f, node) or ["GET"]:
                framework, prefix = f.apps[owner]
                f.routes.append(Route(method, _join(prefix, rule), handler, node.start_point[0] + 1, 0, framework))
        return
    library = ""
    if owner in f.client_modules:
        library = owner
    elif owner in f.clients:
        library = f.clients[owner]
    if not library:
        return
    args = _positional(node)
    if verb in VERBS:
        method, url_node = VERBS[verb], (args[0] if args else _keyword_node(node, "url"))
    elif verb == "request" and len(args) >= 2:
        method, url_node = (_string(f, args[0]) or "").upper(), args[1]
    else:
        return
    if url_node is None or method not in VERBS.values():
        return
    url = _url(f, url_node)
    if url is not None:
        f.calls.append(HttpCall(method, url, node.start_point[0] + 1, library))


def _django(f: _File, node: Any) -> None:
    args = _positional(node)
    if len(args) < 2:
        return
    pattern = _string(f, args[0])
    view = args[1]
    if pattern is None:
        return
    if view.type == "call":
        inner = view.child_by_field_name("function")
        if inner is not None and f.text(inner).endswith("include"):
            return  # a mount of another URLconf, not a route
        wrapped = _positional(view)
        if inner is not None and inner.type == "attribute" and f.text(inner).endswith(".as_view"):
            view = inner.child_by_field_name("object")  # Class.as_view(): the class handles it
        elif wrapped and wrapped[0].type in ("identifier", "attribute"):
            view = wrapped[0]  # login_required(views.home), cache_page(60)(...): the wrapped view
        else:
            view = inner  # feeds.LatestFeed(): an instance of the class, called per request
    inline = view is not None and view.type == "lambda"
    if view is None or not (inline or view.type in ("identifier", "attribute")):
        return
    fn = f.text(node.child_by_field_name("function"))
    path = pattern if fn != "path" and pattern.startswith("^") else "/" + pattern.lstrip("/")
    handler = "" if inline else _handler(f, view)
    f.routes.append(Route("ANY", path, handler, node.start_point[0] + 1, node.end_point[0] + 1, "django"))


# ---- syntax helpers ----------------------------------------------------------------------------------


def _last_name(f: _File, node: Any) -> str:
    if node is None:
        return ""
    return f.text(node).rsplit(".", 1)[-1]


def _positional(call: Any) -> list[Any]:
    args = call.child_by_field_name("arguments")
    if args is None:
        return []
    return [a for a in args.named_children if a.type not in ("keyword_argument", "comment")]


def _keyword_node(call: Any, name: str) -> Any:
    args = call.child_by_field_name("arguments")
    for a in args.named_children if args is not None else ():
        if a.type == "keyword_argument":
            key = a.child_by_field_name("name")
            if key is not None and key.text.decode() == name:
                return a.child_by_field_name("value")
    return None


def _keyword(f: _File, call: Any, name: str) -> str | None:
    value = _keyword_node(call, name)
    return _string(f, value) if value is not None else None


def _methods(f: _File, call: Any) -> list[str]:
    value = _keyword_node(call, "methods")
    if value is None or value.type not in ("list", "tuple", "set"):
        return []
    out = []
    for item in value.named_children:
        text = _string(f, item)
        if text and text.upper() in VERBS.values():
            out.append(text.upper())
    return out


def _handler(f: _File, node: Any) -> str:
    return f.text(node) if node.type in ("identifier", "attribute") else ""


def _string(f: _File, node: Any) -> str | None:
    """A plain string literal's value (no interpolation), or None."""
    if node is None or node.type != "string":
        return None
    if any(c.type == "interpolation" for c in node.named_children):
        return None
    return "".join(f.text(c) for c in node.named_children if c.type == "string_content")


def _url(f: _File, node: Any) -> str | None:
    """A URL as far as it is known: a literal, an f-string ("{}" for each value), a module constant,
    or a constant + literal concatenation; None otherwise, or when it is no URL."""
    return client_url(_known_text(f, node))


def _known_text(f: _File, node: Any) -> str | None:
    if node.type == "string":
        parts = []
        for c in node.named_children:
            if c.type == "string_content":
                parts.append(f.text(c))
            elif c.type == "interpolation":
                inner = c.named_children[0] if c.named_children else None
                known = f.constants.get(f.text(inner)) if inner is not None and inner.type == "identifier" else None
                parts.append(known if known is not None else "{}")
        return "".join(parts)
    if node.type == "identifier":
        return f.constants.get(f.text(node))
    if node.type == "binary_operator":
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is None or right is None or f.text(node)[len(f.text(left)) :].strip()[:1] != "+":
            return None
        a, b = _known_text(f, left), _known_text(f, right)
        if b is None:
            return None
        return (a if a is not None else "{}") + b
    return None


def _join(prefix: str, path: str) -> str:
    if not prefix:
        return path or "/"
    return "/" + "/".join(p for p in (prefix.strip("/"), path.strip("/")) if p)
