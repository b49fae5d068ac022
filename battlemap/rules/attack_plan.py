"""Attack planning: the checks, the roll mode with every reason and the AC, before any die.

``plan_attack`` answers the UI (no dice, nothing changed); ``plan_on_draft`` makes the same
checks on ``make_attack``'s draft and spends the economy there. Roll mode: every source of
advantage and disadvantage is listed; any of both cancels to a normal roll however many of
each. AC: +2 half cover, +5 three-quarters (``CoverRules.bonus``); total cover can't be
targeted; gms-den called shot +2; legends-of-hyrule never below 10 + Dex modifier.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from battlemap.model.combat import Combatant
from battlemap.model.creature import Creature
from battlemap.model.encounter import Encounter
from battlemap.model.features import CoverDegree
from battlemap.model.ids import EntityId
from battlemap.rules.attack_types import (
    ArmorClassReport,
    AttackOptions,
    AttackProfile,
    AttackSituation,
    Delivery,
    RangeBand,
    RollMode,
    RollModeReport,
    TargetStrikePayment,
)
from battlemap.rules.combat_ops import stats_of
from battlemap.rules.conditions import exhaustion_effects, is_incapacitated
from battlemap.rules.damage import (
    check_knockout,
    check_type,
)
from battlemap.rules.draft import Draft
from battlemap.rules.economy import spend_attack, take_action
from battlemap.rules.enums import (
    ActionCost,
    ActionKind,
    ConditionEffect,
    ExhaustionEffect,
    TwoWeaponMode,
)
from battlemap.rules.errors import IllegalActionError, InvalidRequestError
from battlemap.rules.outcome import running_combat
from battlemap.rules.schema import Ruleset
from battlemap.rules.vitals import NotTargetableError, check_die


def names_with(ruleset: Ruleset, combatant: Combatant, effect: ConditionEffect) -> list[str]:
    """The combatant's conditions that have ``effect`` (implied conditions included)."""
    return [c.name for c in combatant.conditions if effect in ruleset.condition_effects(c.name)]


def roll_mode(
    ruleset: Ruleset,
    attacker: Combatant,
    target: Combatant,
    profile: AttackProfile,
    situation: AttackSituation,
    options: AttackOptions,
    *,
    attacker_swims: bool = False,
    helper_name: str | None = None,
) -> RollModeReport:
    """Every reason for advantage and disadvantage, and the resulting mode.

    The called shot's and target strike's own disadvantage are not included here: they
    depend on this report (see ``make_attack``).
    """
    rules = ruleset.attacks
    adv: list[str] = []
    dis: list[str] = []
    ranged = profile.delivery is Delivery.RANGED
    for name in names_with(ruleset, attacker, ConditionEffect.ATTACKS_WITH_ADVANTAGE):
        adv.append(f"attacker is {name}")
    for name in names_with(ruleset, attacker, ConditionEffect.ATTACKS_WITH_DISADVANTAGE):
        dis.append(f"attacker is {name}")
    if situation.fear_source_in_sight:
        for name in names_with(
            ruleset, attacker, ConditionEffect.DISADVANTAGE_WHILE_SOURCE_VISIBLE
        ):
            dis.append(f"attacker is {name} and sees the source")
    if ExhaustionEffect.DISADVANTAGE_ATTACKS_AND_SAVES in exhaustion_effects(ruleset, attacker):
        dis.append(f"attacker has exhaustion {attacker.exhaustion}")
    for name in names_with(ruleset, target, ConditionEffect.ATTACKED_WITH_ADVANTAGE):
        adv.append(f"target is {name}")
    for name in names_with(ruleset, target, ConditionEffect.ATTACKED_WITH_DISADVANTAGE):
        dis.append(f"target is {name}")
    if names_with(ruleset, target, ConditionEffect.ATTACKED_ADV_WITHIN_5_ELSE_DIS):
        prone = rules.prone_target
        if situation.distance_feet <= prone.melee_within_feet + 1e-9:
            if prone.attackers_within_have_advantage:
                adv.append(f"target is prone within {prone.melee_within_feet} ft")
        elif prone.farther_attackers_have_disadvantage:
            dis.append(f"target is prone farther than {prone.melee_within_feet} ft")
    if not situation.target_sees_attacker and rules.unseen_attacker_advantage:
        adv.append(_because("the target can't see the attacker", situation.unseen_attacker_why))
    if not situation.attacker_sees_target and rules.unseen_target_disadvantage:
        dis.append(_because("the attacker can't see the target", situation.unseen_target_why))
    if target.dodging and situation.target_sees_attacker and not is_incapacitated(ruleset, target):
        dis.append("target is Dodging")
    if rules.flanking.enabled and situation.flanked and not ranged:
        adv.append("flanking")
    if helper_name is not None:
        adv.append(f"Help from {helper_name}")
    if ranged and situation.range_band is RangeBand.LONG and rules.long_range_disadvantage:
        dis.append("target beyond normal range")
    if ranged and situation.hostile_within_5ft and rules.ranged_in_melee_disadvantage:
        dis.append("ranged attack with a hostile creature within 5 ft")
    squeeze = ruleset.movement.squeezing
    if squeeze is not None:
        if situation.attacker_squeezing and squeeze.attacks_with_disadvantage:
            dis.append("attacker is squeezing into a smaller space")
        if situation.target_squeezing and squeeze.attacked_with_advantage:
            adv.append("target is squeezing into a smaller space")
    underwater = _underwater_disadvantage(ruleset, profile, situation, attacker_swims)
    if underwater:
        dis.append(underwater)
    adv.extend(options.extra_advantage)
    dis.extend(options.extra_disadvantage)
    return combine_roll_mode(adv, dis)


