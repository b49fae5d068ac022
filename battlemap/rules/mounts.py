"""Controlled mounts share their rider's initiative (legends-of-hyrule "Controlling a Mount").

"The initiative of a controlled mount changes to match yours when you mount it. It moves as you
direct it, and it has only three action options: Dash, Disengage, and Dodge. A controlled mount
can move and act even on the turn that you mount it." "An independent mount retains its place
in the initiative order."

``control_mount`` gives the mount the rider's initiative (and tie-break and initiative group)
and puts its turn right after the rider's, where re-sorting keeps it; while
``Combatant.controlled_by`` names the rider, ``economy.take_action`` allows it only the
ruleset's ``movement.mounting.controlled_mount_actions``. ``release_mount`` (dismounting, or
the mount turning independent, or the rider falling off) lifts the limit; the mount keeps its
new place, since the rules don't move it back. Mounting ("Mounting and Dismounting": "Once
during your move ... costs an amount of movement equal to half your speed") is paid from the
rider's movement budget (``movement.mount_or_dismount``) by ``control_mount``, and getting off
by ``dismount``, which then releases the mount; either is refused with the reason when not
enough movement is left. A rider already on its mount when the fight starts is set up by
``start_mounted`` before round 1, for free (no move of its own is spent). The rider's save to
stay on (``movement.mounting.fall_off_save_dc``) is ``falling_off.fall_off_save``.

A mount that already took its turn this round and is moved after a rider still to act would
act twice in that round: the draft says so and the DM decides (the rules are silent).
"""

from __future__ import annotations

from battlemap.model.combat import CombatState, TurnSlot
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.combat_ops import combatant_of, creature_of, name_of, require
from battlemap.rules.distances import distance_between
from battlemap.rules.draft import Draft
from battlemap.rules.errors import IllegalActionError, InvalidRequestError
from battlemap.rules.movement import mount_or_dismount
from battlemap.rules.outcome import Outcome, running_combat
from battlemap.rules.schema import MountRules, Ruleset

MOUNT_WITHIN_FEET = 5
"""legends-of-hyrule "Mounting and Dismounting": a mount "within 5 feet of you"."""


def _mount_rules(ruleset: Ruleset) -> MountRules:
    rules = ruleset.movement.mounting
    if rules is None:
        raise InvalidRequestError(f"{ruleset.name} has no mounted combat rules")
    if not rules.controlled_vs_independent:
        raise InvalidRequestError(f"{ruleset.name} has no controlled mounts")
    return rules


def mount_candidates(encounter: Encounter, ruleset: Ruleset, rider_id: EntityId) -> list[EntityId]:
    """Creatures in the combat within ``MOUNT_WITHIN_FEET`` of the rider and not smaller than
    it, in the combat's order: those a menu offers to ride. Smaller ones are left out (never
    a mount); one of the same size is kept so ``control_mount``'s refusal says why not.
    Empty outside a combat.

    Raises:
        InvalidRequestError: the rider isn't in the encounter.
    """
    rider = creature_of(encounter, rider_id)
    combat = encounter.combat
    if combat is None:
        return []
    by_id = {c.id: c for c in encounter.creatures}
    found = []
    for combatant in combat.combatants:
        other = by_id.get(combatant.creature_id)
        if other is None or other.id == rider_id or other.size.rank < rider.size.rank:
            continue
        if distance_between(encounter, ruleset, rider_id, other.id) <= MOUNT_WITHIN_FEET + 1e-9:
            found.append(other.id)
    return found


def control_mount(
    encounter: Encounter,
    ruleset: Ruleset,
    rider_id: EntityId,
    mount_id: EntityId,
) -> Outcome[None]:
    """The rider mounts and takes control of the mount: the rider spends the ruleset's
    mounting cost (``movement.mount_or_dismount``: half its speed) on its turn, and the mount
    acts on the rider's initiative, right after the rider, with only the controlled-mount
    actions.

    The engine measures the distance between the two on the map (``distance_between``): at
    most ``MOUNT_WITHIN_FEET``: "you can mount a willing creature that is within 5 feet of you".

    Raises:
        InvalidRequestError: no controlled mounts in the ruleset, either creature not fighting,
            the same creature twice, the rider without a turn (initiative not rolled).
        IllegalActionError: the mount isn't at least one size larger than the rider, is
            controlled by someone else or already by the rider, the rider is itself a
            controlled mount or already controls another, or the mount is farther than
            5 ft; not the rider's turn, its speed 0, or less movement
            left than mounting costs.
    """
    return _ride(encounter, ruleset, rider_id, mount_id, paying=True)


