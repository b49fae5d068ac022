"""Player characters' sheets: proficiency from the level, saves, skills, passive Perception."""

from __future__ import annotations

import pytest

from battlemap.model.character import CharacterSheet, Skill, proficiency_for_level
from battlemap.model.statblock import Ability, AbilityScores, StatBlock


@pytest.mark.parametrize(
    ("level", "bonus"),
    [(1, 2), (4, 2), (5, 3), (8, 3), (9, 4), (12, 4), (13, 5), (16, 5), (17, 6), (20, 6)],
)
def test_proficiency_bonus_follows_the_level_table(level: int, bonus: int) -> None:
    # SRD 5.1 "Character Advancement": +2 at levels 1-4, +3 at 5-8 ... +6 at 17-20.
    assert proficiency_for_level(level) == bonus
    assert StatBlock(name="Pc", level=level, proficiency_bonus=9).proficiency == bonus


def fighter(**sheet: object) -> StatBlock:
    return StatBlock(
        name="Brakka",
        level=5,
        abilities=AbilityScores(strength=16, dexterity=14, wisdom=12),
        character=CharacterSheet.model_validate(sheet),
    )


def test_a_proficient_save_adds_the_proficiency_bonus_to_the_modifier() -> None:
    block = fighter(save_proficiencies=["strength", "wisdom"])
    assert block.saving_throw(Ability.WIS) == 1 + 3  # Wis 12 at level 5
    assert block.saving_throw(Ability.STR) == 3 + 3
    assert block.saving_throw(Ability.DEX) == 2  # not proficient: the modifier alone
    assert block.proficient_save(Ability.DEX) is None


def test_skills_add_proficiency_once_or_twice_with_expertise() -> None:
    block = fighter(skill_proficiencies=["Athletics"], expertise=["Stealth"])
    assert block.skill_bonus(Skill.ATHLETICS) == 3 + 3
    assert block.skill_bonus(Skill.STEALTH) == 2 + 2 * 3
    assert block.skill_bonus(Skill.MEDICINE) == 1
    assert block.trained_skill(Skill.MEDICINE) is None


def test_passive_perception_of_a_character_is_ten_plus_its_perception() -> None:
    assert fighter().passive_perception == 11
    assert fighter(skill_proficiencies=["Perception"]).passive_perception == 14
    monster = StatBlock(name="Orc", abilities=AbilityScores(wisdom=12))
    assert monster.passive_perception == monster.senses.passive_perception == 10


def test_a_monster_keeps_its_listed_bonuses() -> None:
    orc = StatBlock(
        name="Orc", saving_throws={Ability.CON: 5}, skills={"Intimidation": 2}, proficiency_bonus=2
    )
    assert orc.saving_throw(Ability.CON) == 5 and orc.skill_bonus(Skill.INTIMIDATION) == 2
    assert orc.proficiency == 2 and "character" not in orc.model_dump()


def test_a_sheet_is_saved_in_a_fixed_order_and_reopens_equal() -> None:
    block = fighter(
        save_proficiencies=["wisdom", "strength"],
        skill_proficiencies=["Perception", "Athletics"],
        action_surge_uses=1,
    )
    data = block.model_dump(mode="json")
    assert data["character"]["save_proficiencies"] == ["strength", "wisdom"]
    assert data["character"]["skill_proficiencies"] == ["Athletics", "Perception"]
    assert StatBlock.model_validate_json(block.model_dump_json()) == block


def test_sheet_values_are_bounded() -> None:
    with pytest.raises(ValueError, match="action_surge_uses"):
        CharacterSheet(action_surge_uses=3)
    with pytest.raises(ValueError, match="skill_proficiencies"):
        CharacterSheet.model_validate({"skill_proficiencies": ["Juggling"]})
