"""codecairn: a persistent, tree-sitter-based code-knowledge server for AI coding agents."""

__version__ = "0.2.0"
