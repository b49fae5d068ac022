"""Area templates on the geometry bench map (100 x 100 cells, 100 creatures).

Each case is what the Template tool computes on every pointer move while the DM aims: the
part of the template the origin reaches past the 2,000 walls, the affected squares and the
creatures caught (the map index is built once, outside the timing, as the app does).
Goal (ours): half a 60 Hz frame, leaving the other half for drawing.
"""

from __future__ import annotations

from collections.abc import Callable

from benchmarks.bench_geometry import MAP_CELLS, Case, _world

GOALS_MS = {
    "templates: cone 60 ft, squares + creatures": 8.0,
    "templates: circle 40 ft radius, squares + creatures": 8.0,
    "templates: line 120 x 5 ft, squares + creatures": 8.0,
}


def goals() -> dict[str, float]:
    return GOALS_MS


def _case(shape: str, feet: float) -> Callable[[], Callable[[], object]]:
    def setup() -> Callable[[], object]:
        from battlemap.geometry.templates import Template, TemplateShape, template_coverage
        from battlemap.model import Grid

        index, bodies = _world()
        grid = Grid(width=MAP_CELLS, height=MAP_CELLS)
        centre = MAP_CELLS / 2
        template = Template(
            TemplateShape(shape), (centre, centre), feet, aim=(centre + 3, centre + 1)
        )

        def run() -> object:
            return template_coverage(template, grid, bodies, index)  # type: ignore[arg-type]

        return run

    return setup


def cases() -> list[Case]:
    return [
        ("templates: cone 60 ft, squares + creatures", _case("cone", 60)),
        ("templates: circle 40 ft radius, squares + creatures", _case("circle", 40)),
        ("templates: line 120 x 5 ft, squares + creatures", _case("line", 120)),
    ]
