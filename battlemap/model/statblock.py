"""Stat blocks: the numbers of a monster or player character, as a library keeps them.

A ``StatBlock`` is a template; a ``Creature`` on the map is made from one (see
``battlemap.io.monsters.creature_from_statblock``). Only facts and numbers are kept, no
description prose. Distances are in feet; dice are in ``NdS+M`` notation.
"""

from __future__ import annotations

from enum import StrEnum
from fractions import Fraction
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, model_validator

from battlemap.model.abilities import Ability as Ability  # re-exported: its old home
from battlemap.model.character import CharacterSheet, Skill, proficiency_for_level
from battlemap.model.damage_roll import DICE_PATTERN as DICE_PATTERN
from battlemap.model.damage_roll import Damage as Damage
from battlemap.model.damage_roll import Dice as Dice
from battlemap.model.damage_roll import ShortText as ShortText
from battlemap.model.limits import MAX_CHARACTER_LEVEL, MAX_HP, MAX_NAME
from battlemap.model.statblock_actions import (
    Legendary,
    MultiattackOption,
    SaveAction,
    TextAction,
)
from battlemap.model.traits import Size, Speeds

Feet = Annotated[int, Field(ge=0, le=10_000)]


def format_cr(challenge_rating: float) -> str:
    """A challenge rating as printed: ``1/8``, ``1/4``, ``1/2``, ``0``, ``5``."""
    return str(Fraction(challenge_rating).limit_denominator(8))


class AbilityScores(BaseModel):
    """The six ability scores (1-30)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    strength: int = Field(default=10, ge=1, le=30)
    dexterity: int = Field(default=10, ge=1, le=30)
    constitution: int = Field(default=10, ge=1, le=30)
    intelligence: int = Field(default=10, ge=1, le=30)
    wisdom: int = Field(default=10, ge=1, le=30)
    charisma: int = Field(default=10, ge=1, le=30)

    def score(self, ability: str) -> int:
        """The score of ``ability``: an ``Ability``, ``strength``/``dexterity``/... or
        ``str``/``dex``/..."""
        return int(getattr(self, _ABILITY_FIELDS.get(ability, ability)))

    def modifier(self, ability: str) -> int:
        """The ability modifier: (score - 10) / 2 rounded down, so 9 gives -1 and 11 gives 0."""
        return (self.score(ability) - 10) // 2


_ABILITY_FIELDS = {
    "str": "strength",
    "dex": "dexterity",
    "con": "constitution",
    "int": "intelligence",
    "wis": "wisdom",
    "cha": "charisma",
}


class Senses(BaseModel):
    """Special senses in feet (0: none) and passive Wisdom (Perception)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    passive_perception: int = Field(default=10, ge=0, le=50)
    darkvision: Feet = 0
    blindsight: Feet = 0
    truesight: Feet = 0
    tremorsense: Feet = 0


class AttackKind(StrEnum):
    MELEE = "melee"
    RANGED = "ranged"
    MELEE_OR_RANGED = "melee or ranged"
    """A thrown weapon: it has both a reach and a range."""


