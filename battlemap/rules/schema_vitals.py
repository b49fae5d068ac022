"""Ruleset sections for damage, hit points, death, conditions, exhaustion, underwater and rests."""

from __future__ import annotations

from pydantic import Field, field_validator

from battlemap.rules.enums import (
    Ability,
    BrinkOption,
    ConditionDuration,
    ConditionEffect,
    DamageStep,
    DeathSaveNatural,
    ExhaustionEffect,
    FailuresReached,
    ImmersionEffect,
    KnockoutResult,
    KnockoutTiming,
    MonsterDeathAtZero,
    Rounding,
    SentenceOutcome,
    StabilizeMethod,
    StableRecovery,
    TempHpStacking,
)
from battlemap.rules.schema_attacks import RollTable
from battlemap.rules.schema_base import Described, Fraction, Name, Section

# --- damage, hit points, death -------------------------------------------------------------


class DamageType(Described):
    pass


class DamageRules(Section):
    types: dict[Name, DamageType] = Field(min_length=1, description="The damage types, by id.")
    resistance_multiplier: Fraction = Field(
        default=0.5, ge=0, description="Damage taken with resistance is multiplied by this."
    )
    vulnerability_multiplier: Fraction = Field(
        default=2.0, ge=0, description="Damage taken with vulnerability is multiplied by this."
    )
    rounding: Rounding = Rounding.DOWN
    order: tuple[DamageStep, ...] = Field(
        default=(
            DamageStep.ADJUSTMENTS,
            DamageStep.RESISTANCE,
            DamageStep.VULNERABILITY,
            DamageStep.IMMUNITY,
        ),
        description="The order of the damage steps: each once, adjustments first.",
    )
    only_largest_reduction: bool = Field(
        default=False, description="Of several flat reductions only the largest applies."
    )
    instances_stack: bool = Field(
        default=False,
        description="Several resistances (or vulnerabilities) to one damage multiply together;"
        " false: they count once.",
    )
    resistance_and_vulnerability_both_apply: bool = Field(
        default=True,
        description="Resistance and vulnerability to the same damage both apply; false: resistance"
        " alone does.",
    )
    area_damage_rolled_once: bool = Field(
        default=True, description="An area effect's damage is rolled once for every creature in it."
    )
    save_half_rounding: Rounding = Rounding.DOWN

    @field_validator("order")
    @classmethod
    def _order_lists_every_step_once(cls, order: tuple[DamageStep, ...]) -> tuple[DamageStep, ...]:
        # The engine applies adjustments before the multipliers (srd "Damage Resistance and
        # Vulnerability"), and a step left out would be skipped without a word.
        if order[:1] != (DamageStep.ADJUSTMENTS,) or sorted(order) != sorted(DamageStep):
            steps = ", ".join(step.value for step in DamageStep)
            raise ValueError(f"order must list each step once, adjustments first: {steps}")
        return order


class BloodiedRules(Section):
    fraction_of_max: Fraction = Field(
        default=0.5,
        gt=0,
        le=1,
        description="A creature is bloodied at this fraction of its HP maximum.",
    )
    at_or_below: bool = Field(
        default=True, description="Bloodied at or below the fraction; false: only below it."
    )


class HitPointRules(Section):
    temp_hp_stacking: TempHpStacking = TempHpStacking.KEEP_HIGHER
    temp_hp_cap_fraction: Fraction = Field(
        default=0.5,
        gt=0,
        le=10,
        description="Temporary HP can't exceed this fraction of the HP maximum.",
    )
    temp_hp_last_until_long_rest: bool = Field(
        default=True, description="Temporary HP are lost at the end of a long rest."
    )
    temp_hp_wakes: bool = Field(
        default=False, description="Gaining temporary HP wakes a creature at 0 HP."
    )
    healing_capped_at_max: bool = Field(
        default=True, description="Healing can't raise HP above the HP maximum."
    )
    dead_cannot_be_healed: bool = Field(
        default=True, description="Healing does nothing to a dead creature."
    )
    bloodied: BloodiedRules | None = Field(
        default=None, description="The bloodied state; null: none."
    )
    monsters_at_zero: MonsterDeathAtZero = MonsterDeathAtZero.DIE
    zero_hp_max_kills: bool = Field(
        default=False, description="A creature whose HP maximum drops to 0 dies."
    )
    instant_death_fraction_of_max: Fraction = Field(
        default=1.0, gt=0, le=1, description="Leftover damage >= this x HP max kills at once."
    )
    instant_death_rounding: Rounding = Rounding.UP
    falls_prone_when_unconscious: bool = Field(
        default=True, description="A creature falls prone when it falls unconscious."
    )


