"""Controlled mounts act on their rider's initiative (legends-of-hyrule "Controlling a Mount")."""

from __future__ import annotations

import pytest

from battlemap.model.combat import CombatState, SpeedMode
from battlemap.model.creature import Creature, Side, Size
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.model.statblock import Ability as StatAbility
from battlemap.model.statblock import StatBlock
from battlemap.rules.economy import take_action
from battlemap.rules.errors import IllegalActionError, InvalidRequestError
from battlemap.rules.falling_off import FallCause, fall_off_save
from battlemap.rules.initiative import roll_initiative, set_initiative, start_combat
from battlemap.rules.mounts import control_mount, dismount, release_mount, start_mounted
from battlemap.rules.movement import mount_or_dismount, movement_budget, spend_movement
from battlemap.rules.outcome import with_combat
from battlemap.rules.schema import MountRules, Ruleset
from battlemap.rules.turns import begin_combat, end_turn, remove_combatant
from tests.rules.helpers import creature, encounter, fight, state_and_events

RIDER, HORSE, ORC = EntityId("rider"), EntityId("horse"), EntityId("orc")


def _horse(init_bonus: int, side: Side = Side.PARTY, size: Size = Size.LARGE) -> Creature:
    return creature("Horse", side, init_bonus=init_bonus, wis=1).model_copy(update={"size": size})


def _battle(ruleset: Ruleset, ruleset_id: str, horse_size: Size = Size.LARGE):  # type: ignore[no-untyped-def]
    """Rider first, then the orc, then the horse (individual initiative)."""
    enc = encounter(
        creature("Rider", Side.PARTY, init_bonus=40, wis=30),
        creature("Orc", init_bonus=20, wis=20),
        _horse(0, size=horse_size),
        ruleset=ruleset_id,
    )
    return fight(ruleset, enc), enc


def _controlled(ruleset: Ruleset):  # type: ignore[no-untyped-def]
    """``_battle`` with the rider controlling the horse, on the rider's turn."""
    state, enc = _battle(ruleset, "srd-5e")
    state, _ = state_and_events(control_mount(with_combat(enc, state), ruleset, RIDER, HORSE))
    return state, enc


def _order(state: CombatState) -> list[str]:
    return [str(s.creature_id) for s in state.order]


def _with_mounts(ruleset: Ruleset, **update: object) -> Ruleset:
    movement = ruleset.movement.model_copy(update={"mounting": MountRules(**update)})
    return ruleset.model_copy(update={"movement": movement})


def test_a_controlled_mount_takes_the_riders_initiative(rulesets: dict[str, Ruleset]) -> None:
    # "The initiative of a controlled mount changes to match yours when you mount it."
    ruleset = _with_mounts(rulesets["srd-5e"])
    state, enc = _battle(ruleset, "srd-5e")
    assert _order(state) == ["rider", "orc", "horse"]
    state, events = state_and_events(control_mount(with_combat(enc, state), ruleset, RIDER, HORSE))
    assert _order(state) == ["rider", "horse", "orc"]
    assert state.current is not None and state.current.creature_id == RIDER
    horse = state.combatant(HORSE)
    assert horse.initiative == state.combatant(RIDER).initiative
    assert horse.controlled_by == RIDER
    assert "can only Dash, Disengage, Dodge" in events[-1].text
    # Re-sorting the order (the DM changes the orc's initiative) keeps it behind its rider.
    state, _ = state_and_events(set_initiative(with_combat(enc, state), ruleset, ORC, 90))
    assert _order(state) == ["orc", "rider", "horse"]


