"""Make the README's screenshots from the demo encounter: the DM's window, mid-combat, and the
players' window.

    QT_QPA_PLATFORM=offscreen .venv/bin/python tools/screenshots.py [--out docs] [--only NAME]
        [--screen 1366x768]

Each window is drawn at 1600 x 1000 with the light theme, its layout fresh (settings in a
temporary folder, not the DM's), and the dice seeded, so a run gives the same pictures.
Open dialogs are painted onto the window where they sit. The PNGs are reduced to 256 colours
(the UI has few colours; see ``save_small``) to keep the repository small.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
from PySide6.QtCore import (
    QBuffer,
    QByteArray,
    QEvent,
    QIODevice,
    QPoint,
    QPointF,
    QRect,
    QSettings,
    Qt,
)
from PySide6.QtGui import QColor, QImage, QMouseEvent, QPainter
from PySide6.QtWidgets import QApplication, QGraphicsView, QWidget

from battlemap.io.loader import load_demo_encounter, load_encounter_file
from battlemap.model import Creature, Side
from battlemap.model.document import (
    Document,
    MoveCreature,
    ReplaceEncounterField,
    UpdateCreature,
)
from battlemap.model.encounter import Encounter
from battlemap.model.features import Wall
from battlemap.model.fog import FogMode
from battlemap.model.ids import EntityId
from battlemap.ui import window_layout
from battlemap.ui.main_window import MainWindow
from battlemap.ui.undo import push

SIZE = (1600, 1000)
SEED = 20261130
PALETTE_SIZE = 256
PANEL_HEIGHT = 32
"""A desktop panel's height, taken off a --screen's height."""
Shot = Callable[[MainWindow], QWidget]


def settle(rounds: int = 5) -> None:
    for _ in range(rounds):
        QApplication.processEvents()


def make_window(
    encounter: Encounter, settings_dir: Path, screen: tuple[int, int] | None = None
) -> MainWindow:
    """A fresh main window at ``SIZE``, or on a first start on a screen of ``screen`` pixels
    (less a desktop panel): the size the app would open at there."""
    settings = QSettings(str(settings_dir / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(Document(encounter), settings=settings)
    if screen is None:
        window.resize(*SIZE)
    else:
        width, height = screen
        window_layout.fit_to_screen(window, QRect(0, 0, width, height - PANEL_HEIGHT))
    window.show()
    settle()
    window.fit_map()
    window.combat.session.seed_source = lambda: SEED
    return window


def creature_id(window: MainWindow, name: str) -> EntityId:
    return next(c.id for c in window.document.encounter.creatures if c.name == name)


def select(window: MainWindow, name: str) -> None:
    window.scene.clearSelection()
    window.scene.tokens[creature_id(window, name)].setSelected(True)


def start_combat(window: MainWindow) -> None:
    """Roll initiative for everyone and begin round 1 (the Initiative dock's three buttons)."""
    initiative = window.combat.initiative
    for button in (initiative.start_button, initiative.roll_all, initiative.begin_button):
        button.click()
    settle()


def dm_window(window: MainWindow) -> QWidget:
    """Mid-combat, Elowen's turn, a drag in progress (the mouse held down): her path past
    Goblin 1 (moved up to the party first), "30 / 35 ft", the reachable area and the
    opportunity attack the move would provoke, with the line to the goblin."""
    goblin = creature_id(window, "Goblin 1")
    start = window.document.encounter.creature(goblin)
    push(window.undo_stack, window.document, MoveCreature(goblin, (start.x, start.y), (6, 6)))
    start_combat(window)
    elowen = creature_id(window, "Elowen")
    initiative = window.combat.initiative
    for _ in window.document.encounter.creatures:  # at most one round of turns
        state = window.document.encounter.combat
        if state is None or state.current is None or state.current.creature_id == elowen:
            break
        initiative.next_turn()
    token = window.scene.tokens[elowen]
    begin = token.sceneBoundingRect().center()
    cell = token.sceneBoundingRect().width()
    send_mouse(window.view, QEvent.Type.MouseButtonPress, begin, Qt.MouseButton.LeftButton)
    for step in range(1, 7):  # to (8, 7): five cells right, one up, like a hand would
        point = begin + QPointF(cell * 5 * step / 6, -cell * step / 6)
        send_mouse(window.view, QEvent.Type.MouseMove, point, Qt.MouseButton.NoButton)
    settle()
    return window


def send_mouse(
    view: QGraphicsView, kind: QEvent.Type, scene_point: QPointF, button: Qt.MouseButton
) -> None:
    """A mouse event at a scene point, the left button held (a drag) until released."""
    local = QPointF(view.mapFromScene(scene_point))
    held = (
        Qt.MouseButton.NoButton
        if kind == QEvent.Type.MouseButtonRelease
        else Qt.MouseButton.LeftButton
    )
    event = QMouseEvent(
        kind,
        local,
        QPointF(view.viewport().mapToGlobal(local.toPoint())),
        button,
        held,
        Qt.KeyboardModifier.NoModifier,
    )
    QApplication.sendEvent(view.viewport(), event)


def combat(window: MainWindow) -> QWidget:
    """Round 1 under way: Goblin 1 took a hit and is frightened; it is selected, so the
    Creature dock shows its hit points, turn economy and conditions."""
    start_combat(window)
    goblin = creature_id(window, "Goblin 1")
    select(window, "Goblin 1")
    panel = window.combat.panel
    panel.amount.setValue(3)
    panel.damage_type.setCurrentIndex(panel.damage_type.findData("piercing"))
    panel.deal_damage()
    panel.toggle_condition("frightened", True)
    window.combat.initiative.next_turn()
    window.view.centerOn(window.scene.tokens[goblin])
    settle()
    return window


def players(window: MainWindow) -> QWidget:
    """The players' window in a combat with dynamic fog: the party sees the room it is in."""
    encounter = window.document.encounter
    fog = encounter.fog.model_copy(update={"mode": FogMode.DYNAMIC})
    push(window.undo_stack, window.document, ReplaceEncounterField("fog", encounter.fog, fog))
    goblin = window.document.encounter.creature(creature_id(window, "Goblin 2"))
    push(
        window.undo_stack,
        window.document,
        UpdateCreature(goblin, goblin.model_copy(update={"name_shown_to_players": False})),
    )
    start_combat(window)
    return open_players(window)


def open_players(window: MainWindow) -> QWidget:
    """The players' window opened, as a window of ``SIZE`` (not full screen)."""
    window.players.toggle_action.setChecked(True)
    settle()
    shown = window.players.window
    shown.setWindowState(Qt.WindowState.WindowNoState)
    shown.resize(*SIZE)
    settle()
    return shown


def players_ruling(window: MainWindow) -> QWidget:
    """The players' window showing a ruling (R): Thorin picks the Ogre, and the table sees
    the corner lines (the low stone wall and the Owl block three: half cover) and his reach."""
    select(window, "Thorin")
    window.targeting.show_pair(creature_id(window, "Thorin"), creature_id(window, "Ogre"))
    shown = open_players(window)
    window.ruling.show_ruling()
    settle()
    return shown


RED_TOWER = Path(__file__).parent.parent.parent / "shared/data/vtt-maps_red-tower-base.dd2vtt"
"""The Dungeondraft map of the players' fog picture (the project's shared data, not the app's)."""
FOG_PARTY = {"Brother Ash": (2, 8), "Kestrel": (3, 8), "Thorin": (2, 9), "Elowen": (3, 9)}
"""Four side by side and under each other: their name plates must not cover a face."""
FOG_WALLS = (((2.5, 5.5), (3.6, 4.0)), ((4.0, 6.0), (5.6, 4.5)), ((6.0, 7.5), (7.1, 6.5)))
"""Three diagonal walls: straight soft shadows across the cells."""


def portrait(colour: str) -> bytes:
    """A token picture: a face on a coloured ground (no portrait files in the repository)."""
    image = QImage(128, 128, QImage.Format.Format_RGB32)
    image.fill(QColor(colour))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor("#2a2a30"))
    painter.drawEllipse(24, 84, 80, 80)  # the shoulders
    painter.setBrush(QColor("#e8c4a0"))
    painter.drawEllipse(40, 30, 48, 56)  # the face
    painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")  # type: ignore[call-overload]  # PySide6 takes str
    return bytes(data.data())


