"""Effects lasting "until the end of your next turn" (``Expiry.END_OF_NEXT_TURN``).

gms-den "Massive Damage*": a 1 on the d20 leaves the creature "Stunned until the end of your
next turn". Taken on its own turn, that is the end of the turn after this one; taken on
someone else's turn, the end of its coming turn.
"""

from __future__ import annotations

from battlemap.model.combat import ActiveCondition, Combatant, CombatState, Expiry, TurnSlot
from battlemap.model.creature import Side
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.conditions import apply_condition
from battlemap.rules.damage import DamageInstance, apply_damage
from battlemap.rules.enums import ConditionDuration
from battlemap.rules.outcome import with_combat
from battlemap.rules.schema import Ruleset
from battlemap.rules.turns import end_turn
from tests.rules.fighters import creature, fight
from tests.rules.helpers import state_and_events

PC, OGRE = EntityId("pc"), EntityId("ogre")


def _stunned_by_massive_damage(gms: Ruleset, on_turn_of: EntityId) -> tuple[Encounter, CombatState]:
    encounter, combat = fight(
        creature("pc", hp=30), creature("ogre", hp=50, side=Side.HOSTILE), ruleset="gms-den"
    )
    if on_turn_of == OGRE:
        combat, _ = state_and_events(end_turn(with_combat(encounter, combat), gms))
    assert combat.current is not None and combat.current.creature_id == on_turn_of
    applied = apply_damage(
        with_combat(encounter, combat),
        gms,
        PC,
        [DamageInstance(15, "fire")],
        from_attack=True,
        massive_d20=1,
    )
    assert applied.combat is not None
    return applied.encounter, applied.combat


def _stunned(combat: CombatState) -> bool:
    return combat.combatant(PC).has_condition("stunned")


def test_stunned_on_its_own_turn_lasts_through_its_next_turn(rulesets: dict[str, Ruleset]) -> None:
    gms = rulesets["gms-den"]
    encounter, combat = _stunned_by_massive_damage(gms, on_turn_of=PC)
    (stun,) = [c for c in combat.combatant(PC).conditions if c.name == "stunned"]
    assert stun.expiry is Expiry.END_OF_NEXT_TURN and stun.turn_ends_to_skip == 1
    combat, _ = state_and_events(
        end_turn(with_combat(encounter, combat), gms)
    )  # the pc's current turn ends: not "next"
    assert _stunned(combat)
    combat, _ = state_and_events(end_turn(with_combat(encounter, combat), gms))  # the ogre's turn
    assert _stunned(combat)
    combat, events = state_and_events(
        end_turn(with_combat(encounter, combat), gms)
    )  # the pc's next turn ends
    assert not _stunned(combat)
    assert any(e.kind == "condition-ends" and "stunned" in e.text for e in events)


def test_stunned_on_another_turn_ends_with_its_coming_turn(rulesets: dict[str, Ruleset]) -> None:
    gms = rulesets["gms-den"]
    encounter, combat = _stunned_by_massive_damage(gms, on_turn_of=OGRE)
    combat, _ = state_and_events(
        end_turn(with_combat(encounter, combat), gms)
    )  # the ogre's turn ends
    assert _stunned(combat)
    combat, _ = state_and_events(
        end_turn(with_combat(encounter, combat), gms)
    )  # the pc's next turn ends
    assert not _stunned(combat)


def test_end_of_turn_still_ends_with_the_current_turn(rulesets: dict[str, Ruleset]) -> None:
    # The older expiry keeps its meaning: "until the end of your turn".
    srd = rulesets["srd-5e"]
    encounter, combat = fight(creature("pc"), creature("ogre", side=Side.HOSTILE))
    combat, _ = state_and_events(
        apply_condition(with_combat(encounter, combat), srd, PC, "prone", expiry=Expiry.END_OF_TURN)
    )
    combat, _ = state_and_events(end_turn(with_combat(encounter, combat), srd))
    assert not combat.combatant(PC).has_condition("prone")


def test_combat_saved_before_these_fields_still_loads() -> None:
    # A combatant and condition as an older Battlemap wrote them: no reactions_taken,
    # controlled_by or turn_ends_to_skip. They load with the defaults (no migration needed).
    old = {
        "creature_id": "pc",
        "group": "party",
        "reaction_used": True,
        "conditions": [{"name": "stunned", "expiry": "end-of-turn", "expiry_creature": "pc"}],
    }
    combatant = Combatant.model_validate(old)
    assert combatant.reactions_taken == 0 and combatant.controlled_by is None
    assert combatant.conditions == (
        ActiveCondition(name="stunned", expiry=Expiry.END_OF_TURN, expiry_creature=PC),
    )
    assert TurnSlot.model_validate({"creature_id": "pc"}).creature_id == PC


def test_a_condition_whose_default_lasts_to_the_end_of_the_next_turn(
    rulesets: dict[str, Ruleset],
) -> None:
    # A DM's own condition with default_duration end-of-next-turn, given on the pc's turn.
    srd = rulesets["srd-5e"]
    dazed = srd.conditions["stunned"].model_copy(
        update={"name": "Dazed", "default_duration": ConditionDuration.UNTIL_END_OF_NEXT_TURN}
    )
    ruleset = srd.model_copy(update={"conditions": {**srd.conditions, "dazed": dazed}})
    encounter, combat = fight(creature("pc"), creature("ogre", side=Side.HOSTILE))
    combat, _ = state_and_events(
        apply_condition(with_combat(encounter, combat), ruleset, PC, "dazed")
    )
    for _ in range(2):  # the pc's turn, then the ogre's
        combat, _ = state_and_events(end_turn(with_combat(encounter, combat), ruleset))
        assert combat.combatant(PC).has_condition("dazed")
    combat, _ = state_and_events(end_turn(with_combat(encounter, combat), ruleset))
    assert not combat.combatant(PC).has_condition("dazed")
