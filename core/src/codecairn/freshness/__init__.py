"""Keeping a served index exactly as fresh as the files on disk.

``watcher``  file-system events (or git / mtime polling where events are not delivered) -> changed paths
``reindex``  re-index a handful of named files without walking the tree
``rules``    the walker's ignore rules, asked one path at a time
``git``      the only subprocess freshness runs: git, allowlisted, with a timeout
"""
