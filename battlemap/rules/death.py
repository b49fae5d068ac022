"""Dropping to 0 hit points, dying, death saving throws, the Brink of Death, stabilising.

Per ruleset (see the rules-sources README):

- Dropping to 0: a creature that ``dies_at_zero`` (monsters, unless the DM flips
  ``DeathState.unconscious_at_zero``) dies; others fall Unconscious (and prone). Instant death
  when the damage left over after reaching 0 is >= ``instant_death_fraction_of_max`` x the HP
  maximum, rounded as ``instant_death_rounding`` says (srd: the maximum, 12 for a cleric with
  12; bloodied-brink: half rounded up, 9 for a maximum of 17).
- final-fantasy-d20's Wounded: dropping to 0 unstable starts with that many failures; becoming
  stable adds 1 Wounded.
- Damage at 0: one failure (two on a critical hit); damage >= the kill threshold
  (srd: maximum; bloodied-brink: half, rounded up) kills. A stable creature stops being stable.
- Death saves: srd d20 >= 10 succeeds (10 succeeds), natural 1 = two failures, natural 20 =
  1 HP, 3 successes stable, 3 failures dead. bloodied-brink: d20 <= 10 fails (10 fails),
  successes aren't counted, natural 1 = Brink at once, natural 20 = stable, 2 failures = Brink.
- Brink of Death (bloodied-brink): Adrenaline, Sentence (DC 13 Wis: four outcomes), Last
  Breath (one final turn, then death: ``end_last_breath``).
- Knocking out with a melee attack: srd 0 HP, unconscious and stable; bloodied-brink 1 HP and
  Unconscious until a short rest ends; gms-den must be declared before the attack roll.
- Short and long rests (bloodied-brink) live in ``battlemap.rules.rests``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from battlemap.model.combat import Combatant
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.character_checks import check_bonus_of, level_of, save_bonus_of
from battlemap.rules.concentration_core import end_concentration
from battlemap.rules.conditions import end_condition, give_condition, release_grapples
from battlemap.rules.draft import Draft
from battlemap.rules.economy import take_action
from battlemap.rules.enums import (
    BrinkOption,
    DeathSaveNatural,
    FailuresReached,
    KnockoutResult,
    SentenceOutcome,
    StabilizeMethod,
)
from battlemap.rules.errors import IllegalActionError, InvalidRequestError
from battlemap.rules.outcome import Outcome, running_combat
from battlemap.rules.schema import Ruleset
from battlemap.rules.vitals import NegativeAmountError, dies_at_zero, rounded

# --- primitives used by the damage pipeline ------------------------------------------------


def kill_threshold(ruleset: Ruleset, maximum: int, fraction: float) -> int:
    """Damage that kills: ``fraction`` x ``maximum`` rounded per ruleset, at least 1."""
    return max(1, rounded(fraction * maximum, ruleset.hit_points.instant_death_rounding))


@dataclass(frozen=True)
class ZeroOutcome:
    """What reaching or taking damage at 0 did."""

    died: bool = False
    reason: str = ""
    unconscious: bool = False
    knocked_out: bool = False
    failures_added: int = 0
    brink: bool = False


def die(draft: Draft, creature_id: EntityId, reason: str, revival: str = "") -> None:
    """Mark the creature dead (no more death saves, no Brink, no Last Breath)."""
    draft.put_death(
        creature_id,
        dead=True,
        stable=False,
        brink=False,
        last_breath=False,
        successes=0,
        failures=0,
        revival=revival,
    )
    draft.add("death", f"{draft.name(creature_id)} dies ({reason})", creature_id)
    release_grapples(draft, creature_id, f"{draft.name(creature_id)} died")
    end_concentration(draft, creature_id, "died")


def _save_counts_reset(draft: Draft) -> dict[str, object]:
    """srd "Death Saving Throws": "The number of both is reset to zero when you regain any hit
    points or become stable" (``death_saves.reset_on_healing_or_stable``); a ruleset without
    the reset keeps the counts until they run out."""
    return (
        {"successes": 0, "failures": 0}
        if draft.ruleset.death_saves.reset_on_healing_or_stable
        else {}
    )


def wake(draft: Draft, creature_id: EntityId) -> None:
    """After regaining HP from 0: conscious, death saves reset (where the ruleset resets them),
    no longer stable or on the Brink.

    Prone stays: the creature has to stand up.
    """
    death = draft.death(creature_id)
    if draft.has_condition(creature_id, draft.ruleset.roles.conditions.unconscious):
        end_condition(draft, creature_id, draft.ruleset.roles.conditions.unconscious)
    end_condition(draft, creature_id, draft.ruleset.roles.conditions.stable)
    if death.successes or death.failures or death.stable or death.brink or death.knocked_out:
        draft.put_death(
            creature_id, stable=False, brink=False, knocked_out=False, **_save_counts_reset(draft)
        )


def become_stable(draft: Draft, creature_id: EntityId, why: str) -> None:
    """Stable at 0 HP: no death saves (counts reset where the ruleset says so);
    final-fantasy-d20 adds 1 Wounded."""
    draft.put_death(creature_id, stable=True, brink=False, **_save_counts_reset(draft))
    give_condition(draft, creature_id, draft.ruleset.roles.conditions.stable)
    draft.add("stable", f"{draft.name(creature_id)} is stable ({why})", creature_id)
    wounded = draft.ruleset.death_saves.wounded
    if wounded is not None:
        value = (
            draft.condition_value(creature_id, wounded.condition) + wounded.gained_on_stabilising
        )
        give_condition(draft, creature_id, wounded.condition, value=value)


def _fail(draft: Draft, creature_id: EntityId, count: int, why: str) -> ZeroOutcome:
    """Add death-save failures; the last one kills or puts the creature on the Brink."""
    rules = draft.ruleset.death_saves
    death = draft.death(creature_id)
    failures = death.failures + count
    draft.put_death(creature_id, failures=min(failures, rules.failures_limit), stable=False)
    end_condition(draft, creature_id, draft.ruleset.roles.conditions.stable)
    draft.add(
        "death-save",
        f"{draft.name(creature_id)}: {count} death-save failure{'s' if count > 1 else ''} ({why}),"
        f" {min(failures, rules.failures_limit)} of {rules.failures_limit}",
        creature_id,
    )
    if failures < rules.failures_limit:
        return ZeroOutcome(failures_added=count)
    if rules.on_failures_reached is FailuresReached.BRINK_OF_DEATH:
        enter_brink(draft, creature_id, f"{rules.failures_limit} failures")
        return ZeroOutcome(failures_added=count, brink=True)
    die(draft, creature_id, f"{rules.failures_limit} death-save failures")
    return ZeroOutcome(died=True, reason="death-save failures", failures_added=count)


def enter_brink(draft: Draft, creature_id: EntityId, why: str) -> None:
    draft.put_death(creature_id, brink=True)
    options = draft.ruleset.death_saves.brink_of_death
    choices = ", ".join(o.value for o in options.options) if options else ""
    draft.add(
        "brink-of-death",
        f"{draft.name(creature_id)} is on the Brink of Death ({why}): choose {choices}",
        creature_id,
    )


def drop_to_zero(
    draft: Draft,
    creature_id: EntityId,
    leftover: int,
    *,
    knockout: bool,
    attacker_id: EntityId | None,
) -> ZeroOutcome:
    """The creature has just been reduced to 0 HP with ``leftover`` damage remaining.

    ``knockout`` (already checked against the ruleset by the caller) spares it: srd leaves it
    at 0, unconscious and stable; bloodied-brink at 1 HP and unconscious.
    """
    ruleset = draft.ruleset
    creature = draft.creature(creature_id)
    combatant = draft.combatant(creature_id)
    name = creature.name
    if knockout:
        return knock_out(draft, creature_id)
    maximum = draft.max_hp(creature_id)
    threshold = kill_threshold(ruleset, maximum, ruleset.hit_points.instant_death_fraction_of_max)
    if leftover >= threshold:
        die(draft, creature_id, f"instant death: {leftover} damage left over >= {threshold}")
        return ZeroOutcome(died=True, reason=f"instant death ({leftover} >= {threshold})")
    if dies_at_zero(ruleset, creature, combatant):
        die(draft, creature_id, "a monster dies at 0 hit points")
        return ZeroOutcome(died=True, reason="monster at 0 hit points")
    give_condition(draft, creature_id, draft.ruleset.roles.conditions.unconscious)
    draft.add("unconscious", f"{name} drops to 0 hit points and falls unconscious", creature_id)
    draft.put_death(
        creature_id, stable=False, brink=False, knocked_out=False, **_save_counts_reset(draft)
    )
    wounded = ruleset.death_saves.wounded
    if wounded is not None and wounded.starting_failures_equal_wounded:
        value = draft.condition_value(creature_id, wounded.condition)
        if value > 0:
            outcome = _fail(draft, creature_id, value, f"Wounded {value}")
            return ZeroOutcome(
                died=outcome.died,
                reason=outcome.reason,
                unconscious=True,
                failures_added=value,
                brink=outcome.brink,
            )
    return ZeroOutcome(unconscious=True)


def knock_out(draft: Draft, creature_id: EntityId) -> ZeroOutcome:
    """Knocked out instead of killed, as the ruleset's ``knockout.result`` says."""
    result = draft.ruleset.knockout.result
    name = draft.name(creature_id)
    give_condition(draft, creature_id, draft.ruleset.roles.conditions.unconscious)
    if result is KnockoutResult.ONE_HP_UNCONSCIOUS_SHORT_REST:
        creature = draft.creature(creature_id)
        draft.put_creature(creature.model_copy(update={"hp": 1}))
        draft.put_death(creature_id, knocked_out=True, failures=0, successes=0, stable=False)
        draft.add(
            "knocked-out",
            f"{name} is knocked out: 1 HP, unconscious until a short rest ends",
            creature_id,
        )
    else:
        draft.put_death(creature_id, knocked_out=True)
        become_stable(draft, creature_id, "knocked out")
        draft.add(
            "knocked-out", f"{name} is knocked out: 0 HP, unconscious and stable", creature_id
        )
    return ZeroOutcome(unconscious=True, knocked_out=True)


