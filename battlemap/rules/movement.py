"""The movement budget: speed after modifiers, Dash, several speeds, prone, spending feet.

- Speed after modifiers: the creature's speed for the mode; 0 with a ``speed-zero`` or
  ``cant-move`` condition or exhaustion 5; halved (rounded down) by ``half-speed`` effects
  (exhaustion 2), once however many apply.
- Dash adds the speed after modifiers, so a slowed creature gains less (srd "Dash": 30 -> 60;
  reduced to 15 -> 30). Without ``dash_stacks`` a second Dash in a turn adds nothing; with it
  (legends-of-hyrule) each Dash adds the speed again: twice triples, thrice quadruples.
- Several speeds: one ``movement_used`` counter in feet; what is left in a mode is that mode's
  budget minus everything already moved (srd: fly 20, walk 10, fly 30 with walk 30 / fly 60),
  as ``switching_speeds_subtracts_moved`` says; a ruleset that turns it off gives each speed
  its own budget, minus only what was moved with that speed (``movement_used_by_mode``).
- Prone: standing up costs ``stand_up_fraction_of_speed`` of the walking speed after
  modifiers, rounded down (30 -> 15); impossible with speed 0 or too little left. Crawling
  adds ``crawl_extra_cost_per_foot`` per foot of distance to what the geometry charged.
- The geometry layer computes what a move costs in feet (difficult terrain and water included)
  with the numbers ``movement_costs`` takes from the ruleset; this module only checks it
  against the budget and spends it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from battlemap.geometry.metrics import DiagonalRule as GeometryDiagonal
from battlemap.geometry.movement import MovementCosts, MoveResult
from battlemap.model.combat import Combatant, CombatState, SpeedMode, TurnState
from battlemap.model.creature import Creature
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.character_checks import check_bonus_of
from battlemap.rules.combat_ops import (
    combatant_of,
    creature_of,
    name_of,
    require,
    signed,
    stats_of,
)
from battlemap.rules.conditions import (
    apply_condition,
    denial,
    effects_of,
    exhaustion_effects,
    set_exhaustion,
)
from battlemap.rules.draft import Draft
from battlemap.rules.enums import ConditionEffect, EconomyPart, ExhaustionEffect
from battlemap.rules.errors import IllegalActionError, InvalidRequestError
from battlemap.rules.outcome import Outcome, running_combat, with_combat
from battlemap.rules.schema import Ruleset

EPSILON = 1e-6


@dataclass(frozen=True)
class SpeedReport:
    """A speed after modifiers, with every modifier that applied."""

    mode: SpeedMode
    base: int
    speed: int
    reasons: tuple[str, ...]


@dataclass(frozen=True)
class MovementBudget:
    """What a combatant can still move this turn in ``mode``, and why."""

    mode: SpeedMode
    speed: int
    """Speed after modifiers."""
    dashes_counted: int
    total: int
    """Speed x (1 + dashes counted)."""
    used: float
    remaining: float
    reasons: tuple[str, ...]


def movement_costs(ruleset: Ruleset) -> MovementCosts:
    """The geometry's movement numbers from ``ruleset.movement``.

    ``difficult_terrain_extra_cost_per_foot`` (srd: 1, "Every foot of movement in difficult
    terrain costs 1 extra foot"), ``creature_space_is_difficult`` (srd: "The space of another
    creature, whether hostile or not, also counts as difficult terrain") and
    ``hostile_pass_through_size_difference`` (srd: "only if it is at least two sizes larger or
    smaller than you") and ``crawl_extra_cost_per_foot`` (srd: "Every foot of movement while
    crawling costs 1 extra foot"), ``squeezing.extra_cost_per_foot`` (legends-of-hyrule
    "Squeezing into a Smaller Space": "1 extra foot for every foot it moves there"; null
    ``squeezing``: no squeezing), ``swim_extra_cost_per_foot`` (water without a swim speed)
    and ``may_end_in_occupied_space``. gms-den's "speed halved" in difficult terrain costs the
    same as an extra foot per foot.
    """
    rules = ruleset.movement
    squeeze = rules.squeezing
    return MovementCosts(
        difficult_extra=rules.difficult_terrain_extra_cost_per_foot,
        creature_space_is_difficult=rules.creature_space_is_difficult,
        hostile_pass_size_difference=rules.hostile_pass_through_size_difference,
        crawl_extra=rules.crawl_extra_cost_per_foot,
        squeeze_extra=None if squeeze is None else squeeze.extra_cost_per_foot,
        water_extra=rules.swim_extra_cost_per_foot,
        may_end_in_creature_space=rules.may_end_in_occupied_space,
    )


def spend_split(result: MoveResult, upto_step: int | None = None) -> tuple[float, float]:
    """(feet without the crawl surcharge, distance walked) of the first ``upto_step`` steps of
    a move the geometry costed, for ``spend_movement(feet, distance_feet=...)``.

    The geometry charges crawling while prone (``StepCost.crawl_feet``, the ruleset's
    ``crawl_extra_cost_per_foot`` per foot) and ``spend_movement`` adds the same surcharge from
    the distance, so it is taken out here to be charged once. ``upto_step`` None means every
    step.
    """
    steps = result.steps if upto_step is None else result.steps[:upto_step]
    feet = sum(s.cost_feet - s.crawl_feet for s in steps)
    return feet, sum(s.base_feet for s in steps)


def diagonal_rule(ruleset: Ruleset) -> GeometryDiagonal:
    """The geometry's diagonal rule named by ``ruleset.movement.diagonal``."""
    return GeometryDiagonal.parse(ruleset.movement.diagonal.value)


def effective_speed(
    ruleset: Ruleset, creature: Creature, combatant: Combatant, mode: SpeedMode
) -> SpeedReport:
    """The creature's ``mode`` speed after conditions and exhaustion."""
    base = int(getattr(creature.speeds, mode.value))
    speed = base
    reasons: list[str] = []
    effects = effects_of(ruleset, combatant)
    exhaustion = exhaustion_effects(ruleset, combatant)
    zero_by = [
        c.name
        for c in combatant.conditions
        if ruleset.condition_effects(c.name)
        & {ConditionEffect.SPEED_ZERO, ConditionEffect.CANT_MOVE}
    ]
    if zero_by:
        reasons.append(f"speed 0: {', '.join(zero_by)}")
        speed = 0
    if ExhaustionEffect.SPEED_ZERO in exhaustion:
        reasons.append(f"speed 0: exhaustion {combatant.exhaustion}")
        speed = 0
    if speed and (
        ConditionEffect.HALF_SPEED in effects or ExhaustionEffect.HALF_SPEED in exhaustion
    ):
        speed //= 2
        reasons.append("speed halved (rounded down)")
    if base == 0:
        reasons.append(f"no {mode.value} speed")
    return SpeedReport(mode, base, speed, tuple(reasons))


def movement_budget(
    state: CombatState,
    ruleset: Ruleset,
    encounter: Encounter,
    creature_id: EntityId,
    mode: SpeedMode | None = None,
) -> MovementBudget:
    """The combatant's movement this turn in ``mode`` (default: its current mode)."""
    combatant = combatant_of(state, creature_id)
    creature = creature_of(encounter, creature_id)
    mode = mode or combatant.turn.speed_mode
    report = effective_speed(ruleset, creature, combatant, mode)
    dashes = combatant.turn.dash_count
    counted = dashes if ruleset.economy.dash_stacks else min(dashes, 1)
    reasons = list(report.reasons)
    if counted:
        reasons.append(f"Dash x{counted}: +{report.speed * counted} ft")
    if dashes > counted:
        reasons.append(f"{dashes - counted} further Dash adds nothing in this ruleset")
    total = report.speed * (1 + counted)
    used = combatant.turn.movement_used
    if not ruleset.movement.switching_speeds_subtracts_moved:
        in_mode = used_in_mode(combatant.turn, mode)
        if used - in_mode > EPSILON:
            reasons.append(
                f"{used - in_mode:g} ft moved with other speeds not subtracted (switching "
                "speeds doesn't subtract in this ruleset)"
            )
        used = in_mode
    return MovementBudget(
        mode, report.speed, counted, total, used, max(0.0, total - used), tuple(reasons)
    )


def used_in_mode(turn: TurnState, mode: SpeedMode) -> float:
    """Feet moved with the ``mode`` speed this turn."""
    return sum(feet for used_mode, feet in turn.movement_used_by_mode if used_mode is mode)


def spent(turn: TurnState, mode: SpeedMode, feet: float) -> TurnState:
    """``turn`` after moving ``feet`` with the ``mode`` speed: both the total and that speed's
    own count grow."""
    by_mode = dict(turn.movement_used_by_mode)
    by_mode[mode] = by_mode.get(mode, 0.0) + feet
    return turn.model_copy(
        update={
            "movement_used": turn.movement_used + feet,
            "movement_used_by_mode": tuple(by_mode.items()),
        }
    )


@dataclass(frozen=True)
class MoveAllowance:
    """How far a creature may move right now (a token drag, a "move here"), and why.

    Attributes:
        left: feet left for legality; ``math.inf`` when the move is not limited (outside
            combat, or in combat but not its turn and no readied move).
        total: the turn's total (speed after modifiers with Dash) or the readied move's feet;
            None when not limited.
        shade_feet: feet the reachable area is shown for: what is left when limited, else the
            walking speed (so a free move still shows how far a turn would take it).
        note: why the move is not limited ("no combat: free move", "not Orc's turn"), or
            "readied move"; "" on its own turn.
    """

    left: float
    total: float | None
    shade_feet: float
    note: str = ""


def move_allowance(encounter: Encounter, ruleset: Ruleset, creature_id: EntityId) -> MoveAllowance:
    """The creature's ``MoveAllowance``: on its turn in combat, ``movement_budget``'s remaining
    movement in its current speed; off its turn, a readied move's feet if one was released
    (``reaction_move_left``), else unlimited; outside combat (or not fighting), unlimited.

    Raises:
        InvalidRequestError: no creature ``creature_id`` in ``encounter``.
    """
    creature = creature_of(encounter, creature_id)
    combat = encounter.combat
    speed = float(creature.speeds.walk)
    if combat is None or not combat.has(creature_id):
        return MoveAllowance(math.inf, None, speed, "no combat: free move")
    combatant = combat.combatant(creature_id)
    current = combat.current
    if current is None or current.creature_id != creature_id:
        if combatant.reaction_move_left > 0:
            left = combatant.reaction_move_left
            return MoveAllowance(left, left, left, "readied move")
        return MoveAllowance(math.inf, None, speed, f"not {creature.name}'s turn")
    budget = movement_budget(combat, ruleset, encounter, creature_id)
    return MoveAllowance(budget.remaining, float(budget.total), budget.remaining)


def _check_can_move(
    state: CombatState, ruleset: Ruleset, encounter: Encounter, creature_id: EntityId
) -> Combatant:
    combatant = combatant_of(state, creature_id)
    name = name_of(encounter, creature_id)
    current = state.current
    on_turn = current is not None and current.creature_id == creature_id
    require(
        on_turn or combatant.reaction_move_left > 0,
        f"it isn't {name}'s turn",
    )
    reason = denial(ruleset, combatant, EconomyPart.MOVE, name).reason
    require(reason is None, reason or "")
    return combatant


def _crawl_only(name: str) -> str:
    return f"{name} is prone: it can only crawl or stand up"


def _no_speed(name: str, budget: MovementBudget) -> str:
    return f"{name}'s {budget.mode.value} speed is 0 ({'; '.join(budget.reasons)})"


def move_refusal(
    state: CombatState,
    ruleset: Ruleset,
    encounter: Encounter,
    creature_id: EntityId,
    mode: SpeedMode,
) -> str | None:
    """Why the creature can't move at all in ``mode`` now (None: it can move some feet):
    ``spend_movement``'s checks for the smallest move.

    Raises:
        InvalidRequestError: the creature isn't in the encounter or the combat.
    """
    try:
        combatant = _check_can_move(state, ruleset, encounter, creature_id)
        name = name_of(encounter, creature_id)
        if ConditionEffect.CRAWL_ONLY in effects_of(ruleset, combatant):
            require(mode is SpeedMode.WALK, _crawl_only(name))
        current = state.current
        if current is None or current.creature_id != creature_id:
            return None  # a released readied move: _check_can_move saw feet left
        budget = movement_budget(state, ruleset, encounter, creature_id, mode)
        require(budget.speed > 0, _no_speed(name, budget))
        require(budget.remaining > EPSILON, f"{name} has no {mode.value} movement left")
    except IllegalActionError as error:
        return error.reason
    return None


def spend_movement(
    encounter: Encounter,
    ruleset: Ruleset,
    creature_id: EntityId,
    feet: float,
    *,
    mode: SpeedMode | None = None,
    distance_feet: float | None = None,
) -> Outcome[None]:
    """Spend ``feet`` of movement (the geometry's cost of the move) in ``mode``.

    While prone the creature crawls: ``crawl_extra_cost_per_foot`` x ``distance_feet``
    (default: ``feet``) is added. A readied move released as a reaction spends its own budget.
    Swimming without a swim speed is taken from the walking budget as it is: the geometry
    already charged each foot of water ``swim_extra_cost_per_foot`` extra (gms-den "Half
    speed" is that 1 extra foot per foot), so it is not charged again here. Climbing without
    a climb speed, where the ruleset allows it (gms-den), moves at ``speed_fraction`` (half)
    of the walking speed: the cost is divided by it and taken from the walking budget (the
    map has no climbing terrain to charge it). ``climb_swim_check`` rolls the Athletics check
    that goes with either.

    Raises:
        InvalidRequestError: negative or non-finite feet.
        IllegalActionError: not its turn, surprised, speed 0, or more than is left.
    """
    state = running_combat(encounter)
    if not math.isfinite(feet) or feet < 0:
        raise InvalidRequestError(f"a move can't cost {feet} ft")
    combatant = _check_can_move(state, ruleset, encounter, creature_id)
    name = name_of(encounter, creature_id)
    mode = mode or combatant.turn.speed_mode
    cost = feet
    notes = []
    if ConditionEffect.CRAWL_ONLY in effects_of(ruleset, combatant):
        require(mode is SpeedMode.WALK, _crawl_only(name))
        extra = ruleset.movement.crawl_extra_cost_per_foot * (
            feet if distance_feet is None else distance_feet
        )
        cost += extra
        notes.append(f"crawling +{extra:g} ft")
    without = ruleset.movement.climb_swim_without_speed
    creature = creature_of(encounter, creature_id)
    lacks_speed = mode in (SpeedMode.CLIMB, SpeedMode.SWIM) and not getattr(
        creature.speeds, mode.value
    )
    if lacks_speed and mode is SpeedMode.SWIM:  # water's surcharge is in ``feet`` already
        notes.append("swimming without a swim speed: water's extra cost included")
        mode = SpeedMode.WALK
    elif without is not None and lacks_speed:
        cost /= without.speed_fraction
        notes.append(f"{mode.value} without a {mode.value} speed: x{1 / without.speed_fraction:g}")
        mode = SpeedMode.WALK
    current = state.current
    if current is None or current.creature_id != creature_id:
        left = combatant.reaction_move_left
        require(cost <= left + EPSILON, f"{name} has {left:g} ft of readied move, needs {cost:g}")
        draft = Draft(encounter, ruleset)
        draft.put(combatant.model_copy(update={"reaction_move_left": left - cost}))
        draft.add("move", f"{name} moves {cost:g} ft (readied move)", creature_id)
        return draft.done(None)
    budget = movement_budget(state, ruleset, encounter, creature_id, mode)
    require(budget.speed > 0, _no_speed(name, budget))
    require(
        cost <= budget.remaining + EPSILON,
        f"{name} has {budget.remaining:g} ft of {mode.value} movement left; the move costs "
        f"{cost:g}",
    )
    draft = Draft(encounter, ruleset)
    turn = spent(combatant.turn, mode, cost).model_copy(update={"speed_mode": mode})
    draft.put(combatant.model_copy(update={"turn": turn}))
    extra_text = f" ({', '.join(notes)})" if notes else ""
    draft.add(
        "move",
        f"{name} moves {cost:g} ft by {mode.value}{extra_text}; "
        f"{budget.remaining - cost:g} ft left",
        creature_id,
    )
    return draft.done(None)


def stand_up(encounter: Encounter, ruleset: Ruleset, creature_id: EntityId) -> Outcome[None]:
    """Stand up from prone for a fraction (half) of the walking speed after modifiers.

    Raises:
        IllegalActionError: not prone, not its turn, speed 0, or not enough movement left.
    """
    state = running_combat(encounter)
    combatant = _check_can_move(state, ruleset, encounter, creature_id)
    name = name_of(encounter, creature_id)
    require(combatant.has_condition(ruleset.roles.conditions.prone), f"{name} isn't prone")
    creature = creature_of(encounter, creature_id)
    speed = effective_speed(ruleset, creature, combatant, SpeedMode.WALK).speed
    require(speed > 0, f"{name} can't stand up with speed 0")
    cost = math.floor(speed * ruleset.movement.stand_up_fraction_of_speed)
    budget = movement_budget(state, ruleset, encounter, creature_id, SpeedMode.WALK)
    require(
        cost <= budget.remaining + EPSILON,
        f"{name} needs {cost} ft to stand up and has {budget.remaining:g} ft left",
    )
    conditions = tuple(c for c in combatant.conditions if c.name != ruleset.roles.conditions.prone)
    turn = spent(combatant.turn, SpeedMode.WALK, cost)
    draft = Draft(encounter, ruleset)
    draft.put(combatant.model_copy(update={"conditions": conditions, "turn": turn}))
    draft.add("stand-up", f"{name} stands up ({cost} ft of movement)", creature_id)
    return draft.done(None)


def drop_prone(encounter: Encounter, ruleset: Ruleset, creature_id: EntityId) -> Outcome[None]:
    """Drop prone, for ``drop_prone_cost`` (0) feet, on the creature's turn."""
    state = running_combat(encounter)
    combatant = _check_can_move(state, ruleset, encounter, creature_id)
    require(
        not combatant.has_condition(ruleset.roles.conditions.prone),
        f"{name_of(encounter, creature_id)} is prone",
    )
    cost = ruleset.movement.drop_prone_cost
    if cost:
        budget = movement_budget(state, ruleset, encounter, creature_id, SpeedMode.WALK)
        require(cost <= budget.remaining + EPSILON, "not enough movement left to drop prone")
        turn = spent(combatant.turn, SpeedMode.WALK, cost)
        state = state.with_combatant(combatant.model_copy(update={"turn": turn}))
    return apply_condition(
        with_combat(encounter, state), ruleset, creature_id, ruleset.roles.conditions.prone
    )


MOUNTED_THIS_MOVE = "mount-or-dismount"
"""Marks a turn's ``actions_taken`` once the creature has mounted or dismounted in its move."""


def mount_or_dismount(
    encounter: Encounter,
    ruleset: Ruleset,
    creature_id: EntityId,
    mount_id: EntityId,
    *,
    dismounting: bool = False,
) -> Outcome[None]:
    """Mount (or, ``dismounting``, dismount) ``mount_id`` (legends-of-hyrule "Mounting and
    Dismounting", gms-den "Mounting a Steed"): spends the movement; ``mounts.control_mount``
    and ``mounts.dismount`` charge it through here.

    Costs ``cost_fraction_of_speed`` (half) of the walking speed after modifiers, rounded
    down: 15 ft with speed 30; impossible with speed 0 or less movement left. "Once during
    your move ... mount ... or dismount": one of them per turn, marked by ``MOUNTED_THIS_MOVE``
    in the turn's ``actions_taken`` (a Dash's extra feet don't buy a second one).

    Raises:
        InvalidRequestError: the ruleset has no mounted-combat rules, or the mount isn't fighting.
        IllegalActionError: not its turn, already mounted or dismounted this turn (checked
            before the movement: a Dash can't fix it), speed 0, not enough movement left.
    """
    state = running_combat(encounter)
    rules = ruleset.movement.mounting
    if rules is None:
        raise InvalidRequestError("this ruleset has no mounted combat rules")
    combatant_of(state, mount_id)
    combatant = _check_can_move(state, ruleset, encounter, creature_id)
    name = name_of(encounter, creature_id)
    mount = name_of(encounter, mount_id)
    verb = f"dismount from {mount}" if dismounting else f"mount {mount}"
    # First the reason no Dash can fix: a second mount or dismount in the same move.
    require(
        MOUNTED_THIS_MOVE not in combatant.turn.actions_taken,
        f"{name} has already mounted or dismounted this turn: once during its move",
    )
    creature = creature_of(encounter, creature_id)
    speed = effective_speed(ruleset, creature, combatant, SpeedMode.WALK).speed
    require(speed > 0, f"{name} can't {verb} with speed 0")
    cost = math.floor(speed * rules.cost_fraction_of_speed)
    budget = movement_budget(state, ruleset, encounter, creature_id, SpeedMode.WALK)
    require(
        cost <= budget.remaining + EPSILON,
        f"{name} needs {cost} ft to {verb} and has {budget.remaining:g} ft left",
    )
    turn = spent(combatant.turn, SpeedMode.WALK, cost)
    turn = turn.model_copy(update={"actions_taken": (*turn.actions_taken, MOUNTED_THIS_MOVE)})
    draft = Draft(encounter, ruleset)
    draft.put(combatant.model_copy(update={"turn": turn}))
    done = f"dismounts from {mount}" if dismounting else f"mounts {mount}"
    draft.add("mount", f"{name} {done} ({cost} ft of movement)", creature_id)
    return draft.done(None)


def climb_swim_check(
    encounter: Encounter,
    ruleset: Ruleset,
    creature_id: EntityId,
    dc: int,
) -> Outcome[None]:
    """gms-den "Climb/Swim/Crawl": a Strength (Athletics) check to climb or swim without that
    speed; a failure adds ``exhaustion_on_failure`` levels (either way at half speed).

    The Athletics bonus is the creature's own (``check_bonus_of``: its sheet's or stat
    block's Athletics, else the Strength modifier).

    Raises:
        InvalidRequestError: the ruleset has no such rule, or a DC outside 1..40.
    """
    state = running_combat(encounter)
    rules = ruleset.movement.climb_swim_without_speed
    if rules is None:
        raise InvalidRequestError("this ruleset has no climbing or swimming check")
    if not 1 <= dc <= 40:
        raise InvalidRequestError(f"DC {dc} is outside 1..40")
    combatant = combatant_of(state, creature_id)
    creature = creature_of(encounter, creature_id)
    name = name_of(encounter, creature_id)
    bonus = check_bonus_of(creature, rules.check_skill, rules.check_ability.value)
    draft = Draft(encounter, ruleset)
    record = draft.roll(
        f"1d20{signed(bonus)}", f"{name} {rules.check_skill} (DC {dc})", creature_id
    )
    if record.total >= dc:
        draft.add("check", f"{name} succeeds: half speed", creature_id)
        return draft.done(None)
    level = min(combatant.exhaustion + rules.exhaustion_on_failure, len(ruleset.exhaustion))
    draft.add("check", f"{name} fails: half speed and exhaustion {level}", creature_id)
    draft.run(lambda failed: set_exhaustion(failed, ruleset, creature_id, level))
    return draft.done(None)


@dataclass(frozen=True)
class JumpReport:
    """How far a creature can jump, in feet, and how that was worked out."""

    feet: float
    reason: str


def jump_distance(
    ruleset: Ruleset, creature: Creature, *, high: bool, run_up_feet: float
) -> JumpReport:
    """gms-den "High Jump" / "Long Jump": 3 + Str modifier high, Str score long, "if you move at
    least 10 feet on foot immediately before the jump": ``run_up_feet`` is how far the creature
    moved on foot right before; at least the ruleset's ``jumping.run_up_feet`` makes it a
    running jump, less a standing one that covers ``standing_fraction`` (half). Each foot
    costs a foot of movement. Never below 0.

    Raises:
        InvalidRequestError: the ruleset has no jumping rules, or a negative run-up.
    """
    rules = ruleset.movement.jumping
    if rules is None:
        raise InvalidRequestError("this ruleset has no jumping rules")
    if run_up_feet < 0:
        raise InvalidRequestError(f"a run-up can't be negative, got {run_up_feet:g} ft")
    stats = stats_of(creature)
    if high:
        base = float(rules.high_jump_base + stats.modifier("str"))
        what = f"{rules.high_jump_base} + Str modifier"
    else:
        base = float(stats.score("str") if rules.long_jump_uses_str_score else 0)
        what = "Strength score"
    if run_up_feet + EPSILON < rules.run_up_feet:
        base *= rules.standing_fraction
        what += (
            f", standing x{rules.standing_fraction:g} ({run_up_feet:g} ft run-up,"
            f" {rules.run_up_feet} needed)"
        )
    return JumpReport(max(0.0, base), what)
