"""ApplyCombatStep: a combat step that also changes creatures is one reversible command."""

from __future__ import annotations

from battlemap.model import Creature, Encounter
from battlemap.model.combat import CombatState, DiceState
from battlemap.model.combat_commands import ApplyCombatStep
from battlemap.model.ids import EntityId


def test_swaps_combat_and_only_the_changed_creatures_and_reverts_exactly() -> None:
    a = Creature(id="a", name="A", hp=10, max_hp=10)
    b = Creature(id="b", name="B", hp=5, max_hp=5)
    before = Encounter(creatures=(a, b))
    combat = CombatState(ruleset="srd-5e", dice=DiceState(seed=1, draws=3))
    after = before.replace_creature(b.model_copy(update={"hp": 0}))

    step = ApplyCombatStep.between(before, after, combat, "Hit B")

    assert step.old_creatures == (b,) and step.new_creatures == (after.creature(EntityId("b")),)
    applied = step.apply(before)
    assert applied.creature(EntityId("b")).hp == 0 and applied.creature(EntityId("a")) is a
    assert applied.combat == combat
    assert step.revert(applied) == before


def test_no_change_records_nothing() -> None:
    encounter = Encounter(creatures=(Creature(id="a", name="A"),))
    step = ApplyCombatStep.between(encounter, encounter, None, "Nothing")
    assert step.old_creatures == () and step.new_creatures == ()
    assert step.apply(encounter) == encounter