def damage_at_zero(
    draft: Draft, creature_id: EntityId, hp_damage: int, *, critical: bool
) -> ZeroOutcome:
    """Damage (after temporary HP) taken while already at 0 HP."""
    rules = draft.ruleset.death_saves
    maximum = draft.max_hp(creature_id)
    threshold = kill_threshold(draft.ruleset, maximum, rules.damage_at_zero_kill_fraction_of_max)
    if hp_damage >= threshold:
        die(draft, creature_id, f"{hp_damage} damage at 0 HP >= {threshold}")
        return ZeroOutcome(died=True, reason=f"damage at 0 HP ({hp_damage} >= {threshold})")
    if draft.death(creature_id).brink:
        return ZeroOutcome(brink=True)
    count = rules.critical_damage_at_zero_failures if critical else rules.damage_at_zero_failures
    if draft.combatant(creature_id) is not None and not draft.has_condition(
        creature_id, draft.ruleset.roles.conditions.unconscious
    ):
        # Conscious at 0 HP (temporary HP woke it, hit_points.temp_hp_wakes): it drops again.
        give_condition(draft, creature_id, draft.ruleset.roles.conditions.unconscious)
        draft.add("unconscious", f"{draft.name(creature_id)} falls unconscious", creature_id)
    if draft.death(creature_id).stable:
        draft.add(
            "stable-ends",
            f"{draft.name(creature_id)} is no longer stable (took damage)",
            creature_id,
        )
    return _fail(
        draft, creature_id, count, "critical hit at 0 HP" if critical else "damage at 0 HP"
    )


