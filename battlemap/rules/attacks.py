"""Attack resolution per ruleset: roll mode with every reason, hit against AC, damage on a hit.

The geometry answers where things stand (distance, range band, cover, flanking, who sees
whom); it is passed in as an ``AttackSituation`` so this module needs no geometry. The
weapon or stat-block attack is an ``AttackProfile``; declarations (called shot, target strike,
knock out, typed-in dice) are ``AttackOptions``.

Roll mode: every source of advantage and disadvantage is listed; any of both cancels to a
normal roll however many of each. Hit: natural 20 hits and crits, natural 1 misses (gms-den:
then the fumble table), else d20 + to-hit >= AC (+2 half cover, +5 three-quarters; total
cover can't be targeted; gms-den called shot +2; legends-of-hyrule never below 10 + Dex
modifier). A hit on a paralyzed or unconscious target from within 5 ft is a critical hit.

``make_attack`` spends the economy, rolls, applies the damage (and any prone, Help used,
hiding given away) in one new state: one undo step for the UI.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from battlemap.model.combat import Combatant
from battlemap.model.creature import Creature
from battlemap.model.encounter import Encounter
from battlemap.model.features import CoverDegree
from battlemap.model.ids import EntityId
from battlemap.model.statblock import Attack, AttackKind
from battlemap.rules.combat_ops import stats_of
from battlemap.rules.conditions import exhaustion_effects, give_condition, is_incapacitated
from battlemap.rules.damage import (
    DamageResult,
    DamageRoll,
    Defenses,
    RolledDamage,
    check_knockout,
    check_type,
    damage_into,
    roll_damage,
)
from battlemap.rules.draft import Draft
from battlemap.rules.economy import spend_attack, take_action
from battlemap.rules.enums import (
    ActionCost,
    ActionKind,
    ConditionEffect,
    ExhaustionEffect,
    KnockoutTiming,
    TwoWeaponMode,
)
from battlemap.rules.errors import IllegalActionError, InvalidRequestError
from battlemap.rules.outcome import Outcome, running_combat
from battlemap.rules.schema import Ruleset
from battlemap.rules.vitals import NotTargetableError, check_die


class RollMode(StrEnum):
    NORMAL = "normal"
    ADVANTAGE = "advantage"
    DISADVANTAGE = "disadvantage"


class RangeBand(StrEnum):
    """Where the target is for this attack (the geometry's answer)."""

    REACH = "reach"
    """Melee: within the attacker's reach."""
    NORMAL = "normal"
    LONG = "long"
    OUT_OF_RANGE = "out-of-range"


class Delivery(StrEnum):
    MELEE = "melee"
    RANGED = "ranged"


@dataclass(frozen=True)
class AttackSituation:
    """The geometry's answers for one attacker and target, as plain values.

    ``hostile_within_5ft`` counts only hostile creatures that can see the attacker and aren't
    incapacitated (SRD "Ranged Attacks in Close Combat").
    """

    distance_feet: float = 5.0
    range_band: RangeBand = RangeBand.REACH
    cover: CoverDegree = CoverDegree.NONE
    flanked: bool = False
    attacker_sees_target: bool = True
    target_sees_attacker: bool = True
    hostile_within_5ft: bool = False
    underwater: bool = False
    attacker_squeezing: bool = False
    target_squeezing: bool = False
    fear_source_in_sight: bool = True
    reasons: tuple[str, ...] = ()
    """The geometry's own explanations (what gave cover, who flanks), shown as they are."""


@dataclass(frozen=True)
class AttackProfile:
    """One attack: to-hit, delivery, damage parts and the weapon's properties.

    ``ability_modifier`` is added to the first damage part (left out of an off-hand attack,
    unless negative where the ruleset says so). ``weapon`` is a lower-case name (dagger,
    crossbow) for the rules that list weapons.
    """

    name: str
    to_hit: int
    delivery: Delivery = Delivery.MELEE
    damage: tuple[DamageRoll, ...] = ()
    ability_modifier: int = 0
    reach_feet: int = 5
    range_normal: int | None = None
    range_long: int | None = None
    weapon: str = ""
    light: bool = False
    thrown: bool = False
    aquatic: bool = False
    spell: bool = False

    @classmethod
    def from_statblock(
        cls, attack: Attack, *, ranged: bool | None = None, choice: int | None = None
    ) -> AttackProfile:
        """A stat-block attack. ``ranged`` picks the mode of a melee-or-ranged (thrown) attack;
        ``choice`` picks among alternative damage rolls (versatile)."""
        is_ranged = attack.kind is AttackKind.RANGED or (
            attack.kind is AttackKind.MELEE_OR_RANGED and bool(ranged)
        )
        choices = sorted({d.choice for d in attack.damage if d.choice is not None})
        wanted = choice if choice is not None else (choices[0] if choices else None)
        parts = tuple(
            DamageRoll(d.dice, d.type.lower())
            for d in attack.damage
            if d.choice is None or d.choice == wanted
        )
        return cls(
            name=attack.name,
            to_hit=attack.to_hit,
            delivery=Delivery.RANGED if is_ranged else Delivery.MELEE,
            damage=parts,
            reach_feet=attack.reach or 5,
            range_normal=attack.range_normal,
            range_long=attack.range_long,
            weapon=attack.name.lower().replace(" ", "-"),
            thrown=attack.kind is AttackKind.MELEE_OR_RANGED,
            spell=attack.spell,
        )


def unarmed_strike(ruleset: Ruleset, attacker: Creature, to_hit: int) -> AttackProfile:
    """The ruleset's unarmed strike: 1 + Strength modifier bludgeoning (gms-den: at least 1).

    The damage is a flat amount (no dice), so a critical hit doesn't change it.
    """
    rules = ruleset.attacks.unarmed_strike
    amount = max(rules.minimum_damage, 1 + stats_of(attacker).modifier("str"))
    damage_type = "bludgeoning" if "bludgeoning" in ruleset.damage.types else "blunt"
    return AttackProfile(
        "Unarmed Strike", to_hit, damage=(DamageRoll(str(amount), damage_type),), reach_feet=5
    )


class TargetStrikePayment(StrEnum):
    STAMINA = "stamina"
    DISADVANTAGE = "disadvantage"


class FumbleChoice(StrEnum):
    """gms-den fumble 2-10: the attacker falls prone or hits itself (the DM resolves that)."""

    PRONE = "prone"
    HIT_SELF = "hit-self"


@dataclass(frozen=True)
class AttackOptions:
    """Declarations and typed-in dice for one attack.

    ``d20`` are the faces typed in from physical dice (two for advantage or disadvantage, or
    just the kept one); ``damage_rolls`` the totals of each damage part as rolled at the table
    (critical dice included). None: the app rolls.
    """

    action_id: str | None = "attack"
    """Economy to spend: an action id of the ruleset (attack, opportunity-attack...), or None."""
    called_shot: str | None = None
    """gms-den: the declared location."""
    target_strike: TargetStrikePayment | None = None
    stamina_available: int = 0
    attack_penalty: int = 0
    """Penalties (-) or bonuses to the roll besides ``to_hit``; -5 forbids a target strike."""
    ac_adjustment: int = 0
    """Effects that lower (or raise) the target's AC."""
    knockout: bool = False
    offhand: bool = False
    """srd/gms-den two-weapon fighting: this is the bonus-action off-hand attack."""
    offhand_dice: DamageRoll | None = None
    """legends-of-hyrule: the off-hand light weapon whose dice a melee hit adds."""
    extra_advantage: tuple[str, ...] = ()
    extra_disadvantage: tuple[str, ...] = ()
    d20: tuple[int, ...] | None = None
    damage_rolls: tuple[int, ...] | None = None
    fumble_d20: int | None = None
    fumble_choice: FumbleChoice | None = None
    massive_d20: int | None = None
    defenses: Defenses = field(default_factory=Defenses)
    target_immersed: bool = False
    apply_damage: bool = True


@dataclass(frozen=True)
class RollModeReport:
    mode: RollMode
    advantages: tuple[str, ...]
    disadvantages: tuple[str, ...]

    @property
    def cancelled(self) -> bool:
        return bool(self.advantages) and bool(self.disadvantages)


@dataclass(frozen=True)
class ArmorClassReport:
    base: int
    value: int
    parts: tuple[str, ...]


@dataclass(frozen=True)
class AttackResult:
    """The whole attack: who, the roll mode and why, the dice, the AC and why, the outcome."""

    attacker_id: EntityId
    target_id: EntityId
    profile: AttackProfile
    roll_mode: RollModeReport
    d20_faces: tuple[int, ...]
    """Typed-in faces, or the kept face when the app rolled (``roll_detail`` shows all)."""
    roll_detail: str
    natural: int
    to_hit: int
    total: int
    armor_class: ArmorClassReport
    hit: bool
    critical: bool
    reasons: tuple[str, ...]
    """Why it hit, missed or crit (natural 20, total vs AC, auto-crit within 5 ft...)."""
    fumble: str | None = None
    called_shot_effect: bool = False
    stamina_spent: int = 0
    damage_rolled: RolledDamage | None = None
    damage: DamageResult | None = None
    spent: str = ""
    notes: tuple[str, ...] = field(default=())


# --- roll mode -----------------------------------------------------------------------------


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
        adv.append("the target can't see the attacker")
    if not situation.attacker_sees_target and rules.unseen_target_disadvantage:
        dis.append("the attacker can't see the target")
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


# --- armour class ---------------------------------------------------------------------------


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


# --- the attack ------------------------------------------------------------------------------


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
    expression = {
        RollMode.NORMAL: "1d20",
        RollMode.ADVANTAGE: "2d20kh1",
        RollMode.DISADVANTAGE: "2d20kl1",
    }[mode]
    if typed is not None:
        if len(typed) not in (1, 2) or (len(typed) == 2 and mode is RollMode.NORMAL):
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
    return _plan(Draft(encounter, ruleset), attacker_id, target_id, profile, situation, options)


def _check_damage_types(ruleset: Ruleset, profile: AttackProfile, options: AttackOptions) -> None:
    """Refuses, before any die, damage the ruleset has no type for (a hit couldn't deal it).

    Raises:
        UnknownDamageTypeError: names the attack, the type and the ruleset's types.
    """
    extra = (options.offhand_dice,) if options.offhand_dice is not None else ()
    for part in (*profile.damage, *extra):
        check_type(ruleset, part.type, f"{profile.name} damage")


def _plan(
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


def make_attack(
    encounter: Encounter,
    ruleset: Ruleset,
    attacker_id: EntityId,
    target_id: EntityId,
    profile: AttackProfile,
    situation: AttackSituation = AttackSituation(),
    options: AttackOptions = AttackOptions(),
) -> Outcome[AttackResult]:
    """Resolve one attack and, on a hit, its damage: one new state.

    Spends ``options.action_id`` (the Attack action's next attack, a reaction for
    ``opportunity-attack``, the bonus action for ``offhand-attack``...), uses up a Help given to
    the attacker, gives away a hidden attacker, knocks a gms-den fumbler prone when
    ``fumble_choice`` says so.

    Choices made after seeing the roll (srd's knock-out "the instant the damage is dealt", the
    fumble's prone-or-hit-self): the call is pure and the dice are seeded from ``combat``, so
    call it once to preview, then again with the choice: the same dice come up.

    Raises:
        AbsentTargetError / DeadTargetError: attacker or target.
        NotTargetableError: total cover, out of reach or range.
        IllegalActionError: the economy is spent, a target strike while at disadvantage or with
            a -5 penalty, no called shot or target strike in this ruleset, knockout not allowed,
            an off-hand attack the ruleset forbids.
        InvalidRequestError, BadDieError: typed-in dice that can't be.
    """
    running_combat(encounter)
    draft = Draft(encounter, ruleset)
    plan = _plan(draft, attacker_id, target_id, profile, situation, options)
    attacker, target = draft.creature(attacker_id), draft.creature(target_id)
    target_c = draft.fighting(target_id)
    report, ac, auto_miss = plan.roll_mode, plan.armor_class, plan.auto_miss
    notes, stamina, maximise, spent = list(plan.notes), plan.stamina, plan.maximise, plan.spent
    reasons: list[str] = []
    faces, natural, detail = roll_d20_faces(
        draft, report.mode, options.d20, f"{attacker.name}'s attack roll", attacker_id
    )
    to_hit = profile.to_hit + options.attack_penalty
    total = natural + to_hit
    hit, critical, fumble = _outcome(
        draft, ruleset, natural, total, ac, reasons, options, attacker_id
    )
    if (
        ruleset.underwater is not None
        and situation.underwater
        and profile.delivery is Delivery.RANGED
        and situation.range_band is RangeBand.LONG
        and ruleset.underwater.ranged_misses_beyond_normal_range
    ):
        auto_miss = "underwater: a ranged attack misses beyond normal range"
    if auto_miss is not None:
        hit, critical = False, False
        reasons.append(auto_miss)
    if hit and not critical and fumble is None and situation.distance_feet <= 5 + 1e-9:
        crits = names_with(ruleset, target_c, ConditionEffect.CRIT_WITHIN_5FT)
        if crits:
            critical = True
            reasons.append(f"a hit on a {crits[0]} target within 5 ft is a critical hit")
    draft.add(
        "attack",
        f"{attacker.name} attacks {target.name} with {profile.name}: {natural}{to_hit:+d} = {total}"
        f" vs AC {ac.value}: {'critical hit' if critical else 'hit' if hit else 'miss'}",
        attacker_id,
    )
    rolled: RolledDamage | None = None
    damage: DamageResult | None = None
    if hit and profile.damage:
        rolled = _roll_hit_damage(draft, ruleset, profile, options, critical, maximise, attacker_id)
        if options.apply_damage:
            damage = damage_into(
                draft,
                target_id,
                rolled.instances,
                defenses=options.defenses,
                critical=critical,
                melee=profile.delivery is Delivery.MELEE,
                from_attack=True,
                knockout=options.knockout,
                attacker_id=attacker_id,
                immersed=options.target_immersed,
                massive_d20=options.massive_d20,
            )
    result = AttackResult(
        attacker_id=attacker_id,
        target_id=target_id,
        profile=profile,
        roll_mode=report,
        d20_faces=faces,
        roll_detail=detail,
        natural=natural,
        to_hit=to_hit,
        total=total,
        armor_class=ac,
        hit=hit,
        critical=critical,
        reasons=tuple(reasons),
        fumble=fumble,
        called_shot_effect=hit and options.called_shot is not None,
        stamina_spent=stamina,
        damage_rolled=rolled,
        damage=damage,
        spent=spent,
        notes=tuple(notes),
    )
    return draft.done(result)


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


def _outcome(
    draft: Draft,
    ruleset: Ruleset,
    natural: int,
    total: int,
    ac: ArmorClassReport,
    reasons: list[str],
    options: AttackOptions,
    attacker_id: EntityId,
) -> tuple[bool, bool, str | None]:
    rules = ruleset.attacks
    if natural == 20 and rules.natural_20_hits_and_crits:
        reasons.append("natural 20: hits and is a critical hit")
        return True, True, None
    if natural == 1 and rules.natural_1_misses:
        reasons.append("natural 1: misses")
        if rules.fumble_table is None:
            return False, False, None
        name = draft.name(attacker_id)
        face, row = draft.table_roll(
            rules.fumble_table, f"{name}'s fumble roll", attacker_id, options.fumble_d20
        )
        reasons.append(f"fumble {face}: {row.description}")
        if row.result == "hit":
            return True, False, row.result
        if row.result == "prone-or-hit-self" and options.fumble_choice is FumbleChoice.PRONE:
            give_condition(draft, attacker_id, draft.ruleset.roles.conditions.prone)
        return False, False, row.result
    if total >= ac.value:
        reasons.append(f"{total} >= AC {ac.value}: hits")
        return True, False, None
    reasons.append(f"{total} < AC {ac.value}: misses")
    return False, False, None


def _roll_hit_damage(
    draft: Draft,
    ruleset: Ruleset,
    profile: AttackProfile,
    options: AttackOptions,
    critical: bool,
    maximise: bool,
    attacker_id: EntityId,
) -> RolledDamage:
    parts = list(profile.damage)
    modifier = profile.ability_modifier
    if options.offhand and not (
        modifier < 0 and ruleset.attacks.two_weapon.offhand_adds_negative_modifier
    ):
        modifier = 0
    if options.offhand_dice is not None:
        parts.append(options.offhand_dice)
    return roll_damage(
        draft,
        parts,
        critical=critical,
        maximise=maximise,
        typed=options.damage_rolls,
        purpose=f"{profile.name} damage",
        creature_id=attacker_id,
        flat_bonus_first=modifier,
    )


def knockout_declared_in_time(ruleset: Ruleset) -> bool:
    """gms-den: knocking out must be declared before the attack roll (``AttackOptions``)."""
    return ruleset.knockout.timing is KnockoutTiming.DECLARED_BEFORE_ATTACK


def reasons_beyond_the_total(result: AttackResult) -> tuple[str, ...]:
    """The result's reasons less the plain comparison of the total with the AC ("13 < AC 15:
    misses"), which a verdict showing the total and the AC already says (under a MISS it read
    as a stray line); natural 20s and 1s, fumbles and automatic misses stay."""
    plain = (f"{result.total} >= AC ", f"{result.total} < AC ")
    return tuple(r for r in result.reasons if not r.startswith(plain))
