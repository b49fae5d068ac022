"""The ``Ruleset`` schema: every switch and table a rule variant can change.

A ruleset file is YAML; the variants ``extends: srd-5e`` and override parts of it
(``battlemap.rules.loader`` merges them). Every section maps to a row of the rules-sources
table of differences. Fractions (``0.5``) multiply a value and then round as ``rounding`` says.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from battlemap.rules.enums import (
    Ability,
    AcFloor,
    ActionCost,
    ActionKind,
    BrinkOption,
    ConditionDuration,
    ConditionEffect,
    CriticalDamage,
    DamageStep,
    DeathSaveNatural,
    DiagonalRule,
    DisengageDuration,
    DodgeEnd,
    EconomyPart,
    ExhaustionEffect,
    FailuresReached,
    ImmersionEffect,
    InitiativeMode,
    InitiativeTieBreak,
    KnockoutResult,
    KnockoutTiming,
    MonsterDeathAtZero,
    Resolver,
    Rounding,
    SentenceOutcome,
    StabilizeMethod,
    StableRecovery,
    SurpriseMode,
    TempHpStacking,
    TwoWeaponMode,
)

SCHEMA_VERSION = 1

Name = str
Fraction = float


class Section(BaseModel):
    """Base of every ruleset section: unknown keys are errors, values are immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Described(Section):
    """An entry with a display name and a description."""

    name: str = Field(min_length=1, max_length=80)
    description: str = Field(default="", max_length=4000)


# --- surprise and initiative -------------------------------------------------------------


class SurpriseRules(Section):
    mode: SurpriseMode = SurpriseMode.INDIVIDUAL
    denied_on_first_turn: tuple[EconomyPart, ...] = Field(
        default=(EconomyPart.MOVE, EconomyPart.ACTION, EconomyPart.REACTION),
        description="What a surprised creature can't use until its first turn ends.",
    )


class InitiativeRules(Section):
    mode: InitiativeMode = InitiativeMode.INDIVIDUAL
    ability: Ability = Field(default=Ability.DEX, description="Ability of the initiative check.")
    identical_monsters_share_roll: bool = Field(
        default=True, description="One roll for a group of identical monsters (same name)."
    )
    tie_break: InitiativeTieBreak = InitiativeTieBreak.DM_ORDER
    natural_20_extra_turn: bool = Field(
        default=False,
        description="A natural 20 grants one extra turn at the end of the first round.",
    )
    manual_reorder: bool = Field(
        default=True,
        description="The DM may reorder turns, and change initiative once the combat runs.",
    )


# --- turns, actions and economy ----------------------------------------------------------


class ActionDef(Described):
    cost: ActionCost = ActionCost.ACTION
    kind: ActionKind = ActionKind.OTHER
    resolved_by: Resolver = Resolver.TURNS
    needs_target: bool = False
    source: str = Field(default="", max_length=200, description="Section of the rules document.")


class EconomyRules(Section):
    free_object_interactions: int = Field(default=1, ge=0, le=10)
    extra_object_interaction_costs: ActionCost = ActionCost.ACTION
    reactions_per_round: int = Field(default=1, ge=0, le=10)
    dash_stacks: bool = Field(
        default=False, description="Each extra Dash in a turn adds the speed again."
    )
    disengage_duration: DisengageDuration = DisengageDuration.END_OF_TURN
    dodge_ends_when: tuple[DodgeEnd, ...] = (DodgeEnd.INCAPACITATED,)
    bonus_action_spell_limits_action_to_cantrip: bool = True


# --- movement ------------------------------------------------------------------------------


class SqueezeRules(Section):
    extra_cost_per_foot: int = Field(default=1, ge=0, le=10)
    attacks_with_disadvantage: bool = True
    dex_saves_with_disadvantage: bool = True
    attacked_with_advantage: bool = True


class JumpRules(Section):
    high_jump_base: int = Field(default=3, description="Running high jump = base + Str mod ft.")
    long_jump_uses_str_score: bool = True
    standing_fraction: Fraction = Field(default=0.5, gt=0, le=1)
    run_up_feet: int = Field(
        default=10, ge=0, description="Feet moved on foot right before a running jump."
    )