def test_a_controlled_mount_only_dashes_disengages_or_dodges(rulesets: dict[str, Ruleset]) -> None:
    # "it has only three action options: Dash, Disengage, and Dodge"; "A controlled mount can
    # move and act even on the turn that you mount it."
    ruleset = _with_mounts(rulesets["srd-5e"])
    state, enc = _controlled(ruleset)
    state, _ = state_and_events(
        end_turn(with_combat(enc, state), ruleset)
    )  # the horse's turn, right after the rider's
    with pytest.raises(IllegalActionError, match="controlled by Rider: it can only take dash"):
        state_and_events(
            take_action(with_combat(enc, state), ruleset, HORSE, "attack", target_id=ORC)
        )
    dashed, _ = state_and_events(take_action(with_combat(enc, state), ruleset, HORSE, "dash"))
    assert dashed.combatant(HORSE).turn.dash_count == 1
    # The action list is the ruleset's: one that allows attacks lets it attack.
    fighting = _with_mounts(rulesets["srd-5e"], controlled_mount_actions=("dash", "attack"))
    state_and_events(take_action(with_combat(enc, state), fighting, HORSE, "attack", target_id=ORC))


def test_an_independent_mount_acts_as_it_wishes(rulesets: dict[str, Ruleset]) -> None:
    # "An independent mount retains its place in the initiative order."
    ruleset = _with_mounts(rulesets["srd-5e"])
    state, enc = _controlled(ruleset)
    state, _ = state_and_events(release_mount(with_combat(enc, state), ruleset, HORSE))
    assert state.combatant(HORSE).controlled_by is None
    state, _ = state_and_events(end_turn(with_combat(enc, state), ruleset))
    state_and_events(take_action(with_combat(enc, state), ruleset, HORSE, "attack", target_id=ORC))
    with pytest.raises(IllegalActionError, match="not a controlled mount"):
        state_and_events(release_mount(with_combat(enc, state), ruleset, HORSE))


def test_the_rider_leaving_frees_the_mount(rulesets: dict[str, Ruleset]) -> None:
    ruleset = _with_mounts(rulesets["srd-5e"])
    state, enc = _controlled(ruleset)
    state, _ = state_and_events(remove_combatant(with_combat(enc, state), ruleset, RIDER))
    assert state.combatant(HORSE).controlled_by is None


def test_hyrule_mount_follows_its_rider_in_the_group(rulesets: dict[str, Ruleset]) -> None:
    # legends-of-hyrule: group initiative; the mount now goes right after its rider.
    hyrule = rulesets["legends-of-hyrule"]
    enc: Encounter = encounter(
        creature("Rider", Side.PARTY, wis=30),
        creature("Sage", Side.PARTY, wis=30),
        _horse(0),
        creature("Orc", wis=1),
        ruleset="legends-of-hyrule",
    )
    state = fight(hyrule, enc)
    party = [c for c in _order(state) if c != "orc"]
    assert party == ["rider", "sage", "horse"]
    state, _ = state_and_events(control_mount(with_combat(enc, state), hyrule, RIDER, HORSE))
    assert [c for c in _order(state) if c != "orc"] == ["rider", "horse", "sage"]


def test_who_can_be_a_controlled_mount(rulesets: dict[str, Ruleset]) -> None:
    # "A willing creature that is at least one size larger than you" can serve as a mount.
    ruleset = _with_mounts(rulesets["srd-5e"])
    state, enc = _battle(ruleset, "srd-5e", horse_size=Size.MEDIUM)
    with pytest.raises(IllegalActionError, match="at least one size larger"):
        state_and_events(control_mount(with_combat(enc, state), ruleset, RIDER, HORSE))
    with pytest.raises(InvalidRequestError, match="no mounted combat rules"):
        state_and_events(control_mount(with_combat(enc, state), rulesets["srd-5e"], RIDER, HORSE))
    # gms-den "Mounting a Steed" has mounting but no controlled mounts.
    with pytest.raises(InvalidRequestError, match="no controlled mounts"):
        state_and_events(control_mount(with_combat(enc, state), rulesets["gms-den"], RIDER, HORSE))


def test_no_controlled_mount_before_initiative_is_rolled(rulesets: dict[str, Ruleset]) -> None:
    # "The initiative of a controlled mount changes to match yours": with none rolled there is
    # nothing to match; the request is refused with a reason, not a crash.
    hyrule = rulesets["legends-of-hyrule"]
    enc = encounter(creature("Rider", Side.PARTY), _horse(0), ruleset="legends-of-hyrule")
    state = start_combat(enc, enc.ruleset, 1)
    with pytest.raises(InvalidRequestError, match="Rider has no turn yet: roll initiative"):
        state_and_events(control_mount(with_combat(enc, state), hyrule, RIDER, HORSE))


