"""Composition root and command line: builds the Document and the windows.

``battlemap [FILE]`` opens the app; ``--smoke`` renders one frame headless and exits;
``--screenshot OUT.png`` saves the main window's first frame as an image; ``battlemap
rulesets ...`` and ``battlemap monsters report`` run without Qt.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from battlemap import APP_NAME, __version__, qt_platform_check

if TYPE_CHECKING:
    from battlemap.io.encounter_file import EncounterFile
    from battlemap.ui.main_window import MainWindow
    from battlemap.ui.session_resume import Resume

EXIT_BAD_INPUT = 2
EXIT_MISSING_LIBRARIES = 3


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="battlemap", description="A battle map for the table.")
    parser.add_argument("file", nargs="?", type=Path, help="encounter file to open (default: demo)")
    parser.add_argument(
        "--smoke", action="store_true", help="load, render one frame offscreen and exit 0"
    )
    parser.add_argument(
        "--screenshot", type=Path, metavar="OUT.png", help="save the first frame to a PNG and exit"
    )
    parser.add_argument("--version", action="version", version=f"{APP_NAME} {__version__}")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["rulesets"]:  # `battlemap rulesets check|schema|list`: no Qt needed
        from battlemap.rules.cli import main as rulesets_main

        return rulesets_main(argv[1:])
    if argv[:1] == ["monsters"]:  # `battlemap monsters report`: no Qt needed
        from battlemap.io.monster_report import main as monsters_main

        return monsters_main(argv[1:])
    args = build_parser().parse_args(argv)
    # pydantic looks for plugins in every installed package's entry points when the first
    # model is made (~30 ms in a venv with the dev tools); the app uses none. A DM's own
    # PYDANTIC_DISABLE_PLUGINS is kept.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    # Starting up makes tens of thousands of objects that live as long as the app (modules,
    # pydantic models, Qt wrappers); the collector would scan them over and over while they
    # are made (~40 ms) and free nothing. It is back on before the first frame: see run_gui.
    gc.disable()
    try:
        return _open_and_run(args)
    finally:
        gc.enable()


def _open_and_run(args: argparse.Namespace) -> int:
    # Imported here, after argparse, so that --help and --version stay quick.
    from battlemap.io.encounter_file import EncounterFile
    from battlemap.io.errors import FileFormatError
    from battlemap.io.loader import load_demo_encounter, load_encounter_file

    _import_before_qt()

    try:
        loaded = load_encounter_file(args.file) if args.file else None
    except (FileFormatError, FileNotFoundError) as error:
        print(f"{APP_NAME}: cannot open {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    # A screenshot under a display (xvfb-run's too) is drawn there: the window takes its
    # first-start size from that screen, not from the offscreen plugin's 800 x 800 one.
    if args.smoke or (args.screenshot and not os.environ.get("DISPLAY")):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    problem = qt_platform_check.xcb_problem(os.environ)
    if problem is not None:  # Qt would abort on its xcb plugin: say what to install instead
        print(f"{APP_NAME}: {problem}", file=sys.stderr)
        return EXIT_MISSING_LIBRARIES
    opened = loaded or EncounterFile(load_demo_encounter())
    return run_gui(opened, smoke=args.smoke, screenshot=args.screenshot, path=args.file)


def _import_before_qt() -> None:
    """Import the non-Qt layers the main window needs before Qt itself. Once PySide6 is
    imported its import hook reads the source of every module imported after it (to look
    for ``from __feature__ import ...``): ~0.1 ms a module, for some 200 modules."""
    import battlemap.geometry.illumination
    import battlemap.geometry.map_index
    import battlemap.rules.loader  # noqa: F401


def _collect_from_now_on() -> None:
    """Turn the collector back on, leaving out every object made so far (``gc.freeze``).

    The start-up objects live until the app closes; frozen, a full collection during play
    no longer walks them (one fewer ~40 ms pause, e.g. in the middle of a token drag).
    """
    gc.freeze()
    gc.enable()


def run_gui(
    opened: EncounterFile, *, smoke: bool, screenshot: Path | None, path: Path | None = None
) -> int:
    # Qt is imported here so the rest of the command line works without a display.
    from PySide6.QtCore import QTimer
    from PySide6.QtGui import QIcon
    from PySide6.QtWidgets import QApplication

    from battlemap.model.document import Document
    from battlemap.resources import app_icon_files
    from battlemap.ui.main_window import MainWindow
    from battlemap.ui.render import render_scene

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setOrganizationName(APP_NAME)
    app.setApplicationName(APP_NAME)
    app.setApplicationVersion(__version__)
    QApplication.setDesktopFileName("battlemap")  # Wayland matches the window to battlemap.desktop
    icon = QIcon()
    for png in app_icon_files():
        icon.addFile(str(png))
    QApplication.setWindowIcon(icon)
    encounter = opened.encounter
    window = MainWindow(Document(encounter, dict(opened.images)))
    window.files.set_opened_file(path)
    if smoke:
        warm_up_in_background().join()  # a bundle must carry a tcod and a d20 that load
        _check_hashes()  # and the hashes dice, images and sharing use (no OpenSSL in it)
        image = render_scene(window.scene, window.map_rect(), width=800)
        ok = not image.isNull() and image.width() == 800
        print(f"smoke: rendered {image.width()}x{image.height()} of '{encounter.name}'")
        return 0 if ok and _share_smoke(window) else 1
    window.show()
    window.fit_map()
    _collect_from_now_on()  # before the first frame is painted, here and in app.exec()
    if screenshot is not None:
        # The first frame as a DM sees it: the Creature library's list is still empty (a
        # real start fills it FILL_AFTER_MS later), the picture and the bench (issue 17) too.
        app.processEvents()
        if not window.grab().save(str(screenshot)):
            print(f"{APP_NAME}: could not write {screenshot}", file=sys.stderr)
            return 1
        return 0
    resume_session(window, path)
    QTimer.singleShot(WARM_UP_AFTER_MS, warm_up_in_background)
    return app.exec()


def resume_session(window: MainWindow, path: Path | None) -> Resume:
    """What a real start does once the window shows (``--smoke`` and ``--screenshot`` don't),
    after its first frame (``Resume.done`` then turns True; a status message says what opens).

    With no FILE named, the last encounter opens again if the DM chose so (File > Open
    Recent; a gone or broken one is reported and dropped, and the demo stays); then the
    close guard, autosave and crash recovery; the players' window if it was open at the last
    close; and, once ever, the first-run hint.
    """
    from battlemap.ui.session_resume import resume_after_first_frame

    def steps() -> None:
        if path is None:
            window.files.reopen_last_at_start()
        window.files.start_session()  # ask before losing changes; autosave; crash recovery
        window.players.reopen_if_it_was_open()
        window.help.show_first_run_hint()  # once ever: the first steps, over the map

    return resume_after_first_frame(window, steps)


WARM_UP_AFTER_MS = 250
"""When the first frame is on screen: the warm-up then starts."""


WARM_UP_MODULES = (
    "battlemap.rules.move_resolution",  # a drag's plan, a drop; cover, reach, flanking
    "battlemap.rules.legal",  # a combat's Actions dock
    "battlemap.rules.initiative",  # Start combat
    "battlemap.geometry.templates",  # the first area template
    "battlemap.io.monsters",  # the Creature library, filled just after the first frame
)
"""Qt-free modules the first frame is built without (issue 17) but a first drag, combat or
ruling needs: imported by the warm-up, they cost that first use no pause."""


def warm_up_in_background() -> threading.Thread:
    """Import on a worker thread what the first frame does without but a first drag or roll
    needs: tcod (~0.6 s CPU: its package and cffi's C parser), d20 (its grammar, ~0.2 s) and
    the rules engine (``WARM_UP_MODULES``). Imported on the main thread they paused the first
    drag; a drag that starts before the worker is done waits for the import that is under way
    (Python's import lock), no longer."""
    from importlib import import_module

    from battlemap.geometry.search_graph import load_path_search

    def warm() -> None:
        load_path_search()
        import d20  # type: ignore[import-untyped]  # noqa: F401

        for name in WARM_UP_MODULES:
            import_module(name)

    worker = threading.Thread(target=warm, name="battlemap-warm-up", daemon=True)
    worker.start()
    return worker


def _share_smoke(window: MainWindow) -> bool:
    """Share with one phone on 127.0.0.1 and stop: the bundle must carry the server."""
    from battlemap.ui.share.smoke import ShareSmokeError, share_smoke

    try:
        print(share_smoke(window.share))
    except ShareSmokeError as error:
        print(f"{APP_NAME}: {error}", file=sys.stderr)
        return False
    return True


def _check_hashes() -> None:
    """Raise unless every hash the app uses works (the bundle leaves OpenSSL's out)."""
    import hashlib

    for name in ("sha1", "sha256", "blake2b"):
        hashlib.new(name, b"battlemap").hexdigest()
