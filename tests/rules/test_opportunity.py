"""Opportunity attacks as an engine step: offer, take or ignore, the move goes on or stops."""

from __future__ import annotations

import pytest

from battlemap.model.combat import CombatState
from battlemap.model.creature import Side
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.attacks import AttackOptions, AttackProfile, Delivery
from battlemap.rules.damage import DamageRoll
from battlemap.rules.errors import IllegalActionError
from battlemap.rules.opportunity import (
    OpportunityResult,
    opportunity_offers,
    resolve_opportunity,
)
from battlemap.rules.outcome import Outcome, with_combat
from battlemap.rules.schema import Ruleset
from tests.rules.fighters import creature, fight

AXE = AttackProfile(
    "Greataxe", to_hit=5, damage=(DamageRoll("1d12", "slashing"),), ability_modifier=3
)


def chase(mover_hp: int = 20) -> tuple[Encounter, CombatState]:
    encounter, combat = fight(
        creature("runner", hp=mover_hp),
        creature("orc", side=Side.HOSTILE),
        creature("goblin", side=Side.HOSTILE),
    )
    return encounter, combat  # the runner's turn (turn_index 0)


def test_offers_say_who_can_react_and_why_not(rulesets: dict[str, Ruleset]) -> None:
    srd = rulesets["srd-5e"]
    encounter, combat = chase()
    goblin = combat.combatant(EntityId("goblin")).model_copy(update={"reaction_used": True})
    offers = opportunity_offers(
        with_combat(encounter, combat.with_combatant(goblin)),
        srd,
        EntityId("runner"),
        [EntityId("orc"), EntityId("goblin")],
    )
    assert [o.available for o in offers] == [True, False]
    assert "reaction" in offers[1].reason
    runner = combat.combatant(EntityId("runner")).model_copy(update={"disengaged": True})
    assert not any(
        o.available
        for o in opportunity_offers(
            with_combat(encounter, combat.with_combatant(runner)),
            srd,
            EntityId("runner"),
            [EntityId("orc")],
        )
    )
    blind = opportunity_offers(
        with_combat(encounter, combat),
        srd,
        EntityId("runner"),
        [EntityId("orc")],
        sees_mover=[False],
    )
    assert "can't see" in blind[0].reason


def orc_takes_its_swing(srd: Ruleset, mover_hp: int = 20) -> Outcome[OpportunityResult]:
    """The orc takes its opportunity attack on the runner (d20 rolls 15, damage rolls 9)."""
    encounter, combat = chase(mover_hp)
    (offer,) = opportunity_offers(
        with_combat(encounter, combat), srd, EntityId("runner"), [EntityId("orc")]
    )
    return resolve_opportunity(
        with_combat(encounter, combat),
        srd,
        offer,
        take=True,
        profile=AXE,
        options=AttackOptions(d20=(15,), damage_rolls=(9,)),
    )


def test_take_spends_the_reaction_and_the_move_continues(rulesets: dict[str, Ruleset]) -> None:
    srd = rulesets["srd-5e"]
    taken = orc_takes_its_swing(srd)
    assert taken.result.taken and taken.result.move_continues
    assert taken.encounter.creature(EntityId("runner")).hp == 11
    assert taken.combat is not None and taken.combat.combatant(EntityId("orc")).reaction_used
    (again,) = opportunity_offers(
        with_combat(taken.encounter, taken.combat), srd, EntityId("runner"), [EntityId("orc")]
    )
    assert not again.available


def test_move_stops_when_the_mover_drops(rulesets: dict[str, Ruleset]) -> None:
    srd = rulesets["srd-5e"]
    taken = orc_takes_its_swing(srd, mover_hp=5)
    assert not taken.result.move_continues and "0 hit points" in taken.result.reason


