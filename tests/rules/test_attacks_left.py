"""The attacks left in an Attack action (srd-5e "Attack": "Certain features, such as Extra
Attack, allow you to make more than one attack with this action"; "Breaking up your move":
"you can break up your movement even further by moving between those attacks"), and a
Multiattack's named attacks spent one by one."""

from __future__ import annotations

import pytest

from battlemap.model.combat import CombatState
from battlemap.model.creature import Creature, Side
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.model.statblock import Attack, AttackKind, Damage, StatBlock
from battlemap.model.statblock_actions import AttackCount, MultiattackOption
from battlemap.rules.attack_action import take_attack_action
from battlemap.rules.attacks import AttackOptions, AttackProfile, AttackSituation, make_attack
from battlemap.rules.economy import take_action
from battlemap.rules.errors import IllegalActionError, InvalidRequestError
from battlemap.rules.legal import legal_actions
from battlemap.rules.movement import spend_movement
from battlemap.rules.outcome import with_combat
from battlemap.rules.schema import Ruleset
from tests.rules.fighters import creature, fight
from tests.rules.helpers import state_and_events

HERO, FOE = EntityId("hero"), EntityId("foe")
SCIMITAR = Attack(
    name="Scimitar",
    kind=AttackKind.MELEE,
    to_hit=5,
    reach=5,
    damage=(Damage(dice="1d6+3", type="slashing"),),
)
DAGGER = Attack(
    name="Dagger",
    kind=AttackKind.MELEE_OR_RANGED,
    to_hit=5,
    reach=5,
    range_normal=20,
    range_long=60,
    damage=(Damage(dice="1d4+3", type="piercing"),),
)
CAPTAIN_OPTIONS = (
    MultiattackOption(attacks=(AttackCount(name="Scimitar", count=2), AttackCount(name="Dagger"))),
    MultiattackOption(attacks=(AttackCount(name="Dagger", count=2),)),
)
NEAR = AttackSituation(distance_feet=5)


def _with_block(who: Creature, **block: object) -> Creature:
    statblock = StatBlock(name=who.name, attacks=(SCIMITAR, DAGGER), **block)
    return who.model_copy(update={"statblock": statblock})


def _duel(**block: object) -> Encounter:
    encounter, combat = fight(
        _with_block(creature("hero", hp=30), **block), creature("foe", hp=200, side=Side.HOSTILE)
    )
    return with_combat(encounter, combat)


def _hit(encounter: Encounter, ruleset: Ruleset, attack: Attack) -> Encounter:
    outcome = make_attack(
        encounter,
        ruleset,
        HERO,
        FOE,
        AttackProfile.from_statblock(attack),
        NEAR,
        AttackOptions(d20=(15,), damage_rolls=(5,)),
    )
    return outcome.encounter


def _turn_of(encounter: Encounter) -> CombatState:
    assert encounter.combat is not None
    return encounter.combat


def test_extra_attack_gives_attacks_per_action_attacks_then_refuses(
    rulesets: dict[str, Ruleset],
) -> None:
    ruleset = rulesets["srd-5e"]
    encounter = _duel(attacks_per_action=2)
    taken = take_attack_action(encounter, ruleset, HERO)
    assert taken.result.attacks.count == 2 and taken.result.option is None
    legal = legal_actions(taken.encounter, ruleset, HERO)
    assert legal.attacks.text == "2 attacks left"
    assert legal.action("attack").allowed  # the Attack action goes on
    once = _hit(taken.encounter, ruleset, SCIMITAR)
    assert legal_actions(once, ruleset, HERO).attacks.text == "1 attack left"
    twice = _hit(once, ruleset, DAGGER)
    assert _turn_of(twice).combatant(HERO).turn.attacks_left == 0
    refusal = legal_actions(twice, ruleset, HERO).action("attack").reason
    assert refusal is not None and "already used its action" in refusal
    with pytest.raises(IllegalActionError, match="already used its action"):
        _hit(twice, ruleset, SCIMITAR)


def test_the_first_attack_takes_the_attack_action_with_all_its_attacks(
    rulesets: dict[str, Ruleset],
) -> None:
    ruleset = rulesets["srd-5e"]
    first = _hit(_duel(attacks_per_action=3), ruleset, SCIMITAR)
    assert legal_actions(first, ruleset, HERO).attacks.text == "2 attacks left"
    assert _hit(_hit(first, ruleset, SCIMITAR), ruleset, SCIMITAR).combat is not None


