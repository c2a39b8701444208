"""ES module syntax: `import` and `export` statements (read from the root's children: they live at
the top level), and `import()` calls."""

from __future__ import annotations

from codecairn.model import Export, Import

from codecairn_typescript.modules import resolve_specifier, target
from codecairn_typescript.syntax import CLASS_NODES, FUNCTION_VALUES
from codecairn_typescript.walk import FileWalk


class ImportsExports(FileWalk):
    """Imports and exports as written, with the modules they name resolved to module paths."""

    def _top_level(self, root) -> None:
        for child in root.children:
            if child.type == "import_statement":
                self._import(child)
            elif child.type == "export_statement":
                self._export(child)

    def _import(self, node) -> None:
        source = node.child_by_field_name("source")
        type_only = any(c.type == "type" for c in node.children)
        kind = "type" if type_only else ""
        line = node.start_point.row + 1
        require = None
        for child in node.children:
            if child.type == "import_require_clause":
                require = child
        if require is not None:
            alias = require.named_children[0]
            specifier = self._string(require.child_by_field_name("source"))
            module = resolve_specifier(specifier, self.path)
            self.imports.append(Import(specifier, "", self.text(alias), line, "require", module))
            return
        if source is None:
            return
        specifier = self._string(source)
        module = resolve_specifier(specifier, self.path)
        clause = next((c for c in node.children if c.type == "import_clause"), None)
        if clause is None:
            self.imports.append(Import(specifier, "", "", line, "side-effect", module))
            return
        for part in clause.named_children:
            if part.type == "identifier":
                self.imports.append(
                    Import(specifier, "default", self.text(part), line, kind, target(module, "default"))
                )
            elif part.type == "namespace_import":
                alias = part.named_children[0] if part.named_children else None
                self.imports.append(Import(specifier, "", self.text(alias) if alias else "", line, kind, module))
            elif part.type == "named_imports":
                for spec in part.named_children:
                    if spec.type != "import_specifier":
                        continue
                    name_node = spec.child_by_field_name("name")
                    alias_node = spec.child_by_field_name("alias")
                    name = self._string(name_node)
                    spec_kind = "type" if type_only or any(c.type == "type" for c in spec.children) else ""
                    self.imports.append(
                        Import(
                            specifier,
                            name,
                            self.text(alias_node) if alias_node else name,
                            spec.start_point.row + 1,
                            spec_kind,
                            target(module, name),
                        )
                    )

    def _export(self, node) -> None:
        line = node.start_point.row + 1
        is_default = False
        source_node = node.child_by_field_name("source")
        declaration = node.child_by_field_name("declaration")
        value = node.child_by_field_name("value")
        clause = star = namespace_export = None
        equals = False
        for child in node.children:
            t = child.type
            if t == "default":
                is_default = True
            elif t == "export_clause":
                clause = child
            elif t == "*":
                star = child
            elif t == "namespace_export":
                namespace_export = child
            elif t == "=":
                equals = True
        if source_node is not None:
            specifier = self._string(source_node)
            module = resolve_specifier(specifier, self.path)
            if clause is not None:
                for spec in clause.named_children:
                    if spec.type != "export_specifier":
                        continue
                    name = self._string(spec.child_by_field_name("name"))
                    alias_node = spec.child_by_field_name("alias")
                    alias = self._string(alias_node) if alias_node else ""
                    spec_line = spec.start_point.row + 1
                    self.exports.append(Export(name, spec_line, "re-export", module, alias))
                    # alias = the name the module makes available: what re-export chains follow
                    self.imports.append(
                        Import(specifier, name, alias or name, spec_line, "re-export", target(module, name))
                    )
            elif namespace_export is not None:
                alias = namespace_export.named_children[-1] if namespace_export.named_children else None
                alias_text = self._string(alias) if alias is not None else ""
                self.exports.append(Export("*", line, "re-export", module, alias_text))
                self.imports.append(Import(specifier, "", alias_text, line, "re-export", module))
            elif star is not None:
                self.exports.append(Export("*", line, "re-export", module))
                self.imports.append(Import(specifier, "*", "", line, "re-export", module))
            return
        if clause is not None:
            for spec in clause.named_children:
                if spec.type == "export_specifier":
                    alias_node = spec.child_by_field_name("alias")
                    name = self._string(spec.child_by_field_name("name"))
                    alias = self._string(alias_node) if alias_node else ""
                    spec_line = spec.start_point.row + 1
                    self.exports.append(Export(name, spec_line, "", "", alias))
                    if alias and alias != name and alias != "default":
                        # `export { _instanceof as instanceof }`: the module makes its own name
                        # available under another, which an importer's `instanceof` reaches
                        # (a re-export of itself, as `export { x as y } from "./self"` would be)
                        self.imports.append(Import("", name, alias, spec_line, "re-export", target(self.module, name)))
            return
        if declaration is not None:
            for name in self._declared_names(declaration):
                self.exports.append(Export(name, line, "default" if is_default else ""))
            return
        if value is not None or equals:
            if value is None:
                value = next((c for c in node.named_children if c.type not in ("comment", "decorator")), None)
                if value is None:
                    return
            if value.type == "identifier":
                self.exports.append(Export(self.text(value), line, "default"))
                return
            name = "default"
            own_name = (
                value.child_by_field_name("name")
                if value.type in CLASS_NODES or value.type in FUNCTION_VALUES
                else None
            )
            if own_name is not None:
                name = self.text(own_name)
            self.exports.append(Export(name, line, "default"))
            mods = ["export", "default"]
            doc = self._doc(node)
            if value.type in FUNCTION_VALUES:
                body = value.child_by_field_name("body")
                index = self._add(
                    "function",
                    name,
                    value,
                    self._signature(value, body),
                    doc,
                    -1,
                    self.module,
                    mods + self._own_modifiers(value),
                )
                self.bound[value.id] = index
            elif value.type in CLASS_NODES:
                index = self._add(
                    "class",
                    name,
                    value,
                    self._signature(value, value.child_by_field_name("body")),
                    doc,
                    -1,
                    self.module,
                    mods,
                )
                self.bound[value.id] = index
            elif value.type == "object":
                index = self._add("constant", name, value, "export default", doc, -1, self.module, mods)
                self._object_members(value, index, self._qualify(self.module, name))

    def _declared_names(self, declaration) -> list[str]:
        t = declaration.type
        if t == "ambient_declaration":
            inner = [c for c in declaration.named_children if c.type != "comment"]
            return self._declared_names(inner[0]) if inner else []
        if t in ("lexical_declaration", "variable_declaration"):
            names = []
            for declarator in declaration.named_children:
                if declarator.type == "variable_declarator":
                    names.extend(self.text(n) for n in self._pattern_names(declarator.child_by_field_name("name")))
            return names
        if t == "import_alias":
            return [self.text(declaration.named_children[0])] if declaration.named_children else []
        name = declaration.child_by_field_name("name")
        if name is None:
            return ["default"] if t in CLASS_NODES or "function" in t else []
        return [self._string(name)]

    def _string_argument(self, call) -> tuple[str, object] | None:
        args = call.child_by_field_name("arguments")
        if args is None or args.named_child_count != 1:
            return None
        arg = args.named_children[0]
        if arg.type == "string" or arg.type == "template_string" and arg.named_child_count == 0:
            return self._string(arg), arg
        return None

    def _binding(self, node):
        """The declarator a require/import() call is assigned to, and the member taken from it."""
        parent = node.parent
        member = ""
        if parent is not None and parent.type == "await_expression":
            node, parent = parent, parent.parent
        if parent is not None and parent.type == "member_expression" and parent.child_by_field_name("object") == node:
            prop = parent.child_by_field_name("property")
            member = self.text(prop) if prop is not None else ""
            node, parent = parent, parent.parent
        if parent is not None and parent.type == "variable_declarator" and parent.child_by_field_name("value") == node:
            return parent.child_by_field_name("name"), member
        return None, member

    def _dynamic_import(self, call) -> None:
        arg = self._string_argument(call)
        if arg is None:
            return
        specifier = arg[0]
        module = resolve_specifier(specifier, self.path)
        pattern, member = self._binding(call)
        alias = self.text(pattern) if pattern is not None and pattern.type == "identifier" else ""
        self.imports.append(
            Import(specifier, member, alias, call.start_point.row + 1, "dynamic", target(module, member))
        )
