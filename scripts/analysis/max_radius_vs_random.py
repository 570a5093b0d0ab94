"""Why the max_radius sender ranks people's clues worse than the random sender (issue 21)."""
import numpy as np
from wordgames.embeddings import load_embedding
from wordgames.codenames.spec import CodenamesOptions
from wordgames.codenames.suite import load_chosen
from wordgames.codenames.measures import problems_from_receiver_records

emb = load_embedding("glove-6b-50d")
U = emb.unit
idx = emb.word_index
rng = np.random.default_rng(0)
vocab_rows = rng.choice(len(emb), 20000, replace=False)
for name in ("codenames-pilot", "codenames-human-salt", "codenames-human-heyyjudes", "codenames-human-noahprescott"):
    data = load_chosen(CodenamesOptions(datasets=(name,)))[name]
    problems, _ = problems_from_receiver_records(data.receiver)
    zero, pct, m_h, m_r, nb = [], [], [], [], []
    for p in problems[:3000]:
        words = list(p.blue) + list(p.red)
        if any(w not in idx for w in words) or p.clue not in idx:
            continue
        B = U[[idx[w] for w in p.blue]]; R = U[[idx[w] for w in p.red]]
        c = U[idx[p.clue]]
        red_close = (R @ c).max(); cnt = int(((B @ c) > red_close).sum())
        zero.append(cnt == 0); m_h.append(red_close); nb.append(len(p.red))
        V = U[vocab_rows]
        mr = (V @ R.T).max(axis=1); cr = ((V @ B.T) > mr[:, None]).sum(axis=1)
        m_r.append(np.median(mr))
        if cnt == 0:  # where the clue sits among the no-target words by max_radius (far from red first)
            pct.append(float((mr[cr == 0] > red_close).mean()))
    print(f"{name:30s} records {len(zero):5d}  red words/board {np.mean(nb):5.1f}  "
          f"clues with no target {np.mean(zero):.0%}  closeness to nearest red: clues {np.median(m_h):.2f} "
          f"vs random words {np.median(m_r):.2f}  clue's position among no-target words (max_radius order) {np.mean(pct):.0%}")
