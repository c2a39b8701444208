; codecairn tags for C. tree-sitter-c's own tags.scm marks declarators (prototypes too), so this
; query replaces it: definition nodes are whole definitions (body included), so symbols get their full
; line range and calls inside a body know their caller. Prototypes are not definitions.

; No @name: the extractor reads the name off the `declarator` chain (through pointer and parenthesised
; declarators), which keeps this pattern small and its compilation fast.
((comment)* @doc . (function_definition) @definition.function)

; K&R definitions behind macros (`int ZEXPORT f(a) int a; {`) can leave a function's declarator loose
; in an ERROR node: still a definition, with the declarator's range only.
(ERROR (function_declarator declarator: (identifier)) @definition.function)

((comment)* @doc . (struct_specifier name: (type_identifier) @name body: (_)) @definition.struct)
((comment)* @doc . (union_specifier name: (type_identifier) @name body: (_)) @definition.union)
((comment)* @doc . (enum_specifier name: (type_identifier) @name body: (_)) @definition.enum)
(enumerator name: (identifier) @name) @definition.enum_member

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

(preproc_include path: (_) @import.path (#set! import.kind "include")) @import

(call_expression function: (identifier) @name) @reference.call
(call_expression function: (field_expression field: (field_identifier) @name)) @reference.call
