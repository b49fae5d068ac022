"""The drag update's fast paths agree with the plain computation they replace.

``path_cost`` builds its ``MoveContext`` with only the creatures near the path (``near=``) and
asks about its own cells; ``opportunity_attacks`` asks whether each watcher sees the mover in
two batched calls. Both must give exactly what the whole-map context and one
``line_of_sight`` per watcher give.
"""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from battlemap.geometry import Body, DiagonalRule, MapIndex, path_cost
from battlemap.geometry.map_index import DIRECTIONS
from battlemap.geometry.metrics import Cell, grid_steps_to_feet
from battlemap.geometry.movement import MoveContext, OpportunityAttack, walk
from battlemap.geometry.opportunity import opportunity_attacks
from battlemap.geometry.sight import line_of_sight
from battlemap.model import Side, Size
from tests.geometry.helpers import body, index, wall

SIZE = 14
WORLD = index(
    wall((8, 2), (8, 7)),
    wall((3, 9), (9, 9)),
    wall((4.3, 4.2), (5.6, 5.1)),
    width=SIZE,
    height=SIZE,
)

creatures = st.lists(
    st.builds(
        lambda n, x, y, size, side, reach, blind: body(
            f"c{n}", x, y, size, side, reach_feet=reach, blinded=blind
        ),
        st.integers(0, 10_000),
        st.integers(0, SIZE - 4),
        st.integers(0, SIZE - 4),
        st.sampled_from(list(Size)),
        st.sampled_from([Side.HOSTILE, Side.HOSTILE, Side.PARTY, Side.NEUTRAL]),
        st.sampled_from([0.0, 5.0, 5.0, 10.0]),
        st.sampled_from([False, False, False, True]),
    ),
    max_size=8,
    unique_by=lambda b: b.id,
)
movers = st.builds(
    lambda x, y, size, side: body("mover", x, y, size, side),
    st.integers(2, SIZE - 6),
    st.integers(2, SIZE - 6),
    st.sampled_from([Size.TINY, Size.MEDIUM, Size.LARGE, Size.HUGE]),
    st.sampled_from([Side.PARTY, Side.PARTY, Side.HOSTILE, Side.NEUTRAL]),
)
directions = st.lists(st.integers(0, 7), min_size=1, max_size=12)


def _cells(mover: Body, steps: list[int]) -> list[Cell]:
    cells = [(math.floor(mover.x), math.floor(mover.y))]
    for d in steps:
        dx, dy = DIRECTIONS[d]
        cells.append((cells[-1][0] + dx, cells[-1][1] + dy))
    return cells


WALKS = 80


def test_walking_with_only_the_creatures_near_the_path_changes_nothing() -> None:
    legal: list[bool] = []

    @settings(max_examples=WALKS, deadline=None, database=None)
    @given(movers, creatures, directions, st.sampled_from(list(DiagonalRule)))
    def compare(mover: Body, others: list[Body], steps: list[int], rule: DiagonalRule) -> None:
        cells = _cells(mover, steps)
        fast = path_cost(WORLD, mover, cells[1:], others, rule, 60)
        whole = walk(MoveContext(WORLD, mover, others, rule), cells, 60)
        assert fast == whole
        legal.append(fast.legal)

    compare()
    assert len(legal) == WALKS
    assert 0 < sum(legal) < WALKS, sum(legal)  # legal and illegal walks were both compared


def reference_opportunity_attacks(
    index: MapIndex, mover: Body, cells: list[Cell], others: list[Body], rule: DiagonalRule
) -> tuple[OpportunityAttack, ...]:
    """Rule 7 the plain way: every watcher, every step, one ``line_of_sight`` per leave."""
    found = []
    for other in others:
        if (
            other.id == mover.id
            or not other.is_hostile_to(mover)
            or other.incapacitated
            or other.reaction_spent
            or other.reach_feet <= 0
            or other.blinded
            or mover.invisible
        ):
            continue
        within_before = False
        for i, (cx, cy) in enumerate(cells):
            space = mover.moved_to(cx + mover.x % 1, cy + mover.y % 1).space
            gap_x = max(0, other.space.cell_range()[0] - space.cell_range()[2])
            gap_x = max(gap_x, space.cell_range()[0] - other.space.cell_range()[2])
            gap_y = max(0, other.space.cell_range()[1] - space.cell_range()[3])
            gap_y = max(gap_y, space.cell_range()[1] - other.space.cell_range()[3])
            feet = grid_steps_to_feet(gap_x, gap_y, rule, mover.cell_feet)
            within = feet <= other.reach_feet + 1e-9
            if i > 0 and within_before and not within:
                before = mover.moved_to(
                    cells[i - 1][0] + mover.x % 1, cells[i - 1][1] + mover.y % 1
                )
                if line_of_sight(index, other.space, before.space).visible:
                    found.append(OpportunityAttack(other.id, i - 1, cells[i - 1]))
                    break
            within_before = within
    found.sort(key=lambda oa: oa.step_index)
    return tuple(found)


@settings(max_examples=150, deadline=None)
@given(movers, creatures, directions, st.sampled_from(list(DiagonalRule)))
def test_batched_sight_finds_the_same_opportunity_attacks(
    mover: Body, others: list[Body], steps: list[int], rule: DiagonalRule
) -> None:
    cells = _cells(mover, steps)
    expected = reference_opportunity_attacks(WORLD, mover, cells, others, rule)
    assert opportunity_attacks(WORLD, mover, cells, others, rule) == expected