class ClimbSwimRules(Section):
    """Climbing or swimming without the matching speed: the Athletics check, and climbing's
    speed. Swimming's cost is ``MovementRules.swim_extra_cost_per_foot`` alone (the geometry
    charges the water), so it is not slowed again by ``speed_fraction``."""

    check_ability: Ability = Ability.STR
    check_skill: str = "Athletics"
    speed_fraction: Fraction = Field(
        default=0.5, gt=0, le=1, description="Speed climbing without a climb speed (x speed)."
    )
    exhaustion_on_failure: int = Field(default=1, ge=0, le=6)


class MountRules(Section):
    cost_fraction_of_speed: Fraction = Field(default=0.5, gt=0, le=1)
    fall_off_save_dc: int = Field(
        default=10,
        ge=1,
        le=40,
        description="Dexterity save to stay on when the mount is moved or the rider knocked prone.",
    )
    controlled_mount_actions: tuple[Name, ...] = ("dash", "disengage", "dodge")
    controlled_vs_independent: bool = True


class MovementRules(Section):
    diagonal: DiagonalRule = DiagonalRule.ALTERNATING
    difficult_terrain_extra_cost_per_foot: int = Field(default=1, ge=0, le=10)
    creature_space_is_difficult: bool = True
    crawl_extra_cost_per_foot: int = Field(default=1, ge=0, le=10)
    swim_extra_cost_per_foot: int = Field(
        default=1,
        ge=0,
        le=10,
        description="Extra feet per foot moved into water without a swimming speed.",
    )
    drop_prone_cost: int = Field(default=0, ge=0)
    stand_up_fraction_of_speed: Fraction = Field(default=0.5, gt=0, le=1)
    switching_speeds_subtracts_moved: bool = True
    hostile_pass_through_size_difference: int = Field(
        default=2, ge=0, le=5, description="Size steps apart needed to pass a hostile creature."
    )
    may_end_in_occupied_space: bool = Field(
        default=False, description="A move may end in another creature's space."
    )
    squeezing: SqueezeRules | None = Field(
        default=None, description="Squeezing into a smaller space; null: no squeezing."
    )
    flying_falls_when_prone_or_speed_zero: bool = False
    jumping: JumpRules | None = None
    climb_swim_without_speed: ClimbSwimRules | None = None
    mounting: MountRules | None = None


# --- attacks -------------------------------------------------------------------------------


class TableRow(Section):
    low: int = Field(ge=1, le=100)
    high: int = Field(ge=1, le=100)
    result: str = Field(max_length=40, description="Machine name of the outcome.")
    description: str = Field(max_length=400)


class RollTable(Section):
    die: str = Field(
        default="1d20",
        pattern=r"^1d[1-9][0-9]{0,2}$",
        description="The one die rolled on the table (1d20, 1d100); rows cover 1 to its sides.",
    )
    rows: tuple[TableRow, ...] = Field(min_length=1)

    @property
    def sides(self) -> int:
        return int(self.die.removeprefix("1d"))

    @model_validator(mode="after")
    def _rows_cover_die(self) -> RollTable:
        expected = 1
        for row in self.rows:
            if row.low != expected or row.high < row.low:
                raise ValueError(f"rows must cover the die in order; row {row.low}-{row.high}")
            expected = row.high + 1
        if expected - 1 != self.sides:
            raise ValueError(
                f"rows must cover the die: they end at {expected - 1}, {self.die}"
                f" goes up to {self.sides}"
            )
        return self

    def lookup(self, value: int) -> TableRow:
        """The row whose ``low..high`` range contains ``value``."""
        for row in self.rows:
            if row.low <= value <= row.high:
                return row
        raise ValueError(f"{value} is outside the table")


class CoverRules(Section):
    half_bonus: int = 2
    three_quarters_bonus: int = 5
    applies_to_dex_saves: bool = True


class FlankingRules(Section):
    enabled: bool = False
    both_must_threaten: bool = Field(
        default=True,
        description="The ally must threaten the target too (in reach, able to act, no total"
        " cover); false: standing opposite is enough.",
    )
    min_reach_feet: int = Field(
        default=5, ge=0, description="Least reach a flanker needs (5: reach 0 can't flank)."
    )