def test_a_rider_controls_one_mount_at_a_time(rulesets: dict[str, Ruleset]) -> None:
    # "While you're mounted ... You can either control the mount or allow it to act
    # independently": one mount per rider; a second needs the first released.
    hyrule = rulesets["legends-of-hyrule"]
    pony = _horse(0).model_copy(update={"id": EntityId("pony"), "name": "Pony"})
    enc = encounter(creature("Rider", Side.PARTY), _horse(0), pony, ruleset="legends-of-hyrule")
    state, _ = state_and_events(
        control_mount(with_combat(enc, fight(hyrule, enc)), hyrule, RIDER, HORSE)
    )
    with pytest.raises(IllegalActionError, match="Rider already controls Horse"):
        state_and_events(control_mount(with_combat(enc, state), hyrule, RIDER, EntityId("pony")))
    state, _ = state_and_events(release_mount(with_combat(enc, state), hyrule, HORSE))
    state = _riders_next_turn(state, hyrule, enc)  # mounting is "once during your move"
    state, _ = state_and_events(
        control_mount(with_combat(enc, state), hyrule, RIDER, EntityId("pony"))
    )
    assert state.combatant(EntityId("pony")).controlled_by == RIDER


def _riders_next_turn(state: CombatState, ruleset: Ruleset, enc: Encounter) -> CombatState:
    """End turns until the rider's next one."""
    while True:
        state, _ = state_and_events(end_turn(with_combat(enc, state), ruleset))
        if state.current is not None and state.current.creature_id == RIDER:
            return state


# --- falling off: movement.mounting.fall_off_save_dc ----------------------------------------


def _rider_horse_orc() -> Encounter:
    return encounter(
        creature("Rider", Side.PARTY, wis=30),
        _horse(0),
        creature("Orc", wis=1),
        ruleset="legends-of-hyrule",
    )


def _hyrule_ride(hyrule: Ruleset):  # type: ignore[no-untyped-def]
    enc = _rider_horse_orc()
    return fight(hyrule, enc), enc


@pytest.mark.parametrize("ruleset_id", ["legends-of-hyrule", "gms-den"])
def test_a_rider_whose_mount_is_moved_saves_dc_10_or_falls_prone(
    rulesets: dict[str, Ruleset], ruleset_id: str
) -> None:
    # legends-of-hyrule "Mounting and Dismounting", gms-den "Mounting a Steed": "If an effect
    # moves your mount against its will while you're on it, you must succeed on a DC 10
    # Dexterity saving throw or fall off the mount, landing prone in a space within 5 feet".
    ruleset = rulesets[ruleset_id]
    assert ruleset.movement.mounting is not None
    assert ruleset.movement.mounting.fall_off_save_dc == 10
    enc = encounter(creature("Rider", Side.PARTY, wis=30), _horse(0), ruleset=ruleset_id)
    state = fight(ruleset, enc)
    stays = fall_off_save(
        with_combat(enc, state), ruleset, RIDER, FallCause.MOUNT_MOVED, typed=(10,)
    )
    assert not stays.result.fell and stays.result.save.dc == 10
    assert stays.combat is not None and not stays.combat.combatant(RIDER).has_condition("prone")
    assert "stays on its mount (its mount is moved against its will)" in stays.events[-1].text
    falls = fall_off_save(
        with_combat(enc, state), ruleset, RIDER, FallCause.MOUNT_MOVED, typed=(9,)
    )
    assert falls.result.fell and falls.result.save.total == 9
    assert falls.combat is not None and falls.combat.combatant(RIDER).has_condition("prone")
    assert any("falls off its mount, landing prone" in e.text for e in falls.events)


