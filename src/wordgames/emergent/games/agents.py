"""Sender and receiver networks of the multi-target referential game. Needs torch.

The perceptual modules ("agents" in the paper's appendix C) are separate from the
communication layer (:mod:`~wordgames.emergent.games.channels`):

- an *encoder* maps one object's perceptual input to a ``hidden``-dimensional vector: a
  two-layer perceptron on the concatenated one-hots (Thing) or a small convolutional network on
  the image (Shape);
- the :class:`Sender` encodes every target, averages the encodings into ``u^s`` (the
  paper's dense representation of the target set), and a recurrent cell (GRU or LSTM, the
  paper's Table 2 uses LSTM) generates ``max_len`` words, each word vector fed back (through a
  linear embedding) as the next input;
- the :class:`Receiver` reads the word vectors with a recurrent network into ``z_t`` after each
  word, encodes every candidate into ``u^r_x`` with its own encoder, and scores it with the dot
  product ``g(z_t, u^r_x)``; ``sigmoid(score) > 0.5`` predicts a target.

Messages with an end-of-sentence symbol (GS only, symbol 0 as in EGG): the message ends at its
first EOS. :func:`stop_weights` gives the probability that the message stops after each word
(one-hot at the first EOS for hard words, EGG's ``RnnReceiverGS`` expectation for soft words);
the receiver's prediction is its score at the stop and the training loss is the expectation of
the loss over the stop position. Without EOS the message stops after its last word.
"""

from __future__ import annotations

import torch
from torch import nn

__all__ = ["Receiver", "Sender", "make_encoder", "stop_weights"]

CELLS = ("gru", "lstm")


def make_encoder(feature_shape: tuple[int, ...], hidden: int) -> nn.Module:
    """MLP for flat features, CNN for ``(3, S, S)`` images; output ``(N, hidden)``."""
    if len(feature_shape) == 1:
        return nn.Sequential(
            nn.Linear(feature_shape[0], hidden), nn.ReLU(), nn.Linear(hidden, hidden)
        )
    if len(feature_shape) == 3:
        channels, size, _ = feature_shape
        out = size // 4  # two stride-2 convolutions
        return nn.Sequential(
            nn.Conv2d(channels, 16, 3, stride=2, padding=1),
            nn.ReLU(),
            nn.Conv2d(16, 32, 3, stride=2, padding=1),
            nn.ReLU(),
            nn.Flatten(),
            nn.Linear(32 * out * out, hidden),
            nn.ReLU(),
            nn.Linear(hidden, hidden),
        )
    raise ValueError(f"no encoder for inputs of shape {feature_shape}")


def _check_cell(cell: str) -> str:
    cell = str(cell).lower()
    if cell not in CELLS:
        raise ValueError(f"unknown cell {cell!r}; choose one of {CELLS}")
    return cell


def _encode_candidates(encoder: nn.Module, features: torch.Tensor) -> torch.Tensor:
    """Encode ``(B, C, ...)`` candidates into ``(B, C, hidden)``."""
    b, c = features.shape[:2]
    return encoder(features.reshape((b * c,) + features.shape[2:])).reshape(b, c, -1)


def stop_weights(words: torch.Tensor, eos: bool) -> torch.Tensor:
    """Probability ``(B, L)`` that each message stops after each of its ``L`` words.

    With ``eos`` the probability that word ``t`` is the EOS symbol (component 0 of the one-hot)
    and no earlier word was; the last word takes the remaining mass (EGG appends an EOS after
    ``max_len`` words). Without ``eos``, every message stops after its last word. Each row sums
    to one; for hard one-hots it is the one-hot of the first EOS (or of the last word).

    Examples
    --------
    >>> w = torch.eye(3)[torch.tensor([[1, 0, 2], [2, 1, 1]])]  # EOS is symbol 0
    >>> stop_weights(w, eos=True).tolist()
    [[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
    """
    b, n = words.shape[:2]
    if not eos:
        out = torch.zeros(b, n, dtype=words.dtype, device=words.device)
        out[:, -1] = 1.0
        return out
    p_eos = words[..., 0]
    not_before = torch.cumprod(
        torch.cat([torch.ones_like(p_eos[:, :1]), 1.0 - p_eos[:, :-1]], dim=1), dim=1
    )
    # stop after word t < L: it is EOS and none before; after word L: no EOS before it
    return torch.cat([(p_eos * not_before)[:, :-1], not_before[:, -1:]], dim=1)