def start_mounted(
    encounter: Encounter,
    ruleset: Ruleset,
    rider_id: EntityId,
    mount_id: EntityId,
) -> Outcome[None]:
    """Set the combat up with the rider already on (and controlling) ``mount_id``: for free,
    before round 1 begins.

    The documents let a creature be mounted before a fight (legends-of-hyrule "Mounted
    Combat": "A knight charging into battle on a warhorse"); only mounting *during* a move
    costs half the speed ("Once during your move, you can mount ..."), so a rider who was
    already riding when initiative was rolled pays nothing and needs no turn of its own yet.
    The mount takes the rider's initiative as with ``control_mount``, whose other checks
    (size, distance, who controls whom, initiative rolled) apply unchanged.

    Raises:
        InvalidRequestError: as ``control_mount``.
        IllegalActionError: round 1 has begun (mounting then is ``control_mount`` on the
            rider's turn), or as ``control_mount`` except for the movement.
    """
    state = running_combat(encounter)
    rider_name, mount_name = name_of(encounter, rider_id), name_of(encounter, mount_id)
    require(
        not state.started,
        f"the fight has begun: {rider_name} mounts {mount_name} on its own turn, for half its"
        " speed",
    )
    return _ride(encounter, ruleset, rider_id, mount_id, paying=False)


def _ride(
    encounter: Encounter,
    ruleset: Ruleset,
    rider_id: EntityId,
    mount_id: EntityId,
    *,
    paying: bool,
) -> Outcome[None]:
    """``control_mount`` (``paying`` the movement on the rider's turn) or ``start_mounted``."""
    state = running_combat(encounter)
    rules = _mount_rules(ruleset)
    if rider_id == mount_id:
        raise InvalidRequestError("a creature can't ride itself")
    rider = combatant_of(state, rider_id)
    mount = combatant_of(state, mount_id)
    rider_name, mount_name = name_of(encounter, rider_id), name_of(encounter, mount_id)
    feet = distance_between(encounter, ruleset, rider_id, mount_id)
    require(
        feet <= MOUNT_WITHIN_FEET + 1e-9,
        f"{mount_name} is {feet:g} ft from {rider_name}: a mount must be within"
        f" {MOUNT_WITHIN_FEET} ft",
    )
    rider_size = creature_of(encounter, rider_id).size
    mount_size = creature_of(encounter, mount_id).size
    require(
        mount_size.rank >= rider_size.rank + 1,
        f"{mount_name} ({mount_size.value}) must be at least one size larger than"
        f" {rider_name} ({rider_size.value}) to be ridden",
    )
    other = mount.controlled_by
    require(other != rider_id, f"{rider_name} already rides {mount_name}")
    if other is not None:
        raise IllegalActionError(
            f"{mount_name} is already controlled by {name_of(encounter, other)}"
        )
    require(rider.controlled_by is None, f"{rider_name} is a controlled mount itself")
    ridden = next(
        (c.creature_id for c in state.combatants if c.controlled_by == rider_id), mount_id
    )
    require(
        ridden == mount_id,
        f"{rider_name} already controls {name_of(encounter, ridden)}: release it first",
    )
    if not any(s.creature_id == rider_id and not s.extra for s in state.order):
        raise InvalidRequestError(
            f"{rider_name} has no turn yet: roll initiative before {mount_name} follows it"
        )
    draft = Draft(encounter, ruleset)
    if paying:
        draft.run(lambda paid: mount_or_dismount(paid, ruleset, rider_id, mount_id))
    else:
        draft.add("mount", f"{rider_name} starts the fight riding {mount_name}", rider_id)
    if mount.acted_this_round and not rider.acted_this_round and state.started:
        draft.add(
            "mount",
            f"{mount_name} has already acted this round and now follows {rider_name}: the DM"
            " decides whether it acts again this round",
            mount_id,
        )
    controlled = mount.model_copy(
        update={
            "controlled_by": rider_id,
            "initiative": rider.initiative,
            "initiative_tiebreak": rider.initiative_tiebreak,
            "group": rider.group,
        }
    )
    draft.combat = _after_rider(draft.combat, rider_id, mount_id)
    draft.put(controlled)
    actions = ", ".join(
        ruleset.actions[a].name if a in ruleset.actions else a
        for a in rules.controlled_mount_actions
    )
    draft.add(
        "mount",
        f"{rider_name} controls {mount_name}: it acts on {rider_name}'s initiative"
        f" ({rider.initiative}), right after, and can only {actions}",
        mount_id,
    )
    return draft.done(None)


