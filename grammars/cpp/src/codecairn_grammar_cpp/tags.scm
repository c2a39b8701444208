; codecairn tags for C++. tree-sitter-cpp's own tags.scm marks declarators (prototypes too), so this
; query replaces it. Definition nodes are whole definitions; member functions declared in a class but
; defined elsewhere are found where they are defined: `void Foo::bar() {}` → Foo::bar, a method.
; Function patterns have no @name: the extractor reads the name (and `Foo::` as the qualifier) off
; the declarator chain, which keeps them small and their compilation fast.

((comment)* @doc . (function_definition) @definition.function)
; Doc comments above `template <...>` belong to what it declares.
((comment)+ @doc . (template_declaration (function_definition) @definition.function))
((comment)+ @doc . (template_declaration [(class_specifier body: (_)) @definition.class (struct_specifier body: (_)) @definition.struct]))
; Same story as C for declarators left in ERROR nodes by macros.
(ERROR (function_declarator declarator: (identifier)) @definition.function)

; Methods: defined in a class body, or out of line with a qualified name (later patterns win the kind).
(function_definition declarator: (function_declarator declarator: (qualified_identifier))) @definition.method
(function_definition declarator: (_ (function_declarator declarator: (qualified_identifier)))) @definition.method
(field_declaration_list (function_definition) @definition.method)
(field_declaration_list (template_declaration (function_definition) @definition.method))
; Inside a parent `(comment)* @doc .` would match the first member only: docs of members come from
; this doc-only pattern.
(field_declaration_list (comment)+ @doc . (field_declaration declarator: [(field_identifier) (pointer_declarator declarator: (field_identifier))] @name))

; Classes, structs, unions with a body (not forward declarations). Specialisations are named by their
; template (`struct formatter<Foo>` → formatter), `class a::B {}` gets `a` as its qualifier.
((comment)* @doc . (class_specifier body: (_)) @definition.class)
((comment)* @doc . (struct_specifier body: (_)) @definition.struct)
((comment)* @doc . (union_specifier name: (_) body: (_)) @definition.union)
((comment)* @doc . (enum_specifier name: (_) body: (_)) @definition.enum)
(enumerator name: (identifier) @name) @definition.enum_member
((comment)* @doc . (namespace_definition name: (_) @name) @definition.namespace)
((comment)* @doc . (alias_declaration name: (type_identifier) @name) @definition.type)
((comment)* @doc . (concept_definition name: (identifier) @name) @definition.type)

((comment)* @doc
  .
  (type_definition
    declarator: [
      (type_identifier) @name
      (pointer_declarator declarator: (type_identifier) @name)
      (array_declarator declarator: (type_identifier) @name)
      (function_declarator declarator: (type_identifier) @name)
      (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name)))
      (function_declarator declarator: (parenthesized_declarator (type_identifier) @name))
    ]) @definition.type)

(field_declaration
  declarator: [
    (field_identifier) @name
    (pointer_declarator declarator: [(field_identifier) @name (pointer_declarator declarator: (field_identifier) @name)])
    (array_declarator declarator: (field_identifier) @name)
    (reference_declarator (field_identifier) @name)
    (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (field_identifier) @name)))
  ]) @definition.field

((comment)* @doc . (preproc_def name: (identifier) @name) @definition.macro)
((comment)* @doc . (preproc_function_def name: (identifier) @name) @definition.macro)

; Globals: declarations at file level, inside #if blocks, inside extern "C" { } / namespace bodies, and
; loose in an ERROR node when the whole file is one (locals live in compound statements, not listed).
; Their doc comments come from the doc-only pattern after them: inside a parent, `(comment)* @doc .`
; would only match the first declaration.
(translation_unit
  (declaration
    declarator: [
      (identifier) @name
      (pointer_declarator declarator: (identifier) @name)
      (array_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)])
      (init_declarator
        declarator: [
          (identifier) @name
          (pointer_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)])
          (array_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)])
        ]
        .
        value: (_))
      ; `local T name = ...`: a storage macro (#define local static) pushes the type into the
      ; declarator's place and the real name into an ERROR node.
      (init_declarator declarator: (identifier) (ERROR . (identifier) @name .) value: (_))
    ]) @definition.variable)
(ERROR
  (declaration
    declarator: [
      (identifier) @name
      (pointer_declarator declarator: (identifier) @name)
      (array_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)])
      (init_declarator
        declarator: [
          (identifier) @name
          (pointer_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)])
          (array_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)])
        ]
        .
        value: (_))
      ; `local T name = ...`: a storage macro (#define local static) pushes the type into the
      ; declarator's place and the real name into an ERROR node.
      (init_declarator declarator: (identifier) (ERROR . (identifier) @name .) value: (_))
    ]) @definition.variable)
