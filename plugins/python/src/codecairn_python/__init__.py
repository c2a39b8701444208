"""codecairn's Python language plugin: definitions, calls, imports and exports of .py/.pyi files."""
