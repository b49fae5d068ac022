"""Saving throws: roll mode and bonus with their reasons, per ruleset (``rules.saves``)."""

from __future__ import annotations

import pytest

from battlemap.model.features import CoverDegree
from battlemap.model.ids import EntityId
from battlemap.model.statblock import Ability as StatAbility
from battlemap.model.statblock import StatBlock
from battlemap.rules.attacks import RollMode
from battlemap.rules.enums import Ability
from battlemap.rules.errors import InvalidRequestError
from battlemap.rules.outcome import with_combat
from battlemap.rules.saves import SaveSituation, save_report, saving_throw
from battlemap.rules.schema import Ruleset
from tests.rules.fighters import creature, fight

PC = EntityId("pc")
SQUEEZING = SaveSituation(squeezing=True)


def _squeeze_rule(ruleset: Ruleset, dex_saves: bool) -> Ruleset:
    squeezing = ruleset.movement.squeezing
    assert squeezing is not None
    movement = ruleset.movement.model_copy(
        update={
            "squeezing": squeezing.model_copy(update={"dex_saves_with_disadvantage": dex_saves})
        }
    )
    return ruleset.model_copy(update={"movement": movement})


def test_hyrule_squeezing_gives_disadvantage_on_dexterity_saves(
    rulesets: dict[str, Ruleset],
) -> None:
    # legends-of-hyrule "Squeezing into a Smaller Space": "it has disadvantage on attack rolls
    # and Dexterity saving throws".
    hyrule = rulesets["legends-of-hyrule"]
    _, combat = fight(creature("pc"), ruleset="legends-of-hyrule")
    pc = combat.combatant(PC)
    dex = save_report(hyrule, pc, Ability.DEX, SQUEEZING)
    assert dex.roll.mode is RollMode.DISADVANTAGE
    assert dex.roll.disadvantages == ("squeezing into a smaller space",)
    assert save_report(hyrule, pc, Ability.STR, SQUEEZING).roll.mode is RollMode.NORMAL
    # srd-5e takes the hyrule rule (README: size and space "not stated: use hyrule table");
    # a ruleset without squeezing rules gives no disadvantage.
    srd = rulesets["srd-5e"]
    assert save_report(srd, pc, Ability.DEX, SQUEEZING).roll.mode is RollMode.DISADVANTAGE
    no_squeezing = srd.model_copy(
        update={"movement": srd.movement.model_copy(update={"squeezing": None})}
    )
    assert save_report(no_squeezing, pc, Ability.DEX, SQUEEZING).roll.mode is RollMode.NORMAL


def test_squeezing_dex_saves_follow_the_ruleset_field(rulesets: dict[str, Ruleset]) -> None:
    hyrule = rulesets["legends-of-hyrule"]
    _, combat = fight(creature("pc"), ruleset="legends-of-hyrule")
    off = _squeeze_rule(hyrule, dex_saves=False)
    report = save_report(off, combat.combatant(PC), Ability.DEX, SQUEEZING)
    assert report.roll.mode is RollMode.NORMAL and report.roll.disadvantages == ()


@pytest.mark.parametrize(
    ("degree", "bonus"),
    [(CoverDegree.NONE, 0), (CoverDegree.HALF, 2), (CoverDegree.THREE_QUARTERS, 5)],
)
def test_cover_adds_to_dexterity_saves(
    rulesets: dict[str, Ruleset], degree: CoverDegree, bonus: int
) -> None:
    # srd "Cover": half cover "+2 bonus to AC and Dexterity saving throws", three-quarters +5.
    srd = rulesets["srd-5e"]
    report = save_report(srd, None, Ability.DEX, SaveSituation(cover=degree), save_bonus=1)
    assert report.bonus == 1 + bonus
    assert save_report(srd, None, Ability.WIS, SaveSituation(cover=degree)).bonus == 0