def players_fog(window: MainWindow) -> QWidget:
    """The players' window at 1920 x 1080 on the red tower map under dynamic fog: pictured
    tokens, three diagonal walls' soft shadows, the party's four name plates clear of faces."""
    loaded = load_encounter_file(RED_TOWER)
    document = window.document
    document.images.update(loaded.images)
    colours = ("#c9a227", "#7a3fb0", "#3060c0", "#30a050", "#b03030", "#b03030")
    pictures = [document.add_image(portrait(c), ".png") for c in colours]
    placed = [(name, xy, Side.PARTY) for name, xy in FOG_PARTY.items()]
    placed += [("Goblin 6", (1, 7), Side.HOSTILE), ("Goblin Boss", (8, 5), Side.HOSTILE)]
    creatures = tuple(
        Creature(name=name, side=side, x=x, y=y, hp=10, max_hp=10, token_image=pictures[i])
        for i, (name, (x, y), side) in enumerate(placed)
    )
    walls = tuple(Wall(a=a, b=b) for a, b in FOG_WALLS)
    encounter = loaded.encounter
    document.replace(
        encounter.model_copy(
            update={
                "creatures": creatures,
                "walls": (*encounter.walls, *walls),
                "fog": encounter.fog.model_copy(update={"mode": FogMode.DYNAMIC}),
            }
        )
    )
    settle()
    shown = open_players(window)
    shown.resize(1920, 1080)
    settle()
    return shown


