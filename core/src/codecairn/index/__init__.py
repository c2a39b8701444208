"""The indexing pipeline: walker -> parse pool -> batched writer -> resolver."""
