"""Builders for rules tests: small encounters with creatures that have combat stats."""

from __future__ import annotations

from battlemap.model.combat import CombatEvent, CombatState
from battlemap.model.creature import CombatStats, Creature, Side, Speeds
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.initiative import roll_initiative, start_combat
from battlemap.rules.outcome import Outcome, with_combat
from battlemap.rules.schema import Ruleset
from battlemap.rules.turns import begin_combat


def creature(
    name: str,
    side: Side = Side.HOSTILE,
    *,
    dex: int = 10,
    wis: int = 10,
    walk: int = 30,
    fly: int = 0,
    stealth: int | None = None,
    passive: int | None = None,
    init_bonus: int = 0,
    hp: int = 10,
) -> Creature:
    return Creature(
        id=EntityId(name.lower().replace(" ", "-")),
        name=name,
        side=side,
        speeds=Speeds(walk=walk, fly=fly),
        hp=hp,
        max_hp=max(hp, 10),
        stats=CombatStats(
            dexterity=dex,
            wisdom=wis,
            stealth=stealth,
            passive_perception=passive,
            initiative_bonus=init_bonus,
        ),
    )


def encounter(*creatures: Creature, ruleset: str = "srd-5e") -> Encounter:
    return Encounter(ruleset=ruleset, creatures=creatures)


def fight(ruleset: Ruleset, enc: Encounter, seed: int = 1) -> CombatState:
    """A combat with initiative rolled and round 1 begun."""
    state = start_combat(enc, enc.ruleset, seed)
    state, _ = state_and_events(roll_initiative(with_combat(enc, state), ruleset))
    state, _ = state_and_events(begin_combat(with_combat(enc, state), ruleset))
    return state


def whose_turn(state: CombatState) -> EntityId:
    assert state.current is not None
    return state.current.creature_id


StateAndEvents = tuple[CombatState, tuple[CombatEvent, ...]]
"""What a turn-engine test reads of an ``Outcome``: the new combat and the events it added."""


def state_and_events(outcome: Outcome[object]) -> StateAndEvents:
    """The combat an operation left in its encounter (it must hold one) and its events."""
    assert outcome.encounter.combat is not None
    return outcome.encounter.combat, outcome.events


def kinds(outcome: StateAndEvents) -> list[str]:
    return [event.kind for event in outcome[1]]
