"""Rule 4: flanking, the optional rule of the GM's Den ruleset ("If the line passes through
opposite borders of the opponent's space (including corners of those borders) ... Only a
creature or character that threatens the defender can help ... Creatures with a reach of 0
feet can't flank")."""

from __future__ import annotations

from battlemap.geometry import DiagonalRule, FlankReason, flanking, line_flanks
from battlemap.geometry.metrics import Space
from battlemap.model import Size
from tests.geometry.helpers import body, foe

RULE = DiagonalRule.FIVE_FIVE_FIVE
TARGET = foe("orc", 5, 5)


def test_allies_on_opposite_sides_flank() -> None:
    fighter, rogue = body("fighter", 4, 5), body("rogue", 6, 5)
    result = flanking(fighter, TARGET, [fighter, rogue, TARGET], RULE)
    assert result.flanked and result.partner_id == "rogue"
    assert result.line == ((4.5, 5.5), (6.5, 5.5))


def test_allies_on_opposite_corners_flank() -> None:
    fighter, rogue = body("fighter", 4, 4), body("rogue", 6, 6)
    assert flanking(fighter, TARGET, [fighter, rogue], RULE).flanked


def test_allies_on_adjacent_sides_do_not_flank() -> None:
    fighter, rogue = body("fighter", 4, 5), body("rogue", 5, 6)
    result = flanking(fighter, TARGET, [fighter, rogue], RULE)
    assert not result.flanked and result.reason is FlankReason.NO_ALLY_OPPOSITE


def test_a_side_and_the_far_corner_do_not_flank_a_medium_target() -> None:
    # The line from (4.5, 5.5) to (6.5, 6.5) enters the left side and leaves the bottom.
    fighter, rogue = body("fighter", 4, 5), body("rogue", 6, 6)
    assert not flanking(fighter, TARGET, [fighter, rogue], RULE).flanked


def test_a_line_entering_at_a_corner_and_leaving_the_opposite_side_flanks() -> None:
    # Corners belong to both of their borders: in at the top-left corner, out at the bottom.
    assert line_flanks((4.0, 3.0), (6.0, 7.0), Space(5, 5, 1, 1))


def test_a_line_along_an_edge_or_touching_a_corner_does_not_flank() -> None:
    space = Space(5, 5, 1, 1)
    assert not line_flanks((5.0, 4.0), (5.0, 7.0), space)
    assert not line_flanks((4.0, 6.0), (6.0, 4.0), space)  # touches the top-left corner only
    assert not line_flanks((4.0, 7.0), (6.0, 5.0), Space(5, 6, 1, 1))


def test_a_large_target_is_flanked_across_its_20_ft_of_border() -> None:
    troll = foe("troll", 5, 5, Size.LARGE)  # squares 5..6
    fighter, rogue = body("fighter", 4, 6), body("rogue", 7, 5)
    assert flanking(fighter, troll, [fighter, rogue], RULE).flanked


def test_large_allies_flank_from_the_centres_of_their_spaces() -> None:
    rogue = body("rogue", 6, 5)  # centre (6.5, 5.5)
    level = body("ogre", 3, 5, Size.LARGE)  # centre (4, 6): in at x=5, y=5.8; out at x=6, y=5.6
    assert flanking(level, TARGET, [level, rogue], RULE).flanked
    high = body("ogre", 3, 3, Size.LARGE)  # centre (4, 4): in through the top, out the right
    result = flanking(high, TARGET, [high, rogue], RULE)
    assert not result.flanked and result.reason is FlankReason.NO_ALLY_OPPOSITE


def test_an_ally_out_of_reach_or_incapacitated_does_not_help() -> None:
    fighter = body("fighter", 4, 5)
    far = body("archer", 8, 5)
    asleep = body("rogue", 6, 5, incapacitated=True)
    assert not flanking(fighter, TARGET, [fighter, far, asleep], RULE).flanked
    spear = body("spear", 7, 5, reach_feet=10.0)
    assert flanking(fighter, TARGET, [fighter, spear], RULE).flanked


def test_reach_0_creatures_cannot_flank() -> None:
    fighter, imp = body("fighter", 4, 5), body("imp", 6, 5, reach_feet=0.0)
    assert not flanking(fighter, TARGET, [fighter, imp], RULE).flanked
    result = flanking(imp, TARGET, [imp, fighter], RULE)
    assert result.reason is FlankReason.ATTACKER_CANNOT_THREATEN


def test_enemies_of_the_attacker_are_not_flanking_partners() -> None:
    fighter = body("fighter", 4, 5)
    other_orc = foe("orc2", 6, 5)
    assert not flanking(fighter, TARGET, [fighter, other_orc], RULE).flanked
