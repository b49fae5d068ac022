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
hiding given away) in one new state: one undo step for the UI. Its checks and roll mode are
``attack_plan``'s, the attack's data ``attack_types``'s; both are re-exported here.
"""

from __future__ import annotations

from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.attack_plan import (
    AttackPlan,
    armor_class,
    combine_roll_mode,
    cover_save_bonus,
    names_with,
    plan_attack,
    plan_on_draft,
    roll_d20_faces,
    roll_mode,
)
from battlemap.rules.attack_types import (
    ArmorClassReport,
    AttackOptions,
    AttackProfile,
    AttackResult,
    AttackSituation,
    Delivery,
    FumbleChoice,
    RangeBand,
    RollMode,
    RollModeReport,
    TargetStrikePayment,
    unarmed_strike,
)
from battlemap.rules.conditions import give_condition
from battlemap.rules.damage import (
    DamageResult,
    RolledDamage,
    damage_into,
    roll_damage,
)
from battlemap.rules.draft import Draft
from battlemap.rules.enums import (
    ConditionEffect,
    KnockoutTiming,
)
from battlemap.rules.outcome import Outcome, running_combat
from battlemap.rules.schema import Ruleset


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
    plan = plan_on_draft(draft, attacker_id, target_id, profile, situation, options)
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


__all__ = [
    "ArmorClassReport",
    "AttackOptions",
    "AttackPlan",
    "AttackProfile",
    "AttackResult",
    "AttackSituation",
    "Delivery",
    "FumbleChoice",
    "RangeBand",
    "RollMode",
    "RollModeReport",
    "TargetStrikePayment",
    "armor_class",
    "combine_roll_mode",
    "cover_save_bonus",
    "knockout_declared_in_time",
    "make_attack",
    "names_with",
    "plan_attack",
    "reasons_beyond_the_total",
    "roll_d20_faces",
    "roll_mode",
    "unarmed_strike",
]
