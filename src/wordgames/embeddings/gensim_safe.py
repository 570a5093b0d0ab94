"""gensim ``KeyedVectors`` files read without running code from them.

``KeyedVectors.save`` writes a pickle, and unpickling calls whatever the file names: a crafted
``.kv`` file runs any code it likes under gensim's ``KeyedVectors.load``. This module reads
such files through a restricted unpickler instead: the gensim classes a ``KeyedVectors``
pickle names are replaced by inert stubs that only keep their state, numpy arrays and dtypes
too (an array is made by ``np.frombuffer`` from a copy of its bytes once its size is checked:
numpy's own unpickling code never sees the file), plain containers are allowed, and anything else (``os.system``,
``subprocess.Popen``, ``builtins.eval``...) is refused with an
:class:`~wordgames.errors.UnsafeFileError` naming the file and the refused global, before it
is called. gensim itself is not needed. Arrays gensim stored beside the pickle
(``NAME.kv.vectors.npy``) are read with ``np.load(allow_pickle=False)``.

Read: gensim 4 ``KeyedVectors`` (``index_to_key`` + ``vectors``) and gensim 3
``Word2VecKeyedVectors`` (``index2word`` or ``vocab`` + ``vectors``/``syn0``). Whole models
(``Word2Vec``, ``FastText``) hold a random generator and are refused: save their ``.wv``, or
load them with ``trust_pickle=True`` if you trust the file.
"""

from __future__ import annotations

import copyreg
import io
import math
import pickle
import pickletools
import re
import warnings
from functools import cache
from pathlib import Path

import numpy as np

from wordgames.errors import DataFormatError, UnsafeFileError

_KV_CLASSES = {
    ("gensim.models.keyedvectors", "KeyedVectors"),
    ("gensim.models.keyedvectors", "Word2VecKeyedVectors"),
    ("gensim.models.keyedvectors", "EuclideanKeyedVectors"),
    ("gensim.models.keyedvectors", "BaseKeyedVectors"),
    ("gensim.models.keyedvectors", "WordEmbeddingsKeyedVectors"),
    ("gensim.models.keyedvectors", "FastTextKeyedVectors"),
    ("gensim.models.fasttext", "FastTextKeyedVectors"),
    ("gensim.models.keyedvectors", "Vocab"),
    ("gensim.models.keyedvectors", "CompatVocab"),
}
_BUILTINS = {
    "dict", "list", "tuple", "set", "frozenset", "int", "float", "str", "bytes", "bytearray",
    "bool", "object",
}  # fmt: skip
_COLLECTIONS = {"OrderedDict", "defaultdict"}
_NUMPY_MODULES = {"numpy.core.multiarray", "numpy._core.multiarray"}
_NUMERIC_MODULES = {"numpy.core.numeric", "numpy._core.numeric"}


class _Refused(pickle.UnpicklingError):
    """A global the restricted unpickler will not hand out."""


class _Stub:
    """Stands in for a gensim class while unpickling: keeps the state, runs nothing."""

    gensim_class = ""

    def __init__(self, *args, **kwargs):
        self.__dict__["_state"] = {}

    def __setstate__(self, state):
        if isinstance(state, tuple) and len(state) == 2:  # (dict, slot state)
            merged = {}
            for part in state:
                if isinstance(part, dict):
                    merged.update(part)
            state = merged
        self.__dict__["_state"] = state if isinstance(state, dict) else {}

    def __setattr__(self, key, value):  # protocol 0/1 pickles set the state attribute by attribute
        self.__dict__.setdefault("_state", {})[key] = value

    @property
    def state(self) -> dict:
        return self.__dict__.get("_state", {})


@cache
def _stub(module: str, name: str) -> type:
    return type(name, (_Stub,), {"gensim_class": f"{module}.{name}"})


_DTYPE_CODES = re.compile(r"f[248]|[iu][1248]|b1")


