"""The map image under the grid: decoded once, drawn as tiles with a level of detail.

A battle map image can be 10,000 pixels across. Drawing it as one pixmap scaled by the view
samples every source pixel when zoomed out (slow, and it shimmers); so the image is cut into
``TILE`` pixel tiles, and each tile keeps half-, quarter-... size copies made on first use.
``paint`` draws only the tiles in the exposed area, at the smallest copy that still has at
least one source pixel per screen pixel.

Alignment: the item's local coordinates are image pixels. ``Background.offset_x/y`` is the
image pixel at the map's top-left corner and ``pixels_per_cell`` the image pixels per cell,
so the item is scaled by ``SCENE_UNITS_PER_CELL / pixels_per_cell`` and moved so that pixel
lands on scene (0, 0).
"""

from __future__ import annotations

import math

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QRectF, Qt
from PySide6.QtGui import QImage, QImageReader, QPainter, QPixmap
from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene, QStyleOptionGraphicsItem, QWidget

from battlemap.io.images import MAX_IMAGE_PIXELS
from battlemap.model.document import Document
from battlemap.model.encounter import Background
from battlemap.ui.map_items import Z_BACKGROUND
from battlemap.ui.style import SCENE_UNITS_PER_CELL

TILE = 1024
"""Side of one tile in source pixels."""
MAX_LEVEL = 6
"""Smallest copy: 1/64 of the source size."""
CellRect = tuple[float, float, float, float]
"""x, y, width, height in cells."""
ALLOCATION_LIMIT_MB = math.ceil(MAX_IMAGE_PIXELS * 4 / 1024 / 1024) + 16
"""Qt refuses to decode images over 256 MB by default; our own cap is checked first."""


class ImageDecodeError(ValueError):
    """Image bytes Qt could not decode."""


def decode_image(data: bytes, name: str) -> QImage:
    """Decode image bytes with Qt.

    Raises:
        ImageDecodeError: naming the image and Qt's reason.
    """
    if QImageReader.allocationLimit() < ALLOCATION_LIMIT_MB:
        QImageReader.setAllocationLimit(ALLOCATION_LIMIT_MB)
    buffer = QBuffer()
    buffer.setData(QByteArray(data))
    buffer.open(QIODevice.OpenModeFlag.ReadOnly)
    reader = QImageReader(buffer)
    size = reader.size()
    if size.width() * size.height() > MAX_IMAGE_PIXELS:
        raise ImageDecodeError(f"{name}: {size.width()}x{size.height()} pixels is too large")
    image = reader.read()
    if image.isNull():
        raise ImageDecodeError(f"{name}: {reader.errorString()}")
    return image


