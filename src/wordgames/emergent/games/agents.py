"""Sender and receiver networks of the multi-target referential game. Needs torch.

The perceptual modules ("agents" in the paper's appendix C) are separate from the
communication layer (:mod:`~wordgames.emergent.games.channels`):

- an *encoder* maps one object's perceptual input to a ``hidden``-dimensional vector: a
  two-layer perceptron on the concatenated one-hots (Thing) or a small convolutional network on
  the image (Shape);
- the :class:`Sender` encodes every target, averages the encodings into ``u^s`` (the
  paper's dense representation of the target set), and a GRU cell generates ``max_len`` words,
  each word vector fed back (through a linear embedding) as the next input;
- the :class:`Receiver` reads the word vectors with a GRU into ``z``, encodes every candidate
  into ``u^r_x`` with its own encoder, and scores it with the dot product ``g(z, u^r_x)``;
  ``sigmoid(score) > 0.5`` predicts a target.
"""

from __future__ import annotations

import torch
from torch import nn

__all__ = ["Receiver", "Sender", "make_encoder"]


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


def _encode_candidates(encoder: nn.Module, features: torch.Tensor) -> torch.Tensor:
    """Encode ``(B, C, ...)`` candidates into ``(B, C, hidden)``."""
    b, c = features.shape[:2]
    return encoder(features.reshape((b * c,) + features.shape[2:])).reshape(b, c, -1)


class Sender(nn.Module):
    """Encodes the target set and speaks ``max_len`` words through ``channel``.

    Parameters
    ----------
    feature_shape : shape of one object's perceptual input
    channel : a channel module (Gumbel-Softmax or quantized)
    hidden : width of the encoder and of the GRU state
    embed : width of the word embedding fed back into the GRU
    max_len : words per message
    """

    def __init__(
        self, feature_shape, channel: nn.Module, hidden: int = 64, embed: int = 32, max_len: int = 1
    ):
        super().__init__()
        self.channel = channel
        self.max_len = int(max_len)
        self.encoder = make_encoder(tuple(feature_shape), hidden)
        self.to_state = nn.Linear(hidden, hidden)
        self.sos = nn.Parameter(torch.zeros(embed))
        self.cell = nn.GRUCell(embed, hidden)
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
        x = self.sos.expand(len(h), -1)
        words = []
        for _ in range(self.max_len):
            h = self.cell(x, h)
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
    hidden : width of the encoder and of the GRU state
    embed : width of the word embedding
    """

    def __init__(self, feature_shape, word_dim: int, hidden: int = 64, embed: int = 32):
        super().__init__()
        self.encoder = make_encoder(tuple(feature_shape), hidden)
        self.embed_word = nn.Linear(word_dim, embed, bias=False)
        self.rnn = nn.GRU(embed, hidden, batch_first=True)
        self.bias = nn.Parameter(torch.zeros(()))

    def forward(self, words: torch.Tensor, features: torch.Tensor) -> torch.Tensor:
        _, h = self.rnn(self.embed_word(words))
        z = h[-1]  # (B, hidden)
        u = _encode_candidates(self.encoder, features)  # (B, C, hidden)
        return (u * z[:, None, :]).sum(-1) + self.bias
