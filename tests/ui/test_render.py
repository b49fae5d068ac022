"""Pixel probes: the rendered map has the grid and tokens where the model says."""

from __future__ import annotations

from PySide6.QtGui import QColor, QImage

from battlemap.model import Side
from battlemap.ui import style
from battlemap.ui.main_window import MainWindow
from battlemap.ui.render import render_scene

PIXELS_PER_CELL = 40


def colour_at_cell(image: QImage, x: float, y: float) -> QColor:
    return image.pixelColor(int(x * PIXELS_PER_CELL), int(y * PIXELS_PER_CELL))


def close(a: QColor, b: QColor, tolerance: int = 12) -> bool:
    return all(abs(p - q) <= tolerance for p, q in zip(a.getRgb()[:3], b.getRgb()[:3], strict=True))


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