def test_knocked_prone_while_mounted_is_the_same_save_with_its_reasons(
    rulesets: dict[str, Ruleset],
) -> None:
    # "If you're knocked prone while mounted, you must make the same saving throw." The save
    # is an ordinary Dexterity save: the rider's Dexterity counts.
    hyrule = rulesets["legends-of-hyrule"]
    nimble = creature("Rider", Side.PARTY, dex=14, wis=30)  # +2
    enc = encounter(nimble, _horse(0), ruleset="legends-of-hyrule")
    state = fight(hyrule, enc)
    result = fall_off_save(
        with_combat(enc, state), hyrule, RIDER, FallCause.KNOCKED_PRONE, typed=(8,)
    )
    assert result.result.save.total == 10 and not result.result.fell


def test_a_rider_proficient_in_dexterity_saves_adds_its_stat_blocks_save(
    rulesets: dict[str, Ruleset],
) -> None:
    # The fall-off save is "a DC 10 Dexterity saving throw" (legends-of-hyrule "Mounting and
    # Dismounting"): a stat block listing "Dex +4" (proficient) rolls that, not the bare
    # Dexterity modifier (+0 here).
    hyrule = rulesets["legends-of-hyrule"]
    block = StatBlock(name="Rider", saving_throws={StatAbility.DEX: 4})
    rider = creature("Rider", Side.PARTY, wis=30).model_copy(update={"statblock": block})
    enc = encounter(rider, _horse(0), ruleset="legends-of-hyrule")
    result = fall_off_save(
        with_combat(enc, fight(hyrule, enc)), hyrule, RIDER, FallCause.MOUNT_MOVED, typed=(6,)
    )
    assert result.result.save.total == 10 and not result.result.fell


def test_a_higher_fall_off_dc_in_a_dms_ruleset(rulesets: dict[str, Ruleset]) -> None:
    hyrule = rulesets["legends-of-hyrule"]
    assert hyrule.movement.mounting is not None
    slippery = _with_mounts(hyrule, fall_off_save_dc=15)
    state, enc = _hyrule_ride(hyrule)
    assert not fall_off_save(
        with_combat(enc, state), hyrule, RIDER, FallCause.MOUNT_MOVED, typed=(12,)
    ).result.fell
    harder = fall_off_save(
        with_combat(enc, state), slippery, RIDER, FallCause.MOUNT_MOVED, typed=(12,)
    )
    assert harder.result.fell and harder.result.save.dc == 15


def test_falling_off_a_controlled_mount_releases_it(rulesets: dict[str, Ruleset]) -> None:
    hyrule = rulesets["legends-of-hyrule"]
    state, enc = _hyrule_ride(hyrule)
    state, _ = state_and_events(control_mount(with_combat(enc, state), hyrule, RIDER, HORSE))
    stays = fall_off_save(
        with_combat(enc, state), hyrule, RIDER, FallCause.MOUNT_MOVED, typed=(15,)
    )
    assert stays.combat is not None and stays.combat.combatant(HORSE).controlled_by == RIDER
    falls = fall_off_save(with_combat(enc, state), hyrule, RIDER, FallCause.MOUNT_MOVED, typed=(2,))
    assert falls.result.released == HORSE
    assert falls.combat is not None and falls.combat.combatant(HORSE).controlled_by is None
    assert falls.combat.combatant(RIDER).has_condition("prone")
    assert falls.events[-1].text == "Horse is no longer controlled: it acts as it wishes"
    assert state.combatant(HORSE).controlled_by == RIDER  # the input state is untouched


def test_no_fall_off_save_without_mounted_combat_rules(rulesets: dict[str, Ruleset]) -> None:
    srd = rulesets["srd-5e"]
    enc = encounter(creature("Rider", Side.PARTY), _horse(0))
    with pytest.raises(InvalidRequestError, match="no mounted combat rules"):
        fall_off_save(
            with_combat(enc, fight(srd, enc)), srd, RIDER, FallCause.KNOCKED_PRONE, typed=(5,)
        )


def _horse_at(enc: Encounter, x: float) -> Encounter:
    return enc.replace_creature(enc.creature(HORSE).model_copy(update={"x": x}))