def _after_rider(state: CombatState, rider_id: EntityId, mount_id: EntityId) -> CombatState:
    """``state`` with the mount's regular turn and its combatant entry right after the rider's,
    the current turn kept (re-sorting by initiative then keeps them together)."""
    current = state.current
    slots = [s for s in state.order if not (s.creature_id == mount_id and not s.extra)]
    at = next(i for i, s in enumerate(slots) if s.creature_id == rider_id and not s.extra)
    slots.insert(at + 1, TurnSlot(creature_id=mount_id))
    index = state.turn_index
    if current is not None:
        index = next(i for i, s in enumerate(slots) if s == current)
    combatants = [c for c in state.combatants if c.creature_id != mount_id]
    spot = next(i for i, c in enumerate(combatants) if c.creature_id == rider_id)
    combatants.insert(spot + 1, state.combatant(mount_id))
    return state.model_copy(
        update={"order": tuple(slots), "turn_index": index, "combatants": tuple(combatants)}
    )


def dismount(encounter: Encounter, ruleset: Ruleset, mount_id: EntityId) -> Outcome[None]:
    """The rider of the controlled ``mount_id`` gets off: it spends the ruleset's cost
    (``movement.mount_or_dismount``: half its speed) on its turn, then the mount is released
    (``release_mount``).

    Raises:
        InvalidRequestError: not fighting, no mounted combat rules.
        IllegalActionError: not a controlled mount; not the rider's turn, its speed 0, or less
            movement left than dismounting costs.
    """
    state = running_combat(encounter)
    rider_id = combatant_of(state, mount_id).controlled_by
    if rider_id is None:
        raise IllegalActionError(f"{name_of(encounter, mount_id)} is not a controlled mount")
    draft = Draft(encounter, ruleset)
    draft.run(
        lambda paying: mount_or_dismount(paying, ruleset, rider_id, mount_id, dismounting=True)
    )
    draft.run(lambda freed: release_mount(freed, ruleset, mount_id))
    return draft.done(None)


def release_mount(encounter: Encounter, ruleset: Ruleset, mount_id: EntityId) -> Outcome[None]:
    """The mount is no longer controlled (it acts independently, or its rider fell off): all
    its actions come back; it keeps its place in the order. No movement is spent: a rider
    getting off on its own turn is ``dismount``.

    Raises:
        InvalidRequestError: not fighting; IllegalActionError: not a controlled mount.
    """
    state = running_combat(encounter)
    mount = combatant_of(state, mount_id)
    name = name_of(encounter, mount_id)
    require(mount.controlled_by is not None, f"{name} is not a controlled mount")
    draft = Draft(encounter, ruleset)
    draft.put(mount.model_copy(update={"controlled_by": None}))
    draft.add("mount", f"{name} is no longer controlled: it acts as it wishes", mount_id)
    return draft.done(None)


def controlled_action_refusal(
    ruleset: Ruleset,
    encounter: Encounter,
    state: CombatState,
    creature_id: EntityId,
    action_id: str,
) -> str | None:
    """Why a controlled mount can't take ``action_id`` (None: it can, or it isn't controlled)."""
    combatant = combatant_of(state, creature_id)
    rules = ruleset.movement.mounting
    if combatant.controlled_by is None or rules is None:
        return None
    if action_id in rules.controlled_mount_actions:
        return None
    allowed = ", ".join(rules.controlled_mount_actions)
    return (
        f"{name_of(encounter, creature_id)} is controlled by"
        f" {name_of(encounter, combatant.controlled_by)}: it can only take {allowed}"
    )
