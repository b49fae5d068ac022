"""Squeezing into a smaller space, from the ruleset to the geometry and the attack roll.

legends-of-hyrule "Squeezing into a Smaller Space": "A creature can squeeze through a space
that is large enough for a creature one size smaller than it. Thus, a Large creature can
squeeze through a passage that's only 5 feet wide. While squeezing through a space, a creature
must spend 1 extra foot for every foot it moves there, and it has disadvantage on attack rolls
and Dexterity saving throws. Attack rolls against the creature have advantage while it's in the
smaller space." The SRD text doesn't state it; the rules-sources README's size-and-space row
says to use the hyrule table, so srd-5e (and every ruleset extending it) squeezes the same way.

Each field is checked with its shipped value and with a changed copy of the ruleset.
"""

from __future__ import annotations

import pytest

from battlemap.geometry import Body, IllegalReason, MapIndex, MoveResult, StepReason, path_cost
from battlemap.model import EntityId, Grid, Side, Size, Wall
from battlemap.model.encounter import Encounter
from battlemap.rules.attack_situation import attack_situation
from battlemap.rules.attacks import (
    AttackOptions,
    AttackProfile,
    RollMode,
    roll_mode,
)
from battlemap.rules.damage import DamageRoll
from battlemap.rules.movement import diagonal_rule, movement_costs
from battlemap.rules.schema import Ruleset, SqueezeRules
from tests.rules.conftest import RULESET_IDS
from tests.rules.fighters import combat_of, creature

Rulesets = dict[str, Ruleset]
CLUB = AttackProfile("Greatclub", 4, damage=(DamageRoll("2d8", "bludgeoning"),))

# A wall down x = 8 with a 5-ft gap between y = 5 and y = 6: room for a Medium creature only.
GAP_WALLS = (
    Wall(id=EntityId("north"), a=(8.0, 0.0), b=(8.0, 5.0)),
    Wall(id=EntityId("south"), a=(8.0, 6.0), b=(8.0, 15.0)),
)
GAP = MapIndex(Grid(width=20, height=15), GAP_WALLS)
EAST_4 = [(6.0, 5.0), (7.0, 5.0), (8.0, 5.0), (9.0, 5.0)]


def with_squeezing(ruleset: Ruleset, squeezing: SqueezeRules | None) -> Ruleset:
    movement = ruleset.movement.model_copy(update={"squeezing": squeezing})
    return ruleset.model_copy(update={"movement": movement})


def ogre_through_the_gap(ruleset: Ruleset) -> MoveResult:
    """A Large ogre from (5, 5) four cells east through the 5-ft gap, with 40 ft to spend."""
    ogre = Body(EntityId("ogre"), Size.LARGE, Side.HOSTILE, 5, 5)
    return path_cost(
        GAP, ogre, EAST_4, [], diagonal_rule(ruleset), 40, costs=movement_costs(ruleset)
    )


def test_srd_a_large_creature_squeezes_through_a_5_ft_gap_at_one_extra_foot_per_foot(
    rulesets: Rulesets,
) -> None:
    ruleset = rulesets["srd-5e"]
    squeezing = ruleset.movement.squeezing
    assert squeezing is not None and squeezing.extra_cost_per_foot == 1
    result = ogre_through_the_gap(ruleset)
    assert result.legal and result.cost_feet == 25
    # Only at (7, 5) does its space straddle the wall.
    assert [s.cost_feet for s in result.steps] == [5, 10, 5, 5]
    assert result.steps[1].reasons == (StepReason.SQUEEZE,)


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_shipped_ruleset_squeezes_by_the_hyrule_rule(
    rulesets: Rulesets, ruleset_id: str
) -> None:
    """legends-of-hyrule states it; srd-5e takes it (README); the others extend srd-5e and
    say nothing about squeezing."""
    squeezing = rulesets[ruleset_id].movement.squeezing
    assert squeezing == SqueezeRules(
        extra_cost_per_foot=1,
        attacks_with_disadvantage=True,
        dex_saves_with_disadvantage=True,
        attacked_with_advantage=True,
    )
    assert movement_costs(rulesets[ruleset_id]).squeeze_extra == 1


