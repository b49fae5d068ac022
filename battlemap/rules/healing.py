"""Healing and temporary hit points, per ruleset.

Healing is capped at the (effective) maximum and the excess is lost; the dead can't be healed;
regaining HP at 0 ends unconsciousness and resets the death saves (where
``death_saves.reset_on_healing_or_stable``, every shipped ruleset). Temporary HP don't add up
(keep the old or take the new) except in bloodied-brink, where they stack up to half the HP
maximum; they don't wake a creature at 0 (``hit_points.temp_hp_wakes``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.conditions import effects_of, end_condition, give_condition
from battlemap.rules.death import wake
from battlemap.rules.draft import Draft
from battlemap.rules.enums import ConditionEffect, TempHpStacking
from battlemap.rules.errors import IllegalActionError
from battlemap.rules.outcome import Outcome
from battlemap.rules.schema import Ruleset
from battlemap.rules.vitals import (
    DeadTargetError,
    NegativeAmountError,
    is_bloodied,
    rounded,
)


@dataclass(frozen=True)
class HealResult:
    amount: int
    regained: int
    wasted: int
    hp_before: int
    hp_after: int
    max_hp: int
    woke: bool
    wounded_ended: bool = False
    bloodied: bool = False


def heal(
    encounter: Encounter,
    ruleset: Ruleset,
    target_id: EntityId,
    amount: int,
    *,
    healers_kit: bool = False,
) -> Outcome[HealResult]:
    """Restore ``amount`` HP, capped at the (effective) maximum; the excess is lost.

    Regaining any HP at 0 ends unconsciousness and resets death saves where the ruleset resets
    them (prone stays).
    final-fantasy-d20: healing with a healer's kit ends Wounded. Example (srd, bloodied-brink,
    final-fantasy-d20, hyrule): 8 healing at 14 of 20 -> regains 6.

    Raises:
        NegativeAmountError; AbsentTargetError; DeadTargetError (the dead can't be healed);
        IllegalActionError (Last Breath: can't be healed).
    """
    if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
        raise NegativeAmountError(f"healing must be a whole number >= 0, got {amount!r}")
    draft = Draft(encounter, ruleset)
    target = draft.creature(target_id)
    if draft.death(target_id).dead and ruleset.hit_points.dead_cannot_be_healed:
        raise DeadTargetError(f"{target.name} is dead and can't regain hit points")
    combatant = draft.combatant(target_id)
    if combatant is not None and ConditionEffect.CANT_BE_HEALED in effects_of(ruleset, combatant):
        raise IllegalActionError(
            f"{target.name} can't be healed ({', '.join(c.name for c in combatant.conditions)})"
        )
    maximum = draft.max_hp(target_id)
    room = max(0, maximum - target.hp)
    regained = min(amount, room) if ruleset.hit_points.healing_capped_at_max else amount
    hp_after = target.hp + regained
    draft.put_creature(target.model_copy(update={"hp": hp_after}))
    draft.add(
        "heal",
        f"{target.name} regains {regained} HP ({amount} healing): {target.hp} -> {hp_after}",
        target_id,
    )
    woke = False
    knocked_out = draft.death(target_id).knocked_out
    if (target.hp == 0 or knocked_out) and regained > 0:
        wake(draft, target_id)
        woke = True
    wounded_ended = False
    wounded = ruleset.death_saves.wounded
    if (
        healers_kit
        and regained > 0
        and wounded is not None
        and wounded.ends_on_healers_kit_healing
        and draft.has_condition(target_id, wounded.condition)
    ):
        end_condition(draft, target_id, wounded.condition)
        wounded_ended = True
    after = draft.creature(target_id)
    return draft.done(
        HealResult(
            amount,
            regained,
            amount - regained,
            target.hp,
            hp_after,
            maximum,
            woke,
            wounded_ended,
            is_bloodied(ruleset, after, maximum),
        )
    )


class TempChoice(StrEnum):
    """keep-higher rulesets: which temporary HP to keep (the creature's choice)."""

    HIGHER = "higher"
    OLD = "old"
    NEW = "new"


@dataclass(frozen=True)
class TempHpResult:
    granted: int
    before: int
    after: int
    rule: TempHpStacking
    cap: int | None
    reason: str
    woke: bool = False


def grant_temp_hp(
    encounter: Encounter,
    ruleset: Ruleset,
    target_id: EntityId,
    amount: int,
    *,
    choice: TempChoice = TempChoice.HIGHER,
) -> Outcome[TempHpResult]:
    """Give temporary hit points.

    keep-higher (srd, hyrule...): they don't add up; keep the old or take the new (``choice``;
    default the higher): 12 over 10 -> 12, not 22. stack-to-cap (bloodied-brink): they add up
    to at most half the HP maximum, rounded down: 12 over 10 with a maximum of 37 -> 18. Temp
    HP above the cap from elsewhere are kept, not cut. At 0 HP they wake the creature only
    where ``hit_points.temp_hp_wakes`` says so (conscious and stable, still at 0 HP).

    Raises:
        NegativeAmountError, AbsentTargetError, DeadTargetError.
    """
    if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
        raise NegativeAmountError(
            f"temporary hit points must be a whole number >= 0, got {amount!r}"
        )
    draft = Draft(encounter, ruleset)
    target = draft.require_alive(target_id)
    rules = ruleset.hit_points
    old = target.temp_hp
    cap: int | None = None
    if rules.temp_hp_stacking is TempHpStacking.STACK_TO_CAP:
        cap = rounded(rules.temp_hp_cap_fraction * draft.max_hp(target_id), ruleset.damage.rounding)
        after = max(old, min(old + amount, cap))
        reason = f"they stack up to {cap} (half the HP maximum)"
    else:
        options = {TempChoice.HIGHER: max(old, amount), TempChoice.OLD: old, TempChoice.NEW: amount}
        after = options[choice]
        reason = f"they don't add up: kept the {choice.value} ones"
    draft.put_creature(target.model_copy(update={"temp_hp": after}))
    draft.add("temp-hp", f"{target.name}: temporary HP {old} -> {after} ({reason})", target_id)
    woke = False
    if (
        after > old
        and target.hp == 0
        and draft.has_condition(target_id, draft.ruleset.roles.conditions.unconscious)
    ):
        woke = _temp_hp_at_zero(draft, target_id)
    return draft.done(TempHpResult(amount, old, after, rules.temp_hp_stacking, cap, reason, woke))


def _temp_hp_at_zero(draft: Draft, target_id: EntityId) -> bool:
    """Temporary HP gained at 0 HP: whether they woke the creature.

    hyrule "Temporary Heart Points" (srd borrows it), bloodied-brink: receiving them "doesn't
    restore you to consciousness or stabilize you" (``hit_points.temp_hp_wakes`` false). A
    ruleset where they do: conscious and stable at 0 HP, with the buffer; the death saves
    reset as on healing.
    """
    name = draft.name(target_id)
    if not draft.ruleset.hit_points.temp_hp_wakes:
        draft.add("temp-hp", f"{name} stays unconscious: temporary HP don't wake", target_id)
        return False
    wake(draft, target_id)
    draft.put_death(target_id, stable=True)
    give_condition(draft, target_id, draft.ruleset.roles.conditions.stable)
    draft.add("wakes", f"{name} regains consciousness at 0 HP (temporary HP), stable", target_id)
    return True
