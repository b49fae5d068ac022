"""Issue 15 item 13: "Add to map" with a stale selection (the chosen monster since hidden by
the search) says why nothing was added, and adds nothing; shown again, it adds."""

from __future__ import annotations

from battlemap.ui.main_window import MainWindow


def test_add_to_map_with_the_chosen_monster_hidden_by_the_search_says_why(
    window: MainWindow,
) -> None:
    dock = window.library_dock
    dock.select("Goblin")
    dock.search.setText("dragon")  # the Goblin row is still current, but hidden
    steps, creatures = window.undo_stack.count(), len(window.document.encounter.creatures)
    dock.add_button.click()
    assert window.statusBar().currentMessage() == (
        "Add to map: Goblin is hidden by the search: clear it or pick a shown monster."
    )
    assert window.undo_stack.count() == steps
    assert len(window.document.encounter.creatures) == creatures
    dock.search.clear()
    dock.add_button.click()
    assert window.document.encounter.creatures[-1].name == "Goblin 1"
    assert window.undo_stack.count() == steps + 1
