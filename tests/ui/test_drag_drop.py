"""What a drop does, without the mouse: ``DragPlan`` + ``resolve_drop`` on the srd-5e room.

These cover the engine paths the mouse tests don't reach: a crawl while prone charged once
(the geometry's crawl cost is handed to the engine as distance, not as cost), an opportunity
attack that drops the mover so the move stops where the attack happened, a creature moved
off its turn, and a drop outside combat being a plain move.
"""

from __future__ import annotations

import math

from battlemap.geometry import MapIndex
from battlemap.model.combat_commands import ApplyCombatStep
from battlemap.model.document import MoveCreature
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.model.statblock import Attack, AttackKind, Damage, StatBlock
from battlemap.rules.conditions import apply_condition
from battlemap.rules.loader import load_registry
from battlemap.ui.drag.drop import Choice, DropOutcome, resolve_drop
from battlemap.ui.drag.plan import DragPlan
from tests.ui.drag_helpers import fighting, room

FIGHTER, GOBLIN = EntityId("c-fighter"), EntityId("c-goblin")
RULESET = load_registry().get("srd-5e")
BRUTE = StatBlock(
    name="Brute",
    type="humanoid",
    armor_class=15,
    hit_points=40,
    attacks=(
        Attack(
            name="Maul",
            kind=AttackKind.MELEE,
            to_hit=40,  # hits on anything but a natural 1
            reach=5,
            damage=(Damage(dice="2d6+40", type="bludgeoning"),),
        ),
    ),
)


def drop(encounter: Encounter, to: tuple[int, int], choice: Choice = Choice.TAKE) -> DropOutcome:
    plan = DragPlan(encounter, RULESET, MapIndex.build(encounter), FIGHTER)
    result = plan.evaluate((), to, False).result
    assert result.legal, result.reason
    return resolve_drop(
        encounter, RULESET, plan.index, FIGHTER, result, plan.offset, to, lambda *_: choice
    )


def test_prone_crawl_is_charged_once() -> None:
    encounter = room()
    state = fighting(encounter)
    state, _ = apply_condition(state, RULESET, encounter, FIGHTER, "prone")
    encounter = encounter.model_copy(update={"combat": state})
    plan = DragPlan(encounter, RULESET, MapIndex.build(encounter), FIGHTER)
    # two straight steps crawling: the geometry charges 10 ft each
    assert plan.evaluate((), (2, 4), False).result.cost_feet == 20
    outcome = drop(encounter, (2, 4))
    command = outcome.command
    assert isinstance(command, ApplyCombatStep)
    after = command.apply(encounter)
    assert after.combat is not None
    assert after.combat.combatant(FIGHTER).turn.movement_used == 20  # not 30
    assert (after.creature(FIGHTER).x, after.creature(FIGHTER).y) == (2, 4)


def test_an_opportunity_attack_that_drops_the_mover_stops_the_move() -> None:
    encounter = room()
    brute = encounter.creature(GOBLIN).model_copy(update={"x": 3, "y": 3, "statblock": BRUTE})
    fighter = encounter.creature(FIGHTER).model_copy(update={"hp": 1})
    encounter = encounter.replace_creature(brute).replace_creature(fighter)
    encounter = encounter.model_copy(update={"combat": fighting(encounter)})
    outcome = drop(encounter, (5, 2))
    command = outcome.command
    assert isinstance(command, ApplyCombatStep)
    after = command.apply(encounter)
    mover = after.creature(FIGHTER)
    # the attack happens before the step that leaves the reach, with the Fighter at (4, 2)
    assert (mover.x, mover.y) == (4, 2) and mover.hp == 0
    assert after.combat is not None
    assert after.combat.combatant(FIGHTER).turn.movement_used == 10
    assert after.combat.combatant(GOBLIN).reaction_used
    assert "stops" in outcome.message
    assert command.revert(after) == encounter


def test_off_its_turn_the_engine_refuses_and_nothing_changes() -> None:
    encounter = room()
    encounter = encounter.model_copy(update={"combat": fighting(encounter, first="c-cleric")})
    plan = DragPlan(encounter, RULESET, MapIndex.build(encounter), FIGHTER)
    assert math.isinf(plan.budget.left) and plan.budget.note == "not Fighter's turn"
    outcome = drop(encounter, (2, 4))
    assert outcome.command is None
    assert "isn't Fighter's turn" in outcome.message


def test_outside_combat_a_drop_is_a_plain_move() -> None:
    outcome = drop(room(), (4, 4))
    assert outcome.command == MoveCreature(FIGHTER, (2, 2), (4, 4), "Move Fighter (15 ft)")
