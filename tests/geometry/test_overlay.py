"""Overlays GEOS fails on as they are ("TopologyException: Ring edge missing", met on random
maps by tests/geometry/test_seen_dim.py) are done again with snap-rounding
(``geometry/overlay.py``): the same areas to the snapping grid, and the party's seen areas,
bright and dim, still come out (srd-5e "Vision and Light": a torch's bright and dim light,
darkvision's dim)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import shapely
from shapely.errors import GEOSException
from shapely.geometry.base import BaseGeometry

from battlemap.geometry import overlay
from battlemap.geometry.illumination import LightLevel, LitMap, Viewer, seen_areas
from battlemap.geometry.map_index import MapIndex
from battlemap.geometry.sight import visibility_polygon
from battlemap.model import Encounter, Grid, Light, MapLighting, Wall
from battlemap.model.ids import EntityId

SNAPPED_AREA = 1e-4
"""Square cells: snapping every vertex to a 1e-6 grid moves an area's outline by as little."""

Failures = list[str]


@pytest.fixture
def failing(monkeypatch: pytest.MonkeyPatch) -> Failures:
    """GEOS's overlays fail unless snap-rounded (a ``grid_size`` given); each failure noted."""
    failures: Failures = []

    def fail_unsnapped(name: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def overlay_or_fail(*args: Any, **kwargs: Any) -> Any:
            if kwargs.get("grid_size") is None:
                failures.append(name)
                raise GEOSException("TopologyException: Ring edge missing (simulated)")
            return real(*args, **kwargs)

        return overlay_or_fail

    for name in ("intersection", "difference", "union_all", "disjoint_subset_union_all"):
        monkeypatch.setattr(shapely, name, fail_unsnapped(name, getattr(shapely, name)))
    return failures


def room_by_torchlight() -> tuple[LitMap, list[Viewer], list[BaseGeometry]]:
    """A dark 20 x 12 map, a wall across it with a gap, a torch (4 bright, 8 dim) by a viewer
    without darkvision and one with darkvision 12 across the wall."""
    encounter = Encounter(
        grid=Grid(width=20, height=12),
        walls=(Wall(id=EntityId("w"), a=(10, 0), b=(10, 7.5)),),
        lights=(Light(id=EntityId("torch"), position=(6.5, 6.5), bright_cells=4, dim_cells=8),),
        lighting=MapLighting(ambient=LightLevel.DARK),
    )
    index = MapIndex.build(encounter)
    viewers = [Viewer((5.5, 5.5)), Viewer((14.5, 9.5), darkvision_cells=12)]
    views = [visibility_polygon(index, v.centre) for v in viewers]
    return LitMap.build(index, encounter), viewers, views


def assert_close(a: BaseGeometry, b: BaseGeometry) -> None:
    assert abs(a.area - b.area) < SNAPPED_AREA
    assert shapely.symmetric_difference(a, b).area < SNAPPED_AREA


def test_each_overlay_is_done_again_snapped_when_geos_fails(failing: Failures) -> None:
    left, right = shapely.box(0, 0, 2, 1), shapely.box(1 + 1e-12, 0, 3, 1)
    assert overlay.intersection(left, right).area == pytest.approx(1.0, abs=1e-6)
    assert overlay.difference(left, right).area == pytest.approx(1.0, abs=1e-6)
    assert overlay.union_all([left, right]).area == pytest.approx(3.0, abs=1e-6)
    assert failing == ["intersection", "difference", "disjoint_subset_union_all"]


def test_the_partys_seen_areas_come_out_when_geos_fails_on_them(
    failing: Failures, monkeypatch: pytest.MonkeyPatch
) -> None:
    lit, viewers, views = room_by_torchlight()
    snapped = seen_areas(lit, viewers, views)
    assert len(failing) >= 3  # the pieces, their unions and the dim area were all retried
    monkeypatch.undo()
    as_is = seen_areas(*room_by_torchlight())
    assert as_is.dim.area > 1 and as_is.bright.area > 1  # the case has both
    assert_close(snapped.bright, as_is.bright)
    assert_close(snapped.dim, as_is.dim)
    for a, b in zip(snapped.each, as_is.each, strict=True):
        assert_close(a, b)
