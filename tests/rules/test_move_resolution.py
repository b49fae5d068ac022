"""What a drop does, without the mouse: ``MovePlan`` + ``resolve_move`` on the srd-5e room.

These cover the engine paths the mouse tests don't reach: a crawl while prone charged once
(the geometry's crawl cost is handed to the engine as distance, not as cost), an opportunity
attack that drops the mover so the move stops where the attack happened, a creature moved
off its turn, a drop outside combat being a plain move, and the resumable ``MoveResolution``
(answers with typed dice, a refused typed die, calling off).
"""

from __future__ import annotations

import math

import pytest

from battlemap.geometry import MapIndex
from battlemap.model.combat_commands import ApplyCombatStep
from battlemap.model.document import MoveCreature
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.model.statblock import Attack, AttackKind, Damage, StatBlock
from battlemap.rules.conditions import apply_condition
from battlemap.rules.loader import load_registry
from battlemap.rules.move_plan import MovePlan
from battlemap.rules.move_resolution import (
    Answer,
    Choice,
    MoveOutcome,
    MoveResolution,
    resolve_move,
)
from battlemap.rules.outcome import with_combat
from tests.rules.helpers import state_and_events
from tests.rules.move_builders import GOBLIN_BLOCK, fighting, goblin_beside_fighter, room

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


def drop(encounter: Encounter, to: tuple[int, int], choice: Choice = Choice.TAKE) -> MoveOutcome:
    plan = MovePlan(encounter, RULESET, MapIndex.build(encounter), FIGHTER)
    result = plan.evaluate((), to, False).result
    assert result.legal, result.reason
    return resolve_move(
        encounter, RULESET, plan.index, FIGHTER, result, plan.offset, to, lambda *_: choice
    )


def test_prone_crawl_is_charged_once() -> None:
    encounter = room()
    state = fighting(encounter)
    state, _ = state_and_events(
        apply_condition(with_combat(encounter, state), RULESET, FIGHTER, "prone")
    )
    encounter = encounter.model_copy(update={"combat": state})
    plan = MovePlan(encounter, RULESET, MapIndex.build(encounter), FIGHTER)
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
    plan = MovePlan(encounter, RULESET, MapIndex.build(encounter), FIGHTER)
    assert math.isinf(plan.budget.left) and plan.budget.note == "not Fighter's turn"
    outcome = drop(encounter, (2, 4))
    assert outcome.command is None
    assert "isn't Fighter's turn" in outcome.message


def test_outside_combat_a_drop_is_a_plain_move() -> None:
    outcome = drop(room(), (4, 4))
    assert outcome.command == MoveCreature(FIGHTER, (2, 2), (4, 4), "Move Fighter (15 ft)")


def resolution(encounter: Encounter, to: tuple[int, int]) -> MoveResolution:
    plan = MovePlan(encounter, RULESET, MapIndex.build(encounter), FIGHTER)
    result = plan.evaluate((), to, False).result
    assert result.legal, result.reason
    return MoveResolution(encounter, RULESET, plan.index, FIGHTER, result, plan.offset, to)


def test_the_drop_waits_at_the_attack_with_its_preview() -> None:
    encounter = goblin_beside_fighter()
    waiting = resolution(encounter, (5, 2))
    pending = waiting.pending
    assert pending is not None and waiting.outcome is None
    assert (pending.attacker, pending.mover, pending.number, pending.total) == (
        "Goblin", "Fighter", 1, 1,
    )  # fmt: skip
    assert pending.offer.position == (4, 2) and pending.offer.step_index == 2
    assert (pending.profile.name, pending.profile.to_hit) == ("Scimitar", 4)
    assert pending.preview is not None and pending.refusal == ""
    assert pending.preview.armor_class.value == 10  # the Fighter's AC, no cover
    assert pending.preview.roll_mode.mode.value == "normal"


def test_a_typed_natural_20_with_typed_damage_is_a_critical_hit() -> None:
    encounter = goblin_beside_fighter()
    waiting = resolution(encounter, (5, 2))
    waiting.answer(Answer(Choice.TAKE, d20=(20,), damage_rolls=(11,)))
    outcome = waiting.outcome
    assert waiting.pending is None and outcome is not None
    assert isinstance(outcome.command, ApplyCombatStep)
    after = outcome.command.apply(encounter)
    assert after.creature(FIGHTER).hp == 30 - 11  # the typed total, critical dice included
    assert (after.creature(FIGHTER).x, after.creature(FIGHTER).y) == (5, 2)
    assert "critical hit (20+4 = 24 vs AC 10): 11 damage, HP 30 -> 19" in outcome.message
    assert after.combat is not None and after.combat.combatant(GOBLIN).reaction_used
    assert outcome.command.revert(after) == encounter


