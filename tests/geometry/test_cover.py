"""Rule 3: cover by the DMG grid method (SRD "Cover": half +2, three-quarters +5, total can't be
targeted; only the best degree counts), with the boundary rules and the method's known false
positives (a wall behind the target, walls on grid lines, an adjacent creature on the diagonal).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from battlemap.geometry import BlockerKind, cover_all_pairs, cover_from_point, cover_to_many
from battlemap.geometry.cover import cover
from battlemap.model import CoverDegree, Size
from tests.geometry.helpers import body, door, foe, index, obstacle, wall, window

NONE, HALF, TQ, TOTAL = (
    CoverDegree.NONE,
    CoverDegree.HALF,
    CoverDegree.THREE_QUARTERS,
    CoverDegree.TOTAL,
)
A = body("attacker", 0, 5)
T = foe("target", 6, 5)


def test_open_ground_gives_no_cover_and_four_clear_lines() -> None:
    result = cover(index(), A, T, [A, T])
    assert result.degree is NONE
    assert len(result.lines) == 4 and not any(line.blocked for line in result.lines)
    assert result.target_square.x == 6 and result.target_square.y == 5


def test_a_wall_across_the_whole_map_gives_total_cover_and_names_the_wall() -> None:
    result = cover(index(wall((3, 0), (3, 30), "w1")), A, T, [A, T])
    assert result.degree is TOTAL and result.source is BlockerKind.WALL
    assert result.centre_line.blocked and result.centre_line.blocker_id == "w1"
    assert all(line.blocker_id == "w1" for line in result.lines)


def test_a_wall_covering_the_lower_half_of_the_target_gives_half_cover() -> None:
    result = cover(index(wall((5, 5.5), (5, 7), "low")), A, T, [A, T])
    assert result.degree is HALF
    assert result.blocked_lines == 2 and result.source is BlockerKind.WALL
    assert [line.blocker_id for line in result.lines if line.blocked] == ["low", "low"]


def test_three_blocked_lines_from_the_best_corner_give_three_quarters() -> None:
    attacker = body("a", 0, 0)
    result = cover(index(wall((5, 3.5), (5, 10))), attacker, T, [attacker, T])
    assert result.degree is TQ
    assert result.corner == (1.0, 0.0) and result.blocked_lines == 3


def test_a_wall_drawn_off_the_grid_through_the_attackers_corner_covers_as_on_the_grid() -> None:
    # The wall x = 0.6 + y / 2 runs through the attacker's corner (1, 1), between it and the
    # target. Drawn from (0.5, 0) to (3, 5) the corner lies on it exactly; from (0.1, -0.8) to
    # (2.7, 4.4) (tenths of a cell, as on an imported map) it misses the corner by a rounding
    # error. Either way the corner's lines start on the attacker's side: total cover, not none.
    attacker, target = body("a", 0, 1), foe("t", 2, 0)
    for a, b in (((0.5, 0.0), (3.0, 5.0)), ((0.1, -0.8), (2.7, 4.4))):
        result = cover(index(wall(a, b, "w")), attacker, target, [attacker, target])
        assert result.degree is TOTAL, (a, b)


def test_the_line_through_the_joint_of_two_wall_segments_is_blocked() -> None:
    joined = index(wall((3, 0), (3, 5.5)), wall((3, 5.5), (3, 30)))
    result = cover(joined, A, T, [A, T])
    assert result.degree is TOTAL  # the centre line y = 5.5 meets only the joint


def test_a_gap_between_wall_segments_lets_the_centre_line_through() -> None:
    gapped = index(wall((3, 0), (3, 5.45)), wall((3, 5.55), (3, 30)))
    result = cover(gapped, A, T, [A, T])
    assert not result.centre_line.blocked
    assert result.degree is TQ  # every corner line hits a wall, the centre line does not


def test_grazing_the_free_end_of_a_wall_does_not_block() -> None:
    # The wall ends exactly on the lines from the attacker's bottom corners.
    result = cover(index(wall((3, 6), (3, 10))), A, T, [A, T])
    assert result.degree is NONE


def test_running_along_a_wall_on_a_grid_line_does_not_block() -> None:
    # False positive 2: both creatures stand against the same wall on their top edges.
    along = index(wall((0, 5), (30, 5)), wall((0, 6.0), (2, 6.0)))
    result = cover(along, A, T, [A, T])
    assert result.degree is NONE


def test_a_wall_behind_the_target_gives_no_cover() -> None:
    # False positive 1: the target's far corners lie on a wall.
    result = cover(index(wall((7, 0), (7, 30))), A, T, [A, T])
    assert result.degree is NONE


def test_an_adjacent_creature_on_the_diagonal_gives_no_cover() -> None:
    # False positive 3: attacker and target touch at a corner; a third creature is
    # adjacent to both. Lines from the shared corner run along its edges.
    attacker, target = body("a", 5, 5), foe("t", 6, 6)
    for bystander in (body("c", 6, 5), body("c", 5, 6)):
        result = cover(index(), attacker, target, [attacker, target, bystander])
        assert result.degree is NONE


def test_a_wall_on_the_grid_line_between_neighbours_gives_total_cover() -> None:
    # A corner lying on a wall belongs to its own side: no attacking through the wall.
    attacker, target = body("a", 4, 5), foe("t", 5, 5)
    result = cover(index(wall((5, 0), (5, 30))), attacker, target, [attacker, target])
    assert result.degree is TOTAL


def test_a_creature_in_between_gives_half_cover_at_most() -> None:
    ogre = foe("ogre", 3, 4, Size.HUGE)  # rows 4..6: every line passes through it
    result = cover(index(), A, T, [A, T, ogre])
    assert result.degree is HALF and result.source is BlockerKind.CREATURE
    assert result.cap_applied is HALF
    assert {line.blocker_id for line in result.lines if line.blocked} == {"ogre"}


def test_two_creatures_blocking_different_lines_still_give_half() -> None:
    upper, lower = body("u", 3, 4), body("l", 3, 6)
    result = cover(index(), A, T, [A, T, upper, lower])
    assert result.degree in (NONE, HALF)


def test_the_attackers_and_targets_own_spaces_never_block() -> None:
    giant = body("giant", 0, 0, Size.HUGE)
    dragon = foe("dragon", 6, 0, Size.GARGANTUAN)
    assert cover(index(), giant, dragon, [giant, dragon]).degree is NONE


def test_a_low_wall_never_gives_more_than_half_even_when_it_blocks_every_line() -> None:
    low = obstacle("low wall", 3, 0, 4, 30, CoverDegree.HALF)
    result = cover(index(obstacles=(low,)), A, T, [A, T])
    assert result.degree is HALF and result.cap_applied is HALF
    assert result.source is BlockerKind.OBSTACLE
    assert all(line.blocker_id == "low wall" for line in result.lines)


def test_a_thick_trunk_gives_three_quarters_and_a_pillar_total() -> None:
    trunk = obstacle("trunk", 3, 0, 4, 30, CoverDegree.THREE_QUARTERS)
    pillar = obstacle("pillar", 3, 0, 4, 30, CoverDegree.TOTAL)
    assert cover(index(obstacles=(trunk,)), A, T, [A, T]).degree is TQ
    assert cover(index(obstacles=(pillar,)), A, T, [A, T]).degree is TOTAL


def test_a_line_along_an_obstacles_edge_or_through_its_corner_is_not_blocked() -> None:
    table = obstacle("table", 2, 3, 4, 5, CoverDegree.HALF)  # its bottom edge is y = 5
    result = cover(index(obstacles=(table,)), A, T, [A, T])
    assert result.degree is NONE


def test_an_arrow_slit_window_gives_three_quarters_not_total() -> None:
    result = cover(index(window((3, 0), (3, 30), "slit")), A, T, [A, T])
    assert result.degree is TQ and result.source is BlockerKind.WINDOW
    assert result.lines[0].blocker_id == "slit"


def test_a_closed_door_blocks_like_a_wall_and_an_open_door_not_at_all() -> None:
    closed = index(door((3, 0), (3, 30), open_=False))
    opened = index(door((3, 0), (3, 30), open_=True))
    assert cover(closed, A, T, [A, T]).degree is TOTAL
    assert cover(opened, A, T, [A, T]).degree is NONE


def test_a_spells_point_of_origin_traces_from_that_point_only() -> None:
    behind = index(wall((3, 0), (3, 30)))
    assert cover_from_point(behind, (1.0, 5.5), T, [T]).degree is TOTAL
    assert cover_from_point(index(), (1.0, 5.5), T, [T]).degree is NONE
    assert cover_from_point(index(), (1.0, 5.5), T, [T]).corner == (1.0, 5.5)


def test_a_gargantuan_target_is_judged_by_its_most_exposed_square() -> None:
    dragon = foe("dragon", 6, 4, Size.GARGANTUAN)  # squares 6..9 x 4..7
    half_wall = index(wall((5, 0), (5, 5.5)))  # hides its top rows only
    result = cover(half_wall, A, dragon, [A, dragon])
    assert result.degree is NONE
    assert result.target_square.y >= 5


def test_a_large_attacker_chooses_among_the_corners_of_all_its_squares() -> None:
    # Only the middle of the ogre's right side looks through a narrow slot in the wall.
    ogre = body("ogre", 0, 4, Size.LARGE)
    target = foe("t", 4, 4)
    slot = index(wall((3, 0), (3, 4.8)), wall((3, 5.2), (3, 30)))
    result = cover(slot, ogre, target, [ogre, target])
    assert result.corner[1] == 5.0  # a corner inside its space, not an outer one
    assert result.degree is HALF and result.blocked_lines == 2


def test_cover_to_many_matches_one_by_one() -> None:
    walls = index(wall((3, 0), (3, 5.5)), wall((8, 8), (12, 12)), wall((5, 5.5), (5, 7)))
    targets = [foe(f"t{i}", x, y) for i, (x, y) in enumerate([(6, 5), (10, 12), (2, 2), (14, 9)])]
    everyone = [A, *targets]
    batch = cover_to_many(walls, A, targets, everyone)
    assert [r.degree for r in batch] == [cover(walls, A, t, everyone).degree for t in targets]


def test_cover_all_pairs_matches_each_pair_on_its_own() -> None:
    walls = index(wall((3, 0), (3, 5.5)), wall((3, 5.5), (3, 8)), wall((8, 8), (12, 12)))
    crowd = [A, T, body("b", 4, 9), foe("c", 10, 3, Size.LARGE), body("d", 13, 13)]
    everything = cover_all_pairs(walls, crowd)
    assert len(everything) == 5 * 4
    for (attacker_id, target_id), result in everything.items():
        attacker = next(c for c in crowd if c.id == attacker_id)
        target = next(c for c in crowd if c.id == target_id)
        alone = cover(walls, attacker, target, crowd)
        assert (result.degree, result.corner, result.blocked_lines) == (
            alone.degree,
            alone.corner,
            alone.blocked_lines,
        )


coords = st.integers(0, 12).map(lambda v: v / 2)
walls_strategy = st.lists(st.tuples(coords, coords, coords, coords), min_size=1, max_size=6)
cells = st.tuples(st.integers(0, 5), st.integers(0, 5))


@settings(max_examples=40, deadline=None)
@given(walls_strategy, cells, cells, st.integers(0, 5))
def test_removing_a_wall_never_increases_cover(
    segments: list[tuple[float, float, float, float]],
    a: tuple[int, int],
    t: tuple[int, int],
    drop: int,
) -> None:
    attacker, target = body("a", *a), foe("t", t[0] + 1, t[1] + 1)
    if attacker.space.overlaps(target.space):
        return
    walls = [wall((x0, y0), (x1, y1), f"w{i}") for i, (x0, y0, x1, y1) in enumerate(segments)]
    walls = [w for w in walls if w.a != w.b]
    if not walls:
        return
    fewer = [w for i, w in enumerate(walls) if i != drop % len(walls)]
    full = cover(index(*walls, width=8, height=8), attacker, target, [attacker, target]).degree
    less = cover(index(*fewer, width=8, height=8), attacker, target, [attacker, target]).degree
    assert less.rank <= full.rank


def test_a_wall_drawn_twice_is_one_wall_not_a_joint() -> None:
    """Imported maps repeat segments; two copies ending at the same point are not a joint,
    so a line grazing that end stays clear (found by the fast-path property test)."""
    attacker = body("c0", x=0, y=3)
    target = body("c2", x=2, y=0, size=Size.LARGE)
    once = index(window((0, 2), (3, 2)))
    twice = index(window((0, 2), (3, 2)), window((0, 2), (3, 2)), window((3, 2), (0, 2)))
    single = cover(once, attacker, target, [attacker, target])
    doubled = cover(twice, attacker, target, [attacker, target])
    assert (doubled.degree, doubled.blocked_lines) == (single.degree, single.blocked_lines)
    assert doubled.degree is CoverDegree.HALF


# -- the choice among equal options, and lines of zero length ----------------------------------


def test_the_attacker_takes_the_corner_with_most_clear_lines_counting_creature_blocks() -> None:
    """DMG grid method: the attacker picks the corner and square that favour it most. Both
    (2, 0) and (2, 1) give three-quarters by the wall; from (2, 0) the fourth line runs
    through a bystander (creatures give half cover at most, so the degree stays
    three-quarters, but that line is blocked too), from (2, 1) it is clear. The attacker
    takes (2, 1): at equal degree, the fewest lines blocked by anything, then the first
    corner in (x, y) order."""
    attacker, target, bystander = body("a", 2, 0), foe("t", 6, 6), body("c", 3, 1)
    walled = index(wall((5, 1), (5, 5), "w"))
    result = cover(walled, attacker, target, [attacker, target, bystander])
    assert result.degree is TQ and result.corner == (2.0, 1.0)
    assert result.blocked_lines == 3 == sum(line.blocked for line in result.lines)
    alone = cover(walled, attacker, target, [attacker, target])
    assert alone.degree is TQ and alone.corner == (2.0, 0.0)  # the tie goes to the first corner


def test_a_zero_length_line_inside_an_obstacle_is_not_blocked() -> None:
    """DMG grid method: a line is blocked when it passes through the inside of an obstacle;
    a line from a point to the same point (an origin on the target's corner, creatures
    sharing a corner) only touches, even inside a table."""
    target = foe("t", 5, 5)
    table = obstacle("table", 4.5, 4.5, 5.5, 5.5, CoverDegree.THREE_QUARTERS)
    result = cover_from_point(index(obstacles=(table,)), (5.0, 5.0), target, [target])
    point_line = next(line for line in result.lines if line.start == line.end)
    assert not point_line.blocked and point_line.blocker_id is None
    assert result.blocked_lines == 3 and result.degree is TQ


def test_diagonal_neighbours_with_a_wall_through_their_shared_corner_have_total_cover() -> None:
    """A corner on a wall belongs to its own creature's side, also when attacker and target
    share it: their zero-length line there is split to both sides and crosses the wall (a
    wall between them still blocks). A wall only ending at that corner does not."""
    attacker, target = body("a", 4, 4), foe("t", 5, 5)
    across = cover(index(wall((5, 0), (5, 30))), attacker, target, [attacker, target])
    assert across.degree is TOTAL
    ending = cover(index(wall((5, 0), (5, 5))), attacker, target, [attacker, target])
    assert ending.degree is NONE