(preproc_if
  (declaration
    declarator: [
      (identifier) @name
      (pointer_declarator declarator: (identifier) @name)
      (array_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)])
      (init_declarator
        declarator: [
          (identifier) @name
          (pointer_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)])
          (array_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)])
        ]
        .
        value: (_))
      ; `local T name = ...`: a storage macro (#define local static) pushes the type into the
      ; declarator's place and the real name into an ERROR node.
      (init_declarator declarator: (identifier) (ERROR . (identifier) @name .) value: (_))
    ]) @definition.variable)
(preproc_ifdef
  (declaration
    declarator: [
      (identifier) @name
      (pointer_declarator declarator: (identifier) @name)
      (array_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)])
      (init_declarator
        declarator: [
          (identifier) @name
          (pointer_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)])
          (array_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)])
        ]
        .
        value: (_))
      ; `local T name = ...`: a storage macro (#define local static) pushes the type into the
      ; declarator's place and the real name into an ERROR node.
      (init_declarator declarator: (identifier) (ERROR . (identifier) @name .) value: (_))
    ]) @definition.variable)
(preproc_else
  (declaration
    declarator: [
      (identifier) @name
      (pointer_declarator declarator: (identifier) @name)
      (array_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)])
      (init_declarator
        declarator: [
          (identifier) @name
          (pointer_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)])
          (array_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)])
        ]
        .
        value: (_))
      ; `local T name = ...`: a storage macro (#define local static) pushes the type into the
      ; declarator's place and the real name into an ERROR node.
      (init_declarator declarator: (identifier) (ERROR . (identifier) @name .) value: (_))
    ]) @definition.variable)
(preproc_elif
  (declaration
    declarator: [
      (identifier) @name
      (pointer_declarator declarator: (identifier) @name)
      (array_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)])
      (init_declarator
        declarator: [
          (identifier) @name
          (pointer_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)])
          (array_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)])
        ]
        .
        value: (_))
      ; `local T name = ...`: a storage macro (#define local static) pushes the type into the
      ; declarator's place and the real name into an ERROR node.
      (init_declarator declarator: (identifier) (ERROR . (identifier) @name .) value: (_))
    ]) @definition.variable)
(declaration_list
  (declaration
    declarator: [
      (identifier) @name
      (pointer_declarator declarator: (identifier) @name)
      (array_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)])
      (init_declarator
        declarator: [
          (identifier) @name
          (pointer_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)])
          (array_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)])
        ]
        .
        value: (_))
      ; `local T name = ...`: a storage macro (#define local static) pushes the type into the
      ; declarator's place and the real name into an ERROR node.
      (init_declarator declarator: (identifier) (ERROR . (identifier) @name .) value: (_))
    ]) @definition.variable)
((comment)+ @doc
  .
  (declaration
    declarator: [
      (identifier) @name
      (pointer_declarator declarator: (identifier) @name)
      (array_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)])
      (init_declarator
        declarator: [
          (identifier) @name
          (pointer_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)])
          (array_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)])
        ]
        .
        value: (_))
      ; `local T name = ...`: a storage macro (#define local static) pushes the type into the
      ; declarator's place and the real name into an ERROR node.
      (init_declarator declarator: (identifier) (ERROR . (identifier) @name .) value: (_))
    ]))


(base_class_clause [(type_identifier) (qualified_identifier) (template_type)] @name) @reference.extends

(preproc_include path: (_) @import.path (#set! import.kind "include")) @import
; using std::string;  using namespace std;  namespace fs = std::filesystem;
(using_declaration (qualified_identifier scope: (_) @import.module name: (_) @import.name)) @import
(using_declaration "namespace" [(identifier) (qualified_identifier)] @import.module (#set! import.name "*")) @import
(namespace_alias_definition name: (_) @import.alias . [(nested_namespace_specifier) (namespace_identifier)] @import.module) @import

(call_expression function: [(identifier) @name (template_function name: (identifier) @name)]) @reference.call
(call_expression function: (field_expression field: [(field_identifier) @name (template_method name: (field_identifier) @name)])) @reference.call
(call_expression function: (qualified_identifier name: [(identifier) @name (template_function name: (identifier) @name)])) @reference.call
(call_expression function: (qualified_identifier name: (qualified_identifier name: [(identifier) @name (template_function name: (identifier) @name)]))) @reference.call
; `new a::Foo(x)`: a call of the class, receiver = the qualifier
(new_expression type: [(type_identifier) @name (template_type name: (type_identifier) @name)] @reference.call)
(new_expression type: (qualified_identifier name: [(type_identifier) @name (template_type name: (type_identifier) @name)]) @reference.call)
