"""HTTP routes and the client calls that reach them, in every language with a rich plugin: each
framework's way of declaring a route becomes a `route` symbol with its handler resolved, each client
call with a known URL an `http_calls` edge matched by method and path pattern — and an ambiguous
match stays unresolved rather than guessed."""

from __future__ import annotations

from pathlib import Path

import pytest
from codecairn.hookspecs import RouteDetector, hookimpl
from codecairn.host import PluginHost
from codecairn.workspace import Workspace
from realcode import answers, hello_get, hello_post

pytestmark = pytest.mark.anyio

POLYGLOT = {
    "go/srv/main.go": 'package main\n\nimport (\n\t"fmt"\n\t"net/http"\n\n\t"github.com/gin-gonic/gin"\n\t"github.com/go-chi/chi/v5"\n)\n\nconst api = "http://localhost:9000"\n\nfunc main() {\n\thttp.HandleFunc("GET /health/{id}", health)\n\tr := gin.Default()\n\tv1 := r.Group("/v1")\n\tv1.GET("/items/:id", getItem)\n\tc := chi.NewRouter()\n\tc.Route("/things", func(r chi.Router) {\n\t\tr.Get("/{id}", getThing)\n\t})\n\thttp.Get(fmt.Sprintf("%s/v1/items/%d", api, 3))\n\thttp.Get(api + "/health/1")\n}\n\nfunc health(w http.ResponseWriter, r *http.Request) {}\nfunc getItem(c *gin.Context)                      {}\nfunc getThing(w http.ResponseWriter, r *http.Request) {}\n',
    "java/com/ex/Orders.java": 'package com.ex;\n\nimport javax.ws.rs.GET;\nimport javax.ws.rs.Path;\n\n@Path("/orders")\npublic class Orders {\n    @GET\n    @Path("{id}")\n    public String one() { return "o"; }\n}\n',
    "java/com/ex/UserController.java": 'package com.ex;\n\nimport org.springframework.web.bind.annotation.*;\nimport org.springframework.web.client.RestTemplate;\n\n@RestController\n@RequestMapping("/api/users")\npublic class UserController {\n    static final String BASE = "http://localhost:8080/api";\n    private final RestTemplate rest = new RestTemplate();\n\n    @GetMapping("/{id}")\n    public String get(@PathVariable long id) { return "u"; }\n\n    @RequestMapping(value = {"/a", "/b"}, method = RequestMethod.POST)\n    public void post() {}\n\n    public String call(long id) { return rest.getForObject(BASE + "/users/" + id, String.class); }\n}\n',
    "js/cats.controller.ts": "import { Controller, Get, Post } from '@nestjs/common';\n@Controller('cats')\nexport class CatsController {\n  @Get(':id')\n  findOne() { return 'cat'; }\n  @Post()\n  create() { return 'made'; }\n}\n",
    "js/client.ts": "import axios from 'axios';\nconst BASE = 'http://localhost:3000';\nexport async function load(id: string) {\n  await fetch(`${BASE}/api/users/${id}`);\n  await axios.post('/api/items', {});\n  await fetch('/api/nothing/here', { method: 'DELETE' });\n}\n",
    "js/server.js": "const express = require('express');\nconst users = require('./users');\nconst app = express();\nconst router = express.Router();\nrouter.get('/users/:id', users.show);\nrouter.route('/items').get(listItems).post(addItem);\napp.use('/api', router);\napp.post('/login', (req, res) => res.send('ok'));\nfunction listItems(req, res) {}\nfunction addItem(req, res) {}\n",
    "js/users.js": "function show(req, res) { res.send('u'); }\nmodule.exports = { show };\n",
    "rs/src/main.rs": 'use axum::{routing::get, Router};\nuse actix_web::{get, web, App};\n\nfn app() -> Router {\n    Router::new().route("/users/:id", get(show).post(create))\n}\n\n#[get("/hello/{name}")]\nasync fn greet() -> String {\n    String::new()\n}\n\nfn config(cfg: &mut web::ServiceConfig) {\n    cfg.service(web::resource("/items").route(web::get().to(list_items)));\n    cfg.route("/ping", web::get().to(ping));\n}\n\nasync fn show() {}\nasync fn create() {}\nasync fn list_items() {}\nasync fn ping() {}\n\nasync fn call() {\n    reqwest::get("http://localhost/users/1").await;\n}\n',
}


