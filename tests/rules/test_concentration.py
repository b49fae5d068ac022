"""Concentration (issue 16): a save from damage, DC 10 or half the damage (higher); failing
it, being incapacitated or dying ends the spell and the conditions it holds.

The rule is SRD 5.1's "Concentration" (Spellcasting), as the issue states it: "Whenever you
take damage while you are concentrating on a spell, you must make a Constitution saving throw
to maintain your concentration. The DC equals 10 or half the damage you take, whichever number
is higher. If you take damage from multiple sources, such as an arrow and a dragon's breath,
you make a separate saving throw for each source of damage." None of the five documents in
../shared/rules-sources/ words it (srd-5e.txt's "Ready" only says that taking damage might
break it); none changes it, so every ruleset keeps it.
"""

from __future__ import annotations

import pytest

from battlemap.model.combat import ActiveCondition
from battlemap.model.creature import Side
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.concentration import concentrate, concentration_save, stop_concentrating
from battlemap.rules.concentration_core import concentration_dc
from battlemap.rules.conditions import apply_condition, set_exhaustion
from battlemap.rules.damage import DamageInstance, apply_damage
from battlemap.rules.errors import IllegalActionError, InvalidRequestError
from battlemap.rules.saves_due import SaveKind, saves_due
from battlemap.rules.schema import Ruleset
from tests.rules.conftest import RULESET_IDS
from tests.rules.fighters import combat_of, creature, encounter_of

Rulesets = dict[str, Ruleset]
CLERIC, OGRE = EntityId("cleric"), EntityId("ogre")


def _holding(rulesets: Rulesets, ruleset_id: str = "srd-5e", hp: int = 40) -> Encounter:
    """A combat: the cleric concentrates on Hold Person, which paralyzes the ogre."""
    enc = encounter_of(
        creature("cleric", hp=hp), creature("ogre", hp=59, side=Side.HOSTILE), ruleset=ruleset_id
    )
    combat = combat_of(enc)
    ogre = combat.combatant(OGRE)
    paralyzed = ActiveCondition(name="paralyzed", source_id=CLERIC, held_by=CLERIC)
    combat = combat.with_combatant(ogre.model_copy(update={"conditions": (paralyzed,)}))
    enc = enc.model_copy(update={"combat": combat})
    return concentrate(enc, rulesets[ruleset_id], CLERIC, "Hold Person").encounter


def _hit(enc: Encounter, ruleset: Ruleset, amount: int, who: EntityId = CLERIC) -> Encounter:
    return apply_damage(enc, ruleset, who, [DamageInstance(amount, "fire")]).encounter


def _held(enc: Encounter) -> list[str]:
    assert enc.combat is not None
    return [c.name for c in enc.combat.combatant(OGRE).conditions]


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
@pytest.mark.parametrize(("damage", "dc"), [(1, 10), (19, 10), (20, 10), (22, 11), (25, 12)])
def test_the_dc_is_10_or_half_the_damage_whichever_is_higher(
    rulesets: Rulesets, ruleset_id: str, damage: int, dc: int
) -> None:
    """No document states the DC: srd-5e.yaml writes the SRD 5.1 rule out and every ruleset
    inherits it (``concentration``)."""
    assert concentration_dc(rulesets[ruleset_id], damage) == dc


def test_the_dc_follows_the_ruleset_s_concentration_section(rulesets: Rulesets) -> None:
    srd = rulesets["srd-5e"]
    harsher = srd.model_copy(
        update={"concentration": srd.concentration.model_copy(update={"save_dc_minimum": 12})}
    )
    assert (concentration_dc(harsher, 10), concentration_dc(harsher, 30)) == (12, 15)


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_damage_calls_for_the_save_and_a_failure_ends_the_spell_and_what_it_holds(
    rulesets: Rulesets, ruleset_id: str
) -> None:
    """25 damage: DC 12. The cleric (Con 10, +0) types a 7: fails; Hold Person ends and the
    ogre is no longer paralyzed."""
    ruleset = rulesets[ruleset_id]
    enc = _hit(_holding(rulesets, ruleset_id), ruleset, 25)
    (due,) = saves_due(enc)
    assert (due.creature_id, due.kind, due.dc, due.ability.value) == (
        CLERIC,
        SaveKind.CONCENTRATION,
        12,
        "con",
    )
    assert "keep concentrating on Hold Person" in due.reason
    failed = concentration_save(enc, ruleset, CLERIC, typed=(7,))
    assert not failed.result.kept and failed.result.save.total == 7
    assert failed.encounter.combat is not None
    assert failed.encounter.combat.combatant(CLERIC).concentration is None
    assert _held(failed.encounter) == []
    texts = [e.text for e in failed.events]
    assert "Cleric stops concentrating on Hold Person (failed the DC 12 Constitution save)" in texts
    assert "Ogre: paralyzed ends (Cleric's Hold Person ended)" in texts
    assert saves_due(failed.encounter) == ()