def test_a_typed_die_that_cant_be_keeps_the_attack_waiting() -> None:
    encounter = goblin_beside_fighter()
    waiting = resolution(encounter, (5, 2))
    waiting.answer(Answer(Choice.TAKE, d20=(21,)))
    pending = waiting.pending
    assert pending is not None and waiting.outcome is None
    assert "21 is not a face of a d20" in pending.error
    waiting.answer(Answer(Choice.TAKE, d20=(2,)))  # 2+4 = 6 misses AC 10
    outcome = waiting.outcome
    assert outcome is not None and isinstance(outcome.command, ApplyCombatStep)
    assert "misses (2+4 = 6 vs AC 10)" in outcome.message
    after = outcome.command.apply(encounter)
    assert after.creature(FIGHTER).hp == 30


def test_skip_call_off_and_answers_after_the_end() -> None:
    encounter = goblin_beside_fighter()
    skipped = resolution(encounter, (5, 2))
    skipped.answer(Answer(Choice.SKIP, d20=(20,)))  # typed dice don't matter on a skip
    assert skipped.outcome is not None and isinstance(skipped.outcome.command, ApplyCombatStep)
    after = skipped.outcome.command.apply(encounter)
    assert after.combat is not None and not after.combat.combatant(GOBLIN).reaction_used
    assert "Goblin lets Fighter go" in skipped.outcome.message
    with pytest.raises(ValueError, match="no opportunity attack is waiting"):
        skipped.answer(Answer(Choice.TAKE))
    cancelled = resolution(encounter, (5, 2))
    cancelled.answer(Answer(Choice.CANCEL))
    assert cancelled.outcome == MoveOutcome(None, "Move of Fighter called off; nothing changed.")
    called_off = resolution(encounter, (5, 2))
    outcome = called_off.call_off("the map changed")
    assert outcome.command is None and called_off.pending is None
    assert outcome.message == "Move of Fighter called off (the map changed); nothing changed."


def test_without_attacks_the_outcome_is_ready_at_once() -> None:
    done = resolution(goblin_beside_fighter(), (3, 2))  # still within the Goblin's reach
    assert done.pending is None
    assert done.outcome is not None and isinstance(done.outcome.command, ApplyCombatStep)


def test_stat_blocks_by_name_give_the_attack_and_the_movers_resistance() -> None:
    """The Goblin has no stat block of its own (the library's 'Goblin' by its base name) and
    the Fighter's party block resists slashing: 8 typed slashing damage becomes 4."""
    encounter = goblin_beside_fighter()
    goblin = encounter.creature(GOBLIN).model_copy(update={"statblock": None, "name": "Goblin 2"})
    fighter_block = StatBlock(
        name="Fighter", type="humanoid", armor_class=10, hit_points=30,
        damage_resistances=("slashing",),
    )  # fmt: skip
    encounter = encounter.replace_creature(goblin).model_copy(update={"party": (fighter_block,)})
    plan = MovePlan(encounter, RULESET, MapIndex.build(encounter), FIGHTER)
    result = plan.evaluate((), (5, 2), False).result
    library = {"Goblin": GOBLIN_BLOCK}
    waiting = MoveResolution(
        encounter, RULESET, plan.index, FIGHTER, result, plan.offset, (5, 2), library
    )
    assert waiting.pending is not None and waiting.pending.profile.name == "Scimitar"
    waiting.answer(Answer(Choice.TAKE, d20=(15,), damage_rolls=(8,)))
    assert waiting.outcome is not None and isinstance(waiting.outcome.command, ApplyCombatStep)
    assert waiting.outcome.command.apply(encounter).creature(FIGHTER).hp == 30 - 4
    without = resolution(encounter, (5, 2))  # no library: an unarmed strike
    assert without.pending is not None and without.pending.profile.name != "Scimitar"


def test_a_trial_d20_tells_hit_or_miss_and_records_nothing() -> None:
    encounter = goblin_beside_fighter()
    waiting = resolution(encounter, (5, 2))
    critical, miss = waiting.trial((20,)), waiting.trial((5,))
    assert (critical.hit, critical.critical, critical.total) == (True, True, 24)
    assert critical.damage is None  # tried without damage
    assert (miss.hit, miss.total) == (False, 9)  # 5+4 < AC 10
    with pytest.raises(ValueError, match="not a face of a d20"):
        waiting.trial((0,))
    waiting.answer(Answer(Choice.SKIP))  # the trials changed nothing: the reaction is unspent
    assert waiting.outcome is not None and isinstance(waiting.outcome.command, ApplyCombatStep)
    after = waiting.outcome.command.apply(encounter)
    assert after.combat is not None and not after.combat.combatant(GOBLIN).reaction_used
    with pytest.raises(ValueError, match="no opportunity attack is waiting"):
        waiting.trial((20,))
