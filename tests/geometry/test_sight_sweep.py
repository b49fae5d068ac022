"""The visibility sweep (``geometry.sweep``) against a brute force that shares none of its
code: the map minus the union of every sight segment's shadow (shapely)."""

from __future__ import annotations

import math

import numpy as np
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry.base import BaseGeometry

from battlemap.geometry import MapIndex, visibility_polygon
from battlemap.geometry.map_index import rasterise
from battlemap.geometry.sight import view_of
from battlemap.geometry.sweep import TOUCHING, View, sweep
from battlemap.model import EntityId, Grid, Wall
from tests.geometry.helpers import door, wall
from tests.geometry.test_sight_culling import SIZE, random_map

MAPS = 150


def shadows_removed(world: MapIndex, origin: tuple[float, float]) -> BaseGeometry:
    """What ``origin`` sees: the map less the shadow of every sight segment (from the
    segment away from ``origin`` to an arc far past the map)."""
    here = np.array(origin)
    rel = world.sight_outline - here
    first = np.arctan2(rel[:, 0, 1], rel[:, 0, 0])
    turn = (np.arctan2(rel[:, 1, 1], rel[:, 1, 0]) - first + math.pi) % math.tau - math.pi
    steps = np.linspace(1.0, 0.0, 17)  # from the second end's direction back to the first's
    arc = first[:, None] + turn[:, None] * steps
    far = np.stack([np.cos(arc), np.sin(arc)], axis=2) * 1e4
    rings = np.concatenate([rel, far], axis=1) + here
    shadows = shapely.make_valid(shapely.polygons(rings))
    return shapely.box(0, 0, world.width, world.height).difference(shapely.union_all(shadows))


def lattice_or_anywhere() -> st.SearchStrategy[tuple[float, float]]:
    """Viewpoints on the half-cell lattice (where rays run exactly through wall ends and
    along grid walls) or anywhere on the map."""
    lattice = st.tuples(st.integers(1, 2 * SIZE - 1), st.integers(1, 2 * SIZE - 1)).map(
        lambda p: (p[0] / 2, p[1] / 2)
    )
    anywhere = st.tuples(st.floats(0.01, SIZE - 0.01), st.floats(0.01, SIZE - 0.01))
    return st.one_of(lattice, anywhere)


def test_the_sweep_sees_exactly_what_the_shadows_leave() -> None:
    checked: list[float] = []
    handed_over = 0

    @settings(max_examples=MAPS, deadline=None, database=None)
    @given(st.integers(0, 2**32 - 1), lattice_or_anywhere())
    def compare(seed: int, origin: tuple[float, float]) -> None:
        nonlocal handed_over
        world = random_map(seed)
        view = view_of(world, origin)
        if view is None:  # a wall touches the viewpoint: the ray cast decides
            handed_over += 1
            return
        assert isinstance(view, View)
        seen = visibility_polygon(world, origin)
        truth = shadows_removed(world, origin)
        assert math.isclose(seen.area, truth.area, rel_tol=1e-9, abs_tol=1e-9)
        assert seen.symmetric_difference(truth).area <= 1e-9
        checked.append(seen.area)

    compare()
    assert len(checked) + handed_over == MAPS
    assert len(checked) >= MAPS * 0.9


def test_cells_marked_seen_are_the_cells_the_polygon_holds_or_touches() -> None:
    compared = 0

    @settings(max_examples=MAPS, deadline=None, database=None)
    @given(
        st.integers(0, 2**32 - 1),
        lattice_or_anywhere(),
        st.one_of(st.none(), st.floats(0.5, 30.0), st.integers(1, 20).map(float)),
    )
    def compare(seed: int, origin: tuple[float, float], radius: float | None) -> None:
        nonlocal compared
        world = random_map(seed)
        view = view_of(world, origin, radius)
        if not isinstance(view, View):
            return
        marked = np.zeros((world.height, world.width), dtype=bool)
        view.mark_seen(marked)
        held = np.zeros_like(marked)
        polygon = visibility_polygon(world, origin, radius)
        rasterise(polygon, held)
        # Only centres on the outline may differ: there the polygon's rounded corners
        # decide, the sweep counts them as on the edge (seen).
        rows, cols = np.nonzero(marked != held)
        on_edge = shapely.distance(polygon.boundary, shapely.points(cols + 0.5, rows + 0.5))
        assert np.all(on_edge <= 1e-9), on_edge.max()
        assert not (held & ~marked).any() or radius is not None
        compared += 1

    compare()
    assert compared >= MAPS * 0.9


