"""A dead creature's turn is skipped; a dying one still has its turn (srd-5e).

srd-5e ("Dropping to 0 Hit Points", "Monsters and Death": "Most DMs have a monster die the
instant it drops to 0 hit points"; a dead creature takes no turns), and "Death Saving
Throws": "Whenever you start your turn with 0 hit points, you must make a special saving
throw": the dying creature's turn comes, with its save.
"""

from __future__ import annotations

from battlemap.model.combat import ActiveCondition, CombatState, DeathState, Expiry
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.outcome import with_combat
from battlemap.rules.schema import Ruleset
from battlemap.rules.turn_steps import next_turn
from battlemap.rules.turns import end_turn, upcoming_creature
from tests.rules.fighters import creature, fight

A, GOB, PC, B = EntityId("a"), EntityId("gob"), EntityId("pc"), EntityId("b")


def with_death(combat: CombatState, creature_id: EntityId, **death: object) -> CombatState:
    combatant = combat.combatant(creature_id)
    return combat.with_combatant(combatant.model_copy(update={"death": DeathState(**death)}))


def order_a_gob_pc_b() -> tuple[Encounter, CombatState]:
    """Round 1, A's turn; the goblin is dead, the PC dying (0 HP, not stable)."""
    encounter, combat = fight(
        creature("a"), creature("gob", hp=0), creature("pc", hp=0), creature("b")
    )
    combat = with_death(combat, GOB, dead=True)
    return encounter, combat


def test_the_dead_goblin_s_turn_is_skipped_and_logged_the_dying_pc_still_plays(
    rulesets: dict[str, Ruleset],
) -> None:
    srd = rulesets["srd-5e"]
    encounter = with_combat(*order_a_gob_pc_b())
    assert encounter.combat is not None and upcoming_creature(encounter.combat) == PC
    step = next_turn(encounter, srd, death_save_d20=15)
    combat = step.combat
    assert combat is not None and combat.current is not None
    assert combat.current.creature_id == PC  # the goblin's slot passed
    assert step.result.started == PC and step.result.death_save is not None  # its save made
    texts = [e.text for e in step.events]
    assert "Gob's turn is skipped: dead" in texts
    assert "Gob's turn" not in texts  # no turn started for it
    assert combat.combatant(GOB).turns_taken == 0


def test_skipping_wraps_into_the_next_round(rulesets: dict[str, Ruleset]) -> None:
    srd = rulesets["srd-5e"]
    encounter, combat = order_a_gob_pc_b()
    combat = with_death(combat, B, dead=True).model_copy(update={"turn_index": 2})  # PC's turn
    assert upcoming_creature(combat) == A
    ended = end_turn(with_combat(encounter, combat), srd)
    after = ended.combat
    assert after is not None and after.round == 2 and after.current is not None
    assert after.current.creature_id == A
    texts = [e.text for e in ended.events]
    assert texts.index("B's turn is skipped: dead") < texts.index("round 2 begins")


def test_what_lasts_until_the_dead_creature_s_turn_ends_as_the_turn_passes(
    rulesets: dict[str, Ruleset],
) -> None:
    srd = rulesets["srd-5e"]
    encounter, combat = order_a_gob_pc_b()
    frightened = ActiveCondition(name="frightened", expiry=Expiry.END_OF_TURN, expiry_creature=GOB)
    b = combat.combatant(B)
    combat = combat.with_combatant(b.model_copy(update={"conditions": (frightened,)}))
    ended = end_turn(with_combat(encounter, combat), srd)
    assert ended.combat is not None
    assert not ended.combat.combatant(B).has_condition("frightened")


def test_when_everyone_is_dead_a_turn_still_starts(rulesets: dict[str, Ruleset]) -> None:
    srd = rulesets["srd-5e"]
    encounter, combat = fight(creature("a"), creature("gob", hp=0))
    combat = with_death(with_death(combat, GOB, dead=True), A, dead=True)
    assert upcoming_creature(combat) is None
    ended = end_turn(with_combat(encounter, combat), srd)  # no endless loop
    assert ended.combat is not None and ended.combat.current is not None
