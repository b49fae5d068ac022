"""Before Qt starts under X11: are the system libraries its xcb platform plugin loads there?

PySide6 brings Qt but not the X11 libraries; without one of them Qt aborts with "could not
load the Qt platform plugin xcb" and names only xcb-cursor, whatever is missing. The table
below is what ``ldd`` lists for PySide6's ``plugins/platforms/libqxcb.so`` and
``lib/libQt6XcbQpa.so.6`` outside Qt and the C runtime (a test compares it with the installed
plugin), with the Debian/Ubuntu package of each. No Qt is imported here.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping

XCB_LIBRARIES: dict[str, str] = {
    "libxcb.so.1": "libxcb1",
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-render.so.0": "libxcb-render0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-shm.so.0": "libxcb-shm0",
    "libxcb-sync.so.1": "libxcb-sync1",
    "libxcb-util.so.1": "libxcb-util1",
    "libxcb-xfixes.so.0": "libxcb-xfixes0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    "libX11.so.6": "libx11-6",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libxkbcommon.so.0": "libxkbcommon0",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libGL.so.1": "libgl1",
    "libEGL.so.1": "libegl1",
    "libfontconfig.so.1": "libfontconfig1",
    "libfreetype.so.6": "libfreetype6",
    "libglib-2.0.so.0": "libglib2.0-0",
    "libdbus-1.so.3": "libdbus-1-3",
}
"""Shared library (soname) -> the Debian/Ubuntu package that installs it."""


def can_load(soname: str) -> bool:
    """Whether the dynamic loader finds ``soname`` (as Qt's plugin would: same search path)."""
    import ctypes  # ~5 ms: only when Qt is about to use xcb

    try:
        ctypes.CDLL(soname)
    except OSError:
        return False
    return True


def needs_xcb(environ: Mapping[str, str], platform: str = sys.platform) -> bool:
    """Qt will pick its xcb plugin: Linux, no platform chosen, an X display and no Wayland
    one (under Wayland Qt uses its Wayland plugin first)."""
    return (
        platform.startswith("linux")
        and not environ.get("QT_QPA_PLATFORM")
        and bool(environ.get("DISPLAY"))
        and not environ.get("WAYLAND_DISPLAY")
    )


def missing_xcb_packages(load: Callable[[str], bool] = can_load) -> list[str]:
    """The packages of the xcb plugin's libraries that ``load`` cannot find, in table order."""
    return list(dict.fromkeys(pkg for lib, pkg in XCB_LIBRARIES.items() if not load(lib)))


def xcb_problem(
    environ: Mapping[str, str],
    load: Callable[[str], bool] | None = None,
    platform: str = sys.platform,
) -> str | None:
    """What to tell the DM when Qt's xcb plugin would not load, with the one ``apt-get``
    line that fixes it; None when it would load (or Qt will not use xcb)."""
    if not needs_xcb(environ, platform):
        return None
    missing = missing_xcb_packages(load or can_load)
    if not missing:
        return None
    return (
        "Qt needs system libraries for its X11 window that are not installed. Install them "
        "with:\n\n"
        f"    sudo apt-get install {' '.join(missing)}\n\n"
        "(or start with QT_QPA_PLATFORM=xcb to try anyway, or QT_QPA_PLATFORM=wayland)"
    )
