"""Action Surge, Cunning Action and Dash stacking, through the engine, per ruleset."""

from __future__ import annotations

import pytest

from battlemap.io.monsters import creature_from_statblock
from battlemap.model.character import CharacterSheet
from battlemap.model.creature import Side, Speeds
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.model.statblock import StatBlock
from battlemap.rules.action_surge import ACTION_SURGE, action_surge
from battlemap.rules.economy import take_action
from battlemap.rules.errors import IllegalActionError
from battlemap.rules.legal import ChoiceKind, legal_actions
from battlemap.rules.movement import movement_budget
from battlemap.rules.outcome import with_combat
from battlemap.rules.rest_uses import RestType, regain_after_rest
from battlemap.rules.rests import short_rest
from battlemap.rules.schema import Ruleset
from tests.rules.helpers import fight

Rulesets = dict[str, Ruleset]
HERO = EntityId("hero")


def hero_encounter(ruleset_id: str, *, surges: int = 0, cunning: bool = False) -> Encounter:
    """A speed-30 character alone in a running combat, on its turn."""
    block = StatBlock(
        name="Hero",
        level=5,
        speeds=Speeds(walk=30),
        character=CharacterSheet(action_surge_uses=surges, cunning_action=cunning),
    )
    hero = creature_from_statblock(block, side=Side.PARTY).model_copy(update={"id": HERO})
    return Encounter(ruleset=ruleset_id, creatures=(hero,))


def in_combat(rulesets: Rulesets, enc: Encounter) -> Encounter:
    return with_combat(enc, fight(rulesets[enc.ruleset], enc))


def act(enc: Encounter, ruleset: Ruleset, action_id: str, *, bonus: bool = False) -> Encounter:
    return take_action(enc, ruleset, HERO, action_id, as_bonus_action=bonus).encounter


def movement_total(enc: Encounter, ruleset: Ruleset) -> int:
    assert enc.combat is not None
    return movement_budget(enc.combat, ruleset, enc, HERO).total


def test_legends_of_hyrule_three_dashes_move_120_feet(rulesets: Rulesets) -> None:
    # legends-of-hyrule "Dash": "each additional Dash increases your movement by your speed.
    # Dashing twice triples your movement, for example, and Dashing thrice would quadruple
    # your movement." Action Dash, Cunning Action's bonus Dash, Action Surge's Dash: 4 x 30.
    ruleset = rulesets["legends-of-hyrule"]
    enc = in_combat(rulesets, hero_encounter("legends-of-hyrule", surges=1, cunning=True))
    enc = act(enc, ruleset, "dash")
    enc = act(enc, ruleset, "dash", bonus=True)
    assert movement_total(enc, ruleset) == 90
    with pytest.raises(IllegalActionError, match="already used its action"):
        act(enc, ruleset, "dash")
    enc = action_surge(enc, ruleset, HERO).encounter
    enc = act(enc, ruleset, "dash")
    assert movement_total(enc, ruleset) == 120


def test_srd_a_rogues_bonus_dash_adds_the_speed_again(rulesets: Rulesets) -> None:
    # srd-5e "Dash": "you gain extra movement for the current turn. The increase equals your
    # speed": a second Dash (Cunning Action's) adds 30 more, 90 ft in all.
    ruleset = rulesets["srd-5e"]
    enc = in_combat(rulesets, hero_encounter("srd-5e", cunning=True))
    legal = legal_actions(enc, ruleset, HERO)
    assert legal.choice(ChoiceKind.BONUS_ACTION, "dash").allowed
    assert legal.choice(ChoiceKind.BONUS_ACTION, "hide").allowed
    assert legal.choice(ChoiceKind.BONUS_ACTION, "disengage").allowed
    enc = act(enc, ruleset, "dash", bonus=True)
    assert movement_total(enc, ruleset) == 60
    enc = act(enc, ruleset, "dash")
    assert movement_total(enc, ruleset) == 90


