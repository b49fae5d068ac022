"""An imported door or window behaves in the geometry exactly as one drawn by hand.

The fixture map (4 x 3 cells) has a wall along x = 2 with a door in it from y = 1 to 2.
The same map is drawn by hand with ``Wall`` values; cover, movement and sight across the
door (closed and open) and across a window must give the same answers for both.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from battlemap.geometry.body import Body
from battlemap.geometry.cover import cover
from battlemap.geometry.map_index import MapIndex
from battlemap.geometry.metrics import DiagonalRule
from battlemap.geometry.movement import path_cost
from battlemap.geometry.sight import line_of_sight
from battlemap.io.uvtt import read_uvtt
from battlemap.model import CoverDegree, Creature, Encounter, Grid, Side, Wall, WallKind

TINY = Path(__file__).parent / "fixtures" / "tiny-format-0.2.uvtt"


def imported(kind: WallKind, open_door: bool) -> Encounter:
    result = read_uvtt(TINY)
    walls = tuple(
        w.model_copy(update={"kind": kind, "open": open_door}) if w.kind is WallKind.DOOR else w
        for w in result.walls or ()
    )
    return Encounter(grid=result.grid, walls=walls)


def drawn(kind: WallKind, open_door: bool) -> Encounter:
    walls = (
        Wall(a=(0, 0), b=(4, 0)),
        Wall(a=(2, 0), b=(2, 1)),
        Wall(a=(2, 1), b=(2, 2), kind=kind, open=open_door),
        Wall(a=(2, 2), b=(2, 3)),
    )
    return Encounter(grid=Grid(width=4, height=3), walls=walls)


def body(encounter: Encounter, name: str, x: float, y: float, side: Side) -> Body:
    creature = Creature(id=name, name=name, x=x, y=y, side=side)
    return Body.from_creature(creature, encounter.grid)


def answers(encounter: Encounter) -> tuple[CoverDegree, bool, float, bool]:
    """Cover of a target beyond the door, whether a step through it is legal and its cost,
    and whether there is line of sight through it."""
    index = MapIndex.build(encounter)
    archer = body(encounter, "archer", 0, 1, Side.PARTY)
    target = body(encounter, "target", 3, 1, Side.HOSTILE)
    result = cover(index, archer, target, [archer, target])
    move = path_cost(index, archer, [(2, 1)], [target], DiagonalRule.FIVE_FIVE_FIVE, 30)
    sight = line_of_sight(index, archer.space, target.space)
    return result.degree, move.legal, move.cost_feet, sight.visible


@pytest.mark.parametrize(
    ("kind", "open_door"),
    [(WallKind.DOOR, False), (WallKind.DOOR, True), (WallKind.WINDOW, False)],
    ids=["closed door", "open door", "window"],
)
def test_imported_door_behaves_as_a_drawn_one(kind: WallKind, open_door: bool) -> None:
    assert answers(imported(kind, open_door)) == answers(drawn(kind, open_door))


def test_the_comparison_can_tell_a_door_from_an_opening() -> None:
    closed_degree, closed_legal, _, closed_sight = answers(imported(WallKind.DOOR, False))
    open_degree, open_legal, open_cost, open_sight = answers(imported(WallKind.DOOR, True))
    assert closed_degree is CoverDegree.TOTAL and not closed_legal and not closed_sight
    assert open_degree is CoverDegree.NONE and open_legal and open_cost == 10 and open_sight
    _, window_legal, _, window_sight = answers(imported(WallKind.WINDOW, False))
    assert not window_legal and window_sight
