"""Real SRD stat blocks through the engine: the Bandit Captain's Multiattack, the Adult Red
Dragon's Fire Breath (Recharge 5-6, 60-ft cone, DC 21 Dex, half on a success) and legendary
actions (3 a round, Wing Attack costs 2, only at the end of another creature's turn, back at
the start of its own), and lair actions on initiative 20 losing ties."""

from __future__ import annotations

from pathlib import Path

import pytest

from battlemap.io.encounter_file import load_battlemap, save_battlemap
from battlemap.io.monsters import creature_from_statblock, load_library
from battlemap.model.creature import Creature, Side
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.model.statblock import Ability, StatBlock
from battlemap.model.statblock_actions import AreaShape, TextAction
from battlemap.resources import asset_path
from battlemap.rules.attack_action import take_attack_action
from battlemap.rules.attacks import AttackOptions, AttackProfile, AttackSituation, make_attack
from battlemap.rules.errors import IllegalActionError
from battlemap.rules.legal import legal_actions
from battlemap.rules.legendary import (
    end_of_turn,
    legendary_status,
    next_turn,
    take_legendary_action,
)
from battlemap.rules.limited_actions import (
    recharges_due,
    save_action_refusal,
    use_limited,
    use_save_action,
    use_statuses,
)
from battlemap.rules.outcome import with_combat
from battlemap.rules.schema import Ruleset
from tests.rules.fighters import combat_of, creature

SRD = {block.name: block for block in load_library(asset_path("srd-monsters.json")).monsters}
DRAGON, HERO = EntityId("dragon"), EntityId("hero")


def _monster(name: str, cid: str) -> Creature:
    made = creature_from_statblock(SRD[name], position=(2, 0))
    return made.model_copy(update={"id": EntityId(cid)})


def _fight(*creatures: Creature) -> Encounter:
    encounter = Encounter(ruleset="srd-5e", creatures=creatures)
    return with_combat(encounter, combat_of(encounter))  # initiative 20, 19, ... in this order


def test_bandit_captain_multiattack_from_the_srd(rulesets: dict[str, Ruleset]) -> None:
    ruleset = rulesets["srd-5e"]
    captain = _monster("Bandit Captain", "captain")
    encounter = _fight(captain, creature("hero", hp=60, ac=10, side=Side.PARTY, x=3))
    legal = legal_actions(encounter, ruleset, captain.id)
    assert [c.name for c in legal.multiattack] == [
        "Multiattack: 2 × Scimitar, 1 × Dagger",
        "Multiattack: 2 × Dagger",
    ]
    taken = take_attack_action(encounter, ruleset, captain.id, multiattack=0).encounter
    block = SRD["Bandit Captain"]
    attacks = {a.name: AttackProfile.from_statblock(a) for a in block.attacks}
    for weapon, left in (
        ("Scimitar", "2 attacks left: 1 × Scimitar, 1 × Dagger"),
        ("Dagger", "1 attack left: 1 × Scimitar"),
        ("Scimitar", "no attacks left"),
    ):
        taken = make_attack(
            taken,
            ruleset,
            captain.id,
            HERO,
            attacks[weapon],
            AttackSituation(distance_feet=5),
            AttackOptions(d20=(10,), damage_rolls=(5,)),
        ).encounter
        assert legal_actions(taken, ruleset, captain.id).attacks.text == left
    assert taken.creature(HERO).hp == 60 - 15  # three hits of 5


def _dragon_fight() -> Encounter:
    return _fight(_monster("Adult Red Dragon", "dragon"), creature("hero", hp=200, side=Side.PARTY))


