"""The Area template tool: place a circle, cone, line or cube and deal its damage to those inside.

Press sets the point of origin, dragging aims, release places the template. While placing,
the outline is drawn, the affected squares are shaded, the creatures caught are outlined and
listed on a card. On release exactly those creatures' tokens are selected and the Combat
menu's Area damage dialog opens for them, so the one roll, half-on-a-save flow is the
dialog's, in a combat or outside one.

Which squares count is decided by ``battlemap.geometry.templates``: a square is affected when
at least half of it is covered, and walls and closed doors stop the area. Origins snap: a
circle's centre and a cube's corner to the nearest grid intersection, a cone's or line's
origin to the nearest half square (a corner or the middle of a square's edge); Shift places
the origin freely.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPainterPath
from PySide6.QtWidgets import QGraphicsItem, QGraphicsPathItem, QLabel, QSpinBox, QWidget

from battlemap.geometry import Body, MapIndex
from battlemap.geometry.template_shape import TemplateShape
from battlemap.model.creature import Side
from battlemap.model.features import Point
from battlemap.model.ids import EntityId
from battlemap.ui.drag.items import (
    BAD,
    CARD_MUTED,
    CARD_TEXT,
    GOOD,
    InfoCard,
    cells_region,
    pen,
    shaded_region,
)
from battlemap.ui.map_index_cache import window_index
from battlemap.ui.tools.base import PointerEvent, Tool, ToolContext, cell_to_scene_point
from battlemap.ui.tools.options import choice, options_row, show_choice
from battlemap.ui.tools.preview import handles
from battlemap.ui.tools.shapes import clamp_to_map, snap_to_corner

# The engine and the heavier geometry are imported in the functions that use them, so
# the window is built without them (issue 17; tests/ui/test_start_up_imports.py).
if TYPE_CHECKING:
    from battlemap.geometry.templates import (
        Template,
        TemplateCoverage,
    )

AREA_EDGE = QColor("#dd2c00")
"""The template's true outline: dark red-orange, so it reads apart from the shaded squares."""
AREA_FILL = QColor(255, 145, 0, 105)
AREA_FILL_EDGE = QColor(255, 145, 0, 200)
CAUGHT_EDGE = QColor("#ffd600")
CASING = QColor("#263238")
SHAPE_CHOICES = [
    ("Circle / sphere (radius)", TemplateShape.CIRCLE),
    ("Cone (length)", TemplateShape.CONE),
    ("Line (length × width)", TemplateShape.LINE),
    ("Cube (side)", TemplateShape.CUBE),
]
DEFAULT_FEET = {
    TemplateShape.CIRCLE: 20,
    TemplateShape.CONE: 15,
    TemplateShape.LINE: 30,
    TemplateShape.CUBE: 15,
}
"""Fireball, burning hands, a short lightning bolt, thunderwave."""
MAX_FEET = 500
SIDE_COLOUR = {Side.HOSTILE: BAD, Side.PARTY: GOOD}


def snap_origin(point: Point, shape: TemplateShape, free: bool, context: ToolContext) -> Point:
    """Where a press at ``point`` puts the origin (see the module docstring), on the map."""
    grid = context.document.encounter.grid
    if free:
        return clamp_to_map(point, grid)
    if shape in (TemplateShape.CIRCLE, TemplateShape.CUBE):
        return snap_to_corner(point, grid)
    half = (math.floor(point[0] * 2 + 0.5) / 2, math.floor(point[1] * 2 + 0.5) / 2)
    return clamp_to_map(half, grid)


def describe(template: Template) -> str:
    """The template in words: "Cone 15 ft", "Line 30 × 5 ft", "Circle 20 ft radius"."""
    shape = template.shape
    if shape is TemplateShape.LINE:
        return f"Line {template.size_feet:g} × {template.width_feet:g} ft"
    if shape is TemplateShape.CIRCLE:
        return f"Circle {template.size_feet:g} ft radius"
    return f"{shape.value.capitalize()} {template.size_feet:g} ft"


