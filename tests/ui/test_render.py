"""Pixel probes: the rendered map has the grid and tokens where the model says."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QImage, QUndoStack
from pytestqt.qtbot import QtBot

from battlemap.model import Document, Encounter, Grid, Side, Wall, WallKind
from battlemap.ui import style
from battlemap.ui.main_window import MainWindow
from battlemap.ui.map_scene import MapScene
from battlemap.ui.render import render_scene
from battlemap.ui.style import cell_to_scene

PIXELS_PER_CELL = 40


def colour_at_cell(image: QImage, x: float, y: float) -> QColor:
    return image.pixelColor(int(x * PIXELS_PER_CELL), int(y * PIXELS_PER_CELL))


def rgb(colour: QColor) -> tuple[int, int, int]:
    return colour.red(), colour.green(), colour.blue()


def close(a: QColor, b: QColor, tolerance: int = 12) -> bool:
    return all(abs(p - q) <= tolerance for p, q in zip(rgb(a), rgb(b), strict=True))


def test_tokens_and_grid_are_drawn_where_the_model_says(window: MainWindow) -> None:
    grid = window.document.encounter.grid
    image = render_scene(window.scene, window.map_rect(), width=grid.width * PIXELS_PER_CELL)
    assert image.height() == grid.height * PIXELS_PER_CELL
    for creature in window.document.encounter.creatures:
        side = creature.space_cells(grid.cell_feet)
        # probe above the label, inside the disc and its outline
        inside = colour_at_cell(image, creature.x + side / 2, creature.y + 0.22 * side)
        assert close(inside, style.SIDE_COLOURS[creature.side]), creature.name
    # an empty cell shows the map's paper, and its left edge a grid line
    assert close(colour_at_cell(image, 10.5, 0.5), style.MAP_BACKGROUND)
    assert close(colour_at_cell(image, 10.0, 0.5), style.GRID_LINE, tolerance=40)


def test_moving_a_creature_moves_its_pixels(window: MainWindow) -> None:
    from battlemap.model import MoveCreature

    window.document.apply(MoveCreature("c-medium", (2, 2), (10, 0)))  # type: ignore[arg-type]
    grid = window.document.encounter.grid
    image = render_scene(window.scene, window.map_rect(), width=grid.width * PIXELS_PER_CELL)
    assert close(colour_at_cell(image, 10.5, 0.22), style.SIDE_COLOURS[Side.PARTY])
    assert close(colour_at_cell(image, 2.5, 2.5), style.MAP_BACKGROUND)


# --- walls: thin lines zoomed out, stroked paths zoomed in, culled by bucket ------------------


def walled_scene() -> MapScene:
    walls = (
        Wall(id="w-long", a=(2.0, 3.0), b=(30.0, 3.0)),  # spans several 8-cell buckets
        Wall(id="w-far", a=(50.0, 52.0), b=(58.0, 52.0)),  # alone in a far bucket
        Wall(id="w-door", kind=WallKind.DOOR, a=(20.0, 40.0), b=(22.0, 40.0)),
    )
    encounter = Encounter(grid=Grid(width=60, height=60), walls=walls)
    stack = QUndoStack()
    scene = MapScene(Document(encounter), stack)
    scene.setParent(stack)  # the scene lives as long as the stack the test keeps
    return scene


def darker_than_grid_lines(colour: QColor) -> bool:
    """Walls under ~1.5 px share their ink between two rows of pixels (antialiasing): darker
    than the paper and the grid lines (lightness 236 and 168), not as dark as the wall colour."""
    return colour.lightness() < 0.65 * style.MAP_BACKGROUND.lightness()


def darkest_in_column(image: QImage, x: int, y: int, reach: int = 3) -> QColor:
    """The darkest pixel of column ``x`` within ``reach`` pixels of row ``y``."""
    rows = range(max(0, y - reach), min(image.height(), y + reach + 1))
    return min((image.pixelColor(x, row) for row in rows), key=lambda c: c.lightness())


def render_cells(
    scene: MapScene, left: float, top: float, cells: float, pixels_per_cell: int
) -> QImage:
    """A square of ``cells`` x ``cells`` cells from (left, top), ``pixels_per_cell`` each."""
    source = QRectF(
        cell_to_scene(left), cell_to_scene(top), cell_to_scene(cells), cell_to_scene(cells)
    )
    return render_scene(scene, source, width=round(cells * pixels_per_cell))


@pytest.mark.parametrize(
    "pixels_per_cell",
    [21, 40, 64],  # walls 2.0 px wide on screen (drawn as lines), 3.75 and 6 px (stroked)
)
def test_a_wall_is_drawn_in_the_wall_colour_at_every_zoom(
    qtbot: QtBot, pixels_per_cell: int
) -> None:
    scene = walled_scene()
    image = render_cells(scene, 0, 0, 12, pixels_per_cell)
    on_wall = darkest_in_column(
        image, 10 * pixels_per_cell + pixels_per_cell // 2, 3 * pixels_per_cell
    )
    assert close(on_wall, style.WALL, tolerance=30), on_wall.name()
    a_cell_away = image.pixelColor(
        10 * pixels_per_cell + pixels_per_cell // 2, 4 * pixels_per_cell + 5
    )
    assert close(a_cell_away, style.MAP_BACKGROUND)


def test_zoomed_out_a_thin_wall_still_darkens_its_pixels(qtbot: QtBot) -> None:
    scene = walled_scene()
    pixels_per_cell = 8  # a wall 0.75 px wide: a cosmetic line, lighter than a full pixel
    image = render_cells(scene, 0, 0, 60, pixels_per_cell)
    on_wall = darkest_in_column(image, 10 * pixels_per_cell + 4, 3 * pixels_per_cell)
    assert darker_than_grid_lines(on_wall), on_wall.name()
    on_far_wall = darkest_in_column(image, 54 * pixels_per_cell + 4, 52 * pixels_per_cell)
    assert darker_than_grid_lines(on_far_wall), on_far_wall.name()
    between = image.pixelColor(40 * pixels_per_cell + 4, 20 * pixels_per_cell + 4)
    assert close(between, style.MAP_BACKGROUND)


@pytest.mark.parametrize("pixels_per_cell", [12, 64])  # lines (1.1 px), stroked paths (6 px)
def test_drawing_part_of_the_map_still_draws_the_walls_there(
    qtbot: QtBot, pixels_per_cell: int
) -> None:
    # Only the buckets meeting the exposed area are drawn: a far corner must find its own.
    scene = walled_scene()
    image = render_cells(scene, 48, 48, 12, pixels_per_cell)
    on_wall = darkest_in_column(image, 6 * pixels_per_cell + 3, 4 * pixels_per_cell)
    if pixels_per_cell < 20:
        assert darker_than_grid_lines(on_wall), on_wall.name()
    else:
        assert close(on_wall, style.WALL), on_wall.name()


def test_a_door_keeps_its_own_colour_zoomed_out_and_in(qtbot: QtBot) -> None:
    scene = walled_scene()
    for pixels_per_cell in (12, 64):  # a door 1.9 px wide (a line), 10 px (stroked)
        image = render_cells(scene, 16, 36, 8, pixels_per_cell)
        on_door = darkest_in_column(image, 5 * pixels_per_cell, 4 * pixels_per_cell)
        assert close(on_door, style.DOOR_CLOSED, tolerance=40), (pixels_per_cell, on_door.name())
