"""The map index: built once per map change; bad features are skipped or repaired with a
listed problem, never an exception from shapely's guts."""

from __future__ import annotations

import numpy as np
import pytest

from battlemap.geometry import DiagonalRule, GeometryError, MapIndex, OffMapError, path_cost
from battlemap.geometry.cover import cover
from battlemap.geometry.map_index import window_all, window_any
from battlemap.model import (
    CoverDegree,
    Creature,
    Encounter,
    EntityId,
    Grid,
    Obstacle,
    Size,
    TerrainKind,
)
from tests.geometry.helpers import body, foe, index, obstacle, terrain, wall


def test_zero_length_walls_are_skipped_and_listed() -> None:
    built = index(wall((3, 3), (3, 3), "dot"), wall((5, 0), (5, 9), "real"))
    assert [p.feature_id for p in built.problems] == ["dot"]
    assert set(built.walls) == {"real"}


def test_a_self_intersecting_obstacle_is_repaired_and_still_blocks() -> None:
    bowtie = Obstacle(
        id=EntityId("bowtie"), points=[(3, 0), (4, 30), (4, 0), (3, 30)], cover=CoverDegree.TOTAL
    )
    built = MapIndex(Grid(width=30, height=30), obstacles=[bowtie])
    assert [p.message for p in built.problems] == ["self-intersecting polygon repaired"]
    a, t = body("a", 0, 14), foe("t", 6, 14)
    assert cover(built, a, t, [a, t]).degree is not CoverDegree.NONE


def test_empty_or_flat_polygons_are_skipped() -> None:
    flat = Obstacle(id=EntityId("flat"), points=[(1, 1), (2, 2), (3, 3)])
    built = MapIndex(Grid(), obstacles=[flat], terrain=[])
    assert [p.feature_id for p in built.problems] == ["flat"]
    assert built.obstacles == []


def test_a_cell_takes_a_terrain_kind_when_its_centre_is_inside_the_region() -> None:
    built = index(terrain_regions=(terrain(TerrainKind.DIFFICULT, 2.4, 0, 3.6, 1),))
    assert built.difficult[0, 2:4].tolist() == [True, True]
    assert not built.difficult[0, 1] and not built.difficult[0, 4]


def test_build_takes_the_encounters_map_and_ignores_its_creatures() -> None:
    crate = obstacle("crate", 6, 1, 7, 2, CoverDegree.HALF)
    mud = terrain(TerrainKind.DIFFICULT, 0, 0, 2, 1)
    orc = Creature(id=EntityId("orc"), name="Orc", x=9, y=5)
    encounter = Encounter(
        grid=Grid(width=12, height=8),
        walls=(wall((4, 0), (4, 8), "w"),),
        obstacles=(crate,),
        terrain=(mud,),
        creatures=(orc,),
    )
    built = MapIndex.build(encounter)
    assert (built.width, built.height, built.cell_feet) == (12, 8, 5.0)
    assert set(built.walls) == {"w"} and [o.id for o in built.obstacles] == ["crate"]
    assert built.difficult[0, :3].tolist() == [True, True, False]
    # The creature's cells are neither impassable nor anything else the map knows of.
    assert not built.impassable[5, 9] and built.impassable[1, 6]
    assert built.room(1)[5, 9]


def test_a_creature_off_the_map_cannot_move_and_the_error_is_a_value_error() -> None:
    ogre = body("ogre", 29, 29, Size.LARGE)  # its space runs past the 30 x 30 map
    with pytest.raises(OffMapError, match="not wholly on the") as info:
        path_cost(index(), ogre, [(28, 28)], [], DiagonalRule.FIVE_FIVE_FIVE, 30)
    assert isinstance(info.value, GeometryError) and isinstance(info.value, ValueError)


def test_overlapping_creatures_may_step_apart() -> None:
    a, b = body("a", 5, 5), body("b", 5, 5)
    result = path_cost(index(), a, [(6, 5)], [b], DiagonalRule.FIVE_FIVE_FIVE, 30)
    assert result.legal and result.cost_feet == 5


def test_sliding_windows_match_a_direct_computation() -> None:
    rng = np.random.default_rng(3)
    mask = rng.random((9, 11)) > 0.3
    for kh, kw in ((1, 1), (2, 3), (3, 2)):
        full = window_all(mask, kh, kw)
        some = window_any(mask, kh, kw)
        for y in range(9):
            for x in range(11):
                block = mask[y : y + kh, x : x + kw]
                fits = y + kh <= 9 and x + kw <= 11
                assert full[y, x] == (fits and bool(block.all()))
                assert some[y, x] == bool(block.any())
