"""codecairn's Go plugin: packages, types, methods on their receivers, imports and calls."""
