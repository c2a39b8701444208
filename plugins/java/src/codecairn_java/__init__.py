"""codecairn-java: the Java language plugin (symbols, calls, inheritance, imports, exports)."""
