"""Worlds of objects described by feature-value pairs (the paper's Thing and Shape worlds).

An object is a vector of attribute values (one value index per attribute). A *concept* is one
feature-value pair, named ``"<attribute>=<value>"`` (``"color=red"``); the concepts are what
Concept-Best-Matching matches emergent words against. A world turns objects into the inputs the
agents perceive: concatenated one-hot vectors (Thing) or small RGB images (Shape).

Only numpy is needed here, so worlds can be generated and inspected without torch.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from wordgames.params import Params

__all__ = ["World", "ThingWorld", "ShapeWorld", "make_world", "WORLDS"]


class World(Params):
    """A finite world: named attributes, each with a finite list of named values.

    Parameters
    ----------
    attributes : sequence of str
        Attribute names, e.g. ``("shape", "color")``.
    values : sequence of sequences of str
        For each attribute, its value names.
    name : str
        Short name of the world (goes into result records).

    Examples
    --------
    >>> w = World(["size", "color"], [["small", "big"], ["red", "green", "blue"]], name="toy")
    >>> w.n_concepts, w.concepts[:3], w.cardinalities.tolist()
    (5, ['size=small', 'size=big', 'color=red'], [2, 3])
    """

    def __init__(
        self, attributes: Sequence[str], values: Sequence[Sequence[str]], name: str = "world"
    ):
        self.attributes = attributes
        self.values = values
        self.name = name
        _check_world(attributes, values)

    # -- description -------------------------------------------------------------------------
    @property
    def cardinalities(self) -> np.ndarray:
        """Number of values of each attribute (int64)."""
        return np.array([len(v) for v in self.values], dtype=np.int64)

    @property
    def offsets(self) -> np.ndarray:
        """Index of the first concept of each attribute in the flat concept list."""
        return np.concatenate([[0], np.cumsum(self.cardinalities)[:-1]]).astype(np.int64)

    @property
    def n_attributes(self) -> int:
        return len(self.attributes)

    @property
    def concepts(self) -> list[str]:
        """Every concept (feature-value pair) of the world, attribute by attribute."""
        return [
            f"{a}={v}" for a, vals in zip(self.attributes, self.values, strict=True) for v in vals
        ]

    @property
    def n_concepts(self) -> int:
        return int(self.cardinalities.sum())

    @property
    def n_objects(self) -> int:
        """Number of distinct objects (product of the cardinalities)."""
        return int(np.prod(self.cardinalities))

    def concept_ids(self, attributes: np.ndarray, values: np.ndarray) -> np.ndarray:
        """Flat concept index of each (attribute, value) pair (arrays of the same shape)."""
        attributes = np.asarray(attributes, dtype=np.int64)
        return self.offsets[attributes] + np.asarray(values, dtype=np.int64)

    def summary(self) -> dict:
        """The world for records: name, attributes, cardinalities."""
        return {
            "name": self.name,
            "attributes": [str(a) for a in self.attributes],
            "cardinalities": self.cardinalities.tolist(),
        }

    def describe(self, obj: Sequence[int]) -> list[str]:
        """Concept names of one object, e.g. ``["shape=circle", "color=red", ...]``."""
        return [
            f"{a}={self.values[i][int(v)]}"
            for i, (a, v) in enumerate(zip(self.attributes, obj, strict=True))
        ]

    # -- objects ------------------------------------------------------------------------------
    def sample_objects(self, shape: int | tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
        """Objects drawn uniformly: int64 array ``shape + (n_attributes,)`` of value indices."""
        shape = (shape,) if isinstance(shape, int | np.integer) else tuple(shape)
        u = rng.random(shape + (self.n_attributes,))
        return np.floor(u * self.cardinalities).astype(np.int64)

    def concept_vectors(self, objects: np.ndarray) -> np.ndarray:
        """Concatenated one-hot vectors (float32, ``objects.shape[:-1] + (n_concepts,)``)."""
        objects = np.asarray(objects, dtype=np.int64)
        if objects.shape[-1] != self.n_attributes:
            raise ValueError(
                f"objects must end with {self.n_attributes} attribute values, "
                f"got shape {objects.shape}"
            )
        if (objects < 0).any() or (objects >= self.cardinalities).any():
            raise ValueError("an attribute value is out of range for this world")
        out = np.zeros(objects.shape[:-1] + (self.n_concepts,), dtype=np.float32)
        np.put_along_axis(out, objects + self.offsets, 1.0, axis=-1)
        return out

    @property
    def feature_shape(self) -> tuple[int, ...]:
        """Shape of the perceptual input of one object."""
        return (self.n_concepts,)

    def features(self, objects: np.ndarray, rng: np.random.Generator | None = None) -> np.ndarray:
        """What the agents perceive of each object (default: the concatenated one-hots)."""
        return self.concept_vectors(objects)


def _check_world(attributes, values) -> None:
    if len(attributes) != len(values):
        raise ValueError("one list of values is needed per attribute")
    if any(len(v) < 2 for v in values):
        raise ValueError("every attribute needs at least two values")


THING_ENCODINGS = ("concepts", "tokens")
N_SPECIAL = 4  # SOS, EOS, PAD, UNK: the paper's appendix C


class ThingWorld(World):
    """The Thing world: ``n_attributes`` attributes with ``n_values`` values each.

    The default world has 5 x 10 = 50 concepts and 100,000 distinct objects. Attributes are
    named ``f0 .. f4`` and values ``v0 .. v9`` (concept ``"f2=v7"``). Objects are perceived as
    concatenated one-hot vectors (the paper's appendix C), in one of two encodings:

    - ``"concepts"``: one 50-dimensional vector, one position per concept;
    - ``"tokens"`` (the paper's, ``d = 270``): the 50 values and the four special symbols
      SOS, EOS, PAD, UNK make a vocabulary of 54 tokens; each attribute is a one-hot over the
      54 tokens (the value's token is ``4 + 10 * attribute + value``) and the five are
      concatenated, 5 x 54 = 270 dimensions. It holds the same information, spread over more
      (always-zero) inputs.

    Examples
    --------
    >>> w = ThingWorld()
    >>> w.n_concepts, w.n_objects, w.concepts[:2]
    (50, 100000, ['f0=v0', 'f0=v1'])
    >>> w.features(np.array([[0, 1, 2, 3, 4]])).nonzero()[1].tolist()
    [0, 11, 22, 33, 44]
    >>> t = ThingWorld(encoding="tokens")
    >>> t.feature_shape, t.features(np.array([[0, 1, 2, 3, 4]])).nonzero()[1].tolist()
    ((270,), [4, 69, 134, 199, 264])
    """

    name = "thing"
    # a parameter here, a property of the other worlds: this plain class attribute shadows it
    n_attributes: int = 5

    def __init__(self, n_attributes: int = 5, n_values: int = 10, encoding: str = "concepts"):
        self.n_attributes = n_attributes
        self.n_values = n_values
        self.encoding = encoding
        _check_world(self.attributes, self.values)
        if encoding not in THING_ENCODINGS:
            raise ValueError(f"unknown encoding {encoding!r}; choose one of {THING_ENCODINGS}")

    @property
    def feature_shape(self) -> tuple[int, ...]:
        if self.encoding == "tokens":
            return (self.n_attributes * (self.n_concepts + N_SPECIAL),)
        return (self.n_concepts,)

    def features(self, objects: np.ndarray, rng: np.random.Generator | None = None) -> np.ndarray:
        """The concept one-hots, or the paper's token one-hots (``encoding="tokens"``)."""
        if self.encoding != "tokens":
            return self.concept_vectors(objects)
        onehots = self.concept_vectors(objects)  # checks the objects
        width = self.n_concepts + N_SPECIAL
        out = np.zeros(onehots.shape[:-1] + (self.n_attributes, width), dtype=np.float32)
        tokens = N_SPECIAL + self.offsets + np.asarray(objects, dtype=np.int64)
        np.put_along_axis(out, tokens[..., None], 1.0, axis=-1)
        return out.reshape(onehots.shape[:-1] + self.feature_shape)

    @property
    def attributes(self) -> tuple[str, ...]:
        return tuple(f"f{i}" for i in range(self.n_attributes))

    @property
    def values(self) -> tuple[tuple[str, ...], ...]:
        return (tuple(f"v{j}" for j in range(self.n_values)),) * self.n_attributes


SHAPES = ("circle", "square", "triangle", "cross", "semicircle")
COLORS = {
    "red": (1.0, 0.0, 0.0),
    "green": (0.0, 1.0, 0.0),
    "blue": (0.0, 0.0, 1.0),
    "yellow": (1.0, 1.0, 0.0),
    "magenta": (1.0, 0.0, 1.0),
    "cyan": (0.0, 1.0, 1.0),
}
HORIZONTAL = ("left", "center", "right")
VERTICAL = ("top", "middle", "bottom")
_RGB = np.array(list(COLORS.values()), dtype=np.float32)


class ShapeWorld(World):
    """The Shape world: shape x5, colour x6, horizontal x3 and vertical x3 positions.

    17 concepts (``"shape=circle"``, ``"color=red"``, ``"horizontal=left"``,
    ``"vertical=top"``, ...) and 270 distinct objects. Each object is drawn as one coloured
    shape on a black ``3 x image_size x image_size`` image, in the cell of a 3 x 3 grid given by
    its positions; with ``jitter > 0`` and a generator, the shape is shifted by up to ``jitter``
    pixels and its size varied by up to ``size_jitter`` (a fraction), so that many different
    images obey the same label, as in the paper's appendix B.

    Examples
    --------
    >>> w = ShapeWorld(image_size=24)
    >>> w.n_concepts, w.n_objects
    (17, 270)
    >>> img = w.features(np.array([[0, 0, 0, 0]]))  # a red circle, top left
    >>> img.shape, float(img[0, 1].max()), bool(img[0, 0, :8, :8].any())
    ((1, 3, 24, 24), 0.0, True)
    """

    name = "shape"
    attributes = ("shape", "color", "horizontal", "vertical")
    values = (SHAPES, tuple(COLORS), HORIZONTAL, VERTICAL)

    def __init__(self, image_size: int = 32, jitter: int = 1, size_jitter: float = 0.15):
        self.image_size = image_size
        self.jitter = jitter
        self.size_jitter = size_jitter
        if image_size < 12:
            raise ValueError("image_size must be at least 12 pixels")

    @property
    def feature_shape(self) -> tuple[int, ...]:
        return (3, int(self.image_size), int(self.image_size))

    def features(self, objects: np.ndarray, rng: np.random.Generator | None = None) -> np.ndarray:
        """Render objects as float32 images ``objects.shape[:-1] + (3, S, S)`` in [0, 1]."""
        objects = np.asarray(objects, dtype=np.int64)
        if objects.shape[-1] != self.n_attributes:
            raise ValueError(f"objects must end with {self.n_attributes} attribute values")
        if (objects < 0).any() or (objects >= self.cardinalities).any():
            raise ValueError("an attribute value is out of range for the Shape world")
        lead = objects.shape[:-1]
        flat = objects.reshape(-1, self.n_attributes)
        n, size = len(flat), int(self.image_size)
        cell = size / 3.0
        cx = (flat[:, 2] + 0.5) * cell
        cy = (flat[:, 3] + 0.5) * cell
        radius = np.full(n, 0.42 * cell)
        if rng is not None and (self.jitter > 0 or self.size_jitter > 0):
            jitter = int(self.jitter)
            cx = cx + rng.integers(-jitter, jitter + 1, n)
            cy = cy + rng.integers(-jitter, jitter + 1, n)
            radius = radius * (1.0 + self.size_jitter * (2.0 * rng.random(n) - 1.0))
        grid = np.arange(size, dtype=np.float64) + 0.5
        # u: right, w: down, both in units of the shape's radius
        u = (grid[None, None, :] - cx[:, None, None]) / radius[:, None, None]
        w = (grid[None, :, None] - cy[:, None, None]) / radius[:, None, None]
        au, aw = np.abs(u), np.abs(w)
        disc = u * u + w * w <= 1.0
        masks = np.stack(
            [
                disc,  # circle
                np.maximum(au, aw) <= 0.8,  # square
                (w >= -0.95) & (w <= 0.8) & (au <= 0.95 * (w + 0.95) / 1.75),  # triangle, apex up
                ((au <= 0.3) & (aw <= 0.95)) | ((aw <= 0.3) & (au <= 0.95)),  # cross
                disc & (w <= 0.15),  # semicircle, flat below
            ]
        )
        mask = masks[flat[:, 0], np.arange(n)]
        images = mask[:, None, :, :] * _RGB[flat[:, 1]][:, :, None, None]
        return images.astype(np.float32).reshape(lead + self.feature_shape)


WORLDS = {"thing": ThingWorld, "shape": ShapeWorld}


def make_world(world: str | World, **params) -> World:
    """A world from its name (``"thing"``, ``"shape"``) and parameters, or the world itself."""
    if isinstance(world, World):
        return world
    try:
        return WORLDS[str(world).lower()](**params)
    except KeyError:
        raise ValueError(f"unknown world {world!r}; choose one of {sorted(WORLDS)}") from None
