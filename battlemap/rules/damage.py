"""The damage pipeline, healing and temporary hit points, per ruleset.

Order of one damage instance (each typed part of a hit is its own instance):

1. the rolled amount (critical: dice twice, or gms-den's maximum plus a roll; a target strike
   maximises the dice; an area effect rolls once for every target);
2. half on a successful save, rounded as ``damage.save_half_rounding`` (down);
3. adjustments (bonuses and reductions that apply to the type; legends-of-hyrule: only the
   largest reduction), never below 0;
4. then the ruleset's ``damage.order`` of resistance (x0.5, rounded down), vulnerability (x2,
   final-fantasy-d20 x1.5 rounded down) and immunity (0). Several instances of resistance or
   vulnerability count once (every shipped ruleset), or multiply when ``damage.instances_stack``.

Examples from the documents: 25 bludgeoning, aura -5, resistance -> 10 (srd); 28 fire, aura -5,
resistance to all, vulnerability to fire -> 23 -> 11 -> 22 (bloodied-brink).

The total then hits temporary HP first, the rest hits HP (never below 0), and
``battlemap.rules.death`` handles reaching 0 and damage at 0.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from battlemap.model.combat import Expiry
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.concentration_core import call_for_save
from battlemap.rules.conditions import effects_of, give_condition
from battlemap.rules.death import ZeroOutcome, damage_at_zero, drop_to_zero
from battlemap.rules.dice import total_range
from battlemap.rules.draft import Draft
from battlemap.rules.enums import (
    ConditionEffect,
    CriticalDamage,
    DamageStep,
    ImmersionEffect,
)
from battlemap.rules.errors import IllegalActionError, InvalidRequestError
from battlemap.rules.outcome import Outcome
from battlemap.rules.schema import DamageRules, Ruleset
from battlemap.rules.vitals import (
    BadDieError,
    NegativeAmountError,
    UnknownDamageTypeError,
    is_bloodied,
    rounded,
)

ALL = "all"
"""In ``Defenses`` and ``Adjustment.types``: every damage type."""

MAX_DAMAGE = 1_000_000


# --- inputs -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class DamageInstance:
    """An amount of one damage type, already rolled."""

    amount: int
    type: str


@dataclass(frozen=True)
class Adjustment:
    """A bonus (+) or reduction (-) to damage of ``types`` (empty: all types)."""

    amount: int
    types: tuple[str, ...] = ()
    source: str = ""

    def applies_to(self, damage_type: str) -> bool:
        return not self.types or damage_type in self.types or ALL in self.types


@dataclass(frozen=True)
class Defenses:
    """What the target resists, is vulnerable or immune to, and the adjustments on it.

    Types may repeat (two sources of fire resistance): instances don't stack. ``"all"`` stands
    for every type. The creature's conditions (petrified: resistance to all) and immersion
    (final-fantasy-d20: resistance to fire) are added by ``apply_damage``.
    """

    resistances: tuple[str, ...] = ()
    vulnerabilities: tuple[str, ...] = ()
    immunities: tuple[str, ...] = ()
    adjustments: tuple[Adjustment, ...] = ()

    def merged(self, other: Defenses) -> Defenses:
        return Defenses(
            self.resistances + other.resistances,
            self.vulnerabilities + other.vulnerabilities,
            self.immunities + other.immunities,
            self.adjustments + other.adjustments,
        )


@dataclass(frozen=True)
class DamageRoll:
    """A damage part of an attack or effect: dice (``2d6+3``, ``1d4``, ``5``) and a type."""

    dice: str
    type: str


# --- results ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One step of the pipeline: what it was, the amount before and after, and why."""

    step: str
    before: int
    after: int
    reason: str


@dataclass(frozen=True)
class InstanceResult:
    type: str
    rolled: int
    final: int
    steps: tuple[Step, ...]


@dataclass(frozen=True)
class MassiveDamageResult:
    """gms-den's massive-damage roll: the die and the table row."""

    natural: int
    result: str
    description: str


