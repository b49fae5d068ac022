"""The 5e-database monster JSON's shared parts, as read: references, damage rolls, actions.

An action's fields that the stat-block actions read (``dc``, ``usage``, Multiattack's
``actions`` / ``action_options``, a breath weapon's ``options``) are taken as any JSON here
and read leniently by ``battlemap.io.monster_actions``: a malformed one keeps the action as
text with a note instead of refusing the file.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict, Field

from battlemap.model.statblock import Damage


class Ref(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)
    index: str = Field(max_length=200)
    name: str = Field(default="", max_length=200)


class DamageRollJson(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)
    damage_dice: str | None = Field(default=None, max_length=20)
    damage_type: Ref | None = None
    notes: str = Field(default="", max_length=200)


class DamageOptionsJson(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)
    options: list[DamageRollJson] = Field(default=[], max_length=20)


class DamageJson(DamageRollJson):
    """A damage roll, or (with ``choose``) a set of alternative rolls under ``from``."""

    choose: int | None = Field(default=None, ge=0, le=20)
    choices: DamageOptionsJson | None = Field(default=None, alias="from")


class ActionJson(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)
    name: str = Field(min_length=1, max_length=200)
    desc: str = Field(default="", max_length=20_000)
    attack_bonus: int | None = Field(default=None, ge=-10, le=40)
    damage: list[DamageJson] = Field(default=[], max_length=20)
    dc: object = None
    usage: object = None
    multiattack_type: object = None
    actions: object = None
    action_options: object = None
    options: object = None


def dice_text(text: str) -> str:
    return re.sub(r"\s+", "", text)


def damage_from_json(entries: list[DamageJson]) -> tuple[Damage, ...]:
    """Damage rolls; rolls of one ``choose`` entry share a ``choice`` number. Entries without
    dice or type (a save's text-only effect) are skipped."""
    damage: list[Damage] = []
    for group, entry in enumerate(entries):
        if entry.choose is not None:
            rolls, choice = (entry.choices.options if entry.choices else []), group
        else:
            rolls, choice = [entry], None
        damage += [
            Damage(
                dice=dice_text(roll.damage_dice),
                type=roll.damage_type.index,
                choice=choice,
                note=roll.notes,
            )
            for roll in rolls
            if roll.damage_dice is not None and roll.damage_type is not None
        ]
    return tuple(damage)
