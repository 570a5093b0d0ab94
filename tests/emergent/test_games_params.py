"""Game configuration classes are configured like scikit-learn estimators (wordgames.params)."""

from __future__ import annotations

import numpy as np
import pytest

from wordgames.emergent.games import GameTrainer, ReferentialGame, ShapeWorld, ThingWorld
from wordgames.emergent.games.worlds import World


@pytest.mark.parametrize(
    "obj",
    [
        ThingWorld(3, 4),
        ShapeWorld(image_size=16),
        World(["size", "color"], [["small", "big"], ["red", "blue"]], name="toy"),
        ReferentialGame("shape", rule_length=2, n_targets=3, n_distractors=2),
        GameTrainer(world="thing", channel="qt", steps=5, hidden=8, embed=4),
    ],
    ids=lambda o: type(o).__name__,
)
def test_init_stores_the_configuration_only(obj):
    params = obj.get_params()
    assert set(vars(obj)) == set(params)
    assert obj.clone().get_params() == params


def test_world_is_built_lazily_and_rebuilt_after_set_params():
    game = ReferentialGame("thing", rule_length=2, n_targets=3, n_distractors=3)
    assert game.world == "thing" and game.world_.n_attributes == 5
    a = game.sample_turns(5, np.random.default_rng(0))
    game.set_params(world="shape")
    assert game.world_.n_attributes == 4
    b = game.clone().set_params(world="thing").sample_turns(5, np.random.default_rng(0))
    assert np.array_equal(a.objects, b.objects)  # same configuration, same seed, same turns


def test_trainer_game_follows_its_parameters():
    t = GameTrainer(world="thing", rule_length=2, n_targets=3, n_distractors=3)
    assert t.game.rule_length == 2 and t.game.world_.name == "thing"
    t.set_params(world="shape", rule_length=4)
    assert t.game.world_.name == "shape" and t.game.n_rules() == 270
    with pytest.raises(ValueError, match="channel"):
        GameTrainer(channel="morse")
