"""Location memory and architecture notes.

* ``anchors``  — pure: how a remembered range is tied to the code's structure and found again;
* ``memories`` — ``Memories``, the workspace's memory: remember, recall, forget, and keeping
  every memory placed as the code changes (its rows are kept by ``codecairn.store.memories``);
* ``views``    — files as they are now (lines, hash, symbols) for placing;
* ``placing``  — placing one memory again: in its file, a renamed twin, or where its symbol moved;
* ``ranking``  — ranking memories against a recall query (words, and cosines with an embedder);
* ``notes``    — the Markdown notes file (architecture decisions), sections addressed by heading;
* ``sections`` — the notes file's structure as a CommonMark reader sees it.

See docs/memory.md.
"""
