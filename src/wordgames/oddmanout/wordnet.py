"""WordNet 3.0 through nltk: finding it, the missing ``lexnames`` file, and the taxonomy.

Where WordNet comes from (first found wins, recorded in results):

1. the ``root`` argument (``--wordnet`` on the command line);
2. the environment variable ``WORDGAMES_WORDNET`` (a folder with ``data.noun``, ...);
3. the user's own nltk WordNet (``nltk.download("wordnet")``: ``nltk_data/corpora/wordnet``);
4. Debian/Ubuntu ``wordnet-base`` in ``/usr/share/wordnet``.

nltk's reader needs a ``lexnames`` file (the 45 lexicographer file names) which Debian does
not ship. :func:`ensure_lexnames` writes it beside the data files when asked to
(``in_place=True``, as root: ``wordgames oddmanout wordnet-setup --in-place``); otherwise it
makes a private copy of the data files plus ``lexnames`` under the cache folder
(``$WORDGAMES_CACHE/nltk_data/corpora/wordnet``, about 30 MB, once). nltk 3.9+ refuses
symbolic and hard links that leave its data roots, so the copy has to be a real copy.

The hypernym graph is read straight from the ``data.noun`` / ``data.verb`` files through the
reader's own ``open`` (so a zipped nltk WordNet works too): that takes about a second, where
walking 117,659 synsets through nltk's objects takes over ten.
"""

from __future__ import annotations

import os
import shutil
import warnings
from functools import cache
from pathlib import Path

import numpy as np

from wordgames.errors import DatasetMissingError, WordgamesError
from wordgames.oddmanout.taxonomy import Taxonomy, distinct_labels_below, first_edges

DEBIAN_ROOT = Path("/usr/share/wordnet")
ENV = "WORDGAMES_WORDNET"

#: The 45 lexicographer files of WordNet 3.0, numbered 00-44 (``lexnames(5WN)``).
LEXNAMES = (
    "adj.all",
    "adj.pert",
    "adv.all",
    "noun.Tops",
    "noun.act",
    "noun.animal",
    "noun.artifact",
    "noun.attribute",
    "noun.body",
    "noun.cognition",
    "noun.communication",
    "noun.event",
    "noun.feeling",
    "noun.food",
    "noun.group",
    "noun.location",
    "noun.motive",
    "noun.object",
    "noun.person",
    "noun.phenomenon",
    "noun.plant",
    "noun.possession",
    "noun.process",
    "noun.quantity",
    "noun.relation",
    "noun.shape",
    "noun.state",
    "noun.substance",
    "noun.time",
    "verb.body",
    "verb.change",
    "verb.cognition",
    "verb.communication",
    "verb.competition",
    "verb.consumption",
    "verb.contact",
    "verb.creation",
    "verb.emotion",
    "verb.motion",
    "verb.perception",
    "verb.possession",
    "verb.social",
    "verb.stative",
    "verb.weather",
    "adj.ppl",
)
_SYNTACTIC_CATEGORY = {"adj": 3, "adv": 4, "noun": 1, "verb": 2}
_DATA_FILES = (
    "data.noun",
    "data.verb",
    "data.adj",
    "data.adv",
    "index.noun",
    "index.verb",
    "index.adj",
    "index.adv",
    "noun.exc",
    "verb.exc",
    "adj.exc",
    "adv.exc",
)
_OPTIONAL_FILES = ("cntlist.rev", "index.sense", "LICENSE", "README", "citation.bib")


def lexnames_text() -> str:
    r"""The content of WordNet's ``lexnames`` file: ``NN<tab>name<tab>category`` lines.

    >>> lexnames_text().splitlines()[5]
    '05\tnoun.animal\t1'
    """
    return "".join(
        f"{i:02d}\t{name}\t{_SYNTACTIC_CATEGORY[name.split('.')[0]]}\n"
        for i, name in enumerate(LEXNAMES)
    )


def _cache_dir() -> Path:
    return Path(os.environ.get("WORDGAMES_CACHE", Path.home() / ".cache" / "wordgames"))


