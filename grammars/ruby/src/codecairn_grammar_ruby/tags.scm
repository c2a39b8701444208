; codecairn additions to tree-sitter-ruby's tags.scm (methods, classes, modules, calls). Its pattern
; reporting every bare identifier as a call is gated on `(#is-not? local)` and so not used.

; `class Rack::Utils` / `module Rack::Utils`: Rack is the qualifier (tags.scm names only Utils).
((comment)* @doc . (class name: (scope_resolution scope: (_) @scope name: (_) @name)) @definition.class)
((comment)* @doc . (module name: (scope_resolution scope: (_) @scope name: (_) @name)) @definition.module)
((comment)* @doc . (module name: (constant) @name) @definition.module)

; The first comment in a class or module body is parsed before the body: lend it to the first
; definition there.
(_ (comment)+ @doc
  .
  (body_statement
    .
    [
      (class name: [(constant) @name (scope_resolution name: (_) @name)])
      (module name: [(constant) @name (scope_resolution name: (_) @name)])
      (method name: (_) @name)
      (singleton_method name: (_) @name)
      (assignment left: (constant) @name)
    ]))

((comment)* @doc . (assignment left: (constant) @name) @definition.constant)
((call method: (identifier) @_attr arguments: (argument_list (simple_symbol) @name)) @definition.property
  (#match? @_attr "^attr_(reader|writer|accessor)$"))
((call method: (identifier) @_alias arguments: (argument_list . (simple_symbol) @name)) @definition.method
  (#eq? @_alias "alias_method"))

(class superclass: (superclass [(constant) (scope_resolution)] @name)) @reference.extends
((call method: (identifier) @_mixin arguments: (argument_list [(constant) (scope_resolution)] @name)) @reference.implements
  (#any-of? @_mixin "include" "extend" "prepend"))

((call method: (identifier) @import.kind arguments: (argument_list . (string . (string_content) @import.path .))) @import
  (#any-of? @import.kind "require" "require_relative" "load"))

; `Foo::Bar.new(x)`: also a call of the class Bar, receiver Foo (the `new` call is tags.scm's).
((call receiver: [(constant) @name (scope_resolution name: (constant) @name)] @reference.call method: (identifier) @_new)
  (#eq? @_new "new"))