# --- death saving throws --------------------------------------------------------------------


@dataclass(frozen=True)
class DeathSaveResult:
    """One death saving throw: the die, the total, what it counted as and where it leaves us."""

    natural: int
    total: int
    success: bool
    effect: str
    """``success``, ``failure``, ``two-failures``, ``regain-1-hp``, ``stable``, ``brink``."""
    successes: int
    failures: int
    stable: bool
    dead: bool
    brink: bool
    regained_hp: bool


def _needs_save(draft: Draft, creature_id: EntityId) -> None:
    creature = draft.require_alive(creature_id)
    combatant = draft.fighting(creature_id) if draft.in_combat else draft.standing_in(creature_id)
    death = combatant.death
    if creature.hp > 0:
        raise IllegalActionError(f"{creature.name} has {creature.hp} HP: no death saving throw")
    if death.stable:
        raise IllegalActionError(f"{creature.name} is stable: no death saving throw")
    if death.brink:
        raise IllegalActionError(f"{creature.name} is on the Brink of Death: choose an option")
    if death.last_breath:
        raise IllegalActionError(f"{creature.name} has the Last Breath condition")


def death_save(
    encounter: Encounter,
    ruleset: Ruleset,
    creature_id: EntityId,
    *,
    d20: int | None = None,
    bonus: int = 0,
) -> Outcome[DeathSaveResult]:
    """Make the death saving throw due at the start of the creature's turn; outside a combat,
    the one the DM calls for (a dying character with no fight running, whose turns the
    table still counts): read from and kept in its lasting state (``Creature.lasting``),
    exactly as in a combat.

    ``d20`` is a face typed in from a physical die (else the combat's dice roll; outside a
    combat there are none, so it must be typed, or rolled by the UI from fresh dice).
    ``bonus`` comes from spells and features (the natural 1 and 20 ignore it).

    Raises:
        AbsentTargetError, DeadTargetError; IllegalActionError when no save is due (HP above
        0, stable, on the Brink of Death); InvalidRequestError: outside a combat with no d20.
    """
    draft = Draft(encounter, ruleset)
    _needs_save(draft, creature_id)
    rules = ruleset.death_saves
    name = draft.name(creature_id)
    natural = draft.d20(f"{name}'s death saving throw", creature_id, d20)
    total = natural + bonus
    effect, regained = "", False
    special = {1: rules.natural_1, 20: rules.natural_20}.get(natural, DeathSaveNatural.NORMAL)
    if special is DeathSaveNatural.TWO_FAILURES:
        effect = "two-failures"
        _fail(draft, creature_id, 2, "natural 1")
    elif special is DeathSaveNatural.BRINK:
        effect = "brink"
        draft.put_death(creature_id, failures=rules.failures_limit)
        enter_brink(draft, creature_id, "natural 1")
    elif special is DeathSaveNatural.REGAIN_1_HP:
        effect, regained = "regain-1-hp", True
        creature = draft.creature(creature_id)
        draft.put_creature(creature.model_copy(update={"hp": 1}))
        wake(draft, creature_id)
        draft.add("death-save", f"{name} rolls a natural 20 and regains 1 hit point", creature_id)
    elif special is DeathSaveNatural.STABLE:
        effect = "stable"
        become_stable(draft, creature_id, "natural 20")
    else:
        succeeded = total >= rules.dc if rules.success_on_equal else total > rules.dc
        if succeeded:
            effect = "success"
            _succeed(draft, creature_id, total)
        else:
            effect = "failure"
            _fail(draft, creature_id, 1, f"rolled {total}")
    death = draft.death(creature_id)
    result = DeathSaveResult(
        natural=natural,
        total=total,
        success=effect in ("success", "regain-1-hp", "stable"),
        effect=effect,
        successes=death.successes,
        failures=death.failures,
        stable=death.stable,
        dead=death.dead,
        brink=death.brink,
        regained_hp=regained,
    )
    return draft.done(result)


