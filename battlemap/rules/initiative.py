"""Setting up a combat: combatants, surprise, initiative in every mode, manual order.

Pure functions: each takes a ``CombatState`` (plus the ruleset and the encounter) and
returns ``(new_state, events)``, or raises a ``CombatError`` and leaves the input as it was.

Ordering rules:

- ``individual``: every group (one creature, or identical monsters sharing one roll) rolls
  1d20 + ability modifier + initiative bonus; higher totals first; ties by the ruleset's
  ``tie_break`` (``dex-score``: higher Dexterity score; ``roll-off``: a d20 each;
  ``dm-order``: as the creatures are listed in the encounter, which the DM can reorder).
- ``group-median`` (legends-of-hyrule): every creature rolls; each side's median (the mean of
  the middle two for an even count) is its score; sides act highest first, tied sides reroll
  (at most ``MAX_REROLLS`` times, then DM order); members of a side act in any order.
- ``manual``: nothing is rolled; the DM enters every value.

gms-den: a natural 20 on initiative adds an extra turn for that creature at the end of round 1.
"""

from __future__ import annotations

import statistics
from collections.abc import Collection, Sequence

from battlemap.model.combat import Combatant, CombatState, TurnSlot
from battlemap.model.creature import Creature, Side
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.combat_ops import (
    combatant_of,
    creature_of,
    name_of,
    require,
    signed,
    stats_of,
)
from battlemap.rules.dice import new_dice_state
from battlemap.rules.draft import Draft
from battlemap.rules.enums import InitiativeMode, InitiativeTieBreak, SurpriseMode
from battlemap.rules.errors import IllegalActionError, InvalidRequestError
from battlemap.rules.initiative_order import earns_extra_turn, placed, ranked_groups
from battlemap.rules.outcome import Outcome, running_combat, with_combat
from battlemap.rules.schema import Ruleset

MAX_REROLLS = 50


def start_combat(
    encounter: Encounter,
    ruleset_id: str,
    seed: int,
    creature_ids: Sequence[EntityId] | None = None,
) -> CombatState:
    """A new combat in round 0 (setting up) with the given creatures, or all of them; each
    combatant starts from its creature's lasting state (``Creature.lasting``).

    Raises:
        InvalidRequestError: an id not in the encounter, or a creature listed twice.
    """
    ids = list(creature_ids) if creature_ids is not None else [c.id for c in encounter.creatures]
    if len(set(ids)) != len(ids):
        raise InvalidRequestError("a creature is listed twice")
    for creature_id in ids:
        creature_of(encounter, creature_id)
    combatants = tuple(
        Combatant(creature_id=i, group=str(i)).with_lasting(creature_of(encounter, i).lasting)
        for i in ids
    )
    return CombatState(ruleset=ruleset_id, combatants=combatants, dice=new_dice_state(seed))


# --- surprise ------------------------------------------------------------------------------