async def test_routes_in_every_rich_language(tmp_path: Path, cache_dir: Path) -> None:
    root = tmp_path / "poly"
    for rel, text in POLYGLOT.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        routes = await a.call("query_graph", sql="SELECT path, line, method, pattern, handler, framework FROM routes "
                                                 "ORDER BY path, line, method")  # fmt: skip
        assert routes["rows"] == [
            ["go/srv/main.go", 14, "GET", "/health/{id}", "go/srv.health", "net/http"],  # Go 1.22 "GET /health/{id}"
            ["go/srv/main.go", 17, "GET", "/v1/items/:id", "go/srv.getItem", "gin"],  # r.Group("/v1")
            ["go/srv/main.go", 20, "GET", "/things/{id}", "go/srv.getThing", "chi"],  # inside c.Route("/things", ...)
            ["java/com/ex/Orders.java", 8, "GET", "/orders/{id}", "com.ex.Orders.one", "jax-rs"],
            ["java/com/ex/UserController.java", 12, "GET", "/api/users/{id}", "com.ex.UserController.get", "spring"],
            ["java/com/ex/UserController.java", 15, "POST", "/api/users/a", "com.ex.UserController.post", "spring"],
            ["java/com/ex/UserController.java", 15, "POST", "/api/users/b", "com.ex.UserController.post", "spring"],
            ["js/cats.controller.ts", 4, "GET", "/cats/:id", "js/cats.controller.CatsController.findOne", "nestjs"],
            ["js/cats.controller.ts", 6, "POST", "/cats", "js/cats.controller.CatsController.create", "nestjs"],
            ["js/server.js", 5, "GET", "/api/users/:id", "js/users.show", "express"],  # app.use('/api', router)
            ["js/server.js", 6, "GET", "/api/items", "js/server.listItems", "express"],  # router.route().get().post()
            ["js/server.js", 6, "POST", "/api/items", "js/server.addItem", "express"],
            ["js/server.js", 8, "POST", "/login", None, "express"],  # an inline handler: no symbol to name
            ["rs/src/main.rs", 5, "GET", "/users/:id", "crate::show", "axum"],
            ["rs/src/main.rs", 5, "POST", "/users/:id", "crate::create", "axum"],
            ["rs/src/main.rs", 8, "GET", "/hello/{name}", "crate::greet", "actix"],
            ["rs/src/main.rs", 14, "GET", "/items", "crate::list_items", "actix"],
            ["rs/src/main.rs", 15, "GET", "/ping", "crate::ping", "axum"],
        ]
        calls = await a.call("query_graph", sql="SELECT path, line, written, target, resolution FROM edges "
                                                "WHERE kind='http_calls' ORDER BY path, line")  # fmt: skip
        assert calls["rows"] == [
            ["go/srv/main.go", 22, "GET {}/v1/items/{}", "GET /v1/items/:id", "route"],  # fmt.Sprintf("%s/v1/...")
            ["go/srv/main.go", 23, "GET http://localhost:9000/health/1", "GET /health/{id}", "route"],
            # /api/users/{} fits Spring's /api/users/{id} and Express's /api/users/:id equally: not guessed
            ["java/com/ex/UserController.java", 18, "GET http://localhost:8080/api/users/{}", None, None],
            ["js/client.ts", 4, "GET http://localhost:3000/api/users/{}", None, None],
            ["js/client.ts", 5, "POST /api/items", "POST /api/items", "route"],
            ["js/client.ts", 6, "DELETE /api/nothing/here", None, None],  # no such route
            ["rs/src/main.rs", 24, "GET http://localhost/users/1", "GET /users/:id", "route"],
        ]
    finally:
        await ws.close()


