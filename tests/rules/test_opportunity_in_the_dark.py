"""Opportunity attacks read the light where the mover leaves the reach (srd-5e "Opportunity
Attacks" as legends-of-hyrule words it: "when a hostile creature that you can see moves out
of your reach"; srd-5e "Unseen Attackers and Targets": one "lurking in darkness" is unseen).
"""

from __future__ import annotations

from battlemap.geometry.map_index import MapIndex
from battlemap.geometry.metrics import DiagonalRule
from battlemap.geometry.opportunity import move_with_opportunity_attacks
from battlemap.model.creature import Side
from battlemap.model.features import Light, LightLevel, MapLighting
from battlemap.model.ids import EntityId
from battlemap.model.statblock import Senses
from battlemap.rules.attack_situation import combat_bodies
from battlemap.rules.move_plan import MovePlan
from battlemap.rules.opportunity import OpportunityOffer, offers_from_move
from battlemap.rules.outcome import with_combat
from battlemap.rules.schema import Ruleset
from tests.rules.fighters import creature, fight
from tests.rules.test_attack_in_the_dark import NO_SENSES, with_senses

RUNNER = EntityId("runner")


def runner_leaves_the_orc(
    srd: Ruleset, *, lights: tuple[Light, ...] = (), orc: Senses = NO_SENSES
) -> OpportunityOffer:
    """The runner walks from (2, 2) to (0, 2), out of the adjacent orc's reach, in a dark
    room."""
    encounter, combat = fight(
        creature("runner", x=2, y=2),
        with_senses(creature("orc", x=3, y=2, side=Side.HOSTILE), orc),
    )
    encounter = encounter.model_copy(
        update={"lights": lights, "lighting": MapLighting(ambient=LightLevel.DARK)}
    )
    fighting = with_combat(encounter, combat)
    bodies = {b.id: b for b in combat_bodies(fighting, srd)}
    move = move_with_opportunity_attacks(
        MapIndex.build(encounter),
        bodies[RUNNER],
        [(0.0, 2.0)],
        [bodies[EntityId("orc")]],
        DiagonalRule.FIVE_TEN_FIVE,
        30,
    )
    (offer,) = offers_from_move(fighting, srd, RUNNER, move)
    return offer


def test_srd_no_opportunity_attack_on_a_runner_in_darkness(rulesets: dict[str, Ruleset]) -> None:
    offer = runner_leaves_the_orc(rulesets["srd-5e"])
    assert not offer.available
    assert offer.reason == "Orc can't see Runner (Runner in darkness, no darkvision)"


def test_srd_a_torch_the_runner_carries_or_darkvision_shows_it(
    rulesets: dict[str, Ruleset],
) -> None:
    srd = rulesets["srd-5e"]
    # The torch lies far off; carried, it goes with the runner to where it leaves the reach.
    torch = Light(position=(30.0, 30.0), bright_cells=4, dim_cells=8, carried_by=RUNNER)
    assert runner_leaves_the_orc(srd, lights=(torch,)).available
    assert runner_leaves_the_orc(srd, orc=Senses(darkvision=60)).available


def test_srd_the_drag_preview_leaves_out_the_orc_in_the_dark(
    rulesets: dict[str, Ruleset],
) -> None:
    # The move's preview (MovePlan) lists the opportunity attacks the resolution offers.
    srd = rulesets["srd-5e"]
    encounter, combat = fight(
        creature("runner", x=2, y=2), creature("orc", x=3, y=2, side=Side.HOSTILE)
    )
    for ambient, provoked in ((LightLevel.BRIGHT, 1), (LightLevel.DARK, 0)):
        there = with_combat(
            encounter.model_copy(update={"lighting": MapLighting(ambient=ambient)}), combat
        )
        plan = MovePlan(there, srd, MapIndex.build(there), RUNNER)
        attacks = plan.evaluate((), (0, 2), False).result.opportunity_attacks
        assert len(attacks) == provoked, ambient
