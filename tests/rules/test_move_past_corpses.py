"""srd-5e: a dead creature's body neither blocks a move nor makes an opportunity attack (the
scripted session's fighter was refused "can't pass through Goblin's space" by a corpse).

The room (``move_builders.room``): the Goblin moved to (3, 2), in the Fighter's way east."""

from __future__ import annotations

from battlemap.geometry import MapIndex
from battlemap.model.combat import DeathState
from battlemap.model.ids import EntityId
from battlemap.rules.loader import load_registry
from battlemap.rules.move_plan import MovePlan
from tests.rules.move_builders import fighting, room

FIGHTER, GOBLIN = EntityId("c-fighter"), EntityId("c-goblin")
RULESET = load_registry().get("srd-5e")


def plan_through_the_goblin(dead: bool) -> MovePlan:
    encounter = room()
    goblin = encounter.creature(GOBLIN).model_copy(update={"x": 3, "y": 2, "hp": 0 if dead else 7})
    encounter = encounter.replace_creature(goblin)
    state = fighting(encounter)
    if dead:
        body = state.combatant(GOBLIN).model_copy(update={"death": DeathState(dead=True)})
        state = state.with_combatant(body)
    encounter = encounter.model_copy(update={"combat": state})
    return MovePlan(encounter, RULESET, MapIndex.build(encounter), FIGHTER)


def test_a_living_goblin_blocks_the_way() -> None:
    result = plan_through_the_goblin(dead=False).evaluate((), (4, 2), False).result
    assert not result.legal and result.reason is not None


def test_a_dead_goblin_is_passed_and_attacks_no_one() -> None:
    evaluated = plan_through_the_goblin(dead=True).evaluate((), (4, 2), False)
    assert evaluated.result.legal, evaluated.result.reason
    assert evaluated.result.cost_feet == 10
    assert not evaluated.result.opportunity_attacks
