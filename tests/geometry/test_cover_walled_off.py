"""Rule 3 (SRD 5.1 cover, DMG grid method): the pairs cover sets apart as walled off
(total cover with no line traced, ``walled_off``) get exactly the answer of ``cover`` for that
pair on its own, which traces every line: degree, corner, square, cap, source, count and each
traced line with its blocker, for a batch of one attacker against many targets and for all
pairs. Maps are small dungeons: rooms on a 4-cell grid with doorways, windows, doors, a
window or door on the room walls, and creatures of every size, some against the walls."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from battlemap.geometry import Body, MapIndex, cover_all_pairs, cover_to_many
from battlemap.geometry.cover import cover
from battlemap.model import CoverDegree, Size, Wall
from tests.geometry.helpers import body, door, foe, index, wall, window
from tests.geometry.test_cover_batches import answer

cover_module = importlib.import_module("battlemap.geometry.cover")
CELLS = 16
ROOM = 4
WALLED: list[int] = []
"""Pairs set apart as walled off, per example (read by the test after the property)."""


@contextmanager
def counting_walled_off() -> Iterator[list[int]]:
    """Counts the pairs ``boxes_walled_off`` proves while cover runs."""
    found: list[int] = []
    prove = cover_module.boxes_walled_off

    def counted(*args: Any) -> Any:
        walled = prove(*args)
        found.append(int(walled.sum()))
        return walled

    with mock.patch.object(cover_module, "boxes_walled_off", counted):
        yield found


@st.composite
def dungeons(draw: st.DrawFn) -> tuple[MapIndex, list[Body]]:
    walls: list[Wall] = []
    for line in range(ROOM, CELLS, ROOM):
        for start in range(CELLS):
            for a, b in (((start, line), (start + 1, line)), ((line, start), (line, start + 1))):
                kind = draw(st.sampled_from(["wall"] * 8 + ["gap", "gap", "window", "door"]))
                fa, fb = (float(a[0]), float(a[1])), (float(b[0]), float(b[1]))
                name = f"w{len(walls)}"
                if kind == "wall":
                    walls.append(wall(fa, fb, name))
                elif kind == "window":
                    walls.append(window(fa, fb, name))
                elif kind == "door":
                    walls.append(door(fa, fb, open_=draw(st.booleans()), name=name))
    creatures: list[Body] = []
    sizes = [Size.TINY, Size.SMALL, Size.MEDIUM, Size.MEDIUM, Size.LARGE, Size.HUGE]
    spots = [(x, y) for y in range(CELLS - 3) for x in range(CELLS - 3)]
    for i in range(draw(st.integers(17, 20))):
        size = draw(st.sampled_from(sizes))
        shift = 0.5 if size is Size.TINY and draw(st.booleans()) else 0.0
        # The drawn spot, or the next one free in reading order (there is always room).
        at = draw(st.integers(0, len(spots) - 1))
        for x, y in spots[at:] + spots[:at]:
            made = (body if i % 2 else foe)(f"c{i}", x + shift, y + shift, size)
            if not any(made.space.overlaps(c.space) for c in creatures):
                creatures.append(made)
                break
    return index(*walls, width=CELLS, height=CELLS), creatures


@settings(max_examples=10, deadline=None)
@given(dungeons())
def test_walled_off_pairs_get_the_answer_of_cover_on_their_own(
    world: tuple[MapIndex, list[Body]],
) -> None:
    built, creatures = world
    attacker, targets = creatures[0], creatures[1:]
    with counting_walled_off() as found:
        batch = cover_to_many(built, attacker, targets, creatures)
        everything = cover_all_pairs(built, creatures)
    assert len(found) == 2  # both took the shortcut's test (enough targets for it)
    for target, result in zip(targets, batch, strict=True):
        assert answer(result) == answer(cover(built, attacker, target, creatures))
    for (a, t), result in everything.items():
        attacker_body = next(c for c in creatures if c.id == a)
        target_body = next(c for c in creatures if c.id == t)
        assert answer(result) == answer(cover(built, attacker_body, target_body, creatures))
    WALLED.append(sum(found))


def test_the_walled_off_property_set_enough_pairs_apart() -> None:
    # Runs after the property above (file order): the shortcut really decided pairs.
    assert len(WALLED) == 10
    assert sum(WALLED) >= 400, WALLED  # 687 pairs in the 10 examples


def test_a_wall_taken_away_by_an_edit_no_longer_walls_a_pair_off() -> None:
    # The wall x = 8 in unit pieces between Medium creatures at (5, 7) and (11, 7): walled
    # off. Taking away the piece y = 7..8 edits the index (its grid-line tables lose that
    # unit): the pair sees through the doorway, as in an index built afresh.
    from battlemap.geometry.cover_lines import with_traced_ends
    from battlemap.geometry.walled_off import boxes_walled_off
    from battlemap.model import Encounter, Grid

    walls = tuple(wall((8.0, float(y)), (8.0, y + 1.0), f"w{y}") for y in range(16))
    a, b = body("a", 5, 7), foe("b", 11, 7)
    built = MapIndex.build(Encounter(grid=Grid(width=CELLS, height=CELLS), walls=walls))
    doorway = Encounter(grid=Grid(width=CELLS, height=CELLS), walls=walls[:7] + walls[8:])
    edited = built.updated(doorway)
    assert edited.cover_walls is not built.cover_walls  # edited, or built again
    for world, walled in ((built, True), (edited, False)):
        rows = with_traced_ends(world, cover_module._creature_rows([a, b]))
        origin_boxes, corner_boxes = cover_module._traced_boxes(world, rows)
        proven = boxes_walled_off(world.cover_walls, origin_boxes[:1], corner_boxes[1:])
        assert proven.tolist() == [walled]
        pairs = cover_all_pairs(world, [a, b])
        assert (pairs[a.id, b.id].degree is CoverDegree.TOTAL) == walled
        assert answer(pairs[a.id, b.id]) == answer(cover(world, a, b, [a, b]))
    fresh = MapIndex.build(doorway)
    assert answer(cover_all_pairs(edited, [a, b])[a.id, b.id]) == answer(cover(fresh, a, b, [a, b]))