class SentenceRules(Section):
    ability: Ability = Ability.WIS
    dc: int = Field(default=13, description="DC of the Sentence save.")
    natural_1: SentenceOutcome = SentenceOutcome.DIES_TRUE_RESURRECTION_ONLY
    failure: SentenceOutcome = SentenceOutcome.DIES_ALLIES_EMPOWERED
    success: SentenceOutcome = SentenceOutcome.STABLE_MAX_TEMP_HP
    natural_20: SentenceOutcome = SentenceOutcome.ONE_HP_MAX_TEMP_HP


class BrinkOfDeathRules(Section):
    options: tuple[BrinkOption, ...] = Field(
        default=(
            BrinkOption.ADRENALINE,
            BrinkOption.SENTENCE,
            BrinkOption.LAST_BREATH,
        ),
        description="The choices offered to a character who drops to 0 HP.",
    )
    pauses_initiative: bool = Field(
        default=True, description="The fight waits until the character has chosen."
    )
    adrenaline_points_fraction_of_level: Fraction = Field(
        default=0.5,
        description="Adrenaline costs this fraction of the character's level, rounded up.",
    )
    adrenaline_temp_hp_per_level: int = Field(
        default=3, description="Temporary HP per character level that Adrenaline grants."
    )
    sentence: SentenceRules = Field(
        default=SentenceRules(), description="The Sentence option's saving throw and its outcomes."
    )
    last_breath_condition: Name = Field(
        default="last-breath", description="Condition (id in conditions) Last Breath applies."
    )


class WoundedRules(Section):
    condition: Name = Field(
        default="wounded", description="Id of the Wounded condition in conditions."
    )
    gained_on_stabilising: int = Field(
        default=1, description="Wounded value gained each time the creature is stabilised."
    )
    starting_failures_equal_wounded: bool = Field(
        default=True,
        description="A dying creature starts with as many death-save failures as its Wounded"
        " value.",
    )
    ends_on_healers_kit_healing: bool = Field(
        default=True, description="Healing with a healer's kit ends Wounded."
    )
    ends_on_full_hp_and_rest_minutes: int = Field(
        default=10, description="Wounded ends after resting this many minutes at full HP."
    )


class DeathSaveRules(Section):
    dc: int = Field(default=10, description="Success when the d20 is >= dc (see success_on_equal).")
    success_on_equal: bool = Field(
        default=True, description="True: d20 >= dc succeeds; False: d20 <= dc fails."
    )
    count_successes: bool = Field(
        default=True,
        description="Successes count toward stabilising; false: a success only avoids a failure.",
    )
    successes_to_stabilise: int = Field(
        default=3, ge=1, le=10, description="Successes that make a dying creature stable."
    )
    failures_limit: int = Field(
        default=3, ge=1, le=10, description="Failures at which on_failures_reached happens."
    )
    on_failures_reached: FailuresReached = FailuresReached.DEAD
    natural_1: DeathSaveNatural = DeathSaveNatural.TWO_FAILURES
    natural_20: DeathSaveNatural = DeathSaveNatural.REGAIN_1_HP
    damage_at_zero_failures: int = Field(
        default=1, description="Failures a creature at 0 HP suffers when it takes damage."
    )
    critical_damage_at_zero_failures: int = Field(
        default=2, description="Failures it suffers from a critical hit."
    )
    damage_at_zero_kill_fraction_of_max: Fraction = Field(
        default=1.0,
        gt=0,
        le=1,
        description="Damage at 0 HP of at least this fraction of the HP maximum kills at once.",
    )
    reset_on_healing_or_stable: bool = Field(
        default=True,
        description="Successes and failures reset when the creature regains HP or becomes stable.",
    )
    brink_of_death: BrinkOfDeathRules | None = Field(
        default=None, description="The Brink of Death choice at 0 HP; null: none."
    )
    wounded: WoundedRules | None = Field(
        default=None, description="The Wounded condition left by dying; null: none."
    )


class StabilizeRules(Section):
    uses: Name = Field(default="stabilize", description="Action entry used to stabilise.")
    dc: int = Field(default=10, description="DC of the check that stabilises.")
    ability: Ability = Ability.WIS
    skill: str = Field(default="Medicine", description="Skill of the check.")
    methods: tuple[StabilizeMethod, ...] = Field(
        default=(StabilizeMethod.MEDICINE_CHECK,),
        description="Ways a dying creature can be stabilised.",
    )
    stable_regains_1_hp: StableRecovery = StableRecovery.AFTER_1D4_HOURS


class KnockoutRules(Section):
    melee_only: bool = Field(
        default=True,
        description="Only a melee attack can knock a creature out instead of killing it.",
    )
    timing: KnockoutTiming = KnockoutTiming.ON_DAMAGE
    result: KnockoutResult = KnockoutResult.UNCONSCIOUS_STABLE