def test_fire_breath_spends_the_action_and_its_recharge(rulesets: dict[str, Ruleset]) -> None:
    ruleset = rulesets["srd-5e"]
    encounter = _dragon_fight()
    used = use_save_action(encounter, ruleset, DRAGON, "Fire Breath")
    breath = used.result
    assert (breath.ability, breath.dc, breath.half_on_success) == (Ability.DEX, 21, True)
    assert breath.area is not None and (breath.area.shape, breath.area.size_feet) == (
        AreaShape.CONE,
        60,
    )
    assert "DC 21 Dexterity save, 60-ft cone, half on a success" in used.events[0].text
    statuses = {s.key: s for s in use_statuses(used.encounter, DRAGON)}
    assert statuses["Fire Breath"].text == "Fire Breath (Recharge 5–6): spent"
    assert statuses["Legendary Resistance"].text == "Legendary Resistance (3/Day): 3 of 3 left"
    assert recharges_due(used.encounter, DRAGON) == ("Fire Breath",)
    assert save_action_refusal(used.encounter, ruleset, DRAGON, "Frightful Presence") == (
        "Adult Red Dragon has already used its action this turn"
    )
    with pytest.raises(IllegalActionError, match="already used its action"):
        use_save_action(used.encounter, ruleset, DRAGON, "Fire Breath")
    assert save_action_refusal(encounter, ruleset, DRAGON, "Fire Breath") is None  # undo


def test_frightful_presence_comes_with_the_multiattack(rulesets: dict[str, Ruleset]) -> None:
    ruleset = rulesets["srd-5e"]
    taken = take_attack_action(_dragon_fight(), ruleset, DRAGON, multiattack=0).encounter
    assert save_action_refusal(taken, ruleset, DRAGON, "Frightful Presence") is None
    assert "already used its action" in str(
        save_action_refusal(taken, ruleset, DRAGON, "Fire Breath")
    )
    fear = use_save_action(taken, ruleset, DRAGON, "Frightful Presence")
    assert "uses Frightful Presence (part of its Multiattack): DC 19 Wisdom" in fear.events[0].text
    assert "already used its action" in str(
        save_action_refusal(fear.encounter, ruleset, DRAGON, "Frightful Presence")
    )
    assert legal_actions(fear.encounter, ruleset, DRAGON).attacks.text == (
        "3 attacks left: 1 × Bite, 2 × Claw"
    )


def test_recharge_is_rolled_at_the_start_of_the_dragons_turn(rulesets: dict[str, Ruleset]) -> None:
    ruleset = rulesets["srd-5e"]
    spent = use_save_action(_dragon_fight(), ruleset, DRAGON, "Fire Breath").encounter
    heros_turn = next_turn(spent, ruleset).encounter
    assert next_turn(spent, ruleset).result.recharges == ()  # the hero's turn: nothing to roll
    failed = next_turn(heros_turn, ruleset, recharge_d6=4)
    (roll,) = failed.result.recharges
    assert (roll.key, roll.face, roll.recharged) == ("Fire Breath", 4, False)
    assert "Adult Red Dragon's Fire Breath: not recharged (needs 5+)" in [
        e.text for e in failed.events
    ]
    assert "is spent (Recharge 5–6)" in str(
        save_action_refusal(failed.encounter, ruleset, DRAGON, "Fire Breath")
    )
    recharged = next_turn(heros_turn, ruleset, recharge_d6=5)
    assert recharged.result.recharges[0].recharged
    assert save_action_refusal(recharged.encounter, ruleset, DRAGON, "Fire Breath") is None
    rolled = next_turn(heros_turn, ruleset)  # the app rolls: a logged d6
    face = rolled.result.recharges[0].face
    assert 1 <= face <= 6 and rolled.result.recharges[0].recharged == (face >= 5)
    assert rolled.encounter.combat is not None and rolled.encounter.combat.rolls[-1].total == face


