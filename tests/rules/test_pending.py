"""What the fight waits on (``rules.pending``), per ruleset.

bloodied-brink (rules-sources/bloodied-brink.txt, "Brink of Death"): "As soon as your
character reaches the Brink of Death ... the Initiative Order and any ongoing turn pauses.
You must make a choice". srd-5e ("Death Saving Throws"): "Whenever you start your turn with 0
hit points, you must make a special saving throw": due as the dying creature's turn starts.
"""

from __future__ import annotations

import pytest

from battlemap.model.combat import CombatState, DeathState
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.errors import IllegalActionError
from battlemap.rules.outcome import with_combat
from battlemap.rules.pending import DecisionKind, next_turn_refusal, pending_decisions
from battlemap.rules.schema import Ruleset
from battlemap.rules.turn_steps import next_turn
from tests.rules.fighters import creature, fight

PC, MEDIC = EntityId("pc"), EntityId("medic")


def dying_pc(ruleset_id: str, **death: object) -> tuple[Encounter, CombatState]:
    """The medic acts first (turn index 1 of pc, medic: the pc's turn comes next)."""
    encounter, combat = fight(
        creature("pc", hp=0, max_hp=20),
        creature("medic", hp=20),
        ruleset=ruleset_id,
        conditions={"pc": ("unconscious", "prone")},
    )
    pc = combat.combatant(PC)
    combat = combat.with_combatant(pc.model_copy(update={"death": DeathState(**death)}))
    return encounter, combat.model_copy(update={"turn_index": 1})


@pytest.mark.parametrize("ruleset_id", ["srd-5e", "bloodied-brink", "gms-den"])
def test_a_death_save_is_due_as_the_dying_creature_s_turn_comes(
    rulesets: dict[str, Ruleset], ruleset_id: str
) -> None:
    encounter = with_combat(*dying_pc(ruleset_id))
    (decision,) = pending_decisions(encounter, rulesets[ruleset_id])
    assert decision.kind is DecisionKind.DEATH_SAVE and decision.creature_id == PC
    assert decision.text == "Pc is dying: death save as its turn starts"
    assert not decision.blocks_next_turn  # Next turn makes the save itself
    assert next_turn_refusal(encounter, rulesets[ruleset_id]) is None


def test_no_decision_for_a_stable_creature_or_outside_round_1(
    rulesets: dict[str, Ruleset],
) -> None:
    srd = rulesets["srd-5e"]
    assert pending_decisions(with_combat(*dying_pc("srd-5e", stable=True)), srd) == ()
    encounter, combat = dying_pc("srd-5e")
    assert pending_decisions(encounter, srd) == ()  # no combat in the encounter itself
    before_round_1 = combat.model_copy(update={"round": 0})
    assert pending_decisions(with_combat(encounter, before_round_1), srd) == ()


def test_bloodied_brink_the_brink_blocks_next_turn_with_the_engine_s_reason(
    rulesets: dict[str, Ruleset],
) -> None:
    bb = rulesets["bloodied-brink"]
    encounter = with_combat(*dying_pc("bloodied-brink", brink=True))
    (decision,) = pending_decisions(encounter, bb)  # on the Brink: no death save either
    assert decision.kind is DecisionKind.BRINK and decision.blocks_next_turn
    refusal = next_turn_refusal(encounter, bb)
    assert refusal == "initiative is paused: Pc must choose on the Brink"
    with pytest.raises(IllegalActionError) as raised:
        next_turn(encounter, bb)
    assert raised.value.reason == refusal  # the query says what the engine refuses


def test_bloodied_brink_last_breath_is_shown_and_does_not_block(
    rulesets: dict[str, Ruleset],
) -> None:
    bb = rulesets["bloodied-brink"]
    encounter = with_combat(*dying_pc("bloodied-brink", last_breath=True))
    (decision,) = pending_decisions(encounter, bb)
    assert decision.kind is DecisionKind.LAST_BREATH and not decision.blocks_next_turn
    assert next_turn_refusal(encounter, bb) is None
