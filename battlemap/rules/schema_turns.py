"""Ruleset sections for surprise, initiative, actions, the action economy and movement."""

from __future__ import annotations

from pydantic import Field

from battlemap.rules.enums import (
    Ability,
    ActionCost,
    ActionKind,
    DiagonalRule,
    DisengageDuration,
    DodgeEnd,
    EconomyPart,
    InitiativeMode,
    InitiativeTieBreak,
    Resolver,
    SurpriseMode,
)
from battlemap.rules.schema_base import Described, Fraction, Name, Section

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
    needs_target: bool = Field(default=False, description="Taking it needs a target creature.")
    source: str = Field(default="", max_length=200, description="Section of the rules document.")


class EconomyRules(Section):
    free_object_interactions: int = Field(
        default=1,
        ge=0,
        le=10,
        description="Object interactions (draw a sword, open a door) free each turn.",
    )
    extra_object_interaction_costs: ActionCost = ActionCost.ACTION
    reactions_per_round: int = Field(
        default=1,
        ge=0,
        le=10,
        description="Reactions a creature may take from the start of one turn to the next.",
    )
    dash_stacks: bool = Field(
        default=False, description="Each extra Dash in a turn adds the speed again."
    )
    disengage_duration: DisengageDuration = DisengageDuration.END_OF_TURN
    dodge_ends_when: tuple[DodgeEnd, ...] = Field(
        default=(DodgeEnd.INCAPACITATED,),
        description="What ends a Dodge before the creature's next turn starts.",
    )
    bonus_action_spell_limits_action_to_cantrip: bool = Field(
        default=True,
        description="After a bonus-action spell, a spell with the action must be a cantrip (srd"
        " 'Bonus Action' casting time).",
    )


# --- movement ------------------------------------------------------------------------------


class SqueezeRules(Section):
    extra_cost_per_foot: int = Field(
        default=1, ge=0, le=10, description="Extra feet per foot moved while squeezing."
    )
    attacks_with_disadvantage: bool = Field(
        default=True, description="A squeezing creature's attacks have disadvantage."
    )
    dex_saves_with_disadvantage: bool = Field(
        default=True, description="A squeezing creature's Dexterity saves have disadvantage."
    )
    attacked_with_advantage: bool = Field(
        default=True, description="Attacks against a squeezing creature have advantage."
    )


class JumpRules(Section):
    high_jump_base: int = Field(default=3, description="Running high jump = base + Str mod ft.")
    long_jump_uses_str_score: bool = Field(
        default=True,
        description="A running long jump covers the Strength score in feet (false: no base).",
    )
    standing_fraction: Fraction = Field(
        default=0.5,
        gt=0,
        le=1,
        description="A jump without the run-up covers this fraction of the running jump.",
    )
    run_up_feet: int = Field(
        default=10, ge=0, description="Feet moved on foot right before a running jump."
    )


class ClimbSwimRules(Section):
    """Climbing or swimming without the matching speed: the Athletics check, and climbing's
    speed. Swimming's cost is ``MovementRules.swim_extra_cost_per_foot`` alone (the geometry
    charges the water), so it is not slowed again by ``speed_fraction``."""

    check_ability: Ability = Ability.STR
    check_skill: str = Field(default="Athletics", description="Skill of the check.")
    speed_fraction: Fraction = Field(
        default=0.5, gt=0, le=1, description="Speed climbing without a climb speed (x speed)."
    )
    exhaustion_on_failure: int = Field(
        default=1, ge=0, le=6, description="Exhaustion levels gained on a failed check."
    )


class MountRules(Section):
    cost_fraction_of_speed: Fraction = Field(
        default=0.5,
        gt=0,
        le=1,
        description="Mounting or dismounting costs this fraction of the rider's speed.",
    )
    fall_off_save_dc: int = Field(
        default=10,
        ge=1,
        le=40,
        description="Dexterity save to stay on when the mount is moved or the rider knocked prone.",
    )
    controlled_mount_actions: tuple[Name, ...] = Field(
        default=("dash", "disengage", "dodge"),
        description="Actions a controlled mount may take (ids in actions).",
    )
    controlled_vs_independent: bool = Field(
        default=True,
        description="A mount is either controlled (shares its rider's initiative) or acts on its"
        " own.",
    )


class MovementRules(Section):
    diagonal: DiagonalRule = DiagonalRule.ALTERNATING
    difficult_terrain_extra_cost_per_foot: int = Field(
        default=1,
        ge=0,
        le=10,
        description="Extra feet per foot moved in difficult terrain (1: each foot costs 2).",
    )
    creature_space_is_difficult: bool = Field(
        default=True, description="Another creature's space counts as difficult terrain."
    )
    crawl_extra_cost_per_foot: int = Field(
        default=1, ge=0, le=10, description="Extra feet per foot crawled while prone."
    )
    swim_extra_cost_per_foot: int = Field(
        default=1,
        ge=0,
        le=10,
        description="Extra feet per foot moved into water without a swimming speed.",
    )
    drop_prone_cost: int = Field(
        default=0, ge=0, description="Feet of movement dropping prone costs."
    )
    stand_up_fraction_of_speed: Fraction = Field(
        default=0.5,
        gt=0,
        le=1,
        description="Standing up from prone costs this fraction of the walking speed.",
    )
    switching_speeds_subtracts_moved: bool = Field(
        default=True,
        description="Switching speeds (walk, fly...) subtracts what was already moved from the new"
        " speed; false: each speed has its own budget.",
    )
    hostile_pass_through_size_difference: int = Field(
        default=2, ge=0, le=5, description="Size steps apart needed to pass a hostile creature."
    )
    may_end_in_occupied_space: bool = Field(
        default=False, description="A move may end in another creature's space."
    )
    squeezing: SqueezeRules | None = Field(
        default=None, description="Squeezing into a smaller space; null: no squeezing."
    )
    flying_falls_when_prone_or_speed_zero: bool = Field(
        default=False,
        description="A flying creature falls when knocked prone or when its speed drops to 0.",
    )
    jumping: JumpRules | None = Field(
        default=None, description="Long and high jumps; null: no jumping rules."
    )
    climb_swim_without_speed: ClimbSwimRules | None = Field(
        default=None, description="Climbing and swimming without the speed; null: no such rules."
    )
    mounting: MountRules | None = Field(
        default=None, description="Mounted combat; null: no mounts."
    )
