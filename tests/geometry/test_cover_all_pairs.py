"""All-pairs cover (solved in bulk arrays, results made when read) gives, pair by pair, the
answer of ``cover`` for that pair on its own: degree, corner, square, cap, source, count and
every traced line with its blocker; and it reads like the dict it replaced.

Rules: SRD 5.1 cover by the DMG grid method (see ``battlemap.geometry.cover``)."""

from __future__ import annotations

from typing import Any, cast

from hypothesis import given, settings
from hypothesis import strategies as st

from battlemap.geometry import Body, cover_all_pairs
from battlemap.geometry.cover import cover
from battlemap.model import EntityId, Obstacle, Size, Wall
from tests.geometry.helpers import body, foe, index, wall
from tests.geometry.test_cover_batches import answer
from tests.geometry.test_cover_fastpath import SIZE, maps

CHECKED: list[int] = []
"""Pairs compared per example of the property (read by the test after it)."""

SIZES = [Size.TINY, Size.SMALL, Size.MEDIUM, Size.LARGE, Size.HUGE]


@st.composite
def crowds(draw: st.DrawFn) -> list[Body]:
    """Two to six creatures of every size from Tiny to Huge, Tiny ones on half cells, spaces
    apart or touching (sides and corners), never overlapping."""
    creatures: list[Body] = []
    for i in range(draw(st.integers(2, 6))):
        size = draw(st.sampled_from(SIZES))
        step = 0.5 if size is Size.TINY else 1.0
        x = draw(st.integers(0, 2 * SIZE - 3)) * step
        y = draw(st.integers(0, 2 * SIZE - 3)) * step
        made = (body if i % 2 else foe)(f"c{i}", x % SIZE, y % SIZE, size)
        if not any(made.space.overlaps(c.space) for c in creatures):
            creatures.append(made)
    return creatures


@settings(max_examples=60, deadline=None)
@given(maps(), crowds())
def test_all_pairs_give_each_pair_the_answer_of_cover_on_its_own(
    world: tuple[list[Wall], list[Obstacle], list[Body]], crowd: list[Body]
) -> None:
    walls, obstacles, _ = world
    built = index(*walls, obstacles=tuple(obstacles), width=SIZE, height=SIZE)
    everything = cover_all_pairs(built, crowd)
    keys = [(a.id, t.id) for a in crowd for t in crowd if t is not a]
    assert list(everything) == keys  # attacker by attacker, in the crowd's order
    assert len(everything) == len(keys)
    for attacker in crowd:
        for target in crowd:
            if target is attacker:
                assert (attacker.id, target.id) not in everything
                continue
            alone = cover(built, attacker, target, crowd)
            assert answer(everything[attacker.id, target.id]) == answer(alone)
    CHECKED.append(len(keys))


def test_the_all_pairs_property_compared_enough_pairs() -> None:
    # Runs after the property above (file order): 60 maps, at least two creatures each.
    assert len(CHECKED) == 60 and sum(CHECKED) >= 60 * 2, CHECKED


def test_all_pairs_read_like_a_dict() -> None:
    walls = index(wall((3, 0), (3, 5)))
    crowd = [foe("a", 0, 0), body("b", 5, 1), foe("c", 1, 6, Size.LARGE)]
    table = cover_all_pairs(walls, crowd)
    plain = {(a.id, t.id): cover(walls, a, t, crowd) for a in crowd for t in crowd if t is not a}
    a, b, zz = EntityId("a"), EntityId("b"), EntityId("zz")
    assert table == plain and plain == dict(table.items())
    assert table[a, b] is table[a, b]  # made once, then kept
    assert table[a, b].degree == plain[a, b].degree
    assert table.get((a, a)) is None and (a, zz) not in table and "a" not in cast(Any, table)
    assert list(table.values()) == list(plain.values())


def test_creatures_listed_twice_are_paired_like_before() -> None:
    # Not a real encounter (ids repeat): every pair of distinct entries, keyed by id.
    a, b = foe("a", 0, 0), body("b", 4, 0)
    twin = Body(id=EntityId("b"), size=Size.MEDIUM, side=b.side, x=6, y=6, cell_feet=5.0)
    crowd = [a, b, a, twin]
    table = cover_all_pairs(index(wall((2, -1), (2, 3))), crowd)
    assert list(table) == [(a.id, b.id), (b.id, a.id), (b.id, b.id)]
    # The last pair written wins, as in a dict: the second "a" against the twin.
    assert table[a.id, b.id].degree == cover(index(wall((2, -1), (2, 3))), a, twin, crowd).degree