def _succeed(draft: Draft, creature_id: EntityId, total: int) -> None:
    rules = draft.ruleset.death_saves
    name = draft.name(creature_id)
    if not rules.count_successes:
        draft.add("death-save", f"{name}'s death saving throw succeeds ({total})", creature_id)
        return
    successes = draft.death(creature_id).successes + 1
    draft.put_death(creature_id, successes=successes)
    draft.add(
        "death-save",
        f"{name}'s death saving throw succeeds ({total}):"
        f" {successes} of {rules.successes_to_stabilise}",
        creature_id,
    )
    if successes >= rules.successes_to_stabilise:
        become_stable(draft, creature_id, f"{successes} successes")


# --- the Brink of Death ---------------------------------------------------------------------


@dataclass(frozen=True)
class BrinkResult:
    """The choice made on the Brink of Death and its outcome."""

    option: BrinkOption
    points_spent: int = 0
    natural: int | None = None
    total: int | None = None
    sentence: SentenceOutcome | None = None
    hp: int = 0
    temp_hp: int = 0
    stable: bool = False
    dead: bool = False
    last_breath: bool = False
    allies_empowered: bool = False
    note: str = ""


def brink_choice(
    encounter: Encounter,
    ruleset: Ruleset,
    creature_id: EntityId,
    option: BrinkOption,
    *,
    level: int | None = None,
    empowering_points: int = 0,
    wis_save_bonus: int | None = None,
    d20: int | None = None,
) -> Outcome[BrinkResult]:
    """Resolve the choice of a creature on the Brink of Death (bloodied-brink).

    - Adrenaline: spend ceil(level x 0.5) Empowering Points (``empowering_points`` is what the
      creature has; the result says how many to cross off): 1 HP, conscious, temporary HP =
      3 x level (never fewer than it has).
    ``level`` None takes the creature's (``level_of``; 1 when none is recorded) and
    ``wis_save_bonus`` None its own save (``saves.save_bonus_of``: a level-5 character
    proficient in Wisdom saves with Wis 12 has +4).

    - Sentence: DC 13 Wisdom save (``d20`` typed in or rolled, plus ``wis_save_bonus``):
      natural 1 dies (only True Resurrection or Wish); below 13 dies, allies empowered; 13+
      stable with the maximum temporary HP (half the HP maximum, rounded down); natural 20 1 HP
      and that maximum.
    - Last Breath: the Last Breath condition, stands up; the creature takes one final full turn
      with an extra action, then ``end_last_breath`` kills it.

    Raises:
        IllegalActionError: the ruleset has no Brink, the creature isn't on it, the option isn't
            offered, or too few Empowering Points for Adrenaline.
        InvalidRequestError: a level below 1.
    """
    running_combat(encounter)
    rules = ruleset.death_saves.brink_of_death
    draft = Draft(encounter, ruleset)
    creature = draft.require_alive(creature_id)
    if rules is None:
        raise IllegalActionError(f"{ruleset.name} has no Brink of Death")
    if not draft.fighting(creature_id).death.brink:
        raise IllegalActionError(f"{creature.name} is not on the Brink of Death")
    if option not in rules.options:
        raise IllegalActionError(f"'{option.value}' is not a Brink of Death option here")
    if level is None:
        level = level_of(creature) or 1
    if level < 1:
        raise InvalidRequestError(f"level must be at least 1, got {level}")
    if wis_save_bonus is None:
        wis_save_bonus = save_bonus_of(creature, creature.statblock, rules.sentence.ability)
    name = creature.name
    maximum = draft.max_hp(creature_id)
    max_temp = rounded(ruleset.hit_points.temp_hp_cap_fraction * maximum, ruleset.damage.rounding)
    draft.put_death(creature_id, brink=False, failures=0, successes=0)
    if option is BrinkOption.ADRENALINE:
        cost = math.ceil(level * rules.adrenaline_points_fraction_of_level - 1e-9)
        if empowering_points < cost:
            raise IllegalActionError(
                f"Adrenaline needs {cost} Empowering Points; {name} has {empowering_points}"
            )
        temp = max(creature.temp_hp, rules.adrenaline_temp_hp_per_level * level)
        draft.put_creature(creature.model_copy(update={"hp": 1, "temp_hp": temp}))
        wake(draft, creature_id)
        draft.add(
            "brink", f"{name} cheats death with Adrenaline: 1 HP, {temp} temporary HP", creature_id
        )
        return draft.done(BrinkResult(option, points_spent=cost, hp=1, temp_hp=temp))
    if option is BrinkOption.SENTENCE:
        return draft.done(_sentence(draft, creature_id, max_temp, wis_save_bonus, d20))
    draft.put_death(creature_id, last_breath=True)
    give_condition(draft, creature_id, rules.last_breath_condition)
    end_condition(draft, creature_id, draft.ruleset.roles.conditions.prone)
    draft.add(
        "last-breath",
        f"{name} embraces death with Last Breath: a final full turn and an extra action now,"
        " then death",
        creature_id,
    )
    return draft.done(BrinkResult(option, last_breath=True, note="final turn, then death"))


