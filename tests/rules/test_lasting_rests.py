"""Lasting state between combats (``Creature.lasting``): a combat starts from it, and
bloodied-brink's rests outside a combat read and update it.

bloodied-brink.txt, Benefits of the Long Rest: "If your Hit Point maximum was reduced, it
returns to normal" and "Exhaustion Reduced. If you have the Exhaustion condition, its level
decreases by 1." Knocking Out an Entity: the knocked-out entity has the Unconscious condition
and "start[s] a Short Rest, at the end of which that condition ends on them."
"""

from __future__ import annotations

from battlemap.model.combat import ActiveCondition, DeathState, LastingState
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.healing import heal
from battlemap.rules.initiative import start_combat
from battlemap.rules.outcome import with_combat
from battlemap.rules.rests import long_rest, short_rest
from battlemap.rules.schema import Ruleset
from battlemap.rules.turns import add_combatant
from tests.rules.fighters import combat_of, creature, encounter_of
from tests.rules.helpers import state_and_events

PC = EntityId("pc")
POISON = ActiveCondition(name="poisoned", note="1 hour")


def _kept(lasting: LastingState, hp: int = 10, ruleset: str = "bloodied-brink") -> Encounter:
    """The pc outside a combat, keeping ``lasting`` from its last one (HP maximum 40)."""
    kept = None if lasting.empty else lasting
    pc = creature("pc", hp=hp, max_hp=40).model_copy(update={"lasting": kept})
    return encounter_of(pc, creature("ally"), ruleset=ruleset)


def test_a_new_combat_starts_from_the_lasting_state() -> None:
    lasting = LastingState(conditions=(POISON,), exhaustion=2, death=DeathState(stable=True))
    encounter = _kept(lasting, hp=0, ruleset="srd-5e")
    state = start_combat(encounter, "srd-5e", seed=3)
    pc = state.combatant(PC)
    assert (pc.exhaustion, pc.conditions, pc.death) == (2, (POISON,), DeathState(stable=True))
    assert state.combatant(EntityId("ally")).exhaustion == 0


def test_a_creature_joining_a_running_combat_starts_from_its_lasting_state(
    rulesets: dict[str, Ruleset],
) -> None:
    encounter = _kept(LastingState(exhaustion=3), ruleset="srd-5e")
    others = encounter_of(creature("ally"), ruleset="srd-5e")
    state = combat_of(others)
    joined, _ = state_and_events(
        add_combatant(with_combat(encounter, state), rulesets["srd-5e"], PC, initiative=5)
    )
    assert joined.combatant(PC).exhaustion == 3


def test_bloodied_brink_long_rest_outside_combat_lowers_exhaustion_and_restores_hp_max(
    rulesets: dict[str, Ruleset],
) -> None:
    lasting = LastingState(
        conditions=(POISON,), exhaustion=2, death=DeathState(hp_max_reduction=15)
    )
    encounter = _kept(lasting)
    applied = long_rest(
        with_combat(encounter, None), rulesets["bloodied-brink"], PC, level=1, dice_total=6
    )
    after = applied.encounter.creature(PC)
    assert applied.result.exhaustion_after == 1 and applied.result.hp_max_restored
    assert after.lasting == LastingState(conditions=(POISON,), exhaustion=1)
    # 10 + 12 + 6 = 28, under the restored maximum of 40 (25 before the rest).
    assert after.hp == 28


def test_bloodied_brink_long_rest_clears_the_last_exhaustion_level(
    rulesets: dict[str, Ruleset],
) -> None:
    applied = long_rest(
        with_combat(_kept(LastingState(exhaustion=1)), None),
        rulesets["bloodied-brink"],
        PC,
        level=1,
        dice_total=1,
    )
    assert applied.encounter.creature(PC).lasting is None


def test_bloodied_brink_short_rest_outside_combat_ends_a_knockout(
    rulesets: dict[str, Ruleset],
) -> None:
    knocked = LastingState(
        conditions=(ActiveCondition(name="unconscious"),), death=DeathState(knocked_out=True)
    )
    applied = short_rest(
        with_combat(_kept(knocked, hp=1), None),
        rulesets["bloodied-brink"],
        PC,
        level=1,
        dice_total=4,
    )
    assert applied.result.woke
    assert applied.encounter.creature(PC).lasting is None
    assert any("unconscious removed" in e.text for e in applied.events)


def test_a_rest_of_a_creature_without_lasting_state_leaves_it_none(
    rulesets: dict[str, Ruleset],
) -> None:
    applied = long_rest(
        with_combat(_kept(LastingState()), None),
        rulesets["bloodied-brink"],
        PC,
        level=1,
        dice_total=1,
    )
    assert applied.encounter.creature(PC).lasting is None


def test_srd_healing_outside_combat_wakes_a_creature_kept_stable_at_0(
    rulesets: dict[str, Ruleset],
) -> None:
    # srd-5e.txt: a stable creature "does remain unconscious" at 0 HP; healing wakes it (the
    # counts are "reset to zero when you regain any hit points").
    stable = LastingState(
        conditions=(ActiveCondition(name="unconscious"), ActiveCondition(name="stable")),
        death=DeathState(stable=True, successes=3),
    )
    applied = heal(
        with_combat(_kept(stable, hp=0, ruleset="srd-5e"), None), rulesets["srd-5e"], PC, 3
    )
    pc = applied.encounter.creature(PC)
    assert (pc.hp, pc.lasting) == (3, None)
