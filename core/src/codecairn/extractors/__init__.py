"""Extractors turn one parsed file into FileFacts. They are pure: (bytes, tree, path) -> facts."""
