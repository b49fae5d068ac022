"""Measure tool: a ruler through waypoints, in feet, under each diagonal rule."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import QComboBox

from battlemap.ui.main_window import MainWindow
from battlemap.ui.tools.measure import MeasureTool
from battlemap.ui.tools.preview import LabelItem
from tests.ui.tool_input import at, click, double_click, hover, key, send_mouse, stroke


def measure_tool(window: MainWindow) -> MeasureTool:
    window.tools.activate("measure")
    tool = window.tools.active
    assert isinstance(tool, MeasureTool)
    return tool


def labels(window: MainWindow) -> list[str]:
    return [i.text for i in window.tools.context.overlay.items if isinstance(i, LabelItem)]


def choose_rule(window: MainWindow, rule: str) -> None:
    combo = window.tools.options_bar.findChild(QComboBox, "measure-rule")
    assert combo is not None
    combo.setCurrentIndex(combo.findData(rule))


def test_ruler_through_waypoints_under_the_ruleset_rule(window: MainWindow) -> None:
    tool = measure_tool(window)
    view = window.view
    click(view, 8.3, 0.7)  # snaps to the centre of cell (8, 0)
    click(view, 11.2, 3.9)  # 3 across, 3 down: srd-5e's 5-10-5 counts 5 + 10 + 5
    hover(view, 11.5, 6.5)
    assert labels(window) == ["20 ft", "35 ft"]  # waypoint, then the live end at the pointer
    assert "35 ft over 2 legs (diagonals 5-10-5)" in window.tools.hint_label.text()
    combo = window.tools.options_bar.findChild(QComboBox, "measure-rule")
    assert combo is not None
    assert combo.itemText(0) == "srd-5e (5-10-5)"
    double_click(view, 11.5, 6.5)
    assert tool.finished
    assert tool.points == [(8.5, 0.5), (11.5, 3.5), (11.5, 6.5)]
    hover(view, 1.5, 1.5)  # a finished ruler stays put
    assert labels(window) == ["20 ft", "35 ft"]
    assert window.undo_stack.count() == 0, "measuring changes nothing"
    key(view, Qt.Key.Key_Escape)
    assert window.tools.context.overlay.items == []
    assert tool.points == []


def test_five_five_five_chosen_in_the_options_bar(window: MainWindow) -> None:
    tool = measure_tool(window)
    choose_rule(window, "5-5-5")
    click(window.view, 0.5, 0.5)
    double_click(window.view, 3.5, 3.5)
    assert labels(window) == ["15 ft"]
    assert tool.total_feet() == 15


def test_ruleset_rule_follows_the_encounter_ruleset(window: MainWindow) -> None:
    from battlemap.model.document import ReplaceEncounterField

    tool = measure_tool(window)
    window.document.apply(ReplaceEncounterField("ruleset", "srd-5e", "gms-den"))
    assert tool.rule == "5-5-5"  # gms-den: "diagonal movement is 5 feet"
    window.document.apply(ReplaceEncounterField("ruleset", "gms-den", "no-such-rules"))
    assert tool.rule == "5-5-5"  # unknown: the simplest count, never a crash


def test_ruleset_rule_comes_from_the_rules_menus_rulesets_with_the_users_own(
    window: MainWindow, tmp_path: Path
) -> None:
    from battlemap.model.document import ReplaceEncounterField

    (tmp_path / "my-table.yaml").write_text(
        "schema_version: 1\nextends: srd-5e\nname: My table\nmovement:\n  diagonal: euclidean\n",
        encoding="utf-8",
    )
    window.rulesets.user_dir = tmp_path
    window.rulesets.reload()
    tool = measure_tool(window)
    window.document.apply(ReplaceEncounterField("ruleset", "srd-5e", "my-table"))
    assert tool.rule == "euclidean"


def test_five_ten_five_counts_diagonals_across_waypoints(window: MainWindow) -> None:
    tool = measure_tool(window)
    choose_rule(window, "5-10-5")
    view = window.view
    click(view, 0.5, 0.5)
    click(view, 3.5, 3.5)  # 3 diagonals: 5 + 10 + 5
    double_click(view, 4.5, 4.5)  # the 4th diagonal is a 10
    assert labels(window) == ["20 ft", "30 ft"]
    assert tool.total_feet() == 30


def test_euclidean_rule_and_a_new_ruler_after_a_finished_one(window: MainWindow) -> None:
    tool = measure_tool(window)
    choose_rule(window, "euclidean")
    view = window.view
    click(view, 0.5, 0.5)
    double_click(view, 3.5, 4.5)
    assert labels(window) == ["25 ft"]
    click(view, 9.5, 0.5)  # starts again
    assert tool.points == [(9.5, 0.5)] and not tool.finished


def test_drag_lays_a_leg_and_right_click_ends(window: MainWindow) -> None:
    tool = measure_tool(window)
    view = window.view
    stroke(view, [(8.5, 0.5), (10.5, 0.5)])
    assert tool.points == [(8.5, 0.5), (10.5, 0.5)]
    send_mouse(
        view,
        QEvent.Type.MouseButtonPress,
        at(view, 10.5, 2.5),
        Qt.MouseButton.RightButton,
        Qt.MouseButton.RightButton,
    )
    assert tool.finished and tool.total_feet() == 10


def test_shift_measures_from_the_exact_point(window: MainWindow) -> None:
    tool = measure_tool(window)
    view = window.view
    click(view, 8.25, 0.25, modifiers=Qt.KeyboardModifier.ShiftModifier)
    assert tool.points[0] == pytest.approx((8.25, 0.25), abs=0.02)


def test_switching_tools_clears_the_ruler(window: MainWindow) -> None:
    measure_tool(window)
    click(window.view, 0.5, 0.5)
    hover(window.view, 2.5, 0.5)
    assert window.tools.context.overlay.items
    window.tools.activate("select")
    assert window.tools.context.overlay.items == []
