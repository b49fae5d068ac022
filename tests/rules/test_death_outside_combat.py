"""Dropping to 0, dying, stable and dead outside a combat are recorded on the creature
(``Creature.lasting``) exactly as in a combat, and a combat started later starts from them
(issue 16, "Death and damage outside a combat").

srd-5e.txt "Instant Death": "When damage reduces you to 0 hit points and there is damage
remaining, you die if the remaining damage equals or exceeds your hit point maximum";
"Falling Unconscious": "If damage reduces you to 0 hit points and fails to kill you, you fall
unconscious"; "Damage at 0 Hit Points": "If you take any damage while you have 0 hit points,
you suffer a death saving throw failure"; "Healing": "A creature that has died can't regain
hit points"; "Monsters and Death": "Most DMs have a monster die the instant it drops to 0".
bloodied-brink.txt: instant death when the leftover damage is at least half the maximum.
"""

from __future__ import annotations

import pytest

from battlemap.model.creature import Side
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.damage import DamageInstance, apply_damage
from battlemap.rules.death import death_save, recover_stable, stabilize
from battlemap.rules.errors import IllegalActionError, InvalidRequestError
from battlemap.rules.healing import heal
from battlemap.rules.initiative import start_combat
from battlemap.rules.schema import Ruleset
from battlemap.rules.vitals import DeadTargetError
from tests.rules.fighters import creature, encounter_of

Rulesets = dict[str, Ruleset]
CLERIC = EntityId("cleric")


def _cleric(ruleset_id: str = "srd-5e", hp: int = 6) -> Encounter:
    return encounter_of(creature("cleric", hp=hp, max_hp=12), ruleset=ruleset_id)


def _hit(encounter: Encounter, ruleset: Ruleset, amount: int) -> Encounter:
    return apply_damage(encounter, ruleset, CLERIC, [DamageInstance(amount, "slashing")]).encounter


def test_srd_the_issue_s_cleric_dies_of_massive_damage_and_stays_dead(
    rulesets: Rulesets,
) -> None:
    """6 of 12 HP, 18 damage: 12 left over >= the maximum 12: dead, and Heal is refused."""
    srd = rulesets["srd-5e"]
    outcome = apply_damage(_cleric(), srd, CLERIC, [DamageInstance(18, "slashing")])
    assert outcome.result.zero.died
    lasting = outcome.encounter.creature(CLERIC).lasting
    assert lasting is not None and lasting.death.dead
    assert any("dies (instant death" in e.text for e in outcome.events)
    with pytest.raises(DeadTargetError, match="dead"):
        heal(outcome.encounter, srd, CLERIC, 5)
    combat = start_combat(outcome.encounter, "srd-5e", 1)
    assert combat.combatant(CLERIC).death.dead  # a later combat starts from it


def test_srd_dropping_to_0_outside_a_combat_is_dying_and_a_later_combat_knows(
    rulesets: Rulesets,
) -> None:
    srd = rulesets["srd-5e"]
    down = _hit(_cleric(), srd, 11)  # 5 left over < 12: unconscious, not dead
    lasting = down.creature(CLERIC).lasting
    assert down.creature(CLERIC).hp == 0 and lasting is not None
    # srd "Unconscious": "The creature drops whatever it's holding and falls prone"
    assert [c.name for c in lasting.conditions] == ["unconscious", "prone"]
    assert not lasting.death.dead and not lasting.death.stable
    hurt = _hit(down, srd, 3)  # damage at 0 HP: one failure
    failed = hurt.creature(CLERIC).lasting
    assert failed is not None and failed.death.failures == 1
    combat = start_combat(hurt, "srd-5e", 1)
    assert combat.combatant(CLERIC).death.failures == 1
    assert combat.combatant(CLERIC).has_condition("unconscious")
    healed = heal(hurt, srd, CLERIC, 5)
    assert healed.result.woke and healed.encounter.creature(CLERIC).hp == 5
    awake = healed.encounter.creature(CLERIC).lasting
    assert awake is not None and [c.name for c in awake.conditions] == ["prone"]  # stands up
    assert awake.death.failures == 0  # "reset to zero when you regain any hit points"


def test_srd_a_monster_dies_at_0_outside_a_combat(rulesets: Rulesets) -> None:
    srd = rulesets["srd-5e"]
    goblin = creature("goblin", hp=7, side=Side.HOSTILE)
    outcome = apply_damage(encounter_of(goblin), srd, goblin.id, [DamageInstance(7, "piercing")])
    lasting = outcome.encounter.creature(goblin.id).lasting
    assert lasting is not None and lasting.death.dead


@pytest.mark.parametrize(("ruleset_id", "dies"), [("srd-5e", False), ("bloodied-brink", True)])
def test_instant_death_threshold_outside_a_combat_follows_the_ruleset(
    rulesets: Rulesets, ruleset_id: str, dies: bool
) -> None:
    """6 of 12 HP, 12 damage: 6 left over. srd: < 12, unconscious; bloodied-brink: >= half of
    12 (6), dead."""
    hit = _hit(_cleric(ruleset_id), rulesets[ruleset_id], 12)
    lasting = hit.creature(CLERIC).lasting
    assert lasting is not None and lasting.death.dead is dies


