"""Opportunity attacks as an engine step: offer the reaction, take it or ignore it, go on.

The geometry reports which hostile creatures the mover leaves the reach of, and at which step
(``geometry.movement.OpportunityAttack``). The engine then, for each in turn:

1. ``opportunity_offers`` says which of them may react now, and why not for the others
   (reaction spent, incapacitated, surprised, the mover Disengaged, can't see the mover);
2. the DM decides: ``resolve_opportunity`` with ``take=False`` just logs the declined offer;
   with ``take=True`` it spends the reaction and resolves one melee attack (with damage) right
   before the mover leaves reach, in one new state;
3. the result says whether the move goes on: not if the mover died, dropped to 0 or can't move.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from battlemap.geometry.map_index import MapIndex
from battlemap.geometry.movement import MoveResult
from battlemap.geometry.movement_types import OpportunityAttack
from battlemap.geometry.reach import distance_feet
from battlemap.model.creature import Creature
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.model.statblock import AttackKind, StatBlock
from battlemap.rules.attacks import (
    AttackOptions,
    AttackPlan,
    AttackProfile,
    AttackResult,
    AttackSituation,
    Delivery,
    make_attack,
    plan_attack,
    unarmed_strike,
)
from battlemap.rules.combat_ops import stats_of
from battlemap.rules.conditions import denial, reactions_left, speed_is_zero_by_conditions
from battlemap.rules.draft import Draft
from battlemap.rules.enums import EconomyPart
from battlemap.rules.errors import IllegalActionError
from battlemap.rules.movement import diagonal_rule
from battlemap.rules.outcome import Outcome, running_combat, with_combat
from battlemap.rules.schema import Ruleset
from battlemap.rules.sight_on_map import combat_bodies, creature_sight, light_levels
from battlemap.rules.vision import SightVerdict


@dataclass(frozen=True)
class OpportunityOffer:
    """One creature's chance to attack the mover; ``reason`` says why it can't, if it can't.

    ``position`` is the mover's top-left cell when the attack happens (right before the step
    ``step_index`` leaves the reach): build the attack situation with the mover there.
    """

    attacker_id: EntityId
    mover_id: EntityId
    available: bool
    reason: str
    step_index: int | None = None
    position: tuple[int, int] | None = None


@dataclass(frozen=True)
class OpportunityResult:
    taken: bool
    attack: AttackResult | None
    move_continues: bool
    reason: str


def opportunity_offers(
    encounter: Encounter,
    ruleset: Ruleset,
    mover_id: EntityId,
    attacker_ids: Sequence[EntityId],
    *,
    step_indexes: Sequence[int | None] | None = None,
    sees_mover: Sequence[bool] | None = None,
    unseen_why: Sequence[str] | None = None,
) -> tuple[OpportunityOffer, ...]:
    """Which of the creatures whose reach the mover leaves can make the attack now
    (``unseen_why``: why each can't see the mover, where ``sees_mover`` says so)."""
    running_combat(encounter)
    draft = Draft(encounter, ruleset)
    mover = draft.fighting(mover_id)
    offers = []
    for index, attacker_id in enumerate(attacker_ids):
        step = step_indexes[index] if step_indexes is not None else None
        reason = ""
        attacker = draft.combatant(attacker_id)
        if attacker is None:
            reason = f"{draft.name(attacker_id)} is not in the combat"
        elif attacker.death.dead:
            reason = f"{draft.name(attacker_id)} is dead"
        elif mover.disengaged:
            reason = f"{draft.name(mover_id)} took the Disengage action"
        elif reactions_left(ruleset, attacker) == 0:
            reason = f"{draft.name(attacker_id)} has already used its reaction"
        elif sees_mover is not None and not sees_mover[index]:
            reason = f"{draft.name(attacker_id)} can't see {draft.name(mover_id)}"
            if unseen_why is not None and unseen_why[index]:
                reason += f" ({unseen_why[index]})"
        else:
            denied = denial(ruleset, attacker, EconomyPart.REACTION, draft.name(attacker_id)).reason
            reason = denied or ""
        offers.append(
            OpportunityOffer(attacker_id, mover_id, not reason, reason or "can attack", step)
        )
    return tuple(offers)


def offers_from_move(
    encounter: Encounter,
    ruleset: Ruleset,
    mover_id: EntityId,
    move: MoveResult,
) -> tuple[OpportunityOffer, ...]:
    """The offers for the opportunity attacks the geometry found along ``move``, in step order.

    The geometry already left out creatures that can't see the mover, are incapacitated or
    have spent their reaction, and every attack when the mover Disengaged; this re-checks
    the turn engine's reasons (surprise) and attaches the step and position.
    """
    combat = running_combat(encounter)
    triggers = move.opportunity_attacks
    fighting = with_combat(encounter, combat)
    sight = sight_of_mover(fighting, ruleset, mover_id, triggers)
    offers = opportunity_offers(
        fighting,
        ruleset,
        mover_id,
        [t.attacker_id for t in triggers],
        step_indexes=[t.step_index for t in triggers],
        sees_mover=[v.sees for v in sight],
        unseen_why=[v.reason for v in sight],
    )
    return tuple(
        replace(offer, position=(int(t.position[0]), int(t.position[1])))
        for offer, t in zip(offers, triggers, strict=True)
    )


def sight_of_mover(
    encounter: Encounter,
    ruleset: Ruleset,
    mover_id: EntityId,
    triggers: Sequence[OpportunityAttack],
    index: MapIndex | None = None,
) -> list[SightVerdict]:
    """Whether each attacker sees the mover where it leaves the reach, in its light ("a
    hostile creature that you can see moves out of your reach"); a light the mover carries
    goes with it. ``index``: ``MapIndex.build(encounter)`` when the caller has it.
    """
    if not triggers:
        return []
    index = index if index is not None else MapIndex.build(encounter)
    lit = light_levels(index, encounter)
    bodies = {b.id: b for b in combat_bodies(encounter, ruleset)}
    rule = diagonal_rule(ruleset)
    mover = encounter.creature(mover_id)
    carries = any(light.carried_by == mover_id for light in encounter.lights)
    dx, dy = mover.x - math.floor(mover.x), mover.y - math.floor(mover.y)
    verdicts = []
    for t in triggers:
        at = (t.position[0] + dx, t.position[1] + dy)
        if carries:
            moved = mover.model_copy(update={"x": at[0], "y": at[1]})
            lit = light_levels(index, encounter.replace_creature(moved))
        looker, looked_at = bodies[t.attacker_id], replace(bodies[mover_id], x=at[0], y=at[1])
        distance = distance_feet(looker, looked_at, rule)
        verdicts.append(
            creature_sight(ruleset, lit, encounter, looker, looked_at, distance, mover.name)
        )
    return verdicts


def resolve_opportunity(
    encounter: Encounter,
    ruleset: Ruleset,
    offer: OpportunityOffer,
    *,
    take: bool,
    profile: AttackProfile | None = None,
    situation: AttackSituation | None = None,
    options: AttackOptions | None = None,
) -> Outcome[OpportunityResult]:
    """Take (one melee attack, spending the reaction) or ignore an offered opportunity attack.

    Raises:
        IllegalActionError: the offer isn't available, the profile isn't a melee attack, or
            the attack itself is refused (see ``make_attack``); the state is unchanged.
    """
    combat = running_combat(encounter)
    if not take:
        draft = Draft(encounter, ruleset)
        draft.add(
            "opportunity-declined",
            f"{draft.name(offer.attacker_id)} lets {draft.name(offer.mover_id)} go",
            offer.attacker_id,
        )
        return draft.done(OpportunityResult(False, None, True, "declined"))
    applied = make_attack(
        with_combat(encounter, combat),
        ruleset,
        *_attack(ruleset, offer, profile, situation, options),
    )
    draft = Draft(applied.encounter, ruleset)
    mover = draft.creature(offer.mover_id)
    mover_c = draft.fighting(offer.mover_id)
    if mover_c.death.dead:
        continues, reason = False, "the mover died"
    elif mover.hp == 0:
        continues, reason = False, "the mover dropped to 0 hit points"
    elif speed_is_zero_by_conditions(ruleset, mover_c):
        continues, reason = False, "the mover's speed is now 0"
    else:
        continues, reason = True, "the move continues"
    result = OpportunityResult(True, applied.result, continues, reason)
    return Outcome(applied.encounter, result, applied.events)


def plan_opportunity(
    encounter: Encounter,
    ruleset: Ruleset,
    offer: OpportunityOffer,
    profile: AttackProfile | None,
    situation: AttackSituation | None = None,
    options: AttackOptions | None = None,
) -> AttackPlan:
    """The roll mode and AC of the attack ``resolve_opportunity(take=True)`` would make, with
    the same checks and no dice (``plan_attack``).

    Raises:
        IllegalActionError: as ``resolve_opportunity``, before its d20.
    """
    return plan_attack(encounter, ruleset, *_attack(ruleset, offer, profile, situation, options))


def _attack(
    ruleset: Ruleset,
    offer: OpportunityOffer,
    profile: AttackProfile | None,
    situation: AttackSituation | None,
    options: AttackOptions | None,
) -> tuple[EntityId, EntityId, AttackProfile, AttackSituation, AttackOptions]:
    """The attack an offer makes (attacker, target, profile, situation, options), checked: an
    available offer, one melee attack, spending the opportunity attack's reaction."""
    if not offer.available:
        raise IllegalActionError(offer.reason)
    if profile is None or profile.delivery is not Delivery.MELEE:
        raise IllegalActionError("an opportunity attack is one melee attack")
    action_id = ruleset.roles.actions.opportunity_attack
    return (
        offer.attacker_id,
        offer.mover_id,
        profile,
        situation or AttackSituation(),
        replace(options or AttackOptions(), action_id=action_id),
    )


UNARMED_PROFICIENCY = 2
"""Proficiency assumed for the unarmed strike of a creature with no melee attack listed."""


def opportunity_profile(
    ruleset: Ruleset, creature: Creature, block: StatBlock | None = None
) -> AttackProfile:
    """The first melee attack of ``block`` (default: the creature's own stat block), else
    the creature's unarmed strike (+2 proficiency + Strength modifier to hit)."""
    block = block or creature.statblock
    for attack in block.attacks if block is not None else ():
        if attack.kind in (AttackKind.MELEE, AttackKind.MELEE_OR_RANGED):
            return AttackProfile.from_statblock(attack, ranged=False)
    to_hit = UNARMED_PROFICIENCY + stats_of(creature).modifier("str")
    return unarmed_strike(ruleset, creature, to_hit)
