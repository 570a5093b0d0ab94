"""Pickle-based embedding files run no code unless the caller trusts them.

gensim ``KeyedVectors`` files are read by a restricted unpickler; a crafted file that would run
code (here: create a folder) is refused with a clear error before anything runs. Transformer
model folders load only safetensors weights.
"""

from __future__ import annotations

import importlib.util
import os
import pickle
from pathlib import Path

import numpy as np
import pytest

from tests.embeddings import fuzzbench
from wordgames.embeddings import load_embedding
from wordgames.embeddings.gensim_safe import read_keyedvectors
from wordgames.errors import DataFormatError, UnsafeFileError, WordgamesError

WORDS = ["the", "cat", "dog"]
VECS = np.array([[0.1, 0.2, 0.3], [1.0, 0.0, -1.5], [-2.0, 0.5, 0.25]], dtype=np.float32)
fake_gensim_pickle = fuzzbench.load().fake_gensim_pickle


def _state(**extra):
    state = {
        "vector_size": 3,
        "index_to_key": list(WORDS),
        "key_to_index": {w: i for i, w in enumerate(WORDS)},
        "vectors": VECS.copy(),
        "__numpys": [],
    }
    state.update(extra)
    return state


class _MakeFolder:
    """Unpickling this calls os.makedirs(path): the payload of the malicious files."""

    def __init__(self, path):
        self.path = str(path)

    def __reduce__(self):
        return (os.makedirs, (self.path,))


def _malicious(tmp_path, payload) -> Path:
    """A gensim-style KeyedVectors pickle with ``payload`` hidden in its state."""
    p = tmp_path / "evil.kv"
    p.write_bytes(fake_gensim_pickle(_state(expandos={"x": payload})))
    return p


@pytest.mark.parametrize(
    "payload_of",
    [
        lambda marker: _MakeFolder(marker),
        # a payload nested where a numpy array is expected
        lambda marker: [np.zeros(2), {"deep": (_MakeFolder(marker),)}],
    ],
)
def test_malicious_gensim_file_runs_nothing(tmp_path, payload_of):
    marker = tmp_path / "pwned"
    evil = _malicious(tmp_path, payload_of(marker))
    # the file really is malicious: a plain unpickler creates the folder (it needs gensim's
    # classes to get that far: on a --minimal install only our loader is checked)
    if importlib.util.find_spec("gensim") is not None:
        pickle.loads(evil.read_bytes())
        assert marker.is_dir()
        marker.rmdir()
    with pytest.raises(UnsafeFileError) as exc:
        load_embedding(evil)
    assert not marker.exists()
    msg = str(exc.value)
    assert str(evil) in msg and "makedirs" in msg and "trust_pickle=True" in msg
    assert isinstance(exc.value, DataFormatError) and isinstance(exc.value, WordgamesError)


@pytest.mark.parametrize(
    "target",
    [("builtins", "eval"), ("subprocess", "Popen"), ("posix", "system"), ("builtins", "getattr")],
)
def test_restricted_unpickler_refuses_other_globals(tmp_path, target):
    # GLOBAL of the target, called with one string argument (protocol 0 opcodes)
    data = f"c{target[0]}\n{target[1]}\n(S'x'\ntR.".encode()
    p = tmp_path / "g.kv"
    p.write_bytes(data)
    with pytest.raises(UnsafeFileError, match=f"{target[0]}.{target[1]}"):
        read_keyedvectors(p)


def test_gensim_file_read_without_gensim_code(tmp_path):
    p = tmp_path / "v.kv"
    p.write_bytes(fake_gensim_pickle(_state()))
    emb = load_embedding(p)
    assert emb.words.tolist() == WORDS and emb.name == "v"
    np.testing.assert_array_equal(emb.vectors, VECS)
    assert emb.load_report.format == "gensim" and emb.load_report.repairs == {}


def test_gensim3_vocab_layout(tmp_path):
    # gensim 3: Word2VecKeyedVectors, a vocab of Vocab objects (word -> index), vectors
    state = {"vector_size": 3, "vectors": VECS.copy(), "__numpys": []}
    p = tmp_path / "old.kv"
    p.write_bytes(
        fake_gensim_pickle(state, cls="Word2VecKeyedVectors", vocab={"dog": 2, "the": 0, "cat": 1})
    )
    emb = load_embedding(p)
    assert emb.words.tolist() == WORDS
    np.testing.assert_array_equal(emb.vector("dog"), VECS[2])