def test_ignore_changes_nothing_but_the_log(rulesets: dict[str, Ruleset]) -> None:
    srd = rulesets["srd-5e"]
    encounter, combat = chase()
    (offer,) = opportunity_offers(
        with_combat(encounter, combat), srd, EntityId("runner"), [EntityId("orc")]
    )
    ignored = resolve_opportunity(with_combat(encounter, combat), srd, offer, take=False)
    assert ignored.result.move_continues and not ignored.result.taken
    assert (
        ignored.combat is not None and not ignored.combat.combatant(EntityId("orc")).reaction_used
    )
    assert ignored.combat.combatants == combat.combatants


def test_only_a_melee_attack_and_only_when_available(rulesets: dict[str, Ruleset]) -> None:
    srd = rulesets["srd-5e"]
    encounter, combat = chase()
    (offer,) = opportunity_offers(
        with_combat(encounter, combat), srd, EntityId("runner"), [EntityId("orc")]
    )
    bow = AttackProfile("Shortbow", 4, Delivery.RANGED, damage=(DamageRoll("1d6", "piercing"),))
    with pytest.raises(IllegalActionError, match="melee"):
        resolve_opportunity(with_combat(encounter, combat), srd, offer, take=True, profile=bow)
    orc = combat.combatant(EntityId("orc")).model_copy(update={"reaction_used": True})
    (spent,) = opportunity_offers(
        with_combat(encounter, combat.with_combatant(orc)),
        srd,
        EntityId("runner"),
        [EntityId("orc")],
    )
    with pytest.raises(IllegalActionError, match="reaction"):
        resolve_opportunity(with_combat(encounter, combat), srd, spent, take=True, profile=AXE)


def test_offers_from_a_geometry_move_then_attack_before_leaving(
    rulesets: dict[str, Ruleset],
) -> None:
    from battlemap.geometry.map_index import MapIndex
    from battlemap.geometry.metrics import DiagonalRule
    from battlemap.geometry.opportunity import move_with_opportunity_attacks
    from battlemap.rules.attack_situation import attack_situation, combat_bodies
    from battlemap.rules.opportunity import offers_from_move

    srd = rulesets["srd-5e"]
    encounter, combat = fight(
        creature("runner", x=2, y=2), creature("orc", x=3, y=2, side=Side.HOSTILE)
    )
    index = MapIndex.build(encounter)
    bodies = {b.id: b for b in combat_bodies(with_combat(encounter, combat), srd)}
    move = move_with_opportunity_attacks(
        index,
        bodies[EntityId("runner")],
        [(0.0, 2.0)],
        [bodies[EntityId("orc")]],
        DiagonalRule.FIVE_TEN_FIVE,
        30,
    )
    (offer,) = offers_from_move(with_combat(encounter, combat), srd, EntityId("runner"), move)
    assert offer.available and offer.position == (2, 2) and offer.step_index == 0
    # The attack happens with the runner still at the position before it leaves the reach.
    where = encounter.replace_creature(
        encounter.creature(EntityId("runner")).model_copy(update={"x": 2, "y": 2})
    )
    situation = attack_situation(
        index, where, combat, srd, EntityId("orc"), EntityId("runner"), AXE
    )
    taken = resolve_opportunity(
        with_combat(where, combat),
        srd,
        offer,
        take=True,
        profile=AXE,
        situation=situation,
        options=AttackOptions(d20=(18,), damage_rolls=(4,)),
    )
    assert (
        taken.result.attack is not None and taken.result.attack.hit and taken.result.move_continues
    )


def test_unarmed_strike_profile(rulesets: dict[str, Ruleset]) -> None:
    from battlemap.rules.attacks import unarmed_strike

    weak = creature("kid", strength=6)
    assert unarmed_strike(rulesets["srd-5e"], weak, 2).damage == (DamageRoll("0", "bludgeoning"),)
    assert unarmed_strike(rulesets["gms-den"], weak, 2).damage == (DamageRoll("1", "bludgeoning"),)
    assert unarmed_strike(
        rulesets["final-fantasy-d20"], creature("monk", strength=16), 5
    ).damage == (DamageRoll("4", "blunt"),)
