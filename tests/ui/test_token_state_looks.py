"""Issue 15 item 1: the DM's tokens show whose turn it is, bloodied (where the ruleset has it),
dying, stable, unconscious and dead, each with its own look, and every condition as an icon.

Scenes render at one pixel per scene unit (``token_helpers``); a Medium token is 64 px with
its disc 3.84 px in from its square, the outline rings just inside the disc's edge.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QImage, QUndoStack
from pytestqt.qtbot import QtBot

from battlemap.model import Creature, Document, Encounter, Side
from battlemap.model.combat import ActiveCondition, Combatant, DeathState
from battlemap.model.document import ReplaceEncounterField
from battlemap.model.ids import EntityId
from battlemap.rules.loader import load_registry
from battlemap.ui import style
from battlemap.ui.map_scene import MapScene
from battlemap.ui.token_paint import BLOODIED_RING, DYING_RING, TURN_RING, badge_rect
from battlemap.ui.token_state import Vital, token_states
from battlemap.ui.undo import push
from tests.ui.token_helpers import in_combat, pixel, render_cells

REGISTRY = load_registry()


def close(a: QColor, b: QColor, tolerance: int = 40) -> bool:
    pairs = ((a.red(), b.red()), (a.green(), b.green()), (a.blue(), b.blue()))
    return all(abs(p - q) <= tolerance for p, q in pairs)


def scene_for(encounter: Encounter, qtbot: QtBot) -> MapScene:
    stack = QUndoStack()
    scene = MapScene(Document(encounter), stack)
    scene.setParent(stack)
    ruleset = REGISTRY.get(encounter.ruleset)
    scene.token_states = lambda e: token_states(e, ruleset)
    scene.show_states()
    scene._test_stack = stack  # type: ignore[attr-defined]  # keep the stack alive
    return scene


def count(image: QImage, area: QRectF, wanted: Callable[[QColor], bool]) -> int:
    return sum(
        1
        for x in range(int(area.left()), int(area.right()))
        for y in range(int(area.top()), int(area.bottom()))
        if wanted(image.pixelColor(x, y))
    )


def fighters(ruleset: str = "srd-5e", **deaths: DeathState) -> Encounter:
    """Four goblins in a row at y = 1 (x = 1, 3, 5, 7), the first one's turn."""
    creatures = tuple(
        Creature(id=EntityId(f"g{i}"), name=f"Goblin {i}", x=1 + 2 * i, y=1, hp=7, max_hp=7)
        for i in range(4)
    )
    combatants = tuple(
        Combatant(
            creature_id=c.id, group=c.id, initiative=10 - i, death=deaths.get(c.id, DeathState())
        )
        for i, c in enumerate(creatures)
    )
    return in_combat(creatures, combatants, ruleset)


def with_hp(encounter: Encounter, **hp: int) -> Encounter:
    creatures = tuple(
        c.model_copy(update={"hp": hp[c.id]}) if c.id in hp else c for c in encounter.creatures
    )
    return encounter.model_copy(update={"creatures": creatures})


def centre(i: int) -> tuple[float, float]:
    return 64 * (1 + 2 * i) + 32, 64 + 32


def test_the_creature_whose_turn_it_is_has_a_turn_ring_and_the_others_none(
    qtbot: QtBot,
) -> None:
    scene = scene_for(fighters(), qtbot)
    image = render_cells(scene, 10, 4)
    ring_y = 65  # in the margin between the disc and its square (radius 30..31)
    assert close(pixel(image, centre(0)[0], ring_y), TURN_RING)
    assert close(pixel(image, centre(1)[0], ring_y), style.MAP_BACKGROUND, 12)
    assert scene.tokens["g0"].state.acting  # type: ignore[index]


def test_the_turn_ring_follows_the_turn(qtbot: QtBot) -> None:
    scene = scene_for(fighters(), qtbot)
    encounter = scene.document.encounter
    assert encounter.combat is not None
    nxt = encounter.combat.model_copy(update={"turn_index": 2})
    push(scene.undo_stack, scene.document, ReplaceEncounterField("combat", encounter.combat, nxt))
    image = render_cells(scene, 10, 4)
    assert close(pixel(image, centre(2)[0], 65), TURN_RING)
    assert close(pixel(image, centre(0)[0], 65), style.MAP_BACKGROUND, 12)
    scene.undo_stack.undo()
    image = render_cells(scene, 10, 4)
    assert close(pixel(image, centre(0)[0], 65), TURN_RING)


