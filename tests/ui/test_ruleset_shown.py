"""The ruleset in play is always named in the status bar, and switching shows what changes
at the table in a box that leaves the map usable (issue 15, item 11)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication, QLabel
from pytestqt.qtbot import QtBot

from battlemap.ui.main_window import MainWindow


def ruleset_label(window: MainWindow) -> QLabel:
    label = window.rulesets.label
    assert label.isVisible() and window.statusBar().isAncestorOf(label)
    return label


def test_the_status_bar_names_the_ruleset_once_the_files_are_read(
    qtbot: QtBot, window: MainWindow
) -> None:
    # the files are read just after the window shows; until then the id is shown
    qtbot.waitUntil(lambda: ruleset_label(window).text() == "Rules: 5e SRD")
    assert "5e SRD combat" in window.rulesets.label.toolTip()


def test_switching_names_the_new_ruleset_and_summarises_what_changes(
    qtbot: QtBot, window: MainWindow
) -> None:
    window.rulesets.choose("bloodied-brink")
    assert ruleset_label(window).text() == "Rules: Bloodied & Brink"
    box = window.rulesets.summary
    assert box is not None and box.isVisible()
    assert QApplication.activeModalWidget() is None  # the map is not blocked
    text = box.text()
    assert text.startswith("Now playing Bloodied & Brink. What changes:")
    death = "Death saves: DC 10, 3 failures: dead \u2192 DC 10, 2 failures: brink-of-death"
    assert f"\u2022 {death}" in text
    assert "\u2022 Bloodied: none \u2192 at or below 50% HP" in text
    assert "Initiative" not in text  # the same initiative in both
    assert window.statusBar().currentMessage().startswith("Now playing Bloodied & Brink: Death")
    stack = window.undo_stack
    assert stack.text(stack.count() - 1) == "Ruleset: Bloodied & Brink"  # History names it
    assert window.undo_action.text() == "&Undo Ruleset: Bloodied && Brink"  # one "&" shown

    window.rulesets.choose("gms-den")  # a second switch replaces the box
    qtbot.waitUntil(lambda: not _alive(box) or not box.isVisible())
    second = window.rulesets.summary
    assert second is not None and second is not box
    assert "\u2022 Diagonals: 5-10-5 \u2192 5-5-5" in second.text()

    window.undo_stack.undo()
    window.undo_stack.undo()
    assert ruleset_label(window).text() == "Rules: 5e SRD"


def test_opening_an_encounter_under_another_ruleset_renames_the_label(
    window: MainWindow,
) -> None:
    window.rulesets.show_ruleset()
    encounter = window.document.encounter.model_copy(update={"ruleset": "legends-of-hyrule"})
    window.document.replace(encounter)
    assert ruleset_label(window).text() == "Rules: Legends of Hyrule"


def test_a_users_ruleset_name_is_shown_as_typed(window: MainWindow, tmp_path: Path) -> None:
    (tmp_path / "markup.yaml").write_text(
        "schema_version: 1\nextends: srd-5e\nname: <b>Bold</b> & co\n"
        "movement: {diagonal: euclidean}\n",
        encoding="utf-8",
    )
    window.rulesets.user_dir = tmp_path
    window.rulesets.reload()
    window.rulesets.choose("markup")
    label = ruleset_label(window)
    assert label.text() == "Rules: <b>Bold</b> & co"
    assert label.textFormat().name == "PlainText"
    box = window.rulesets.summary
    assert box is not None
    assert "\u2022 Diagonals: 5-10-5 \u2192 euclidean" in box.text()
    shown = [child for child in box.findChildren(QLabel) if "Diagonals" in child.text()]
    assert shown and all(child.textFormat().name == "PlainText" for child in shown)


def test_a_ruleset_that_cannot_be_loaded_is_named_so(window: MainWindow) -> None:
    window.rulesets.show_ruleset()
    encounter = window.document.encounter.model_copy(update={"ruleset": "gone"})
    window.document.replace(encounter)
    assert window.rulesets.label.text() == "Rules: gone (cannot be loaded)"
    window.rulesets.choose("srd-5e")
    box = window.rulesets.summary
    assert box is not None and "gone cannot be loaded: what changes is not known." in box.text()


def _alive(widget: object) -> bool:
    from shiboken6 import isValid

    return bool(isValid(widget))
