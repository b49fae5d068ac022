"""Controlled mounts from the token menu (legends-of-hyrule "Controlling a Mount"): the mount
follows its rider in the Initiative dock; refusals are disabled entries with the reason."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QAbstractButton, QMenu
from pytestqt.qtbot import QtBot

from battlemap.model import Creature, Encounter, Grid, Side, Size
from battlemap.model.combat import SpeedMode
from battlemap.model.creature import CombatStats
from battlemap.model.document import ReplaceEncounterField, UpdateCreature
from battlemap.model.ids import EntityId
from battlemap.model.statblock import Ability as StatAbility
from battlemap.model.statblock import StatBlock
from battlemap.rules import initiative, movement, turns
from battlemap.ui.main_window import MainWindow
from battlemap.ui.undo import push


@pytest.fixture
def encounter() -> Encounter:
    """A rider with a Large horse beside it (x 2-3), a Medium pony below it, an orc far off."""
    creatures = (
        Creature(id="c-rider", name="Rider", side=Side.PARTY, x=1, y=1),
        Creature(id="c-horse", name="Horse", size=Size.LARGE, side=Side.PARTY, x=2, y=1),
        Creature(id="c-pony", name="Pony", side=Side.PARTY, x=1, y=2),
        Creature(id="c-orc", name="Orc", side=Side.HOSTILE, x=8, y=6),
    )
    return Encounter(
        grid=Grid(width=10, height=8), creatures=creatures, ruleset="legends-of-hyrule"
    )


def click(qtbot: QtBot, button: QAbstractButton) -> None:
    assert button.isVisible() and button.isEnabled(), button.text()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def start(window: MainWindow, qtbot: QtBot, horse_last: bool = True) -> None:
    """Roll initiative from the dock, then put the horse last (the DM's drag-reorder), and
    end turns until it is the rider's (mounting happens "during your move")."""
    window.combat.session.seed_source = lambda: 3
    dock = window.combat.initiative
    click(qtbot, dock.start_button)
    click(qtbot, dock.roll_all)
    click(qtbot, dock.begin_button)
    session = window.combat.session
    if horse_last:
        order = [i for i in dock.tree.ids() if i != "c-horse"] + [EntityId("c-horse")]
        assert session.run("Reorder", lambda e, r: initiative.reorder(e, r, order))
        assert dock.tree.ids()[-1] == "c-horse"
    while (current := session.state.current if session.state else None) is not None:
        if current.creature_id == "c-rider":
            break
        assert session.run("End turn", turns.end_turn)


def token_menu(window: MainWindow, creature_id: str) -> QMenu:
    menu = QMenu(window)
    for build in window.scene.token_menu_builders:
        build(menu, creature_id)  # type: ignore[arg-type]
    return menu


def entry(menu: QMenu, text: str) -> QAction:
    return next(a for a in menu.actions() if a.text() == text)


def test_riding_puts_the_mount_right_after_its_rider_in_the_dock(
    qtbot: QtBot, window: MainWindow
) -> None:
    start(window, qtbot)
    dock = window.combat.initiative
    steps = window.undo_stack.count()
    ride = entry(token_menu(window, "c-rider"), "Ride Horse")
    assert ride.isEnabled()
    ride.trigger()
    ids = dock.tree.ids()
    assert ids[ids.index(EntityId("c-rider")) + 1] == "c-horse"
    assert window.undo_stack.count() == steps + 1
    horse_row = dock.tree.topLevelItem(ids.index(EntityId("c-horse")))
    assert horse_row is not None and "ridden by Rider" in horse_row.text(3)
    state = window.document.encounter.combat
    assert state is not None
    assert (
        state.combatant(EntityId("c-horse")).initiative
        == state.combatant(EntityId("c-rider")).initiative
    )
    window.undo_stack.undo()
    assert dock.tree.ids()[-1] == "c-horse"
    assert window.document.encounter.combat is not None
    assert window.document.encounter.combat.combatant(EntityId("c-horse")).controlled_by is None


def test_a_mount_no_larger_than_the_rider_is_a_disabled_entry_with_the_reason(
    qtbot: QtBot, window: MainWindow
) -> None:
    start(window, qtbot)
    menu = token_menu(window, "c-rider")
    pony = entry(menu, "Ride Pony")
    assert not pony.isEnabled()
    assert "must be at least one size larger than Rider" in pony.toolTip()
    assert not any(a.text() == "Ride Orc" for a in menu.actions())  # not within 5 ft


def test_release_from_the_rider_or_the_mount_is_one_step(qtbot: QtBot, window: MainWindow) -> None:
    start(window, qtbot)
    entry(token_menu(window, "c-rider"), "Ride Horse").trigger()
    assert entry(token_menu(window, "c-horse"), "Release Horse from Rider").isEnabled()
    menu = token_menu(window, "c-rider")
    assert not any(a.text() == "Ride Horse" for a in menu.actions())  # already ridden
    # "Once during your move, you can mount ... or dismount": getting off waits a turn.
    assert "once during its move" in entry(menu, "Dismount Horse").toolTip()
    session = window.combat.session
    assert session.run("End turn", turns.end_turn)
    while (current := session.state.current if session.state else None) is not None:
        if current.creature_id == "c-rider":
            break
        assert session.run("End turn", turns.end_turn)
    menu = token_menu(window, "c-rider")
    steps = window.undo_stack.count()
    entry(menu, "Dismount Horse").trigger()
    state = window.document.encounter.combat
    assert state is not None and state.combatant(EntityId("c-horse")).controlled_by is None
    assert (
        state.combatant(EntityId("c-rider")).turn.movement_used == 15
    )  # half its speed to get off
    assert window.undo_stack.count() == steps + 1
    ids = window.combat.initiative.tree.ids()
    assert ids[ids.index(EntityId("c-rider")) + 1] == "c-horse"  # "retains its place"


def test_no_mount_entries_outside_combat_or_without_controlled_mounts(
    qtbot: QtBot, window: MainWindow
) -> None:
    assert not any(a.text().startswith("Ride ") for a in token_menu(window, "c-rider").actions())
    push(
        window.undo_stack,
        window.document,
        ReplaceEncounterField("ruleset", "legends-of-hyrule", "gms-den"),  # mounts, no control
    )
    start(window, qtbot, horse_last=False)
    assert window.document.encounter.combat is not None
    assert not any(a.text().startswith("Ride ") for a in token_menu(window, "c-rider").actions())


def test_smaller_creatures_are_not_offered_as_mounts(qtbot: QtBot, window: MainWindow) -> None:
    start(window, qtbot)
    texts = [a.text() for a in token_menu(window, "c-horse").actions()]
    assert not any(t.startswith("Ride ") for t in texts)  # Rider and Pony are Medium


@pytest.mark.parametrize("dex", [30, 1])
def test_the_riders_save_to_stay_on_keeps_or_drops_it(
    qtbot: QtBot, window: MainWindow, dex: int
) -> None:
    # legends-of-hyrule: "a DC 10 Dexterity saving throw or fall off the mount, landing prone".
    rider = window.document.encounter.creature("c-rider")  # type: ignore[arg-type]
    stats = CombatStats(dexterity=dex)
    push(
        window.undo_stack,
        window.document,
        UpdateCreature(old=rider, new=rider.model_copy(update={"stats": stats})),
    )
    start(window, qtbot)
    entry(token_menu(window, "c-rider"), "Ride Horse").trigger()
    steps = window.undo_stack.count()
    entry(token_menu(window, "c-rider"), "Save to stay on Horse (mount moved)").trigger()
    state = window.document.encounter.combat
    assert state is not None and window.undo_stack.count() == steps + 1
    message = window.statusBar().currentMessage()
    if dex == 30:  # +10: a d20 + 10 always reaches DC 10
        assert message.startswith("Rider stays on (") and "vs DC 10" in message
        assert state.combatant(EntityId("c-horse")).controlled_by == "c-rider"
    else:  # -5: a natural 1..14 fails; 15+ is seed luck, so the seed is one that fails
        assert message.startswith("Rider falls off, prone") and "Horse released" in message
        assert state.combatant(EntityId("c-rider")).has_condition("prone")
        assert state.combatant(EntityId("c-horse")).controlled_by is None


@pytest.mark.parametrize("where", ["party", "library"])
def test_the_save_to_stay_on_uses_the_stat_block_found_by_name(
    qtbot: QtBot, window: MainWindow, where: str
) -> None:
    """The Rider has Dexterity 1 (-5) but the stat block of its name lists a +15 Dexterity
    save (a d20 + 15 always reaches DC 10): the listed save is rolled, as for its own block."""
    rider = window.document.encounter.creature("c-rider")  # type: ignore[arg-type]
    stats = CombatStats(dexterity=1)
    push(
        window.undo_stack,
        window.document,
        UpdateCreature(old=rider, new=rider.model_copy(update={"stats": stats})),
    )
    block = StatBlock(name="Rider", saving_throws={StatAbility.DEX: 15})
    if where == "party":
        party = window.document.encounter.party
        push(window.undo_stack, window.document, ReplaceEncounterField("party", party, (block,)))
    else:
        window.library_dock.monsters["Rider"] = block
    start(window, qtbot)
    entry(token_menu(window, "c-rider"), "Ride Horse").trigger()
    entry(token_menu(window, "c-rider"), "Save to stay on Horse (mount moved)").trigger()
    message = window.statusBar().currentMessage()
    assert message.startswith("Rider stays on (") and "vs DC 10" in message
    state = window.document.encounter.combat
    assert state is not None and state.combatant(EntityId("c-horse")).controlled_by == "c-rider"


def test_riding_spends_half_the_riders_speed_and_too_little_left_disables_the_entries(
    qtbot: QtBot, window: MainWindow
) -> None:
    # legends-of-hyrule "Mounting and Dismounting": mounting or dismounting "costs an amount of
    # movement equal to half your speed ... you can't mount it if you don't have 15 feet of
    # movement left". The Rider (speed 30) mounts for 15 ft; in its next move ("Once during
    # your move"), with 10 ft left, both the ride and the dismount are disabled, the tooltip
    # saying why.
    start(window, qtbot)
    session = window.combat.session
    entry(token_menu(window, "c-rider"), "Ride Horse").trigger()
    state = window.document.encounter.combat
    assert state is not None and state.combatant(EntityId("c-rider")).turn.movement_used == 15
    assert session.run("End turn", turns.end_turn)
    while (current := session.state.current if session.state else None) is not None:
        if current.creature_id == "c-rider":
            break
        assert session.run("End turn", turns.end_turn)
    assert session.run(
        "Walk",
        lambda e, r: movement.spend_movement(e, r, EntityId("c-rider"), 20),
    )
    dismount = entry(token_menu(window, "c-rider"), "Dismount Horse")
    assert not dismount.isEnabled()
    assert dismount.toolTip() == "Rider needs 15 ft to dismount from Horse and has 10 ft left"
    entry(token_menu(window, "c-horse"), "Release Horse from Rider").trigger()  # no movement
    ride = entry(token_menu(window, "c-rider"), "Ride Horse")
    assert not ride.isEnabled()
    assert ride.toolTip() == "Rider needs 15 ft to mount Horse and has 10 ft left"


def test_already_riding_before_round_1_is_free_and_one_step(
    qtbot: QtBot, window: MainWindow
) -> None:
    # legends-of-hyrule "Mounted Combat": a knight charges into battle already on its warhorse;
    # only mounting "during your move" costs half the speed.
    window.combat.session.seed_source = lambda: 3
    dock = window.combat.initiative
    click(qtbot, dock.start_button)
    session = window.combat.session
    assert "roll initiative" in (
        entry(token_menu(window, "c-rider"), "Already riding Horse").toolTip()
    )
    click(qtbot, dock.roll_all)
    menu = token_menu(window, "c-rider")
    assert not any(a.text() == "Ride Horse" for a in menu.actions())
    already = entry(menu, "Already riding Horse")
    assert already.isEnabled()
    steps = window.undo_stack.count()
    already.trigger()
    assert window.undo_stack.count() == steps + 1
    assert (
        session.state is not None
        and session.state.combatant(EntityId("c-horse")).controlled_by == "c-rider"
    )
    ids = dock.tree.ids()
    assert ids.index(EntityId("c-horse")) == ids.index(EntityId("c-rider")) + 1
    window.undo_stack.undo()
    assert (
        session.state is not None
        and session.state.combatant(EntityId("c-horse")).controlled_by is None
    )
    window.undo_stack.redo()
    click(qtbot, dock.begin_button)
    while (current := session.state.current if session.state else None) is not None:
        if current.creature_id == "c-rider":
            break
        assert session.run("End turn", turns.end_turn)
    assert session.state is not None
    ruleset = session.ruleset()
    assert ruleset is not None
    left = movement.movement_budget(
        session.state,
        ruleset,
        session.encounter,
        EntityId("c-rider"),
        SpeedMode.WALK,
    )
    assert left.remaining == 30
    assert session.state.combatant(EntityId("c-horse")).controlled_by == "c-rider"
    later = [a.text() for a in token_menu(window, "c-rider").actions()]
    assert not any(text.startswith("Already riding") for text in later)
