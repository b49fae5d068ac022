"""Check that a built bundle draws WEBP and JPEG map images (its Qt image format plugins work),
and sends a WEBP map to phones (as JPEG).

The bundle keeps only some Qt plugins (packaging/hooks/hook-PySide6.QtGui.py). A missing
decoder does not crash the app: the map just stays blank. So for each format this writes a
.battlemap whose whole background is one colour, has the *bundled* program take a screenshot
of it, and counts pixels of that colour. Controls: a map without a background must show
(almost) none of that colour, and a PNG map (no plugin needed) must show it.

Run with the development venv (it needs PySide6 to make and read the images)::

    .venv/bin/python packaging/check_image_formats.py dist/battlemap/battlemap
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice
from PySide6.QtGui import QColor, QGuiApplication, QImage

MAP_COLOUR = QColor(192, 48, 144)
TOLERANCE = 24  # per channel; JPEG shifts a flat colour by a few levels
MIN_SHARE = 0.15  # the map fills most of the view; the control must stay far below this
CELL_PX = 40
COLUMNS, ROWS = 12, 9


def encoded(image: QImage, fmt: str) -> bytes:
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buffer, fmt.upper()):
        raise RuntimeError(f"this Qt cannot write {fmt} to make the test file")
    return bytes(data.data())


def write_map(folder: Path, fmt: str | None) -> Path:
    """A .battlemap with a flat-coloured background in ``fmt``, or none when ``fmt`` is None.

    Written by hand at format version 1 with only the fields it needs, not with battlemap's
    own saver, so the file does not depend on the model of the checkout running this script
    (the bundle migrates version 1 like any old file).
    """
    encounter: dict[str, object] = {
        "name": f"{fmt} map",
        "grid": {"width": COLUMNS, "height": ROWS},
    }
    path = folder / f"{fmt or 'none'}.battlemap"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        if fmt is not None:
            image = QImage(COLUMNS * CELL_PX, ROWS * CELL_PX, QImage.Format.Format_RGB32)
            image.fill(MAP_COLOUR)
            name = f"map.{fmt}"
            archive.writestr(f"images/{name}", encoded(image, fmt))
            encounter["background"] = {"image": name, "pixels_per_cell": CELL_PX}
        envelope = {"format_version": 1, "encounter": encounter}
        archive.writestr("encounter.json", json.dumps(envelope))
    return path


def share_of_map_colour(shot: Path) -> float:
    image = QImage(str(shot)).convertToFormat(QImage.Format.Format_RGB32)
    if image.isNull():
        raise RuntimeError(f"no screenshot at {shot}")
    step = 4  # every 4th pixel each way is plenty
    total = hits = 0
    for y in range(0, image.height(), step):
        for x in range(0, image.width(), step):
            colour = image.pixelColor(x, y)
            total += 1
            hits += all(
                abs(a - b) <= TOLERANCE
                for a, b in zip(
                    (colour.red(), colour.green(), colour.blue()),
                    (MAP_COLOUR.red(), MAP_COLOUR.green(), MAP_COLOUR.blue()),
                    strict=True,
                )
            )
    return hits / total


def screenshot_share(program: Path, folder: Path, fmt: str | None) -> float:
    shot = folder / f"{fmt or 'none'}.png"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    command = [str(program), str(write_map(folder, fmt)), "--screenshot", str(shot)]
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} exited {result.returncode}: {result.stderr}")
    return share_of_map_colour(shot)


def smoke_line(program: Path, path: Path) -> str:
    """What ``--smoke`` says of sharing ``path`` with a phone."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    command = [str(program), str(path), "--smoke"]
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} exited {result.returncode}: {result.stderr}")
    return next((line for line in result.stdout.splitlines() if "shared on" in line), "")


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    program = Path(argv[0]).resolve()
    app = QGuiApplication.instance() or QGuiApplication(["check_image_formats"])
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        control = screenshot_share(program, folder, None)
        if control >= MIN_SHARE / 3:
            print(f"check_image_formats: control map already {control:.0%} map colour; bad test")
            return 1
        # PNG needs no plugin (QtGui decodes it): if even a PNG map is not drawn, the app
        # itself does not show images of a file opened on the command line, and this
        # check cannot tell anything about plugins.
        png = screenshot_share(program, folder, "png")
        if png < MIN_SHARE:
            print(
                f"check_image_formats: SKIPPED: a PNG map covers only {png:.0%} of the window; "
                "this build does not draw the map of a file given on the command line"
            )
            return 0
        for fmt in ("webp", "jpeg"):
            share = screenshot_share(program, folder, fmt)
            ok = share >= MIN_SHARE
            failed |= not ok
            verdict = "ok" if ok else "NOT DRAWN (image format plugin missing?)"
            print(f"check_image_formats: {fmt} map {share:.0%} of the window: {verdict}")
        # Phones get the map re-encoded as JPEG (Qt's JPEG writer); --smoke fetches it.
        shared = smoke_line(program, write_map(folder, "webp"))
        ok = ", map " in shared
        failed |= not ok
        print(f"check_image_formats: webp map sent to phones: {'ok' if ok else 'NOT SENT'}")
        print(shared)
    del app
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