class CalledShotRules(Section):
    disadvantage: bool = True
    ac_bonus: int = 2
    auto_fail_if_already_disadvantaged: bool = True


class TargetStrikeRules(Section):
    stamina_cost: int = Field(default=2, ge=0)
    or_disadvantage: bool = True
    not_if_already_disadvantaged: bool = True
    not_with_penalty_at_least: int = Field(default=5, ge=0)
    maximise_damage_dice: bool = True


class TwoWeaponRules(Section):
    mode: TwoWeaponMode = TwoWeaponMode.BONUS_ATTACK
    offhand_adds_negative_modifier: bool = False
    light_weapons: tuple[Name, ...] = Field(
        default=(), description="Weapons allowed off-hand; empty means any light weapon."
    )


class ProneRules(Section):
    melee_within_feet: int = 5
    attackers_within_have_advantage: bool = True
    farther_attackers_have_disadvantage: bool = True


class UnarmedStrikeRules(Section):
    damage: str = Field(default="1 + str", max_length=40)
    minimum_damage: int = Field(default=0, ge=0)


class AttackRules(Section):
    natural_20_hits_and_crits: bool = True
    natural_1_misses: bool = True
    ac_floor: AcFloor = AcFloor.NONE
    critical_damage: CriticalDamage = CriticalDamage.DOUBLE_DICE
    fumble_table: RollTable | None = None
    cover: CoverRules = CoverRules()
    flanking: FlankingRules = FlankingRules()
    called_shot: CalledShotRules | None = None
    target_strike: TargetStrikeRules | None = None
    two_weapon: TwoWeaponRules = TwoWeaponRules()
    prone_target: ProneRules = ProneRules()
    unarmed_strike: UnarmedStrikeRules = UnarmedStrikeRules()
    ranged_in_melee_disadvantage: bool = True
    long_range_disadvantage: bool = True
    unseen_target_disadvantage: bool = True
    unseen_attacker_advantage: bool = True


class GrappleRules(Section):
    max_size_larger: int = Field(default=1, ge=0, le=5)
    needs_free_hand: bool = True
    auto_success_vs_incapacitated: bool = False
    escape_uses_escape_dc: bool = True
    drag_halves_speed_unless_smaller_by: int = Field(default=2, ge=0, le=5)
    grapple_move: bool = False
    grapple_move_fraction_of_speed: Fraction = Field(default=0.5, gt=0, le=1)
    shove_push_feet: int = Field(default=5, ge=0)


# --- damage, hit points, death -------------------------------------------------------------


class DamageType(Described):
    pass


class DamageRules(Section):
    types: dict[Name, DamageType] = Field(min_length=1)
    resistance_multiplier: Fraction = Field(default=0.5, ge=0)
    vulnerability_multiplier: Fraction = Field(default=2.0, ge=0)
    rounding: Rounding = Rounding.DOWN
    order: tuple[DamageStep, ...] = (
        DamageStep.ADJUSTMENTS,
        DamageStep.RESISTANCE,
        DamageStep.VULNERABILITY,
        DamageStep.IMMUNITY,
    )
    only_largest_reduction: bool = False
    instances_stack: bool = False
    resistance_and_vulnerability_both_apply: bool = True
    area_damage_rolled_once: bool = True
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
    fraction_of_max: Fraction = Field(default=0.5, gt=0, le=1)
    at_or_below: bool = True


class HitPointRules(Section):
    temp_hp_stacking: TempHpStacking = TempHpStacking.KEEP_HIGHER
    temp_hp_cap_fraction: Fraction = Field(default=0.5, gt=0, le=10)
    temp_hp_last_until_long_rest: bool = True
    temp_hp_wakes: bool = False
    healing_capped_at_max: bool = True
    dead_cannot_be_healed: bool = True
    bloodied: BloodiedRules | None = None
    monsters_at_zero: MonsterDeathAtZero = MonsterDeathAtZero.DIE
    zero_hp_max_kills: bool = False
    instant_death_fraction_of_max: Fraction = Field(
        default=1.0, gt=0, le=1, description="Leftover damage >= this x HP max kills at once."
    )
    instant_death_rounding: Rounding = Rounding.UP
    falls_prone_when_unconscious: bool = True