@dataclass(frozen=True)
class DamageResult:
    """Everything a hit did to a target, every step listed."""

    target_id: EntityId
    instances: tuple[InstanceResult, ...]
    total: int
    temp_hp_before: int
    temp_hp_absorbed: int
    temp_hp_after: int
    hp_before: int
    hp_lost: int
    hp_after: int
    max_hp: int
    critical: bool = False
    dropped_to_zero: bool = False
    zero: ZeroOutcome = field(default_factory=ZeroOutcome)
    massive: MassiveDamageResult | None = None
    bloodied: bool = False

    @property
    def died(self) -> bool:
        return self.zero.died


@dataclass(frozen=True)
class RolledDamage:
    """Damage rolled once (an area effect reuses it for every target)."""

    instances: tuple[DamageInstance, ...]
    expressions: tuple[str, ...]
    details: tuple[str, ...]


# --- validation -----------------------------------------------------------------------------


def check_type(ruleset: Ruleset, damage_type: str, where: str = "damage type") -> None:
    """Raises ``UnknownDamageTypeError`` unless the ruleset has ``damage_type`` (or ``all``)."""
    if damage_type != ALL and damage_type not in ruleset.damage.types:
        known = ", ".join(sorted(ruleset.damage.types))
        raise UnknownDamageTypeError(
            f"{where}: '{damage_type}' is not a damage type of {ruleset.name}; known: {known}"
        )


def _check_inputs(
    ruleset: Ruleset, instances: Sequence[DamageInstance], defenses: Defenses
) -> None:
    for instance in instances:
        check_type(ruleset, instance.type)
        if isinstance(instance.amount, bool) or not isinstance(instance.amount, int):
            raise InvalidRequestError(f"damage must be a whole number, got {instance.amount!r}")
        if instance.amount < 0:
            raise NegativeAmountError(
                f"damage can't be negative: {instance.amount} {instance.type}"
            )
        if instance.amount > MAX_DAMAGE:
            raise InvalidRequestError(f"damage {instance.amount} is more than {MAX_DAMAGE}")
    for name, types in (
        ("resistance", defenses.resistances),
        ("vulnerability", defenses.vulnerabilities),
        ("immunity", defenses.immunities),
    ):
        for damage_type in types:
            check_type(ruleset, damage_type, name)
    for adjustment in defenses.adjustments:
        for damage_type in adjustment.types:
            check_type(ruleset, damage_type, f"adjustment {adjustment.source or adjustment.amount}")


def defenses_from_text(
    ruleset: Ruleset,
    resistances: Sequence[str] = (),
    immunities: Sequence[str] = (),
    vulnerabilities: Sequence[str] = (),
) -> tuple[Defenses, tuple[str, ...]]:
    """Defenses from stat-block entries such as ``"cold"`` or ``"bludgeoning, piercing, and
    slashing from nonmagical attacks"``: the ruleset's type names found in each entry.

    Returns the defenses and notes for entries with a qualifier the engine can't judge (the
    "from nonmagical attacks" part: the DM decides) or with no known type at all.
    """
    notes: list[str] = []
    found: list[tuple[str, ...]] = []
    for label, entries in (
        ("resistance", resistances),
        ("immunity", immunities),
        ("vulnerability", vulnerabilities),
    ):
        types: list[str] = []
        for entry in entries:
            words = re.findall(r"[a-z]+", entry.lower())
            known = [w for w in words if w in ruleset.damage.types]
            types.extend(t for t in known if t not in types)
            rest = [w for w in words if w not in ruleset.damage.types and w not in ("and", "or")]
            if not known:
                notes.append(f"{label} '{entry}': no damage type of {ruleset.name}")
            elif rest:
                notes.append(f"{label} '{entry}': applied to every {', '.join(known)} attack")
        found.append(tuple(types))
    return Defenses(found[0], found[2], found[1]), tuple(notes)


# --- the pipeline ---------------------------------------------------------------------------


def _matches(types: tuple[str, ...], damage_type: str) -> list[str]:
    return [t for t in types if t in (damage_type, ALL)]


