"""Rule 7: opportunity attacks along a path (SRD "Opportunity Attacks": a hostile creature that
you can see moves out of your reach; Disengage, teleporting and being moved provoke none)."""

from __future__ import annotations

from battlemap.geometry import (
    DiagonalRule,
    HowMoved,
    move_with_opportunity_attacks,
    opportunity_attacks,
)
from battlemap.model import Size
from tests.geometry.helpers import body, foe, index, wall

R555 = DiagonalRule.FIVE_FIVE_FIVE
OPEN = index()
HERO = body("hero", 5, 5)
EAST = [(6, 5), (7, 5), (8, 5)]


def test_leaving_a_hostiles_reach_provokes_at_the_step_that_leaves_it() -> None:
    orc = foe("orc", 4, 5)  # adjacent on the west
    result = move_with_opportunity_attacks(OPEN, HERO, EAST, [orc], R555, 30)
    assert result.legal
    assert [(oa.attacker_id, oa.step_index, oa.position) for oa in result.opportunity_attacks] == [
        ("orc", 0, (5, 5))
    ]


def test_moving_within_reach_or_into_reach_does_not_provoke() -> None:
    orc = foe("orc", 5, 4)  # north of the hero
    around = move_with_opportunity_attacks(OPEN, HERO, [(6, 5)], [orc], R555, 30)
    assert around.opportunity_attacks == ()  # (6, 5) is still adjacent to (5, 4)
    towards = move_with_opportunity_attacks(
        OPEN, body("hero", 8, 5), [(7, 5), (6, 5)], [orc], R555, 30
    )
    assert towards.opportunity_attacks == ()


def test_a_long_reach_triggers_later() -> None:
    pike = foe("pike", 4, 5, reach_feet=10.0)
    result = move_with_opportunity_attacks(OPEN, HERO, EAST, [pike], R555, 30)
    assert [(oa.attacker_id, oa.step_index) for oa in result.opportunity_attacks] == [("pike", 1)]


def test_each_hostile_attacks_once_and_results_are_ordered_by_step() -> None:
    near, far = foe("near", 4, 5), foe("far", 7, 4)
    path = [(6, 5), (7, 5), (8, 5), (9, 5), (10, 5)]
    attacks = move_with_opportunity_attacks(
        OPEN, HERO, path, [far, near], R555, 30
    ).opportunity_attacks
    assert [(oa.attacker_id, oa.step_index) for oa in attacks] == [("near", 0), ("far", 3)]


def test_allies_and_spent_incapacitated_blind_or_reachless_hostiles_do_not_attack() -> None:
    others = [
        body("ally", 4, 5),
        foe("spent", 4, 4, reaction_spent=True),
        foe("asleep", 4, 6, incapacitated=True),
        foe("blind", 5, 4, blinded=True),
        foe("imp", 5, 6, reach_feet=0.0),
    ]
    assert (
        move_with_opportunity_attacks(OPEN, HERO, EAST, others, R555, 30).opportunity_attacks == ()
    )


def test_an_invisible_mover_or_one_behind_a_wall_is_not_seen_and_provokes_nothing() -> None:
    orc = foe("orc", 4, 5)
    ghost = body("hero", 5, 5, invisible=True)
    assert (
        move_with_opportunity_attacks(OPEN, ghost, EAST, [orc], R555, 30).opportunity_attacks == ()
    )
    lurker = foe("lurker", 5, 4)  # north, separated by a wall along y = 5
    walled = index(wall((0, 5), (30, 5)))
    path = [(6, 6), (7, 6)]
    result = move_with_opportunity_attacks(walled, HERO, path, [lurker], R555, 30)
    assert result.opportunity_attacks == ()


def test_disengage_teleport_and_forced_movement_provoke_nothing() -> None:
    orc = foe("orc", 4, 5)
    careful = body("hero", 5, 5, disengaged=True)
    assert (
        move_with_opportunity_attacks(OPEN, careful, EAST, [orc], R555, 30).opportunity_attacks
        == ()
    )
    cells = [(5, 5), *EAST]
    for how in (HowMoved.TELEPORT, HowMoved.FORCED):
        assert opportunity_attacks(OPEN, HERO, cells, [orc], R555, how) == ()
    assert opportunity_attacks(OPEN, HERO, cells, [orc], R555)[0].attacker_id == "orc"


def test_a_large_hostile_measures_reach_from_its_nearest_square() -> None:
    troll = foe("troll", 3, 4, Size.LARGE)  # squares 3..4 x 4..5: its square (4, 5) is adjacent
    result = move_with_opportunity_attacks(OPEN, HERO, EAST, [troll], R555, 30)
    assert [(oa.attacker_id, oa.step_index) for oa in result.opportunity_attacks] == [("troll", 0)]


def test_attacks_are_only_listed_for_steps_actually_walked() -> None:
    orc = foe("orc", 4, 5)
    blocked = index(wall((6, 0), (6, 30)))
    result = move_with_opportunity_attacks(blocked, HERO, EAST, [orc], R555, 30)
    assert not result.legal and result.opportunity_attacks == ()
