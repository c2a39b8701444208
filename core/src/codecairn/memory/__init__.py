"""Location memory and architecture notes.

* ``anchors``  — pure: how a remembered range is tied to the code's structure and found again;
* ``memories`` — ``Memories``, the workspace's memory: remember, recall, forget, re-anchor
  (its rows are kept by ``codecairn.store.memories``);
* ``notes``    — the Markdown notes file (architecture decisions), sections addressed by heading;
* ``sections`` — the notes file's structure as a CommonMark reader sees it.

See docs/memory.md.
"""