def compute_instance(
    ruleset: Ruleset, instance: DamageInstance, defenses: Defenses, *, save_half: bool = False
) -> InstanceResult:
    """One instance through the pipeline (pure; inputs assumed checked)."""
    rules = ruleset.damage
    amount = instance.amount
    steps: list[Step] = [Step("rolled", amount, amount, f"{amount} {instance.type}")]
    if save_half:
        after = rounded(amount / 2, rules.save_half_rounding)
        steps.append(Step("save-half", amount, after, "successful save: half, rounded down"))
        amount = after
    adjustments = [a for a in defenses.adjustments if a.applies_to(instance.type)]
    if rules.only_largest_reduction:
        reductions = [a for a in adjustments if a.amount < 0]
        if len(reductions) > 1:
            largest = min(reductions, key=lambda a: a.amount)
            for dropped in reductions:
                if dropped is not largest:
                    steps.append(
                        Step(
                            "adjustment-ignored",
                            amount,
                            amount,
                            f"{dropped.source or dropped.amount}: only the largest reduction"
                            " applies",
                        )
                    )
            adjustments = [a for a in adjustments if a.amount >= 0 or a is largest]
    for adjustment in adjustments:
        after = amount + adjustment.amount
        label = adjustment.source or "adjustment"
        steps.append(Step("adjustment", amount, after, f"{label}: {adjustment.amount:+d}"))
        amount = after
    if amount < 0:
        steps.append(Step("floor", amount, 0, "damage can't be negative"))
        amount = 0
    for step in rules.order:
        if step is DamageStep.ADJUSTMENTS:
            continue
        if step is DamageStep.RESISTANCE:
            sources = _matches(defenses.resistances, instance.type)
            if sources and amount > 0:
                steps.append(
                    _scaled("resistance", rules.resistance_multiplier, sources, amount, rules)
                )
                amount = steps[-1].after
        elif step is DamageStep.VULNERABILITY:
            sources = _matches(defenses.vulnerabilities, instance.type)
            resisted = bool(_matches(defenses.resistances, instance.type))
            if (
                sources
                and amount > 0
                and (rules.resistance_and_vulnerability_both_apply or not resisted)
            ):
                steps.append(
                    _scaled("vulnerability", rules.vulnerability_multiplier, sources, amount, rules)
                )
                amount = steps[-1].after
        elif step is DamageStep.IMMUNITY:
            sources = _matches(defenses.immunities, instance.type)
            if sources and amount > 0:
                steps.append(Step("immunity", amount, 0, f"immune to {sources[0]} damage"))
                amount = 0
    return InstanceResult(instance.type, instance.amount, amount, tuple(steps))


def _scaled(
    what: str, multiplier: float, sources: list[str], amount: int, rules: DamageRules
) -> Step:
    """``amount`` times the multiplier, rounded by ``damage.rounding``: the multiplier once
    (srd "count as only one instance"), or once per instance when the ruleset's
    ``damage.instances_stack`` says they stack (two resistances: x0.25, rounded once)."""
    stack = rules.instances_stack
    factor = multiplier ** len(sources) if stack else multiplier
    text = f"{what} to {sources[0]} (x{factor:g})"
    if len(sources) > 1:
        text += f"; {len(sources)} instances {'stack' if stack else 'count once'}"
    return Step(what, amount, rounded(amount * factor, rules.rounding), text)


def compute_damage(
    ruleset: Ruleset,
    instances: Sequence[DamageInstance],
    defenses: Defenses = Defenses(),
    *,
    save_half: bool = False,
) -> tuple[InstanceResult, ...]:
    """Every instance through the pipeline, without touching any creature.

    Raises:
        UnknownDamageTypeError: a type (of damage or a defense) the ruleset lacks.
        NegativeAmountError: a negative amount.
    """
    _check_inputs(ruleset, instances, defenses)
    return tuple(compute_instance(ruleset, i, defenses, save_half=save_half) for i in instances)


# --- rolling damage -------------------------------------------------------------------------

_TERM = re.compile(r"([+-])?\s*(?:(\d{1,3})\s*[dD]\s*(\d{1,4})|(\d{1,6}))\s*")


