; codecairn additions to tree-sitter-php's tags.scm (classes, interfaces, functions, properties and
; calls). Qualified names use PHP's own separator: Monolog\Handler\StreamHandler.

; `namespace A\B;` prefixes what follows it; `namespace A\B { }` nests. Either way it is the module.
(namespace_definition name: (namespace_name) @name @module.name) @definition.namespace

; Kinds tags.scm does not say (a method is not a function, a trait is not an interface), and docs.
((comment)* @doc . (class_declaration name: (name) @name) @definition.class)
((comment)* @doc . (interface_declaration name: (name) @name) @definition.interface)
((comment)* @doc . (trait_declaration name: (name) @name) @definition.trait)
((comment)* @doc . (enum_declaration name: (name) @name) @definition.enum)
((comment)* @doc . (function_definition name: (name) @name) @definition.function)
((comment)* @doc . (method_declaration name: (name) @name) @definition.method)
((comment)* @doc . (property_declaration (property_element name: (variable_name (name) @name))) @definition.property)
((comment)* @doc . (const_declaration (const_element . (name) @name)) @definition.constant)
(property_promotion_parameter name: (variable_name (name) @name)) @definition.property
(enum_case name: (name) @name) @definition.enum_member
((function_call_expression function: (name) @_define arguments: (arguments . (argument (string (string_content) @name)))) @definition.constant
  (#eq? @_define "define"))

(class_declaration (base_clause [(name) (qualified_name)] @name)) @reference.extends
(interface_declaration (base_clause [(name) (qualified_name)] @name)) @reference.extends
(class_interface_clause [(name) (qualified_name)] @name) @reference.implements
; a trait used in a class body
(use_declaration [(name) (qualified_name)] @name) @reference.implements

; use A\B;  use A\B as C;  use A\{B, C as D};
(namespace_use_declaration
  (namespace_use_clause
    [(name) @import.name (qualified_name prefix: (namespace_name) @import.module (name) @import.name)]
    alias: (name)? @import.alias) @import)
(namespace_use_declaration
  (namespace_name) @import.module
  body: (namespace_use_group (namespace_use_clause . (name) @import.name alias: (name)? @import.alias) @import))
([(require_expression (string (string_content) @import.path))
  (require_once_expression (string (string_content) @import.path))
  (include_expression (string (string_content) @import.path))
  (include_once_expression (string (string_content) @import.path))] @import
  (#set! import.kind "require"))

(function_call_expression function: (name) @name) @reference.call
; `new A\Foo()`: a call of the class, receiver = the qualifier
(object_creation_expression [(name) @name @reference.call (qualified_name (name) @name) @reference.call])
