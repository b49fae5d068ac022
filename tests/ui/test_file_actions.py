"""The File menu: New, Open, Save, Save As, recent files, drag-and-drop and the close guard.

Dialogs are answered by replacing the window's dialog functions (``window.files.ask_*``), so
no test waits on a modal box; two tests drive the real message boxes.
"""

from __future__ import annotations

import io
import json
import os
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QMimeData, QPoint, QPointF, Qt, QTimer, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QKeySequence
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget
from pytestqt.qtbot import QtBot

from battlemap.io.encounter_file import MAX_JSON_BYTES, load_battlemap, save_battlemap
from battlemap.io.migrations import CURRENT_FORMAT_VERSION
from battlemap.model import Background, Creature, Encounter, Grid
from battlemap.ui import file_actions
from battlemap.ui.file_actions import SaveChoice
from battlemap.ui.main_window import MainWindow
from battlemap.ui.recent_files import MAX_RECENT
from tests.ui.session_helpers import move_fighter, user_folders  # noqa: F401 (autouse fixture)

PNG = b"\x89PNG\r\n\x1a\n fake image bytes"


class Answers:
    """Scripted answers to the dialogs, and a record of what was asked and shown."""

    def __init__(self, window: MainWindow) -> None:
        self.save_changes: list[SaveChoice] = []
        self.save_paths: list[Path | None] = []
        self.errors: list[tuple[str, str]] = []
        self.asked: list[str] = []
        files = window.files
        files.ask_save_changes = self._ask_save_changes
        files.ask_save_path = lambda _parent, _suggested: self.save_paths.pop(0)
        files.show_error = lambda _parent, title, message: self.errors.append((title, message))

    def _ask_save_changes(self, _parent: QWidget, name: str) -> SaveChoice:
        self.asked.append(name)
        return self.save_changes.pop(0)


@pytest.fixture
def answers(window: MainWindow) -> Iterator[Answers]:
    scripted = Answers(window)
    yield scripted
    window.files.confirm_close = False  # let the fixture's teardown close the window


def saved_file(folder: Path, name: str = "crypt.battlemap") -> Path:
    path = folder / name
    encounter = Encounter(
        name="Crypt",
        grid=Grid(width=8, height=6),
        background=Background(image="map.png", pixels_per_cell=70),
        creatures=(Creature(id="c-ghoul", name="Ghoul", x=1, y=1),),
    )
    save_battlemap(path, encounter, {"map.png": PNG})
    return path


def test_the_file_menu_has_the_standard_shortcuts(window: MainWindow) -> None:
    files = window.files
    keys = QKeySequence.StandardKey
    for action, key in [
        (files.new_action, keys.New),
        (files.open_action, keys.Open),
        (files.save_action, keys.Save),
        (files.save_as_action, keys.SaveAs),
    ]:
        assert action.shortcut() == QKeySequence(key)
        assert action in window.file_menu.actions()
    assert window.file_menu.actions()[-1] is window.quit_action


def test_save_as_writes_the_file_marks_it_saved_and_titles_the_window(
    window: MainWindow, answers: Answers, tmp_path: Path
) -> None:
    move_fighter(window, (3, 3))
    assert window.isWindowModified()
    answers.save_paths.append(tmp_path / "ambush.battlemap")
    assert window.files.save()  # no file yet: Save asks where
    assert load_battlemap(tmp_path / "ambush.battlemap").encounter == window.document.encounter
    assert not window.isWindowModified()
    assert window.windowTitle() == "ambush.battlemap[*] — Battlemap"
    assert window.files.recent_files() == [(tmp_path / "ambush.battlemap").resolve()]


def test_save_writes_to_the_same_file_without_asking(
    window: MainWindow, answers: Answers, tmp_path: Path
) -> None:
    answers.save_paths.append(tmp_path / "ambush.battlemap")
    window.files.save_as()
    move_fighter(window, (4, 4))
    window.files.save_action.trigger()
    assert load_battlemap(tmp_path / "ambush.battlemap").encounter.creature("c-medium").x == 4  # type: ignore[arg-type]
    assert answers.save_paths == [] and not window.isWindowModified()