def test_srd_a_success_keeps_it_and_each_hit_is_its_own_save(rulesets: Rulesets) -> None:
    srd = rulesets["srd-5e"]
    enc = _hit(
        _hit(_holding(rulesets), srd, 30), srd, 4
    )  # an arrow and a breath: DC 15, then DC 10
    assert [p.dc for p in saves_due(enc)] == [15, 10]
    kept = concentration_save(enc, srd, CLERIC, typed=(15,))
    assert kept.result.kept and kept.result.dc == 15
    assert [p.dc for p in saves_due(kept.encounter)] == [10]
    assert _held(kept.encounter) == ["paralyzed"]
    with pytest.raises(InvalidRequestError, match="owes no concentration save"):
        concentration_save(_holding(rulesets), srd, CLERIC, typed=(15,))


def test_srd_dropping_to_0_or_dying_ends_it(rulesets: Rulesets) -> None:
    """Unconscious is incapacitated: the concentration ends with it; so does death."""
    srd = rulesets["srd-5e"]
    down = _hit(_holding(rulesets, hp=10), srd, 12)
    assert down.combat is not None
    assert down.combat.combatant(CLERIC).concentration is None and _held(down) == []
    assert saves_due(down) == ()  # nothing left to save for
    dead = _hit(_holding(rulesets, hp=10), srd, 60)  # 50 left over >= 40 maximum
    assert dead.combat is not None
    assert dead.combat.combatant(CLERIC).death.dead
    assert dead.combat.combatant(CLERIC).concentration is None and _held(dead) == []


def test_srd_a_new_concentration_spell_ends_the_old_one(rulesets: Rulesets) -> None:
    srd = rulesets["srd-5e"]
    bless = concentrate(_holding(rulesets), srd, CLERIC, "Bless")
    assert bless.result.spell == "Bless" and _held(bless.encounter) == []
    stopped = stop_concentrating(bless.encounter, srd, CLERIC)
    assert stopped.result is not None and stopped.result.spell == "Bless"
    assert stopped.encounter.combat is not None
    assert stopped.encounter.combat.combatant(CLERIC).concentration is None


def test_an_incapacitated_creature_cannot_start_and_names_are_checked(rulesets: Rulesets) -> None:
    srd = rulesets["srd-5e"]
    enc = _holding(rulesets)
    with pytest.raises(IllegalActionError, match="incapacitated"):
        concentrate(enc, srd, OGRE, "Bless")  # paralyzed
    with pytest.raises(InvalidRequestError, match="1 to 80 characters"):
        concentrate(enc, srd, CLERIC, "  ")


def test_srd_outside_a_combat_it_lasts_on_the_creature(rulesets: Rulesets) -> None:
    """Concentration marked before a fight is on the lasting state; damage then calls for the
    save (typed: no combat dice), and a later combat starts from it."""
    srd = rulesets["srd-5e"]
    enc = encounter_of(creature("cleric", hp=40))
    enc = concentrate(enc, srd, CLERIC, "Bless").encounter
    lasting = enc.creature(CLERIC).lasting
    assert lasting is not None and lasting.concentration is not None
    enc = _hit(enc, srd, 8)
    (due,) = saves_due(enc)
    assert due.dc == 10
    with pytest.raises(InvalidRequestError, match="type the result in"):
        concentration_save(enc, srd, CLERIC)
    kept = concentration_save(enc, srd, CLERIC, typed=(12,))
    after = kept.encounter.creature(CLERIC).lasting
    assert after is not None and after.concentration is not None
    assert after.concentration.saves_due == () and kept.result.kept


def test_srd_a_stun_given_in_the_fight_or_exhaustion_6_ends_it(rulesets: Rulesets) -> None:
    """srd "Stunned": incapacitated; srd "Exhaustion" level 6: death."""
    srd = rulesets["srd-5e"]
    stunned = apply_condition(_holding(rulesets), srd, CLERIC, "stunned")
    assert stunned.encounter.combat is not None
    assert stunned.encounter.combat.combatant(CLERIC).concentration is None
    assert _held(stunned.encounter) == []
    assert "Cleric stops concentrating on Hold Person (stunned: incapacitated)" in [
        e.text for e in stunned.events
    ]
    exhausted = set_exhaustion(_holding(rulesets), srd, CLERIC, 6)
    assert exhausted.encounter.combat is not None
    assert exhausted.encounter.combat.combatant(CLERIC).concentration is None
    assert _held(exhausted.encounter) == []