def test_a_limited_view_stays_inside_the_range_and_what_the_shadows_leave() -> None:
    checked = 0

    @settings(max_examples=MAPS // 2, deadline=None, database=None)
    @given(st.integers(0, 2**32 - 1), lattice_or_anywhere(), st.floats(0.5, 30.0))
    def compare(seed: int, origin: tuple[float, float], radius: float) -> None:
        nonlocal checked
        world = random_map(seed)
        if view_of(world, origin, radius) is None:
            return
        seen = visibility_polygon(world, origin, radius)
        # Round the range from outside: the buffer is a polygon inside its circle.
        reach = shapely.Point(origin).buffer(
            radius / math.cos(math.pi / 1024) + 1e-9, quad_segs=256
        )
        allowed = shadows_removed(world, origin).intersection(reach)
        assert seen.difference(allowed).area <= 1e-9
        # Rays 2 degrees apart round the range, joined by straight lines, miss little.
        assert seen.area >= allowed.area - radius * radius * 0.02
        checked += 1

    compare()
    assert checked >= MAPS // 2 * 0.9


def test_a_viewpoint_on_a_wall_is_left_to_the_ray_cast() -> None:
    world = MapIndex(Grid(width=10, height=10), [wall((2, 5), (8, 5))])
    assert view_of(world, (5.0, 5.0)) is None
    assert view_of(world, (5.0, 5.0 + TOUCHING * 10)) is not None
    seen = visibility_polygon(world, (5.0, 5.0))
    assert not seen.is_empty and seen.area <= 100.0


def test_a_closed_door_crossing_a_wall_cuts_both() -> None:
    """A door whose end pokes through a wall: the sweep needs the two cut where they cross."""
    walls = [wall((5, 0), (5, 10), "upright"), door((3, 4), (7, 4), open_=False)]
    world = MapIndex(Grid(width=10, height=10), walls)
    for origin in ((4.0, 2.0), (6.0, 7.0), (2.0, 8.0)):
        truth = shadows_removed(world, origin)
        assert visibility_polygon(world, origin).symmetric_difference(truth).area <= 1e-9


def test_runs_of_walls_along_a_line_of_sight_and_through_corners() -> None:
    walls = [
        Wall(id=EntityId(f"w{i}"), a=(float(i), 3.0), b=(float(i + 1), 3.0)) for i in range(2, 8)
    ] + [wall((5, 5), (5, 9), "radial"), wall((7, 5), (9, 7), "corner-a"), wall((9, 7), (7, 9))]
    world = MapIndex(Grid(width=12, height=12), walls)
    for origin in ((5.0, 1.0), (5.0, 4.0), (3.0, 5.0), (7.0, 7.0), (1.0, 3.0)):
        truth = shadows_removed(world, origin)
        assert visibility_polygon(world, origin).symmetric_difference(truth).area <= 1e-9


def test_later_rings_leave_hidden_segments_out_and_the_view_unchanged() -> None:
    """A view culled ring by ring (re-sweeping only the segments an earlier ring saw) holds
    the same cells as one sweep over every segment, with fewer intervals where it left
    hidden segments' ends out."""
    fewer = 0
    checked = 0

    @settings(max_examples=MAPS, deadline=None, database=None)
    @given(st.integers(0, 2**32 - 1), lattice_or_anywhere())
    def compare(seed: int, origin: tuple[float, float]) -> None:
        nonlocal fewer, checked
        world = random_map(seed)
        view = view_of(world, origin)
        if not isinstance(view, View):
            return
        limit = math.hypot(world.width, world.height) * 2
        whole = sweep(world.sight_outline - np.array(origin), None, limit)
        culled_cells = np.zeros((world.height, world.width), dtype=bool)
        whole_cells = np.zeros_like(culled_cells)
        view.mark_seen(culled_cells)
        View(origin, whole.events, whole.near, whole.winner).mark_seen(whole_cells)
        assert np.array_equal(culled_cells, whole_cells)
        fewer += len(view.events) < len(whole.events)
        checked += 1

    compare()
    assert checked >= MAPS * 0.9
    # The culling really left segments out on most maps (40 x 40: beyond the first ring).
    assert fewer >= checked // 2, (fewer, checked)