def test_a_ruleset_without_squeezing_rules_needs_room_for_the_whole_space(
    rulesets: Rulesets,
) -> None:
    ruleset = with_squeezing(rulesets["srd-5e"], None)
    assert movement_costs(ruleset).squeeze_extra is None
    result = ogre_through_the_gap(ruleset)
    assert not result.legal and result.reason is IllegalReason.WALL
    assert result.blocked_step == 1


def test_a_ruleset_charging_two_extra_feet_to_squeeze_triples_the_squeezed_step(
    rulesets: Rulesets,
) -> None:
    srd = rulesets["srd-5e"]
    dear = with_squeezing(srd, SqueezeRules(extra_cost_per_foot=2))
    assert [s.cost_feet for s in ogre_through_the_gap(dear).steps] == [5, 15, 5, 5]


# --- attack rolls: the geometry says who stands squeezed, the ruleset what it means ---------


def squeezed_fight(ogre_x: float) -> tuple[Encounter, MapIndex]:
    """An ogre (Large) at (ogre_x, 5) and a hero (Medium) at (6, 4), diagonally next to the
    ogre at x = 7 (in the gap) and at x = 4 (in the open)."""
    ogre = creature("ogre", side=Side.HOSTILE, x=ogre_x, y=5).model_copy(
        update={"size": Size.LARGE}
    )
    hero = creature("hero", x=6, y=4)
    enc = Encounter(creatures=(hero, ogre), walls=GAP_WALLS, grid=Grid(width=20, height=15))
    return enc, MapIndex.build(enc)


def attack_mode(ruleset: Ruleset, ogre_x: float, attacker: str, target: str) -> RollMode:
    enc, index = squeezed_fight(ogre_x)
    combat = combat_of(enc)
    situation = attack_situation(
        index, enc, combat, ruleset, EntityId(attacker), EntityId(target), CLUB
    )
    report = roll_mode(
        ruleset,
        combat.combatant(EntityId(attacker)),
        combat.combatant(EntityId(target)),
        CLUB,
        situation,
        AttackOptions(),
    )
    return report.mode


def test_srd_a_squeezed_ogre_is_attacked_with_advantage_and_attacks_with_disadvantage(
    rulesets: Rulesets,
) -> None:
    srd = rulesets["srd-5e"]
    enc, index = squeezed_fight(7)  # its space straddles the wall: it stands in the gap
    situation = attack_situation(
        index, enc, combat_of(enc), srd, EntityId("hero"), EntityId("ogre"), CLUB
    )
    assert situation.distance_feet == 5
    assert situation.target_squeezing and not situation.attacker_squeezing
    assert attack_mode(srd, 7, "hero", "ogre") is RollMode.ADVANTAGE
    assert attack_mode(srd, 7, "ogre", "hero") is RollMode.DISADVANTAGE


def test_an_ogre_with_room_for_its_space_is_not_squeezing(rulesets: Rulesets) -> None:
    srd = rulesets["srd-5e"]
    enc, index = squeezed_fight(4)
    situation = attack_situation(
        index, enc, combat_of(enc), srd, EntityId("hero"), EntityId("ogre"), CLUB
    )
    assert situation.distance_feet == 5 and not situation.target_squeezing
    assert attack_mode(srd, 4, "hero", "ogre") is RollMode.NORMAL
    assert attack_mode(srd, 4, "ogre", "hero") is RollMode.NORMAL


def test_the_squeezing_attack_fields_follow_the_ruleset(rulesets: Rulesets) -> None:
    srd = rulesets["srd-5e"]
    none = with_squeezing(srd, None)
    assert attack_mode(none, 7, "hero", "ogre") is RollMode.NORMAL
    assert attack_mode(none, 7, "ogre", "hero") is RollMode.NORMAL
    no_effects = with_squeezing(
        srd, SqueezeRules(attacks_with_disadvantage=False, attacked_with_advantage=False)
    )
    assert attack_mode(no_effects, 7, "hero", "ogre") is RollMode.NORMAL
    assert attack_mode(no_effects, 7, "ogre", "hero") is RollMode.NORMAL