class TemplateTool(Tool):
    key = "template"
    label = "Area template"
    shortcut = "X"
    hint = (
        "Area template: press to set the origin, drag to aim, release to place: the creatures "
        "inside are selected and Area damage opens · Shift: origin off the grid · Esc clears"
    )

    def __init__(self, context: ToolContext) -> None:
        super().__init__(context)
        self.shape = TemplateShape.CONE
        self.feet: dict[TemplateShape, int] = dict(DEFAULT_FEET)
        self.width_feet = 5
        self.origin: Point | None = None
        self.template: Template | None = None
        """The template being placed, or the last one placed (shown until Esc or a new press)."""
        self.coverage: TemplateCoverage | None = None
        self._placing = False
        self._options: QWidget | None = None
        self._size_box: QSpinBox | None = None
        self._width_box: QSpinBox | None = None

    # --- events ---------------------------------------------------------

    def press(self, event: PointerEvent) -> bool:
        if not event.left:
            return True
        self.origin = snap_origin(event.cell, self.shape, event.free, self.context)
        self._placing = True
        self._update(event.cell)
        return True

    def move(self, event: PointerEvent) -> bool:
        if self._placing:
            self._update(event.cell)
        elif self.template is None:
            origin = snap_origin(event.cell, self.shape, event.free, self.context)
            self.context.overlay.show(handles([origin], AREA_EDGE))
        return True

    def release(self, event: PointerEvent) -> bool:
        if not (event.left and self._placing):
            return True
        self._placing = False
        self._update(event.cell)
        if self.coverage is None:
            self.context.show_hint(f"{self.shape.value.capitalize()}: drag from the origin to aim")
            self.clear()
            return True
        self.select_caught(self.coverage.creature_ids)
        self.open_area_damage()
        return True

    def key_press(self, key: Qt.Key) -> bool:
        if key == Qt.Key.Key_Escape and (self.template is not None or self._placing):
            self.clear()
            self.context.show_hint(self.hint)
            return True
        return False

    def finish(self) -> None:
        self._placing = False

    def deactivate(self) -> None:
        super().deactivate()
        self.clear()

    def clear(self) -> None:
        """Forget the template and take its drawing off the map."""
        self.origin, self.template, self.coverage, self._placing = None, None, None, False
        self.context.overlay.clear()

    def refresh(self) -> None:
        """Redraw a shown template after the map or the creatures changed (undo, a move)."""
        if self.template is not None:
            self._show(self.template)

    # --- placing --------------------------------------------------------

    def template_at(self, aim: Point) -> Template | None:
        """The template from the current origin toward ``aim`` with the chosen shape and size."""
        from battlemap.geometry.templates import Template

        if self.origin is None:
            return None
        return Template(
            self.shape,
            self.origin,
            float(self.feet[self.shape]),
            aim=aim,
            width_feet=float(self.width_feet),
        )

    def _update(self, aim: Point) -> None:
        template = self.template_at(aim)
        if template is None:
            return
        self._show(template)

    def _show(self, template: Template) -> None:
        from battlemap.geometry.templates import TemplateError, template_coverage

        encounter = self.context.document.encounter
        bodies = [Body.from_creature(c, encounter.grid) for c in encounter.creatures]
        try:
            coverage = template_coverage(template, encounter.grid, bodies, self._map_index())
        except TemplateError:  # a cone or line not aimed yet: show just the origin
            self.template, self.coverage = None, None
            origin = self.origin if self.origin is not None else template.origin
            self.context.overlay.show(handles([origin], AREA_EDGE))
            return
        self.template, self.coverage = template, coverage
        self.context.overlay.show(self._items(template, coverage))
        names = [self._name(cid) for cid in coverage.creature_ids]
        caught = ", ".join(names) if names else "no creatures"
        self.context.show_hint(
            f"{describe(template)}: {len(coverage.cells)} squares, {caught}"
            + (" · release to deal its damage" if self._placing else "")
        )

    def _items(self, template: Template, coverage: TemplateCoverage) -> list[QGraphicsItem]:
        items: list[QGraphicsItem] = []
        if coverage.cells:
            items.append(shaded_region(cells_region(coverage.cells), AREA_FILL, AREA_FILL_EDGE))
        outline = QPainterPath()
        ring = [(float(x), float(y)) for x, y, *_ in coverage.polygon.exterior.coords]
        outline.moveTo(cell_to_scene_point(ring[0]))
        for point in ring[1:]:
            outline.lineTo(cell_to_scene_point(point))
        outline.closeSubpath()
        for colour, width, z in ((QColor("#ffffff"), 6.0, 0.0), (AREA_EDGE, 3.0, 0.1)):
            edge = QGraphicsPathItem(outline)  # a white casing under the line, for dark maps
            edge.setPen(pen(colour, width))
            edge.setZValue(z)
            items.append(edge)
        encounter = self.context.document.encounter
        for creature_id in coverage.creature_ids:
            space = Body.from_creature(encounter.creature(creature_id), encounter.grid).space
            for colour, width, z in ((CASING, 8.0, 0.2), (CAUGHT_EDGE, 4.0, 0.3)):
                frame = _rounded_square((space.x, space.y), space.w)
                frame.setPen(pen(colour, width))
                frame.setZValue(z)
                items.append(frame)
        items += handles([template.origin], AREA_EDGE)
        card = InfoCard(template.origin, self._card_lines(template, coverage), AREA_EDGE)
        items.append(card)
        bounds = coverage.polygon.bounds
        box = QRectF(bounds[0], bounds[1], bounds[2] - bounds[0], bounds[3] - bounds[1])
        card.place(self.context.view, box, template.origin)
        return items

    def _card_lines(
        self, template: Template, coverage: TemplateCoverage
    ) -> list[tuple[str, QColor]]:
        lines: list[tuple[str, QColor]] = [(describe(template), CARD_TEXT)]
        count = len(coverage.caught)
        if not count:
            lines.append(("no creatures inside", CARD_MUTED))
        else:
            lines.append((f"{count} creature{'s' if count != 1 else ''} inside:", CARD_TEXT))
        encounter = self.context.document.encounter
        for creature_id in coverage.creature_ids:
            side = encounter.creature(creature_id).side
            lines.append((f"• {self._name(creature_id)}", SIDE_COLOUR.get(side, CARD_TEXT)))
        if self._placing:
            lines.append(("release: select them and open Area damage", CARD_MUTED))
        return lines

    def _map_index(self) -> MapIndex:
        """The window's shared map index (built once per map change)."""
        return window_index(self.context.view.window()).get()

    def _name(self, creature_id: EntityId) -> str:
        return self.context.document.encounter.creature(creature_id).name

    # --- after placing ----------------------------------------------------

    def select_caught(self, creature_ids: tuple[EntityId, ...]) -> None:
        """Select exactly the tokens of ``creature_ids`` on the map."""
        scene = self.context.scene
        scene.clearSelection()
        tokens = getattr(scene, "tokens", {})
        for creature_id in creature_ids:
            token = tokens.get(creature_id)
            if token is not None:
                token.setSelected(True)

    def place_around(self, centre: Point, leave_out: EntityId) -> None:
        """Place the current shape centred on ``centre`` (cells) at once, select what it
        catches but ``leave_out`` (a stat block's "each creature within 10 ft of the dragon":
        not the dragon) and open Area damage, as a release would."""
        self.origin, self._placing = centre, False
        self._update(centre)
        if self.coverage is None:
            return
        self.select_caught(tuple(c for c in self.coverage.creature_ids if c != leave_out))
        self.open_area_damage()

    def open_area_damage(self) -> None:
        """Open the Combat menu's Area damage dialog for the selected tokens, if installed, with
        the placed template's origin as the effect's point of origin (cover is measured from
        it), handed over rather than guessed back from the tool by the dialog."""
        combat = getattr(self.context.view.window(), "combat", None)
        dialog = getattr(combat, "area_dialog", None)
        if dialog is not None:
            dialog.open_at(self.template.origin if self.template is not None else None)

    # --- options --------------------------------------------------------

    def set_shape(self, shape: TemplateShape) -> None:
        self.shape = shape
        show_choice(self._options, "template-shape", shape)
        if self._size_box is not None:
            blocked = self._size_box.blockSignals(True)
            self._size_box.setValue(self.feet[shape])
            self._size_box.blockSignals(blocked)
        if self._width_box is not None:
            self._width_box.setEnabled(shape is TemplateShape.LINE)
        self.clear()

    def set_size(self, feet: int) -> None:
        self.feet[self.shape] = feet
        self.refresh_size()

    def set_width(self, feet: int) -> None:
        self.width_feet = feet
        self.refresh_size()

    def refresh_size(self) -> None:
        """Redraw a shown template with the new size, keeping its origin and aim."""
        if self.template is not None and self.template.aim is not None:
            self._update(self.template.aim)

    def options_widget(self) -> QWidget:
        if self._options is None:
            shape_label, shape = choice(
                "Shape:", "template-shape", SHAPE_CHOICES, self.shape, self.set_shape
            )
            self._size_box = _feet_box("template-size", self.feet[self.shape], self.set_size)
            self._width_box = _feet_box("template-width", self.width_feet, self.set_width)
            self._width_box.setEnabled(self.shape is TemplateShape.LINE)
            size_label, width_label = QLabel("Size:"), QLabel("Line width:")
            size_label.setBuddy(self._size_box)
            width_label.setBuddy(self._width_box)
            self._options = options_row(
                shape_label, shape, size_label, self._size_box, width_label, self._width_box
            )
        return self._options


def _rounded_square(corner: Point, side: float) -> QGraphicsPathItem:
    """The outline of a caught creature's space (cells), drawn over its token."""
    path = QPainterPath()
    top_left = cell_to_scene_point(corner)
    far = cell_to_scene_point((corner[0] + side, corner[1] + side))
    path.addRoundedRect(QRectF(top_left, far), 6.0, 6.0)
    item = QGraphicsPathItem(path)
    item.setBrush(Qt.BrushStyle.NoBrush)
    return item


def _feet_box(name: str, value: int, on_change: Callable[[int], None]) -> QSpinBox:
    box = QSpinBox()
    box.setObjectName(name)
    box.setRange(5, MAX_FEET)
    box.setSingleStep(5)
    box.setSuffix(" ft")
    box.setValue(value)
    box.valueChanged.connect(on_change)
    return box
