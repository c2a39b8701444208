"""How large an argument may be, in one place: the modules that enforce a limit and the tool
schemas that advertise it read it from here (a leaf: it imports nothing)."""

MAX_PATH_CHARS = 4096
GLOB_MAX_CHARS = 256  # matching costs up to (name length x pattern length) per name: bound one side
MAX_REASON_CHARS = 2000  # a memory's reason; natural-language queries too
MAX_TAGS = 20
MAX_TAG_CHARS = 64
MAX_HEADING_CHARS = 300  # a notes heading
MAX_TEXT_BYTES = 64 * 1024  # a notes section's text
# The file tools (reads, searches, edits)
MAX_EDIT_TEXT_CHARS = 512 * 1024  # old_text / new_text of one edit: a request is at most 1 MiB on the wire
MAX_PATTERN_CHARS = 2000  # a search pattern (ripgrep's regex engine bounds its own work)
MAX_GLOBS = 50
MAX_SNIPPETS = 20
MAX_BATCH_FILES = 50
MAX_JSON_TEXT_CHARS = 1_000_000  # validate_json's inline text (larger: validate a file)
MAX_WINDOW_BYTES = 150_000  # text one read returns: the answer (its JSON, escapes included) fits 200 kB
