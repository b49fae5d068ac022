"""Rests: bloodied-brink's short and long rests, final-fantasy-d20's Wounded-ending rest.

bloodied-brink: to start a rest the creature needs at least 1 HP. A short rest (at most twice
a day) recovers 8 HP plus level d8; it ends a knockout's Unconscious condition. A long rest
(once a day) recovers 12 HP plus level d12, restores a reduced HP maximum, lowers exhaustion by
1 and ends temporary HP. Healing is capped at the maximum. The caller counts the rests taken
today (``rests_today``) and reports interruptions by not calling.
"""

from __future__ import annotations

from dataclasses import dataclass

from battlemap.model.combat import CombatState
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.death import wake
from battlemap.rules.errors import IllegalActionError, InvalidRequestError
from battlemap.rules.schema import RestKind, Ruleset
from battlemap.rules.vitals import Applied, Work


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


def _rest(
    work: Work,
    creature_id: EntityId,
    rules: RestKind | None,
    kind: str,
    level: int,
    rests_today: int,
    typed: int | None,
) -> RestResult:
    creature = work.require_alive(creature_id)
    if rules is None:
        raise IllegalActionError(f"{work.ruleset.name} has no {kind} rest rules")
    if level < 1:
        raise InvalidRequestError(f"level must be at least 1, got {level}")
    if rests_today >= rules.max_per_day:
        raise IllegalActionError(f"at most {rules.max_per_day} {kind} rest(s) a day")
    if rules.needs_at_least_1_hp and creature.hp < 1:
        raise IllegalActionError(f"{creature.name} needs at least 1 HP to start a {kind} rest")
    rolled = 0
    if rules.hp_dice_per_level:
        count, sides = rules.hp_dice_per_level.split("d")
        expression = f"{level * int(count)}d{sides}"
        record = work.roll(expression, f"{creature.name}'s {kind} rest", creature_id, typed)
        rolled = record.total
    restored = False
    if rules.restores_hp_max and work.death(creature_id).hp_max_reduction:
        work.put_death(creature_id, hp_max_reduction=0)
        restored = True
    maximum = work.max_hp(creature_id)
    hp_after = min(maximum, creature.hp + rules.hp_flat + rolled)
    update: dict[str, object] = {"hp": hp_after}
    lost = 0
    if kind == "long" and work.ruleset.hit_points.temp_hp_last_until_long_rest:
        lost = creature.temp_hp
        update["temp_hp"] = 0
    work.put_creature(creature.model_copy(update=update))
    woke = False
    if work.death(creature_id).knocked_out:
        wake(work, creature_id)
        woke = True
    exhaustion = None
    combatant = work.combatant(creature_id)
    if combatant is not None and rules.exhaustion_reduction:
        exhaustion = max(0, combatant.exhaustion - rules.exhaustion_reduction)
        work.put(work.fighting(creature_id).model_copy(update={"exhaustion": exhaustion}))
    work.add(
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
    )


def short_rest(
    encounter: Encounter,
    combat: CombatState | None,
    ruleset: Ruleset,
    creature_id: EntityId,
    *,
    level: int,
    rests_today: int = 0,
    dice_total: int | None = None,
) -> Applied[RestResult]:
    """Finish a short rest (bloodied-brink): 8 HP + ``level``d8 (``dice_total`` typed in, else
    rolled with the combat's dice). Ends a knockout's unconsciousness.

    Raises:
        IllegalActionError: no short rests in this ruleset, too many today, below 1 HP.
    """
    work = Work(encounter, combat, ruleset)
    return work.done(
        _rest(work, creature_id, ruleset.rests.short, "short", level, rests_today, dice_total)
    )


def long_rest(
    encounter: Encounter,
    combat: CombatState | None,
    ruleset: Ruleset,
    creature_id: EntityId,
    *,
    level: int,
    rests_today: int = 0,
    dice_total: int | None = None,
) -> Applied[RestResult]:
    """Finish a long rest (bloodied-brink): 12 HP + ``level``d12, HP maximum restored,
    exhaustion -1, temporary HP gone.

    Raises:
        IllegalActionError: no long rests in this ruleset, already one today, below 1 HP.
    """
    work = Work(encounter, combat, ruleset)
    return work.done(
        _rest(work, creature_id, ruleset.rests.long, "long", level, rests_today, dice_total)
    )


def wounded_rest(
    encounter: Encounter, combat: CombatState, ruleset: Ruleset, creature_id: EntityId, minutes: int
) -> Applied[bool]:
    """final-fantasy-d20: Wounded ends after resting long enough at full HP (10 minutes).

    Returns whether Wounded ended.
    """
    work = Work(encounter, combat, ruleset)
    creature = work.require_alive(creature_id)
    wounded = ruleset.death_saves.wounded
    ended = (
        wounded is not None
        and work.has_condition(creature_id, wounded.condition)
        and creature.hp >= work.max_hp(creature_id)
        and minutes >= wounded.ends_on_full_hp_and_rest_minutes
    )
    if ended and wounded is not None:
        work.uncondition(creature_id, wounded.condition)
    return work.done(ended)