def test_a_failed_save_shows_why_and_keeps_the_changes_marked(
    window: MainWindow, answers: Answers, tmp_path: Path
) -> None:
    move_fighter(window, (3, 3))
    window.files.save_to(tmp_path / "no such folder" / "x.battlemap")
    [(title, message)] = answers.errors
    assert title == "Cannot save the file"
    assert "no such folder" in message and "cannot save" in message.lower()
    assert window.isWindowModified() and window.files.path is None


def test_open_replaces_the_encounter_images_history_and_title(
    window: MainWindow, answers: Answers, tmp_path: Path
) -> None:
    path = saved_file(tmp_path)
    assert window.files.open_path(path)
    assert window.document.encounter == load_battlemap(path).encounter
    assert window.document.images == {"map.png": PNG}
    assert window.undo_stack.count() == 0 and not window.isWindowModified()
    assert window.files.path == path.resolve()
    assert window.windowTitle() == "crypt.battlemap[*] — Battlemap"
    assert set(window.scene.tokens) == {"c-ghoul"}


def test_open_through_the_menu_asks_for_a_file(
    window: MainWindow, answers: Answers, tmp_path: Path
) -> None:
    path = saved_file(tmp_path)
    window.files.ask_open_path = lambda _parent, _folder: path
    window.files.open_action.trigger()
    assert window.document.encounter.name == "Crypt"


def zip_bytes(entries: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def envelope(encounter: dict[str, object], version: int = 1) -> bytes:
    return json.dumps({"format_version": version, "encounter": encounter}).encode()


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"not a zip", "damaged or truncated"),
        (b"PK\x03\x04 truncated", "damaged or truncated"),
        (
            zip_bytes({"encounter.json": envelope({}, CURRENT_FORMAT_VERSION + 1)}),
            f"format version {CURRENT_FORMAT_VERSION + 1}",
        ),
        (zip_bytes({"encounter.json": envelope({"mystery": 1})}), "mystery: Extra inputs"),
        (zip_bytes({"encounter.json": envelope({"grid": {"width": "x"}})}), "grid.width"),
        (
            zip_bytes(
                {
                    "encounter.json": envelope(
                        {"background": {"image": "a.png", "pixels_per_cell": 9}}
                    )
                }
            ),
            "image 'a.png' used by background.image is missing",
        ),
        (
            zip_bytes({"encounter.json": envelope({}), "../../escape.png": b"x"}),
            "escapes the file's folder",
        ),
        (b"bomb", "zip bomb"),  # built in the test: 64 MiB is too big to keep at import
    ],
    ids=[
        "not-zip",
        "truncated",
        "newer",
        "unknown-field",
        "wrong-type",
        "missing-image",
        "path-escape",
        "zip-bomb",
    ],
)
def test_a_bad_file_shows_the_message_and_changes_nothing(
    window: MainWindow, answers: Answers, tmp_path: Path, content: bytes, expected: str
) -> None:
    move_fighter(window, (3, 3))
    before = (window.document.encounter, dict(window.document.images), window.windowTitle())
    if content == b"bomb":
        content = zip_bytes({"encounter.json": envelope({}) + b" " * (MAX_JSON_BYTES + 1)})
    bad = tmp_path / "bad.battlemap"
    bad.write_bytes(content)
    listing = sorted(tmp_path.iterdir())
    answers.save_changes.append(SaveChoice.DISCARD)
    assert not window.files.open_path(bad)
    [(title, message)] = answers.errors
    assert title == "Cannot open the file"
    assert str(bad) in message and expected in message
    after = (window.document.encounter, dict(window.document.images), window.windowTitle())
    assert after == before
    assert window.undo_stack.count() == 1 and window.isWindowModified()
    assert sorted(tmp_path.iterdir()) == listing


def test_unsaved_changes_cancel_keeps_everything(
    window: MainWindow, answers: Answers, tmp_path: Path
) -> None:
    move_fighter(window, (3, 3))
    answers.save_changes.append(SaveChoice.CANCEL)
    assert not window.files.open_path(saved_file(tmp_path))
    assert answers.asked == [window.document.encounter.name]
    assert window.document.encounter.creature("c-medium").x == 3  # type: ignore[arg-type]


