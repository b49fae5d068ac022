"""Shared by the token look tests: an encounter mid-combat, and pixel probes of a scene."""

from __future__ import annotations

from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QGraphicsScene

from battlemap.model import Creature, Encounter, Grid
from battlemap.model.combat import Combatant, CombatState, DiceState, TurnSlot
from battlemap.ui.render import render_scene
from battlemap.ui.style import cell_to_scene

PIXELS_PER_CELL = 64
"""Renders at one pixel per scene unit: a probe at scene point (x, y) is pixel (x, y)."""


def in_combat(
    creatures: tuple[Creature, ...],
    combatants: tuple[Combatant, ...],
    ruleset: str = "srd-5e",
    turn_index: int = 0,
    grid: Grid | None = None,
) -> Encounter:
    """``creatures`` fighting in round 1, in the order of ``combatants``."""
    state = CombatState(
        ruleset=ruleset,
        round=1,
        turn_index=turn_index,
        order=tuple(TurnSlot(creature_id=c.creature_id) for c in combatants),
        combatants=combatants,
        dice=DiceState(seed=7),
    )
    return Encounter(
        grid=grid or Grid(width=10, height=6),
        creatures=creatures,
        combat=state,
        ruleset=ruleset,
    )


def render_cells(scene: QGraphicsScene, width_cells: int, height_cells: int) -> QImage:
    """The scene's top-left ``width_cells`` x ``height_cells`` at ``PIXELS_PER_CELL``."""
    area = QRectF(0, 0, cell_to_scene(width_cells), cell_to_scene(height_cells))
    return render_scene(scene, area, width_cells * PIXELS_PER_CELL)


def pixel(image: QImage, x: float, y: float) -> QColor:
    """The pixel at scene point (x, y) of an image from ``render_cells``."""
    return image.pixelColor(round(x), round(y))


def luminance(colour: QColor) -> float:
    """Relative luminance (WCAG), 0 black .. 1 white."""

    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return (
        0.2126 * channel(colour.red())
        + 0.7152 * channel(colour.green())
        + 0.0722 * channel(colour.blue())
    )


def contrast(a: QColor, b: QColor) -> float:
    """WCAG contrast ratio of two colours, 1 (same) .. 21 (black on white)."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)