class Attack(BaseModel):
    """An attack: to-hit bonus, reach (melee) and/or normal/long range (ranged), damage."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: ShortText = Field(min_length=1)
    kind: AttackKind
    spell: bool = Field(default=False, description="A spell attack rather than a weapon's.")
    to_hit: int = Field(ge=-10, le=40)
    reach: Feet | None = Field(default=None, description="Melee reach in feet.")
    range_normal: Feet | None = None
    range_long: Feet | None = Field(default=None, description="None: no long range.")
    damage: tuple[Damage, ...] = Field(default=(), max_length=20)

    @model_validator(mode="after")
    def _distances_match_kind(self) -> Attack:
        if self.kind is not AttackKind.RANGED and self.reach is None:
            raise ValueError(f"a {self.kind.value} attack needs a reach")
        if self.kind is not AttackKind.MELEE and self.range_normal is None:
            raise ValueError(f"a {self.kind.value} attack needs a range")
        if self.range_long is not None and (
            self.range_normal is None or self.range_long < self.range_normal
        ):
            raise ValueError("long range must be at least the normal range")
        return self


class StatBlock(BaseModel):
    """A monster or player character as a library keeps it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1, max_length=MAX_NAME)
    size: Size = Size.MEDIUM
    type: ShortText = Field(default="humanoid", min_length=1)
    subtype: ShortText = ""
    alignment: ShortText = ""
    challenge_rating: float = Field(default=0, ge=0, le=30, allow_inf_nan=False)
    xp: int = Field(default=0, ge=0, le=1_000_000)
    proficiency_bonus: int = Field(default=2, ge=0, le=10)
    armor_class: int = Field(default=10, ge=0, le=50)
    armor_notes: ShortText = Field(default="", description="e.g. 'natural armor'")
    hit_points: int = Field(default=1, ge=1, le=MAX_HP, description="Average hit points.")
    hit_dice: Dice = "1d8"
    """The hit point roll, e.g. ``2d6`` or ``12d10+36``: rolled HP use it."""
    speeds: Speeds = Speeds()
    abilities: AbilityScores = AbilityScores()
    saving_throws: dict[Ability, int] = Field(default_factory=dict)
    """Only proficient saves; the others are the ability modifier."""
    skills: dict[Annotated[str, Field(max_length=40)], int] = Field(
        default_factory=dict, max_length=30
    )
    senses: Senses = Senses()
    languages: ShortText = ""
    damage_resistances: tuple[ShortText, ...] = Field(default=(), max_length=30)
    damage_immunities: tuple[ShortText, ...] = Field(default=(), max_length=30)
    damage_vulnerabilities: tuple[ShortText, ...] = Field(default=(), max_length=30)
    condition_immunities: tuple[ShortText, ...] = Field(default=(), max_length=30)
    attacks: tuple[Attack, ...] = Field(default=(), max_length=50)
    level: int | None = Field(
        default=None, ge=1, le=MAX_CHARACTER_LEVEL, exclude_if=lambda level: level is None
    )
    """A player character's level (the party form sets it); None for a monster. Left out of
    the saved data when None, so files and the bundled library stay as before it existed."""
    attacks_per_action: int = Field(
        default=1,
        ge=1,
        le=10,
        exclude_if=lambda count: count == 1,
        description="Attacks one Attack action makes (Extra Attack: 2 for a level-5 fighter). "
        "A monster's Multiattack options are kept with its actions. Left out of the saved data "
        "when 1.",
    )
    character: CharacterSheet | None = Field(
        default=None,
        exclude_if=lambda sheet: sheet is None,
        description="A player character's proficiencies and features (the party form sets "
        "them); None for a monster. Left out of the saved data when None.",
    )
    multiattack: tuple[MultiattackOption, ...] = Field(
        default=(),
        max_length=10,
        exclude_if=lambda options: not options,
        description="The ways its Multiattack may be made (the Attack action offers them). "
        "Left out of the saved data when it has none.",
    )
    save_actions: tuple[SaveAction, ...] = Field(
        default=(),
        max_length=30,
        exclude_if=lambda actions: not actions,
        description="Actions that make creatures save (breath weapons): DC, ability, damage, "
        "area, uses. Left out of the saved data when it has none.",
    )
    text_actions: tuple[TextAction, ...] = Field(
        default=(),
        max_length=60,
        exclude_if=lambda actions: not actions,
        description="Actions, reactions and limited-use traits the app keeps as text, each "
        "with a note. Left out of the saved data when it has none.",
    )
    legendary: Legendary | None = Field(
        default=None,
        exclude_if=lambda legendary: legendary is None,
        description="Legendary actions and resistances; None for most monsters (left out of "
        "the saved data then).",
    )
    lair_actions: tuple[TextAction, ...] = Field(
        default=(),
        max_length=20,
        exclude_if=lambda actions: not actions,
        description="Lair actions, taken on initiative 20 (losing ties). Left out of the "
        "saved data when it has none.",
    )

    @property
    def cr_text(self) -> str:
        """The challenge rating as printed: ``1/8``, ``1/4``, ``1/2``, ``0``, ``5``."""
        return format_cr(self.challenge_rating)

    @property
    def reach(self) -> int:
        """The longest melee reach of its attacks in feet; 5 when it has none."""
        reaches = [a.reach for a in self.attacks if a.reach is not None]
        return max(reaches, default=5)

    @property
    def proficiency(self) -> int:
        """The proficiency bonus: from the level for a character with a level (+2 at 1-4,
        +3 at 5-8...), else the stat block's own."""
        if self.level is None:
            return self.proficiency_bonus
        return proficiency_for_level(self.level)

    def saving_throw(self, ability: Ability) -> int:
        """The saving throw bonus: the listed or proficient one, else the ability modifier."""
        bonus = self.proficient_save(ability)
        return bonus if bonus is not None else self.abilities.modifier(ability)

    def proficient_save(self, ability: Ability) -> int | None:
        """The bonus of a save it is proficient in (listed in the stat block, or on the
        character sheet: modifier + proficiency); None when it adds only the modifier."""
        if ability in self.saving_throws:
            return self.saving_throws[ability]
        if self.character is not None and ability in self.character.save_proficiencies:
            return self.abilities.modifier(ability) + self.proficiency
        return None

    def skill_bonus(self, skill: Skill) -> int:
        """The bonus of a ``skill`` check: listed in the stat block, else the ability
        modifier plus the sheet's proficiency (twice with expertise)."""
        bonus = self.trained_skill(skill)
        return bonus if bonus is not None else self.abilities.modifier(skill.ability)

    def trained_skill(self, skill: Skill) -> int | None:
        """The bonus of a skill listed in the stat block or proficient on the character
        sheet; None when only the ability modifier applies."""
        if skill.value in self.skills:
            return self.skills[skill.value]
        if self.character is not None and self.character.proficiency_multiplier(skill):
            multiplier = self.character.proficiency_multiplier(skill)
            return self.abilities.modifier(skill.ability) + multiplier * self.proficiency
        return None

    @property
    def passive_perception(self) -> int:
        """Passive Wisdom (Perception): a character's is 10 + its Perception bonus; a
        monster's is the printed one."""
        if self.character is not None:
            return 10 + self.skill_bonus(Skill.PERCEPTION)
        return self.senses.passive_perception
