"""Shared set-up for the drag-feedback and targeting tests: a small room with a wall, mud and
a goblin, and a way to drag with keyboard modifiers (``helpers.drag`` sends none)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QEvent, QPoint, QPointF, QRectF, QSettings, Qt
from PySide6.QtGui import QImage, QMouseEvent, QPainter
from PySide6.QtWidgets import QApplication, QGraphicsView
from pytestqt.qtbot import QtBot

from battlemap.model import Creature, Document, Encounter, Grid, Side
from battlemap.model.combat import CombatState
from battlemap.model.features import TerrainKind, TerrainRegion, Wall
from battlemap.model.ids import EntityId
from battlemap.model.statblock import Attack, AttackKind, Damage, StatBlock
from battlemap.rules.initiative import set_initiative, start_combat
from battlemap.rules.loader import load_registry
from battlemap.rules.outcome import with_combat
from battlemap.rules.turns import begin_combat
from battlemap.ui.main_window import MainWindow
from tests.rules.helpers import state_and_events
from tests.ui.helpers import cell_centre_in_view

GOBLIN_BLOCK = StatBlock(
    name="Goblin",
    type="humanoid",
    armor_class=15,
    hit_points=7,
    attacks=(
        Attack(
            name="Scimitar",
            kind=AttackKind.MELEE,
            to_hit=4,
            reach=5,
            damage=(Damage(dice="1d6+2", type="slashing"),),
        ),
    ),
)


def room() -> Encounter:
    """A 14 x 10 map: a wall from (6, 0) to (6, 5); mud (difficult) over cells x 3..4, y 5..6;
    the Fighter at (2, 2), a Goblin at (2, 8) and the Cleric far off at (12, 8)."""
    creatures = (
        Creature(id="c-fighter", name="Fighter", side=Side.PARTY, x=2, y=2, hp=30, max_hp=30),
        Creature(
            id="c-goblin",
            name="Goblin",
            side=Side.HOSTILE,
            x=2,
            y=8,
            hp=7,
            max_hp=7,
            ac=15,
            statblock=GOBLIN_BLOCK,
        ),
        Creature(id="c-cleric", name="Cleric", side=Side.PARTY, x=12, y=8, hp=20, max_hp=20),
    )
    return Encounter(
        grid=Grid(width=14, height=10),
        creatures=creatures,
        walls=(Wall(id=EntityId("w-1"), a=(6, 0), b=(6, 5)),),
        terrain=(
            TerrainRegion(
                id=EntityId("mud"),
                kind=TerrainKind.DIFFICULT,
                points=[(3, 5), (5, 5), (5, 7), (3, 7)],
            ),
        ),
    )


def fighting(encounter: Encounter, first: str = "c-fighter") -> CombatState:
    """A started srd-5e combat of every creature in which ``first`` acts first."""
    ruleset = load_registry().get(encounter.ruleset)
    state = start_combat(encounter, encounter.ruleset, 11)
    for value, creature in enumerate(encounter.creatures):
        bonus = 50 if creature.id == first else value
        state, _ = state_and_events(
            set_initiative(with_combat(encounter, state), ruleset, creature.id, bonus)
        )
    state, _ = state_and_events(begin_combat(with_combat(encounter, state), ruleset))
    return state


def goblin_beside_fighter() -> Encounter:
    """``room()`` in combat on the Fighter's turn, the Goblin moved to (3, 3) beside the
    Fighter: dragging the Fighter from (2, 2) to (5, 2) provokes at step 3, from (4, 2)."""
    encounter = room()
    goblin = encounter.creature(EntityId("c-goblin")).model_copy(update={"x": 3, "y": 3})
    encounter = encounter.replace_creature(goblin)
    return encounter.model_copy(update={"combat": fighting(encounter)})


def open_window(qtbot: QtBot, tmp_path: Path, encounter: Encounter) -> MainWindow:
    """A main window on ``encounter`` with the whole map in view (pixel probes reach it)."""
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(Document(encounter), settings=settings)
    qtbot.addWidget(window)
    window.resize(1600, 1000)
    window.show()
    qtbot.waitExposed(window)
    window.fit_map()
    return window


def send(
    view: QGraphicsView,
    kind: QEvent.Type,
    pos: QPoint,
    button: Qt.MouseButton,
    buttons: Qt.MouseButton,
    modifiers: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier,
) -> None:
    local = QPointF(pos)
    global_pos = QPointF(view.viewport().mapToGlobal(pos))
    event = QMouseEvent(kind, local, global_pos, button, buttons, modifiers)
    QApplication.sendEvent(view.viewport(), event)


def press_at(window: MainWindow, cell: tuple[float, float]) -> None:
    left = Qt.MouseButton.LeftButton
    point = cell_centre_in_view(window.view, *cell)
    send(window.view, QEvent.Type.MouseButtonPress, point, left, left)


def move_through(
    window: MainWindow,
    cells: Sequence[tuple[float, float]],
    modifiers: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier,
    steps: int = 4,
) -> None:
    """Mouse moves with the left button held from ``cells[0]`` through the rest."""
    view = window.view
    points = [cell_centre_in_view(view, *c) for c in cells]
    for a, b in itertools.pairwise(points):
        for i in range(1, steps + 1):
            point = a + (b - a) * (i / steps)
            send(
                view, QEvent.Type.MouseMove, point, Qt.MouseButton.NoButton,
                Qt.MouseButton.LeftButton, modifiers,
            )  # fmt: skip


def release_at(
    window: MainWindow,
    cell: tuple[float, float],
    modifiers: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier,
) -> None:
    left, none = Qt.MouseButton.LeftButton, Qt.MouseButton.NoButton
    point = cell_centre_in_view(window.view, *cell)
    send(window.view, QEvent.Type.MouseButtonRelease, point, left, none, modifiers)


def grab_view(window: MainWindow) -> QImage:
    """What the view shows, drawn by the view itself (items that ignore the zoom included)."""
    size = window.view.viewport().size()
    image = QImage(size, QImage.Format.Format_ARGB32)
    image.fill(0)
    painter = QPainter(image)
    window.view.render(painter, QRectF(image.rect()), window.view.viewport().rect())
    painter.end()
    return image


def pixel_at(window: MainWindow, image: QImage, cell: tuple[float, float]) -> tuple[int, int, int]:
    point = cell_centre_in_view(window.view, *cell)
    colour = image.pixelColor(point.x(), point.y())
    return colour.red(), colour.green(), colour.blue()