class _NdarrayName:
    """``numpy.ndarray`` as a pickle names it: only ever compared, never called."""

    def __init__(self, *args, **kwargs):
        raise pickle.UnpicklingError("numpy.ndarray cannot be called here")


class _DtypeStub:
    """Stands in for ``numpy.dtype`` while unpickling: keeps the type code and byte order."""

    def __init__(self, code=None, align=False, copy=False):
        self.code, self.order = code, "="

    def __setstate__(self, state):
        if isinstance(state, tuple) and len(state) > 1 and state[1] in ("<", ">", "|", "="):
            self.order = state[1]

    def resolve(self) -> np.dtype:
        """The numpy dtype: real or integer numbers only (``ValueError`` for anything else)."""
        if not isinstance(self.code, str) or not _DTYPE_CODES.fullmatch(self.code):
            raise ValueError(f"unsupported array type {self.code!r}")
        try:
            dtype = np.dtype(self.code)
        except TypeError as exc:  # pragma: no cover - the pattern admits only numpy's codes
            raise ValueError(f"unsupported array type {self.code!r}") from exc
        return dtype if self.order in "|=" else dtype.newbyteorder(self.order)


class _ArrayStub:
    """Stands in for a pickled ndarray: keeps its shape, type and bytes until :meth:`array`.

    numpy's own unpickling code never sees the file's data: the array is made by
    ``np.frombuffer`` from a copy of the bytes, after the sizes are checked.
    """

    def __init__(self, state=None):
        self.state = state

    def __setstate__(self, state):
        self.state = state

    def array(self) -> np.ndarray:
        """The array, or ``ValueError`` saying why the pickled state is not a plain array."""
        state = self.state
        if not isinstance(state, tuple) or len(state) not in (4, 5):
            raise ValueError("not the state of a numpy array")
        shape, dtype, fortran, raw = state[-4:]
        if not isinstance(dtype, _DtypeStub):
            raise ValueError("the array has no numpy dtype")
        dtype = dtype.resolve()
        if not isinstance(shape, tuple) or not all(
            isinstance(k, int) and not isinstance(k, bool) and k >= 0 for k in shape
        ):
            raise ValueError(f"bad array shape {shape!r}")
        if not isinstance(raw, bytes | bytearray):
            raise ValueError(f"the array's data is {type(raw).__name__}, not bytes")
        if math.prod(shape) * dtype.itemsize != len(raw):
            raise ValueError(f"{len(raw)} bytes of data for an array of shape {shape} of {dtype}")
        return np.frombuffer(bytes(raw), dtype=dtype).reshape(shape, order="F" if fortran else "C")


def _reconstruct(subtype, shape, dtype):
    """Stand-in for numpy's ``_reconstruct``: an :class:`_ArrayStub` the pickle's state fills."""
    if subtype is not _NdarrayName:
        raise pickle.UnpicklingError("only plain numpy arrays are allowed")
    return _ArrayStub()


def _frombuffer(buf, dtype, shape, order):
    """Stand-in for numpy's ``_frombuffer`` (protocol 5 arrays): an :class:`_ArrayStub`."""
    return _ArrayStub((shape, dtype, order == "F", buf))


def _scalar(dtype, data=None):
    """Stand-in for numpy's ``scalar``: a number from its bytes (real and integer types only)."""
    if not isinstance(dtype, _DtypeStub) or not isinstance(data, bytes):
        raise pickle.UnpicklingError("only plain numpy scalars are allowed")
    dtype = dtype.resolve()
    if len(data) != dtype.itemsize:
        raise pickle.UnpicklingError("a numpy scalar of the wrong size")
    return np.frombuffer(data, dtype=dtype)[0].item()


def _latin1_bytes(text, encoding="latin1"):
    """Bytes of a protocol 0-2 pickle (``_codecs.encode(text, "latin1")``); nothing else."""
    if not isinstance(text, str) or encoding not in ("latin1", "latin-1"):
        raise pickle.UnpicklingError("unexpected _codecs.encode call")
    return text.encode("latin-1")