def _because(reason: str, why: str) -> str:
    return f"{reason}: {why}" if why else reason


def combine_roll_mode(adv: Sequence[str], dis: Sequence[str]) -> RollModeReport:
    """Advantage, disadvantage or normal from every reason: any of both cancels to normal."""
    if adv and dis:
        mode = RollMode.NORMAL
    elif adv:
        mode = RollMode.ADVANTAGE
    elif dis:
        mode = RollMode.DISADVANTAGE
    else:
        mode = RollMode.NORMAL
    return RollModeReport(mode, tuple(adv), tuple(dis))


def _underwater_disadvantage(
    ruleset: Ruleset, profile: AttackProfile, situation: AttackSituation, swims: bool
) -> str | None:
    rules = ruleset.underwater
    if rules is None or not situation.underwater or profile.spell:
        return None
    if profile.delivery is Delivery.MELEE:
        exempt = (
            swims
            or profile.weapon in rules.melee_exempt_weapons
            or (rules.melee_exempt_aquatic_property and profile.aquatic)
        )
        if rules.melee_disadvantage_unless_swim_speed and not exempt:
            return "underwater melee attack without a swimming speed or suitable weapon"
        return None
    exempt = (
        profile.weapon in rules.ranged_disadvantage_exempt_weapons
        or (rules.ranged_exempt_thrown and profile.thrown)
        or (rules.ranged_exempt_aquatic_property and profile.aquatic)
    )
    return None if exempt else "underwater ranged attack"