class SentenceRules(Section):
    ability: Ability = Ability.WIS
    dc: int = 13
    natural_1: SentenceOutcome = SentenceOutcome.DIES_TRUE_RESURRECTION_ONLY
    failure: SentenceOutcome = SentenceOutcome.DIES_ALLIES_EMPOWERED
    success: SentenceOutcome = SentenceOutcome.STABLE_MAX_TEMP_HP
    natural_20: SentenceOutcome = SentenceOutcome.ONE_HP_MAX_TEMP_HP


class BrinkOfDeathRules(Section):
    options: tuple[BrinkOption, ...] = (
        BrinkOption.ADRENALINE,
        BrinkOption.SENTENCE,
        BrinkOption.LAST_BREATH,
    )
    pauses_initiative: bool = True
    adrenaline_points_fraction_of_level: Fraction = 0.5
    adrenaline_temp_hp_per_level: int = 3
    sentence: SentenceRules = SentenceRules()
    last_breath_condition: Name = "last-breath"


class WoundedRules(Section):
    condition: Name = "wounded"
    gained_on_stabilising: int = 1
    starting_failures_equal_wounded: bool = True
    ends_on_healers_kit_healing: bool = True
    ends_on_full_hp_and_rest_minutes: int = 10


class DeathSaveRules(Section):
    dc: int = Field(default=10, description="Success when the d20 is >= dc (see success_on_equal).")
    success_on_equal: bool = Field(
        default=True, description="True: d20 >= dc succeeds; False: d20 <= dc fails."
    )
    count_successes: bool = True
    successes_to_stabilise: int = Field(default=3, ge=1, le=10)
    failures_limit: int = Field(default=3, ge=1, le=10)
    on_failures_reached: FailuresReached = FailuresReached.DEAD
    natural_1: DeathSaveNatural = DeathSaveNatural.TWO_FAILURES
    natural_20: DeathSaveNatural = DeathSaveNatural.REGAIN_1_HP
    damage_at_zero_failures: int = 1
    critical_damage_at_zero_failures: int = 2
    damage_at_zero_kill_fraction_of_max: Fraction = Field(default=1.0, gt=0, le=1)
    reset_on_healing_or_stable: bool = True
    brink_of_death: BrinkOfDeathRules | None = None
    wounded: WoundedRules | None = None


class StabilizeRules(Section):
    uses: Name = Field(default="stabilize", description="Action entry used to stabilise.")
    dc: int = 10
    ability: Ability = Ability.WIS
    skill: str = "Medicine"
    methods: tuple[StabilizeMethod, ...] = (StabilizeMethod.MEDICINE_CHECK,)
    stable_regains_1_hp: StableRecovery = StableRecovery.AFTER_1D4_HOURS


class KnockoutRules(Section):
    melee_only: bool = True
    timing: KnockoutTiming = KnockoutTiming.ON_DAMAGE
    result: KnockoutResult = KnockoutResult.UNCONSCIOUS_STABLE


class MassiveDamageRules(Section):
    fraction_of_max: Fraction = Field(default=0.5, gt=0, le=1)
    single_attack: bool = Field(
        default=True,
        description="Only damage from one attack counts; false: any damage dealt at once"
        " (an area effect too).",
    )
    table: RollTable


# --- conditions, exhaustion, environment, rests --------------------------------------------


class ConditionDef(Described):
    effects: tuple[ConditionEffect, ...] = ()
    implies: tuple[Name, ...] = Field(
        default=(), description="Other conditions this one includes (paralyzed -> incapacitated)."
    )
    has_value: bool = Field(
        default=False, description="Carries a number (Wounded 2); without it the value is 1."
    )
    default_duration: ConditionDuration = ConditionDuration.UNTIL_REMOVED


class ExhaustionLevel(Section):
    level: int = Field(ge=1, le=10)
    description: str = Field(max_length=400)
    effects: tuple[ExhaustionEffect, ...]