def determine_surprise(
    encounter: Encounter, ruleset: Ruleset, stealthy: Collection[EntityId]
) -> Outcome[None]:
    """Roll Stealth for the ``stealthy`` creatures and mark who is surprised.

    A creature is surprised when every hostile combatant is stealthy and each one's Stealth
    total is at least its passive Perception (the passive score is the DC to beat). With no
    stealthy side nobody is surprised. gms-den (``group-average``): the stealthy members of a
    side each roll and all use the average roll, rounded down.

    Raises:
        IllegalActionError: after the first round has started.
        InvalidRequestError: a stealthy id that isn't a combatant.
    """
    state = running_combat(encounter)
    require(not state.started, "surprise is determined before the first round")
    for creature_id in stealthy:
        combatant_of(state, creature_id)
    draft = Draft(encounter, ruleset)
    totals: dict[EntityId, int] = {}
    for creature_id in stealthy:
        bonus = stats_of(creature_of(encounter, creature_id)).stealth_bonus()
        totals[creature_id] = draft.roll(
            f"1d20{signed(bonus)}", f"{name_of(encounter, creature_id)} Stealth", creature_id
        ).total
    if ruleset.surprise.mode is SurpriseMode.GROUP_AVERAGE:
        for side in Side:
            members = [i for i in totals if creature_of(encounter, i).side is side]
            if members:
                average = sum(totals[i] for i in members) // len(members)
                draft.add("surprise", f"{side.value} group Stealth: average {average}")
                totals.update(dict.fromkeys(members, average))
    for combatant in draft.combat.combatants:
        creature = creature_of(encounter, combatant.creature_id)
        hostiles = [
            creature_of(encounter, other.creature_id)
            for other in draft.combat.combatants
            if creature_of(encounter, other.creature_id).side.is_hostile_to(creature.side)
        ]
        perception = stats_of(creature).passive_perception_score()
        surprised = bool(hostiles) and all(
            h.id in totals and totals[h.id] >= perception for h in hostiles
        )
        updated = combatant.model_copy(
            update={"surprised": surprised, "hidden_stealth": totals.get(combatant.creature_id)}
        )
        draft.put(updated)
        if surprised:
            draft.add(
                "surprise",
                f"{creature.name} is surprised (passive Perception {perception})",
                creature.id,
            )
    return draft.done(None)


def set_surprised(
    encounter: Encounter, ruleset: Ruleset, creature_id: EntityId, surprised: bool
) -> Outcome[None]:
    """The DM marks a creature surprised or not (before the first round)."""
    state = running_combat(encounter)
    require(not state.started, "surprise is determined before the first round")
    draft = Draft(encounter, ruleset)
    draft.put(combatant_of(state, creature_id).model_copy(update={"surprised": surprised}))
    draft.add("surprise", f"surprised set to {surprised}", creature_id)
    return draft.done(None)


# --- initiative ----------------------------------------------------------------------------


def _group_key(creature: Creature, ruleset: Ruleset, encounter: Encounter) -> str:
    """Initiative group: the side (group-median), identical monsters' name, or the creature."""
    if ruleset.initiative.mode is InitiativeMode.GROUP_MEDIAN:
        return f"side:{creature.side.value}"
    if ruleset.initiative.identical_monsters_share_roll and creature.side is not Side.PARTY:
        twins = [
            c for c in encounter.creatures if c.name == creature.name and c.side is creature.side
        ]
        if len(twins) > 1 and all(c.stats == creature.stats for c in twins):
            return f"same:{creature.side.value}:{creature.name}"
    return str(creature.id)


def _initiative_roll(
    draft: Draft, creature: Creature, ruleset: Ruleset, purpose: str
) -> tuple[int, int]:
    """Roll initiative for ``creature``: (total, natural d20)."""
    stats = stats_of(creature)
    bonus = stats.modifier(ruleset.initiative.ability.value) + stats.initiative_bonus
    record = draft.roll(f"1d20{signed(bonus)}", purpose, creature.id)
    return record.total, record.natural or 0


def roll_initiative(encounter: Encounter, ruleset: Ruleset) -> Outcome[None]:
    """Roll initiative for every combatant as the ruleset's mode says and set the order.

    Raises:
        IllegalActionError: once the first round has started (use ``set_initiative`` or
            ``reorder`` to change the order then).
    """
    state = running_combat(encounter)
    require(not state.started, "initiative is rolled before the first round")
    draft = Draft(encounter, ruleset)
    mode = ruleset.initiative.mode
    creatures = {c.creature_id: creature_of(encounter, c.creature_id) for c in state.combatants}
    groups: dict[str, list[EntityId]] = {}
    for combatant in state.combatants:
        key = _group_key(creatures[combatant.creature_id], ruleset, encounter)
        groups.setdefault(key, []).append(combatant.creature_id)
    for key, members in groups.items():
        for creature_id in members:
            draft.put(combatant_of(draft.combat, creature_id).model_copy(update={"group": key}))
    if mode is InitiativeMode.MANUAL:
        draft.add("initiative", "manual initiative: the DM enters every value")
        return draft.done(None)
    if mode is InitiativeMode.GROUP_MEDIAN:
        _roll_group_median(draft, ruleset, creatures, groups)
    else:
        _roll_individual(draft, ruleset, creatures, groups)
    draft.combat = _sorted(draft.combat, ruleset, encounter)
    order = ", ".join(name_of(encounter, s.creature_id) for s in draft.combat.order)
    draft.add("initiative", f"order: {order}")
    return draft.done(None)


