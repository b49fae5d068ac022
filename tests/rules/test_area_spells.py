"""An area spell placed on the caster's turn spends its Cast a Spell with the damage (srd-5e)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from battlemap.model.creature import Side
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.area_spells import cast_area_spell, cast_spell_action
from battlemap.rules.damage import AreaTarget, DamageResult, DamageRoll, apply_area_damage
from battlemap.rules.economy import take_action
from battlemap.rules.errors import IllegalActionError
from battlemap.rules.outcome import Outcome, with_combat
from battlemap.rules.schema import Ruleset
from tests.rules.helpers import creature, encounter, fight

Rulesets = dict[str, Ruleset]
CASTER, GOBLIN = EntityId("sela"), EntityId("g")


def _fight(ruleset: Ruleset) -> Encounter:
    """Sela (party, first) and a goblin with 40 hit points."""
    enc = encounter(
        creature("Sela", Side.PARTY, init_bonus=40),
        creature("g", hp=40),
        ruleset="srd-5e",
    )
    state = fight(ruleset, enc)
    assert state.current is not None and state.current.creature_id == CASTER
    return with_combat(enc, state)


Effect = Callable[[Encounter], Outcome[tuple[DamageResult, ...]]]


def _fireball(ruleset: Ruleset) -> Effect:
    def effect(e: Encounter) -> Outcome[tuple[DamageResult, ...]]:
        return apply_area_damage(
            e, ruleset, [DamageRoll("8d6", "fire")], [AreaTarget(GOBLIN)], typed=[24]
        )

    return effect


def test_every_shipped_ruleset_has_cast_a_spell(rulesets: Rulesets) -> None:
    for ruleset_id, ruleset in rulesets.items():
        assert ruleset.actions[cast_spell_action(ruleset)].name == "Cast a Spell", ruleset_id


def test_srd_area_spell_spends_cast_a_spell_with_its_damage(rulesets: Rulesets) -> None:
    srd = rulesets["srd-5e"]
    enc = _fight(srd)
    done = cast_area_spell(enc, srd, CASTER, _fireball(srd))
    assert done.combat is not None
    turn = done.combat.combatant(CASTER).turn
    assert turn.action_used
    assert "cast-a-spell:leveled" in turn.actions_taken
    assert done.encounter.creature(GOBLIN).hp == 16
    texts = [e.text for e in done.events]
    assert texts[0] == "Sela takes Cast a Spell (action)"
    assert any("24" in t for t in texts[1:]), texts


def test_srd_area_spell_is_refused_when_the_action_is_spent(rulesets: Rulesets) -> None:
    srd = rulesets["srd-5e"]
    dodged = take_action(_fight(srd), srd, CASTER, "dodge").encounter
    with pytest.raises(IllegalActionError, match="Sela has already used its action this turn"):
        cast_area_spell(dodged, srd, CASTER, _fireball(srd))
    assert dodged.creature(GOBLIN).hp == 40  # the input is never changed


def test_srd_area_spell_after_a_bonus_action_spell_must_be_a_cantrip(rulesets: Rulesets) -> None:
    """SRD "Casting Time > Bonus Action": after a bonus-action spell, only a cantrip."""
    srd = rulesets["srd-5e"]
    enc = _fight(srd)
    state = enc.combat
    assert state is not None
    turn = state.combatant(CASTER).turn.model_copy(update={"cantrip_only": True})
    combatants = tuple(
        c.model_copy(update={"turn": turn}) if c.creature_id == CASTER else c
        for c in state.combatants
    )
    enc = with_combat(enc, state.model_copy(update={"combatants": combatants}))
    with pytest.raises(IllegalActionError, match="can only cast a cantrip"):
        cast_area_spell(enc, srd, CASTER, _fireball(srd))
    done = cast_area_spell(enc, srd, CASTER, _fireball(srd), cantrip=True)
    assert done.encounter.creature(GOBLIN).hp == 16
