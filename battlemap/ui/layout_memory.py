"""The main window's layout (its geometry and docks), remembered per screen size.

A DM who arranges the docks on a 1366 x 768 laptop and on a 1920 x 1080 monitor gets each
arrangement back on its screen: the layout is saved at close under the size of the screen the
window is on, and restored at start from the one saved for the screen it was closed on when
that screen is still connected (its geometry puts the window back there), else for the screen
it opens on; with none saved for it, the first-run sizes of ``window_layout`` apply. Settings
written before layouts were kept per size are read when a size has none of its own.
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QSettings, QSize
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget

LEGACY_GEOMETRY = "window/geometry"
LEGACY_STATE = "window/state"
LAST_SCREEN = "window/last_screen"
"""The size of the screen the window was closed on, as ``1920x1080``."""


def screen_size(window: QWidget) -> QSize:
    """The whole size of the screen ``window`` is on (desktop panels included, so moving a
    panel keeps the key); an empty size without a screen."""
    screen = window.screen()
    return screen.size() if screen is not None else QSize()


def connected_sizes() -> list[QSize]:
    """The whole sizes of the screens connected now."""
    return [screen.size() for screen in QGuiApplication.screens()]


def size_to_restore(settings: QSettings, window: QWidget) -> QSize:
    """The screen size whose layout the window opens with: the size it was closed on if a
    screen of that size is connected (the DM's monitor, though the laptop is the primary),
    else the size of the screen it is on now."""
    last = _size_named(str(settings.value(LAST_SCREEN, "")))
    if last is not None and last in connected_sizes():
        return last
    return screen_size(window)


def _size_named(text: str) -> QSize | None:
    width, _, height = text.partition("x")
    if not (width.isdigit() and height.isdigit()):
        return None
    return QSize(int(width), int(height))


def layout_keys(size: QSize) -> tuple[str, str]:
    """The settings keys of the geometry and the dock state saved for a screen of ``size``."""
    prefix = f"window/{size.width()}x{size.height()}"
    return f"{prefix}/geometry", f"{prefix}/state"


def saved_layout(settings: QSettings, size: QSize) -> tuple[QByteArray | None, QByteArray | None]:
    """The geometry and dock state saved for a screen of ``size`` (either may be None); the
    single layout of older settings when this size has none."""
    geometry_key, state_key = layout_keys(size)
    geometry, state = settings.value(geometry_key), settings.value(state_key)
    if geometry is None and state is None:
        geometry, state = settings.value(LEGACY_GEOMETRY), settings.value(LEGACY_STATE)
    return _bytes(geometry), _bytes(state)


def save_layout(settings: QSettings, size: QSize, geometry: QByteArray, state: QByteArray) -> None:
    geometry_key, state_key = layout_keys(size)
    settings.setValue(geometry_key, geometry)
    settings.setValue(state_key, state)
    settings.setValue(LAST_SCREEN, f"{size.width()}x{size.height()}")


def _bytes(value: object) -> QByteArray | None:
    """A stored layout, or None for a missing or mangled entry (a settings file edited by
    hand): Qt's restore functions refuse bad bytes themselves."""
    if isinstance(value, QByteArray):
        return value
    if isinstance(value, bytes):
        return QByteArray(value)
    return None
