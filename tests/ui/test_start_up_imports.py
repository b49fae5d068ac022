"""Start-up imports only what the first frame needs (issue 17): the share server, its page
and the QR codes, the dialogs, the roster file, tcod and d20 come later, the last two on a
worker thread after the first frame; the rules engine when a combat or a drag first uses it;
cover, reach, templates and path search when a ruling, a template or a move asks."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

LATE_MODULES = (
    "websockets",
    "asyncio",
    "segno",
    "tcod",
    "d20",
    *(
        f"battlemap.ui.share.{name}"
        for name in ("server", "dialog", "qr", "images", "page", "payload", "host_check")
    ),
    *(
        f"battlemap.ui.combat.{name}"
        for name in ("attack_dialog", "area_dialog", "condition_dialog", "contest_dialog")
    ),
    *(f"battlemap.ui.combat.{name}" for name in ("rest_dialog", "save_dialog", "placement")),
    "battlemap.ui.character_form",  # the player character form
    "battlemap.io.roster_file",
    "battlemap.ui.session_resume",  # asked after the first frame
    *(  # the combat engine: the docks are built without it, no combat is running
        f"battlemap.rules.{name}"
        for name in (
            "economy",
            "legal",
            "turns",
            "initiative",
            "conditions",
            "damage",
            "death",
            "attacks",
            "mounts",
            "pending",
            "rest_uses",
            "move_plan",
            "move_resolution",
            "attack_situation",
            "ruleset_changes",
        )
    ),
    *(  # geometry that a ruling, a template or a move asks for
        f"battlemap.geometry.{name}"
        for name in ("cover", "reach", "flanking", "search", "templates")
    ),
    "battlemap.io.uvtt",  # a map import or a Universal VTT file opened
    "battlemap.io.monsters",  # the Creature library fills just after the first frame
    "battlemap.ui.targeting.facts",  # the first ruling shown
)

PROBE = """
import json, sys
from PySide6.QtWidgets import QApplication
from battlemap.app import warm_up_in_background
from battlemap.io.loader import load_demo_encounter
from battlemap.model.document import Document
from battlemap.ui.main_window import MainWindow
from PySide6.QtCore import QSettings

app = QApplication(sys.argv[:1])
settings = QSettings(sys.argv[1], QSettings.Format.IniFormat)
window = MainWindow(Document(load_demo_encounter()), settings=settings)
window.show()
app.processEvents()
late = sys.argv[2].split(",")
before = [name for name in late if name in sys.modules]
warm_up_in_background().join()
after = [name for name in late if name in sys.modules]
print(json.dumps({"before": before, "after": after}))
"""


def _probe(tmp_path: Path) -> dict[str, list[str]]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(tmp_path / "settings.ini"), ",".join(LATE_MODULES)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=Path(__file__).parents[2],
    )
    assert done.returncode == 0, done.stderr[-2000:]
    found: dict[str, list[str]] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def test_the_window_is_shown_without_the_late_modules_and_the_warm_up_imports_tcod_and_d20(
    tmp_path: Path,
) -> None:
    found = _probe(tmp_path)
    assert found["before"] == []
    assert {"tcod", "d20", "battlemap.rules.economy", "battlemap.io.monsters"} <= set(
        found["after"]
    )  # the warm-up: no pause at the first drag, combat or library fill
    assert "websockets" not in found["after"]  # only sharing imports the server


def test_the_warm_up_thread_imports_only_the_qt_free_layers() -> None:
    from battlemap.app import WARM_UP_MODULES

    layers = {name.split(".")[1] for name in WARM_UP_MODULES}
    assert layers <= {"model", "geometry", "rules", "io"}  # no widget module off the GUI thread
