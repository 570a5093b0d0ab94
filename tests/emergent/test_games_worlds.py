"""Worlds and the multi-target referential game (numpy only, no torch)."""

from __future__ import annotations

import numpy as np
import pytest

from wordgames.emergent.games import ReferentialGame, ShapeWorld, ThingWorld, make_world


def test_thing_world_counts_and_one_hots():
    w = ThingWorld()
    assert w.n_concepts == 50 and w.n_objects == 100_000 and w.n_attributes == 5
    assert len(set(w.concepts)) == 50 and w.concepts[10] == "f1=v0"
    objs = np.array([[0, 1, 2, 3, 4], [9, 9, 9, 9, 9]])
    f = w.features(objs)
    assert f.shape == (2, 50)
    assert f.sum(axis=1).tolist() == [5.0, 5.0]  # one 1 per attribute
    assert np.flatnonzero(f[0]).tolist() == [0, 11, 22, 33, 44]
    assert np.flatnonzero(f[1]).tolist() == [9, 19, 29, 39, 49]
    assert w.describe([0, 1, 2, 3, 4]) == ["f0=v0", "f1=v1", "f2=v2", "f3=v3", "f4=v4"]


def test_shape_world_counts():
    w = ShapeWorld()
    assert w.n_concepts == 17 and w.n_objects == 270
    assert w.cardinalities.tolist() == [5, 6, 3, 3]
    assert "shape=circle" in w.concepts and "color=red" in w.concepts
    assert {c.split("=")[0] for c in w.concepts} == {"shape", "color", "horizontal", "vertical"}
    # the paper: 270 distinct 4-concept labels
    assert ReferentialGame(w, rule_length=4).n_rules() == 270


def test_world_rejects_bad_objects():
    with pytest.raises(ValueError, match="out of range"):
        ThingWorld().features(np.array([[0, 0, 0, 0, 10]]))
    with pytest.raises(ValueError, match="attribute values"):
        ThingWorld().features(np.array([[0, 0, 0]]))
    with pytest.raises(ValueError, match="unknown world"):
        make_world("planet")


def _centroid(img):
    mass = img.sum(axis=0)
    ys, xs = np.nonzero(mass)
    return ys.mean(), xs.mean()


def test_shape_images_differ_by_each_attribute():
    w = ShapeWorld(image_size=32)
    base = np.array([0, 0, 1, 1])  # red circle in the centre
    img = w.features(base[None])[0]
    assert img.shape == (3, 32, 32)
    assert img.min() == 0.0 and img.max() == 1.0
    # colour: red lives in channel 0 only; blue in channel 2 only
    assert img[0].sum() > 0 and img[1].sum() == 0 and img[2].sum() == 0
    blue = w.features(np.array([[0, 2, 1, 1]]))[0]
    assert blue[2].sum() > 0 and blue[0].sum() == 0
    # shape: every shape gives a different mask at the same place
    masks = w.features(np.array([[s, 0, 1, 1] for s in range(5)]))[:, 0] > 0
    for a in range(5):
        for b in range(a + 1, 5):
            assert (masks[a] != masks[b]).any(), (a, b)
    # positions: the centroid moves left/right and up/down with the attribute
    cols = [_centroid(w.features(np.array([[1, 0, h, 1]]))[0])[1] for h in range(3)]
    rows = [_centroid(w.features(np.array([[1, 0, 1, v]]))[0])[0] for v in range(3)]
    assert cols[0] < 11 < cols[1] < 22 < cols[2]
    assert rows[0] < 11 < rows[1] < 22 < rows[2]


def test_shape_jitter_is_seeded():
    w = ShapeWorld(image_size=24)
    objs = np.array([[2, 3, 0, 2]] * 6)
    a = w.features(objs, np.random.default_rng(5))
    b = w.features(objs, np.random.default_rng(5))
    assert np.array_equal(a, b)
    assert len({x.tobytes() for x in a}) > 1  # same label, different images
    assert np.array_equal(w.features(objs)[0], w.features(objs)[1])  # no rng: no jitter


