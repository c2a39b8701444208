"""How large an argument may be, in one place: the modules that enforce a limit and the tool
schemas that advertise it read it from here (a leaf: it imports nothing)."""

MAX_PATH_CHARS = 4096
GLOB_MAX_CHARS = 256  # matching costs up to (name length x pattern length) per name: bound one side
MAX_REASON_CHARS = 2000  # a memory's reason; natural-language queries too
MAX_TAGS = 20
MAX_TAG_CHARS = 64
MAX_HEADING_CHARS = 300  # a notes heading
MAX_TEXT_BYTES = 64 * 1024  # a notes section's text