def test_a_mount_farther_than_5_ft_on_the_map_is_refused(
    rulesets: dict[str, Ruleset],
) -> None:
    # legends-of-hyrule: "you can mount a willing creature that is within 5 feet of you".
    # The engine measures the map itself: the horse two squares away is 10 ft off.
    ruleset = _with_mounts(rulesets["srd-5e"])
    state, enc = _battle(ruleset, "srd-5e")
    with pytest.raises(IllegalActionError, match="Horse is 10 ft from Rider: a mount must be"):
        state_and_events(
            control_mount(with_combat(_horse_at(enc, 2), state), ruleset, RIDER, HORSE)
        )
    state, _ = state_and_events(
        control_mount(with_combat(_horse_at(enc, 1), state), ruleset, RIDER, HORSE)
    )
    assert _order(state) == ["rider", "horse", "orc"]


# --- paying for it: legends-of-hyrule "Mounting and Dismounting" -----------------------------


def _left(state: CombatState, ruleset: Ruleset, enc: Encounter) -> float:
    return movement_budget(state, ruleset, enc, RIDER, SpeedMode.WALK).remaining


def test_mounting_and_dismounting_each_cost_half_the_riders_speed(
    rulesets: dict[str, Ruleset],
) -> None:
    # legends-of-hyrule (rules-sources/legends-of-hyrule.txt, "Mounting and Dismounting"):
    # "if your speed is 30 feet, you must spend 15 feet of movement to mount a horse".
    hyrule = rulesets["legends-of-hyrule"]
    state, enc = _hyrule_ride(hyrule)
    assert enc.creature(RIDER).speeds.walk == 30 and _left(state, hyrule, enc) == 30
    state, events = state_and_events(control_mount(with_combat(enc, state), hyrule, RIDER, HORSE))
    assert _left(state, hyrule, enc) == 15
    assert any(e.text == "Rider mounts Horse (15 ft of movement)" for e in events)
    state = _riders_next_turn(state, hyrule, enc)  # "Once during your move": the next move
    state, events = state_and_events(dismount(with_combat(enc, state), hyrule, HORSE))
    assert _left(state, hyrule, enc) == 15
    assert state.combatant(HORSE).controlled_by is None
    assert [e.text for e in events] == [
        "Rider dismounts from Horse (15 ft of movement)",
        "Horse is no longer controlled: it acts as it wishes",
    ]


def test_mounting_without_enough_movement_left_is_refused_with_the_reason(
    rulesets: dict[str, Ruleset],
) -> None:
    # legends-of-hyrule: "you can't mount it if you don't have 15 feet of movement left".
    hyrule = rulesets["legends-of-hyrule"]
    state, enc = _hyrule_ride(hyrule)
    state, _ = state_and_events(spend_movement(with_combat(enc, state), hyrule, RIDER, 20))
    with pytest.raises(
        IllegalActionError, match="Rider needs 15 ft to mount Horse and has 10 ft left"
    ):
        state_and_events(control_mount(with_combat(enc, state), hyrule, RIDER, HORSE))
    assert state.combatant(HORSE).controlled_by is None
    ridden, _ = state_and_events(
        control_mount(with_combat(enc, _hyrule_ride(hyrule)[0]), hyrule, RIDER, HORSE)
    )
    ridden = _riders_next_turn(ridden, hyrule, enc)  # "Once during your move": the next one
    ridden, _ = state_and_events(spend_movement(with_combat(enc, ridden), hyrule, RIDER, 20))
    with pytest.raises(
        IllegalActionError, match="Rider needs 15 ft to dismount from Horse and has 10 ft left"
    ):
        state_and_events(dismount(with_combat(enc, ridden), hyrule, HORSE))
    assert ridden.combatant(HORSE).controlled_by == RIDER


def test_mounting_happens_during_the_riders_own_move(rulesets: dict[str, Ruleset]) -> None:
    # "Once during your move, you can mount ...": not on another creature's turn.
    hyrule = rulesets["legends-of-hyrule"]
    state, enc = _hyrule_ride(hyrule)
    state, _ = state_and_events(end_turn(with_combat(enc, state), hyrule))
    assert state.current is not None and state.current.creature_id != RIDER
    with pytest.raises(IllegalActionError, match="it isn't Rider's turn"):
        state_and_events(control_mount(with_combat(enc, state), hyrule, RIDER, HORSE))