def test_gensim_vectors_stored_apart_are_memory_mapped(tmp_path):
    p = tmp_path / "v.kv"
    p.write_bytes(fake_gensim_pickle(_state(vectors=None, __numpys=["vectors"])))
    with pytest.raises(DataFormatError, match=r"v\.kv\.vectors\.npy.*missing"):
        load_embedding(p)
    np.save(tmp_path / "v.kv.vectors.npy", VECS)
    emb = load_embedding(p)
    np.testing.assert_array_equal(emb.vectors, VECS)
    assert _is_file_backed(emb.vectors)


def _is_file_backed(arr) -> bool:
    while arr is not None:
        if isinstance(arr, np.memmap) or type(arr).__name__ == "mmap":
            return True
        arr = getattr(arr, "base", None)
    return False


def test_gensim_side_array_is_never_unpickled(tmp_path):
    p = tmp_path / "v.kv"
    p.write_bytes(fake_gensim_pickle(_state(vectors=None, __numpys=["vectors"])))
    np.save(tmp_path / "v.kv.vectors.npy", np.array([[1, "x"]], dtype=object), allow_pickle=True)
    with pytest.raises(DataFormatError, match="not a readable .npy"):
        load_embedding(p)


def test_gensim_non_keyedvectors_and_bad_keys(tmp_path):
    p = tmp_path / "list.kv"
    p.write_bytes(pickle.dumps([1, 2, 3]))
    with pytest.raises(DataFormatError, match="not a gensim KeyedVectors"):
        load_embedding(p)
    p = tmp_path / "ints.kv"
    p.write_bytes(fake_gensim_pickle(_state(index_to_key=[0, 1, 2])))
    with pytest.raises(DataFormatError, match="expected words"):
        load_embedding(p)
    p = tmp_path / "cut.kv"
    p.write_bytes(fake_gensim_pickle(_state())[:-40])
    with pytest.raises(DataFormatError, match="not a readable gensim KeyedVectors"):
        load_embedding(p)


def test_real_gensim_files_read_safely_and_trust_runs_code(tmp_path):
    gensim_models = pytest.importorskip("gensim.models")
    kv = gensim_models.KeyedVectors(vector_size=3)
    kv.add_vectors(WORDS, VECS)
    for name, kw in [
        ("p4.kv", {}),
        ("apart.kv", {"sep_limit": 0}),
        ("p2.kv", {"pickle_protocol": 2}),
    ]:
        kv.save(str(tmp_path / name), **kw)
        emb = load_embedding(tmp_path / name)
        assert emb.words.tolist() == WORDS, name
        np.testing.assert_array_equal(emb.vectors, VECS)
    marker = tmp_path / "pwned"
    kv.expandos["x"] = _MakeFolder(marker)
    kv.save(str(tmp_path / "evil.kv"))
    with pytest.raises(UnsafeFileError):
        load_embedding(tmp_path / "evil.kv")
    assert not marker.exists()
    # trust_pickle hands the file to gensim, which runs the payload: the opt-in is real
    emb = load_embedding(tmp_path / "evil.kv", trust_pickle=True)
    assert marker.is_dir() and emb.words.tolist() == WORDS


# --------------------------------------------------------------------------- transformers
def _model_folder(tmp_path, *weights) -> Path:
    folder = tmp_path / "model"
    folder.mkdir()
    (folder / "config.json").write_text('{"model_type": "bert"}')
    for w in weights:
        (folder / w).write_bytes(b"\x80\x04N.")  # a pickle
    return folder


def test_transformer_folder_with_pickle_weights_is_refused(tmp_path):
    from wordgames.embeddings.transformer import check_weights, load_encoder

    folder = _model_folder(tmp_path, "pytorch_model.bin")
    with pytest.raises(UnsafeFileError) as exc:
        load_encoder(folder)
    msg = str(exc.value)
    assert "pytorch_model.bin" in msg and "safetensors" in msg and "trust_pickle=True" in msg
    with pytest.raises(UnsafeFileError):
        load_embedding(f"transformer:{folder}")
    check_weights(folder, trust_pickle=True)  # the explicit opt-in passes the check
    (folder / "model.safetensors").write_bytes(b"")
    check_weights(folder)  # safetensors present: allowed


def test_transformer_folder_without_weights(tmp_path):
    from wordgames.embeddings.transformer import check_weights

    with pytest.raises(WordgamesError, match="holds no model weights"):
        check_weights(_model_folder(tmp_path))


def test_transformer_vocabulary_rejects_control_characters():
    from wordgames.embeddings.transformer import resolve_vocabulary

    with pytest.raises(WordgamesError, match=r"U\+0000"):
        resolve_vocabulary(["king", "qu\x00een"])
    assert resolve_vocabulary(["king", "queen", "king"]) == ["king", "queen"]


