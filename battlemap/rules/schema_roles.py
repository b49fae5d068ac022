"""Named roles: which of a ruleset's conditions and actions the engine itself must find.

The engine makes a creature prone, grapples it, knocks it unconscious, spends the Attack
action... by role, not by a name written in Python, so a ruleset that renames one (a
"knocked-down" condition for prone) says so here; a role naming nothing in the ruleset is an
error at load, naming the field (``Ruleset._references_exist``). An action role must name an
action of its kind (``ACTION_ROLE_KINDS``); the grapple and shove roles are needed exactly when
the ruleset has grappling rules, and disarm is optional (only gms-den has a Disarm action).
"""

from __future__ import annotations

from pydantic import Field

from battlemap.rules.enums import ActionKind
from battlemap.rules.schema_base import Name, Section


class ConditionRoles(Section):
    prone: Name = Field(
        default="prone", description="Knocked or dropped prone (shove, fumble, falling off)."
    )
    grappled: Name = Field(default="grappled", description="Held by a grapple.")
    unconscious: Name = Field(default="unconscious", description="Dropped to 0 hit points.")
    stable: Name = Field(default="stable", description="At 0 hit points and stable.")
    stunned: Name = Field(default="stunned", description="Stunned by massive damage.")
    invisible: Name = Field(
        default="invisible",
        description="Can't be seen: unseen by the players' window, attacks by and against it.",
    )
    blinded: Name = Field(default="blinded", description="Can't see: attacks and sight.")


class ActionRoles(Section):
    attack: Name = Field(default="attack", description="The Attack action.")
    offhand_attack: Name = Field(
        default="offhand-attack", description="The bonus-action attack after the Attack action."
    )
    opportunity_attack: Name = Field(
        default="opportunity-attack", description="The reaction attack on a creature leaving reach."
    )
    dash: Name = Field(default="dash", description="The Dash action (a rogue's Cunning Action).")
    use_object: Name = Field(
        default="use-object",
        description="The action an object interaction takes once the free one is used.",
    )
    grapple: Name | None = Field(
        default=None,
        description="The grapple in place of an attack; required with grappling rules.",
    )
    shove: Name | None = Field(
        default=None,
        description="The shove in place of an attack; required with grappling rules.",
    )
    disarm: Name | None = Field(
        default=None, description="The disarm in place of an attack; null: no Disarm."
    )


ACTION_ROLE_KINDS = {
    "attack": ActionKind.ATTACK,
    "offhand_attack": ActionKind.OFFHAND_ATTACK,
    "opportunity_attack": ActionKind.OPPORTUNITY_ATTACK,
    "dash": ActionKind.DASH,
    "use_object": ActionKind.USE_OBJECT,
    "grapple": ActionKind.GRAPPLE,
    "shove": ActionKind.SHOVE,
    "disarm": ActionKind.DISARM,
}
"""The kind of action each action role must name (a Dash role naming an attack is refused)."""
GRAPPLING_ACTION_ROLES = ("grapple", "shove")
"""The action roles a ruleset with grappling rules must fill."""


class Roles(Section):
    conditions: ConditionRoles = Field(
        default=ConditionRoles(), description="The conditions the engine gives by role."
    )
    actions: ActionRoles = Field(
        default=ActionRoles(), description="The actions the engine spends by role."
    )