def test_conditions_dodge_and_exhaustion(rulesets: dict[str, Ruleset]) -> None:
    srd = rulesets["srd-5e"]
    _, combat = fight(creature("pc"), conditions={"pc": ("restrained",)})
    restrained = combat.combatant(PC)
    assert save_report(srd, restrained, Ability.DEX).roll.mode is RollMode.DISADVANTAGE
    # srd "Dodge": Dexterity saves with advantage; with restrained's disadvantage: normal.
    dodging = restrained.model_copy(update={"dodging": True})
    both = save_report(srd, dodging, Ability.DEX)
    assert both.roll.mode is RollMode.NORMAL and both.roll.advantages == ("Dodging",)
    tired = dodging.model_copy(update={"exhaustion": 3, "conditions": ()})
    assert save_report(srd, tired, Ability.WIS).roll.disadvantages == ("exhaustion 3",)
    _, stunned = fight(creature("pc"), conditions={"pc": ("stunned",)})
    report = save_report(srd, stunned.combatant(PC), Ability.STR)
    assert report.auto_fail is not None and "stunned" in report.auto_fail
    assert save_report(srd, stunned.combatant(PC), Ability.CON).auto_fail is None


def test_dodge_gives_no_advantage_on_saves_while_incapacitated(
    rulesets: dict[str, Ruleset],
) -> None:
    # srd "Dodge": "You lose this benefit if you are incapacitated"; paralyzed implies
    # incapacitated (srd "Conditions"), as for attacks against a dodging target.
    srd = rulesets["srd-5e"]
    _, combat = fight(creature("pc"), conditions={"pc": ("paralyzed",)})
    dodging = combat.combatant(PC).model_copy(update={"dodging": True})
    assert save_report(srd, dodging, Ability.DEX).roll.advantages == ()


def test_rolling_a_squeezed_dexterity_save(rulesets: dict[str, Ruleset]) -> None:
    hyrule = rulesets["legends-of-hyrule"]
    encounter, combat = fight(creature("pc", dex=14), ruleset="legends-of-hyrule")
    with pytest.raises(InvalidRequestError, match="type one d20"):
        saving_throw(
            with_combat(encounter, combat), hyrule, PC, Ability.DEX, 13, SQUEEZING, typed=(15, 9, 4)
        )
    failed = saving_throw(
        with_combat(encounter, combat), hyrule, PC, Ability.DEX, 13, SQUEEZING, typed=(15, 9)
    )
    assert (failed.result.natural, failed.result.total, failed.result.success) == (9, 11, False)
    assert "disadvantage: squeezing" in failed.events[0].text
    rolled = saving_throw(with_combat(encounter, combat), hyrule, PC, Ability.DEX, 13, SQUEEZING)
    assert rolled.combat is not None and rolled.combat.rolls[-1].expression == "2d20kl1"
    _, stunned = fight(creature("pc"), conditions={"pc": ("stunned",)})
    auto = saving_throw(with_combat(encounter, stunned), hyrule, PC, Ability.DEX, 5)
    assert not auto.result.success and auto.result.natural is None


def test_a_save_without_a_bonus_given_takes_the_stat_blocks_proficient_save(
    rulesets: dict[str, Ruleset],
) -> None:
    # A stat block lists only proficient saves ("Saving Throws Dex +5, Wis +3"): those are the
    # creature's bonus; any other save is the ability modifier of its own scores.
    srd = rulesets["srd-5e"]
    block = StatBlock(name="Pc", saving_throws={StatAbility.DEX: 5})
    pc = creature("pc", dex=14).model_copy(update={"statblock": block})
    encounter, combat = fight(pc)
    dex = saving_throw(with_combat(encounter, combat), srd, PC, Ability.DEX, 15, typed=(10,))
    assert (dex.result.total, dex.result.success) == (15, True)
    strength = saving_throw(with_combat(encounter, combat), srd, PC, Ability.STR, 15, typed=(10,))
    assert strength.result.total == 10
    given = saving_throw(
        with_combat(encounter, combat), srd, PC, Ability.DEX, 15, save_bonus=1, typed=(10,)
    )
    assert given.result.total == 11
