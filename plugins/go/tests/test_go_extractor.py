"""What an agent learns about a Go file: each construct on a small, realistic snippet."""

from __future__ import annotations

import pickle

from codecairn_go.extractor import assumed_package_name, module_of


def by_name(facts, qualified_name):
    matches = [s for s in facts.symbols if s.qualified_name == qualified_name]
    assert len(matches) == 1, f"{qualified_name}: {[s.qualified_name for s in facts.symbols]}"
    return matches[0]


def calls(facts):
    return [r for r in facts.relations if r.kind == "calls"]


def test_go_is_registered_with_go_naming_rules(go_language):
    assert go_language.name == "go"
    assert go_language.extensions == (".go",)
    assert go_language.resolution.separator == "."
    assert go_language.resolution.implicit_members is False
    assert go_language.resolution.self_names == ()
    assert go_language.resolution.directory_scope is True
    # The parse pool ships the extractor to worker processes.
    assert pickle.loads(pickle.dumps(go_language.extractor)) == go_language.extractor


def test_module_is_the_package_directory_relative_to_the_root():
    assert module_of("golang.org/x/tools/go/ast/astutil/util.go") == "golang.org/x/tools/go/ast/astutil"
    assert module_of("go/ast/astutil/util.go") == "go/ast/astutil"  # the root is a checkout of x/tools
    # GOROOT and GOPATH keep packages under src/<import path>: the module is the import path.
    assert module_of("src/net/http/server.go") == "net/http"
    assert module_of("src/github.com/org/app/main.go") == "github.com/org/app"
    assert module_of("./cmd/tool/main.go") == "cmd/tool"
    assert module_of("main.go") == ""


def test_package_level_declarations_get_package_qualified_names(extract_go):
    facts = extract_go(
        """
        package server

        // Handler answers one request.
        func Handler(w Writer) error { return nil }

        func helper() {}

        type Server struct{ Addr string }

        type Conn interface{ Close() error }

        type Port int

        type Address = string

        const (
            DefaultPort Port = 8080
            maxConns         = 64
        )

        var ErrClosed, errBusy = New("closed"), New("busy")
        """,
        path="app/server/server.go",
    )
    assert facts.module == "app/server"
    kinds = {s.qualified_name: s.kind for s in facts.symbols if s.parent == -1}
    assert kinds == {
        "app/server.Handler": "function",
        "app/server.helper": "function",
        "app/server.Server": "struct",
        "app/server.Conn": "interface",
        "app/server.Port": "type",
        "app/server.Address": "type",
        "app/server.DefaultPort": "constant",
        "app/server.maxConns": "constant",
        "app/server.ErrClosed": "variable",
        "app/server.errBusy": "variable",
    }
    handler = by_name(facts, "app/server.Handler")
    assert handler.signature == "func Handler(w Writer) error"
    assert handler.doc == "Handler answers one request."
    assert (handler.start_line, handler.end_line) == (4, 4)
    assert "alias" in by_name(facts, "app/server.Address").modifiers
    # Grouped constants each start on their own line.
    assert by_name(facts, "app/server.maxConns").start_line == 18


def test_exported_means_capitalised(extract_go):
    facts = extract_go(
        """
        package shop

        type Order struct {
            ID    string
            total int
        }

        func (o *Order) Total() int { return o.total }
        func (o *Order) recompute()  {}
        func NewOrder() *Order      { return nil }
        func newID() string         { return "" }
        """
    )
    assert {e.name for e in facts.exports} == {"Order", "Order.ID", "Order.Total", "NewOrder"}
    assert "public" in by_name(facts, "app/server.Order.Total").modifiers
    assert "public" not in by_name(facts, "app/server.Order.recompute").modifiers


