"""Condition icons (issue 20, issue 15 item 1): one readable glyph per condition of every
shipped ruleset, a fallback for an unknown name, the count for exhaustion, on the DM's map."""

from __future__ import annotations

import itertools

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QImage, QPainter, QUndoStack
from pytestqt.qtbot import QtBot

from battlemap.model import Creature, Document
from battlemap.model.combat import ActiveCondition, Combatant
from battlemap.model.ids import EntityId
from battlemap.rules.loader import load_registry
from battlemap.ui.condition_icons import (
    EXHAUSTION,
    GLYPHS,
    ICON_SCENE_UNITS,
    ConditionMark,
    fallback_letters,
    paint_icon,
)
from battlemap.ui.map_scene import MapScene
from battlemap.ui.token_state import token_states
from tests.ui.token_helpers import in_combat, render_cells

ICON_PX = 25


def icon_image(mark: ConditionMark, px: int = ICON_PX) -> QImage:
    image = QImage(px, px, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    paint_icon(painter, QRectF(0, 0, px, px), mark)
    painter.end()
    return image


def bright_pixels(image: QImage) -> int:
    return sum(
        1
        for x in range(image.width())
        for y in range(image.height())
        if image.pixelColor(x, y).alpha() > 200 and image.pixelColor(x, y).lightness() > 120
    )


def test_every_condition_of_every_shipped_ruleset_has_its_own_glyph() -> None:
    registry = load_registry()
    names = {name for rid in registry.ids() for name in registry.get(rid).conditions}
    assert len(names) >= 18  # srd-5e's 15 and the variants' own
    missing = sorted(names - GLYPHS.keys())
    assert missing == []


def test_the_glyphs_all_differ_and_draw_something_bright(qtbot: QtBot) -> None:
    images = {name: icon_image(ConditionMark(name)) for name in GLYPHS}
    for name, image in images.items():
        assert bright_pixels(image) >= 25, name  # a glyph, not an empty badge
    pairs = 0
    for (a, image_a), (b, image_b) in itertools.combinations(images.items(), 2):
        assert image_a != image_b, (a, b)
        pairs += 1
    assert pairs == len(GLYPHS) * (len(GLYPHS) - 1) // 2


def test_an_unknown_condition_shows_its_initials_in_large_letters(qtbot: QtBot) -> None:
    assert fallback_letters("hexed") == "He"
    assert fallback_letters("on-fire") == "OF"
    assert fallback_letters("") == "?"
    hexed, marked = icon_image(ConditionMark("hexed")), icon_image(ConditionMark("marked"))
    assert hexed != marked
    assert bright_pixels(hexed) >= 30  # letters half the icon tall, not 6 px


def test_exhaustion_shows_its_level(qtbot: QtBot) -> None:
    levels = [icon_image(ConditionMark(EXHAUSTION, level)) for level in (1, 2, 3)]
    assert levels[0] != levels[1] != levels[2] != levels[0]
    assert ConditionMark(EXHAUSTION, 3).label == "Exhaustion 3"


def test_the_dms_token_shows_an_icon_for_each_condition(qtbot: QtBot) -> None:
    creature = Creature(id=EntityId("orc"), name="Orc", x=3, y=3)
    conditions = (ActiveCondition(name="poisoned"), ActiveCondition(name="prone"))
    combatant = Combatant(creature_id=creature.id, group="orc", conditions=conditions, exhaustion=2)
    encounter = in_combat((creature,), (combatant,))
    stack = QUndoStack()
    scene = MapScene(Document(encounter), stack)
    scene.token_states = lambda e: token_states(e, load_registry().get(e.ruleset))
    scene.show_states()
    strip = scene.tokens[creature.id].conditions
    assert [m.label for m in strip.marks] == ["Poisoned", "Prone", "Exhaustion 2"]
    assert strip.isVisible() and strip.toolTip() == "Poisoned, Prone, Exhaustion 2"
    image = render_cells(scene, 8, 6)
    poisoned = strip.mapRectToScene(strip.icon_rect(0))
    assert poisoned.width() == ICON_SCENE_UNITS
    greens = sum(
        1
        for x in range(int(poisoned.left()), int(poisoned.right()))
        for y in range(int(poisoned.top()), int(poisoned.bottom()))
        if image.pixelColor(x, y).green() > 180 and image.pixelColor(x, y).red() < 140
    )
    assert greens > 100  # the poison drop
    # icons sit side by side, none over another
    rects = [strip.mapRectToScene(strip.icon_rect(i)) for i in range(3)]
    assert not any(a.intersects(b) for a, b in itertools.combinations(rects, 2))
