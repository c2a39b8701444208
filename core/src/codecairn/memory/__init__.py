"""Location memory and architecture notes.

* ``anchors``  — pure: how a remembered range is tied to the code's structure and found again;
* ``table``    — the ``memories`` table's queries;
* ``memories`` — ``Memories``, the workspace's memory: remember, recall, forget, re-anchor;
* ``notes``    — the Markdown notes file (architecture decisions), sections addressed by heading.

See docs/memory.md.
"""

from codecairn.memory.memories import Memories

__all__ = ["Memories"]
