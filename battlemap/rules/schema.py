"""The ``Ruleset`` schema: every switch and table a rule variant can change.

A ruleset file is YAML; the variants ``extends: srd-5e`` and override parts of it
(``battlemap.rules.loader`` merges them). Every section maps to a row of the rules-sources
table of differences; the sections live in ``schema_turns``, ``schema_attacks`` and
``schema_vitals``. Fractions (``0.5``) multiply a value and then round as ``rounding`` says.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from battlemap.rules.enums import (
    ConditionEffect,
    ExhaustionEffect,
)
from battlemap.rules.schema_attacks import (
    AttackRules,
    CalledShotRules,
    CoverRules,
    FlankingRules,
    GrappleRules,
    ProneRules,
    RollTable,
    TableRow,
    TargetStrikeRules,
    TwoWeaponRules,
    UnarmedStrikeRules,
)
from battlemap.rules.schema_base import (
    Described,
    Fraction,
    Name,
    Section,
)
from battlemap.rules.schema_light import LightRules
from battlemap.rules.schema_roles import (
    ACTION_ROLE_KINDS,
    GRAPPLING_ACTION_ROLES,
    ActionRoles,
    ConditionRoles,
    Roles,
)
from battlemap.rules.schema_turns import (
    ActionDef,
    ClimbSwimRules,
    EconomyRules,
    InitiativeRules,
    JumpRules,
    MountRules,
    MovementRules,
    SqueezeRules,
    SurpriseRules,
)
from battlemap.rules.schema_vitals import (
    BloodiedRules,
    BrinkOfDeathRules,
    ConcentrationRules,
    ConditionDef,
    DamageRules,
    DamageType,
    DeathSaveRules,
    ExhaustionLevel,
    HitPointRules,
    KnockoutRules,
    MassiveDamageRules,
    RestKind,
    RestRules,
    SentenceRules,
    StabilizeRules,
    UnderwaterRules,
    WoundedRules,
)

SCHEMA_VERSION = 1


class Ruleset(Section):
    """One rule variant: a complete, validated set of switches and tables."""

    schema_version: Literal[1] = Field(description="Version of this schema; currently 1.")
    extends: Name | None = Field(default=None, description="Id of the ruleset this one overrides.")
    name: str = Field(min_length=1, max_length=80, description="Name shown in the Rules menu.")
    description: str = Field(
        default="", max_length=4000, description="What sets this variant apart, shown to the DM."
    )
    source: str = Field(default="", max_length=400, description="The rules document.")
    surprise: SurpriseRules = Field(
        default=SurpriseRules(), description="Surprise at the start of a combat."
    )
    initiative: InitiativeRules = Field(
        default=InitiativeRules(), description="How the turn order is decided."
    )
    economy: EconomyRules = Field(
        default=EconomyRules(),
        description="Action economy: object interactions, reactions, Dash, Disengage, Dodge.",
    )
    actions: dict[Name, ActionDef] = Field(
        min_length=1, description="Every action a creature may take, by id."
    )
    movement: MovementRules = Field(
        default=MovementRules(),
        description="Movement costs, prone, squeezing, jumping, climbing, swimming and mounts.",
    )
    attacks: AttackRules = Field(
        default=AttackRules(),
        description="Attack rolls: naturals, cover, flanking, critical hits and attack options.",
    )
    grappling: GrappleRules | None = Field(
        default=None, description="Grapple and shove; null: none."
    )
    damage: DamageRules = Field(
        description="Damage types and how resistance, vulnerability and immunity apply."
    )
    hit_points: HitPointRules = Field(
        default=HitPointRules(), description="Temporary HP, healing, bloodied and what 0 HP means."
    )
    death_saves: DeathSaveRules = Field(
        default=DeathSaveRules(),
        description="Death saving throws and what dropping to 0 HP leads to.",
    )
    stabilizing: StabilizeRules = Field(
        default=StabilizeRules(), description="Stabilising a dying creature."
    )
    knockout: KnockoutRules = Field(
        default=KnockoutRules(), description="Knocking a creature out instead of killing it."
    )
    massive_damage: MassiveDamageRules | None = Field(
        default=None, description="The massive damage table; null: none."
    )
    conditions: dict[Name, ConditionDef] = Field(
        min_length=1, description="Every condition, by id."
    )
    exhaustion: tuple[ExhaustionLevel, ...] = Field(
        default=(), description="Exhaustion levels in order; empty: no exhaustion."
    )
    light: LightRules = Field(
        default=LightRules(),
        description="What dim light and darkness do to sight (unseen, obscured), darkvision.",
    )
    underwater: UnderwaterRules | None = Field(
        default=None, description="Underwater combat; null: none."
    )
    rests: RestRules = Field(default=RestRules(), description="Short and long rests.")
    concentration: ConcentrationRules = Field(
        default=ConcentrationRules(),
        description="The concentration save's DC (no document states it: see the section).",
    )
    roles: Roles = Field(
        default=Roles(),
        description="Which conditions and actions the engine finds by role (renamed ones).",
    )

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
        for field, name in self.roles.conditions:
            if name not in self.conditions:
                raise ValueError(
                    f"roles.conditions.{field}: no condition '{name}' in this ruleset (a renamed"
                    " condition names its role here)"
                )
        self._action_roles_exist()
        levels = [level.level for level in self.exhaustion]
        if levels != list(range(1, len(levels) + 1)):
            raise ValueError(f"exhaustion: levels must be 1, 2, 3... in order, got {levels}")
        return self

    def _action_roles_exist(self) -> None:
        for field, name in self.roles.actions:
            if name is None:
                if field in GRAPPLING_ACTION_ROLES and self.grappling is not None:
                    raise ValueError(
                        f"roles.actions.{field}: this ruleset has grappling rules, so it must"
                        f" name its {field} action here"
                    )
                continue
            if name not in self.actions:
                raise ValueError(
                    f"roles.actions.{field}: no action '{name}' in this ruleset (a renamed"
                    " action names its role here)"
                )
            wanted = ACTION_ROLE_KINDS[field]
            if self.actions[name].kind is not wanted:
                raise ValueError(
                    f"roles.actions.{field}: action '{name}' is of kind"
                    f" '{self.actions[name].kind.value}', not '{wanted.value}'"
                )

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


__all__ = [  # the sections are defined in schema_* modules; import them from here
    "SCHEMA_VERSION",
    "ActionDef",
    "ActionRoles",
    "AttackRules",
    "BloodiedRules",
    "BrinkOfDeathRules",
    "CalledShotRules",
    "ClimbSwimRules",
    "ConditionDef",
    "ConditionRoles",
    "CoverRules",
    "DamageRules",
    "DamageType",
    "DeathSaveRules",
    "Described",
    "EconomyRules",
    "ExhaustionLevel",
    "FlankingRules",
    "Fraction",
    "GrappleRules",
    "HitPointRules",
    "InitiativeRules",
    "JumpRules",
    "KnockoutRules",
    "LightRules",
    "MassiveDamageRules",
    "MountRules",
    "MovementRules",
    "Name",
    "ProneRules",
    "RestKind",
    "RestRules",
    "Roles",
    "RollTable",
    "Ruleset",
    "Section",
    "SentenceRules",
    "SqueezeRules",
    "StabilizeRules",
    "SurpriseRules",
    "TableRow",
    "TargetStrikeRules",
    "TwoWeaponRules",
    "UnarmedStrikeRules",
    "UnderwaterRules",
    "WoundedRules",
]
