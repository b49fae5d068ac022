"""Autosave after every change, off the UI thread; crash recovery; nothing after a clean close.

Every test writes into a temp folder: the recovery folder is passed in, and QStandardPaths runs
in test mode with HOME pointing into the temp folder.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
from collections.abc import Callable, Iterator, Mapping
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from PySide6.QtCore import QSysInfo, QTimer
from pytestqt.qtbot import QtBot

from battlemap.io.encounter_file import load_battlemap, save_battlemap
from battlemap.model import Document, Encounter
from battlemap.model.document import ReplaceEncounterField
from battlemap.ui.autosave import (
    Autosave,
    Recovery,
    Writer,
    default_recovery_dir,
    find_recoveries,
)
from battlemap.ui.main_window import MainWindow
from battlemap.ui.undo import push
from tests.ui.session_helpers import move_fighter, user_folders  # noqa: F401 (autouse fixture)

ROOT = Path(__file__).resolve().parents[2]
Images = Mapping[str, bytes]
FAST_MS = 20


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return tmp_path / "recovery"


@pytest.fixture
def autosave(window: MainWindow, folder: Path) -> Iterator[Autosave]:
    saver = Autosave(window.document, window.undo_stack, folder, delay_ms=FAST_MS)
    yield saver
    saver.stop()


def session_files(folder: Path) -> list[str]:
    return sorted(p.suffix for p in folder.iterdir())


def test_the_recovery_folder_is_in_the_user_data_folder(tmp_path: Path) -> None:
    folder = default_recovery_dir()
    assert folder.name == "recovery"
    assert tmp_path / "home" in folder.parents  # test mode, temp HOME: never the user's folder


def test_a_change_is_written_once_after_the_quiet_time(
    window: MainWindow, autosave: Autosave, qtbot: QtBot
) -> None:
    written: list[str] = []
    autosave.written.connect(written.append)
    move_fighter(window, (3, 3))
    move_fighter(window, (4, 4))  # within the debounce: one write for both
    qtbot.waitUntil(lambda: written == [str(autosave.path)])
    qtbot.wait(3 * FAST_MS)
    assert written == [str(autosave.path)]
    assert load_battlemap(autosave.path).encounter == window.document.encounter
    assert session_files(autosave.folder) == [".battlemap", ".json", ".lock"]


def test_undoing_back_to_the_saved_state_removes_the_autosave(
    window: MainWindow, autosave: Autosave, qtbot: QtBot
) -> None:
    move_fighter(window, (3, 3))
    qtbot.waitUntil(autosave.path.exists)
    window.undo_stack.undo()
    qtbot.waitUntil(lambda: session_files(autosave.folder) == [".lock"])


def test_a_clean_close_leaves_nothing_to_restore(
    window: MainWindow, autosave: Autosave, qtbot: QtBot, folder: Path
) -> None:
    move_fighter(window, (3, 3))
    qtbot.waitUntil(autosave.path.exists)
    autosave.stop()
    assert list(folder.iterdir()) == []
    assert find_recoveries(folder) == []


def test_a_crash_leaves_an_autosave_to_restore(
    window: MainWindow, autosave: Autosave, qtbot: QtBot, folder: Path
) -> None:
    move_fighter(window, (3, 3))
    qtbot.waitUntil(autosave.path.exists)
    autosave.abandon()
    [recovery] = find_recoveries(folder)
    try:
        assert recovery.path == autosave.path
        assert recovery.name == window.document.encounter.name
        assert abs(recovery.saved_at - datetime.now(UTC)) < timedelta(minutes=5)
    finally:
        recovery.release()


def test_leftovers_of_dead_sessions_are_cleared_but_not_a_running_ones(
    autosave: Autosave, folder: Path
) -> None:
    (folder / "dead.json").write_text('{"source": null, "name": "x"}')
    (folder / ".dead.battlemap.k1ll3d.tmp").write_bytes(b"half a zip")  # killed mid-write
    # A lock left by a process on this machine that no longer runs.
    (folder / "dead.lock").write_text(f"999999999\nBattlemap\n{QSysInfo.machineHostName()}\n")
    assert find_recoveries(folder) == []
    assert session_files(folder) == [".lock"]
    assert (folder / f"{autosave.session}.lock").exists()


def test_a_dead_session_killed_in_its_first_write_leaves_only_a_temp_file_that_is_cleared(
    autosave: Autosave, folder: Path
) -> None:
    (folder / ".0badcafe.battlemap.k1ll3d.tmp").write_bytes(b"half a zip")
    (folder / ".0badcafe.json.k1ll3d.tmp").write_bytes(b"{")
    (folder / "notes.txt").write_text("not ours")  # anything else in the folder stays
    assert find_recoveries(folder) == []
    assert sorted(p.name for p in folder.iterdir()) == [f"{autosave.session}.lock", "notes.txt"]


def test_a_running_sessions_temp_file_is_kept(autosave: Autosave, folder: Path) -> None:
    running = folder / f".{autosave.session}.battlemap.wr1t1ng.tmp"
    running.write_bytes(b"being written")
    assert find_recoveries(folder) == []
    assert running.exists()


def test_a_running_sessions_autosave_is_not_offered(
    window: MainWindow, autosave: Autosave, qtbot: QtBot, folder: Path
) -> None:
    move_fighter(window, (3, 3))
    qtbot.waitUntil(autosave.path.exists)
    assert find_recoveries(folder) == []


@pytest.fixture
def autosave_with(window: MainWindow, folder: Path) -> Iterator[Callable[[Writer], Autosave]]:
    """Make an Autosave with a 1 ms debounce that writes through the given writer."""
    made: list[Autosave] = []

    def make(writer: Writer) -> Autosave:
        made.append(Autosave(window.document, window.undo_stack, folder, delay_ms=1, writer=writer))
        return made[-1]

    yield make
    for saver in made:
        saver.stop()


def test_a_slow_write_does_not_block_the_ui(
    window: MainWindow, autosave_with: Callable[[Writer], Autosave], qtbot: QtBot
) -> None:
    started, release = threading.Event(), threading.Event()
    calls: list[float] = []

    def slow_writer(path: Path, encounter: Encounter, images: Images, source: Path | None) -> None:
        calls.append(float(encounter.creature("c-medium").x))  # type: ignore[arg-type]
        started.set()
        release.wait(timeout=30)
        save_battlemap(path, encounter, images)

    saver = autosave_with(slow_writer)
    written: list[str] = []
    saver.written.connect(written.append)
    try:
        move_fighter(window, (3, 3))
        qtbot.waitUntil(started.is_set)
        # The write is stuck on the worker; the UI thread still runs timers and takes edits.
        ticked: list[bool] = []
        QTimer.singleShot(0, lambda: ticked.append(True))
        qtbot.waitUntil(lambda: ticked == [True])
        move_fighter(window, (5, 5))
        saver.write_now()  # does not start a second write while one runs
        assert saver.busy and calls == [3.0]
    finally:
        release.set()
    # ...and once the first write is done, the latest state is written.
    qtbot.waitUntil(lambda: len(written) == 2)
    assert calls == [3.0, 5.0]
    assert load_battlemap(saver.path).encounter.creature("c-medium").x == 5  # type: ignore[arg-type]


def test_a_failed_write_is_reported_and_retried(
    window: MainWindow, autosave_with: Callable[[Writer], Autosave], qtbot: QtBot
) -> None:
    attempts: list[int] = []

    def flaky_writer(path: Path, encounter: Encounter, images: Images, source: Path | None) -> None:
        attempts.append(1)
        if len(attempts) == 1:
            raise OSError(28, "No space left on device")
        save_battlemap(path, encounter, images)

    saver = autosave_with(flaky_writer)
    failures: list[str] = []
    saver.failed.connect(failures.append)
    move_fighter(window, (3, 3))
    qtbot.waitUntil(lambda: failures != [])
    assert "No space left on device" in failures[0]
    move_fighter(window, (4, 4))
    qtbot.waitUntil(saver.path.exists)


def answer_restore(window: MainWindow, answer: bool) -> list[Recovery]:
    offered: list[Recovery] = []

    def ask(_parent: object, recovery: Recovery) -> bool:
        offered.append(recovery)
        return answer

    window.files.ask_restore = ask
    return offered


def crash_with_changes(window: MainWindow, folder: Path, qtbot: QtBot, source: Path) -> Encounter:
    """Run a session that saves ``source``, edits, autosaves and then "crashes"."""
    window.files.save_to(source)
    window.files.start_session(folder)
    window.files.confirm_close = False
    assert window.files.autosave is not None
    move_fighter(window, (7, 7))
    push(
        window.undo_stack,
        window.document,
        ReplaceEncounterField("name", window.document.encounter.name, "Edited"),
    )
    window.files.autosave.write_now()
    qtbot.waitUntil(window.files.autosave.path.exists)
    qtbot.waitUntil(lambda: not window.files.autosave.busy)  # type: ignore[union-attr]
    window.files.autosave.abandon()
    return window.document.encounter


def test_restoring_after_a_crash(
    window: MainWindow, folder: Path, qtbot: QtBot, tmp_path: Path
) -> None:
    crashed = crash_with_changes(window, folder, qtbot, tmp_path / "fight.battlemap")
    again = MainWindow(Document(Encounter()), settings=window.settings)
    qtbot.addWidget(again)
    offered = answer_restore(again, True)
    again.files.start_session(folder)
    again.files.confirm_close = False
    [recovery] = offered
    assert recovery.name == "Edited" and recovery.source == (tmp_path / "fight.battlemap").resolve()
    assert again.document.encounter == crashed
    assert again.isWindowModified(), "restored work has not been saved yet"
    assert again.files.path == (tmp_path / "fight.battlemap").resolve()
    assert not recovery.path.exists()
    assert find_recoveries(folder) == []


def test_discarding_the_autosave_deletes_it(
    window: MainWindow, folder: Path, qtbot: QtBot, tmp_path: Path
) -> None:
    crash_with_changes(window, folder, qtbot, tmp_path / "fight.battlemap")
    again = MainWindow(Document(Encounter(name="Fresh")), settings=window.settings)
    qtbot.addWidget(again)
    offered = answer_restore(again, False)
    again.files.start_session(folder)
    again.files.confirm_close = False
    assert len(offered) == 1
    assert again.document.encounter.name == "Fresh" and not again.isWindowModified()
    assert not offered[0].path.exists()


CRASHING_SESSION = textwrap.dedent(
    """
    import os, signal, sys
    from pathlib import Path
    from PySide6.QtWidgets import QApplication
    from battlemap.io.loader import load_demo_encounter
    from battlemap.model.document import Document, MoveCreature
    from battlemap.ui.main_window import MainWindow
    from battlemap.ui.undo import push
    from PySide6.QtCore import QSettings

    app = QApplication([])
    folder = Path(sys.argv[1])
    settings = QSettings(str(folder.parent / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(Document(load_demo_encounter()), settings=settings)
    window.files.start_session(folder)
    push(window.undo_stack, window.document, MoveCreature("creature-1", (2, 7), (9, 9)))
    window.files.autosave.written.connect(lambda _path: os.kill(os.getpid(), signal.SIGKILL))
    app.exec()
    """
)


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "kill") or os.name != "posix", reason="SIGKILL")
def test_a_killed_app_leaves_an_autosave_the_next_start_offers(folder: Path) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    result = subprocess.run(
        [sys.executable, "-c", CRASHING_SESSION, str(folder)],
        cwd=ROOT,
        env=env,
        timeout=60,
        capture_output=True,
        check=False,
    )
    assert result.returncode == -9, result.stderr
    [recovery] = find_recoveries(folder)
    try:
        restored = load_battlemap(recovery.path).encounter
        assert restored.creature("creature-1").x == 9  # type: ignore[arg-type]
    finally:
        recovery.release()


def test_an_unusable_recovery_folder_turns_autosave_off_without_failing(
    window: MainWindow, tmp_path: Path
) -> None:
    blocker = tmp_path / "a file"
    blocker.write_text("not a folder")
    window.files.start_session(blocker / "recovery")
    window.files.confirm_close = False
    assert window.files.autosave is None
    assert window.statusBar().currentMessage().startswith("Autosave is off: cannot use")
