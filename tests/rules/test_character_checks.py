"""A player character's sheet drives the engine's checks: Brink, stabilising, surprise, saves."""

from __future__ import annotations

from battlemap.io.monsters import creature_from_statblock
from battlemap.model.character import CharacterSheet, Skill
from battlemap.model.combat import DeathState
from battlemap.model.creature import Creature, Side
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.model.statblock import AbilityScores, StatBlock
from battlemap.rules.character_checks import check_bonus_of, level_of, skill_bonus_of
from battlemap.rules.death import brink_choice, stabilize
from battlemap.rules.economy import take_action
from battlemap.rules.enums import Ability, BrinkOption, SentenceOutcome
from battlemap.rules.initiative import determine_surprise, start_combat
from battlemap.rules.movement import climb_swim_check
from battlemap.rules.outcome import with_combat
from battlemap.rules.saves import save_bonus_of
from battlemap.rules.schema import Ruleset
from tests.rules.fighters import combat_of, creature
from tests.rules.helpers import fight as alone_on_its_turn

PC = EntityId("pc")


def level_5_character(**sheet: object) -> StatBlock:
    """Level 5 (proficiency +3), Wis 12 (+1), proficient in Wisdom saves."""
    return StatBlock(
        name="Ilsa",
        level=5,
        hit_points=40,
        abilities=AbilityScores(dexterity=16, wisdom=12),
        character=CharacterSheet.model_validate(
            {"save_proficiencies": ["wisdom"], "skill_proficiencies": ["Medicine"], **sheet}
        ),
    )


def placed(block: StatBlock, cid: str, **update: object) -> Creature:
    made = creature_from_statblock(block, side=Side.PARTY)
    return made.model_copy(update={"id": EntityId(cid), **update})


def on_the_brink(block: StatBlock) -> Encounter:
    pc = placed(block, "pc", hp=0)
    encounter = Encounter(ruleset="bloodied-brink", creatures=(pc, creature("medic")))
    combat = combat_of(encounter, conditions={"pc": ("unconscious", "prone")})
    brink = combat.combatant(PC).model_copy(update={"death": DeathState(brink=True)})
    return with_combat(encounter, combat.with_combatant(brink))


def test_the_sheet_gives_the_save_bonus_and_the_level() -> None:
    pc = placed(level_5_character(), "pc")
    assert save_bonus_of(pc, pc.statblock, Ability.WIS) == 1 + 3
    assert save_bonus_of(pc, pc.statblock, Ability.DEX) == 3  # not proficient
    assert level_of(pc) == 5 and pc.level == 5
    assert skill_bonus_of(pc, Skill.MEDICINE) == 1 + 3
    assert check_bonus_of(pc, "Medicine", "wisdom") == 4
    assert check_bonus_of(pc, "Underwater Basket Weaving", "dexterity") == 3


def test_brink_sentence_adds_the_characters_own_wisdom_save(rulesets: dict[str, Ruleset]) -> None:
    # bloodied-brink "Sentence": "Make a DC 13 Wisdom Saving Throw ... Success (>= 13)". A d20
    # of 9 with the level-5 character's +4 (Wis 12, proficient) makes 13: stable. The box used
    # to pass +0 and level 1, and she died.
    applied = brink_choice(
        on_the_brink(level_5_character()),
        rulesets["bloodied-brink"],
        PC,
        BrinkOption.SENTENCE,
        d20=9,
    )
    assert applied.result.total == 13
    assert applied.result.sentence is SentenceOutcome.STABLE_MAX_TEMP_HP


def test_brink_adrenaline_uses_the_characters_level(rulesets: dict[str, Ruleset]) -> None:
    # "Spend a number of Empowering Points equal to half your character's level (rounded up)
    # ... Temporary Hit Points equal to three times their level": level 5 spends 3, gains 15.
    applied = brink_choice(
        on_the_brink(level_5_character()),
        rulesets["bloodied-brink"],
        PC,
        BrinkOption.ADRENALINE,
        empowering_points=3,
    )
    assert applied.result.points_spent == 3
    assert applied.encounter.creature(PC).temp_hp == 15


def test_stabilising_adds_the_healers_medicine(rulesets: dict[str, Ruleset]) -> None:
    # srd-5e "Stabilizing a Creature": "a successful DC10 Wisdom (Medicine) check". A d20 of 6
    # with the healer's Medicine +4 (Wis +1, proficiency +3) makes 10.
    healer = placed(level_5_character(), "healer")
    dying = creature("dying", hp=0, max_hp=20)
    encounter = Encounter(ruleset="srd-5e", creatures=(healer, dying))
    combat = combat_of(encounter, conditions={"dying": ("unconscious",)})
    applied = stabilize(
        with_combat(encounter, combat),
        rulesets["srd-5e"],
        EntityId("healer"),
        EntityId("dying"),
        d20=6,
    )
    assert (applied.result.total, applied.result.success) == (10, True)


def test_surprise_uses_the_sheets_stealth_and_passive_perception(
    rulesets: dict[str, Ruleset],
) -> None:
    # srd-5e "Surprise": Stealth checks against passive Perception. The rogue's Stealth with
    # expertise (+3 Dex +6) is on her token; the scout's passive Perception is 10 + 1 + 3.
    rogue = placed(level_5_character(expertise=["Stealth"]), "rogue")
    assert rogue.stats is not None and rogue.stats.stealth_bonus() == 3 + 6
    scout = placed(
        level_5_character(skill_proficiencies=["Perception"]), "scout", side=Side.HOSTILE
    )
    assert scout.stats is not None and scout.stats.passive_perception_score() == 14
    encounter = Encounter(creatures=(rogue, scout))
    started = with_combat(encounter, start_combat(encounter, "srd-5e", seed=3))
    surprise = determine_surprise(started, rulesets["srd-5e"], [EntityId("rogue")])
    state = surprise.encounter.combat
    assert state is not None
    stealth = state.combatant(EntityId("rogue")).hidden_stealth
    assert stealth is not None
    assert state.rolls[-1].expression == "1d20+9"
    assert state.combatant(EntityId("scout")).surprised is (stealth >= 14)


def test_climbing_and_searching_roll_the_sheets_athletics_and_perception(
    rulesets: dict[str, Ruleset],
) -> None:
    # gms-den "Climb/Swim/Crawl": a Strength (Athletics) check; srd-5e "Search": a Wisdom
    # (Perception) check. Athletics +3 (Str 10, proficient at level 5); Perception with
    # expertise: Wis +1 and twice +3.
    block = level_5_character(skill_proficiencies=["Athletics"], expertise=["Perception"])
    pc = placed(block, "pc")
    for ruleset_id, expression in (("gms-den", "1d20+3"), ("srd-5e", "1d20+7")):
        ruleset = rulesets[ruleset_id]
        encounter = Encounter(ruleset=ruleset_id, creatures=(pc,))
        fighting = with_combat(encounter, alone_on_its_turn(ruleset, encounter))
        if ruleset_id == "gms-den":
            checked = climb_swim_check(fighting, ruleset, PC, dc=10)
        else:
            checked = take_action(fighting, ruleset, PC, "search")
        assert checked.combat is not None
        assert checked.combat.rolls[-1].expression == expression
