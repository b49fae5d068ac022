"""Token pictures and health rings on the phones' page (issue 20): the state names a picture
by its content hash (never a file name) and the ring's share; the server hands out only the
pictures of tokens the players see. Binds to 127.0.0.1 only."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QBuffer, QIODevice, QSettings
from PySide6.QtGui import QColor, QImage
from pytestqt.qtbot import QtBot

from battlemap.model import Creature, Document, Encounter, Grid, Side
from battlemap.model.document import UpdateCreature
from battlemap.model.ids import EntityId
from battlemap.model.traits import HealthShown, TokenShape
from battlemap.ui.main_window import MainWindow
from battlemap.ui.players.projection import project
from battlemap.ui.players.scene import HEALTH_RING_COLOURS
from battlemap.ui.share.addresses import LOOPBACK, ShareAddress
from battlemap.ui.share.images import TOKEN_SIDE, prepare_token_image
from battlemap.ui.share.page import players_palette
from battlemap.ui.share.payload import OpaqueKeys, state_json
from battlemap.ui.share.server import ShareServer
from battlemap.ui.undo import push
from tests.ui.share.conftest import get

MAGENTA, TEAL = QColor("#d633ff"), QColor("#00a0a0")
HERO, VEXX = EntityId("hero"), EntityId("vexx")


def png(colour: QColor, width: int = 600, height: int = 400) -> bytes:
    image = QImage(width, height, QImage.Format.Format_ARGB32)
    image.fill(colour)
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")  # type: ignore[call-overload]  # PySide6 takes str
    return bytes(buffer.data().data())


def pictured_document() -> tuple[Document, str, str]:
    """Thorin with a magenta picture and a health ring at 5 of 20 HP; a hidden assassin with
    a teal one."""
    document = Document(Encounter(grid=Grid(width=10, height=6)))
    hero_picture = document.add_image(png(MAGENTA), ".png")
    vexx_picture = document.add_image(png(TEAL), ".png")
    document.encounter = Encounter(
        grid=Grid(width=10, height=6),
        creatures=(
            Creature(
                id=HERO,
                name="Thorin",
                side=Side.PARTY,
                x=1,
                y=1,
                hp=5,
                max_hp=20,
                token_image=hero_picture,
                token_shape=TokenShape.SQUARE,
                health_shown=HealthShown.RING,
            ),
            Creature(id=VEXX, name="Vexx", x=5, y=3, hidden=True, token_image=vexx_picture),
        ),
    )
    return document, hero_picture, vexx_picture


def test_the_state_names_the_picture_by_hash_with_its_shape_and_ring() -> None:
    document, hero_picture, vexx_picture = pictured_document()
    state = state_json(
        project(document.encounter, None), OpaqueKeys(b"k" * 16), players_palette(), None
    )
    (token,) = state["tokens"]
    assert token["image"] == hero_picture and token["shape"] == "square"
    assert token["health_left"] == 0.25  # 5 of 20, in eighths
    text = json.dumps(state)
    assert vexx_picture not in text and ".png" in hero_picture  # only the seen one's hash
    assert state["palette"]["health_left"][1:] == [c.name() for c in HEALTH_RING_COLOURS]


def test_a_picture_is_served_small_and_keeps_its_colour() -> None:
    prepared = prepare_token_image(png(MAGENTA), "x.png")
    assert prepared is not None and prepared.content_type == "image/png"
    assert max(prepared.width, prepared.height) == TOKEN_SIDE
    image = QImage.fromData(prepared.data)
    assert image.pixelColor(image.width() // 2, image.height() // 2) == MAGENTA
    assert prepare_token_image(b"not a picture", "y.png") is None


@pytest.fixture
def sharing(qtbot: QtBot, tmp_path: Path) -> Iterator[MainWindow]:
    document, _, _ = pictured_document()
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(document, settings=settings)
    qtbot.addWidget(window)
    assert window.share.start(ShareAddress(LOOPBACK, "loopback"), 0) is None
    try:
        yield window
    finally:
        window.share.stop()


def fetch(server: ShareServer, name: str, status: int) -> bytes:
    """GET the picture ``name`` until the server answers ``status`` (states build on its
    own thread)."""
    deadline = time.monotonic() + 10
    while True:
        code, body = get(server.port, f"/image?k={server.join_code}&n={name}")
        if code == status or time.monotonic() > deadline:
            assert code == status, body
            return body
        time.sleep(0.05)


def test_the_server_serves_only_the_pictures_of_tokens_the_players_see(
    sharing: MainWindow,
) -> None:
    server = sharing.share.server
    assert server is not None
    hero = sharing.document.encounter.creature(HERO)
    vexx = sharing.document.encounter.creature(VEXX)
    assert hero.token_image is not None and vexx.token_image is not None
    image = QImage.fromData(fetch(server, hero.token_image, 200))
    assert image.pixelColor(image.width() // 2, image.height() // 2) == MAGENTA
    assert fetch(server, vexx.token_image, 404) == b"No such picture\n"  # hidden: not served
    code, _ = get(server.port, f"/image?n={hero.token_image}")
    assert code == 403  # the join code is needed, as for every route
    hidden = hero.model_copy(update={"hidden": True})
    push(sharing.undo_stack, sharing.document, UpdateCreature(hero, hidden))
    fetch(server, hero.token_image, 404)  # the DM hid Thorin: his picture goes too
    sharing.undo_stack.undo()
    fetch(server, hero.token_image, 200)
