"""Player characters the rules, io and fuzz tests share: a level-5 fighter and a rogue."""

from __future__ import annotations

from battlemap.model.character import CharacterSheet, Skill
from battlemap.model.statblock import Ability, AbilityScores, Attack, AttackKind, Damage, StatBlock

LONGSWORD = Attack(
    name="Longsword",
    kind=AttackKind.MELEE,
    to_hit=6,
    reach=5,
    damage=(Damage(dice="1d8+3", type="slashing"),),
)
SHORTBOW = Attack(
    name="Shortbow",
    kind=AttackKind.RANGED,
    to_hit=7,
    range_normal=80,
    range_long=320,
    damage=(Damage(dice="1d6+4", type="piercing"),),
)
BRAKKA = StatBlock(
    name="Brakka",
    type="player character",
    level=5,
    hit_points=44,
    armor_class=18,
    abilities=AbilityScores(strength=16, constitution=14, wisdom=12),
    attacks=(LONGSWORD,),
    attacks_per_action=2,  # Extra Attack (fighter 5)
    character=CharacterSheet(
        save_proficiencies=frozenset({Ability.STR, Ability.CON}),
        skill_proficiencies=frozenset({Skill.ATHLETICS, Skill.PERCEPTION}),
        action_surge_uses=1,  # fighter 2
    ),
)
"""A level-5 fighter: Extra Attack, one Action Surge."""
VEX = StatBlock(
    name="Vex",
    type="player character",
    level=3,
    abilities=AbilityScores(dexterity=18),
    attacks=(SHORTBOW,),
    character=CharacterSheet(
        save_proficiencies=frozenset({Ability.DEX, Ability.INT}),
        expertise=frozenset({Skill.STEALTH}),
        cunning_action=True,
    ),
)
"""A level-3 rogue: Stealth expertise, Cunning Action."""