def parse_damage_dice(text: str) -> tuple[tuple[tuple[int, int], ...], int]:
    """``2d6+1d4+3`` -> (((2, 6), (1, 4)), 3). Only added dice, flat numbers may be negative.

    Raises:
        InvalidRequestError: anything else.
    """
    source = text.strip()
    if not source or len(source) > 100:
        raise InvalidRequestError(f"bad damage dice {text!r}")
    dice: list[tuple[int, int]] = []
    flat = 0
    position = 0
    first = True
    while position < len(source):
        match = _TERM.match(source, position)
        if match is None or match.end() == position or (not first and match.group(1) is None):
            raise InvalidRequestError(f"bad damage dice {text!r} at column {position + 1}")
        sign = -1 if match.group(1) == "-" else 1
        if match.group(2) is not None:
            count, sides = int(match.group(2)), int(match.group(3))
            if sign < 0 or count < 1 or sides < 1:
                raise InvalidRequestError(f"bad damage dice {text!r}: '{match.group(0).strip()}'")
            dice.append((count, sides))
        else:
            flat += sign * int(match.group(4))
        position = match.end()
        first = False
    return tuple(dice), flat


def damage_expression(
    dice_text: str,
    *,
    critical: bool = False,
    mode: CriticalDamage = CriticalDamage.DOUBLE_DICE,
    maximise: bool = False,
    extra_flat: int = 0,
) -> str:
    """The expression actually rolled for a damage part.

    Critical: ``double-dice`` rolls every die twice (dagger: 1d4 -> 2d4); ``max-plus-roll``
    adds the dice's maximum to a normal roll (1d4+2 -> 1d4+4+2). ``maximise`` (target strike)
    replaces every die, critical extras included, by its maximum. Modifiers are added once.
    """
    dice, flat = parse_damage_dice(dice_text)
    flat += extra_flat
    rolled: list[tuple[int, int]] = []
    for count, sides in dice:
        if critical and mode is CriticalDamage.DOUBLE_DICE:
            rolled.append((count * 2, sides))
        elif critical:
            flat += count * sides
            rolled.append((count, sides))
        else:
            rolled.append((count, sides))
    if maximise:
        flat += sum(count * sides for count, sides in rolled)
        rolled = []
    terms = [f"{count}d{sides}" for count, sides in rolled]
    if flat or not terms:
        terms.append(str(flat) if not terms or flat < 0 else f"{flat}")
    expression = "+".join(terms).replace("+-", "-")
    return expression


def check_typed_total(
    total: int, expression: str, what: str, *, floor: int | None = None, how: str = ""
) -> int:
    """A total typed in from physical dice, checked against what ``expression`` can show.

    ``expression`` is the one actually rolled (``damage_expression``: ``2d6+2`` for a critical
    ``1d6+2``), whose lowest and highest totals (``dice.total_range``) bound the typed one.
    A total below ``floor`` counts as ``floor`` (damage: 0, as it "can't be negative"), so
    ``floor`` is taken too: 1d4-3 takes -2 to 1, 1d4-5 takes -4 to 0. ``how`` says in the
    message how ``expression`` came about ("1d6+2, critical hit: the dice rolled twice").

    Raises:
        BadDieError: not a whole number, or outside the range; the message names ``what``,
            the dice and the range ("Dagger damage (piercing): 10000 can't be rolled on 1d4+2
            (only 3 to 6)").
    """
    if isinstance(total, bool) or not isinstance(total, int):
        raise BadDieError(f"{what}: the typed total must be a whole number, got {total!r}")
    dice, flat = parse_damage_dice(expression)
    low, high = total_range(dice, flat)
    if floor is not None:
        high = max(high, floor)
    if not low <= total <= high:
        shown = f"{expression} ({how})" if how else expression
        allowed = f"only {low}" if low == high else f"only {low} to {high}"
        raise BadDieError(f"{what}: {total} can't be rolled on {shown} ({allowed})")
    return total


def _how_rolled(
    dice_text: str, expression: str, critical: bool, mode: CriticalDamage, maximise: bool
) -> str:
    """How ``expression`` came from the part's ``dice_text`` (for ``check_typed_total``)."""
    changes = []
    if critical:
        changes.append(
            "critical hit: the dice rolled twice"
            if mode is CriticalDamage.DOUBLE_DICE
            else "critical hit: the dice's maximum added"
        )
    if maximise:
        changes.append("target strike: the dice maximised")
    if not changes or dice_text.replace(" ", "") == expression:
        return ""
    return f"{dice_text}, {'; '.join(changes)}"