def test_without_cunning_action_dash_is_no_bonus_action(rulesets: Rulesets) -> None:
    # srd-5e "Bonus Actions": "You can take a bonus action only when a special ability,
    # spell, or other feature of the game allows you to do something as a bonus action."
    ruleset = rulesets["srd-5e"]
    enc = in_combat(rulesets, hero_encounter("srd-5e"))
    with pytest.raises(IllegalActionError, match="no feature to Dash as a bonus action"):
        act(enc, ruleset, "dash", bonus=True)
    with pytest.raises(KeyError):
        legal_actions(enc, ruleset, HERO).choice(ChoiceKind.BONUS_ACTION, "dash")


@pytest.mark.parametrize(
    "ruleset_id", ["srd-5e", "legends-of-hyrule", "final-fantasy-d20", "gms-den", "bloodied-brink"]
)
def test_every_ruleset_stacks_dashes_as_its_document_says(
    rulesets: Rulesets, ruleset_id: str
) -> None:
    # rules-sources README "Dash": srd-5e "+speed after modifiers, for each Dash taken";
    # legends-of-hyrule "same, said outright"; the other three follow the base (gms-den's
    # text is the SRD's: "The increase equals your speed").
    assert rulesets[ruleset_id].economy.dash_stacks


def test_action_surge_once_a_turn_then_after_a_rest(rulesets: Rulesets) -> None:
    ruleset = rulesets["srd-5e"]
    enc = in_combat(rulesets, hero_encounter("srd-5e", surges=1))
    legal = legal_actions(enc, ruleset, HERO)
    assert legal.choice(ChoiceKind.FREE, ACTION_SURGE).allowed
    surged = action_surge(enc, ruleset, HERO)
    assert (surged.result.extra_actions, surged.result.uses_left) == (1, 0)
    assert surged.encounter.creature(HERO).action_surges_used == 1
    assert "one more action" in surged.events[-1].text
    enc = surged.encounter
    reason = legal_actions(enc, ruleset, HERO).choice(ChoiceKind.FREE, ACTION_SURGE).reason
    assert reason is not None and "only once on the same turn" in reason
    # Two actions now: the turn's own and the surge's; a third is refused.
    enc = act(act(enc, ruleset, "dodge"), ruleset, "dash")
    with pytest.raises(IllegalActionError, match="already used its action"):
        act(enc, ruleset, "search")
    # The use is kept on the creature, saved with the encounter, until a rest.
    reopened = Encounter.model_validate_json(enc.model_dump_json())
    assert reopened.creature(HERO).action_surges_used == 1
    rested = regain_after_rest(enc, ruleset, HERO, RestType.SHORT)  # srd-5e: no rest rules
    assert rested.result == ("Action Surge",)
    assert rested.encounter.creature(HERO).action_surges_used == 0


def test_a_spent_action_surge_is_refused_with_the_reason(rulesets: Rulesets) -> None:
    ruleset = rulesets["srd-5e"]
    enc = hero_encounter("srd-5e", surges=1)
    spent = enc.creatures[0].model_copy(update={"action_surges_used": 1})
    enc = in_combat(rulesets, enc.replace_creature(spent))
    with pytest.raises(IllegalActionError, match="returns after a short or long rest"):
        action_surge(enc, ruleset, HERO)
    nothing = in_combat(rulesets, hero_encounter("srd-5e"))
    with pytest.raises(IllegalActionError, match="has no Action Surge"):
        action_surge(nothing, ruleset, HERO)
    with pytest.raises(KeyError):  # no sheet feature: the legal query offers no choice
        legal_actions(nothing, ruleset, HERO).choice(ChoiceKind.FREE, ACTION_SURGE)


def test_a_bloodied_brink_short_rest_gives_action_surge_back(rulesets: Rulesets) -> None:
    # SRD 5.1 Action Surge: "you must finish a short or long rest before you can use it again".
    enc = hero_encounter("bloodied-brink", surges=1)
    spent = enc.creatures[0].model_copy(update={"action_surges_used": 1})
    rested = short_rest(
        enc.replace_creature(spent), rulesets["bloodied-brink"], HERO, level=5, dice_total=20
    )
    assert rested.encounter.creature(HERO).action_surges_used == 0
