"""Named roles: which of a ruleset's conditions and actions the engine itself must find.

The engine makes a creature prone, grapples it, knocks it unconscious, spends the Attack
action... by role, not by a name written in Python, so a ruleset that renames one (a
"knocked-down" condition for prone) says so here; a role naming nothing in the ruleset is an
error at load, naming the field (``Ruleset._references_exist``).
"""

from __future__ import annotations

from pydantic import Field

from battlemap.rules.schema_base import Name, Section


class ConditionRoles(Section):
    prone: Name = Field(
        default="prone", description="Knocked or dropped prone (shove, fumble, falling off)."
    )
    grappled: Name = Field(default="grappled", description="Held by a grapple.")
    unconscious: Name = Field(default="unconscious", description="Dropped to 0 hit points.")
    stable: Name = Field(default="stable", description="At 0 hit points and stable.")
    stunned: Name = Field(default="stunned", description="Stunned by massive damage.")


class ActionRoles(Section):
    attack: Name = Field(default="attack", description="The Attack action.")
    offhand_attack: Name = Field(
        default="offhand-attack", description="The bonus-action attack after the Attack action."
    )
    opportunity_attack: Name = Field(
        default="opportunity-attack", description="The reaction attack on a creature leaving reach."
    )


class Roles(Section):
    conditions: ConditionRoles = Field(
        default=ConditionRoles(), description="The conditions the engine gives by role."
    )
    actions: ActionRoles = Field(
        default=ActionRoles(), description="The actions the engine spends by role."
    )