def ensure_lexnames(
    root: str | Path = DEBIAN_ROOT, *, in_place: bool = False, cache: str | Path | None = None
) -> Path:
    """A WordNet folder that nltk can read.

    ``root`` itself when it has ``lexnames`` (or ``in_place`` and it is writable), else a private
    copy with ``lexnames`` added.

    Returns the folder to give :func:`load_wordnet`.
    """
    root = Path(root)
    missing = [f for f in _DATA_FILES if not (root / f).is_file()]
    if missing:
        raise DatasetMissingError(
            f"{root} is not a WordNet database folder (missing {missing[0]}). Install WordNet "
            "3.0: 'apt-get install wordnet-base' (Debian/Ubuntu) or python -c \"import nltk; "
            "nltk.download('wordnet')\", or set WORDGAMES_WORDNET to the folder"
        )
    if (root / "lexnames").is_file():
        return root
    if in_place:
        try:
            (root / "lexnames").write_text(lexnames_text(), encoding="ascii")
        except OSError as exc:
            raise WordgamesError(
                f"cannot write {root / 'lexnames'} ({exc}); run as root or "
                "drop --in-place to use a private copy"
            ) from None
        return root
    target = (
        Path(cache) if cache is not None else _cache_dir() / "nltk_data" / "corpora" / "wordnet"
    )
    target.mkdir(parents=True, exist_ok=True)
    for name in _DATA_FILES + _OPTIONAL_FILES:
        src, dst = root / name, target / name
        if src.is_file() and (not dst.is_file() or dst.stat().st_size != src.stat().st_size):
            tmp = dst.with_name(f".{name}.{os.getpid()}.tmp")
            shutil.copyfile(src, tmp)
            os.replace(tmp, dst)
    (target / "lexnames").write_text(lexnames_text(), encoding="ascii")
    return target


def _reader_class():
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    class PlainWordNetReader(WordNetCorpusReader):
        """nltk's reader without the WordNet-3.0 sense-key remapping.

        The remapping needs ``index.sense`` from nltk's own download, which a system WordNet lacks;
        only multilingual OMW data uses it.
        """

        def map_wn(self, version="wordnet"):
            return None

    return PlainWordNetReader


@cache
def _load(root: str | None):
    import nltk

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "multilingual functions are not available"
        if root is None:  # the user's own nltk data (a folder or nltk's zip)
            return _reader_class()(nltk.data.find("corpora/wordnet"), None)
        if root not in [str(p) for p in nltk.data.path]:
            nltk.data.path.append(root)  # nltk 3.9+ only opens files under its data path
        return _reader_class()(root, None)


def wordnet_source(root: str | Path | None = None) -> str:
    """Which WordNet :func:`load_wordnet` would use: a folder, or ``"nltk"``."""
    if root is not None:
        return str(root)
    if os.environ.get(ENV):
        return os.environ[ENV]
    try:
        import nltk

        nltk.data.find("corpora/wordnet")
        return "nltk"
    except LookupError:
        pass
    return str(DEBIAN_ROOT)


def load_wordnet(root: str | Path | None = None):
    """An nltk WordNet reader (cached per process); see the module doc for the search order."""
    src = wordnet_source(root)
    if src == "nltk":
        return _load(None)
    folder = ensure_lexnames(src)
    return _load(str(folder.resolve()))


def _parse_pointers(
    stream, pos: str, symbols=("@", "@i")
) -> tuple[list[int], list[int], list[int], list[str]]:
    """Offsets, hypernym edges (child offset, parent offset) and lemmas of one data file."""
    offsets, child, parent, lemmas_v, lemmas = [], [], [], [], []
    for raw in stream:
        line = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        if line.startswith("  "):
            continue  # licence header
        f = line.split(" | ", 1)[0].split()
        off = int(f[0])
        n_words = int(f[3], 16)
        offsets.append(off)
        for i in range(n_words):
            lemmas.append(f[4 + 2 * i])
            lemmas_v.append(off)
        p = 4 + 2 * n_words
        n_ptr = int(f[p])
        for i in range(n_ptr):
            sym, target, tpos = f[p + 1 + 4 * i], f[p + 2 + 4 * i], f[p + 3 + 4 * i]
            if sym in symbols and tpos == pos:
                child.append(off)
                parent.append(int(target))
    return offsets, child, parent, (lemmas, lemmas_v)


_POS_FILES = {"n": "data.noun", "v": "data.verb", "a": "data.adj", "r": "data.adv"}


def _read_synsets(tax, wn, parts: str, kinds: tuple[str, ...]):
    """Read the ``data.*`` files of the parts of speech ``parts`` (e.g. ``"nv"``).

    Sets ``tax.wn``, ``tax._ids`` ((pos, offset) -> vertex), ``tax._pos`` and ``tax._off``;
    returns ``ids``, the child and parent vertices of the pointer ``kinds`` and the lemma
    strings with their vertices.
    """
    ids: dict[tuple[str, int], int] = {}
    ch, pa, pos_l, off_l, lw, lv = [], [], [], [], [], []
    for pos in parts:
        with wn.open(_POS_FILES[pos]) as fh:
            offsets, child, parent, (lemmas, lemma_off) = _parse_pointers(fh, pos, kinds)
        base = len(ids)
        ids.update({(pos, o): base + i for i, o in enumerate(offsets)})
        pos_l.extend([pos] * len(offsets))
        off_l.extend(offsets)
        ch.extend(ids[(pos, o)] for o in child)
        pa.extend(ids[(pos, o)] for o in parent)
        lw.extend(lemmas)
        lv.extend(ids[(pos, o)] for o in lemma_off)
    tax.wn, tax._ids = wn, ids
    tax._pos = np.asarray(pos_l, dtype=object)
    tax._off = np.asarray(off_l, dtype=np.int64)
    return ids, ch, pa, lw, lv