def _no_size(name: str):
    """``bytes`` or ``bytearray`` from data only, never from a size.

    ``bytearray(N)`` would allocate N bytes that the file does not hold (a 38-byte pickle
    asking for gigabytes).
    """
    import builtins

    kind = getattr(builtins, name)

    def make(*args):
        if args and isinstance(args[0], int):
            raise pickle.UnpicklingError(
                f"{name}({args[0]!r}) allocates memory the file does not hold"
            )
        return kind(*args)

    return make


class KeyedVectorsUnpickler(pickle.Unpickler):
    """An unpickler that hands out only what a gensim ``KeyedVectors`` pickle needs."""

    def find_class(self, module: str, name: str):
        module = {"copy_reg": "copyreg", "__builtin__": "builtins"}.get(module, module)
        if (module, name) in _KV_CLASSES:
            return _stub(module, name)
        if module == "builtins" and name in ("bytes", "bytearray"):
            return _no_size(name)
        if module == "builtins" and name in _BUILTINS:
            import builtins

            return getattr(builtins, name)
        if module == "collections" and name in _COLLECTIONS:
            import collections

            return getattr(collections, name)
        if (module, name) == ("_codecs", "encode"):
            return _latin1_bytes
        if (module, name) == ("copyreg", "_reconstructor"):
            return copyreg._reconstructor
        if (module, name) == ("numpy", "ndarray"):
            return _NdarrayName
        if (module, name) == ("numpy", "dtype"):
            return _DtypeStub
        if module in _NUMPY_MODULES and name == "_reconstruct":
            return _reconstruct
        if module in _NUMPY_MODULES and name == "scalar":
            return _scalar
        if module in _NUMERIC_MODULES and name == "_frombuffer":
            return _frombuffer
        where = f"{module}.{name}"
        raise _Refused(where if where.isprintable() else repr(where))


#: opcodes a KeyedVectors pickle never holds: out-of-band buffers, persistent ids, extensions
_UNUSED_OPCODES = {"NEXT_BUFFER", "READONLY_BUFFER", "PERSID", "BINPERSID", "EXT1", "EXT2", "EXT4"}


def _prescan(path: Path, data: bytes) -> None:
    """Walk the opcodes first (pure Python): every length fits the file, no unused opcode.

    So the C unpickler never allocates for a length the file does not hold.
    """
    try:
        with warnings.catch_warnings():  # pickletools warns about odd escapes in old strings
            warnings.simplefilter("ignore")
            unused = next(
                (
                    (op.name, pos)
                    for op, arg, pos in pickletools.genops(data)
                    if op.name in _UNUSED_OPCODES or _memo_too_far(op.name, arg, len(data))
                ),
                None,
            )
    except Exception as exc:  # noqa: BLE001 - pickletools raises several kinds
        raise DataFormatError(
            path, None, f"not a readable gensim KeyedVectors pickle ({exc})"
        ) from None
    if unused and unused[0] in _PUT_OPCODES:
        raise DataFormatError(
            path,
            None,
            f"{unused[0]} at byte {unused[1]} names a memo slot beyond the pickle's size: the "
            "unpickler would allocate memory the file does not hold",
        )
    if unused:
        raise DataFormatError(
            path,
            None,
            f"the pickle uses {unused[0]} (byte {unused[1]}), which a gensim KeyedVectors never does",
        )


_PUT_OPCODES = {"PUT", "BINPUT", "LONG_BINPUT", "GET", "BINGET", "LONG_BINGET"}


def _memo_too_far(name: str, arg, size: int) -> bool:
    """A memo index larger than the pickle (the C unpickler sizes its memo by the index)."""
    if name not in _PUT_OPCODES:
        return False
    try:
        return int(arg) > size
    except (TypeError, ValueError):
        return True