def test_unsaved_changes_save_saves_before_opening(
    window: MainWindow, answers: Answers, tmp_path: Path
) -> None:
    other = saved_file(tmp_path)
    move_fighter(window, (3, 3))
    answers.save_changes.append(SaveChoice.SAVE)
    answers.save_paths.append(tmp_path / "first.battlemap")
    assert window.files.open_path(other)
    assert load_battlemap(tmp_path / "first.battlemap").encounter.creature("c-medium").x == 3  # type: ignore[arg-type]
    assert window.document.encounter.name == "Crypt"


def test_unsaved_changes_save_cancelled_at_the_file_dialog_cancels(
    window: MainWindow, answers: Answers, tmp_path: Path
) -> None:
    move_fighter(window, (3, 3))
    answers.save_changes.append(SaveChoice.SAVE)
    answers.save_paths.append(None)
    assert not window.files.new()
    assert window.document.encounter.creature("c-medium").x == 3  # type: ignore[arg-type]


def test_new_starts_an_untitled_encounter(window: MainWindow, answers: Answers) -> None:
    move_fighter(window, (3, 3))
    answers.save_changes.append(SaveChoice.DISCARD)
    window.files.new_action.trigger()
    assert window.document.encounter == Encounter()
    assert window.files.path is None and window.undo_stack.count() == 0
    assert window.windowTitle() == "Untitled encounter[*] — Battlemap"


def test_a_json_encounter_opens_untitled_so_save_asks_where(
    window: MainWindow, answers: Answers, tmp_path: Path
) -> None:
    path = tmp_path / "plain.json"
    path.write_text(Encounter(name="From JSON").model_dump_json())
    assert window.files.open_path(path)
    assert window.files.path is None
    assert window.windowTitle() == "From JSON[*] — Battlemap"
    answers.save_paths.append(tmp_path / "converted.battlemap")
    assert window.files.save()
    assert load_battlemap(tmp_path / "converted.battlemap").encounter.name == "From JSON"


def test_recent_files_newest_first_bounded_and_openable(
    window: MainWindow, answers: Answers, tmp_path: Path
) -> None:
    paths = [saved_file(tmp_path, f"f{i}.battlemap") for i in range(MAX_RECENT + 2)]
    for path in paths:
        window.files.open_path(path)
    window.files.open_path(paths[3])
    recent = window.files.recent_files()
    assert len(recent) == MAX_RECENT
    assert recent[:3] == [p.resolve() for p in (paths[3], paths[-1], paths[-2])]
    window.files.recent_menu.aboutToShow.emit()
    entries = [a for a in window.files.recent_menu.actions() if a.text().startswith("&")]
    assert entries[1].text() == f"&2 {paths[-1].name}"
    entries[1].trigger()
    assert window.files.path == paths[-1].resolve()


def test_a_vanished_recent_file_is_reported_and_forgotten(
    window: MainWindow, answers: Answers, tmp_path: Path
) -> None:
    path = saved_file(tmp_path)
    window.files.open_path(path)
    path.unlink()
    assert not window.files.open_path(path)
    assert answers.errors[0][1].startswith("no such file.\n\nFile: ")
    assert window.files.recent_files() == []


def test_recent_files_survive_a_restart(
    window: MainWindow, answers: Answers, tmp_path: Path, qtbot: QtBot
) -> None:
    window.files.open_path(saved_file(tmp_path))
    again = MainWindow(window.document, settings=window.settings)
    qtbot.addWidget(again)
    assert again.files.recent_files() == [(tmp_path / "crypt.battlemap").resolve()]


