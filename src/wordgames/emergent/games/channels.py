"""Discrete communication channels: Gumbel-Softmax and quantized (binary) words. Needs torch.

A channel turns the sender's per-step logits into the *word vector* that travels to the
receiver and back into the sender's recurrent network:

- :class:`GumbelSoftmaxChannel` -- each word is a one-hot vector over ``vocab_size`` symbols.
  In training it is a relaxed sample ``softmax((logits + g) / temperature)`` with Gumbel noise
  ``g``, at a fixed temperature and *without* the straight-through estimator (the paper's
  appendix C), so the receiver sees soft one-hots and gradients flow through the softmax.
  In evaluation the word is the hard one-hot of the arg-max.
- :class:`QuantizedChannel` -- each word is a ``word_dim``-dimensional binary vector, so there
  are ``2 ** word_dim`` possible words (Carmeli et al. 2022, binary quantization). The forward
  value is ``round(sigmoid(logits))`` in {0, 1}, in training too; the backward pass uses the
  straight-through estimator (the gradient of the rounding is taken as the identity, so it is
  that of ``sigmoid(logits)``).
"""

from __future__ import annotations

import torch
from torch import nn

__all__ = ["GumbelSoftmaxChannel", "QuantizedChannel", "make_channel"]


class GumbelSoftmaxChannel(nn.Module):
    """One-hot words through a Gumbel-Softmax relaxation (fixed temperature, no straight-through).

    Parameters
    ----------
    vocab_size : number of symbols (the word vector's dimension)
    temperature : fixed softmax temperature (not learned)
    """

    kind = "gs"

    def __init__(self, vocab_size: int = 50, temperature: float = 1.0):
        super().__init__()
        if vocab_size < 2:
            raise ValueError("vocab_size must be at least 2")
        if temperature <= 0:
            raise ValueError("temperature must be positive")
        self.vocab_size = int(vocab_size)
        self.temperature = float(temperature)

    @property
    def n_logits(self) -> int:
        return self.vocab_size

    @property
    def word_dim(self) -> int:
        return self.vocab_size

    @property
    def n_words(self) -> int:
        return self.vocab_size

    def forward(self, logits: torch.Tensor, generator: torch.Generator | None = None):
        if not self.training:
            return nn.functional.one_hot(logits.argmax(-1), self.vocab_size).to(logits.dtype)
        u = torch.rand(logits.shape, generator=generator, dtype=logits.dtype)
        u = u.clamp(1e-7, 1.0 - 1e-7)  # keep both logarithms finite
        gumbel = -torch.log(-torch.log(u))
        return torch.softmax((logits + gumbel) / self.temperature, dim=-1)

    def word_ids(self, words: torch.Tensor) -> torch.Tensor:
        """Integer id of each word vector (arg-max)."""
        return words.argmax(-1)

    def get_params(self) -> dict:
        return {
            "channel": self.kind,
            "vocab_size": self.vocab_size,
            "temperature": self.temperature,
        }


class QuantizedChannel(nn.Module):
    """Binary words of ``word_dim`` bits, straight-through rounding of a sigmoid.

    Parameters
    ----------
    word_dim : bits per word (``2 ** word_dim`` possible words)
    """

    kind = "qt"

    def __init__(self, word_dim: int = 6):
        super().__init__()
        if not 1 <= word_dim <= 64:
            raise ValueError("word_dim must be between 1 and 64")
        self.word_dim = int(word_dim)

    @property
    def n_logits(self) -> int:
        return self.word_dim

    @property
    def n_words(self) -> int:
        return 2**self.word_dim

    def forward(self, logits: torch.Tensor, generator: torch.Generator | None = None):
        soft = torch.sigmoid(logits)
        # forward: the rounded bits; backward: d(soft) (straight-through)
        return soft + (torch.round(soft) - soft).detach()

    def word_ids(self, words: torch.Tensor) -> torch.Tensor:
        """Integer id of each binary word (its bits read as a base-2 number, bit 0 first).

        For 64 bits the number wraps around to a negative int64 (two's complement): still one
        distinct id per bit vector.
        """
        one = torch.ones((), dtype=torch.long, device=words.device)
        powers = one << torch.arange(self.word_dim, device=words.device)
        return (torch.round(words).long() * powers).sum(-1)

    def get_params(self) -> dict:
        return {"channel": self.kind, "word_dim": self.word_dim}


def make_channel(
    kind: str, *, vocab_size: int = 50, word_dim: int = 6, temperature: float = 1.0
) -> nn.Module:
    """``"gs"`` -> :class:`GumbelSoftmaxChannel`, ``"qt"`` -> :class:`QuantizedChannel`."""
    kind = str(kind).lower()
    if kind == "gs":
        return GumbelSoftmaxChannel(vocab_size, temperature)
    if kind == "qt":
        return QuantizedChannel(word_dim)
    raise ValueError(f"unknown channel {kind!r}; choose 'gs' (Gumbel-Softmax) or 'qt' (quantized)")