def test_moving_between_attacks_is_allowed(rulesets: dict[str, Ruleset]) -> None:
    ruleset = rulesets["srd-5e"]
    encounter = _hit(_duel(attacks_per_action=2), ruleset, SCIMITAR)
    state, _ = state_and_events(
        spend_movement(with_combat(encounter, _turn_of(encounter)), ruleset, HERO, 10)
    )
    moved = with_combat(encounter, state)
    assert legal_actions(moved, ruleset, HERO).attacks.count == 1
    after = _hit(moved, ruleset, DAGGER)
    turn = _turn_of(after).combatant(HERO).turn
    assert turn.attacks_left == 0 and turn.movement_used == 10
    state, _ = state_and_events(
        spend_movement(with_combat(after, _turn_of(after)), ruleset, HERO, 20)
    )  # and after them
    assert state.combatant(HERO).turn.movement_used == 30


def test_a_multiattack_option_caps_its_named_attacks(rulesets: dict[str, Ruleset]) -> None:
    ruleset = rulesets["srd-5e"]
    encounter = _duel(multiattack=CAPTAIN_OPTIONS)
    before = legal_actions(encounter, ruleset, HERO)
    assert [c.name for c in before.multiattack] == [
        "Multiattack: 2 × Scimitar, 1 × Dagger",
        "Multiattack: 2 × Dagger",
    ]
    assert all(c.allowed for c in before.multiattack)
    taken = take_attack_action(encounter, ruleset, HERO, multiattack=0)
    assert taken.result.attacks.count == 3
    assert "Hero's Multiattack: 2 × Scimitar, 1 × Dagger" in taken.events[-1].text
    legal = legal_actions(taken.encounter, ruleset, HERO)
    assert legal.attacks.text == "3 attacks left: 2 × Scimitar, 1 × Dagger"
    assert all(not c.allowed for c in legal.multiattack)
    assert "is making its Attack action" in str(legal.multiattack[0].reason)
    two = _hit(_hit(taken.encounter, ruleset, SCIMITAR), ruleset, SCIMITAR)
    assert legal_actions(two, ruleset, HERO).attacks.text == "1 attack left: 1 × Dagger"
    with pytest.raises(IllegalActionError, match="allows no Scimitar attack"):
        _hit(two, ruleset, SCIMITAR)
    done = _hit(two, ruleset, DAGGER)
    assert _turn_of(done).combatant(HERO).turn.attacks_left == 0
    assert _turn_of(done).combatant(HERO).turn.attack_plan == ()


def test_the_input_encounter_is_untouched_and_the_attacks_left_are_saved(
    rulesets: dict[str, Ruleset],
) -> None:
    ruleset = rulesets["srd-5e"]
    encounter = _duel(multiattack=CAPTAIN_OPTIONS)
    taken = take_attack_action(encounter, ruleset, HERO, multiattack=0)
    one = _hit(taken.encounter, ruleset, DAGGER)
    assert _turn_of(encounter).combatant(HERO).turn.attacks_left == 0  # undo restores this
    reopened = Encounter.model_validate_json(one.model_dump_json())
    assert reopened == one
    turn = _turn_of(reopened).combatant(HERO).turn
    assert turn.attacks_left == 2 and turn.attack_plan == (AttackCount(name="Scimitar", count=2),)


def test_an_attack_replacing_action_spends_one_of_a_multiattack(
    rulesets: dict[str, Ruleset],
) -> None:
    ruleset = rulesets["srd-5e"]
    taken = take_attack_action(_duel(multiattack=CAPTAIN_OPTIONS), ruleset, HERO, multiattack=1)
    encounter = taken.encounter
    state, _ = state_and_events(
        take_action(with_combat(encounter, _turn_of(encounter)), ruleset, HERO, "unarmed-strike")
    )
    struck = with_combat(encounter, state)
    assert legal_actions(struck, ruleset, HERO).attacks.text == "1 attack left: 1 × Dagger"


def test_bad_requests_name_the_problem(rulesets: dict[str, Ruleset]) -> None:
    ruleset = rulesets["srd-5e"]
    with pytest.raises(InvalidRequestError, match="no Multiattack option 3"):
        take_attack_action(_duel(multiattack=CAPTAIN_OPTIONS), ruleset, HERO, multiattack=2)
    with pytest.raises(InvalidRequestError, match="no Multiattack option 1"):
        take_attack_action(_duel(), ruleset, HERO, multiattack=0)
    with pytest.raises(IllegalActionError, match="isn't Foe's turn"):
        take_attack_action(_duel(), ruleset, FOE)