def drag_and_drop(target: QWidget, path: Path) -> bool:
    """Drag ``path`` over ``target`` and drop it; True when the drag was accepted."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    action = Qt.DropAction.CopyAction
    left, none = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    enter = QDragEnterEvent(QPoint(50, 50), action, mime, left, none)
    QApplication.sendEvent(target, enter)
    if not enter.isAccepted():
        return False
    drop = QDropEvent(QPointF(50, 50), action, mime, left, none)
    QApplication.sendEvent(target, drop)
    return drop.isAccepted()


def test_dropping_a_file_on_the_map_opens_it(
    window: MainWindow, answers: Answers, tmp_path: Path
) -> None:
    path = saved_file(tmp_path)
    assert drag_and_drop(window.view.viewport(), path)
    assert window.files.path == path.resolve()


def test_other_files_are_left_to_other_drop_handlers(
    window: MainWindow, answers: Answers, tmp_path: Path
) -> None:
    picture = tmp_path / "map.png"
    picture.write_bytes(PNG)
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(picture))])
    enter = QDragEnterEvent(
        QPoint(5, 5),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    assert not window.files.eventFilter(window.view.viewport(), enter)
    assert window.files.path is None and answers.errors == []


def test_closing_with_unsaved_changes_asks(window: MainWindow, answers: Answers) -> None:
    window.files.confirm_close = True
    move_fighter(window, (3, 3))
    answers.save_changes.append(SaveChoice.CANCEL)
    assert not window.close()
    assert window.isVisible()
    answers.save_changes.append(SaveChoice.DISCARD)
    assert window.close()
    assert answers.asked == [window.document.encounter.name] * 2


def test_closing_a_saved_window_does_not_ask(
    window: MainWindow, answers: Answers, tmp_path: Path
) -> None:
    window.files.confirm_close = True
    assert window.close()
    assert answers.asked == []


@pytest.fixture
def earlier_windows_deleted(qtbot: QtBot) -> None:
    """Delete the windows earlier tests left for deferred deletion before a nested event loop.

    A modal box runs an event loop, which would delete them in the middle of this test;
    errors raised while they are torn down belong to the modules that built them (at the time
    of writing, the creature dock's selection slot runs after its scene is gone).
    """
    with qtbot.captureExceptions():
        QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def answer_next_message_box(button: QMessageBox.StandardButton, seen: list[str]) -> None:
    """Click ``button`` on the next modal message box, recording its text."""

    def click() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(10, click)
            return
        seen.append(f"{box.text()} | {box.informativeText()}")
        box.button(button).click()

    QTimer.singleShot(0, click)


@pytest.mark.usefixtures("earlier_windows_deleted")
def test_the_real_save_changes_box(window: MainWindow) -> None:
    seen: list[str] = []
    answer_next_message_box(QMessageBox.StandardButton.Discard, seen)
    assert file_actions.ask_save_changes(window, "ambush") is SaveChoice.DISCARD
    answer_next_message_box(QMessageBox.StandardButton.Cancel, seen)
    assert file_actions.ask_save_changes(window, "ambush") is SaveChoice.CANCEL
    assert seen[0].startswith("Save the changes to “ambush”?")


@pytest.mark.usefixtures("earlier_windows_deleted")
def test_the_real_error_box_shows_the_message(window: MainWindow) -> None:
    seen: list[str] = []
    answer_next_message_box(QMessageBox.StandardButton.Ok, seen)
    file_actions.show_error(window, "Cannot open the file", "x.battlemap: no such file")
    assert seen == ["Cannot open the file | x.battlemap: no such file"]


def test_the_next_start_clears_temp_files_of_killed_saves_beside_recent_files(
    window: MainWindow, tmp_path: Path
) -> None:
    path = tmp_path / "fight.battlemap"
    save_battlemap(path, window.document.encounter, {})
    window.files.open_path(path)  # now a recent file
    killed = tmp_path / ".fight.battlemap.k1ll3d.tmp"
    killed.write_bytes(b"half a zip")
    an_hour_ago = killed.stat().st_mtime - 3600
    os.utime(killed, (an_hour_ago, an_hour_ago))
    running = tmp_path / ".fight.battlemap.s4v1ng.tmp"  # another instance saving right now
    running.write_bytes(b"being written")
    window.files.start_session(tmp_path / "recovery")
    window.files.confirm_close = False
    assert not killed.exists()
    assert running.exists() and path.exists()
