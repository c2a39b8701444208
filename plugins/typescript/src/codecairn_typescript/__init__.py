"""TypeScript, TSX and JavaScript for codecairn: one extractor over the tree-sitter-typescript grammars."""