def test_srd_first_aid_after_the_fight_makes_her_stable_and_she_wakes_later(
    rulesets: Rulesets,
) -> None:
    """srd "Stabilizing a Creature": a DC 10 Wisdom (Medicine) check; "A stable creature ...
    regains 1 hit point after 1d4 hours". No combat: the check's d20 is typed in."""
    srd = rulesets["srd-5e"]
    enc = encounter_of(creature("cleric", hp=6, max_hp=12), creature("ally"))
    down = _hit(enc, srd, 11)
    with pytest.raises(InvalidRequestError, match="type the result in"):
        stabilize(down, srd, EntityId("ally"), CLERIC)
    aided = stabilize(down, srd, EntityId("ally"), CLERIC, d20=12)
    lasting = aided.encounter.creature(CLERIC).lasting
    assert aided.result.success and lasting is not None and lasting.death.stable
    assert start_combat(aided.encounter, "srd-5e", 1).combatant(CLERIC).death.stable
    woke = recover_stable(aided.encounter, srd, CLERIC)
    assert woke.encounter.creature(CLERIC).hp == 1
    awake = woke.encounter.creature(CLERIC).lasting
    assert awake is not None and not awake.death.stable
    assert "unconscious" not in [c.name for c in awake.conditions]


def test_gms_den_a_massive_damage_stun_outside_a_combat_is_not_kept(rulesets: Rulesets) -> None:
    """gms-den "Massive damage": 1 on the d20: stunned "until the end of your next turn". With
    no turns passing outside a combat there is nothing to keep, and no line says it is."""
    gms = rulesets["gms-den"]
    enc = encounter_of(creature("cleric", hp=12, max_hp=12), ruleset="gms-den")
    hit = apply_damage(
        enc, gms, CLERIC, [DamageInstance(6, "slashing")], from_attack=True, massive_d20=1
    )
    assert hit.result.massive is not None and hit.result.massive.natural == 1
    assert hit.encounter.creature(CLERIC).lasting is None
    assert not any(e.text == "Cleric is stunned" for e in hit.events)


def _dying(ruleset_id: str, rulesets: Rulesets) -> Encounter:
    """6 of 12 HP, 8 damage: 0 HP and dying (2 left over < any threshold), no combat."""
    return _hit(_cleric(ruleset_id), rulesets[ruleset_id], 8)


def test_srd_death_saves_without_a_combat_count_on_the_creature(rulesets: Rulesets) -> None:
    """srd-5e.txt "Death Saving Throws": "roll a d20. If the roll is 10 or higher, you
    succeed. Otherwise, you fail"; "On your third success, you become stable"."""
    srd = rulesets["srd-5e"]
    enc = _dying("srd-5e", rulesets)
    # The third success makes her stable, and stable resets the counts.
    for face, successes, failures in ((12, 1, 0), (4, 1, 1), (10, 2, 1), (15, 0, 0)):
        saved = death_save(enc, srd, CLERIC, d20=face)
        enc = saved.encounter
        assert (saved.result.successes, saved.result.failures) == (successes, failures)
    lasting = enc.creature(CLERIC).lasting
    assert lasting is not None and lasting.death.stable and enc.combat is None
    with pytest.raises(IllegalActionError, match="is stable"):
        death_save(enc, srd, CLERIC, d20=12)
    assert start_combat(enc, "srd-5e", 1).combatant(CLERIC).death.stable


def test_srd_a_natural_20_outside_a_combat_brings_her_back_with_1_hp(rulesets: Rulesets) -> None:
    srd = rulesets["srd-5e"]
    saved = death_save(_dying("srd-5e", rulesets), srd, CLERIC, d20=20)
    assert saved.result.regained_hp and saved.encounter.creature(CLERIC).hp == 1


def test_a_death_save_without_a_combat_needs_the_die_typed(rulesets: Rulesets) -> None:
    srd = rulesets["srd-5e"]
    with pytest.raises(InvalidRequestError, match="no combat dice to roll; type the result in"):
        death_save(_dying("srd-5e", rulesets), srd, CLERIC)
    with pytest.raises(IllegalActionError, match="has 6 HP: no death saving throw"):
        death_save(_cleric(), srd, CLERIC, d20=12)


def test_bloodied_brink_two_failed_saves_without_a_combat_reach_the_brink(
    rulesets: Rulesets,
) -> None:
    """bloodied-brink: a d20 of 10 or less fails; 2 failures put you on the Brink of Death."""
    brink = rulesets["bloodied-brink"]
    enc = _dying("bloodied-brink", rulesets)
    first = death_save(enc, brink, CLERIC, d20=10)
    assert (first.result.failures, first.result.brink) == (1, False)
    second = death_save(first.encounter, brink, CLERIC, d20=7)
    lasting = second.encounter.creature(CLERIC).lasting
    assert second.result.brink and lasting is not None and lasting.death.brink