class BackgroundItem(QGraphicsItem):
    """Draws one decoded image as level-of-detail tiles (see the module docstring)."""

    def __init__(
        self, image: QImage, background: Background, clip_cells: CellRect | None = None
    ) -> None:
        super().__init__()
        self.setZValue(Z_BACKGROUND)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.image_width, self.image_height = image.width(), image.height()
        self._tiles: dict[tuple[int, int, int], QPixmap] = {}
        self.clip_cells: CellRect | None = None
        self.clip: QRectF | None = None
        """The part of the image drawn (``clip_cells``) in image pixels; None: all of it."""
        self.set_background(background, clip_cells)
        for ty in range(math.ceil(self.image_height / TILE)):
            for tx in range(math.ceil(self.image_width / TILE)):
                # An edge tile stops at the image's edge: a copy past it is filled black,
                # and that band was drawn beside the map.
                x, y = tx * TILE, ty * TILE
                width, height = min(TILE, image.width() - x), min(TILE, image.height() - y)
                self._tiles[(0, tx, ty)] = QPixmap.fromImage(image.copy(x, y, width, height))

    def set_background(self, background: Background, clip_cells: CellRect | None = None) -> None:
        """Place the image by the background's scale and offset (no re-decoding) and draw
        only its part over ``clip_cells`` (x, y, width, height in cells; None: all of it)."""
        self.prepareGeometryChange()
        self.background, self.clip_cells = background, clip_cells
        scale = SCENE_UNITS_PER_CELL / background.pixels_per_cell
        self.setScale(scale)
        self.setPos(-background.offset_x * scale, -background.offset_y * scale)
        self.clip = None
        if clip_cells is not None:
            x, y, width, height = (value * background.pixels_per_cell for value in clip_cells)
            self.clip = QRectF(x + background.offset_x, y + background.offset_y, width, height)

    def boundingRect(self) -> QRectF:
        whole = QRectF(0, 0, self.image_width, self.image_height)
        return whole if self.clip is None else whole.intersected(self.clip)

    def tile(self, level: int, tx: int, ty: int) -> QPixmap:
        """Tile (tx, ty) at ``1 / 2**level`` of its size, made from the next larger copy."""
        key = (level, tx, ty)
        pixmap = self._tiles.get(key)
        if pixmap is None:
            larger = self.tile(level - 1, tx, ty)
            pixmap = larger.scaled(
                max(1, larger.width() // 2),
                max(1, larger.height() // 2),
                Qt.AspectRatioMode.IgnoreAspectRatio,
                Qt.TransformationMode.SmoothTransformation,
            )
            self._tiles[key] = pixmap
        return pixmap

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        screen_pixels_per_source = option.levelOfDetailFromTransform(painter.worldTransform())
        level = 0
        while level < MAX_LEVEL and screen_pixels_per_source * 2 ** (level + 1) <= 1.0:
            level += 1
        exposed = option.exposedRect.intersected(self.boundingRect())
        if exposed.isEmpty():
            return
        if self.clip is not None:  # tiles cross the clip's edge: cut them there
            painter.setClipRect(self.clip, Qt.ClipOperation.IntersectClip)
        # Without antialiasing tile edges snap to whole screen pixels, so no seams show.
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
        first_x, last_x = int(exposed.left() // TILE), math.ceil(exposed.right() / TILE)
        first_y, last_y = int(exposed.top() // TILE), math.ceil(exposed.bottom() / TILE)
        for ty in range(first_y, last_y):
            for tx in range(first_x, last_x):
                if (0, tx, ty) not in self._tiles:
                    continue
                full = self._tiles[(0, tx, ty)]
                target = QRectF(tx * TILE, ty * TILE, full.width(), full.height())
                pixmap = self.tile(level, tx, ty)
                painter.drawPixmap(target, pixmap, QRectF(pixmap.rect()))


class BackgroundLayer:
    """Keeps a scene's background item in step with the encounter (any scene: the players'
    scene can own one too and call ``sync`` with its view's background).

    The decoded image is kept while the background names the same image, so moving or
    scaling it (the alignment tool) and unrelated map edits never decode it again.
    """

    def __init__(self, scene: QGraphicsScene, document: Document) -> None:
        self.scene = scene
        self.document = document
        self.item: BackgroundItem | None = None
        self.error: str | None = None
        """Why the current background could not be shown, or None."""
        self._decoded: tuple[bytes, QImage] | None = None

    def preload(self, data: bytes, name: str) -> None:
        """Decode image bytes now, so an import can refuse an undecodable image before it
        changes the encounter; the next ``sync`` showing the same bytes uses this copy.

        Raises:
            ImageDecodeError: Qt cannot decode it (the message starts with ``name``).
        """
        self._decoded = (data, decode_image(data, name))

    def sync(self, background: Background | None, clip_cells: CellRect | None = None) -> None:
        """Show ``background`` (the encounter's, or a player view's): add, move, replace or
        remove the item; only its part over ``clip_cells`` when given (a player view's)."""
        try:
            self._sync(background, clip_cells)
        finally:
            self._decoded = None  # a preloaded image serves the next sync only

    def _sync(self, background: Background | None, clip_cells: CellRect | None) -> None:
        images = self.document.images  # looked up each time: opening a file may replace it
        if background is None or background.image not in images:
            self._remove()
            self.error = None if background is None else f"{background.image}: image missing"
            return
        if self.item is not None and self.item.background.image == background.image:
            if (self.item.background, self.item.clip_cells) != (background, clip_cells):
                self.item.set_background(background, clip_cells)
            return
        self._remove()
        try:
            image = self._decode(background.image, images[background.image])
        except ImageDecodeError as error:
            self.error = str(error)
            return
        self.error = None
        self.item = BackgroundItem(image, background, clip_cells)
        self.scene.addItem(self.item)

    def _decode(self, name: str, data: bytes) -> QImage:
        if self._decoded is not None and self._decoded[0] == data:
            image = self._decoded[1]
        else:
            image = decode_image(data, name)
        return image

    def _remove(self) -> None:
        if self.item is not None:
            self.scene.removeItem(self.item)
            self.item = None
