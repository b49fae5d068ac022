"""The DM gives tokens pictures: right-click > Token image… (one creature, or every copy of
its library monster), or an image file dropped onto a token. One undo step each; the image
is stored in the document by its content hash (the file's name is never kept), saved with
the encounter and drawn on both windows (``token_image``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QFileDialog, QMenu, QWidget

from battlemap.io.errors import FileFormatError
from battlemap.io.images import read_token_image_file
from battlemap.io.map_import import IMAGE_SUFFIXES
from battlemap.model.creature import Creature
from battlemap.model.document import Command, UpdateCreature
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.model.map_commands import CommandGroup
from battlemap.model.traits import TokenShape
from battlemap.ui.background_item import ImageDecodeError, decode_image
from battlemap.ui.feature_window import FeatureWindow
from battlemap.ui.import_actions import IMAGE_FILTER, show_error
from battlemap.ui.token_item import TokenItem
from battlemap.ui.undo import push

PICK_TEXT = "Token image…"
EVERY_COPY_TEXT = "Token image for every {name}…"
SQUARE_TEXT = "Square token image"
REMOVE_TEXT = "Remove token image"

AskPath = Callable[[QWidget, str], Path | None]


def ask_image_path(parent: QWidget, title: str) -> Path | None:
    path, _ = QFileDialog.getOpenFileName(parent, title, "", IMAGE_FILTER)
    return Path(path) if path else None


def copies_of(encounter: Encounter, creature: Creature) -> list[Creature]:
    """The creatures made from the same library monster (same stat block name) as
    ``creature``, itself included; only itself when it has no stat block."""
    if creature.statblock is None:
        return [creature]
    name = creature.statblock.name
    return [c for c in encounter.creatures if c.statblock is not None and c.statblock.name == name]


def like_its_copies(encounter: Encounter, creature: Creature) -> Creature:
    """``creature`` (new from the library) with the picture its monster's copies already
    on the map have, so "every copy" holds for those placed later too."""
    if creature.statblock is None or creature.token_image is not None:
        return creature
    for other in copies_of(encounter, creature):
        if other.token_image is not None:
            update = {"token_image": other.token_image, "token_shape": other.token_shape}
            return creature.model_copy(update=update)
    return creature


def pictured(
    creatures: list[Creature], image: str | None, shape: TokenShape | None = None
) -> Command | None:
    """One command giving every creature ``image`` (None: no picture) and ``shape`` (None:
    each keeps its own), or None when nothing changes."""
    commands: list[Command] = []
    for creature in creatures:
        update = {"token_image": image, "token_shape": shape or creature.token_shape}
        new = creature.model_copy(update=update)
        if new != creature:
            commands.append(UpdateCreature(creature, new, text=f"Token image of {creature.name}"))
    if len(commands) <= 1:
        return commands[0] if commands else None
    text = f"Token image of {len(commands)} creatures"
    return CommandGroup(tuple(commands), text=text)


def single_image_file(event: QDragEnterEvent | QDropEvent) -> Path | None:
    """The one local image file being dragged, or None."""
    mime = event.mimeData()
    if not mime.hasUrls() or len(mime.urls()) != 1 or not mime.urls()[0].isLocalFile():
        return None
    path = Path(mime.urls()[0].toLocalFile())
    return path if path.suffix.lower() in IMAGE_SUFFIXES else None


class TokenPictures(QObject):
    """The token menu's picture entries and the drop of an image file onto a token (an
    image dropped anywhere else is left to the map import)."""

    def __init__(self, window: FeatureWindow, ask_path: AskPath = ask_image_path) -> None:
        super().__init__(window)
        self.window = window
        self.ask_path = ask_path
        """Asks the DM for an image file (tests hand in their own)."""
        self.show_error: Callable[[QWidget, str, str], object] = show_error
        window.scene.token_menu_builders.append(self.build)
        window.view.viewport().setAcceptDrops(True)
        window.view.viewport().installEventFilter(self)  # after the map import's: asked first
        window.scene.token_images.failed.append(self._tell_undecodable)

    def _tell_undecodable(self, name: str, reason: str) -> None:
        """Once per picture: which tokens fall back to the disc, and why. Said after the
        paint that found it (a status message shown from inside a paint is not drawn)."""
        names = [c.name for c in self.window.document.encounter.creatures if c.token_image == name]
        who = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
        text = f"{who or 'A token'}: picture could not be decoded: {reason} (drawn as a disc)"
        QTimer.singleShot(0, self, lambda: self.window.statusBar().showMessage(text, 15000))

    def build(self, menu: QMenu, creature_id: EntityId) -> None:
        encounter = self.window.document.encounter
        creature = encounter.creature(creature_id)
        menu.addSeparator()
        menu.addAction(PICK_TEXT, lambda: self.choose([creature_id]))
        copies = copies_of(encounter, creature)
        if len(copies) > 1 and creature.statblock is not None:
            text = EVERY_COPY_TEXT.format(name=creature.statblock.name)
            menu.addAction(text, lambda: self.choose([c.id for c in copies]))
        if creature.token_image is not None:
            square = menu.addAction(SQUARE_TEXT)
            square.setCheckable(True)
            square.setChecked(creature.token_shape is TokenShape.SQUARE)
            square.toggled.connect(lambda on: self.set_shape(creature_id, on))
            menu.addAction(REMOVE_TEXT, lambda: self.set_image([creature_id], None))

    def choose(self, creature_ids: list[EntityId]) -> None:
        creature = self.window.document.encounter.creature(creature_ids[0])
        path = self.ask_path(self.window, f"Token image of {creature.name}")
        if path is not None:
            self.set_image_file(creature_ids, path)

    def set_image_file(self, creature_ids: list[EntityId], path: Path) -> bool:
        """Store the image file ``path`` and give it to the creatures; on a bad file show
        why and change nothing."""
        try:
            data, info = read_token_image_file(path)
            decode_image(data, path.name)  # refuse what Qt cannot show before any change
        except (FileFormatError, ImageDecodeError) as error:
            self.show_error(self.window, "Cannot use this token image", str(error))
            return False
        name = self.window.document.add_image(data, info.format.suffix)
        self.set_image(creature_ids, name)
        return True

    def set_image(self, creature_ids: list[EntityId], image: str | None) -> None:
        encounter = self.window.document.encounter
        command = pictured([encounter.creature(cid) for cid in creature_ids], image)
        if command is not None:
            push(self.window.undo_stack, self.window.document, command)

    def set_shape(self, creature_id: EntityId, square: bool) -> None:
        creature = self.window.document.encounter.creature(creature_id)
        shape = TokenShape.SQUARE if square else TokenShape.CIRCLE
        command = pictured([creature], creature.token_image, shape)
        if command is not None:
            push(self.window.undo_stack, self.window.document, command)

    # --- an image file dropped onto a token ------------------------------------------

    def _token_under(self, event: QDragEnterEvent | QDropEvent) -> EntityId | None:
        scene_pos = self.window.view.mapToScene(event.position().toPoint())
        for item in self.window.scene.items(scene_pos):
            if isinstance(item, TokenItem):
                return item.creature_id
        return None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind not in (QEvent.Type.DragEnter, QEvent.Type.DragMove, QEvent.Type.Drop):
            return False
        assert isinstance(event, QDragEnterEvent | QDropEvent)
        path = single_image_file(event)
        target = self._token_under(event) if path is not None else None
        if path is None or target is None:
            return False  # the map import's (an image dropped off any token is a map)
        event.acceptProposedAction()
        if kind == QEvent.Type.Drop:
            self.set_image_file([target], path)
        return True


def install(window: FeatureWindow) -> TokenPictures:
    return TokenPictures(window)