def roll_initiative_except(
    encounter: Encounter, ruleset: Ruleset, waiting: Collection[EntityId]
) -> Outcome[None]:
    """Roll initiative for every combatant but ``waiting`` (the players, who roll physical
    dice at the table): those join the order unrolled, last, until the DM types their totals
    (``set_initiative``), which then place them as a roll with the same face would."""
    state = running_combat(encounter)
    rolling = tuple(c for c in state.combatants if c.creature_id not in waiting)
    held = tuple(c for c in state.combatants if c.creature_id in waiting)
    partial = with_combat(encounter, state.model_copy(update={"combatants": rolling}))
    rolled = roll_initiative(partial, ruleset)
    after = running_combat(rolled.encounter)
    merged = after.model_copy(update={"combatants": after.combatants + held})
    return Outcome(with_combat(encounter, _sorted(merged, ruleset, encounter)), None, rolled.events)


def _roll_individual(
    draft: Draft,
    ruleset: Ruleset,
    creatures: dict[EntityId, Creature],
    groups: dict[str, list[EntityId]],
) -> None:
    totals: dict[str, int] = {}
    for key, members in groups.items():
        first = creatures[members[0]]
        label = first.name if len(members) == 1 else f"{first.name} (group of {len(members)})"
        total, natural = _initiative_roll(draft, first, ruleset, f"{label} initiative")
        totals[key] = total
        extra = earns_extra_turn(ruleset, natural)
        for creature_id in members:
            combatant = combatant_of(draft.combat, creature_id)
            draft.put(placed(combatant, creatures[creature_id], ruleset, total, natural))
        if extra:
            draft.add("initiative", f"{label}: natural 20, an extra turn at the end of round 1")
    if ruleset.initiative.tie_break is InitiativeTieBreak.ROLL_OFF:
        by_total: dict[int, list[str]] = {}
        for key, total in totals.items():
            by_total.setdefault(total, []).append(key)
        for total, keys in by_total.items():
            if len(keys) < 2:
                continue
            for key in keys:
                first = creatures[groups[key][0]]
                tie = draft.roll("1d20", f"{first.name} initiative roll-off at {total}", first.id)
                for creature_id in groups[key]:
                    draft.put(
                        combatant_of(draft.combat, creature_id).model_copy(
                            update={"initiative_tiebreak": (tie.total,)}
                        )
                    )


def _roll_group_median(
    draft: Draft,
    ruleset: Ruleset,
    creatures: dict[EntityId, Creature],
    groups: dict[str, list[EntityId]],
) -> None:
    medians: dict[str, float] = {}
    pending = list(groups)
    for attempt in range(MAX_REROLLS + 1):
        for key in pending:
            rolls = []
            for creature_id in groups[key]:
                creature = creatures[creature_id]
                total, _ = _initiative_roll(draft, creature, ruleset, f"{creature.name} initiative")
                rolls.append(total)
                draft.put(
                    combatant_of(draft.combat, creature_id).model_copy(update={"initiative": total})
                )
            medians[key] = float(statistics.median(rolls))
            draft.add("initiative", f"{key.removeprefix('side:')} side median {medians[key]:g}")
        values = list(medians.values())
        pending = [k for k, v in medians.items() if values.count(v) > 1]
        if not pending:
            break
        if attempt == MAX_REROLLS:
            draft.add("initiative", "tie still unbroken; the DM orders the tied sides")
            break
        draft.add("initiative", f"tie at {medians[pending[0]]:g}: tied sides reroll")
    ranked = sorted(groups, key=lambda k: -medians[k])  # stable: DM order breaks leftover ties
    draft.combat = draft.combat.model_copy(update={"group_order": tuple(ranked)})


