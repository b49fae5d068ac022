"""Render ``assets/icon/battlemap.svg`` into the PNG, ICO and ICNS files the app and bundles use.

Run after editing the SVG, then commit the results::

    QT_QPA_PLATFORM=offscreen .venv/bin/python tools/make_icon.py

The app loads the PNGs (so a bundle needs neither QtSvg nor the SVG icon engine); PyInstaller
puts ``battlemap.ico`` into the Windows executable and ``battlemap.icns`` into the macOS app.
Both container files hold PNG images, which Windows Vista+ and macOS 10.7+ read.
"""

from __future__ import annotations

import struct
import sys
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

ICON_DIR = Path(__file__).resolve().parent.parent / "assets" / "icon"
SOURCE = ICON_DIR / "battlemap.svg"
PNG_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
# ICNS element types that hold PNG data, and their pixel size (the @2x types are larger).
ICNS_TYPES = {
    b"icp4": 16,
    b"icp5": 32,
    b"ic11": 32,
    b"icp6": 64,
    b"ic12": 64,
    b"ic07": 128,
    b"ic08": 256,
    b"ic13": 256,
    b"ic09": 512,
    b"ic14": 512,
    b"ic10": 1024,
}


def render_png(renderer: QSvgRenderer, size: int) -> bytes:
    """The SVG drawn antialiased on a transparent ``size`` x ``size`` canvas, as PNG bytes."""
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter)
    painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buffer, "PNG"):
        raise RuntimeError(f"could not encode the {size}px icon as PNG")
    return bytes(data.data())


def ico_file(pngs: dict[int, bytes]) -> bytes:
    """A Windows .ico holding one PNG per size (a width or height of 256 is stored as 0)."""
    header = struct.pack("<HHH", 0, 1, len(pngs))
    offset = len(header) + 16 * len(pngs)
    entries, blobs = b"", b""
    for size, png in sorted(pngs.items()):
        side = size % 256  # the format's one-byte width: 0 means 256
        entries += struct.pack("<BBBBHHII", side, side, 0, 0, 1, 32, len(png), offset)
        blobs += png
        offset += len(png)
    return header + entries + blobs


def icns_file(pngs: dict[int, bytes]) -> bytes:
    """A macOS .icns: big-endian type + length records, each holding a PNG."""
    body = b"".join(
        kind + struct.pack(">I", 8 + len(pngs[size])) + pngs[size]
        for kind, size in ICNS_TYPES.items()
    )
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


def main() -> int:
    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    renderer = QSvgRenderer(str(SOURCE))
    if not renderer.isValid():
        print(f"make_icon: {SOURCE} is not a valid SVG", file=sys.stderr)
        return 1
    sizes = sorted({*PNG_SIZES, *ICO_SIZES, *ICNS_TYPES.values()})
    pngs = {size: render_png(renderer, size) for size in sizes}
    for size in PNG_SIZES:
        (ICON_DIR / f"battlemap-{size}.png").write_bytes(pngs[size])
    (ICON_DIR / "battlemap.ico").write_bytes(ico_file({s: pngs[s] for s in ICO_SIZES}))
    (ICON_DIR / "battlemap.icns").write_bytes(icns_file(pngs))
    print(f"make_icon: wrote {len(PNG_SIZES)} PNGs, battlemap.ico and battlemap.icns to {ICON_DIR}")
    del app
    return 0


if __name__ == "__main__":
    sys.exit(main())