class UnderwaterRules(Section):
    melee_disadvantage_unless_swim_speed: bool = True
    melee_exempt_weapons: tuple[Name, ...] = ()
    melee_exempt_aquatic_property: bool = False
    ranged_misses_beyond_normal_range: bool = True
    ranged_disadvantage_exempt_weapons: tuple[Name, ...] = ()
    ranged_exempt_thrown: bool = False
    ranged_exempt_aquatic_property: bool = False
    immersed: ImmersionEffect = ImmersionEffect.NONE


class RestKind(Section):
    hours: float = Field(gt=0, le=48)
    max_per_day: int = Field(default=1, ge=0, le=24)
    hp_flat: int = Field(default=0, ge=0)
    hp_dice_per_level: str = Field(
        default="",
        pattern=r"^([1-9][0-9]?d[1-9][0-9]{0,2})?$",
        description="Dice rolled per level, e.g. 1d8 (level 3: 3d8); empty for none.",
    )
    needs_at_least_1_hp: bool = True
    exhaustion_reduction: int = Field(default=0, ge=0, le=6)
    restores_hp_max: bool = False
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


class RestRules(Section):
    short: RestKind | None = None
    long: RestKind | None = None


class Ruleset(Section):
    """One rule variant: a complete, validated set of switches and tables."""

    schema_version: Literal[1] = Field(description="Version of this schema; currently 1.")
    extends: Name | None = Field(default=None, description="Id of the ruleset this one overrides.")
    name: str = Field(min_length=1, max_length=80)
    description: str = Field(default="", max_length=4000)
    source: str = Field(default="", max_length=400, description="The rules document.")
    surprise: SurpriseRules = SurpriseRules()
    initiative: InitiativeRules = InitiativeRules()
    economy: EconomyRules = EconomyRules()
    actions: dict[Name, ActionDef] = Field(min_length=1)
    movement: MovementRules = MovementRules()
    attacks: AttackRules = AttackRules()
    grappling: GrappleRules | None = None
    damage: DamageRules
    hit_points: HitPointRules = HitPointRules()
    death_saves: DeathSaveRules = DeathSaveRules()
    stabilizing: StabilizeRules = StabilizeRules()
    knockout: KnockoutRules = KnockoutRules()
    massive_damage: MassiveDamageRules | None = None
    conditions: dict[Name, ConditionDef] = Field(min_length=1)
    exhaustion: tuple[ExhaustionLevel, ...] = ()
    underwater: UnderwaterRules | None = None
    rests: RestRules = RestRules()

    @model_validator(mode="after")
    def _references_exist(self) -> Ruleset:
        for name, condition in self.conditions.items():
            for implied in condition.implies:
                if implied not in self.conditions:
                    raise ValueError(f"conditions.{name}.implies: unknown condition '{implied}'")
        if self.stabilizing.uses not in self.actions:
            raise ValueError(f"stabilizing.uses: unknown action '{self.stabilizing.uses}'")
        mounting = self.movement.mounting
        for action in mounting.controlled_mount_actions if mounting is not None else ():
            if action not in self.actions:
                raise ValueError(
                    f"movement.mounting.controlled_mount_actions: unknown action '{action}'"
                )
        levels = [level.level for level in self.exhaustion]
        if levels != list(range(1, len(levels) + 1)):
            raise ValueError(f"exhaustion: levels must be 1, 2, 3... in order, got {levels}")
        return self

    def condition(self, name: str) -> ConditionDef:
        """The condition called ``name``.

        Raises:
            KeyError: when the ruleset has no such condition.
        """
        return self.conditions[name]

    def condition_effects(self, name: str) -> frozenset[ConditionEffect]:
        """Effects of a condition including those of the conditions it implies."""
        seen: set[str] = set()
        effects: set[ConditionEffect] = set()
        pending = [name]
        while pending:
            current = pending.pop()
            if current in seen or current not in self.conditions:
                continue
            seen.add(current)
            effects.update(self.conditions[current].effects)
            pending.extend(self.conditions[current].implies)
        return frozenset(effects)

    def exhaustion_effects(self, level: int) -> frozenset[ExhaustionEffect]:
        """Cumulative effects of exhaustion ``level`` (0 = none)."""
        return frozenset(e for row in self.exhaustion if row.level <= level for e in row.effects)
