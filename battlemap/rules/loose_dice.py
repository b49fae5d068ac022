"""The app's own dice outside a combat, rolled as the ruleset says and handed in as typed.

Outside a combat there are no combat dice: a dialog rolls fresh dice seeded by the session
and passes the results to the engine as ``AppRoll`` values (logged as rolled by the app).
How many dice to roll is a rules decision, made here rather than in the dialogs: a d20 test
with advantage or disadvantage rolls two, and area damage is rolled once for every target
or once per target as the ruleset's ``damage.area_damage_rolled_once`` says.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from battlemap.model.combat import DiceState, RollRecord
from battlemap.rules.attack_types import RollMode
from battlemap.rules.dice import AppRoll, roll
from battlemap.rules.schema import Ruleset


def fresh_d20s(
    dice: DiceState, mode: RollMode, purpose: str
) -> tuple[DiceState, tuple[AppRoll, ...]]:
    """The d20 faces of a test in ``mode`` from ``dice`` (two with advantage or
    disadvantage), with the advanced dice state."""
    faces = []
    for _ in range(mode.d20_count):
        dice, record = roll(dice, "1d20", purpose)
        faces.append(AppRoll(record.total))
    return dice, tuple(faces)


@dataclass(frozen=True)
class AreaDamageRolls:
    """Area damage rolled outside a combat, in the shape ``apply_area_damage`` takes: one
    total per part for every target (``typed``) or one list per target (``typed_each``)."""

    typed: tuple[AppRoll, ...] | None
    typed_each: tuple[tuple[AppRoll, ...], ...] | None
    records: tuple[RollRecord, ...]


def roll_area_damage(
    dice: DiceState, ruleset: Ruleset, parts: Sequence[str], target_count: int
) -> AreaDamageRolls:
    """Roll each part's dice once for every target, or once per target in target order,
    as ``ruleset`` says (srd "Damage Rolls": "roll the damage once for all of them").

    Raises:
        DiceExpressionError: a part's dice can't be rolled.
    """
    once = ruleset.damage.area_damage_rolled_once
    rolls: list[tuple[AppRoll, ...]] = []
    records: list[RollRecord] = []
    for _ in range(1 if once else target_count):
        totals = []
        for expression in parts:
            dice, record = roll(dice, expression, "area damage")
            totals.append(AppRoll(record.total))
            records.append(record)
        rolls.append(tuple(totals))
    if once:
        return AreaDamageRolls(rolls[0], None, tuple(records))
    return AreaDamageRolls(None, tuple(rolls), tuple(records))
