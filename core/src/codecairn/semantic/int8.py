"""Real int8 arithmetic for the default model, derived once from the shipped file and cached.

The shipped ONNX file stores its weights as int8 but onnxruntime turns them back into fp32 when
the session loads, so the arithmetic is fp32. Re-quantising the (constant-folded) graph with
``quantize_dynamic`` and per-channel int8 weights makes the matrix products integer ones: about
1.5x the throughput on the same cores, with a cosine of 0.992 to the fp32 vectors (per-tensor
quantisation was as fast but drifted to 0.96). Nothing is downloaded: the derived file is made
from the verified shipped file, on this machine, with the ``onnx`` package.

The derived file sits in ``<cache>/models/`` (or ``$CODECAIRN_MODELS_DIR``) beside a ``.sha256`` sidecar; a file that no longer
matches its sidecar (damaged, or half-written by a killed process) is rebuilt, never loaded. The
build runs in a child process, so the memory it takes goes back to the system when it is done.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import logging
import os
import subprocess
import sys
import tempfile
from pathlib import Path

log = logging.getLogger("codecairn.semantic")

RECIPE = "int8-dynamic-per-channel"
ENV_SWITCH = "CODECAIRN_EMBED_INT8"  # "0": use the shipped file as it is
# Where derived models are kept when not in <cache>/models: the file is named by what it was made
# from (the shipped file's hash, the recipe, onnxruntime's version) and checked against its sidecar
# on every load, so caches of several roots, users or test runs may share one copy safely.
ENV_MODELS_DIR = "CODECAIRN_MODELS_DIR"
BUILD_TIMEOUT = 300  # seconds; about 5 s on an idle core


def wanted() -> bool:
    return os.environ.get(ENV_SWITCH, "1") != "0"


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def models_dir(cache: Path) -> Path:
    """``$CODECAIRN_MODELS_DIR`` when set, else ``<cache>/models``."""
    chosen = os.environ.get(ENV_MODELS_DIR)
    return Path(chosen).expanduser() if chosen else cache / "models"


def cached_path(cache: Path, source_sha256: str) -> Path:
    import onnxruntime

    # The onnxruntime version is in the name: another quantiser may write other numbers.
    return models_dir(cache) / f"minilm-{RECIPE}-{source_sha256[:16]}-ort{onnxruntime.__version__}.onnx"


def derived_model(source: Path, source_sha256: str, cache: Path) -> tuple[Path, str] | None:
    """(path, sha256) of the int8 model derived from ``source`` (whose hash the caller checked),
    building it on first use; None when it cannot be built here (no ``onnx`` package, or the
    quantiser failed), in which case the shipped file is used as it is."""
    target = cached_path(cache, source_sha256)
    sidecar = target.with_name(target.name + ".sha256")
    if target.is_file() and sidecar.is_file():
        expected = sidecar.read_text().strip()
        if _sha256(target) == expected:
            return target, expected
        log.warning("%s does not match its recorded hash; rebuilding it", target)
    if importlib.util.find_spec("onnx") is None:  # the quantiser needs it
        log.info("int8 embedding model unavailable (no onnx package); using the shipped model")
        return None
    # Built in a child process: the quantiser holds the fp32 graph several times over (a 500 MB
    # peak) and leaves onnx and its own modules imported (100 MB more for good); a server that
    # built it in-process would keep that memory for the rest of its life.
    try:
        child = subprocess.run(
            [sys.executable, "-m", "codecairn.semantic.int8", str(source), str(target)],
            capture_output=True,
            text=True,
            timeout=BUILD_TIMEOUT,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        log.warning("could not build the int8 embedding model (%s); using the shipped model", exc)
        return None
    if child.returncode != 0 or not sidecar.is_file():
        said = (child.stderr.strip().splitlines() or ["no message"])[-1][:200]
        log.warning("could not build the int8 embedding model (%s); using the shipped model", said)
        return None
    log.info("built the int8 embedding model %s", target)
    return target, sidecar.read_text().strip()


def build(source: Path, target: Path) -> str:
    """Quantise ``source`` into ``target`` (and its sidecar); returns the new file's sha256.
    Written to a temporary name first: a killed build leaves no file that looks finished."""
    import onnxruntime as ort
    from onnxruntime.quantization import QuantType, quantize_dynamic

    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent, prefix=".build-") as work:
        folded, quantised = Path(work) / "folded.onnx", Path(work) / "int8.onnx"
        # Constant folding turns the int8-stored weights into plain fp32 initialisers, which
        # is what quantize_dynamic recognises as weights.
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
        options.optimized_model_filepath = str(folded)
        ort.InferenceSession(str(source), sess_options=options, providers=["CPUExecutionProvider"])
        with _quiet_root_logger():
            quantize_dynamic(str(folded), str(quantised), per_channel=True, weight_type=QuantType.QInt8)
        digest = _sha256(quantised)
        os.replace(quantised, target)
        tmp_sidecar = Path(work) / "sha256"
        tmp_sidecar.write_text(digest + "\n")
        os.replace(tmp_sidecar, target.with_name(target.name + ".sha256"))
    return digest


@contextlib.contextmanager
def _quiet_root_logger():
    """The quantiser reports each tensor through the root logger (``logging.info(...)``): a
    hundred lines for one build. A filter on the root logger sees only records logged to it
    directly, so codecairn's own loggers still get through."""
    root = logging.getLogger()
    below_error = _BelowError()
    root.addFilter(below_error)
    try:
        yield
    finally:
        root.removeFilter(below_error)


class _BelowError(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return record.levelno >= logging.ERROR


if __name__ == "__main__":  # the child process of derived_model: python -m codecairn.semantic.int8 SOURCE TARGET
    try:
        build(Path(sys.argv[1]), Path(sys.argv[2]))
    except Exception as exc:  # said on stderr, one line, for the parent's warning
        print(f"{type(exc).__name__}: {exc}", file=sys.stderr)
        sys.exit(1)
