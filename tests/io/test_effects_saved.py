"""Concentration, save-ends conditions and durations are saved and reopened, in a combat and
on a creature's lasting state, and their sizes are bounded (issue 16)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from battlemap.io.encounter_file import save_battlemap
from battlemap.io.loader import load_encounter
from battlemap.model.combat import (
    MAX_EFFECT_ROUNDS,
    MAX_SAVES_DUE,
    ActiveCondition,
    Combatant,
    CombatState,
    Concentration,
    DiceState,
    LastingState,
    SaveEnds,
)
from battlemap.model.creature import Creature
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId

CLERIC, OGRE = EntityId("cleric"), EntityId("ogre")
HELD = ActiveCondition(
    name="paralyzed",
    held_by=CLERIC,
    save_ends=SaveEnds(ability="wis", dc=14, due=True),
    rounds_left=10,
)
BLESS = Concentration(spell="Bless", saves_due=(12, 10))


def _reopened(encounter: Encounter, tmp_path: Path) -> Encounter:
    path = tmp_path / "effects.battlemap"
    save_battlemap(path, encounter, {})
    return load_encounter(path)


def test_a_combat_s_concentration_and_held_conditions_reopen(tmp_path: Path) -> None:
    combat = CombatState(
        ruleset="srd-5e",
        combatants=(
            Combatant(creature_id=CLERIC, group="c", concentration=BLESS),
            Combatant(creature_id=OGRE, group="o", conditions=(HELD,)),
        ),
        dice=DiceState(seed=1),
    )
    encounter = Encounter(
        creatures=(Creature(id=CLERIC, name="Cleric"), Creature(id=OGRE, name="Ogre")),
        combat=combat,
    )
    reopened = _reopened(encounter, tmp_path).combat
    assert reopened is not None
    assert reopened.combatant(CLERIC).concentration == BLESS
    assert reopened.combatant(OGRE).conditions == (HELD,)


def test_the_lasting_state_keeps_them_between_combats(tmp_path: Path) -> None:
    lasting = LastingState(conditions=(HELD,), concentration=BLESS)
    encounter = Encounter(creatures=(Creature(id=CLERIC, name="Cleric", lasting=lasting),))
    assert _reopened(encounter, tmp_path).creature(CLERIC).lasting == lasting
    assert not LastingState(concentration=BLESS).empty


def test_the_new_fields_are_bounded() -> None:
    with pytest.raises(ValidationError):
        Concentration(spell="x" * 81)
    with pytest.raises(ValidationError):
        Concentration(spell="Bless", saves_due=(10,) * (MAX_SAVES_DUE + 1))
    with pytest.raises(ValidationError):
        ActiveCondition(name="poisoned", rounds_left=MAX_EFFECT_ROUNDS + 1)
    with pytest.raises(ValidationError):
        SaveEnds(ability="luck", dc=10)
    with pytest.raises(ValidationError):
        SaveEnds(ability="wis", dc=41)