def _make_cell(cell: str, embed: int, hidden: int) -> nn.Module:
    return nn.LSTMCell(embed, hidden) if cell == "lstm" else nn.GRUCell(embed, hidden)


class Sender(nn.Module):
    """Encodes the target set and speaks ``max_len`` words through ``channel``.

    Parameters
    ----------
    feature_shape : shape of one object's perceptual input
    channel : a channel module (Gumbel-Softmax or quantized)
    hidden : width of the encoder and of the recurrent state
    embed : width of the word embedding fed back into the recurrent cell
    max_len : words per message (with EOS: at most)
    cell : ``"gru"`` or ``"lstm"``
    """

    def __init__(
        self,
        feature_shape,
        channel: nn.Module,
        hidden: int = 64,
        embed: int = 32,
        max_len: int = 1,
        cell: str = "gru",
    ):
        super().__init__()
        self.channel = channel
        self.max_len = int(max_len)
        self.cell_type = _check_cell(cell)
        self.encoder = make_encoder(tuple(feature_shape), hidden)
        self.to_state = nn.Linear(hidden, hidden)
        self.sos = nn.Parameter(torch.zeros(embed))
        self.cell = _make_cell(self.cell_type, embed, hidden)
        self.to_logits = nn.Linear(hidden, channel.n_logits)
        self.embed_word = nn.Linear(channel.word_dim, embed, bias=False)

    def forward(
        self, features: torch.Tensor, labels: torch.Tensor, generator: torch.Generator | None = None
    ) -> torch.Tensor:
        """Word vectors ``(B, max_len, word_dim)`` for turns ``features (B, C, ...)``."""
        enc = _encode_candidates(self.encoder, features)
        w = labels.to(enc.dtype)
        u = (enc * w[..., None]).sum(1) / w.sum(1, keepdim=True)  # mean over the targets
        h = torch.tanh(self.to_state(u))
        state = (h, torch.zeros_like(h)) if self.cell_type == "lstm" else h
        x = self.sos.expand(len(h), -1)
        words = []
        for _ in range(self.max_len):
            state = self.cell(x, state)
            h = state[0] if self.cell_type == "lstm" else state
            word = self.channel(self.to_logits(h), generator)
            words.append(word)
            x = self.embed_word(word)
        return torch.stack(words, dim=1)


class Receiver(nn.Module):
    """Reads a message and scores every candidate (logits, ``> 0`` means target).

    Parameters
    ----------
    feature_shape : shape of one object's perceptual input
    word_dim : dimension of the channel's word vectors
    hidden : width of the encoder and of the recurrent state
    embed : width of the word embedding
    cell : ``"gru"`` or ``"lstm"``
    eos : messages end at their first EOS (symbol 0 of one-hot words)
    """

    def __init__(
        self,
        feature_shape,
        word_dim: int,
        hidden: int = 64,
        embed: int = 32,
        cell: str = "gru",
        eos: bool = False,
    ):
        super().__init__()
        self.eos = bool(eos)
        rnn = nn.LSTM if _check_cell(cell) == "lstm" else nn.GRU
        self.encoder = make_encoder(tuple(feature_shape), hidden)
        self.embed_word = nn.Linear(word_dim, embed, bias=False)
        self.rnn = rnn(embed, hidden, batch_first=True)
        self.bias = nn.Parameter(torch.zeros(()))

    def step_scores(self, words: torch.Tensor, features: torch.Tensor) -> torch.Tensor:
        """Scores ``(B, L, C)`` of every candidate after each word of the message."""
        z, _ = self.rnn(self.embed_word(words))  # (B, L, hidden)
        u = _encode_candidates(self.encoder, features)  # (B, C, hidden)
        return torch.einsum("blh,bch->blc", z, u) + self.bias

    def forward(self, words: torch.Tensor, features: torch.Tensor) -> torch.Tensor:
        """Scores ``(B, C)`` at the message's stop (expected over it for soft words)."""
        stop = stop_weights(words, self.eos)
        return (stop[..., None] * self.step_scores(words, features)).sum(1)
