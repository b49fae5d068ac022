"""What a token drop does, without Qt: one pure command for the whole move.

Outside a combat a legal drop is a plain ``MoveCreature``. In combat the move is walked in
segments: movement is spent with the engine up to each opportunity attack, the DM decides
take or skip (``choose``), a taken attack is resolved by the engine with the mover where it
stands at that moment, and the move goes on unless the attack stopped the mover. The move,
the movement spent and every attack's result become ONE ``ApplyCombatStep`` (one undo step).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from battlemap.geometry import MapIndex, MoveResult
from battlemap.model.combat import CombatState
from battlemap.model.combat_commands import ApplyCombatStep
from battlemap.model.creature import Creature
from battlemap.model.document import Command, MoveCreature
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.model.statblock import AttackKind
from battlemap.rules.attack_situation import attack_situation
from battlemap.rules.attacks import AttackProfile, unarmed_strike
from battlemap.rules.combat_ops import stats_of
from battlemap.rules.errors import CombatError
from battlemap.rules.movement import spend_movement
from battlemap.rules.opportunity import OpportunityOffer, offers_from_move, resolve_opportunity
from battlemap.rules.schema import Ruleset
from battlemap.ui.drag.plan import spend_split

UNARMED_PROFICIENCY = 2
"""Proficiency assumed for the unarmed strike of a creature with no melee attack listed."""


class Choice(StrEnum):
    """The DM's answer to an opportunity attack."""

    TAKE = "take"
    SKIP = "skip"
    CANCEL = "cancel"
    """Call the whole move off: nothing changes."""


Chooser = Callable[[OpportunityOffer, str, str], Choice]
"""Asked per available attack: (offer, attacker's name, mover's name) -> choice."""


@dataclass(frozen=True)
class DropOutcome:
    """The command to push (None: nothing changes) and a status-bar message."""

    command: Command | None
    message: str


def opportunity_profile(ruleset: Ruleset, creature: Creature) -> AttackProfile:
    """The attacker's first melee attack from its stat block, else its unarmed strike
    (+2 proficiency + Strength modifier to hit)."""
    block = creature.statblock
    for attack in block.attacks if block is not None else ():
        if attack.kind in (AttackKind.MELEE, AttackKind.MELEE_OR_RANGED):
            return AttackProfile.from_statblock(attack, ranged=False)
    to_hit = UNARMED_PROFICIENCY + stats_of(creature).modifier("str")
    return unarmed_strike(ruleset, creature, to_hit)


def _placed(encounter: Encounter, creature_id: EntityId, xy: tuple[float, float]) -> Encounter:
    creature = encounter.creature(creature_id)
    return encounter.replace_creature(creature.model_copy(update={"x": xy[0], "y": xy[1]}))


def resolve_drop(
    encounter: Encounter,
    ruleset: Ruleset,
    index: MapIndex,
    mover_id: EntityId,
    move: MoveResult,
    offset: tuple[float, float],
    end: tuple[float, float],
    choose: Chooser,
) -> DropOutcome:
    """Turn a legal move into one command (see the module docstring).

    ``offset`` is the mover's position inside its top-left cell (a Tiny creature's half
    cell); positions in ``move`` are whole top-left cells. ``end`` is where the token was
    dropped (snapped; inside the move's last cell, so a Tiny creature may end on any half
    cell of it).

    Returns a ``DropOutcome`` whose command is None when the engine refuses the move (its
    reason is the message) or the DM cancels it.
    """
    mover = encounter.creature(mover_id)
    name = mover.name

    def at(cell: tuple[int, int]) -> tuple[float, float]:
        return (cell[0] + offset[0], cell[1] + offset[1])

    combat = encounter.combat
    if combat is None or not combat.has(mover_id):
        text = f"Move {name} ({move.cost_feet:g} ft)"
        return DropOutcome(MoveCreature(mover_id, (mover.x, mover.y), end, text), text)
    try:
        return _combat_drop(encounter, combat, ruleset, index, mover_id, move, at, end, choose)
    except (CombatError, ValueError, KeyError) as error:
        return DropOutcome(
            None, f"{name} can't move: {error}. (Alt-drop places it without the rules.)"
        )


def _combat_drop(
    encounter: Encounter,
    combat: CombatState,
    ruleset: Ruleset,
    index: MapIndex,
    mover_id: EntityId,
    move: MoveResult,
    at: Callable[[tuple[int, int]], tuple[float, float]],
    end: tuple[float, float],
    choose: Chooser,
) -> DropOutcome:
    name = encounter.creature(mover_id).name
    work, state = encounter, combat
    spent_steps = 0
    notes: list[str] = []

    def spend(upto: int | None) -> None:
        nonlocal state, spent_steps
        done_feet, done_distance = spend_split(move, spent_steps)
        feet, distance = spend_split(move, upto)
        if feet - done_feet > 1e-9:
            state, _ = spend_movement(
                state, ruleset, work, mover_id, feet - done_feet,
                distance_feet=distance - done_distance,
            )  # fmt: skip
        spent_steps = len(move.steps) if upto is None else upto

    for offer in offers_from_move(encounter, combat, ruleset, mover_id, move):
        attacker = encounter.creature(offer.attacker_id)
        if not offer.available:
            notes.append(offer.reason)
            continue
        choice = choose(offer, attacker.name, name)
        if choice is Choice.CANCEL:
            return DropOutcome(None, f"Move of {name} called off; nothing changed.")
        spend(offer.step_index)
        assert offer.position is not None
        work = _placed(work, mover_id, at(offer.position))
        if choice is Choice.SKIP:
            applied = resolve_opportunity(work, state, ruleset, offer, take=False)
        else:
            profile = opportunity_profile(ruleset, attacker)
            situation = attack_situation(
                index, work, state, ruleset, offer.attacker_id, mover_id, profile
            )
            applied = resolve_opportunity(
                work, state, ruleset, offer, take=True, profile=profile, situation=situation
            )
        work, state = applied.encounter, applied.combat or state
        result = applied.result
        if result.attack is not None:
            hit = "hits" if result.attack.hit else "misses"
            notes.append(f"{attacker.name}'s opportunity attack {hit}")
        else:
            notes.append(f"{attacker.name} lets {name} go")
        if not result.move_continues:
            notes.append(f"{name} stops: {result.reason}")
            text = f"Move {name} (stopped by an opportunity attack)"
            return DropOutcome(ApplyCombatStep.between(encounter, work, state, text), _join(notes))
    spend(None)
    work = _placed(work, mover_id, end)
    text = f"Move {name} ({move.cost_feet:g} ft)"
    notes.insert(0, f"{name} moves {move.cost_feet:g} ft")
    return DropOutcome(ApplyCombatStep.between(encounter, work, state, text), _join(notes))


def _join(notes: list[str]) -> str:
    return "; ".join(notes) + "."
