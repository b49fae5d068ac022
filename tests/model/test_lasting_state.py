"""A creature's lasting state (exhaustion, lasting conditions, dying/stable, knockout, reduced HP
maximum) outlives an ended combat on ``Creature.lasting``; End combat is one undo step."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from battlemap.io.encounter_file import encounter_json_bytes, load_battlemap, save_battlemap
from battlemap.model import Creature, Encounter
from battlemap.model.combat import (
    ActiveCondition,
    Combatant,
    CombatState,
    DeathState,
    DiceState,
    Expiry,
    LastingState,
)
from battlemap.model.combat_commands import end_combat
from battlemap.model.ids import EntityId

HOUR_POISON = ActiveCondition(name="poisoned", note="1 hour")
DODGE_LIKE = ActiveCondition(
    name="restrained", expiry=Expiry.END_OF_TURN, expiry_creature=EntityId("tired")
)


def _fighting() -> Encounter:
    """Three creatures in a combat: an exhausted, poisoned one (a poison for an hour, which
    ends on no turn, and a turn-based restraint), one stable at 0 HP, one untouched."""
    tired = Creature(id="tired", name="Tired", hp=8, max_hp=20)
    down = Creature(id="down", name="Down", hp=0, max_hp=12)
    fresh = Creature(id="fresh", name="Fresh")
    combat = CombatState(
        ruleset="srd-5e",
        round=3,
        dice=DiceState(seed=1),
        combatants=(
            Combatant(
                creature_id=tired.id,
                group="a",
                exhaustion=2,
                conditions=(HOUR_POISON, DODGE_LIKE),
                death=DeathState(hp_max_reduction=4),
            ),
            Combatant(
                creature_id=down.id,
                group="b",
                conditions=(ActiveCondition(name="unconscious"),),
                death=DeathState(stable=True),
            ),
            Combatant(creature_id=fresh.id, group="c"),
        ),
    )
    return Encounter(creatures=(tired, down, fresh), combat=combat)


def test_ending_a_combat_keeps_exhaustion_lasting_conditions_and_death_state() -> None:
    ended = _fighting().with_combat_ended()

    assert ended.combat is None
    assert ended.creature(EntityId("tired")).lasting == LastingState(
        conditions=(HOUR_POISON,), exhaustion=2, death=DeathState(hp_max_reduction=4)
    )
    down = ended.creature(EntityId("down")).lasting
    assert down is not None and down.death.stable and down.conditions[0].name == "unconscious"
    assert ended.creature(EntityId("fresh")).lasting is None


def test_a_turn_based_condition_ends_with_the_combat() -> None:
    lasting = _fighting().with_combat_ended().creature(EntityId("tired")).lasting
    assert lasting is not None
    assert "restrained" not in {c.name for c in lasting.conditions}


def test_a_combatant_with_nothing_left_clears_what_its_creature_kept() -> None:
    encounter = _fighting()
    kept = LastingState(exhaustion=1)
    fresh = encounter.creature(EntityId("fresh")).model_copy(update={"lasting": kept})
    ended = encounter.replace_creature(fresh).with_combat_ended()
    assert ended.creature(EntityId("fresh")).lasting is None


def test_undo_of_end_combat_restores_the_encounter_exactly() -> None:
    before = _fighting()
    command = end_combat(before)
    after = command.apply(before)
    assert after == before.with_combat_ended()
    assert command.revert(after) == before


def test_a_creature_without_lasting_state_is_saved_as_before() -> None:
    data = json.loads(encounter_json_bytes(Encounter(creatures=(Creature(name="A"),))))
    assert "lasting" not in json.dumps(data)


def test_lasting_state_survives_save_and_load(tmp_path: Path) -> None:
    ended = _fighting().with_combat_ended()
    path = tmp_path / "kept.battlemap"
    save_battlemap(path, ended, {})
    assert load_battlemap(path).encounter == ended


def test_a_saved_creature_without_the_field_loads_with_none() -> None:
    raw = Creature(name="Old").model_dump(mode="json")
    assert "lasting" not in raw
    assert Creature.model_validate(raw).lasting is None


@given(
    exhaustion=st.integers(min_value=0, max_value=10),
    expiries=st.lists(st.sampled_from(list(Expiry)), max_size=5),
    stable=st.booleans(),
)
def test_ending_then_rejoining_keeps_exactly_the_lasting_part(
    exhaustion: int, expiries: list[Expiry], stable: bool
) -> None:
    conditions = tuple(
        ActiveCondition(name=f"c{i}", expiry=e, expiry_creature=EntityId("a"))
        for i, e in enumerate(expiries)
    )
    fighter = Combatant(
        creature_id=EntityId("a"),
        group="a",
        exhaustion=exhaustion,
        conditions=conditions,
        death=DeathState(stable=stable),
    )
    combat = CombatState(ruleset="srd-5e", dice=DiceState(seed=1), combatants=(fighter,))
    before = Encounter(creatures=(Creature(id="a", name="A"),), combat=combat)
    command = end_combat(before)
    ended = command.apply(before)
    lasting = ended.creature(EntityId("a")).lasting
    kept = tuple(c for c in conditions if c.expiry is Expiry.NEVER)
    if not kept and not exhaustion and not stable:
        assert lasting is None
    else:
        assert lasting == LastingState(
            conditions=kept, exhaustion=exhaustion, death=DeathState(stable=stable)
        )
        rejoined = Combatant(creature_id=EntityId("a"), group="a").with_lasting(lasting)
        assert rejoined.lasting() == lasting
    assert command.revert(ended) == before