SHOTS: dict[str, Shot] = {
    "screenshot-main.png": dm_window,
    "screenshot-combat.png": combat,
    "screenshot-players.png": players,
    "screenshots/players-ruling.png": players_ruling,
    "screenshots/players-fog.png": players_fog,
}


def grab_with_dialogs(window: QWidget) -> QImage:
    """The window as drawn, with every visible top-level dialog it owns painted where it is."""
    image = window.grab().toImage()
    painter = QPainter(image)
    for child in window.findChildren(QWidget):
        if child.isWindow() and child.isVisible() and child is not window:
            offset = child.mapToGlobal(QPoint(0, 0)) - window.mapToGlobal(QPoint(0, 0))
            painter.drawImage(offset, child.grab().toImage())
    painter.end()
    return image


def save_small(image: QImage, path: Path) -> int:
    """Save as a PNG of at most 256 colours; returns the file size in bytes.

    The palette is the image's 256 most used colours (flat UI fills, text, tokens); every
    other colour (mostly anti-aliased edges) takes the nearest of them, without dithering,
    which keeps text crisp and the file small (Qt's own 8-bit conversion dithers with a
    fixed colour cube: noisy and twice the size).
    """
    rgb = image.convertToFormat(QImage.Format.Format_RGB32)
    width, height = rgb.width(), rgb.height()
    words = np.frombuffer(rgb.constBits(), dtype=np.uint32, count=rgb.sizeInBytes() // 4)
    pixels = words.reshape(height, rgb.bytesPerLine() // 4)[:, :width] & np.uint32(0xFFFFFF)
    colours, inverse, counts = np.unique(pixels, return_inverse=True, return_counts=True)
    palette = colours[np.argsort(counts)[::-1][:PALETTE_SIZE]]

    def channels(values: np.ndarray) -> np.ndarray:
        return np.stack([(values >> shift) & 0xFF for shift in (16, 8, 0)], axis=1).astype(np.int32)

    nearest = np.empty(len(colours), dtype=np.uint8)
    wanted, offered = channels(colours), channels(palette)
    for start in range(0, len(colours), 4096):  # bounded memory: 4096 x 256 distances
        block = wanted[start : start + 4096, None, :] - offered[None, :, :]
        nearest[start : start + 4096] = np.argmin((block * block).sum(axis=2), axis=1)
    indices = np.ascontiguousarray(nearest[inverse.reshape(height, width)])
    small = QImage(indices.data, width, height, width, QImage.Format.Format_Indexed8)
    small.setColorTable([0xFF000000 | int(colour) for colour in palette])
    if not small.save(str(path), None, 0):  # the format from the .png suffix
        raise OSError(f"could not write {path}")
    return path.stat().st_size


def screen_size(text: str) -> tuple[int, int]:
    """``"1366x768"`` as (1366, 768); argparse reports anything else as a bad --screen."""
    width, _, height = text.lower().partition("x")
    if not (width.isdigit() and height.isdigit()) or int(width) < 320 or int(height) < 240:
        raise argparse.ArgumentTypeError(f"not a screen size (WxH, at least 320x240): {text!r}")
    return int(width), int(height)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs"), help="folder for the PNGs")
    parser.add_argument("--only", choices=sorted(SHOTS), help="make just this one")
    parser.add_argument(
        "--screen",
        type=screen_size,
        metavar="WxH",
        help="draw the DM's window at its first-start size on this screen (1366x768) to check "
        "the layout, instead of at 1600 x 1000",
    )
    args = parser.parse_args(argv)
    if QApplication.instance() is None:
        QApplication(sys.argv[:1])
    QApplication.setStyle("Fusion")
    args.out.mkdir(parents=True, exist_ok=True)
    for name, shot in SHOTS.items():
        if args.only and name != args.only:
            continue
        with tempfile.TemporaryDirectory() as folder:
            window = make_window(load_demo_encounter(), Path(folder), args.screen)
            shown = shot(window)
            size = save_small(grab_with_dialogs(shown), args.out / name)
            print(f"{args.out / name}: {shown.width()}x{shown.height()}, {size // 1024} KB")
            window.players.toggle_action.setChecked(False)
            window.setWindowModified(False)
            window.undo_stack.setClean()
            window.close()
            window.deleteLater()
            settle()
    return 0


if __name__ == "__main__":
    sys.exit(main())