def armor_class(
    ruleset: Ruleset, target: Creature, situation: AttackSituation, options: AttackOptions
) -> ArmorClassReport:
    """The AC to beat, with every part: cover, called shot, adjustments, Hyrule's floor.

    Raises:
        NotTargetableError: total cover.
    """
    value = target.ac
    parts = [f"AC {target.ac}"]
    bonus = ruleset.attacks.cover.bonus(situation.cover)
    if bonus is None:
        raise NotTargetableError(f"{target.name} has total cover and can't be targeted")
    if situation.cover is not CoverDegree.NONE:
        value += bonus
        parts.append(f"{situation.cover.value} cover +{bonus}")
    if options.called_shot is not None and ruleset.attacks.called_shot is not None:
        value += ruleset.attacks.called_shot.ac_bonus
        parts.append(f"called shot +{ruleset.attacks.called_shot.ac_bonus}")
    if options.ac_adjustment:
        value += options.ac_adjustment
        parts.append(f"effects {options.ac_adjustment:+d}")
    if ruleset.attacks.ac_floor.value == "10+dex":
        floor = 10 + stats_of(target).modifier("dex")
        if value < floor:
            parts.append(f"raised to the floor 10 + Dex modifier = {floor}")
            value = floor
    return ArmorClassReport(target.ac, value, tuple(parts))


def cover_save_bonus(ruleset: Ruleset, degree: CoverDegree) -> int:
    """The cover bonus to a Dexterity saving throw (+2 half, +5 three-quarters), per ruleset."""
    cover = ruleset.attacks.cover
    if not cover.applies_to_dex_saves:
        return 0
    return cover.bonus(degree) or 0


def _check_reach(target: Creature, profile: AttackProfile, situation: AttackSituation) -> None:
    if profile.delivery is Delivery.MELEE:
        if situation.distance_feet > profile.reach_feet + 1e-9:
            raise NotTargetableError(
                f"{target.name} is {situation.distance_feet:g} ft away, beyond the"
                f" {profile.reach_feet} ft reach of {profile.name}"
            )
    elif situation.range_band in (RangeBand.OUT_OF_RANGE,):
        raise NotTargetableError(f"{target.name} is beyond the long range of {profile.name}")


def _spend(
    draft: Draft, attacker_id: EntityId, target_id: EntityId, action_id: str | None, attack: str
) -> str:
    if action_id is None or not draft.in_combat:
        return "nothing"
    action = draft.ruleset.actions.get(action_id)
    if action is None:
        known = ", ".join(sorted(draft.ruleset.actions))
        raise InvalidRequestError(f"'{action_id}' is not an action of this ruleset; known: {known}")
    ruleset = draft.ruleset
    combatant = draft.fighting(attacker_id)
    if action.kind is ActionKind.ATTACK and action.cost is ActionCost.ACTION:
        if combatant.turn.attacks_left == 0:
            draft.run(
                lambda s: take_action(s, ruleset, attacker_id, action_id, target_id=target_id)
            )
        draft.run(lambda s: spend_attack(s, ruleset, attacker_id, attack))
        return "one attack"
    draft.run(lambda s: take_action(s, ruleset, attacker_id, action_id, target_id=target_id))
    return action.cost.value


def roll_d20_faces(
    draft: Draft, mode: RollMode, typed: tuple[int, ...] | None, purpose: str, cid: EntityId
) -> tuple[tuple[int, ...], int, str]:
    """A d20 test in ``mode``: the faces (typed in, or the kept one when rolled), the natural
    and the roll detail. ``purpose`` names the roll ("Ann's attack roll").

    Raises:
        InvalidRequestError: the wrong number of typed faces; BadDieError: a bad face.
    """
    expression = mode.expression
    if typed is not None:
        if len(typed) not in (1, mode.d20_count):
            raise InvalidRequestError(
                f"type one d20 (or two with advantage/disadvantage), got {len(typed)}"
            )
        faces = tuple(check_die(f, 20, f"{purpose} d20") for f in typed)
        natural = max(faces) if mode is RollMode.ADVANTAGE else min(faces)
        draft.roll(
            expression if len(faces) == 2 else "1d20",
            f"{purpose} ({mode.value})",
            cid,
            natural,
            faces,
        )
        return faces, natural, _last_detail(draft)
    record = draft.roll(expression, f"{purpose} ({mode.value})", cid)
    faces = tuple(face for sides, face in record.kept if sides == 20) or (record.total,)
    natural = record.natural if record.natural is not None else record.total
    return faces, natural, record.detail