def _sentence(
    draft: Draft, creature_id: EntityId, max_temp: int, bonus: int, typed: int | None
) -> BrinkResult:
    rules = draft.ruleset.death_saves.brink_of_death
    assert rules is not None
    sentence = rules.sentence
    name = draft.name(creature_id)
    natural = draft.d20(
        f"{name}'s Sentence ({sentence.ability.value} save DC {sentence.dc})", creature_id, typed
    )
    total = natural + bonus
    if natural == 1:
        outcome = sentence.natural_1
    elif natural == 20:
        outcome = sentence.natural_20
    elif total >= sentence.dc:
        outcome = sentence.success
    else:
        outcome = sentence.failure
    creature = draft.creature(creature_id)
    base = BrinkResult(BrinkOption.SENTENCE, natural=natural, total=total, sentence=outcome)
    if outcome is SentenceOutcome.DIES_TRUE_RESURRECTION_ONLY:
        die(draft, creature_id, "Sentence: critical failure", "true-resurrection-or-wish-only")
        return _with(base, dead=True, note="only True Resurrection or Wish can revive")
    if outcome is SentenceOutcome.DIES_ALLIES_EMPOWERED:
        die(draft, creature_id, f"Sentence failed ({total} < {sentence.dc})")
        return _with(
            base,
            dead=True,
            allies_empowered=True,
            note="each ally regains 1 Empowering Point or advantage on its next d20 test",
        )
    temp = max(creature.temp_hp, max_temp)
    if outcome is SentenceOutcome.STABLE_MAX_TEMP_HP:
        draft.put_creature(creature.model_copy(update={"temp_hp": temp}))
        become_stable(draft, creature_id, f"Sentence succeeded ({total})")
        return _with(base, stable=True, temp_hp=temp)
    draft.put_creature(creature.model_copy(update={"hp": 1, "temp_hp": temp}))
    wake(draft, creature_id)
    draft.add("brink", f"{name}'s Sentence: natural 20, 1 HP and {temp} temporary HP", creature_id)
    return _with(base, hp=1, temp_hp=temp)