def test_methods_belong_to_their_receiver_type_pointer_or_generic(extract_go):
    facts = extract_go(
        """
        package cache

        type Cache[K comparable, V any] struct{ items map[K]V }

        func (c *Cache[K, V]) Get(key K) (V, bool) { v, ok := c.items[key]; return v, ok }

        func (c Cache[K, V]) Len() int { return len(c.items) }

        func (s *Store) Flush() {}
        """,
        path="lib/cache/cache.go",
    )
    cache = facts.symbols.index(by_name(facts, "lib/cache.Cache"))
    get = by_name(facts, "lib/cache.Cache.Get")
    assert (get.kind, get.parent) == ("method", cache)
    assert get.signature == "func (c *Cache[K, V]) Get(key K) (V, bool)"
    assert by_name(facts, "lib/cache.Cache.Len").parent == cache
    # Store is declared in another file of the package: no parent here, the name still says it.
    flush = by_name(facts, "lib/cache.Store.Flush")
    assert flush.parent == -1


def test_struct_fields_and_embedding(extract_go):
    facts = extract_go(
        """
        package net

        type Conn struct {
            *Base
            io.Reader
            // addr is where we dial.
            addr, label string `json:"addr"`
            opts struct {
                retries int
            }
        }
        """,
        path="net/conn.go",
    )
    conn = facts.symbols.index(by_name(facts, "net.Conn"))
    fields = {s.qualified_name: s for s in facts.symbols if s.kind == "field"}
    assert set(fields) == {
        "net.Conn.Base",
        "net.Conn.Reader",
        "net.Conn.addr",
        "net.Conn.label",
        "net.Conn.opts",
        "net.Conn.opts.retries",
    }
    assert fields["net.Conn.addr"].doc == "addr is where we dial."
    assert fields["net.Conn.addr"].parent == conn
    assert fields["net.Conn.opts.retries"].parent == facts.symbols.index(fields["net.Conn.opts"])
    assert "embedded" in fields["net.Conn.Reader"].modifiers
    extends = [(r.source, r.target) for r in facts.relations if r.kind == "extends"]
    assert extends == [(conn, "Base"), (conn, "io.Reader")]


def test_interfaces_list_their_methods_and_embedded_interfaces(extract_go):
    facts = extract_go(
        """
        package storage

        type Store interface {
            io.Closer
            Reader
            // Put stores one value.
            Put(key string, value []byte) error
        }

        type Number interface {
            ~int | ~float64
        }
        """,
        path="storage/store.go",
    )
    store = facts.symbols.index(by_name(facts, "storage.Store"))
    put = by_name(facts, "storage.Store.Put")
    assert (put.kind, put.parent, put.doc) == ("method", store, "Put stores one value.")
    assert put.signature == "Put(key string, value []byte) error"
    # A type-set constraint is not a base interface.
    assert [(r.source, r.target) for r in facts.relations if r.kind == "extends"] == [
        (store, "io.Closer"),
        (store, "Reader"),
    ]


def test_doc_is_the_first_line_of_the_comment_block_right_above(extract_go):
    facts = extract_go(
        """
        package p

        // Parse reads a config.
        // It never panics.
        func Parse() {}

        // Detached comment.

        func Detached() {}

        //go:noinline
        // Fast is hot.
        func Fast() {}

        var x = 1 // trailing comment of x
        func AfterTrailing() {}

        // Group doc.
        const (
            // A is first.
            A = iota
            B
        )
        """
    )
    docs = {s.name: s.doc for s in facts.symbols}
    assert docs == {
        "Parse": "Parse reads a config.",
        "Detached": "",
        "Fast": "Fast is hot.",
        "x": "",
        "AfterTrailing": "",
        "A": "A is first.",
        "B": "Group doc.",
    }