def _last_detail(draft: Draft) -> str:
    """The detail of the roll just recorded."""
    return draft.rolls[-1].detail if draft.in_combat and draft.rolls else ""


@dataclass(frozen=True)
class AttackPlan:
    """An attack before its d20 (``plan_attack``): every check passed, the roll mode with its
    reasons and the AC with its parts. Nothing is rolled."""

    roll_mode: RollModeReport
    armor_class: ArmorClassReport
    notes: tuple[str, ...]
    """What the situation and the economy add (cover, a Help used up, a hidden attacker seen)."""
    spent: str
    auto_miss: str | None = None
    stamina: int = 0
    maximise: bool = False


def plan_attack(
    encounter: Encounter,
    ruleset: Ruleset,
    attacker_id: EntityId,
    target_id: EntityId,
    profile: AttackProfile,
    situation: AttackSituation = AttackSituation(),
    options: AttackOptions = AttackOptions(),
) -> AttackPlan:
    """What ``make_attack`` would roll against, or its refusal: the same checks, no dice (the
    UI shows the roll mode and the AC before the roll from this).

    Raises:
        The errors ``make_attack`` raises before its d20 (see there).
    """
    running_combat(encounter)
    return plan_on_draft(
        Draft(encounter, ruleset), attacker_id, target_id, profile, situation, options
    )


def _check_damage_types(ruleset: Ruleset, profile: AttackProfile, options: AttackOptions) -> None:
    """Refuses, before any die, damage the ruleset has no type for (a hit couldn't deal it).

    Raises:
        UnknownDamageTypeError: names the attack, the type and the ruleset's types.
    """
    extra = (options.offhand_dice,) if options.offhand_dice is not None else ()
    for part in (*profile.damage, *extra):
        check_type(ruleset, part.type, f"{profile.name} damage")


def plan_on_draft(
    draft: Draft,
    attacker_id: EntityId,
    target_id: EntityId,
    profile: AttackProfile,
    situation: AttackSituation,
    options: AttackOptions,
) -> AttackPlan:
    """The checks and the economy of an attack, made on ``draft``."""
    ruleset = draft.ruleset
    attacker = draft.require_alive(attacker_id)
    target = draft.require_alive(target_id)
    attacker_c = draft.fighting(attacker_id)
    target_c = draft.fighting(target_id)
    if attacker_id == target_id:
        raise InvalidRequestError(f"{attacker.name} can't attack itself")
    if is_incapacitated(ruleset, attacker_c):
        names = ", ".join(c.name for c in attacker_c.conditions)
        raise IllegalActionError(f"{attacker.name} is incapacitated ({names}) and can't attack")
    charmers = [
        c.name
        for c in attacker_c.conditions
        if c.source_id == target_id
        and ConditionEffect.CANT_ATTACK_SOURCE in ruleset.condition_effects(c.name)
    ]
    if charmers:
        raise IllegalActionError(
            f"{attacker.name} is {charmers[0]} by {target.name} and can't attack it"
        )
    _check_reach(target, profile, situation)
    _check_damage_types(ruleset, profile, options)
    ac = armor_class(ruleset, target, situation, options)
    if options.knockout:
        check_knockout(ruleset, True, profile.delivery is Delivery.MELEE)
    _check_offhand(ruleset, profile, options)
    helper = (
        next((c for c in draft.combat.combatants if c.helping == attacker_id), None)
        if draft.in_combat
        else None
    )
    helper_name = draft.name(helper.creature_id) if helper is not None else None
    report = roll_mode(
        ruleset,
        attacker_c,
        target_c,
        profile,
        situation,
        options,
        attacker_swims=attacker.speeds.swim > 0,
        helper_name=helper_name,
    )
    notes: list[str] = list(situation.reasons)
    auto_miss: str | None = None
    stamina = 0
    maximise = False
    if options.called_shot is not None:
        rules = ruleset.attacks.called_shot
        if rules is None:
            raise IllegalActionError(f"{ruleset.name} has no called shots")
        if rules.auto_fail_if_already_disadvantaged and report.mode is RollMode.DISADVANTAGE:
            auto_miss = "a called shot at disadvantage fails automatically"
        if rules.disadvantage:
            report = combine_roll_mode(
                report.advantages, (*report.disadvantages, f"called shot ({options.called_shot})")
            )
    if options.target_strike is not None:
        stamina, maximise, report = _target_strike(ruleset, profile, report, options)
    action_id = options.action_id
    roles = ruleset.roles.actions
    if options.offhand and action_id == roles.attack:
        action_id = roles.offhand_attack  # the bonus-action attack, after the Attack action
    spent = _spend(draft, attacker_id, target_id, action_id, profile.name)
    if helper is not None:
        draft.put(draft.fighting(helper.creature_id).model_copy(update={"helping": None}))
        notes.append(f"Help from {helper_name} is used up")
    if attacker_c.hidden_stealth is not None:
        draft.put(draft.fighting(attacker_id).model_copy(update={"hidden_stealth": None}))
        notes.append(f"{attacker.name} gives away its location")
    return AttackPlan(report, ac, tuple(notes), spent, auto_miss, stamina, maximise)


