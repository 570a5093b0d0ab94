"""Error analysis of paper section 5.2: polysemy of the wrong answers, and substitutions.

* :func:`polysemy_of_errors`: are the words a solver wrongly picks more polysemous (more
  WordNet synsets) than the other words of their puzzles? (Table 4 and "20 of 27 incorrect
  answers were polysemous").
* :func:`substitution_experiment`: the paper's controlled test: replace one word of a puzzle by
  monosemous and by polysemous alternatives of the same category and count how often the
  solver then picks the replacement (the "cocktails" puzzle: :data:`COCKTAILS`).
* :func:`sister_substitutions`: the same test made automatic and seeded over a whole set, with
  WordNet sister terms (co-hyponyms) of a puzzle word as the alternatives.
* :func:`error_concentration`: do a few words cause most of the wrong answers? (HYPERNYMS500:
  "only 3 words are responsible for 67% of the incorrect answers").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from wordgames.oddmanout.embedding_solver import Solution, factorize_words
from wordgames.oddmanout.puzzles import PuzzleSet

#: The paper's cocktail experiment (section 5.2): "screwdriver" is replaced in turn.
COCKTAILS = {
    "odd": "chicken",
    "others": ["screwdriver", "margarita", "mimosa", "daiquiri"],
    "target": "screwdriver",
    "monosemous": ["mint julep", "mai tai", "mojito", "martini", "bloody mary"],
    "polysemous": ["old fashioned", "hurricane", "cosmopolitan", "zombie", "Manhattan"],
}

#: The paper's "groups of animals" puzzle (Table 2, section 5.2), "school" replaced in turn. The
#: paper does not list its replacements; these are chosen by WordNet 3.0 sense counts (all parts
#: of speech): "monosemous" collective nouns have at most 2 synsets, both groups (gaggle, covey,
#: bevy: 2; clowder, gam: 1), "polysemous" ones at least 4, the animal group not the first
#: (pride, pod, colony: 6; clutch: 10; exaltation: 4).
ANIMAL_GROUPS = {
    "odd": "canoe",
    "others": ["school", "flock", "herd", "pack"],
    "target": "school",
    "monosemous": ["gaggle", "covey", "bevy", "clowder", "gam"],
    "polysemous": ["pride", "pod", "colony", "clutch", "exaltation"],
}

#: The substitution experiments of section 5.2, by name.
SUBSTITUTIONS = {"cocktails": COCKTAILS, "animals": ANIMAL_GROUPS}


def error_concentration(puzzles: PuzzleSet, solution: Solution, *, top: int = 3) -> dict:
    """How concentrated the wrong answers are on a few words (paper section 5.2, HYPERNYMS500).

    Counts, over the wrongly answered puzzles, how often each word was the (wrong) choice.
    ``top_share`` is the share of wrong answers whose chosen word is one of the ``top`` most
    frequent ones; ``even_share`` is what it would be if the wrong answers were spread evenly
    over every word that could be a wrong answer (the distinct non-answer words of the set):
    ``top / possible`` (the paper: 3 of 100 words, 67 % of the errors, against 3 %).

    >>> ps = PuzzleSet.from_odd_first("t", [["x", "saw", "b", "c", "d"], ["y", "saw", "e", "f", "g"],
    ...                                     ["z", "h", "i", "j", "k"]], seed=None)
    >>> choice = [row.index(w) for row, w in zip(ps.words.tolist(), ["saw", "saw", "h"])]
    >>> sol = Solution("toy", np.array(choice), np.full(3, "", dtype=object), np.zeros((3, 5)))
    >>> e = error_concentration(ps, sol, top=1)
    >>> e["n_wrong"], e["top_words"], e["top_share"], e["possible"], round(e["even_share"], 3)
    (3, [('saw', 2)], 0.6666666666666666, 11, 0.091)
    """
    P, n = puzzles.words.shape
    wrong = np.flatnonzero((solution.choice >= 0) & (solution.choice != puzzles.answer))
    chosen = puzzles.words[wrong, solution.choice[wrong]]
    words, codes = factorize_words(chosen)
    counts = np.bincount(codes, minlength=len(words)) if len(wrong) else np.zeros(0, np.int64)
    order = np.lexsort((np.asarray(words, dtype=str), -counts))[:top]
    not_answer = np.ones((P, n), dtype=bool)
    not_answer[np.arange(P), puzzles.answer] = False
    possible = len(factorize_words(puzzles.words[not_answer])[0])
    k = min(top, possible)
    return {
        "n_wrong": int(len(wrong)),
        "wrong_words": int(len(words)),
        "possible": int(possible),
        "top_words": [(str(words[i]), int(counts[i])) for i in order.tolist()],
        "top_share": float(counts[order].sum() / len(wrong)) if len(wrong) else float("nan"),
        "even_share": k / possible if possible else float("nan"),
    }


def polysemy_of_errors(
    puzzles: PuzzleSet,
    solution: Solution,
    sense_count: Callable[[Sequence[str]], np.ndarray],
    *,
    examples: int = 10,
) -> dict:
    """Polysemy (sense counts) of wrongly chosen words against the other words of their puzzles.

    ``sense_count(words) -> int array`` gives the number of senses of each word (e.g.
    :func:`wordgames.oddmanout.wordnet.sense_counts`). Words with 0 senses (not in the
    inventory) are left out of the means and counted.
    """
    P, n = puzzles.words.shape
    vocab, codes = factorize_words(puzzles.words)
    counts = np.asarray(sense_count(vocab.tolist()), dtype=np.int64)[codes]
    wrong = (solution.choice >= 0) & (solution.choice != puzzles.answer)
    rows = np.flatnonzero(wrong)
    chosen = counts[rows, solution.choice[rows]]
    others_mask = np.ones((len(rows), n), dtype=bool)
    others_mask[np.arange(len(rows)), solution.choice[rows]] = False
    others = counts[rows][others_mask].reshape(len(rows), n - 1)
    known_chosen = chosen > 0
    known_others = others > 0
    most = chosen >= np.where(known_others, others, 0).max(axis=1) if len(rows) else chosen > 0
    all_known = counts[counts > 0]
    out = {
        "n_wrong": int(len(rows)),
        "chosen_mean_senses": float(chosen[known_chosen].mean()) if known_chosen.any() else None,
        "others_mean_senses": float(others[known_others].mean()) if known_others.any() else None,
        "chosen_polysemous": int((chosen > 1).sum()),
        "chosen_not_in_inventory": int((~known_chosen).sum()),
        "chosen_most_polysemous_of_puzzle": int((most & known_chosen).sum()),
        "base_rate_polysemous": float((all_known > 1).mean()) if len(all_known) else None,
        "examples": [
            {
                "words": puzzles.words[p].tolist(),
                "answer": puzzles.answer_words()[p],
                "chosen": puzzles.words[p, solution.choice[p]],
                "chosen_senses": int(counts[p, solution.choice[p]]),
                "answer_senses": int(counts[p, puzzles.answer[p]]),
            }
            for p in rows[:examples].tolist()
        ],
    }
    return out


def substitution_experiment(
    solver,
    odd: str,
    others: Sequence[str],
    target: str,
    alternatives: dict[str, Sequence[str]],
    *,
    seed: int = 0,
) -> dict:
    """Replace ``target`` (one of ``others``) by each alternative and solve each puzzle.

    Returns per-alternative rows (``kind``, ``replacement``, ``chosen``, ``correct``,
    ``chose_replacement``) and per-kind counts. ``seed`` shuffles the word order.
    """
    others = list(others)
    if target not in others:
        raise ValueError(f"{target!r} is not one of the puzzle's words {others}")
    rows, kinds, reps = [], [], []
    for kind, alts in alternatives.items():
        for alt in alts:
            rows.append([odd] + [alt if w == target else w for w in others])
            kinds.append(kind)
            reps.append(alt)
    rows.insert(0, [odd] + others)
    kinds.insert(0, "original")
    reps.insert(0, target)
    ps = PuzzleSet.from_odd_first("substitution", rows, seed=seed)
    sol = solver.solve(ps)
    chosen = sol.chosen_words(ps)
    table = [
        {
            "kind": k,
            "replacement": r,
            "chosen": c,
            "correct": c == odd,
            "chose_replacement": c == r,
            "abstained": c is None,
        }
        for k, r, c in zip(kinds, reps, chosen.tolist(), strict=True)
    ]
    summary = {}
    for kind in alternatives:
        sel = [t for t in table if t["kind"] == kind]
        summary[kind] = {
            "n": len(sel),
            "correct": sum(t["correct"] for t in sel),
            "chose_replacement": sum(t["chose_replacement"] for t in sel),
            "abstained": sum(t["abstained"] for t in sel),
        }
    return {"rows": table, "summary": summary, "original_correct": table[0]["correct"]}


def sister_substitutions(
    solver,
    puzzles: PuzzleSet,
    wn,
    *,
    per_kind: int = 3,
    seed: int = 0,
    max_puzzles: int = 200,
    polysemous_min: int = 3,
    vocabulary: Callable[[str], bool] | None = None,
) -> dict:
    """The substitution experiment, automatic.

    For puzzles the solver gets right, replace one non-answer word (chosen at random) by WordNet
    sister terms (other hyponyms of its first noun sense's hypernyms), ``per_kind`` monosemous
    (1 synset) and ``per_kind`` polysemous (``>= polysemous_min`` synsets) ones, and count how
    often the solver then picks the replacement. Seeded by ``seed``; ``vocabulary(word)`` may
    restrict the alternatives (to an embedding's vocabulary, say).
    """
    rng = np.random.default_rng(seed)
    base = solver.solve(puzzles)
    right = np.flatnonzero(base.choice == puzzles.answer)
    right = right[rng.permutation(len(right))][:max_puzzles]
    rows, kinds = [], []
    for p in right.tolist():  # analysis over a sample, not a hot path
        words = puzzles.words[p].tolist()
        ans = words[puzzles.answer[p]]
        cand = [w for w in words if w != ans and wn.synsets("_".join(w.split()), pos="n")]
        if not cand:
            continue
        target = cand[int(rng.integers(len(cand)))]
        syn = wn.synsets("_".join(target.split()), pos="n")[0]
        sisters = sorted(
            {
                lem.name()
                for h in syn.hypernyms()
                for s in h.hyponyms()
                for lem in s.lemmas()
                if s != syn
            }
        )
        sisters = [
            s.replace("_", " ")
            for s in sisters
            if "_" not in s
            and s.lower() not in {w.lower() for w in words}
            and (vocabulary is None or vocabulary(s))
        ]
        n_senses = np.asarray([len(wn.synsets(s)) for s in sisters], dtype=np.int64)
        for kind, sel in (
            ("monosemous", n_senses == 1),
            ("polysemous", n_senses >= polysemous_min),
        ):
            pool = [s for s, ok in zip(sisters, sel.tolist(), strict=True) if ok]
            for alt in rng.permutation(pool)[:per_kind].tolist() if pool else []:
                rows.append(([ans] + [alt if w == target else w for w in words if w != ans], alt))
                kinds.append(kind)
    if not rows:
        return {"n_puzzles": 0, "summary": {}}
    ps = PuzzleSet.from_odd_first("sisters", [r for r, _ in rows], seed=seed)
    sol = solver.solve(ps)
    chosen = sol.chosen_words(ps)
    reps = np.asarray([a for _, a in rows], dtype=object)
    kinds_a = np.asarray(kinds)
    summary = {}
    for kind in ("monosemous", "polysemous"):
        m = kinds_a == kind
        summary[kind] = {
            "n": int(m.sum()),
            "still_correct": int((chosen[m] == ps.answer_words()[m]).sum()),
            "chose_replacement": int((chosen[m] == reps[m]).sum()),
            "abstained": int(sum(c is None for c in chosen[m].tolist())),
        }
    return {
        "n_puzzles": int(len(right)),
        "summary": summary,
        "seed": seed,
        "per_kind": per_kind,
        "polysemous_min": polysemous_min,
    }