def test_a_dead_token_is_grey_with_a_cross(qtbot: QtBot) -> None:
    encounter = with_hp(fighters(g1=DeathState(dead=True)), g1=0)
    scene = scene_for(encounter, qtbot)
    image = render_cells(scene, 10, 4)
    x, y = centre(1)
    assert scene.tokens["g1"].state.vital is Vital.DEAD  # type: ignore[index]
    for probe in (pixel(image, x, y), pixel(image, x, y - 20)):  # the cross's middle, the disc
        assert probe.hsvSaturation() < 40, probe.name()
    alive = pixel(image, centre(2)[0], y - 20)
    assert close(alive, style.SIDE_COLOURS[Side.HOSTILE])  # the same spot of a live goblin
    # the cross: light grey along the diagonal, the drained disc beside it
    assert pixel(image, x - 12, y - 12).lightness() > 180
    assert pixel(image, x, y - 20).lightness() < 130


def test_dying_stable_and_unconscious_each_look_their_own(qtbot: QtBot) -> None:
    encounter = fighters(g1=DeathState(failures=1), g2=DeathState(stable=True))
    encounter = with_hp(encounter, g1=0, g2=0)
    asleep = encounter.combat.combatants[3].model_copy(  # type: ignore[union-attr]
        update={"conditions": (ActiveCondition(name="unconscious"),)}
    )
    combat = encounter.combat.with_combatant(asleep)  # type: ignore[union-attr]
    scene = scene_for(encounter.model_copy(update={"combat": combat}), qtbot)
    states = {cid: token.state.vital for cid, token in scene.tokens.items()}
    assert states == {
        "g0": Vital.UP,
        "g1": Vital.DYING,
        "g2": Vital.STABLE,
        "g3": Vital.UNCONSCIOUS,
    }
    image = render_cells(scene, 10, 4)
    # dying: a red outline where a live token's is dark
    assert close(pixel(image, centre(1)[0], 64 + 3.84 + 1), DYING_RING, 60)
    assert pixel(image, centre(0)[0], 64 + 3.84 + 0.5).lightness() < 60

    # its badge (a red heart) and the stable one's (a green cross), bottom right
    def badge(i: int) -> QRectF:
        return badge_rect(64).translated(64 * (1 + 2 * i), 64)

    def red(c: QColor) -> bool:
        return c.red() > 180 and c.green() < 90 and c.blue() < 90

    def green(c: QColor) -> bool:
        return c.green() > 160 and c.red() < 120 and c.blue() < 150

    def dark(c: QColor) -> bool:
        return c.lightness() < 50

    assert count(image, badge(1), red) > 40
    assert count(image, badge(2), green) > 40 and count(image, badge(2), red) < 5
    # a standing token has no badge: no badge's dark back, no green cross
    assert count(image, badge(0), dark) < count(image, badge(1), dark) / 3
    # the down ones are drawn darker than the one standing
    assert (
        pixel(image, centre(2)[0], 96 - 20).lightness() < pixel(image, centre(0)[0], 76).lightness()
    )
    assert (
        pixel(image, centre(3)[0], 96 - 20).lightness() < pixel(image, centre(0)[0], 76).lightness()
    )


@pytest.mark.parametrize(("ruleset", "ringed"), [("bloodied-brink", True), ("srd-5e", False)])
def test_bloodied_shows_where_the_ruleset_has_it(qtbot: QtBot, ruleset: str, ringed: bool) -> None:
    """bloodied-brink: bloodied at or below half the maximum (its "Bloodied" rule); srd-5e has
    no bloodied condition, so a goblin at 3/7 looks as one at 7/7."""
    scene = scene_for(with_hp(fighters(ruleset), g1=3), qtbot)
    image = render_cells(scene, 10, 4)
    x, y = centre(1)
    inner = pixel(image, x, y - 23)  # the bloodied ring's radius
    assert scene.tokens["g1"].state.bloodied is ringed  # type: ignore[index]
    assert close(inner, BLOODIED_RING, 30) is ringed
    assert close(pixel(image, centre(2)[0], y - 23), style.SIDE_COLOURS[Side.HOSTILE], 20)


def test_the_bloodied_rule_is_the_rulesets_own_half_rounding(qtbot: QtBot) -> None:
    """bloodied-brink: "at or below half" of 7 is 3.5: 4 HP is not bloodied, 3 is."""
    scene = scene_for(with_hp(fighters("bloodied-brink"), g1=4, g2=3), qtbot)
    assert not scene.tokens["g1"].state.bloodied  # type: ignore[index]
    assert scene.tokens["g2"].state.bloodied  # type: ignore[index]