@pytest.mark.parametrize("world,length", [("thing", 1), ("thing", 4), ("shape", 1), ("shape", 4)])
def test_turns_obey_the_rule(world, length):
    game = ReferentialGame(world, rule_length=length, n_targets=7, n_distractors=5)
    turns = game.sample_turns(300, np.random.default_rng(1))
    assert turns.objects.shape == (300, 12, game.world_.n_attributes)
    assert turns.labels.sum(axis=1).tolist() == [7] * 300
    # targets obey the conjunction, distractors do not (recomputed from the objects)
    assert np.array_equal(turns.obeys(), turns.labels)
    # rules: `length` distinct attributes, ascending
    assert turns.rule_attributes.shape == (300, length)
    assert (np.diff(turns.rule_attributes, axis=1) > 0).all()
    concepts = turns.concepts()
    assert all(len(c) == length for c in concepts)
    # the concept strings name the targets' values
    t, a, v = 0, turns.rule_attributes[0, 0], turns.rule_values[0, 0]
    first_target = turns.objects[t, np.flatnonzero(turns.labels[t])[0]]
    assert concepts[t][0] == f"{game.world_.attributes[a]}={game.world_.values[a][v]}"
    assert first_target[a] == v
    # targets are not always in the same slots (the candidates are shuffled)
    assert len({tuple(np.flatnonzero(row)) for row in turns.labels}) > 1


def test_turns_are_deterministic_under_a_seed():
    game = ReferentialGame("thing", rule_length=2)
    a = game.sample_turns(20, np.random.default_rng(3))
    b = game.sample_turns(20, np.random.default_rng(3))
    c = game.sample_turns(20, np.random.default_rng(4))
    assert np.array_equal(a.objects, b.objects) and np.array_equal(a.labels, b.labels)
    assert a.concepts() == b.concepts()
    assert not np.array_equal(a.objects, c.objects)


def test_uniform_distractors_and_near_misses():
    rng = np.random.default_rng(0)
    # l = 1 uniform: the rule attribute of a distractor is any other value, equally often
    game = ReferentialGame("thing", rule_length=1, n_targets=1, n_distractors=50)
    turns = game.sample_turns(400, rng)
    a, v = turns.rule_attributes[:, 0], turns.rule_values[:, 0]
    d_vals = np.take_along_axis(
        turns.objects, np.broadcast_to(a[:, None, None], (400, 51, 1)), axis=2
    )[..., 0]
    offsets = (d_vals[~turns.labels].reshape(400, 50) - v[:, None]) % 10
    counts = np.bincount(offsets.ravel(), minlength=10)
    assert counts[0] == 0
    assert counts[1:].min() > 0.85 * counts[1:].mean()
    # near misses (p_violate small): most distractors violate exactly one of 4 concepts
    near = ReferentialGame("thing", rule_length=4, n_targets=1, n_distractors=20, p_violate=0.1)
    turns = near.sample_turns(200, rng)
    idx = np.broadcast_to(turns.rule_attributes[:, None, :], (200, 21, 4))
    held = np.take_along_axis(turns.objects, idx, axis=2) == turns.rule_values[:, None, :]
    n_violated = 4 - held.sum(axis=2)[~turns.labels]
    assert n_violated.min() >= 1
    assert (n_violated == 1).mean() > 0.6


def test_game_validates_its_configuration():
    with pytest.raises(ValueError, match="rule_length"):
        ReferentialGame("shape", rule_length=5)
    with pytest.raises(ValueError, match="target"):
        ReferentialGame("thing", n_targets=0)


def test_target_features_is_the_mean_over_targets():
    game = ReferentialGame("thing", rule_length=1, n_targets=4, n_distractors=4)
    turns = game.sample_turns(10, np.random.default_rng(2))
    feats = game.world_.features(turns.objects)
    mean = turns.target_features(feats)
    assert mean.shape == (10, 50)
    ids = turns.rule_concept_ids[:, 0]
    assert np.allclose(mean[np.arange(10), ids], 1.0)  # every target holds the rule concept
    assert np.allclose(mean.sum(axis=1), 5.0)
