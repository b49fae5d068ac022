"""The movement budget, including every worked example about turns in the rules documents."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from battlemap.model.combat import CombatState, SpeedMode
from battlemap.model.creature import CombatStats, Side
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.conditions import apply_condition, set_exhaustion
from battlemap.rules.economy import grant_bonus_action, take_action
from battlemap.rules.errors import IllegalActionError, InvalidRequestError
from battlemap.rules.movement import (
    climb_swim_check,
    drop_prone,
    jump_distance,
    mount_or_dismount,
    movement_budget,
    spend_movement,
    stand_up,
)
from battlemap.rules.outcome import with_combat
from battlemap.rules.schema import Ruleset
from tests.rules.helpers import creature, encounter, fight, state_and_events

Rulesets = dict[str, Ruleset]
HERO = EntityId("hero")


def solo(ruleset: Ruleset, walk: int = 30, fly: int = 0) -> tuple[CombatState, Encounter]:
    """A fight where the hero (the only combatant) is on its turn."""
    enc = encounter(creature("Hero", Side.PARTY, walk=walk, fly=fly))
    return fight(ruleset, enc), enc


def remaining(
    state: CombatState, ruleset: Ruleset, enc: Encounter, mode: SpeedMode | None = None
) -> float:
    return movement_budget(state, ruleset, enc, HERO, mode).remaining


@pytest.mark.parametrize("ruleset_id", ["srd-5e", "legends-of-hyrule", "gms-den"])
def test_dash_with_speed_30_moves_up_to_60(rulesets: Rulesets, ruleset_id: str) -> None:
    """srd "Dash": "With a speed of 30 feet ... you can move up to 60 feet on your turn"."""
    ruleset = rulesets[ruleset_id]
    state, enc = solo(ruleset)
    assert remaining(state, ruleset, enc) == 30
    state, _ = state_and_events(take_action(with_combat(enc, state), ruleset, HERO, "dash"))
    assert remaining(state, ruleset, enc) == 60
    state, _ = state_and_events(spend_movement(with_combat(enc, state), ruleset, HERO, 60))
    with pytest.raises(IllegalActionError, match="0 ft of walk movement left"):
        state_and_events(spend_movement(with_combat(enc, state), ruleset, HERO, 5))


def test_srd_dash_with_speed_reduced_to_15_moves_30(rulesets: Rulesets) -> None:
    """srd "Dash": "If your speed of 30 feet is reduced to 15 feet ... up to 30 feet"."""
    ruleset = rulesets["srd-5e"]
    state, enc = solo(ruleset)
    state, _ = state_and_events(
        set_exhaustion(with_combat(enc, state), ruleset, HERO, 2)
    )  # speed halved
    state, _ = state_and_events(take_action(with_combat(enc, state), ruleset, HERO, "dash"))
    budget = movement_budget(state, ruleset, enc, HERO)
    assert (budget.speed, budget.total) == (15, 30)
    assert any("halved" in r for r in budget.reasons)


def dash_twice(ruleset: Ruleset) -> tuple[CombatState, Encounter]:
    state, enc = solo(ruleset)
    state, _ = state_and_events(
        grant_bonus_action(with_combat(enc, state), ruleset, HERO, ("dash",))
    )  # e.g. a cunning action
    state, _ = state_and_events(take_action(with_combat(enc, state), ruleset, HERO, "dash"))
    state, _ = state_and_events(
        take_action(with_combat(enc, state), ruleset, HERO, "dash", as_bonus_action=True)
    )
    return state, enc


def test_legends_of_hyrule_dashing_twice_triples_your_movement(rulesets: Rulesets) -> None:
    ruleset = rulesets["legends-of-hyrule"]
    state, enc = dash_twice(ruleset)
    assert remaining(state, ruleset, enc) == 90


def test_legends_of_hyrule_dashing_thrice_quadruples(rulesets: Rulesets) -> None:
    ruleset = rulesets["legends-of-hyrule"]
    state, enc = dash_twice(ruleset)
    state = state.with_combatant(
        state.combatant(HERO).model_copy(
            update={"turn": state.combatant(HERO).turn.model_copy(update={"dash_count": 3})}
        )
    )
    assert remaining(state, ruleset, enc) == 120


def test_srd_a_second_dash_adds_the_speed_again(rulesets: Rulesets) -> None:
    """srd "Dash": "The increase equals your speed", for each Dash taken (a bonus one too)."""
    ruleset = rulesets["srd-5e"]
    state, enc = dash_twice(ruleset)
    budget = movement_budget(state, ruleset, enc, HERO)
    assert budget.remaining == 90 and not any("adds nothing" in r for r in budget.reasons)


def test_standing_up_with_speed_30_costs_15_feet(rulesets: Rulesets) -> None:
    """srd "Being Prone": "if your speed is 30 feet, you must spend 15 feet ... to stand up"."""
    for ruleset_id in ("srd-5e", "legends-of-hyrule", "gms-den"):
        ruleset = rulesets[ruleset_id]
        state, enc = solo(ruleset)
        state, _ = state_and_events(drop_prone(with_combat(enc, state), ruleset, HERO))
        assert remaining(state, ruleset, enc) == 30  # dropping prone is free
        state, _ = state_and_events(stand_up(with_combat(enc, state), ruleset, HERO))
        assert remaining(state, ruleset, enc) == 15
        assert not state.combatant(HERO).has_condition("prone")


def test_cannot_stand_up_without_enough_movement_or_with_speed_0(rulesets: Rulesets) -> None:
    ruleset = rulesets["srd-5e"]
    state, enc = solo(ruleset)
    state, _ = state_and_events(drop_prone(with_combat(enc, state), ruleset, HERO))
    state, _ = state_and_events(
        spend_movement(with_combat(enc, state), ruleset, HERO, 5)
    )  # crawling 5 ft costs 10
    state, _ = state_and_events(spend_movement(with_combat(enc, state), ruleset, HERO, 5))
    assert remaining(state, ruleset, enc) == 10
    with pytest.raises(IllegalActionError, match="needs 15 ft to stand up and has 10 ft left"):
        state_and_events(stand_up(with_combat(enc, state), ruleset, HERO))
    grappled, _ = state_and_events(
        apply_condition(with_combat(enc, state), ruleset, HERO, "grappled")
    )
    with pytest.raises(IllegalActionError, match="speed 0"):
        state_and_events(stand_up(with_combat(enc, grappled), ruleset, HERO))


def test_crawling_costs_an_extra_foot_and_3_in_difficult_terrain(rulesets: Rulesets) -> None:
    """srd "Being Prone": "Crawling 1 foot in difficult terrain ... costs 3 feet"."""
    ruleset = rulesets["srd-5e"]
    state, enc = solo(ruleset)
    state, _ = state_and_events(drop_prone(with_combat(enc, state), ruleset, HERO))
    state, _ = state_and_events(
        spend_movement(with_combat(enc, state), ruleset, HERO, 2, distance_feet=1)
    )  # terrain: 2 ft
    assert state.combatant(HERO).turn.movement_used == 3
    with pytest.raises(IllegalActionError, match="only crawl"):
        state_and_events(
            spend_movement(with_combat(enc, state), ruleset, HERO, 5, mode=SpeedMode.FLY)
        )


def test_srd_switching_speeds_subtracts_what_was_moved(rulesets: Rulesets) -> None:
    """srd "Breaking up your move": walk 30 / fly 60: fly 20, walk 10, then fly 30 more."""
    ruleset = rulesets["srd-5e"]
    state, enc = solo(ruleset, walk=30, fly=60)
    state, _ = state_and_events(
        spend_movement(with_combat(enc, state), ruleset, HERO, 20, mode=SpeedMode.FLY)
    )
    state, _ = state_and_events(
        spend_movement(with_combat(enc, state), ruleset, HERO, 10, mode=SpeedMode.WALK)
    )
    assert remaining(state, ruleset, enc, SpeedMode.WALK) == 0
    assert remaining(state, ruleset, enc, SpeedMode.FLY) == 30
    state, _ = state_and_events(
        spend_movement(with_combat(enc, state), ruleset, HERO, 30, mode=SpeedMode.FLY)
    )
    with pytest.raises(IllegalActionError):
        state_and_events(
            spend_movement(with_combat(enc, state), ruleset, HERO, 5, mode=SpeedMode.FLY)
        )


def test_no_speed_in_a_mode_means_no_movement_in_it(rulesets: Rulesets) -> None:
    ruleset = rulesets["srd-5e"]
    state, enc = solo(ruleset)
    with pytest.raises(IllegalActionError, match="fly speed is 0"):
        state_and_events(
            spend_movement(with_combat(enc, state), ruleset, HERO, 5, mode=SpeedMode.FLY)
        )


@pytest.mark.parametrize("condition", ["grappled", "restrained", "paralyzed", "stunned"])
def test_conditions_that_stop_movement(rulesets: Rulesets, condition: str) -> None:
    ruleset = rulesets["gms-den"]
    state, enc = solo(ruleset)
    state, _ = state_and_events(apply_condition(with_combat(enc, state), ruleset, HERO, condition))
    assert movement_budget(state, ruleset, enc, HERO).remaining == 0
    with pytest.raises(IllegalActionError, match="speed is 0"):
        state_and_events(spend_movement(with_combat(enc, state), ruleset, HERO, 5))


def test_gms_den_exhaustion_table_on_speed(rulesets: Rulesets) -> None:
    ruleset = rulesets["gms-den"]
    state, enc = solo(ruleset)
    speeds = []
    for level in range(0, 6):
        state, _ = state_and_events(set_exhaustion(with_combat(enc, state), ruleset, HERO, level))
        speeds.append(movement_budget(state, ruleset, enc, HERO).speed)
    assert speeds == [30, 30, 15, 15, 15, 0]
    state, events = state_and_events(set_exhaustion(with_combat(enc, state), ruleset, HERO, 6))
    assert state.combatant(HERO).death.dead and any(e.kind == "death" for e in events)
    with pytest.raises(InvalidRequestError):
        state_and_events(set_exhaustion(with_combat(enc, state), ruleset, HERO, 7))


def test_bad_move_requests(rulesets: Rulesets) -> None:
    ruleset = rulesets["srd-5e"]
    state, enc = solo(ruleset)
    for bad in (-5, float("nan"), float("inf")):
        with pytest.raises(InvalidRequestError):
            state_and_events(spend_movement(with_combat(enc, state), ruleset, HERO, bad))


def test_moving_out_of_turn_is_refused_and_state_unchanged(rulesets: Rulesets) -> None:
    ruleset = rulesets["srd-5e"]
    enc = encounter(creature("Hero", Side.PARTY, init_bonus=40), creature("Orc"))
    state = fight(ruleset, enc)
    before = state.model_dump()
    with pytest.raises(IllegalActionError, match="isn't Orc's turn"):
        state_and_events(spend_movement(with_combat(enc, state), ruleset, EntityId("orc"), 5))
    assert state.model_dump() == before


@settings(max_examples=60, deadline=None)
@given(
    moves=st.lists(st.integers(min_value=0, max_value=40), max_size=10),
    dashes=st.integers(min_value=0, max_value=1),
    ruleset_id=st.sampled_from(["srd-5e", "legends-of-hyrule"]),
)
def test_movement_never_exceeds_the_budget(
    rulesets: Rulesets, moves: list[int], dashes: int, ruleset_id: str
) -> None:
    ruleset = rulesets[ruleset_id]
    state, enc = solo(ruleset)
    if dashes:
        state, _ = state_and_events(take_action(with_combat(enc, state), ruleset, HERO, "dash"))
    total = movement_budget(state, ruleset, enc, HERO).total
    for feet in moves:
        try:
            state, _ = state_and_events(
                spend_movement(with_combat(enc, state), ruleset, HERO, feet)
            )
        except IllegalActionError:
            assert state.combatant(HERO).turn.movement_used + feet > total
    used = state.combatant(HERO).turn.movement_used
    assert 0 <= used <= total
    assert movement_budget(state, ruleset, enc, HERO).remaining == total - used


@pytest.mark.parametrize(("ruleset_id", "has_mounts"), [("srd-5e", False), ("gms-den", True)])
def test_mounting_costs_half_speed(rulesets: Rulesets, ruleset_id: str, has_mounts: bool) -> None:
    """legends-of-hyrule / gms-den: "if your speed is 30 feet, you must spend 15 feet"."""
    ruleset = rulesets[ruleset_id]
    enc = encounter(creature("Hero", Side.PARTY, init_bonus=40), creature("Horse", Side.PARTY))
    state = fight(ruleset, enc)
    horse = EntityId("horse")
    if not has_mounts:
        with pytest.raises(InvalidRequestError, match="no mounted combat"):
            state_and_events(mount_or_dismount(with_combat(enc, state), ruleset, HERO, horse))
        return
    fresh = state
    state, _ = state_and_events(spend_movement(with_combat(enc, state), ruleset, HERO, 10))
    state, _ = state_and_events(mount_or_dismount(with_combat(enc, state), ruleset, HERO, horse))
    assert remaining(state, ruleset, enc) == 5
    short, _ = state_and_events(
        spend_movement(with_combat(enc, fresh), ruleset, HERO, 20)
    )  # a move with 10 ft left
    with pytest.raises(IllegalActionError, match="needs 15 ft"):
        state_and_events(mount_or_dismount(with_combat(enc, short), ruleset, HERO, horse))


@pytest.mark.parametrize(("ruleset_id", "falls"), [("srd-5e", False), ("legends-of-hyrule", True)])
def test_flying_creature_knocked_prone_falls(
    rulesets: Rulesets, ruleset_id: str, falls: bool
) -> None:
    ruleset = rulesets[ruleset_id]
    state, enc = solo(ruleset, fly=60)
    state, _ = state_and_events(
        spend_movement(with_combat(enc, state), ruleset, HERO, 10, mode=SpeedMode.FLY)
    )
    _, events = state_and_events(apply_condition(with_combat(enc, state), ruleset, HERO, "prone"))
    assert any(e.kind == "falls" for e in events) is falls
    hovering = enc.model_copy(
        update={
            "creatures": (
                enc.creatures[0].model_copy(
                    update={"speeds": enc.creatures[0].speeds.model_copy(update={"hover": True})}
                ),
            )
        }
    )
    _, events = state_and_events(
        apply_condition(with_combat(hovering, state), ruleset, HERO, "prone")
    )
    assert not any(e.kind == "falls" for e in events)


def test_gms_den_climbing_without_a_climb_speed_is_half_speed(rulesets: Rulesets) -> None:
    ruleset = rulesets["gms-den"]
    state, enc = solo(ruleset)
    state, events = state_and_events(
        spend_movement(with_combat(enc, state), ruleset, HERO, 10, mode=SpeedMode.CLIMB)
    )
    assert remaining(state, ruleset, enc) == 10 and "x2" in events[-1].text
    srd = rulesets["srd-5e"]
    srd_state, enc = solo(srd)
    with pytest.raises(IllegalActionError, match="climb speed is 0"):
        state_and_events(
            spend_movement(with_combat(enc, srd_state), srd, HERO, 10, mode=SpeedMode.CLIMB)
        )


def test_gms_den_failed_climb_check_adds_exhaustion(rulesets: Rulesets) -> None:
    ruleset = rulesets["gms-den"]
    state, enc = solo(ruleset)
    failed, events = state_and_events(
        climb_swim_check(with_combat(enc, state), ruleset, HERO, dc=40)
    )
    assert failed.combatant(HERO).exhaustion == 1 and any("fails" in e.text for e in events)
    passed, _ = state_and_events(climb_swim_check(with_combat(enc, state), ruleset, HERO, dc=1))
    assert passed.combatant(HERO).exhaustion == 0
    with pytest.raises(InvalidRequestError, match="no climbing"):
        state_and_events(climb_swim_check(with_combat(enc, state), rulesets["srd-5e"], HERO, dc=10))


def test_gms_den_jump_distances(rulesets: Rulesets) -> None:
    # gms-den "High Jump": "3 + your Strength modifier if you move at least 10 feet on foot
    # immediately before the jump. When you make a standing high jump, you can jump only half
    # that distance." "Long Jump": "up to your Strength score" after the same run-up.
    ruleset = rulesets["gms-den"]
    assert ruleset.movement.jumping is not None and ruleset.movement.jumping.run_up_feet == 10
    strong = creature("Hero", Side.PARTY).model_copy(update={"stats": CombatStats(strength=16)})
    assert jump_distance(ruleset, strong, high=True, run_up_feet=10).feet == 6  # 3 + 3
    assert jump_distance(ruleset, strong, high=True, run_up_feet=0).feet == 3
    assert jump_distance(ruleset, strong, high=False, run_up_feet=15).feet == 16
    short = jump_distance(ruleset, strong, high=False, run_up_feet=5)
    assert short.feet == 8 and "5 ft run-up, 10 needed" in short.reason
    with pytest.raises(InvalidRequestError):
        jump_distance(rulesets["srd-5e"], strong, high=True, run_up_feet=10)
    with pytest.raises(InvalidRequestError, match="negative"):
        jump_distance(ruleset, strong, high=True, run_up_feet=-5)


def test_a_longer_run_up_in_a_dms_ruleset(rulesets: Rulesets) -> None:
    gms = rulesets["gms-den"]
    assert gms.movement.jumping is not None
    jumping = gms.movement.jumping.model_copy(update={"run_up_feet": 20})
    long_run = gms.model_copy(
        update={"movement": gms.movement.model_copy(update={"jumping": jumping})}
    )
    strong = creature("Hero", Side.PARTY).model_copy(update={"stats": CombatStats(strength=16)})
    assert jump_distance(gms, strong, high=False, run_up_feet=10).feet == 16
    assert jump_distance(long_run, strong, high=False, run_up_feet=10).feet == 8
    assert jump_distance(long_run, strong, high=False, run_up_feet=20).feet == 16
