"""A player character's sheet: the proficiencies and class features behind its numbers.

A ``StatBlock`` with a ``character`` sheet is a player character: its proficiency bonus comes
from its level, its saves and skills from its ability scores and proficiencies
(``StatBlock.saving_throw``, ``StatBlock.skill_bonus``), so one edit of a score or the level
changes every panel and every engine check.

What the bonus is for, the documents say: srd-5e.txt "Modifiers to the Roll": "If you are
proficient with the weapon you are attacking with, you can add your proficiency bonus to the
attack roll. When you make a spell attack, you add your proficiency bonus"; legends-of-hyrule
.txt "Proficiency Bonus": "You add your proficiency bonus to your attack roll when you attack
using a weapon with which you have proficiency, as well as when you attack with a spell."
How large it is at each level none of the five documents says; the table is the SRD 5.1's
("Proficiency Bonus", class tables): +2 at levels 1-4, +3 at 5-8, +4 at 9-12, +5 at 13-16,
+6 at 17-20 (and on, one more per 4 levels, for levels past 20).
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field, field_serializer

from battlemap.model.abilities import Ability

MAX_ACTION_SURGES = 2
"""A fighter's Action Surge uses per short rest at most (SRD: two from level 17)."""


class Skill(StrEnum):
    """The SRD's eighteen skills, named as stat blocks print them."""

    ACROBATICS = "Acrobatics"
    ANIMAL_HANDLING = "Animal Handling"
    ARCANA = "Arcana"
    ATHLETICS = "Athletics"
    DECEPTION = "Deception"
    HISTORY = "History"
    INSIGHT = "Insight"
    INTIMIDATION = "Intimidation"
    INVESTIGATION = "Investigation"
    MEDICINE = "Medicine"
    NATURE = "Nature"
    PERCEPTION = "Perception"
    PERFORMANCE = "Performance"
    PERSUASION = "Persuasion"
    RELIGION = "Religion"
    SLEIGHT_OF_HAND = "Sleight of Hand"
    STEALTH = "Stealth"
    SURVIVAL = "Survival"

    @property
    def ability(self) -> Ability:
        """The ability the skill's checks use (SRD "Skills" list)."""
        return SKILL_ABILITY[self]


SKILL_ABILITY: dict[Skill, Ability] = {
    Skill.ATHLETICS: Ability.STR,
    Skill.ACROBATICS: Ability.DEX,
    Skill.SLEIGHT_OF_HAND: Ability.DEX,
    Skill.STEALTH: Ability.DEX,
    Skill.ARCANA: Ability.INT,
    Skill.HISTORY: Ability.INT,
    Skill.INVESTIGATION: Ability.INT,
    Skill.NATURE: Ability.INT,
    Skill.RELIGION: Ability.INT,
    Skill.ANIMAL_HANDLING: Ability.WIS,
    Skill.INSIGHT: Ability.WIS,
    Skill.MEDICINE: Ability.WIS,
    Skill.PERCEPTION: Ability.WIS,
    Skill.SURVIVAL: Ability.WIS,
    Skill.DECEPTION: Ability.CHA,
    Skill.INTIMIDATION: Ability.CHA,
    Skill.PERFORMANCE: Ability.CHA,
    Skill.PERSUASION: Ability.CHA,
}

CUNNING_ACTIONS = ("dash", "disengage", "hide")
"""The ruleset action ids Cunning Action lets a rogue take as a bonus action."""


def proficiency_for_level(level: int) -> int:
    """The proficiency bonus of a character of ``level`` (1-30): +2 at 1-4, +3 at 5-8...

    Past level 20 the table's step goes on (level 21-24: +7), for the rulesets that allow it.
    """
    return 2 + (max(level, 1) - 1) // 4


class CharacterSheet(BaseModel):
    """What makes a stat block a player character's: proficiencies and class features.

    ``expertise`` doubles the proficiency bonus for a skill (it needs no separate proficiency).
    Extra Attack is ``StatBlock.attacks_per_action``.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    save_proficiencies: frozenset[Ability] = Field(
        default=frozenset(), description="Saving throws that add the proficiency bonus."
    )
    skill_proficiencies: frozenset[Skill] = Field(
        default=frozenset(), description="Skills that add the proficiency bonus."
    )
    expertise: frozenset[Skill] = Field(
        default=frozenset(), description="Skills that add twice the proficiency bonus."
    )
    action_surge_uses: int = Field(
        default=0,
        ge=0,
        le=MAX_ACTION_SURGES,
        description="Action Surge: extra actions per short rest (fighter: 1 from level 2).",
    )
    cunning_action: bool = Field(
        default=False, description="Cunning Action: Dash, Disengage or Hide as a bonus action."
    )

    @field_serializer("save_proficiencies", "skill_proficiencies", "expertise")
    def _sorted(self, values: frozenset[StrEnum]) -> list[str]:
        """Saved in a fixed order, so the same sheet always writes the same file."""
        return sorted(value.value for value in values)

    def proficiency_multiplier(self, skill: Skill) -> int:
        """0, 1 (proficient) or 2 (expertise): how many proficiency bonuses the skill adds."""
        if skill in self.expertise:
            return 2
        return 1 if skill in self.skill_proficiencies else 0

    @property
    def bonus_actions(self) -> tuple[str, ...]:
        """The action ids its features let it take as a bonus action."""
        return CUNNING_ACTIONS if self.cunning_action else ()