def test_letting_the_mount_act_independently_costs_no_movement(
    rulesets: dict[str, Ruleset],
) -> None:
    # "While you're mounted ... you can either control the mount or allow it to act
    # independently": the rider stays on, so nothing is spent (falling off spends none either).
    hyrule = rulesets["legends-of-hyrule"]
    state, enc = _hyrule_ride(hyrule)
    state, _ = state_and_events(control_mount(with_combat(enc, state), hyrule, RIDER, HORSE))
    state, _ = state_and_events(release_mount(with_combat(enc, state), hyrule, HORSE))
    assert _left(state, hyrule, enc) == 15


# --- already riding when the fight starts ------------------------------------------------------


def _before_round_1(hyrule: Ruleset):  # type: ignore[no-untyped-def]
    """``_hyrule_ride``'s creatures with initiative rolled and round 1 not begun."""
    enc = _rider_horse_orc()
    state = start_combat(enc, enc.ruleset, 1)
    state, _ = state_and_events(roll_initiative(with_combat(enc, state), hyrule))
    return state, enc


def test_a_rider_already_on_its_mount_starts_the_fight_riding_for_free(
    rulesets: dict[str, Ruleset],
) -> None:
    # legends-of-hyrule "Mounted Combat": "A knight charging into battle on a warhorse"; only
    # mounting "during your move" costs half the speed, so one already riding pays nothing.
    hyrule = rulesets["legends-of-hyrule"]
    state, enc = _before_round_1(hyrule)
    assert not state.started
    with pytest.raises(IllegalActionError, match="isn't Rider's turn"):
        state_and_events(
            control_mount(with_combat(enc, state), hyrule, RIDER, HORSE)
        )  # mounting mid-move needs a turn
    state, events = state_and_events(
        start_mounted(with_combat(_horse_at(enc, 1), state), hyrule, RIDER, HORSE)
    )
    assert events[0].text == "Rider starts the fight riding Horse"
    assert state.combatant(HORSE).controlled_by == RIDER
    assert state.combatant(HORSE).initiative == state.combatant(RIDER).initiative
    slots = _order(state)
    assert slots.index("horse") == slots.index("rider") + 1
    state, _ = state_and_events(begin_combat(with_combat(enc, state), hyrule))
    while state.current is not None and state.current.creature_id != RIDER:
        state, _ = state_and_events(end_turn(with_combat(enc, state), hyrule))
    assert _left(state, hyrule, enc) == 30  # the whole move is still the rider's


def test_starting_mounted_keeps_control_mounts_checks(rulesets: dict[str, Ruleset]) -> None:
    hyrule = rulesets["legends-of-hyrule"]
    state, enc = _before_round_1(hyrule)
    with pytest.raises(IllegalActionError, match="a mount must be within 5 ft"):
        state_and_events(start_mounted(with_combat(_horse_at(enc, 2), state), hyrule, RIDER, HORSE))
    small = enc.model_copy(
        update={
            "creatures": tuple(
                c.model_copy(update={"size": Size.MEDIUM}) if c.id == HORSE else c
                for c in enc.creatures
            )
        }
    )
    with pytest.raises(IllegalActionError, match="at least one size larger"):
        state_and_events(start_mounted(with_combat(small, state), hyrule, RIDER, HORSE))
    unrolled = start_combat(enc, enc.ruleset, 1)
    with pytest.raises(InvalidRequestError, match="Rider has no turn yet: roll initiative"):
        state_and_events(start_mounted(with_combat(enc, unrolled), hyrule, RIDER, HORSE))
    with pytest.raises(InvalidRequestError, match="no controlled mounts"):
        state_and_events(start_mounted(with_combat(enc, state), rulesets["gms-den"], RIDER, HORSE))


