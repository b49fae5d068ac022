"""Hiding and invisible creatures on the players' window (issue 18): a hostile one is not
drawn unless the DM says so, the party's own stay drawn to their friends (marked), and the
banner says nothing new on the turn of a creature the players cannot see."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from battlemap.io.encounter_file import load_battlemap, save_battlemap
from battlemap.model import Creature, Encounter, Grid, Side
from battlemap.model.ids import EntityId
from battlemap.ui.creature_dock import SHOW_WHILE_UNSEEN
from battlemap.ui.main_window import MainWindow
from battlemap.ui.players.projection import CombatFacts, project
from battlemap.ui.players.scene import UNSEEN_OPACITY
from tests.ui.players_helpers import open_players, player_tokens
from tests.ui.test_combat_docks import select, start


@pytest.fixture
def encounter() -> Encounter:
    return Encounter(
        grid=Grid(width=10, height=6),
        creatures=(
            Creature(id="hero", name="Thorin", side=Side.PARTY, x=1, y=1),
            Creature(id="orc", name="Orc", side=Side.HOSTILE, x=5, y=1),
            Creature(id="imp", name="Imp", side=Side.NEUTRAL, x=7, y=4),
        ),
    )


@pytest.fixture
def fighting(window: MainWindow, qtbot: QtBot) -> MainWindow:
    """The players' window open and a combat begun (seeded dice)."""
    window.combat.session.seed_source = lambda: 11
    open_players(window, qtbot)
    start(window, qtbot)
    return window


def make_invisible(window: MainWindow, creature_id: str) -> None:
    select(window, creature_id)
    window.combat.panel.toggle_condition("invisible", True)


def token_menu(window: MainWindow, creature_id: str) -> dict[str, object]:
    menu = window.scene.token_menu(creature_id)  # type: ignore[arg-type]
    menu.setParent(window, menu.windowFlags())  # kept alive with the window
    return {action.text(): action for action in menu.actions() if action.text()}


def test_an_invisible_hostile_is_not_drawn_but_the_partys_own_is_marked(
    fighting: MainWindow,
) -> None:
    window = fighting
    assert player_tokens(window) == ["hero", "imp", "orc"]
    make_invisible(window, "orc")
    make_invisible(window, "imp")  # neutral: not the party's own either
    assert player_tokens(window) == ["hero"]
    assert {"orc", "imp"} <= set(window.scene.tokens)  # the DM still sees them
    assert "Orc" not in window.players.window.strip.text()
    make_invisible(window, "hero")
    hero = window.players.window.scene.tokens[EntityId("hero")]
    assert hero.token.unseen and "invisible" in hero.token.conditions
    assert hero.opacity() == UNSEEN_OPACITY and hero.plate.opacity() == UNSEEN_OPACITY
    window.undo_stack.undo()
    assert not window.players.window.scene.tokens[EntityId("hero")].token.unseen
    assert window.players.window.scene.tokens[EntityId("hero")].opacity() == 1.0


def test_the_dm_shows_a_hiding_hostile_to_the_players_and_the_choice_is_saved(
    fighting: MainWindow, tmp_path: Path
) -> None:
    window = fighting
    make_invisible(window, "orc")
    assert "orc" not in player_tokens(window)
    assert SHOW_WHILE_UNSEEN not in token_menu(window, "hero")  # the party sees its own
    entry = token_menu(window, "orc")[SHOW_WHILE_UNSEEN]
    assert not entry.isChecked()  # type: ignore[attr-defined]
    entry.trigger()  # type: ignore[attr-defined]
    orc = window.players.window.scene.tokens[EntityId("orc")]
    assert orc.token.unseen and orc.opacity() == UNSEEN_OPACITY
    assert token_menu(window, "orc")[SHOW_WHILE_UNSEEN].isChecked()  # type: ignore[attr-defined]
    path = tmp_path / "shown.battlemap"
    save_battlemap(path, window.document.encounter, window.document.images)
    reopened = load_battlemap(path).encounter
    assert reopened.creature("orc").shown_while_unseen  # type: ignore[arg-type]
    assert not reopened.creature("hero").shown_while_unseen  # type: ignore[arg-type]
    window.undo_stack.undo()
    assert "orc" not in player_tokens(window)
    assert not window.document.encounter.creature("orc").shown_while_unseen  # type: ignore[arg-type]


def test_a_hostile_that_hides_vanishes_and_its_turn_says_nothing_new(
    fighting: MainWindow,
) -> None:
    window = fighting
    banner = window.players.window.banner

    def acting() -> str:
        return window.document.encounter.combat.current.creature_id  # type: ignore[union-attr]

    assert [acting(), banner.text()] == ["hero", "Round 1 — Thorin's turn"]  # seeded order
    window.combat.initiative.next_turn()
    assert [acting(), banner.text()] == ["orc", "Round 1 — Orc's turn"]
    window.combat.actions.take("hide")  # the Hide action: its Stealth is rolled and kept
    orc = window.document.encounter.combat.combatant("orc")  # type: ignore[union-attr, arg-type]
    assert orc.hidden_stealth is not None
    assert "orc" not in player_tokens(window) and "Orc" not in window.players.window.strip.text()
    said = [(acting(), banner.text())]
    for _ in range(3):
        window.combat.initiative.next_turn()
        said.append((acting(), banner.text() if banner.isVisible() else ""))
    assert said == [
        ("orc", "Round 1 — Thorin's turn"),  # the last turn the players saw, again
        ("imp", "Round 1 — Imp's turn"),
        ("hero", "Round 2 — Thorin's turn"),
        ("orc", "Round 2 — Thorin's turn"),  # still hiding: nothing new, no "Round 2" alone
    ]
    lit = [k for k, item in window.players.window.scene.tokens.items() if item.token.acting_now]
    assert lit == ["hero"]  # the token lit is the one the banner names


def test_the_banner_stays_hidden_while_an_unseen_creature_has_the_first_turn(
    window: MainWindow, qtbot: QtBot
) -> None:
    open_players(window, qtbot)
    players = window.players.window
    combat = CombatFacts(round=1, order=("orc", "hero"), acting="orc", unseen=frozenset({"orc"}))  # type: ignore[arg-type]
    players.show_view(project(window.document.encounter, None, combat))
    assert not players.banner.isVisible()
    assert players.strip.isVisible() and players.strip.text() == "Thorin"
    seen = CombatFacts(round=1, order=("orc", "hero"), acting="hero", unseen=frozenset({"orc"}))  # type: ignore[arg-type]
    players.show_view(project(window.document.encounter, None, seen))
    assert players.banner.isVisible() and players.banner.text() == "Round 1 — Thorin's turn"
