"""A token picture that can't be decoded (issue 20): the token falls back to its disc, and
the DM is told once, in the status bar, which token and why."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from battlemap.model import Creature, Document, Encounter, Grid, Side
from battlemap.model.document import UpdateCreature
from battlemap.ui.main_window import MainWindow
from battlemap.ui.render import render_scene
from battlemap.ui.undo import push


def paint_map(window: MainWindow) -> None:
    render_scene(window.scene, window.map_rect(), 400)


def test_an_undecodable_picture_is_told_to_the_dm_once(window: MainWindow, qtbot: QtBot) -> None:
    name = window.document.add_image(b"\x89PNG\r\n\x1a\n not really a picture", ".png")
    told: list[tuple[str, str]] = []
    window.scene.token_images.failed.append(lambda n, reason: told.append((n, reason)))
    fighter = window.document.encounter.creature("c-medium")  # type: ignore[arg-type]
    pictured = fighter.model_copy(update={"token_image": name})
    push(window.undo_stack, window.document, UpdateCreature(fighter, pictured))
    paint_map(window)
    qtbot.waitUntil(lambda: "could not be decoded" in window.statusBar().currentMessage())
    message = window.statusBar().currentMessage()
    assert message.startswith("Fighter: picture could not be decoded: ")
    assert name not in message  # the reason, not the content hash
    assert "(drawn as a disc)" in message
    assert len(told) == 1 and told[0][0] == name
    window.statusBar().clearMessage()
    window.scene.token_images._decoded.clear()  # decoded again (the cache let it go)
    paint_map(window)
    qtbot.wait(20)
    assert len(told) == 1 and window.statusBar().currentMessage() == ""


def test_a_missing_picture_is_told_too(qtbot: QtBot) -> None:
    encounter = Encounter(
        grid=Grid(width=6, height=4),
        creatures=(
            Creature(id="a", name="Ash", side=Side.PARTY, x=1, y=1, token_image="f" * 64 + ".png"),
        ),
    )
    window = MainWindow(Document(encounter))
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    paint_map(window)
    qtbot.waitUntil(lambda: "image missing" in window.statusBar().currentMessage())
    assert window.statusBar().currentMessage().startswith("Ash: picture could not be decoded")
