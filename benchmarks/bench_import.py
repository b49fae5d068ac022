"""Map and monster import, and drawing large background images."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
Case = tuple[str, Callable[[], Callable[[], object] | None]]


def _uvtt(name: str) -> Callable[[], object] | None:
    from battlemap.io.uvtt import read_uvtt

    path = DATA / name
    return (lambda: read_uvtt(path)) if path.is_file() else None


def _monsters() -> Callable[[], object] | None:
    from battlemap.io.monsters import import_5e_monsters

    path = DATA / "5e-SRD-Monsters.json"
    return (lambda: import_5e_monsters(path)) if path.is_file() else None


def _library() -> Callable[[], object]:
    from battlemap.io.monsters import load_library
    from battlemap.resources import asset_path

    path = asset_path("srd-monsters.json")
    return lambda: load_library(path)


def _big_image_scene(side: int, tiled: bool, zoomed_in: bool = False) -> Callable[[], object]:
    """Render a ``side`` x ``side`` pixel map (10 x 10 cells) into a 1600 px square: the whole
    map (zoomed out) or one cell at 1:1 (zoomed in), with the tiled level-of-detail item or
    with one smoothly scaled pixmap."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QRectF, Qt
    from PySide6.QtGui import QColor, QImage, QPainter
    from PySide6.QtWidgets import QApplication, QGraphicsPixmapItem, QGraphicsScene

    from battlemap.model.encounter import Background
    from battlemap.ui.background_item import BackgroundItem

    app = QApplication.instance() or QApplication([])
    image = QImage(side, side, QImage.Format.Format_RGB32)
    image.fill(QColor("#8c7b5a"))
    painter = QPainter(image)
    for i in range(0, side, 97):
        painter.drawLine(i, 0, side - i, side)
    painter.end()
    scene = QGraphicsScene()
    if tiled:
        scene.addItem(BackgroundItem(image, Background(image="x.png", pixels_per_cell=side / 10)))
    else:
        from PySide6.QtGui import QPixmap

        item = QGraphicsPixmapItem(QPixmap.fromImage(image))
        item.setTransformationMode(Qt.TransformationMode.SmoothTransformation)
        item.setScale(640 / side)
        scene.addItem(item)
    target = QImage(1600, 1600, QImage.Format.Format_ARGB32)

    def render() -> None:
        painter = QPainter(target)
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        source = QRectF(256, 256, 64, 64) if zoomed_in else QRectF(0, 0, 640, 640)
        scene.render(painter, QRectF(0, 0, 1600, 1600), source)
        painter.end()
        app.processEvents()

    render()  # the first render makes the level-of-detail copies
    return render


def _decode_sample() -> Callable[[], object] | None:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from battlemap.io.uvtt import read_uvtt
    from battlemap.ui.background_item import BackgroundItem, decode_image

    path = DATA / "uvtt2fgu_sampleMap.dd2vtt"
    if not path.is_file():
        return None
    QApplication.instance() or QApplication([])
    result = read_uvtt(path)
    background = result.background("sample.png")
    return lambda: BackgroundItem(decode_image(result.image, "sample.png"), background)


def cases() -> list[Case]:
    return [
        ("uvtt: sample map 3.8 MB (2560 px PNG)", lambda: _uvtt("uvtt2fgu_sampleMap.dd2vtt")),
        ("uvtt: red tower, cropped (61 walls)", lambda: _uvtt("vtt-maps_red-tower-base.dd2vtt")),
        ("uvtt: azheim, WEBP", lambda: _uvtt("vtt-maps_azheim-meeting.dd2vtt")),
        ("monsters: import 5e-database JSON (334)", _monsters),
        ("monsters: load bundled library", _library),
        ("background 8192 px zoomed out: tiled LOD", lambda: _big_image_scene(8192, True)),
        ("background 8192 px zoomed out: one pixmap", lambda: _big_image_scene(8192, False)),
        ("background 8192 px one cell: tiled LOD", lambda: _big_image_scene(8192, True, True)),
        ("background 8192 px one cell: one pixmap", lambda: _big_image_scene(8192, False, True)),
        ("background: decode + tile the sample's 2560 px PNG", _decode_sample),
    ]