def _with(result: BrinkResult, **update: object) -> BrinkResult:
    return replace(result, **update)  # type: ignore[arg-type]


def end_last_breath(encounter: Encounter, ruleset: Ruleset, creature_id: EntityId) -> Outcome[bool]:
    """At the end of its Last Breath turn the creature dies; nothing can resurrect it.

    Raises:
        IllegalActionError: it doesn't have Last Breath.
    """
    running_combat(encounter)
    draft = Draft(encounter, ruleset)
    creature = draft.require_alive(creature_id)
    if not draft.fighting(creature_id).death.last_breath:
        raise IllegalActionError(f"{creature.name} doesn't have the Last Breath condition")
    rules = ruleset.death_saves.brink_of_death
    if rules is not None:
        end_condition(draft, creature_id, rules.last_breath_condition)
    end_condition(draft, creature_id, draft.ruleset.roles.conditions.unconscious)
    die(draft, creature_id, "Last Breath: farewell", "never")
    return draft.done(True)


# --- stabilising ----------------------------------------------------------------------------


@dataclass(frozen=True)
class StabilizeResult:
    method: StabilizeMethod
    success: bool
    natural: int | None
    total: int | None
    dc: int


def stabilize(
    encounter: Encounter,
    ruleset: Ruleset,
    healer_id: EntityId,
    target_id: EntityId,
    *,
    method: StabilizeMethod = StabilizeMethod.MEDICINE_CHECK,
    check_bonus: int | None = None,
    d20: int | None = None,
    spend_action: bool = True,
) -> Outcome[StabilizeResult]:
    """First aid to a dying creature: a Medicine check against the DC, or (gms-den) a healer's
    kit with no check. ``spend_action`` takes the ruleset's ``stabilizing.uses`` action
    (srd: the Stabilize action; bloodied-brink: Help) for the healer. On a knocked-out
    bloodied-brink entity (1 HP, unconscious) success ends the Unconscious condition.
    ``check_bonus`` None takes the healer's own bonus (``check_bonus_of``: its Medicine).

    Outside a combat (first aid after the fight) no action is spent and the check's d20 is
    typed in; the stable state is kept on the creature (``Creature.lasting``).

    Raises:
        IllegalActionError: the method isn't allowed here, the target isn't dying, or the
            healer can't take the action now (turn engine reasons).
        InvalidRequestError: outside a combat, a Medicine check with no d20 typed in.
    """
    rules = ruleset.stabilizing
    draft = Draft(encounter, ruleset)
    target = draft.require_alive(target_id)
    _taking_part(draft, healer_id)
    death = _taking_part(draft, target_id).death
    if method not in rules.methods:
        allowed = ", ".join(m.value for m in rules.methods)
        raise IllegalActionError(f"{method.value} can't stabilise here; allowed: {allowed}")
    # bloodied-brink: first aid also wakes a knocked-out entity (1 HP, unconscious).
    waking = death.knocked_out and target.hp > 0
    if not waking and (target.hp > 0 or death.stable or death.brink or death.last_breath):
        raise IllegalActionError(f"{target.name} is not dying (HP {target.hp})")
    if spend_action:
        use = rules.uses
        draft.run(lambda st: take_action(st, ruleset, healer_id, use, target_id=target_id))
    natural = total = None
    success = True
    if method is StabilizeMethod.MEDICINE_CHECK:
        natural = draft.d20(
            f"{draft.name(healer_id)}'s {rules.skill} ({rules.ability.value}) check DC {rules.dc}",
            healer_id,
            d20,
        )
        if check_bonus is None:
            healer = draft.creature(healer_id)
            check_bonus = check_bonus_of(healer, rules.skill, rules.ability.value)
        total = natural + check_bonus
        success = total >= rules.dc
    if success and waking:
        wake(draft, target_id)
        draft.add("wakes", f"{draft.name(healer_id)}'s first aid wakes {target.name}", target_id)
    elif success:
        become_stable(draft, target_id, f"first aid by {draft.name(healer_id)}")
    else:
        draft.add(
            "stabilize", f"{draft.name(healer_id)} fails to stabilise {target.name}", target_id
        )
    return draft.done(StabilizeResult(method, success, natural, total, rules.dc))