def test_gensim_arrays_of_other_layouts(tmp_path):
    p = tmp_path / "f.kv"
    p.write_bytes(fake_gensim_pickle(_state(vectors=np.asfortranarray(VECS.astype(">f8")))))
    emb = load_embedding(p)
    np.testing.assert_array_equal(emb.vectors, VECS)
    p.write_bytes(fake_gensim_pickle(_state(vectors=VECS.astype(np.complex64))))
    with pytest.raises(DataFormatError, match="unsupported array type 'c8'"):
        load_embedding(p)
    p.write_bytes(fake_gensim_pickle(_state(vectors=np.array([[1, "x"]], dtype=object))))
    with pytest.raises(DataFormatError, match="unsupported array type 'O8'"):
        load_embedding(p)


def test_pickle_opcodes_a_keyedvectors_never_uses_are_refused(tmp_path):
    p = tmp_path / "buf.kv"
    # protocol 5: a bytearray made read-only in place (an opcode only out-of-band buffers need)
    p.write_bytes(b"\x80\x05\x96" + (3).to_bytes(8, "little") + b"abc\x98.")
    with pytest.raises(DataFormatError, match="READONLY_BUFFER"):
        load_embedding(p)
    # a length the file does not hold is refused before anything is allocated
    p.write_bytes(b"\x80\x05\x96" + (1 << 62).to_bytes(8, "little") + b"abc.")
    with pytest.raises(DataFormatError, match="only 4 remain"):
        load_embedding(p)


@pytest.mark.parametrize("code", ["f1", "f16", "c8", "O8", "V8", "U4", "i3"])
def test_gensim_array_types_outside_the_plain_numbers_are_refused(tmp_path, code):
    data = fake_gensim_pickle(_state()).replace(b"X\x02\x00\x00\x00f4", b"X\x02\x00\x00\x00xx")
    assert b"X\x02\x00\x00\x00xx" in data  # the dtype code of the vectors, as pickled
    p = tmp_path / "t.kv"
    p.write_bytes(
        data.replace(b"X\x02\x00\x00\x00xx", b"X" + len(code).to_bytes(4, "little") + code.encode())
    )
    with pytest.raises(DataFormatError, match=f"unsupported array type '{code}'"):
        load_embedding(p)


def _peak_rss_mb_of(code: str) -> tuple[str, float]:
    """Run ``code`` in a fresh interpreter; its output and its peak resident memory (MB)."""
    import subprocess
    import sys

    # VmHWM: the peak of this process's own memory (ru_maxrss would count the parent's at fork)
    probe = code + (
        "\nimport re; print(re.search(r'VmHWM:\\s+(\\d+)', open('/proc/self/status').read())[1])"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    *lines, rss = out.stdout.strip().splitlines()
    return "\n".join(lines), int(rss) / 1024


@pytest.mark.parametrize(
    "bomb",
    [
        # 30 bytes: bytearray(2**30) through REDUCE
        b"\x80\x04cbuiltins\nbytearray\nJ\x00\x00\x00\x40\x85R.",
        # 9 bytes: LONG_BINPUT 300,000,000 (the C unpickler sizes its memo by the index)
        b"\x80\x04Nr" + (300_000_000).to_bytes(4, "little") + b".",
    ],
    ids=["bytearray", "long-binput"],
)
def test_gensim_memory_bombs_are_refused_within_the_file_size(tmp_path, bomb):
    """Issue 22, item 3: each took 4.77 GB; refused now, in the memory of an empty load."""
    path = tmp_path / "bomb.kv"
    path.write_bytes(bomb)
    code = (
        "from wordgames.embeddings.gensim_safe import read_keyedvectors\n"
        "from wordgames.errors import DataFormatError\n"
        "try:\n"
        f"    read_keyedvectors({str(path)!r})\n"
        "except DataFormatError as exc:\n"
        "    print('refused:', exc)\n"
    )
    out, peak = _peak_rss_mb_of(code)
    assert out.startswith("refused:") and "bomb.kv" in out, out
    assert "memory the file does not hold" in out
    assert peak < 400, f"peak {peak:.0f} MB"


@pytest.mark.parametrize("kind", ["device", "fifo"])
@pytest.mark.slow
def test_a_device_or_a_pipe_is_refused_at_once(tmp_path, kind):
    """Issue 22, item 13: /dev/zero or a FIFO given as an embedding hung for ever."""
    import subprocess
    import sys

    if kind == "device":
        path = Path("/dev/zero")
    else:
        path = tmp_path / "pipe.vec"
        os.mkfifo(path)
    with pytest.raises(DataFormatError, match="not a regular file"):
        load_embedding(path)
    # and from the command line, within a bounded time
    out = subprocess.run(
        [sys.executable, "-m", "wordgames", "similarity", "evaluate", "-e", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2 and "not a regular file" in out.stderr, out.stderr
