"""Collect QtGui like PyInstaller's own hook, but only the Qt plugins Battlemap uses.

PyInstaller's hook takes every plugin of every QtGui plugin type; most of them (EGL/KMS
full-screen platforms, VNC, touch input, OpenGL integrations, the GTK theme that drags in GTK,
Cairo and Pango, SVG and PDF image formats) pull in libraries the app never loads. A plugin
type not named in KEEP is collected whole, so plugins on Windows and macOS (qwindows,
qcocoa, styles) are unaffected unless listed. This hook replaces the built-in one because
hooks from the spec's hookspath take priority over PyInstaller's.
"""

from pathlib import Path

from PyInstaller.utils.hooks.qt import add_qt6_dependencies

# Plugin type -> plugin names kept (file name without "lib" prefix and suffix).
KEEP: dict[str, set[str]] = {
    # offscreen: --smoke and CI; xcb: X11 and XWayland; wayland: native Wayland sessions;
    # windows/cocoa: the other two desktop systems.
    "platforms": {"qoffscreen", "qxcb", "qwayland", "qwindows", "qcocoa"},
    # PNG and BMP are built into QtGui; maps and tokens also come as JPEG, WebP and GIF.
    "imageformats": {"qjpeg", "qwebp", "qgif"},
    # Dead keys / compose sequences and IBus input methods in text fields.
    "platforminputcontexts": {
        "composeplatforminputcontextplugin",
        "ibusplatforminputcontextplugin",
    },
    # Native file dialogs through the desktop portal (Flatpak, GNOME, KDE); not the GTK theme.
    "platformthemes": {"qxdgdesktopportal"},
    # What a Wayland window needs to appear and get a title bar; no OpenGL buffer sharing.
    "wayland-shell-integration": {"xdg-shell"},
    "wayland-decoration-client": {"adwaita", "bradient"},
    "wayland-graphics-integration-client": set(),
    # Raster widgets only: no OpenGL integrations, no EGL devices, no evdev/tslib input.
    "xcbglintegrations": set(),
    "egldeviceintegrations": set(),
    "generic": set(),
    # Icons are PNG files, so the SVG icon engine (and QtSvg) stays out.
    "iconengines": set(),
}


def _plugin_name(path: str) -> str:
    name = Path(path).name.split(".")[0]
    return name[3:] if name.startswith("lib") else name


def _wanted(binary: tuple[str, str]) -> bool:
    source, dest = binary
    parts = Path(dest).parts
    if "plugins" not in parts:
        return True
    plugin_type = "/".join(parts[parts.index("plugins") + 1 :])
    if plugin_type not in KEEP:
        return True
    return _plugin_name(source) in KEEP[plugin_type]


hiddenimports, binaries, datas = add_qt6_dependencies(__file__)
binaries = [binary for binary in binaries if _wanted(binary)]
