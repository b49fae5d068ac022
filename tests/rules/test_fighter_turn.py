"""A level-5 fighter's turn through the engine: Extra Attack's two attacks in one Attack action,
then Action Surge's second Attack action with two more (issue 16's "Done when")."""

from __future__ import annotations

import pytest

from battlemap.io.monsters import creature_from_statblock
from battlemap.model.creature import Side
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.action_surge import action_surge
from battlemap.rules.attacks import AttackOptions, AttackProfile, AttackSituation, make_attack
from battlemap.rules.errors import IllegalActionError
from battlemap.rules.legal import legal_actions
from battlemap.rules.outcome import with_combat
from battlemap.rules.schema import Ruleset
from tests.rules.characters import BRAKKA, LONGSWORD
from tests.rules.fighters import combat_of, creature

FIGHTER, OGRE = EntityId("fighter"), EntityId("ogre")


def duel(ruleset_id: str) -> Encounter:
    fighter = creature_from_statblock(BRAKKA, side=Side.PARTY).model_copy(update={"id": FIGHTER})
    ogre = creature("ogre", hp=200, side=Side.HOSTILE, x=1)
    encounter = Encounter(ruleset=ruleset_id, creatures=(fighter, ogre))
    return with_combat(encounter, combat_of(encounter))


def swing(encounter: Encounter, ruleset: Ruleset) -> Encounter:
    """One longsword attack with the Attack action: a typed 15 to hit, 5 damage in all."""
    return make_attack(
        encounter,
        ruleset,
        FIGHTER,
        OGRE,
        AttackProfile.from_statblock(LONGSWORD),
        AttackSituation(distance_feet=5),
        AttackOptions(action_id="attack", d20=(15,), damage_rolls=(5,)),
    ).encounter


def attacks_text(encounter: Encounter, ruleset: Ruleset) -> str:
    return legal_actions(encounter, ruleset, FIGHTER).attacks.text


@pytest.mark.parametrize("ruleset_id", ["srd-5e", "legends-of-hyrule", "gms-den"])
def test_two_attacks_then_action_surge_gives_two_more(
    rulesets: dict[str, Ruleset], ruleset_id: str
) -> None:
    # srd-5e "Attack": "Certain features, such as the extra attack feature ..., allow you to
    # make more than one attack with this action." Action Surge: "you can take one
    # additional action": a second Attack action, two attacks again.
    ruleset = rulesets[ruleset_id]
    encounter = swing(duel(ruleset_id), ruleset)
    assert attacks_text(encounter, ruleset) == "1 attack left"
    encounter = swing(encounter, ruleset)
    assert attacks_text(encounter, ruleset) == "no attacks left"
    with pytest.raises(IllegalActionError, match="already used its action"):
        swing(encounter, ruleset)
    encounter = action_surge(encounter, ruleset, FIGHTER).encounter
    assert legal_actions(encounter, ruleset, FIGHTER).action("attack").allowed
    encounter = swing(encounter, ruleset)
    assert attacks_text(encounter, ruleset) == "1 attack left"
    encounter = swing(encounter, ruleset)
    with pytest.raises(IllegalActionError, match="already used its action"):
        swing(encounter, ruleset)
    ogre = encounter.creature(OGRE)
    assert ogre.hp == 200 - 4 * 5  # four hits, each a typed 1d8+3 damage total of 5
    assert encounter.creature(FIGHTER).action_surges_used == 1
