"""The DM's window marks each token the players' window does not draw (hidden by the DM, or
hiding or invisible and neither the party's nor shown by the DM) with a dashed ring and an
eye-slash badge; the mark follows edits and undo, and matches the players' projection."""

from __future__ import annotations

from PySide6.QtCore import QPointF
from PySide6.QtGui import QColor
from pytestqt.qtbot import QtBot

from battlemap.model import Creature, Encounter, Grid, Side
from battlemap.model.combat import ActiveCondition, LastingState
from battlemap.model.document import Document, UpdateCreature
from battlemap.model.ids import EntityId
from battlemap.ui.combat.session import combat_facts
from battlemap.ui.main_window import MainWindow
from battlemap.ui.players.projection import project
from battlemap.ui.render import render_scene
from battlemap.ui.style import cell_to_scene
from battlemap.ui.undo import push
from battlemap.ui.unseen_marker import BADGE_MIN_PX, BADGE_SHARE, UnseenBadge

INVISIBLE = LastingState(conditions=(ActiveCondition(name="invisible"),))


def cast() -> tuple[Creature, ...]:
    return (
        Creature(id="fighter", name="Fighter", side=Side.PARTY, x=1, y=1),
        Creature(id="rogue", name="Rogue", side=Side.PARTY, x=3, y=1, lasting=INVISIBLE),
        Creature(id="goblin", name="Goblin", side=Side.HOSTILE, x=5, y=1),
        Creature(id="imp", name="Imp", side=Side.HOSTILE, x=1, y=4, lasting=INVISIBLE),
        Creature(
            id="shown-imp",
            name="Imp shown",
            x=3,
            y=4,
            lasting=INVISIBLE,
            shown_while_unseen=True,
        ),
        Creature(id="ambusher", name="Ambusher", side=Side.HOSTILE, x=5, y=4, hidden=True),
    )


def marked(window: MainWindow) -> set[str]:
    markers = window.scene.unseen_markers
    return {cid for cid, badge in markers.badges.items() if badge.parentItem() is not None}


def open_window(qtbot: QtBot, encounter: Encounter) -> MainWindow:
    window = MainWindow(Document(encounter))
    qtbot.addWidget(window)
    window.resize(1366, 768)
    return window


def test_exactly_the_creatures_the_players_do_not_see_are_marked(qtbot: QtBot) -> None:
    encounter = Encounter(grid=Grid(width=8, height=6), creatures=cast())
    window = open_window(qtbot, encounter)
    assert marked(window) == {"imp", "ambusher"}
    drawn = {token.key for token in project(encounter, None, combat_facts(encounter)).tokens}
    assert marked(window) == {c.id for c in encounter.creatures} - drawn
    for creature_id, badge in window.scene.unseen_markers.badges.items():
        assert isinstance(badge, UnseenBadge)
        assert badge.parentItem() is window.scene.tokens[creature_id]


def test_the_mark_follows_an_edit_and_its_undo(qtbot: QtBot) -> None:
    window = open_window(qtbot, Encounter(grid=Grid(width=8, height=6), creatures=cast()))
    goblin = window.document.encounter.creature("goblin")  # type: ignore[arg-type]
    push(
        window.undo_stack,
        window.document,
        UpdateCreature(goblin, goblin.model_copy(update={"hidden": True})),
    )
    assert "goblin" in marked(window)
    imp = window.document.encounter.creature("imp")  # type: ignore[arg-type]
    shown = imp.model_copy(update={"shown_while_unseen": True})
    push(window.undo_stack, window.document, UpdateCreature(imp, shown))
    assert marked(window) == {"goblin", "ambusher"}
    window.undo_stack.undo()
    window.undo_stack.undo()
    assert marked(window) == {"imp", "ambusher"}


def test_a_removed_creature_leaves_no_mark_behind(qtbot: QtBot) -> None:
    window = open_window(qtbot, Encounter(grid=Grid(width=8, height=6), creatures=cast()))
    kept = tuple(c for c in window.document.encounter.creatures if c.id != "imp")
    window.document.replace(window.document.encounter.model_copy(update={"creatures": kept}))
    assert marked(window) == {"ambusher"}
    assert "imp" not in window.scene.unseen_markers.badges


def test_the_badge_is_drawn_at_the_tokens_top_right(qtbot: QtBot) -> None:
    window = open_window(qtbot, Encounter(grid=Grid(width=8, height=6), creatures=cast()))
    rect = window.map_rect()
    scale = 40 / cell_to_scene(1)  # drawn at 40 px per cell
    image = render_scene(window.scene, rect, width=round(rect.width() * scale))

    def pixel(creature_id: str, below_centre: float) -> QColor:
        """The pixel ``below_centre`` badge diameters below where the badge's centre is."""
        token = window.scene.tokens[EntityId(creature_id)]
        side = token.boundingRect().width()
        size = max(BADGE_MIN_PX, side * BADGE_SHARE)
        at = token.pos() + QPointF(side - size * 0.3, size * (0.3 + below_centre))
        return image.pixelColor(round(at.x() * scale), round(at.y() * scale))

    assert pixel("imp", 0).lightness() > 200  # the white pupil
    assert pixel("imp", 0.3).lightness() < 60  # the dark badge round it
    assert pixel("goblin", 0.3).lightness() > 100  # no badge: paper or the red disc