def _sorted(state: CombatState, ruleset: Ruleset, encounter: Encounter) -> CombatState:
    """The state with ``order`` rebuilt from initiative, keeping the current turn's creature."""
    listed = {c.id: index for index, c in enumerate(encounter.creatures)}
    position = {c.creature_id: i for i, c in enumerate(state.combatants)}
    if ruleset.initiative.mode is InitiativeMode.GROUP_MEDIAN:
        rank = {key: i for i, key in enumerate(state.group_order)}

        def key(c: Combatant) -> tuple[object, ...]:
            return (rank.get(c.group, len(rank)), position[c.creature_id])
    else:
        group_first: dict[str, int] = {}
        for c in state.combatants:
            listed_at = listed.get(c.creature_id, 0)
            group_first[c.group] = min(group_first.get(c.group, listed_at), listed_at)

        def key(c: Combatant) -> tuple[object, ...]:
            initiative = c.initiative if c.initiative is not None else -1000
            tiebreak = tuple(-t for t in c.initiative_tiebreak)
            return (-initiative, tiebreak, group_first[c.group], position[c.creature_id])

    ordered = sorted(state.combatants, key=key)
    slots = [TurnSlot(creature_id=c.creature_id) for c in ordered]
    if state.round <= 1:
        slots += [TurnSlot(creature_id=c.creature_id, extra=True) for c in ordered if c.extra_turn]
    return _with_order(state, tuple(slots), ordered)


def _with_order(
    state: CombatState, slots: tuple[TurnSlot, ...], combatants: Sequence[Combatant]
) -> CombatState:
    current = state.current
    index = 0
    if current is not None:
        index = next(
            (i for i, s in enumerate(slots) if s == current),
            min(state.turn_index, max(len(slots) - 1, 0)),
        )
    return state.model_copy(
        update={"order": slots, "combatants": tuple(combatants), "turn_index": index}
    )


def set_initiative(
    encounter: Encounter,
    ruleset: Ruleset,
    creature_id: EntityId,
    value: int,
    natural: int | None = None,
) -> Outcome[None]:
    """The DM enters ``value`` (a total read off a physical die, or a new value) as the
    creature's initiative and the order is re-sorted exactly as for a rolled total: the
    creature joins its initiative group, carries the ruleset's tie-break (gms-den: its
    Dexterity score), a ``natural`` 20 earns gms-den's extra turn (None: not a natural 20),
    and legends-of-hyrule's groups are re-ranked by their new medians.

    Allowed at any time where ``initiative.manual_reorder`` (every shipped ruleset), else only
    before the combat begins; once combat runs, the creature whose turn it is keeps its turn.

    Raises:
        InvalidRequestError: a value outside -100..100, or a natural outside 1..20.
        IllegalActionError: the combat runs and the ruleset doesn't allow changing the order.
    """
    state = running_combat(encounter)
    if not -100 <= value <= 100:
        raise InvalidRequestError(f"initiative {value} is outside -100..100")
    if natural is not None and not 1 <= natural <= 20:
        raise InvalidRequestError(f"a d20 shows 1..20, not {natural}")
    require(
        ruleset.initiative.manual_reorder or not state.started,
        f"{ruleset.name}: the initiative order stays as rolled once the combat runs",
    )
    draft = Draft(encounter, ruleset)
    creature = creature_of(encounter, creature_id)
    group = _group_key(creature, ruleset, encounter)
    combatant = combatant_of(state, creature_id).model_copy(update={"group": group})
    draft.put(placed(combatant, creature, ruleset, value, natural))
    name = name_of(encounter, creature_id)
    draft.add("initiative", f"{name}: initiative set to {value}", creature_id)
    if earns_extra_turn(ruleset, natural):
        draft.add("initiative", f"{name}: natural 20, an extra turn at the end of round 1")
    if ruleset.initiative.mode is InitiativeMode.GROUP_MEDIAN:
        draft.combat = _with_group_order(draft.combat, draft)
    draft.combat = _sorted(draft.combat, ruleset, encounter)
    return draft.done(None)