def roll_damage(
    draft: Draft,
    parts: Sequence[DamageRoll],
    *,
    critical: bool = False,
    maximise: bool = False,
    typed: Sequence[int] | None = None,
    purpose: str = "damage",
    creature_id: EntityId | None = None,
    flat_bonus_first: int = 0,
) -> RolledDamage:
    """Roll every part once (typed-in totals, per part, replace the rolls). Below 0 counts 0.

    A typed total is the whole part as rolled at the table, modifiers and critical dice
    included (the attack dialog labels each box with the part's dice, "1d6+2 slashing"; a
    ``flat_bonus_first`` counts in the first part's). It must be one the rolled expression can
    show, or 0 for a part that can't reach it, as every shipped ruleset's damage "can't be
    negative" (srd-5e "Damage Rolls"); below 0 counts 0, as a rolled one does. A critical
    1d6+2 takes 4 to 14 where the dice are rolled twice (srd-5e, legends-of-hyrule,
    final-fantasy-d20, bloodied-brink), 9 to 14 with gms-den's maximum added; a target
    strike's maximised 1d8 only 8.

    Raises:
        UnknownDamageTypeError, InvalidRequestError (bad dice, wrong number of typed totals),
        BadDieError (a typed total the dice can't show, or not a whole number).
    """
    if typed is not None and len(typed) != len(parts):
        raise InvalidRequestError(f"{len(parts)} damage parts but {len(typed)} typed totals")
    for part in parts:
        check_type(draft.ruleset, part.type)
    mode = draft.ruleset.attacks.critical_damage
    instances, expressions, details = [], [], []
    for index, part in enumerate(parts):
        expression = damage_expression(
            part.dice,
            critical=critical,
            mode=mode,
            maximise=maximise,
            extra_flat=flat_bonus_first if index == 0 else 0,
        )
        value = None if typed is None else typed[index]
        if value is not None:
            check_typed_total(
                value,
                expression,
                f"{purpose} ({part.type})",
                floor=0,
                how=_how_rolled(part.dice, expression, critical, mode, maximise),
            )
        record = draft.roll(expression, f"{purpose} ({part.type})", creature_id, value)
        instances.append(DamageInstance(max(0, record.total), part.type))
        expressions.append(expression)
        details.append(record.detail)
    return RolledDamage(tuple(instances), tuple(expressions), tuple(details))


# --- applying damage ---------------------------------------------------------------------------


def condition_defenses(draft: Draft, target_id: EntityId, immersed: bool) -> Defenses:
    """Defenses from the target's conditions and from being immersed in water."""
    combatant = draft.combatant(target_id)
    resist: list[str] = []
    immune: list[str] = []
    if combatant is not None:
        effects = effects_of(draft.ruleset, combatant)
        if ConditionEffect.RESISTANCE_ALL in effects:
            resist.append(ALL)
        if ConditionEffect.FIRE_RESISTANCE in effects and "fire" in draft.ruleset.damage.types:
            resist.append("fire")
        if ConditionEffect.IMMUNE_ALL_DAMAGE in effects:
            immune.append(ALL)
        if (
            ConditionEffect.IMMUNE_POISON_DISEASE in effects
            and "poison" in draft.ruleset.damage.types
        ):
            immune.append("poison")
    underwater = draft.ruleset.underwater
    if (
        immersed
        and underwater is not None
        and underwater.immersed is ImmersionEffect.FIRE_RESISTANCE
        and "fire" in draft.ruleset.damage.types
    ):
        resist.append("fire")
    return Defenses(resistances=tuple(resist), immunities=tuple(immune))


def check_knockout(ruleset: Ruleset, knockout: bool, melee: bool) -> None:
    """Raises ``IllegalActionError`` when knocking out isn't allowed for this damage."""
    if knockout and ruleset.knockout.melee_only and not melee:
        raise IllegalActionError("only a melee attack can knock a creature out")