class WordNetTaxonomy(Taxonomy):
    """WordNet's noun and verb hypernym DAG as a :class:`Taxonomy`.

    Vertices are synsets; a word is matched to its synsets by nltk's ``synsets()`` (which
    lemmatises with morphy; spaces become ``_``). ``instances=False`` (default) follows only
    hypernym edges, not instance hypernyms, as nltk's ``hypernyms()`` (the published solver
    follows only the first of them: :class:`PublishedWordNetTaxonomy`); ``True`` also
    follows instance-hypernym edges (``Egypt`` -> ``country``), which lets the solver answer
    many proper-noun puzzles the paper's solver could not (1 of 202 in the paper).
    """

    def __init__(self, wn, *, instances: bool = False, name: str = "wordnet"):
        ids, ch, pa, lw, lv = _read_synsets(self, wn, "nv", ("@", "@i") if instances else ("@",))
        super().__init__(len(ids), ch, pa, lw, lv, name=name)
        self._names = None
        self.version = str(wn.get_version())
        self.instances = instances

    def vertices_of(self, word: str) -> list[int]:
        key = "_".join(word.split())
        ids = self._ids
        return [
            ids[(s.pos(), s.offset())] for s in self.wn.synsets(key) if (s.pos(), s.offset()) in ids
        ]

    def vertex_name(self, v: int) -> str:
        return self.wn.synset_from_pos_and_offset(self._pos[v], int(self._off[v])).name()


def _first_hypernyms(wn, pos: np.ndarray, off: np.ndarray, child, parent):
    """One hypernym edge per synset: the hypernym whose name sorts first (nltk 3.4.5's order).

    nltk 3.4.5 sorted ``hypernyms()`` by synset name; nltk 3.10 returns them in the order of a
    set of ``(pos, offset)`` tuples, which changes with ``PYTHONHASHSEED``. Names are looked up
    only for the hypernyms of synsets that have several (about 2,300 edges).
    """
    child, parent = np.asarray(child, np.int64), np.asarray(parent, np.int64)
    n_hyper = np.bincount(child, minlength=len(pos))
    several = n_hyper[child] > 1
    key = np.full(len(child), "", dtype=object)
    key[several] = [
        wn.synset_from_pos_and_offset(pos[v], int(off[v])).name() for v in parent[several].tolist()
    ]
    return first_edges(child, parent, key)


class PublishedWordNetTaxonomy(Taxonomy):
    """WordNet as the published solver (``Mark-Hopkins-at-Reed/oddoneout``) walks it.

    Reproduces its answers puzzle for puzzle (its own test: 38 correct, 14 wrong, 50 abstained
    on AnomiaCommon test). It differs from :class:`WordNetTaxonomy` in three ways:

    * a word's ancestors follow only the *first* hypernym of each synset at each step (first
      by synset name, as nltk 3.4.5 sorted them), from every synset of the word;
    * the size of a synset is the number of distinct lemma strings (``Granny_Smith``,
      case-sensitive) of its strict hyponym closure over *all* hyponym edges, so a synset
      without hyponyms has size 0 (specificity infinite; the published code divides by zero
      there, which no published puzzle reaches);
    * words are matched to synsets of every part of speech (adjective and adverb synsets are
      vertices without edges) by nltk's ``synsets(word)`` as written: spaces are *not* mapped
      to ``_``, so a multi-word answer is out of vocabulary.

    With :class:`TaxonomySolver` ``missing="root"`` (a word without explanation gets the
    specificity of ``entity.n.01``, 104,999 lemmas) this is the published solver.
    """

    def __init__(self, wn, *, name: str = "wordnet-published"):
        ids, ch, pa, lw, lv = _read_synsets(self, wn, "nvar", ("@",))
        first_child, first_parent = _first_hypernyms(wn, self._pos, self._off, ch, pa)
        sizes = distinct_labels_below(len(ids), ch, pa, lw, lv)
        super().__init__(len(ids), first_child, first_parent, name=name, sizes=sizes)
        self._names = None
        self.version = str(wn.get_version())
        self.instances = False

    def vertices_of(self, word: str) -> list[int]:
        ids = self._ids
        keys = [("a" if s.pos() == "s" else s.pos(), s.offset()) for s in self.wn.synsets(word)]
        return [ids[k] for k in keys if k in ids]

    def vertex_name(self, v: int) -> str:
        return self.wn.synset_from_pos_and_offset(self._pos[v], int(self._off[v])).name()