def _unpickle(path: Path):
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise DataFormatError(path, None, f"cannot read the file ({exc.strerror})") from None
    _prescan(path, data)
    try:
        return KeyedVectorsUnpickler(io.BytesIO(data)).load()
    except _Refused as exc:
        raise UnsafeFileError(
            path,
            None,
            f"refusing to load it: the pickle asks for {exc}, which a gensim KeyedVectors does "
            "not need and which could run code. If you made the file yourself or trust its "
            "source, load it with trust_pickle=True (wordgames --trust-pickle)",
        ) from None
    except Exception as exc:  # noqa: BLE001 - only inert stubs and plain containers were made
        raise DataFormatError(
            path, None, f"not a readable gensim KeyedVectors pickle ({type(exc).__name__}: {exc})"
        ) from None


def _words_of(path: Path, state: dict) -> list[str]:
    words = state.get("index_to_key")
    if words is None:
        words = state.get("index2word", state.get("index2entity"))
    if words is None and isinstance(state.get("vocab"), dict):
        pairs = []
        for word, entry in state["vocab"].items():
            index = entry.state.get("index") if isinstance(entry, _Stub) else None
            if not isinstance(index, int | np.integer):
                raise DataFormatError(path, None, f"the vocabulary entry of {word!r} has no index")
            pairs.append((int(index), word))
        words = [w for _, w in sorted(pairs, key=lambda p: p[0])]
    if not isinstance(words, list | tuple):
        raise DataFormatError(
            path, None, "no word list (index_to_key, index2word or vocab) in the KeyedVectors"
        )
    for i, w in enumerate(words):
        if not isinstance(w, str):
            raise DataFormatError(
                path, None, f"key {i} is {type(w).__name__} {w!r}; expected words (str)"
            )
    return list(words)


def _vectors_of(path: Path, state: dict) -> np.ndarray:
    numpys = state.get("__numpys", [])
    for attr in ("vectors", "syn0"):
        value = state.get(attr)
        if isinstance(value, _ArrayStub):
            try:
                return value.array()
            except (ValueError, TypeError) as exc:
                raise DataFormatError(path, None, f"the '{attr}' array is damaged: {exc}") from None
        if isinstance(numpys, list) and attr in numpys:
            side = Path(f"{path}.{attr}.npy")  # only this fixed name: the pickle chooses no path
            try:
                with warnings.catch_warnings():  # numpy warns about odd headers: the error says it
                    warnings.simplefilter("ignore")
                    return np.load(side, mmap_mode="r", allow_pickle=False)
            except FileNotFoundError:
                raise DataFormatError(
                    side, None, "missing: gensim stored the vectors here"
                ) from None
            except Exception as exc:  # noqa: BLE001 - numpy's header parser raises many kinds
                raise DataFormatError(side, None, f"not a readable .npy file ({exc})") from None
    raise DataFormatError(path, None, "no vectors in the KeyedVectors (no 'vectors' array)")


def read_keyedvectors(path: str | Path) -> tuple[list[str], np.ndarray]:
    """The words and matrix of a gensim ``KeyedVectors`` file, read without running code.

    Raises :class:`~wordgames.errors.UnsafeFileError` for a pickle that names anything but
    the classes of a ``KeyedVectors`` and :class:`~wordgames.errors.DataFormatError` for one
    that is not a readable ``KeyedVectors``. The matrix may have more rows than there are
    words (gensim preallocates); the caller keeps the first ones.
    """
    path = Path(path)
    obj = _unpickle(path)
    if not isinstance(obj, _Stub) or obj.gensim_class.endswith("Vocab"):
        found = obj.gensim_class if isinstance(obj, _Stub) else type(obj).__name__
        raise DataFormatError(path, None, f"holds a {found}, not a gensim KeyedVectors")
    state = obj.state
    return _words_of(path, state), _vectors_of(path, state)