def test_imports_bind_the_package_name(extract_go):
    facts = extract_go(
        """
        package main

        import "fmt"

        import (
            str "strings"
            . "math"
            _ "embed"
            "golang.org/x/tools/go/ast/astutil"
            "github.com/org/yaml/v3"
            "gopkg.in/yaml.v2"
            "github.com/mattn/go-sqlite3"
        )
        """
    )
    got = [(i.module, i.name, i.alias, i.kind, i.target) for i in facts.imports]
    assert got == [
        ("fmt", "", "fmt", "", "fmt"),
        ("strings", "", "str", "", "strings"),
        ("math", "*", "", "", "math"),
        ("embed", "", "", "side-effect", "embed"),
        ("golang.org/x/tools/go/ast/astutil", "", "astutil", "", "golang.org/x/tools/go/ast/astutil"),
        ("github.com/org/yaml/v3", "", "yaml", "", "github.com/org/yaml/v3"),
        ("gopkg.in/yaml.v2", "", "yaml", "", "gopkg.in/yaml.v2"),
        ("github.com/mattn/go-sqlite3", "", "sqlite3", "", "github.com/mattn/go-sqlite3"),
    ]
    assert [i.line for i in facts.imports] == [3, 6, 7, 8, 9, 10, 11, 12]
    assert assumed_package_name("k8s.io/client-go") == "client"


def test_calls_name_the_target_and_the_receiver_as_written(extract_go):
    facts = extract_go(
        """
        package server

        import "fmt"

        var defaultServer = New()

        func (s *Server) Serve(l Listener) error {
            s.conn.Close()
            conn, err := l.Accept()
            fmt.Println(conn, err)
            s.handle(conn)
            Map[string](items)
            pkg.Wrap[int](x)
            s.
                pool.
                Get()
            func() { cleanup() }()
            w.Header().Set("k", "v")
            return nil
        }
        """
    )
    serve = facts.symbols.index(by_name(facts, "app/server.Server.Serve"))
    got = [(r.source, r.target, r.receiver, r.line) for r in calls(facts)]
    assert got == [
        (-1, "New", "", 5),
        (serve, "Close", "s.conn", 8),
        (serve, "Accept", "l", 9),
        (serve, "Println", "fmt", 10),
        (serve, "handle", "s", 11),
        (serve, "Map", "", 12),
        (serve, "Wrap", "pkg", 13),
        (serve, "Get", "s.pool", 16),
        (serve, "cleanup", "", 17),
        (serve, "Header", "w", 18),  # reading order, though both selectors start at `w`
        (serve, "Set", "w.Header()", 18),
    ]


def test_receiver_types_read_off_the_syntax(extract_go):
    facts = extract_go(
        """
        package server

        type Server struct {
            conn *Conn
            log  Logger
        }

        var global Registry

        func (s *Server) Run(ctx context.Context, h Handler) {
            s.start()
            s.conn.Write(nil)
            ctx.Done()
            h.Handle()
            b := &Buffer{}
            b.Reset()
            p := pool.Pool{}
            p.Get()
            var q Queue
            q.Push()
            global.Register()
            fmt.Println()
            made := NewThing()
            made.Use()
        }
        """
    )
    types = {(r.receiver, r.target): r.receiver_type for r in calls(facts)}
    assert types == {
        ("s", "start"): "Server",
        ("s.conn", "Write"): "Conn",
        ("ctx", "Done"): "context.Context",
        ("h", "Handle"): "Handler",
        ("b", "Reset"): "Buffer",
        ("p", "Get"): "pool.Pool",
        ("q", "Push"): "Queue",
        ("global", "Register"): "Registry",
        ("fmt", "Println"): "",
        ("", "NewThing"): "",
        ("made", "Use"): "",  # a constructor's result type is not syntax
    }


def test_a_syntax_error_keeps_everything_outside_it(extract_go):
    facts = extract_go(
        """
        package broken

        func Before() { ok() }

        func Broken() {
            x :=
        }

        // After survives.
        func After() { later() }

        type Kept struct{ a int }
        """,
        path="broken/broken.go",
    )
    assert facts.partial is True
    names = [s.qualified_name for s in facts.symbols]
    assert names == ["broken.Before", "broken.Broken", "broken.After", "broken.Kept", "broken.Kept.a"]
    assert by_name(facts, "broken.After").doc == "After survives."
    assert {r.target for r in calls(facts)} >= {"ok", "later"}
    assert extract_go("package fine\n").partial is False
