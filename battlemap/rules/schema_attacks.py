"""Ruleset sections for attack rolls, roll tables, cover, flanking, attack options and grappling."""

from __future__ import annotations

from pydantic import Field, model_validator

from battlemap.model.features import CoverDegree
from battlemap.rules.enums import (
    AcFloor,
    CriticalDamage,
    TwoWeaponMode,
)
from battlemap.rules.schema_base import Fraction, Name, Section

# --- attacks -------------------------------------------------------------------------------


class TableRow(Section):
    low: int = Field(ge=1, le=100, description="Lowest roll of this row.")
    high: int = Field(ge=1, le=100, description="Highest roll of this row.")
    result: str = Field(max_length=40, description="Machine name of the outcome.")
    description: str = Field(
        max_length=400, description="What the result does at the table, shown to the DM."
    )


class RollTable(Section):
    die: str = Field(
        default="1d20",
        pattern=r"^1d[1-9][0-9]{0,2}$",
        description="The one die rolled on the table (1d20, 1d100); rows cover 1 to its sides.",
    )
    rows: tuple[TableRow, ...] = Field(
        min_length=1, description="Rows in order, covering 1 to the die's sides with no gap."
    )

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
    half_bonus: int = Field(default=2, description="AC bonus of half cover.")
    three_quarters_bonus: int = Field(default=5, description="AC bonus of three-quarters cover.")
    applies_to_dex_saves: bool = Field(
        default=True, description="Cover adds the same bonus to Dexterity saves."
    )

    def bonus(self, degree: CoverDegree) -> int | None:
        """The AC (and Dexterity save) bonus of ``degree``: 0 for none, None for total cover
        (the target can't be targeted). The one cover-to-bonus table."""
        return {
            CoverDegree.NONE: 0,
            CoverDegree.HALF: self.half_bonus,
            CoverDegree.THREE_QUARTERS: self.three_quarters_bonus,
        }.get(degree)


class FlankingRules(Section):
    enabled: bool = Field(
        default=False,
        description="The flanking rule is used: melee attacks against a flanked target have"
        " advantage.",
    )
    both_must_threaten: bool = Field(
        default=True,
        description="The ally must threaten the target too (in reach, able to act, no total"
        " cover); false: standing opposite is enough.",
    )
    min_reach_feet: int = Field(
        default=5, ge=0, description="Least reach a flanker needs (5: reach 0 can't flank)."
    )


class CalledShotRules(Section):
    disadvantage: bool = Field(
        default=True, description="A called shot is rolled with disadvantage."
    )
    ac_bonus: int = Field(
        default=2, description="The target's AC against a called shot rises by this."
    )
    auto_fail_if_already_disadvantaged: bool = Field(
        default=True, description="A called shot on an attack that already has disadvantage fails."
    )


class TargetStrikeRules(Section):
    stamina_cost: int = Field(default=2, ge=0, description="Stamina points a target strike spends.")
    or_disadvantage: bool = Field(
        default=True, description="Without the stamina it may be made with disadvantage instead."
    )
    not_if_already_disadvantaged: bool = Field(
        default=True, description="Not allowed on an attack that already has disadvantage."
    )
    not_with_penalty_at_least: int = Field(
        default=5, ge=0, description="Not allowed with a roll penalty of this much or more."
    )
    maximise_damage_dice: bool = Field(
        default=True, description="A hit deals the maximum on its damage dice."
    )


class TwoWeaponRules(Section):
    mode: TwoWeaponMode = TwoWeaponMode.BONUS_ATTACK
    offhand_adds_negative_modifier: bool = Field(
        default=False,
        description="The off-hand attack's damage adds the ability modifier even when it is"
        " negative.",
    )
    light_weapons: tuple[Name, ...] = Field(
        default=(), description="Weapons allowed off-hand; empty means any light weapon."
    )


class ProneRules(Section):
    melee_within_feet: int = Field(
        default=5, description="Attackers this close to a prone target count as near."
    )
    attackers_within_have_advantage: bool = Field(
        default=True, description="Near attackers have advantage against a prone target."
    )
    farther_attackers_have_disadvantage: bool = Field(
        default=True, description="Farther attackers have disadvantage against a prone target."
    )


class UnarmedStrikeRules(Section):
    damage: str = Field(
        default="1 + str",
        max_length=40,
        description="Damage of an unarmed strike: '1 + str' is 1 plus the Strength modifier.",
    )
    minimum_damage: int = Field(
        default=0, ge=0, description="Least damage an unarmed strike deals."
    )


class AttackRules(Section):
    natural_20_hits_and_crits: bool = Field(
        default=True, description="A natural 20 always hits and is a critical hit."
    )
    natural_1_misses: bool = Field(default=True, description="A natural 1 always misses.")
    ac_floor: AcFloor = AcFloor.NONE
    critical_damage: CriticalDamage = CriticalDamage.DOUBLE_DICE
    fumble_table: RollTable | None = Field(
        default=None, description="Table rolled on a natural 1; null: no fumbles."
    )
    cover: CoverRules = Field(default=CoverRules(), description="Cover's bonus to AC and saves.")
    flanking: FlankingRules = Field(
        default=FlankingRules(), description="The optional flanking rule."
    )
    called_shot: CalledShotRules | None = Field(
        default=None, description="Called shots at a body part; null: none."
    )
    target_strike: TargetStrikeRules | None = Field(
        default=None, description="Target strikes paid with stamina; null: none."
    )
    two_weapon: TwoWeaponRules = Field(
        default=TwoWeaponRules(), description="Fighting with a weapon in each hand."
    )
    prone_target: ProneRules = Field(
        default=ProneRules(), description="Attacks against a prone creature."
    )
    unarmed_strike: UnarmedStrikeRules = Field(
        default=UnarmedStrikeRules(), description="Unarmed strikes."
    )
    ranged_in_melee_disadvantage: bool = Field(
        default=True,
        description="A ranged attack with a hostile creature within 5 ft has disadvantage.",
    )
    long_range_disadvantage: bool = Field(
        default=True,
        description="An attack beyond normal range (up to long range) has disadvantage.",
    )
    unseen_target_disadvantage: bool = Field(
        default=True,
        description="An attack against a target the attacker can't see has disadvantage.",
    )
    unseen_attacker_advantage: bool = Field(
        default=True, description="An attacker the target can't see has advantage."
    )


class GrappleRules(Section):
    max_size_larger: int = Field(
        default=1,
        ge=0,
        le=5,
        description="A grappler can grapple a target at most this many sizes larger.",
    )
    needs_free_hand: bool = Field(default=True, description="The grappler needs a free hand.")
    auto_success_vs_incapacitated: bool = Field(
        default=False,
        description="A grapple against an incapacitated target succeeds without a contest.",
    )
    escape_uses_escape_dc: bool = Field(
        default=True,
        description="Escaping uses the grappler's escape DC when its stat block has one.",
    )
    drag_halves_speed_unless_smaller_by: int = Field(
        default=2,
        ge=0,
        le=5,
        description="Moving a grappled creature halves the grappler's speed unless it is at least"
        " this many sizes smaller.",
    )
    grapple_move: bool = Field(
        default=False, description="The grapple-move option: the grappler moves with its target."
    )
    grapple_move_fraction_of_speed: Fraction = Field(
        default=0.5,
        gt=0,
        le=1,
        description="How far a grapple move goes, as a fraction of the grappler's speed.",
    )
    shove_push_feet: int = Field(
        default=5, ge=0, description="How far a successful shove pushes the target."
    )