def _check_offhand(ruleset: Ruleset, profile: AttackProfile, options: AttackOptions) -> None:
    rules = ruleset.attacks.two_weapon
    if options.offhand:
        if rules.mode is not TwoWeaponMode.BONUS_ATTACK:
            raise IllegalActionError(
                f"{ruleset.name}: two-weapon fighting adds the off-hand dice instead"
            )
        # A listed off-hand weapon (gms-den) is light by definition; thrown ones may be thrown.
        if not (profile.light or profile.weapon in rules.light_weapons):
            raise IllegalActionError(f"{profile.name} is not a light weapon")
        if rules.light_weapons and profile.weapon not in rules.light_weapons:
            listed = ", ".join(rules.light_weapons)
            raise IllegalActionError(f"{profile.name} is not a listed off-hand weapon ({listed})")
    if options.offhand_dice is not None:
        if rules.mode is not TwoWeaponMode.ADD_OFFHAND_DICE:
            raise IllegalActionError(
                f"{ruleset.name}: the off-hand weapon makes its own bonus attack"
            )
        if profile.delivery is not Delivery.MELEE or not profile.light:
            raise IllegalActionError(
                "off-hand dice are added only to a melee hit with a light weapon"
            )


def _target_strike(
    ruleset: Ruleset, profile: AttackProfile, report: RollModeReport, options: AttackOptions
) -> tuple[int, bool, RollModeReport]:
    rules = ruleset.attacks.target_strike
    if rules is None:
        raise IllegalActionError(f"{ruleset.name} has no target strike")
    if profile.spell:
        raise IllegalActionError("a target strike is made with a weapon or an unarmed strike")
    if rules.not_if_already_disadvantaged and report.mode is RollMode.DISADVANTAGE:
        raise IllegalActionError("no target strike: the attack roll already has disadvantage")
    if options.attack_penalty <= -rules.not_with_penalty_at_least:
        raise IllegalActionError(
            f"no target strike with a -{rules.not_with_penalty_at_least} penalty"
        )
    if options.target_strike is TargetStrikePayment.STAMINA:
        if options.stamina_available < rules.stamina_cost:
            raise IllegalActionError(
                f"a target strike costs {rules.stamina_cost} stamina points;"
                f" {options.stamina_available} left"
            )
        return rules.stamina_cost, rules.maximise_damage_dice, report
    if not rules.or_disadvantage:
        raise IllegalActionError("a target strike must be paid with stamina here")
    report = combine_roll_mode(report.advantages, (*report.disadvantages, "target strike"))
    return 0, rules.maximise_damage_dice, report