def _taking_part(draft: Draft, creature_id: EntityId) -> Combatant:
    """The creature's combatant in a running combat (it must be in it); outside a combat its
    lasting state as one."""
    if draft.in_combat:
        return draft.fighting(creature_id)
    draft.creature(creature_id)  # AbsentTargetError for an unknown id
    combatant = draft.combatant(creature_id)
    assert combatant is not None  # outside a combat every creature has one
    return combatant


def recover_stable(encounter: Encounter, ruleset: Ruleset, creature_id: EntityId) -> Outcome[int]:
    """A stable creature that wasn't healed regains 1 HP (after 1d4 hours, or Hyrule: a short
    rest); the DM triggers this when the time has passed.

    In a combat or outside one (the hours pass after the fight).

    Raises:
        IllegalActionError: not stable.
    """
    draft = Draft(encounter, ruleset)
    creature = draft.require_alive(creature_id)
    if creature.hp > 0 or not _taking_part(draft, creature_id).death.stable:
        raise IllegalActionError(f"{creature.name} is not stable at 0 HP")
    draft.put_creature(creature.model_copy(update={"hp": 1}))
    wake(draft, creature_id)
    draft.add(
        "recover",
        f"{creature.name} regains 1 hit point"
        f" ({ruleset.stabilizing.stable_regains_1_hp.description})",
        creature_id,
    )
    return draft.done(1)


def set_unconscious_at_zero(
    encounter: Encounter,
    ruleset: Ruleset,
    creature_id: EntityId,
    unconscious: bool | None,
) -> Outcome[bool | None]:
    """The DM's switch: this monster falls unconscious at 0 (True), dies (False), or follows
    the ruleset (None)."""
    running_combat(encounter)
    draft = Draft(encounter, ruleset)
    draft.fighting(creature_id)
    draft.put_death(creature_id, unconscious_at_zero=unconscious)
    return draft.done(unconscious)


def reduce_hp_max(
    encounter: Encounter, ruleset: Ruleset, creature_id: EntityId, amount: int
) -> Outcome[int]:
    """Lower the HP maximum by ``amount`` (life drain); current HP is capped at the new maximum.
    bloodied-brink: a maximum of 0 kills. A long rest there restores the maximum.

    Returns the new maximum.

    Raises:
        NegativeAmountError, AbsentTargetError, DeadTargetError.
    """
    running_combat(encounter)
    if amount < 0:
        raise NegativeAmountError(f"HP maximum reduction must be >= 0, got {amount}")
    draft = Draft(encounter, ruleset)
    creature = draft.require_alive(creature_id)
    reduction = draft.fighting(creature_id).death.hp_max_reduction + amount
    draft.put_death(creature_id, hp_max_reduction=min(reduction, creature.max_hp))
    maximum = draft.max_hp(creature_id)
    if creature.hp > maximum:
        draft.put_creature(creature.model_copy(update={"hp": maximum}))
    draft.add("hp-max", f"{creature.name}'s HP maximum drops by {amount} to {maximum}", creature_id)
    if maximum == 0 and ruleset.hit_points.zero_hp_max_kills:
        die(draft, creature_id, "HP maximum 0")
    return draft.done(maximum)


__all__ = [
    "BrinkResult",
    "DeathSaveResult",
    "StabilizeResult",
    "ZeroOutcome",
    "brink_choice",
    "death_save",
    "end_last_breath",
    "recover_stable",
    "reduce_hp_max",
    "set_unconscious_at_zero",
    "stabilize",
]