@cache
def _taxonomy(source: str, instances: bool) -> WordNetTaxonomy:
    wn = load_wordnet(None if source == "nltk" else source)
    tax = WordNetTaxonomy(
        wn,
        instances=instances,
        name=f"wordnet-{wn.get_version()}" + ("+instances" if instances else ""),
    )
    tax.descendant_counts()  # the closure, once
    return tax


def wordnet_taxonomy(root: str | Path | None = None, *, instances: bool = False) -> WordNetTaxonomy:
    """WordNet as a taxonomy, built once per process (about 1-3 s)."""
    return _taxonomy(wordnet_source(root), instances)


@cache
def _published_taxonomy(source: str) -> PublishedWordNetTaxonomy:
    wn = load_wordnet(None if source == "nltk" else source)
    tax = PublishedWordNetTaxonomy(wn, name=f"wordnet-{wn.get_version()}-published")
    tax.closure  # noqa: B018  (the closure, once)
    return tax


def published_wordnet_taxonomy(root: str | Path | None = None) -> PublishedWordNetTaxonomy:
    """WordNet as the published solver walks it, built once per process."""
    return _published_taxonomy(wordnet_source(root))


def wordnet_solver(
    root: str | Path | None = None,
    *,
    mode: str = "ours",
    instances: bool = False,
    missing: str = "least-specific",
):
    """The WordNet solver of a mode of :data:`wordgames.oddmanout.spec.WORDNET_MODES`.

    ``"ours"``: :class:`WordNetTaxonomy` with ``instances`` and ``missing``; ``"published"``:
    :class:`PublishedWordNetTaxonomy` with ``missing="root"`` (then ``instances`` and a
    ``missing`` other than the default are errors: they would be ignored).
    """
    from wordgames.oddmanout.spec import WORDNET_MODES
    from wordgames.oddmanout.taxonomy import TaxonomySolver

    if mode not in WORDNET_MODES:
        raise WordgamesError(f"wordnet mode must be one of {WORDNET_MODES}, got {mode!r}")
    if mode == "ours":
        return TaxonomySolver(wordnet_taxonomy(root, instances=instances), missing=missing)
    given = [
        f for f, bad in (("instances", instances), ("missing", missing != "least-specific")) if bad
    ]
    if given:
        raise WordgamesError(
            f"{', '.join(given)}: not used by the published WordNet solver "
            "(it follows no instance hypernyms and gives a word without explanation the root's "
            "specificity); drop them or use the mode 'ours'"
        )
    return TaxonomySolver(published_wordnet_taxonomy(root), missing="root")


def gloss_corpus(root: str | Path | None = None) -> list[str]:
    """WordNet's glosses as a corpus: one line a synset, ``"lemma, lemma: gloss"``.

    Every synset of the four data files (117,659 lines for WordNet 3.0); ``_`` in lemmas
    becomes a space and adjective markers such as ``(p)`` are dropped. The lemmas lead each
    line, so every word occurs once per synset in a context that defines that sense: the offline
    corpus of ``wordgames oddmanout k-sweep``.
    """
    import re

    wn = load_wordnet(root)
    marker = re.compile(r"\([a-z]+\)$")
    out: list[str] = []
    for fname in ("data.noun", "data.verb", "data.adj", "data.adv"):
        with wn.open(fname) as fh:
            for raw in fh:  # a file reader: one line a synset
                line = raw.decode("utf-8") if isinstance(raw, bytes) else raw
                if line.startswith("  ") or " | " not in line:
                    continue
                head, gloss = line.split(" | ", 1)
                f = head.split()
                n_words = int(f[3], 16)
                lemmas = dict.fromkeys(
                    marker.sub("", f[4 + 2 * i]).replace("_", " ") for i in range(n_words)
                )
                out.append(f"{', '.join(lemmas)}: {gloss.strip()}")
    return out


def sense_counts(words, root: str | Path | None = None) -> np.ndarray:
    """Number of WordNet synsets (all parts of speech) of each word: its polysemy."""
    wn = load_wordnet(root)
    return np.fromiter(
        (len(wn.synsets("_".join(w.split()))) for w in words), dtype=np.int64, count=len(words)
    )
