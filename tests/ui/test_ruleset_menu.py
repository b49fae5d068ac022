"""The Rules menu: pick a ruleset per encounter; a broken user ruleset is reported and skipped."""

from __future__ import annotations

from pathlib import Path

from battlemap.ui.main_window import MainWindow


def menu_titles(window: MainWindow) -> dict[str, bool]:
    window.rulesets._fill()
    return {a.text(): a.isChecked() for a in window.rulesets.menu.actions() if a.isCheckable()}


def test_the_five_shipped_rulesets_are_offered_and_the_current_one_checked(
    window: MainWindow,
) -> None:
    titles = menu_titles(window)
    assert len(titles) == 5
    assert titles["5e SRD (srd-5e)"] is True
    assert "GM's Den homebrew (gms-den)" in titles
    assert "Bloodied && Brink (bloodied-brink)" in titles  # shows one "&", no mnemonic


def test_picking_a_ruleset_is_one_undo_step(window: MainWindow) -> None:
    window.rulesets.choose("gms-den")
    assert window.document.encounter.ruleset == "gms-den"
    assert menu_titles(window)["GM's Den homebrew (gms-den)"] is True
    window.undo_stack.undo()
    assert window.document.encounter.ruleset == "srd-5e"


def test_a_users_own_ruleset_is_offered_and_a_broken_one_skipped(
    window: MainWindow, tmp_path: Path
) -> None:
    (tmp_path / "my-table.yaml").write_text(
        "schema_version: 1\nextends: srd-5e\nname: My table\n", encoding="utf-8"
    )
    (tmp_path / "broken.yaml").write_text(
        "schema_version: 1\nextends: srd-5e\nname: Broken\ninitiative:\n  mode: dexx\n",
        encoding="utf-8",
    )
    window.rulesets.user_dir = tmp_path
    window.rulesets.reload()
    titles = menu_titles(window)
    assert "My table (my-table)" in titles
    assert not any("broken" in title for title in titles)
    problems = [str(p) for error in window.rulesets.registry.problems for p in error.problems]
    assert len(problems) == 1
    assert "broken.yaml:5: initiative.mode: 'dexx' is not one of" in problems[0]
    assert window.statusBar().currentMessage().startswith("1 problem(s) in your ruleset files")


def test_a_users_ruleset_serves_the_combat_engine_and_the_drag(
    window: MainWindow, tmp_path: Path
) -> None:
    from battlemap.ui.drag import window_ruleset

    (tmp_path / "my-table.yaml").write_text(
        "schema_version: 1\nextends: srd-5e\nname: My table\n", encoding="utf-8"
    )
    window.rulesets.user_dir = tmp_path
    window.rulesets.reload()
    window.rulesets.choose("my-table")
    session_ruleset = window.combat.session.ruleset()
    assert session_ruleset is not None and session_ruleset.name == "My table"
    drag_ruleset = window_ruleset(window)
    assert drag_ruleset is not None and drag_ruleset.name == "My table"
