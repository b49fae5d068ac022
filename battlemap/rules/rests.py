"""Rests: bloodied-brink's short and long rests, final-fantasy-d20's Wounded-ending rest.

bloodied-brink: to start a rest the creature needs at least 1 HP. A short rest (at most twice
a day) recovers 8 HP plus level d8; it ends a knockout's Unconscious condition. A long rest
(once a day) recovers 12 HP plus level d12, restores a reduced HP maximum, lowers exhaustion by
1 and ends temporary HP. Healing is capped at the maximum. The caller counts the rests taken
today (``rests_today``); rests aren't stored in the encounter.

A finished rest gives back the uses its kind restores (``rest_uses``: Action Surge on a short
rest; the 1/Day uses and Legendary Resistance too on a long one).

Outside a combat a rest reads and updates the creature's lasting state (``Creature.lasting``:
exhaustion, knockout, HP maximum reduction kept from its last combat), through ``Draft``.

Interruptions (the ruleset's ``interrupted_by``): ``interrupt_rest`` says what an interrupted
rest gives. bloodied-brink: "An interrupted Short Rest confers no benefits"; a Long Rest
interrupted after at least 1 hour gives the benefits of a Short Rest. A resumed Long Rest
"requires 1 additional hour per interruption": ``long_rest(interruptions=n)`` with
``hours_rested`` checks that.

A typed-in dice total must be one the dice can show (3d8: 3 to 24); anything else is refused
(``damage.check_typed_total``, the same check as typed damage).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from battlemap.model.combat import CombatState
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.model.limits import MAX_CHARACTER_LEVEL
from battlemap.rules.conditions import end_condition
from battlemap.rules.damage import check_typed_total
from battlemap.rules.death import wake
from battlemap.rules.draft import Draft
from battlemap.rules.errors import IllegalActionError, InvalidRequestError
from battlemap.rules.outcome import Outcome, running_combat
from battlemap.rules.rest_uses import RestType as RestType  # its home is rest_uses
from battlemap.rules.rest_uses import restore_uses
from battlemap.rules.schema import RestKind, Ruleset

MAX_LEVEL = MAX_CHARACTER_LEVEL
"""Highest character level a rest's dice are rolled for: the model's own limit."""


@dataclass(frozen=True)
class RestResult:
    kind: str
    rolled: int
    regained: int
    hp_before: int
    hp_after: int
    hp_max_restored: bool = False
    exhaustion_after: int | None = None
    temp_hp_lost: int = 0
    woke: bool = False
    interrupted_by: str = ""
    """What interrupted the rest ("" when it was finished)."""
    benefits: str = ""
    """Whose benefits were gained: ``short``, ``long``, or "" (none)."""


def rest_rules(ruleset: Ruleset, kind: RestType) -> RestKind:
    """The ruleset's rules for ``kind`` of rest.

    Raises:
        IllegalActionError: the ruleset has no such rest.
    """
    rules = ruleset.rests.short if kind is RestType.SHORT else ruleset.rests.long
    if rules is None:
        raise IllegalActionError(f"{ruleset.name} has no {kind.value} rest rules")
    return rules


def hours_needed(rules: RestKind, interruptions: int) -> float:
    """Hours a rest takes after ``interruptions`` resumptions (bloodied-brink long rest: 8, then
    "1 additional hour per interruption")."""
    return rules.hours + interruptions * rules.resume_extra_hours


def rest_dice(rules: RestKind, level: int) -> tuple[int, int] | None:
    """The dice a rest rolls at ``level`` as (count, sides): ``hp_dice_per_level`` times the
    level (bloodied-brink short rest at level 3: 3d8); None when it rolls no dice."""
    if not rules.hp_dice_per_level:
        return None
    per_level, sides = (int(n) for n in rules.hp_dice_per_level.split("d"))
    return level * per_level, sides


def rest_refusal(ruleset: Ruleset, kind: RestType, combat_running: bool) -> str | None:
    """Why a ``kind`` rest can't be taken now (None: it can): the ruleset has no such rest, or
    a combat is running and the rest's ``interrupted_by_combat`` says rolling initiative
    interrupts it (bloodied-brink: then it "confers no benefits", so there is nothing to
    finish)."""
    try:
        rules = rest_rules(ruleset, kind)
    except IllegalActionError as error:
        return error.reason
    if combat_running and rules.interrupted_by_combat:
        return (
            f"a combat is running, and in {ruleset.name} rolling initiative interrupts a"
            f" {kind.value} rest: end the combat first"
        )
    return None


def _rest(
    draft: Draft,
    creature_id: EntityId,
    rules: RestKind | None,
    kind: str,
    level: int,
    rests_today: int,
    typed: int | None,
) -> RestResult:
    creature = draft.require_alive(creature_id)
    if rules is None:
        raise IllegalActionError(f"{draft.ruleset.name} has no {kind} rest rules")
    if not 1 <= level <= MAX_LEVEL:
        raise InvalidRequestError(f"level must be 1 to {MAX_LEVEL}, got {level}")
    if rests_today >= rules.max_per_day:
        raise IllegalActionError(f"at most {rules.max_per_day} {kind} rest(s) a day")
    if rules.needs_at_least_1_hp and creature.hp < 1:
        raise IllegalActionError(f"{creature.name} needs at least 1 HP to start a {kind} rest")
    rolled = 0
    dice = rest_dice(rules, level)
    if dice is not None:
        count, sides = dice
        expression = f"{count}d{sides}"
        purpose = f"{creature.name}'s {kind} rest"
        if typed is not None:
            check_typed_total(typed, expression, purpose)
        record = draft.roll(expression, purpose, creature_id, typed)
        rolled = record.total
    restored = False
    if rules.restores_hp_max and draft.death(creature_id).hp_max_reduction:
        draft.put_death(creature_id, hp_max_reduction=0)
        restored = True
    maximum = draft.max_hp(creature_id)
    hp_after = min(maximum, creature.hp + rules.hp_flat + rolled)
    update: dict[str, object] = {"hp": hp_after}
    lost = 0
    if kind == "long" and draft.ruleset.hit_points.temp_hp_last_until_long_rest:
        lost = creature.temp_hp
        update["temp_hp"] = 0
    draft.put_creature(creature.model_copy(update=update))
    restore_uses(draft, creature_id, RestType(kind))  # "Special Feature ... recharges"
    woke = False
    if draft.death(creature_id).knocked_out:
        wake(draft, creature_id)
        woke = True
    exhaustion = None
    combatant = draft.combatant(creature_id)
    if combatant is not None and rules.exhaustion_reduction:
        exhaustion = max(0, combatant.exhaustion - rules.exhaustion_reduction)
        draft.put(combatant.model_copy(update={"exhaustion": exhaustion}))
    draft.add(
        "rest",
        f"{creature.name} finishes a {kind} rest: HP {creature.hp} -> {hp_after}",
        creature_id,
    )
    return RestResult(
        kind,
        rolled,
        hp_after - creature.hp,
        creature.hp,
        hp_after,
        restored,
        exhaustion,
        lost,
        woke,
        benefits=kind,
    )


def _refuse_during_combat(ruleset: Ruleset, kind: RestType, combat: CombatState | None) -> None:
    """Refuse a rest the running ``combat`` (any, even one still rolling initiative) would
    interrupt (``rest_refusal``); the same reason the rest dialog shows.

    Raises:
        IllegalActionError: no such rest here, or a combat interrupts it.
    """
    refusal = rest_refusal(ruleset, kind, combat is not None)
    if refusal is not None:
        raise IllegalActionError(refusal)


def _check_hours_not_negative(hours_rested: float) -> None:
    if hours_rested < 0:
        raise InvalidRequestError(f"hours rested can't be negative, got {hours_rested:g}")


def _check_resumed(
    rules: RestKind, kind: RestType, interruptions: int, hours_rested: float | None
) -> None:
    if interruptions < 0:
        raise InvalidRequestError(f"interruptions can't be negative, got {interruptions}")
    if hours_rested is not None:
        _check_hours_not_negative(hours_rested)
    if interruptions and not rules.resumable:
        raise IllegalActionError(f"an interrupted {kind.value} rest can't be resumed; start anew")
    needed = hours_needed(rules, interruptions)
    if hours_rested is not None and hours_rested + 1e-9 < needed:
        resumed = f" after {interruptions} interruption(s)" if interruptions else ""
        raise IllegalActionError(
            f"a {kind.value} rest{resumed} takes {needed:g} hours; only {hours_rested:g} rested"
        )


def short_rest(
    encounter: Encounter,
    ruleset: Ruleset,
    creature_id: EntityId,
    *,
    level: int,
    rests_today: int = 0,
    dice_total: int | None = None,
    hours_rested: float | None = None,
) -> Outcome[RestResult]:
    """Finish a short rest (bloodied-brink): 8 HP + ``level``d8 (``dice_total`` typed in, else
    rolled with the combat's dice). Ends a knockout's unconsciousness. ``hours_rested``, when
    given, must reach the rest's ``hours``.

    ``combat`` is None outside a combat; then the dice must be typed in (``dice_total``). A
    running combat is refused when the rest's ``interrupted_by_combat`` (bloodied-brink:
    "Rolling Initiative" interrupts a rest), so only such a ruleset's rests roll its dice.

    Raises:
        IllegalActionError: no short rests in this ruleset, a combat running that interrupts
            it, too many today, below 1 HP, too short.
        InvalidRequestError: negative ``hours_rested``; a level outside 1..``MAX_LEVEL``.
        BadDieError: a typed total the dice can't show.
    """
    combat = encounter.combat
    _refuse_during_combat(ruleset, RestType.SHORT, combat)
    draft = Draft(encounter, ruleset)
    _check_resumed(rest_rules(ruleset, RestType.SHORT), RestType.SHORT, 0, hours_rested)
    return draft.done(
        _rest(draft, creature_id, ruleset.rests.short, "short", level, rests_today, dice_total)
    )


def long_rest(
    encounter: Encounter,
    ruleset: Ruleset,
    creature_id: EntityId,
    *,
    level: int,
    rests_today: int = 0,
    dice_total: int | None = None,
    interruptions: int = 0,
    hours_rested: float | None = None,
) -> Outcome[RestResult]:
    """Finish a long rest (bloodied-brink): 12 HP + ``level``d12, HP maximum restored,
    exhaustion -1, temporary HP gone.

    ``interruptions``: how often it was interrupted and resumed (bloodied-brink: "1 additional
    hour per interruption"); ``hours_rested``, when given, must reach the hours that makes.

    ``combat`` and its dice as for ``short_rest``: a combat that interrupts the rest is
    refused.

    Raises:
        IllegalActionError: no long rests in this ruleset, a combat running that interrupts
            it, already one today, below 1 HP, not resumable, too short.
        InvalidRequestError: negative ``hours_rested`` or ``interruptions``; a level outside
            1..``MAX_LEVEL``.
        BadDieError: a typed total the dice can't show.
    """
    combat = encounter.combat
    _refuse_during_combat(ruleset, RestType.LONG, combat)
    draft = Draft(encounter, ruleset)
    rules = rest_rules(ruleset, RestType.LONG)
    _check_resumed(rules, RestType.LONG, interruptions, hours_rested)
    result = _rest(draft, creature_id, ruleset.rests.long, "long", level, rests_today, dice_total)
    if interruptions:
        draft.add(
            "rest",
            f"{draft.name(creature_id)}'s long rest was resumed after {interruptions}"
            f" interruption(s): {hours_needed(rules, interruptions):g} hours",
            creature_id,
        )
    return draft.done(result)


def interrupted_benefits(ruleset: Ruleset, kind: RestType, hours_rested: float) -> RestKind | None:
    """The rest whose benefits (and dice) a ``kind`` rest interrupted after ``hours_rested``
    hours gives: the short rest's after at least ``interrupted_short_rest_after_hours``,
    else none (bloodied-brink: an interrupted short rest "confers no benefits").

    Raises:
        IllegalActionError: no such rest in the ruleset.
    """
    threshold = rest_rules(ruleset, kind).interrupted_short_rest_after_hours
    if threshold is None or hours_rested + 1e-9 < threshold:
        return None
    return ruleset.rests.short


def interrupt_rest(
    encounter: Encounter,
    ruleset: Ruleset,
    creature_id: EntityId,
    kind: RestType,
    cause: str,
    *,
    hours_rested: float,
    level: int = 1,
    short_rests_today: int = 0,
    dice_total: int | None = None,
    interruptions: int = 0,
) -> Outcome[RestResult]:
    """A rest stopped by ``cause`` (one of the ruleset's ``interrupted_by``) after
    ``hours_rested`` hours: what it gives.

    ``hours_rested`` is at most what the rest lasts (``hours_needed``: its ``hours``, plus
    ``resume_extra_hours`` for each of the ``interruptions`` it was resumed after); a rest
    that went on longer had finished.

    bloodied-brink: an interrupted short rest "confers no benefits". A long rest interrupted
    after at least ``interrupted_short_rest_after_hours`` (1) gives "the benefits of a Short
    Rest": 8 HP + ``level``d8 (``dice_total`` typed in, else rolled), which counts as one of
    the day's short rests (``short_rests_today``); earlier, nothing. Either way the log says
    so, and a resumable rest (long) may go on: finish it with ``long_rest(interruptions=...)``.

    Raises:
        InvalidRequestError: ``cause`` doesn't interrupt this rest (the message lists what
            does), negative hours or interruptions, more hours than the rest lasts.
        IllegalActionError: no such rest here; interruptions of a rest that can't be resumed;
            the short-rest benefits refused (twice today, below 1 HP).
        BadDieError: a typed total the dice can't show.
    """
    rules = rest_rules(ruleset, kind)
    if cause not in rules.interrupted_by:
        known = "; ".join(rules.interrupted_by) or "nothing"
        raise InvalidRequestError(
            f"'{cause}' doesn't interrupt a {kind.value} rest in {ruleset.name}; what does: {known}"
        )
    _check_hours_not_negative(hours_rested)
    _check_resumed(rules, kind, interruptions, None)
    lasts = hours_needed(rules, interruptions)
    if hours_rested > lasts + 1e-9:  # it had finished: not an interruption
        resumed = f" resumed after {interruptions} interruption(s)" if interruptions else ""
        raise InvalidRequestError(
            f"a {kind.value} rest{resumed} lasts {lasts:g} hours, so it can't be interrupted"
            f" after {hours_rested:g} hours"
        )
    draft = Draft(encounter, ruleset)
    creature = draft.require_alive(creature_id)
    name = creature.name
    benefits = interrupted_benefits(ruleset, kind, hours_rested)
    if benefits is not None:
        short = _rest(draft, creature_id, benefits, "short", level, short_rests_today, dice_total)
        draft.add(
            "rest",
            f"{name}'s {kind.value} rest is interrupted ({cause}) after {hours_rested:g} h:"
            " the benefits of a short rest",
            creature_id,
        )
        return draft.done(replace(short, kind=kind.value, interrupted_by=cause, benefits="short"))
    draft.add(
        "rest",
        f"{name}'s {kind.value} rest is interrupted ({cause}) after {hours_rested:g} h:"
        " no benefits" + ("; it may be resumed" if rules.resumable else ""),
        creature_id,
    )
    hp = creature.hp
    return draft.done(RestResult(kind.value, 0, 0, hp, hp, interrupted_by=cause))


def wounded_rest(
    encounter: Encounter, ruleset: Ruleset, creature_id: EntityId, minutes: int
) -> Outcome[bool]:
    """final-fantasy-d20: Wounded ends after resting long enough at full HP (10 minutes).

    Returns whether Wounded ended.
    """
    running_combat(encounter)
    draft = Draft(encounter, ruleset)
    creature = draft.require_alive(creature_id)
    wounded = ruleset.death_saves.wounded
    ended = (
        wounded is not None
        and draft.has_condition(creature_id, wounded.condition)
        and creature.hp >= draft.max_hp(creature_id)
        and minutes >= wounded.ends_on_full_hp_and_rest_minutes
    )
    if ended and wounded is not None:
        end_condition(draft, creature_id, wounded.condition)
    return draft.done(ended)