async def test_routes_behind_a_wrapped_express_and_wrapped_django_views(tmp_path: Path, cache_dir: Path) -> None:
    """Real projects write routes this way: Ghost builds its routers from its own module wrapping
    Express; Django URLconfs name views wrapped in decorators, feed instances and lambdas."""
    files = {
        "shared/express.js": "module.exports = require('express');\n",
        "web/api/routes.js": "const express = require('../../shared/express');\nconst api = require('./api');\n"
        "module.exports = function () {\n  const router = express.Router('api');\n"
        "  router.get('/posts/:id', api.read);\n  return router;\n};\n",
        "web/api/api.js": "function read(req, res) {}\nmodule.exports = { read };\n",
        "site/views.py": "def home(request):\n    return None\n\n\nclass LatestFeed:\n    def __call__(self, r):\n"
        "        return None\n",
        "site/urls.py": "from django.contrib.auth.decorators import login_required\nfrom django.urls import path\n\n"
        "from site import views\n\nurlpatterns = [\n    path('home/', login_required(views.home)),\n"
        "    path('feed/', views.LatestFeed()),\n    path('ping/', lambda r: None),\n]\n",
        "notes/log.js": "const router = makeRouter();\nrouter.get('/not/a/route', x);\n",  # no express here
    }
    root = tmp_path / "wrapped"
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        routes = await answers(ws).call("query_graph", sql="SELECT path, method, pattern, handler FROM routes "
                                                           "ORDER BY path, line")  # fmt: skip
        assert routes["rows"] == [
            ["site/urls.py", "ANY", "/home/", "site.views.home"],
            ["site/urls.py", "ANY", "/feed/", "site.views.LatestFeed"],
            ["site/urls.py", "ANY", "/ping/", None],
            ["web/api/routes.js", "GET", "/posts/:id", "web/api/api.read"],
        ]
    finally:
        await ws.close()


class HelloRoutes:
    """A third party's route detector for Java, at a given version."""

    def __init__(self, version: str, detect) -> None:
        self.version, self.detect = version, detect

    @hookimpl
    def codecairn_route_detectors(self) -> list[RouteDetector]:
        return [RouteDetector("hello", ("java",), self.detect, version=self.version, markers=(b"@Hello(",))]


async def test_a_changed_route_detector_extracts_again_only_the_files_it_concerns(
    tmp_path: Path, cache_dir: Path
) -> None:
    """A detector's new version, or a plugin removed, re-extracts the routes of the files it may
    concern on the next index (those with its marker, those with routes before) — not every file."""
    root = tmp_path / "svc"
    files = {
        "web/Greeter.java": 'package web;\n\nclass Greeter {\n    @Hello("/hi")\n    void hi() {}\n}\n',
        **{
            f"lib/Util{i}.java": f"package lib;\n\nclass Util{i} {{\n    int one() {{ return {i}; }}\n}}\n"
            for i in range(3)
        },
        "app.py": "from flask import Flask\n\napp = Flask(__name__)\n\n\n@app.get('/up')\ndef up():\n    return 'ok'\n",
    }
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)

    async def index_with(*plugins) -> tuple[int, list]:
        ws = await Workspace.open(root, PluginHost(extra_plugins=plugins))
        try:
            summary = await ws.index_now()
            found = await answers(ws).call("query_graph", sql="SELECT path, method, pattern FROM routes ORDER BY path")
            return summary.parsed, found["rows"]
        finally:
            await ws.close()

    parsed, routes = await index_with(HelloRoutes("1", hello_get))
    assert parsed == len(files) and routes == [["app.py", "GET", "/up"], ["web/Greeter.java", "GET", "/hi"]]
    assert await index_with(HelloRoutes("1", hello_get)) == (0, routes)  # the same detectors: nothing
    parsed, routes = await index_with(HelloRoutes("2", hello_post))  # a new version: its file only
    assert parsed == 1 and routes == [["app.py", "GET", "/up"], ["web/Greeter.java", "POST", "/hi"]]
    parsed, routes = await index_with()  # the plugin removed: its routes go, with one file re-read
    assert parsed == 1 and routes == [["app.py", "GET", "/up"]]