def test_legendary_actions_per_round(rulesets: dict[str, Ruleset]) -> None:
    ruleset = rulesets["srd-5e"]
    encounter = _dragon_fight()
    status = legendary_status(encounter, ruleset, DRAGON)
    assert status is not None and status.text == "Legendary 3/3"
    assert all(r is not None and "not on Adult Red Dragon's own" in r for _, r in status.actions)
    with pytest.raises(IllegalActionError, match="end of another creature's turn"):
        take_legendary_action(encounter, ruleset, DRAGON, "Tail Attack")
    heros_turn = end_of_turn(next_turn(encounter, ruleset).encounter, ruleset).encounter
    wing = take_legendary_action(heros_turn, ruleset, DRAGON, "Wing Attack")
    assert wing.result.save is not None and wing.result.save.dc == 22
    assert "Wing Attack (costs 2, 1 left)" in wing.events[0].text
    tail = take_legendary_action(wing.encounter, ruleset, DRAGON, "Tail Attack")
    assert tail.result.attack == "Tail"
    tail_attack = next(a for a in SRD["Adult Red Dragon"].attacks if a.name == "Tail")
    hit = make_attack(  # the attack of a legendary action spends no action (action_id None)
        tail.encounter,
        ruleset,
        DRAGON,
        HERO,
        AttackProfile.from_statblock(tail_attack),
        AttackSituation(distance_feet=10),
        AttackOptions(action_id=None, d20=(15,), damage_rolls=(17,)),
    )
    assert hit.encounter.creature(HERO).hp == 200 - 17
    none_left = legendary_status(hit.encounter, ruleset, DRAGON)
    assert none_left is not None and none_left.text == "Legendary 0/3"
    with pytest.raises(IllegalActionError, match="costs 1; Adult Red Dragon has 0 legendary"):
        take_legendary_action(hit.encounter, ruleset, DRAGON, "Detect")
    back = next_turn(hit.encounter, ruleset).encounter  # the dragon's turn starts
    again = legendary_status(back, ruleset, DRAGON)
    assert again is not None and again.left == 3


def test_legendary_resistance_is_counted(rulesets: dict[str, Ruleset]) -> None:
    ruleset = rulesets["srd-5e"]
    encounter = _dragon_fight()
    for left in (2, 1, 0):
        used = use_limited(encounter, ruleset, DRAGON, "Legendary Resistance")
        assert used.result.left == left
        encounter = used.encounter
    with pytest.raises(IllegalActionError, match="Legendary Resistance is spent"):
        use_limited(encounter, ruleset, DRAGON, "Legendary Resistance")


def test_lair_actions_come_on_initiative_20_losing_ties(rulesets: dict[str, Ruleset]) -> None:
    ruleset = rulesets["srd-5e"]
    lair_block: StatBlock = SRD["Adult Red Dragon"].model_copy(
        update={"lair_actions": (TextAction(name="Magma Eruption", source="lair"),)}
    )
    dragon = _monster("Adult Red Dragon", "dragon").model_copy(update={"statblock": lair_block})
    encounter = _fight(dragon, creature("hero"), creature("orc", side=Side.HOSTILE))
    state = encounter.combat
    assert state is not None  # initiative: dragon 20, hero 19, orc 18
    state = state.with_combatant(state.combatant(HERO).model_copy(update={"initiative": 20}))
    encounter = with_combat(encounter, state)
    to_hero = next_turn(encounter, ruleset)  # dragon (20) -> hero (20): a tie, the lair waits
    assert to_hero.result.lairs == ()
    to_orc = next_turn(to_hero.encounter, ruleset)  # hero (20) -> orc (18): count 20 passed
    assert to_orc.result.lairs == (DRAGON,)
    assert "Initiative 20: Adult Red Dragon's lair acts (Magma Eruption)" in [
        e.text for e in to_orc.events
    ]
    assert next_turn(to_orc.encounter, ruleset).result.lairs == ()  # orc -> dragon


def test_spent_uses_and_legendary_actions_save_and_reopen(
    rulesets: dict[str, Ruleset], tmp_path: Path
) -> None:
    ruleset = rulesets["srd-5e"]
    spent = use_save_action(_dragon_fight(), ruleset, DRAGON, "Fire Breath").encounter
    heros_turn_ends = end_of_turn(next_turn(spent, ruleset).encounter, ruleset).encounter
    played = take_legendary_action(heros_turn_ends, ruleset, DRAGON, "Wing Attack").encounter
    path = tmp_path / "dragon.battlemap"
    save_battlemap(path, played, {})
    reopened = load_battlemap(path).encounter
    assert reopened == played
    combat = reopened.combat
    assert combat is not None
    spent_uses = reopened.creature(DRAGON).spent_uses
    assert (combat.combatant(DRAGON).legendary_used, [(s.key, s.spent) for s in spent_uses]) == (
        2,
        [("Fire Breath", 1)],
    )
