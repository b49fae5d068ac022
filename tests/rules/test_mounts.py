"""Controlled mounts act on their rider's initiative (legends-of-hyrule "Controlling a Mount")."""

from __future__ import annotations

import pytest

from battlemap.model.combat import CombatState
from battlemap.model.creature import Creature, Side, Size
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.economy import take_action
from battlemap.rules.errors import IllegalActionError, InvalidRequestError
from battlemap.rules.initiative import set_initiative
from battlemap.rules.mounts import control_mount, release_mount
from battlemap.rules.schema import MountRules, Ruleset
from battlemap.rules.turns import end_turn, remove_combatant
from tests.rules.helpers import creature, encounter, fight

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
    state, _ = control_mount(state, ruleset, enc, RIDER, HORSE)
    return state, enc


def _order(state: CombatState) -> list[str]:
    return [str(s.creature_id) for s in state.order]


def _with_mounts(ruleset: Ruleset, **update: object) -> Ruleset:
    movement = ruleset.movement.model_copy(update={"mounting": MountRules(**update)})  # type: ignore[arg-type]
    return ruleset.model_copy(update={"movement": movement})


def test_a_controlled_mount_takes_the_riders_initiative(rulesets: dict[str, Ruleset]) -> None:
    # "The initiative of a controlled mount changes to match yours when you mount it."
    ruleset = _with_mounts(rulesets["srd-5e"])
    state, enc = _battle(ruleset, "srd-5e")
    assert _order(state) == ["rider", "orc", "horse"]
    state, events = control_mount(state, ruleset, enc, RIDER, HORSE)
    assert _order(state) == ["rider", "horse", "orc"]
    assert state.current is not None and state.current.creature_id == RIDER
    horse = state.combatant(HORSE)
    assert horse.initiative == state.combatant(RIDER).initiative
    assert horse.controlled_by == RIDER
    assert "can only Dash, Disengage, Dodge" in events[-1].text
    # Re-sorting the order (the DM changes the orc's initiative) keeps it behind its rider.
    state, _ = set_initiative(state, ruleset, enc, ORC, 90)
    assert _order(state) == ["orc", "rider", "horse"]


def test_a_controlled_mount_only_dashes_disengages_or_dodges(rulesets: dict[str, Ruleset]) -> None:
    # "it has only three action options: Dash, Disengage, and Dodge"; "A controlled mount can
    # move and act even on the turn that you mount it."
    ruleset = _with_mounts(rulesets["srd-5e"])
    state, enc = _controlled(ruleset)
    state, _ = end_turn(state, ruleset, enc)  # the horse's turn, right after the rider's
    with pytest.raises(IllegalActionError, match="controlled by Rider: it can only take dash"):
        take_action(state, ruleset, enc, HORSE, "attack", target_id=ORC)
    dashed, _ = take_action(state, ruleset, enc, HORSE, "dash")
    assert dashed.combatant(HORSE).turn.dash_count == 1
    # The action list is the ruleset's: one that allows attacks lets it attack.
    fighting = _with_mounts(rulesets["srd-5e"], controlled_mount_actions=("dash", "attack"))
    take_action(state, fighting, enc, HORSE, "attack", target_id=ORC)


def test_an_independent_mount_acts_as_it_wishes(rulesets: dict[str, Ruleset]) -> None:
    # "An independent mount retains its place in the initiative order."
    ruleset = _with_mounts(rulesets["srd-5e"])
    state, enc = _controlled(ruleset)
    state, _ = release_mount(state, ruleset, enc, HORSE)
    assert state.combatant(HORSE).controlled_by is None
    state, _ = end_turn(state, ruleset, enc)
    take_action(state, ruleset, enc, HORSE, "attack", target_id=ORC)
    with pytest.raises(IllegalActionError, match="not a controlled mount"):
        release_mount(state, ruleset, enc, HORSE)


def test_the_rider_leaving_frees_the_mount(rulesets: dict[str, Ruleset]) -> None:
    ruleset = _with_mounts(rulesets["srd-5e"])
    state, enc = _controlled(ruleset)
    state, _ = remove_combatant(state, ruleset, enc, RIDER)
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
    state, _ = control_mount(state, hyrule, enc, RIDER, HORSE)
    assert [c for c in _order(state) if c != "orc"] == ["rider", "horse", "sage"]


def test_who_can_be_a_controlled_mount(rulesets: dict[str, Ruleset]) -> None:
    # "A willing creature that is at least one size larger than you" can serve as a mount.
    ruleset = _with_mounts(rulesets["srd-5e"])
    state, enc = _battle(ruleset, "srd-5e", horse_size=Size.MEDIUM)
    with pytest.raises(IllegalActionError, match="at least one size larger"):
        control_mount(state, ruleset, enc, RIDER, HORSE)
    with pytest.raises(InvalidRequestError, match="no mounted combat rules"):
        control_mount(state, rulesets["srd-5e"], enc, RIDER, HORSE)
    # gms-den "Mounting a Steed" has mounting but no controlled mounts.
    with pytest.raises(InvalidRequestError, match="no controlled mounts"):
        control_mount(state, rulesets["gms-den"], enc, RIDER, HORSE)