def _with_group_order(state: CombatState, draft: Draft) -> CombatState:
    """The state with its groups ranked by their medians now (legends-of-hyrule); a tie
    left by typed totals is logged: the tied sides reroll at the table and the DM types
    the new totals, or drags the rows."""
    ranked, ties = ranked_groups(state)
    for median in ties:
        draft.add("initiative", f"tie at median {median:g}: the tied sides reroll")
    return state.model_copy(update={"group_order": ranked})


def reorder(
    encounter: Encounter, ruleset: Ruleset, creature_ids: Sequence[EntityId]
) -> Outcome[None]:
    """The DM puts the combatants' regular turns in exactly this order (extra turns stay last),
    where the ruleset's ``initiative.manual_reorder`` allows it (every shipped ruleset; srd
    "Initiative": the DM and the players order ties).

    Raises:
        InvalidRequestError: no combat, or ``creature_ids`` is not a permutation of the
            combatants.
        IllegalActionError: the ruleset doesn't let the DM reorder.
    """
    state = running_combat(encounter)
    require(ruleset.initiative.manual_reorder, f"{ruleset.name}: the DM can't reorder turns")
    regular = [s.creature_id for s in state.order if not s.extra]
    if sorted(creature_ids) != sorted(regular) or len(set(creature_ids)) != len(creature_ids):
        raise InvalidRequestError("the new order must list every combatant exactly once")
    extras = tuple(s for s in state.order if s.extra)
    slots = tuple(TurnSlot(creature_id=i) for i in creature_ids) + extras
    by_id = {c.creature_id: c for c in state.combatants}
    draft = Draft(encounter, ruleset)
    draft.combat = _with_order(state, slots, [by_id[i] for i in creature_ids])
    draft.add(
        "initiative",
        "order set by the DM: " + ", ".join(name_of(encounter, i) for i in creature_ids),
    )
    return draft.done(None)


def insert_sorted(state: CombatState, ruleset: Ruleset, encounter: Encounter) -> CombatState:
    """Re-sort after a combatant was added, keeping whose turn it is (used by ``turns``)."""
    return _sorted(state, ruleset, encounter)


def roll_one(
    draft: Draft, ruleset: Ruleset, encounter: Encounter, creature_id: EntityId
) -> Combatant:
    """Initiative for a creature joining mid-combat: its own roll, or its side (group-median).
    The combatant starts from the creature's lasting state (``Creature.lasting``)."""
    creature = creature_of(encounter, creature_id)
    key = _group_key(creature, ruleset, encounter)
    existing = [c for c in draft.combat.combatants if c.group == key]
    combatant = Combatant(creature_id=creature_id, group=key).with_lasting(creature.lasting)
    if ruleset.initiative.mode is InitiativeMode.MANUAL:
        return combatant
    if (
        existing
        and existing[0].initiative is not None
        and ruleset.initiative.mode is not (InitiativeMode.GROUP_MEDIAN)
    ):
        return combatant.model_copy(
            update={
                "initiative": existing[0].initiative,
                "initiative_tiebreak": existing[0].initiative_tiebreak,
            }
        )
    total, _ = _initiative_roll(draft, creature, ruleset, f"{creature.name} initiative")
    if (
        ruleset.initiative.mode is InitiativeMode.GROUP_MEDIAN
        and key not in draft.combat.group_order
    ):
        draft.combat = draft.combat.model_copy(
            update={"group_order": (*draft.combat.group_order, key)}
        )
    # a joiner's natural 20 comes too late for round 1's extra turn
    return placed(combatant, creature, ruleset, total, None)


__all__ = [
    "IllegalActionError",
    "determine_surprise",
    "insert_sorted",
    "reorder",
    "roll_initiative",
    "roll_initiative_except",
    "roll_one",
    "set_initiative",
    "set_surprised",
    "start_combat",
]