class MassiveDamageRules(Section):
    fraction_of_max: Fraction = Field(
        default=0.5,
        gt=0,
        le=1,
        description="Damage of at least this fraction of the HP maximum rolls on the table.",
    )
    single_attack: bool = Field(
        default=True,
        description="Only damage from one attack counts; false: any damage dealt at once"
        " (an area effect too).",
    )
    table: RollTable = Field(description="What massive damage does, by roll.")


# --- conditions, exhaustion, environment, rests --------------------------------------------


class ConditionDef(Described):
    effects: tuple[ConditionEffect, ...] = Field(
        default=(), description="What the engine applies while the condition lasts."
    )
    implies: tuple[Name, ...] = Field(
        default=(), description="Other conditions this one includes (paralyzed -> incapacitated)."
    )
    has_value: bool = Field(
        default=False, description="Carries a number (Wounded 2); without it the value is 1."
    )
    default_duration: ConditionDuration = ConditionDuration.UNTIL_REMOVED


class ExhaustionLevel(Section):
    level: int = Field(ge=1, le=10, description="Exhaustion level, from 1.")
    description: str = Field(max_length=400, description="What the level does, shown to the DM.")
    effects: tuple[ExhaustionEffect, ...] = Field(
        description="What the engine applies at this level (levels add up)."
    )


class UnderwaterRules(Section):
    melee_disadvantage_unless_swim_speed: bool = Field(
        default=True,
        description="Melee weapon attacks underwater have disadvantage unless the attacker has a"
        " swimming speed.",
    )
    melee_exempt_weapons: tuple[Name, ...] = Field(
        default=(), description="Weapons exempt from that disadvantage (dagger, spear...)."
    )
    melee_exempt_aquatic_property: bool = Field(
        default=False, description="Weapons with the aquatic property are exempt too."
    )
    ranged_misses_beyond_normal_range: bool = Field(
        default=True, description="A ranged weapon attack beyond normal range misses."
    )
    ranged_disadvantage_exempt_weapons: tuple[Name, ...] = Field(
        default=(),
        description="Ranged weapons without disadvantage within normal range (crossbow, net...).",
    )
    ranged_exempt_thrown: bool = Field(
        default=False, description="Thrown weapons are exempt from that disadvantage."
    )
    ranged_exempt_aquatic_property: bool = Field(
        default=False, description="Weapons with the aquatic property are exempt from it."
    )
    immersed: ImmersionEffect = ImmersionEffect.NONE


class RestKind(Section):
    hours: float = Field(gt=0, le=48, description="How long the rest takes.")
    max_per_day: int = Field(
        default=1, ge=0, le=24, description="How many such rests a creature may take in a day."
    )
    hp_flat: int = Field(default=0, ge=0, description="HP regained, besides the dice.")
    hp_dice_per_level: str = Field(
        default="",
        pattern=r"^([1-9][0-9]?d[1-9][0-9]{0,2})?$",
        description="Dice rolled per level, e.g. 1d8 (level 3: 3d8); empty for none.",
    )
    needs_at_least_1_hp: bool = Field(
        default=True, description="A creature needs at least 1 HP to benefit."
    )
    exhaustion_reduction: int = Field(
        default=0, ge=0, le=6, description="Exhaustion levels the rest removes."
    )
    restores_hp_max: bool = Field(
        default=False, description="The rest restores a reduced HP maximum."
    )
    interrupted_by: tuple[str, ...] = Field(
        default=(), description="What stops the rest; an interrupted rest gives no benefit..."
    )
    interrupted_by_combat: bool = Field(
        default=False,
        description="Rolling initiative stops the rest, so none is taken while a combat runs.",
    )
    interrupted_short_rest_after_hours: float | None = Field(
        default=None,
        ge=0,
        le=48,
        description="...except the short rest's, after resting at least this long (None: none).",
    )
    resumable: bool = Field(
        default=False, description="The rest may be resumed right after an interruption."
    )
    resume_extra_hours: float = Field(
        default=0, ge=0, le=48, description="Hours a resumed rest adds per interruption."
    )


class ConcentrationRules(Section):
    """The Constitution save that damage calls for while a creature concentrates: DC
    ``save_dc_minimum`` or the damage taken divided by ``save_dc_damage_divisor`` (rounded
    down), whichever is higher.

    None of the five documents in ``../shared/rules-sources`` states this DC (srd-5e.txt and
    two others only say that holding a readied spell "requires concentration"); the values
    shipped are the SRD 5.1 "Concentration" rule's, written here so that a table can see and
    change them rather than meet a hidden constant."""

    save_dc_minimum: int = Field(
        default=10, ge=1, le=40, description="The lowest DC of a concentration save."
    )
    save_dc_damage_divisor: int = Field(
        default=2,
        ge=1,
        le=100,
        description="The damage taken divided by this (rounded down) is the DC when higher.",
    )


class RestRules(Section):
    short: RestKind | None = Field(default=None, description="The short rest; null: none.")
    long: RestKind | None = Field(default=None, description="The long rest; null: none.")
