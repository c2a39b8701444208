"""The file system as the file tools see it: declared roots and where a path lands in them
(roots.py), bounded reads and streamed hashes (reading.py), streamed JSON (jsonstream.py), the
rules a write must pass (risk.py), edits of text that keep its encoding and line endings
(edits.py), atomic writes (writing.py), listings and ripgrep searches (listing.py, ripgrep.py),
quick-open ranking (fuzzy.py), directory comparison (compare.py). Tools reach all of it through
the tool API (context.py), never directly."""
