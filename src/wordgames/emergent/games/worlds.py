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

__all__ = ["World", "ThingWorld", "ShapeWorld", "make_world", "WORLDS"]


class World:
    """A finite world: named attributes, each with a finite list of named values.

    Parameters
    ----------
    attributes : attribute names, e.g. ``("shape", "color")``
    values : for each attribute, its value names
    name : short name of the world (goes into result records)
    """

    def __init__(self, attributes: Sequence[str], values: Sequence[Sequence[str]], name: str):
        if len(attributes) != len(values):
            raise ValueError("one list of values is needed per attribute")
        if any(len(v) < 2 for v in values):
            raise ValueError("every attribute needs at least two values")
        self.name = name
        self.attributes = tuple(str(a) for a in attributes)
        self.values = tuple(tuple(str(x) for x in v) for v in values)
        self.cardinalities = np.array([len(v) for v in self.values], dtype=np.int64)
        # index of the first concept of each attribute in the flat concept list
        self.offsets = np.concatenate([[0], np.cumsum(self.cardinalities)[:-1]]).astype(np.int64)

    # -- description -------------------------------------------------------------------------
    @property
    def n_attributes(self) -> int:
        return len(self.attributes)

    @property
    def concepts(self) -> list[str]:
        """Every concept (feature-value pair) of the world, attribute by attribute."""
        return [f"{a}={v}" for a, vals in zip(self.attributes, self.values, strict=True)
                for v in vals]

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

    def describe(self, obj: Sequence[int]) -> list[str]:
        """Concept names of one object, e.g. ``["shape=circle", "color=red", ...]``."""
        return [f"{a}={self.values[i][int(v)]}" for i, (a, v) in
                enumerate(zip(self.attributes, obj, strict=True))]

    def get_params(self) -> dict:
        return {"name": self.name, "attributes": list(self.attributes),
                "cardinalities": self.cardinalities.tolist()}

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
            raise ValueError(f"objects must end with {self.n_attributes} attribute values, "
                             f"got shape {objects.shape}")
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

    def __repr__(self) -> str:
        return (f"{type(self).__name__}({self.n_attributes} attributes, "
                f"{self.n_concepts} concepts, {self.n_objects} objects)")


class ThingWorld(World):
    """The Thing world: ``n_attributes`` attributes with ``n_values`` values each.

    Objects are perceived as concatenated one-hot vectors (the paper's appendix C), so the
    default world has 5 x 10 = 50 concepts and 100,000 distinct objects. Attributes are named
    ``f0 .. f4`` and values ``v0 .. v9`` (concept ``"f2=v7"``).

    Examples
    --------
    >>> w = ThingWorld()
    >>> w.n_concepts, w.n_objects, w.concepts[:2]
    (50, 100000, ['f0=v0', 'f0=v1'])
    >>> w.features(np.array([[0, 1, 2, 3, 4]])).nonzero()[1].tolist()
    [0, 11, 22, 33, 44]
    """

    def __init__(self, n_attributes: int = 5, n_values: int = 10):
        self.n_values = int(n_values)
        super().__init__([f"f{i}" for i in range(n_attributes)],
                         [[f"v{j}" for j in range(n_values)]] * n_attributes, name="thing")

    def get_params(self) -> dict:
        return {**super().get_params(), "n_values": self.n_values}


SHAPES = ("circle", "square", "triangle", "cross", "semicircle")
COLORS = {"red": (1.0, 0.0, 0.0), "green": (0.0, 1.0, 0.0), "blue": (0.0, 0.0, 1.0),
          "yellow": (1.0, 1.0, 0.0), "magenta": (1.0, 0.0, 1.0), "cyan": (0.0, 1.0, 1.0)}
HORIZONTAL = ("left", "center", "right")
VERTICAL = ("top", "middle", "bottom")


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

    def __init__(self, image_size: int = 32, jitter: int = 1, size_jitter: float = 0.15):
        if image_size < 12:
            raise ValueError("image_size must be at least 12 pixels")
        self.image_size = int(image_size)
        self.jitter = int(jitter)
        self.size_jitter = float(size_jitter)
        super().__init__(["shape", "color", "horizontal", "vertical"],
                         [SHAPES, tuple(COLORS), HORIZONTAL, VERTICAL], name="shape")
        self._rgb = np.array(list(COLORS.values()), dtype=np.float32)

    def get_params(self) -> dict:
        return {**super().get_params(), "image_size": self.image_size, "jitter": self.jitter,
                "size_jitter": self.size_jitter}

    @property
    def feature_shape(self) -> tuple[int, ...]:
        return (3, self.image_size, self.image_size)

    def features(self, objects: np.ndarray, rng: np.random.Generator | None = None) -> np.ndarray:
        """Render objects as float32 images ``objects.shape[:-1] + (3, S, S)`` in [0, 1]."""
        objects = np.asarray(objects, dtype=np.int64)
        if objects.shape[-1] != self.n_attributes:
            raise ValueError(f"objects must end with {self.n_attributes} attribute values")
        if (objects < 0).any() or (objects >= self.cardinalities).any():
            raise ValueError("an attribute value is out of range for the Shape world")
        lead = objects.shape[:-1]
        flat = objects.reshape(-1, self.n_attributes)
        n, size = len(flat), self.image_size
        cell = size / 3.0
        cx = (flat[:, 2] + 0.5) * cell
        cy = (flat[:, 3] + 0.5) * cell
        radius = np.full(n, 0.42 * cell)
        if rng is not None and (self.jitter > 0 or self.size_jitter > 0):
            cx = cx + rng.integers(-self.jitter, self.jitter + 1, n)
            cy = cy + rng.integers(-self.jitter, self.jitter + 1, n)
            radius = radius * (1.0 + self.size_jitter * (2.0 * rng.random(n) - 1.0))
        grid = np.arange(size, dtype=np.float64) + 0.5
        # u: right, w: down, both in units of the shape's radius
        u = (grid[None, None, :] - cx[:, None, None]) / radius[:, None, None]
        w = (grid[None, :, None] - cy[:, None, None]) / radius[:, None, None]
        au, aw = np.abs(u), np.abs(w)
        disc = u * u + w * w <= 1.0
        masks = np.stack([
            disc,                                                        # circle
            np.maximum(au, aw) <= 0.8,                                   # square
            (w >= -0.95) & (w <= 0.8) & (au <= 0.95 * (w + 0.95) / 1.75),  # triangle, apex up
            ((au <= 0.3) & (aw <= 0.95)) | ((aw <= 0.3) & (au <= 0.95)),  # cross
            disc & (w <= 0.15),                                           # semicircle, flat below
        ])
        mask = masks[flat[:, 0], np.arange(n)]
        images = mask[:, None, :, :] * self._rgb[flat[:, 1]][:, :, None, None]
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
