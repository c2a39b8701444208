"""JavaScript (.js, .jsx, .mjs, .cjs) goes through the TSX grammar and the same extractor: ES
classes, CommonJS modules, prototype methods and JSX all come out as they do for TypeScript."""


def test_an_es_module_with_classes_and_jsx(extract):
    facts = extract(
        """
        import React from "react";
        import { Button } from "./Button.jsx";

        /** The app shell. */
        export default class App extends React.Component {
          state = { open: false };
          toggle = () => this.setState({ open: !this.state.open });
          render() {
            return <main><Button onClick={this.toggle} label="Go" /></main>;
          }
        }
        """,
        path="src/App.jsx",
    )
    app = facts.symbol("src/App.App")
    assert (app.kind, app.doc, set(app.modifiers)) == ("class", "The app shell.", {"export", "default"})
    assert facts.bases("src/App.App") == [("extends", "React.Component")]
    assert facts.symbol("src/App.App.state").kind == "property"
    assert facts.symbol("src/App.App.toggle").kind == "method"
    assert ("src/App.App.render", "", "Button") in facts.calls()
    assert ("src/App.App.toggle", "this", "setState") in facts.calls()
    assert facts.imports()["Button"].target == "src/Button.Button"
    assert not facts.facts.partial


def test_a_commonjs_module(extract):
    facts = extract(
        """
        "use strict";
        const { Linter } = require("../linter");

        /**
         * Counts lines.
         */
        function count(text) {
          return text.split("\\n").length;
        }

        function Cursor(tokens) { this.tokens = tokens; }
        Cursor.prototype.next = function () { return this.tokens.shift(); };
        Cursor.create = function (tokens) { return new Cursor(tokens); };

        module.exports = {
          meta: { type: "problem" },
          create(context) {
            const linter = new Linter();
            return { Program(node) { count(node.text); } };
          },
        };
        """,
        path="lib/rules/max-lines.js",
    )
    assert facts.facts.module == "lib/rules/max-lines"
    assert facts.symbol("lib/rules/max-lines.count").doc == "Counts lines."
    next_ = facts.symbol("lib/rules/max-lines.Cursor.next")
    assert (next_.kind, facts.parent_of(next_.qualified_name)) == ("method", "lib/rules/max-lines.Cursor")
    assert facts.symbol("lib/rules/max-lines.Cursor.create").modifiers == ("static",)
    create = facts.symbol("lib/rules/max-lines.create")
    assert (create.kind, create.parent) == ("function", -1)  # the module object's members are the module's
    assert ("lib/rules/max-lines.create", "", "Linter") in facts.calls()
    # the visitor returned by create is anonymous: its calls belong to create
    assert ("lib/rules/max-lines.create", "", "count") in facts.calls()
    assert facts.imports()["Linter"].target == "lib/linter.Linter"
    assert [e.name for e in facts.facts.exports] == ["meta", "create"]


def test_functions_stored_on_objects_inside_functions(extract):
    facts = extract(
        """
        module.exports = {
          create(context) {
            const listeners = {};
            listeners.CallExpression = function (node) { check(node); };
            return listeners;
          },
        };
        """,
        path="lib/rules/new-cap.js",
    )
    handler = facts.symbol("lib/rules/new-cap.create.listeners.CallExpression")
    assert (handler.kind, facts.parent_of(handler.qualified_name)) == ("function", "lib/rules/new-cap.create")
    assert ("lib/rules/new-cap.create.listeners.CallExpression", "", "check") in facts.calls()


def test_esm_and_cjs_extensions(extract):
    esm = extract("export async function main() { await run(); }\n", path="bin/cli.mjs")
    assert esm.symbol("bin/cli.main").modifiers == ("export", "async")
    cjs = extract("exports.main = async () => run();\n", path="bin/cli.cjs")
    assert cjs.symbol("bin/cli.main").modifiers == ("async",)
    assert [e.name for e in cjs.facts.exports] == ["main"]


def test_plain_javascript_keywords_of_typescript_are_ordinary_names(extract):
    facts = extract(
        """
        const module = load(), type = 1, declare = 2, namespace = 3, abstract = 4;
        export { module, declare };
        """,
        path="src/names.js",
    )
    assert facts.names("constant") == [f"src/names.{n}" for n in ("module", "type", "declare", "namespace", "abstract")]
    assert not facts.facts.partial


def test_methods_assigned_to_this_in_constructors(extract):
    facts = extract(
        """
        export function WebGLOutput(renderer) {
          this.begin = function (target) { renderer.setRenderTarget(target); };
          this.stats = { get total() { return 0; } };
        }
        export class Renderer {
          constructor() {
            this.dispose = () => this.clear();
          }
        }
        """,
        path="src/renderers/WebGLOutput.js",
    )
    begin = facts.symbol("src/renderers/WebGLOutput.WebGLOutput.begin")
    assert (begin.kind, facts.parent_of(begin.qualified_name)) == ("method", "src/renderers/WebGLOutput.WebGLOutput")
    assert facts.symbol("src/renderers/WebGLOutput.WebGLOutput.stats.total").modifiers == ("get",)
    assert facts.parent_of("src/renderers/WebGLOutput.Renderer.dispose") == "src/renderers/WebGLOutput.Renderer"
    assert ("src/renderers/WebGLOutput.Renderer.dispose", "this", "clear") in facts.calls()
    assert ("src/renderers/WebGLOutput.WebGLOutput.begin", "renderer", "setRenderTarget") in facts.calls()