def damage_into(
    draft: Draft,
    target_id: EntityId,
    instances: Sequence[DamageInstance],
    *,
    defenses: Defenses = Defenses(),
    critical: bool = False,
    melee: bool = False,
    from_attack: bool = False,
    save_half: bool = False,
    knockout: bool = False,
    attacker_id: EntityId | None = None,
    immersed: bool = False,
    massive_d20: int | None = None,
) -> DamageResult:
    """Apply damage inside an ongoing unit of draft (attacks use this); see ``apply_damage``."""
    target = draft.require_alive(target_id)
    check_knockout(draft.ruleset, knockout, melee)
    all_defenses = defenses.merged(condition_defenses(draft, target_id, immersed))
    results = compute_damage(draft.ruleset, instances, all_defenses, save_half=save_half)
    total = sum(r.final for r in results)
    for result in results:
        chain = " -> ".join(
            [str(result.rolled)] + [f"{s.after} ({s.reason})" for s in result.steps[1:]]
        )
        draft.add("damage-step", f"{target.name}: {result.type} {chain}", target_id)
    absorbed = min(target.temp_hp, total)
    hp_damage = total - absorbed
    hp_before = target.hp
    maximum = draft.max_hp(target_id)
    zero = ZeroOutcome()
    dropped = False
    new_hp = max(0, hp_before - hp_damage)
    draft.put_creature(
        target.model_copy(update={"hp": new_hp, "temp_hp": target.temp_hp - absorbed})
    )
    text = f"{target.name} takes {total} damage"
    if absorbed:
        text += f" ({absorbed} absorbed by temporary HP)"
    draft.add("damage", f"{text}: HP {hp_before} -> {new_hp}", target_id)
    if hp_before > 0 and new_hp == 0 and hp_damage > 0:
        dropped = True
        zero = drop_to_zero(
            draft, target_id, hp_damage - hp_before, knockout=knockout, attacker_id=attacker_id
        )
    elif hp_before == 0 and hp_damage > 0:
        zero = damage_at_zero(draft, target_id, hp_damage, critical=critical)
    call_for_save(draft, target_id, total)  # concentration; ended above if it dropped
    massive = None
    after = draft.creature(target_id)
    massive_rules = draft.ruleset.massive_damage
    counts = from_attack or (massive_rules is not None and not massive_rules.single_attack)
    if counts and not zero.died and after.hp > 0:
        massive = _massive(draft, target_id, total, maximum, massive_d20)
    after = draft.creature(target_id)
    return DamageResult(
        target_id=target_id,
        instances=results,
        total=total,
        temp_hp_before=target.temp_hp,
        temp_hp_absorbed=absorbed,
        temp_hp_after=after.temp_hp,
        hp_before=hp_before,
        hp_lost=hp_before - new_hp,
        hp_after=after.hp,
        max_hp=maximum,
        critical=critical,
        dropped_to_zero=dropped,
        zero=zero,
        massive=massive,
        bloodied=is_bloodied(draft.ruleset, after, maximum),
    )


def _massive(
    draft: Draft, target_id: EntityId, total: int, maximum: int, typed: int | None
) -> MassiveDamageResult | None:
    """gms-den: one attack dealing >= half the maximum: an unmodified d20 on the table
    (``massive_damage.single_attack`` false: any damage dealt at once; the table's die)."""
    rules = draft.ruleset.massive_damage
    if rules is None or maximum <= 0 or total < rules.fraction_of_max * maximum - 1e-9:
        return None
    name = draft.name(target_id)
    natural, row = draft.table_roll(rules.table, f"{name}'s massive damage roll", target_id, typed)
    draft.add("massive-damage", f"{name}: massive damage, {natural}: {row.description}", target_id)
    if row.result.startswith("stunned"):
        # "Stunned until the end of your next turn": on its own turn, that is the one after.
        give_condition(
            draft, target_id, draft.ruleset.roles.conditions.stunned, expiry=Expiry.END_OF_NEXT_TURN
        )
    elif row.result == "prone":
        give_condition(draft, target_id, draft.ruleset.roles.conditions.prone)
    return MassiveDamageResult(natural, row.result, row.description)