def test_once_the_fight_has_begun_mounting_costs_the_move(rulesets: dict[str, Ruleset]) -> None:
    # "Once during your move ... costs an amount of movement equal to half your speed".
    hyrule = rulesets["legends-of-hyrule"]
    state, enc = _hyrule_ride(hyrule)
    assert state.started
    with pytest.raises(IllegalActionError, match="mounts Horse on its own turn, for half its"):
        state_and_events(start_mounted(with_combat(enc, state), hyrule, RIDER, HORSE))
    assert state.combatant(HORSE).controlled_by is None


@pytest.mark.parametrize("ruleset_id", ["legends-of-hyrule", "gms-den"])
def test_mounting_or_dismounting_happens_once_per_move(
    rulesets: dict[str, Ruleset], ruleset_id: str
) -> None:
    # legends-of-hyrule "Mounting and Dismounting" and gms-den "Mounting a Steed": "Once during
    # your move, you can mount a (willing) creature that is within 5 feet of you or dismount":
    # a Dash's extra movement pays for a second one, but the rules allow only one.
    ruleset = rulesets[ruleset_id]
    state, enc = _hyrule_ride(ruleset)
    state, _ = state_and_events(take_action(with_combat(enc, state), ruleset, RIDER, "dash"))
    assert _left(state, ruleset, enc) == 60
    state, _ = state_and_events(mount_or_dismount(with_combat(enc, state), ruleset, RIDER, HORSE))
    with pytest.raises(IllegalActionError, match="Rider has already mounted or dismounted"):
        state_and_events(
            mount_or_dismount(with_combat(enc, state), ruleset, RIDER, HORSE, dismounting=True)
        )
    assert _left(state, ruleset, enc) == 45
    state = _riders_next_turn(state, ruleset, enc)  # another move
    state, _ = state_and_events(
        mount_or_dismount(with_combat(enc, state), ruleset, RIDER, HORSE, dismounting=True)
    )
    assert _left(state, ruleset, enc) == 15


def test_dismounting_from_a_controlled_mount_waits_for_the_next_move(
    rulesets: dict[str, Ruleset],
) -> None:
    hyrule = rulesets["legends-of-hyrule"]
    state, enc = _hyrule_ride(hyrule)
    state, _ = state_and_events(take_action(with_combat(enc, state), hyrule, RIDER, "dash"))
    state, _ = state_and_events(control_mount(with_combat(enc, state), hyrule, RIDER, HORSE))
    with pytest.raises(IllegalActionError, match="once during its move"):
        state_and_events(dismount(with_combat(enc, state), hyrule, HORSE))
    assert state.combatant(HORSE).controlled_by == RIDER


def test_once_per_move_is_the_reason_even_without_movement_left(
    rulesets: dict[str, Ruleset],
) -> None:
    # legends-of-hyrule (rules-sources/legends-of-hyrule.txt, "Mounting and Dismounting"):
    # "Once during your move". Mounted, then out of movement: a Dash would pay the 15 ft, but
    # not for a second mount or dismount in the same move, so that is the reason given.
    hyrule = rulesets["legends-of-hyrule"]
    state, enc = _hyrule_ride(hyrule)
    state, _ = state_and_events(control_mount(with_combat(enc, state), hyrule, RIDER, HORSE))
    state, _ = state_and_events(spend_movement(with_combat(enc, state), hyrule, RIDER, 10))
    assert _left(state, hyrule, enc) == 5
    with pytest.raises(IllegalActionError, match="once during its move") as refused:
        state_and_events(dismount(with_combat(enc, state), hyrule, HORSE))
    assert "ft left" not in str(refused.value)


def test_riding_the_mount_it_already_rides_is_refused(rulesets: dict[str, Ruleset]) -> None:
    # Already on it: mounting again would charge half the speed for nothing.
    hyrule = rulesets["legends-of-hyrule"]
    state, enc = _hyrule_ride(hyrule)
    state, _ = state_and_events(control_mount(with_combat(enc, state), hyrule, RIDER, HORSE))
    state = _riders_next_turn(state, hyrule, enc)
    with pytest.raises(IllegalActionError, match="Rider already rides Horse"):
        state_and_events(control_mount(with_combat(enc, state), hyrule, RIDER, HORSE))
    assert _left(state, hyrule, enc) == 30
