"""The app's own dice outside a combat: how many d20s a test rolls and how many times area
damage is rolled are decided by the rules (``rules/loose_dice.py``), not by the dialogs."""

from __future__ import annotations

import pytest

from battlemap.rules.attack_types import RollMode
from battlemap.rules.dice import AppRoll, new_dice_state, roll
from battlemap.rules.loose_dice import fresh_d20s, roll_area_damage
from battlemap.rules.schema import Ruleset


@pytest.mark.parametrize(
    ("mode", "count"),
    [(RollMode.NORMAL, 1), (RollMode.ADVANTAGE, 2), (RollMode.DISADVANTAGE, 2)],
)
def test_srd_5e_a_d20_test_rolls_two_dice_with_advantage_or_disadvantage(
    mode: RollMode, count: int
) -> None:
    dice = new_dice_state(7)
    after, faces = fresh_d20s(dice, mode, "saving throw")
    assert len(faces) == count
    assert all(isinstance(face, AppRoll) and 1 <= face <= 20 for face in faces)
    assert after.draws == dice.draws + count
    expected = []
    for _ in range(count):  # the same dice, rolled one d20 at a time
        dice, record = roll(dice, "1d20")
        expected.append(record.total)
    assert list(faces) == expected


def test_the_roll_mode_names_its_dice_expression() -> None:
    assert [m.expression for m in RollMode] == ["1d20", "2d20kh1", "2d20kl1"]
    assert [m.d20_count for m in RollMode] == [1, 2, 2]


def test_srd_5e_area_damage_is_rolled_once_for_all_targets(rulesets: dict[str, Ruleset]) -> None:
    """srd "Damage Rolls": "roll the damage once for all of them"."""
    rolled = roll_area_damage(new_dice_state(3), rulesets["srd-5e"], ["8d6", "2d4"], 5)
    assert rolled.typed_each is None
    assert rolled.typed is not None and len(rolled.typed) == 2
    assert 8 <= rolled.typed[0] <= 48 and 2 <= rolled.typed[1] <= 8
    assert [r.expression for r in rolled.records] == ["8d6", "2d4"]


def test_a_ruleset_rolling_area_damage_per_target_rolls_once_per_target(
    rulesets: dict[str, Ruleset],
) -> None:
    srd = rulesets["srd-5e"]
    each = srd.model_copy(
        update={"damage": srd.damage.model_copy(update={"area_damage_rolled_once": False})}
    )
    rolled = roll_area_damage(new_dice_state(3), each, ["8d6"], 3)
    assert rolled.typed is None
    assert rolled.typed_each is not None and len(rolled.typed_each) == 3
    assert [len(t) for t in rolled.typed_each] == [1, 1, 1]
    assert [r.first_draw for r in rolled.records] == [0, 8, 16]  # fresh dice for each target