def apply_damage(
    encounter: Encounter,
    ruleset: Ruleset,
    target_id: EntityId,
    instances: Sequence[DamageInstance],
    *,
    defenses: Defenses = Defenses(),
    critical: bool = False,
    melee: bool = False,
    from_attack: bool = False,
    save_half: bool = False,
    knockout: bool = False,
    attacker_id: EntityId | None = None,
    immersed: bool = False,
    massive_d20: int | None = None,
) -> Outcome[DamageResult]:
    """Deal already-rolled damage to a target (the DM's damage entry).

    ``critical`` matters at 0 HP (two failures); ``melee`` allows ``knockout``; ``from_attack``
    enables gms-den's massive-damage roll (``massive_d20`` typed in, else rolled; it needs a
    combat for the dice otherwise). Outside a combat (``combat`` None) only HP change.

    Raises:
        AbsentTargetError, DeadTargetError, UnknownDamageTypeError, NegativeAmountError,
        IllegalActionError (knockout without a melee attack). The inputs stay unchanged.
    """
    draft = Draft(encounter, ruleset)
    result = damage_into(
        draft,
        target_id,
        instances,
        defenses=defenses,
        critical=critical,
        melee=melee,
        from_attack=from_attack,
        save_half=save_half,
        knockout=knockout,
        attacker_id=attacker_id,
        immersed=immersed,
        massive_d20=massive_d20,
    )
    return draft.done(result)


@dataclass(frozen=True)
class AreaTarget:
    """One creature caught in an area effect: whether it saved, and its defenses."""

    creature_id: EntityId
    saved: bool = False
    defenses: Defenses = Defenses()
    immersed: bool = False


def apply_area_damage(
    encounter: Encounter,
    ruleset: Ruleset,
    parts: Sequence[DamageRoll],
    targets: Sequence[AreaTarget],
    *,
    half_on_save: bool = True,
    typed: Sequence[int] | None = None,
    source_id: EntityId | None = None,
    typed_each: Sequence[Sequence[int]] | None = None,
) -> Outcome[tuple[DamageResult, ...]]:
    """An area effect: the damage is rolled once and dealt to every target (half on a save).

    That is srd "Damage Rolls" ("roll the damage once for all of them"), ruleset field
    ``damage.area_damage_rolled_once``. A ruleset with it false rolls for each target in turn
    (``typed_each``: the typed-in totals per part, one list per target in ``targets`` order;
    a single ``typed`` list is accepted only for a single target).

    Outside a combat (``combat`` None) only HP change, as with ``apply_damage``, and the
    total must be ``typed`` (there are no combat dice to roll).

    Raises:
        the errors of ``apply_damage`` for any target; nothing is applied then.
    """
    draft = Draft(encounter, ruleset)
    for target in targets:
        draft.require_alive(target.creature_id)
    once = ruleset.damage.area_damage_rolled_once
    if typed_each is not None:
        if once:
            raise InvalidRequestError(
                f"{ruleset.name} rolls area damage once for every target: type one total per part"
            )
        if len(typed_each) != len(targets):
            raise InvalidRequestError(f"{len(targets)} targets but {len(typed_each)} typed rolls")
    elif typed is not None and not once:
        if len(targets) > 1:
            raise InvalidRequestError(
                f"{ruleset.name} rolls area damage for each target: type the totals of each target"
            )
        typed_each = [typed]
    rolled = (
        roll_damage(draft, parts, typed=typed, purpose="area damage", creature_id=source_id)
        if once
        else None
    )
    results = []
    for index, t in enumerate(targets):
        own = rolled or roll_damage(
            draft,
            parts,
            typed=None if typed_each is None else typed_each[index],
            purpose=f"area damage for {draft.name(t.creature_id)}",
            creature_id=source_id,
        )
        results.append(
            damage_into(
                draft,
                t.creature_id,
                own.instances,
                defenses=t.defenses,
                save_half=half_on_save and t.saved,
                immersed=t.immersed,
                attacker_id=source_id,
            )
        )
    return draft.done(tuple(results))
