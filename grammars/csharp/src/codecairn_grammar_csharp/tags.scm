; codecairn additions to tree-sitter-c-sharp's tags.scm (classes, interfaces, methods, namespaces and
; member-access calls): the other declarations, docs, base lists, usings and plain calls.

; Namespaces. A file-scoped `namespace A.B;` prefixes everything after it; a block namespace nests.
; Either way the namespace is the file's module. (These override tags.scm's kind "module".)
(file_scoped_namespace_declaration name: (_) @name @module.name) @definition.namespace
(namespace_declaration name: (_) @name @module.name body: (_)) @definition.namespace

((comment)* @doc . (class_declaration name: (identifier) @name) @definition.class)
((comment)* @doc . (struct_declaration name: (identifier) @name) @definition.struct)
((comment)* @doc . (interface_declaration name: (identifier) @name) @definition.interface)
((comment)* @doc . (enum_declaration name: (identifier) @name) @definition.enum)
((comment)* @doc . (record_declaration name: (identifier) @name) @definition.record)
((comment)* @doc . (delegate_declaration name: (identifier) @name) @definition.type)
((comment)* @doc . (method_declaration name: (identifier) @name) @definition.method)
((comment)* @doc . (constructor_declaration name: (identifier) @name) @definition.constructor)
((comment)* @doc . (property_declaration name: (identifier) @name) @definition.property)
((comment)* @doc . (event_declaration name: (identifier) @name) @definition.event)
((comment)* @doc . (field_declaration (variable_declaration (variable_declarator name: (identifier) @name))) @definition.field)
((comment)* @doc . (event_field_declaration (variable_declaration (variable_declarator name: (identifier) @name))) @definition.event)
((field_declaration (modifier) @_const (variable_declaration (variable_declarator name: (identifier) @name))) @definition.constant
  (#eq? @_const "const"))
(enum_member_declaration name: (identifier) @name) @definition.enum_member

; Base lists. C# does not say which base is the class: the first one is, unless it is named like an
; interface (IDisposable); every later one is an interface.
((class_declaration (base_list . [(identifier) (qualified_name) (generic_name)] @name)) @reference.extends
  (#not-match? @name "(^|[.])I[A-Z][A-Za-z0-9_]*(<.*)?$"))
((record_declaration (base_list . [(identifier) (qualified_name) (generic_name)] @name)) @reference.extends
  (#not-match? @name "(^|[.])I[A-Z][A-Za-z0-9_]*(<.*)?$"))
([(class_declaration (base_list [(identifier) (qualified_name) (generic_name)] @name))
  (record_declaration (base_list [(identifier) (qualified_name) (generic_name)] @name))] @reference.implements
  (#match? @name "(^|[.])I[A-Z][A-Za-z0-9_]*(<.*)?$"))
[(class_declaration (base_list (_) [(identifier) (qualified_name) (generic_name)] @name))
 (record_declaration (base_list (_) [(identifier) (qualified_name) (generic_name)] @name))
 (struct_declaration (base_list [(identifier) (qualified_name) (generic_name)] @name))] @reference.implements
(interface_declaration (base_list [(identifier) (qualified_name) (generic_name)] @name)) @reference.extends

; using A.B;  using static A.B;  using X = A.B;  (later patterns win for the same directive)
(using_directive . [(identifier) (qualified_name)] @import.module (#set! import.name "*")) @import
(using_directive "static" [(identifier) (qualified_name)] @import.module (#set! import.name "*") (#set! import.kind "static")) @import
(using_directive name: (identifier) @import.alias . [(identifier) (qualified_name) (generic_name)] @import.module) @import

(invocation_expression function: [(identifier) @name (generic_name (identifier) @name)]) @reference.call
(invocation_expression function: (member_access_expression name: [(identifier) @name (generic_name (identifier) @name)])) @reference.call
; `new A.Foo(x)`: a call of the class, receiver = the qualifier
(object_creation_expression type: [(identifier) @name (generic_name (identifier) @name)] @reference.call)
(object_creation_expression type: (qualified_name name: [(identifier) @name (generic_name (identifier) @name)]) @reference.call)
