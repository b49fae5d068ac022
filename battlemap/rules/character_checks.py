"""A creature's own numbers for the checks the engine rolls: skills and level.

The stat block a creature was made from is the one source (a player character's sheet gives
proficiencies and the level its proficiency bonus: ``StatBlock.skill_bonus``); without a
trained skill there, the creature's own ability scores (``Creature.stats``) apply, so a DM's
edit of a token's scores counts. Saving throws follow the same rule (``save_bonus_of``).
"""

from __future__ import annotations

from battlemap.model.character import Skill
from battlemap.model.creature import Creature
from battlemap.model.statblock import Ability as StatAbility
from battlemap.model.statblock import StatBlock
from battlemap.rules.combat_ops import stats_of
from battlemap.rules.enums import Ability


def skill_bonus_of(creature: Creature, skill: Skill) -> int:
    """The creature's bonus for a ``skill`` check (Athletics, Medicine, Perception...).

    A skill trained in its stat block (listed, or proficient on the character sheet) wins;
    else the ability modifier of its own scores (Stealth: the token's Stealth bonus, which
    falls back to the Dexterity modifier).
    """
    block = creature.statblock
    if block is not None:
        trained = block.trained_skill(skill)
        if trained is not None:
            return trained
    stats = stats_of(creature)
    if skill is Skill.STEALTH:
        return stats.stealth_bonus()
    return stats.modifier(skill.ability.value)


def level_of(creature: Creature) -> int | None:
    """The creature's level: its own (the Creature dock's), else its stat block's; None for
    a monster or a character whose level is not recorded."""
    if creature.level is not None:
        return creature.level
    return creature.statblock.level if creature.statblock is not None else None


def check_bonus_of(creature: Creature, skill: str, ability: str) -> int:
    """The bonus of a ruleset's check named by its ``skill`` and ``ability`` (a ruleset
    names them as text: ``Medicine``, ``wisdom``): the skill's bonus when it is one of the
    SRD's skills, else the ability modifier."""
    try:
        known = Skill(skill)
    except ValueError:
        return stats_of(creature).modifier(ability)
    return skill_bonus_of(creature, known)


def save_bonus_of(creature: Creature, block: StatBlock | None, ability: Ability) -> int:
    """The creature's own bonus for an ``ability`` saving throw (before cover).

    A proficient save of its stat block ``block`` wins (listed in a monster's; a character
    sheet's proficiency: modifier + proficiency bonus from the level); else the ability
    modifier of the creature's own scores (``Creature.stats``), else of the stat block's
    scores; a creature with neither has all 10s (+0).
    """
    if block is not None:
        listed = StatAbility[ability.name]  # the stat block's own enum, same member names
        proficient = block.proficient_save(listed)
        if proficient is not None:
            return proficient
        if creature.stats is None:
            return block.abilities.modifier(ability.value)
    return stats_of(creature).modifier(ability.value)
