"""Semantic search: the default local embedder, what text is embedded per symbol, the in-memory
vector index and the fusion of name and semantic rankings.

Nothing here imports onnxruntime, tokenizers or the model until an embedder is actually built, so
``import codecairn.semantic`` costs nothing when the ``semantic`` extra is not installed.
"""
