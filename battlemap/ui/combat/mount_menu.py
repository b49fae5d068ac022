"""Controlled mounts from a token's right-click menu (legends-of-hyrule "Controlling a Mount").

In a running combat under a ruleset with controlled mounts, right-clicking a creature offers
**Ride <mount>** for every fighting creature within 5 ft of it: the engine's ``control_mount``
(measured distance, size, who controls whom) decides, and an entry it would refuse is shown
disabled with the engine's reason as its tooltip (a horse the same size as its rider, say, or
too little movement left). Riding spends the rider's movement (half its speed, on its turn)
and gives the mount the rider's initiative, right after the rider: the Initiative dock
shows that order as the engine makes it. **Dismount <mount>** (on the rider: ``dismount``)
spends the same movement and ends the control, disabled with the reason when the rider can't
pay it; **Release <mount> from <rider>** (on the mount) lets it act independently, for no
movement. Either way the mount keeps its place. Before round 1 (initiative rolled), **Already
riding <mount>** takes the place of **Ride**: the rider starts the fight on it, for no
movement (``start_mounted``). **Save to stay on <mount>** (the mount moved
against its will, or the rider knocked prone) rolls the rider's Dexterity save against the
ruleset's DC (``falling_off.fall_off_save``) with the rider's Dexterity save from the stat
block it uses (its own, else the party's or the library's of its name: ``find_statblock``): on a
failure the rider is prone and the mount released. Each is one undo step through the session.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QMenu

from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.model.statblock import StatBlock
from battlemap.rules.enums import Ability
from battlemap.rules.outcome import EngineCall, Outcome
from battlemap.rules.schema import Ruleset
from battlemap.ui.combat.session import CombatSession

# The engine and the heavier geometry are imported in the functions that use them, so
# the window is built without them (issue 17; tests/ui/test_start_up_imports.py).
if TYPE_CHECKING:
    from battlemap.rules.falling_off import FallCause, FallOffResult


def fall_labels() -> dict[FallCause, str]:
    """Short menu labels for why the rider saves."""
    from battlemap.rules.falling_off import FallCause

    return {FallCause.MOUNT_MOVED: "mount moved", FallCause.KNOCKED_PRONE: "knocked prone"}


def has_controlled_mounts(ruleset: Ruleset) -> bool:
    rules = ruleset.movement.mounting
    return rules is not None and rules.controlled_vs_independent


def add_mount_entries(
    menu: QMenu,
    session: CombatSession,
    creature_id: EntityId,
    library: Mapping[str, StatBlock] | None = None,
) -> None:
    """The token menu's mount entries for ``creature_id`` (nothing outside a combat or under a
    ruleset without controlled mounts). ``library``: the monster library's stat blocks by
    name, for a rider matched by name (``find_statblock``)."""
    from battlemap.rules.mounts import mount_candidates

    state = session.state
    ruleset = session.ruleset()
    if state is None or ruleset is None or not has_controlled_mounts(ruleset):
        return
    if not state.has(creature_id):
        return
    entries: list[tuple[str, Callable[[], object], str | None]] = []
    combatant = state.combatant(creature_id)
    name = session.name(creature_id)
    if combatant.controlled_by is not None:  # a mount: let its rider go
        rider = session.name(combatant.controlled_by)
        entries.append((f"Release {name} from {rider}", _releaser(session, creature_id), None))
    for ridden in state.combatants:
        if ridden.controlled_by == creature_id:
            mount = session.name(ridden.creature_id)
            step = _dismount_step(ridden.creature_id)
            text = f"{name} dismounts from {mount}"
            entries.append(
                (f"Dismount {mount}", _stepper(session, text, step), session.why_not(step))
            )
            for cause, label in fall_labels().items():
                text = f"Save to stay on {mount} ({label})"
                entries.append((text, _saver(session, creature_id, cause, library or {}), None))
    for mount_id in mount_candidates(session.encounter, ruleset, creature_id):
        if state.combatant(mount_id).controlled_by == creature_id:
            continue  # already ridden: its Release entry is above
        mount = session.name(mount_id)
        if not state.started:  # set up before round 1: on it already, for free
            step = _start_mounted_step(creature_id, mount_id)
            text = f"{name} starts riding {mount}"
            slot = _stepper(session, text, step)
            entries.append((f"Already riding {mount}", slot, session.why_not(step)))
            continue
        refusal = session.why_not(_ride_step(creature_id, mount_id))
        entries.append((f"Ride {mount}", _rider(session, creature_id, mount_id), refusal))
    if not entries:
        return
    menu.addSeparator()
    for text, slot, refusal in entries:
        action = menu.addAction(text, slot)
        if refusal is not None:
            action.setEnabled(False)
            action.setToolTip(refusal)
        elif text.startswith("Ride"):
            action.setToolTip(f"{name} controls it: it acts right after {name}")
        elif text.startswith("Already riding"):
            action.setToolTip(
                f"{name} is on it when the fight starts (no movement spent): it acts right"
                f" after {name}"
            )
    menu.setToolTipsVisible(True)


def _ride_step(rider_id: EntityId, mount_id: EntityId) -> EngineCall[None]:
    from battlemap.rules.mounts import control_mount

    return lambda encounter, ruleset: control_mount(encounter, ruleset, rider_id, mount_id)


def _start_mounted_step(rider_id: EntityId, mount_id: EntityId) -> EngineCall[None]:
    from battlemap.rules.mounts import start_mounted

    return lambda encounter, ruleset: start_mounted(encounter, ruleset, rider_id, mount_id)


def _rider(session: CombatSession, rider_id: EntityId, mount_id: EntityId) -> Callable[[], object]:
    text = f"{session.name(rider_id)} rides {session.name(mount_id)}"
    return lambda: session.run(text, _ride_step(rider_id, mount_id))


def _dismount_step(mount_id: EntityId) -> EngineCall[None]:
    from battlemap.rules.mounts import dismount

    return lambda encounter, ruleset: dismount(encounter, ruleset, mount_id)


def _stepper(session: CombatSession, text: str, step: EngineCall[None]) -> Callable[[], object]:
    return lambda: session.run(text, step)


def _releaser(session: CombatSession, mount_id: EntityId) -> Callable[[], object]:
    from battlemap.rules.mounts import release_mount

    text = f"Release {session.name(mount_id)}"
    return lambda: session.run(text, lambda e, r: release_mount(e, r, mount_id))


def _saver(
    session: CombatSession,
    rider_id: EntityId,
    cause: FallCause,
    library: Mapping[str, StatBlock],
) -> Callable[[], object]:
    """The rider's Dexterity save to stay on (``falling_off.fall_off_save``, combat dice) with
    the bonus of the stat block it uses (``find_statblock``: its own, the party's or the
    library's; ``save_bonus_of``), looked up when the save is rolled: on a failure it is prone
    and its mount released; the outcome goes to the status bar."""
    name = session.name(rider_id)

    def roll(encounter: Encounter, ruleset: Ruleset) -> Outcome[FallOffResult]:
        from battlemap.rules.falling_off import fall_off_save
        from battlemap.rules.saves import save_bonus_of
        from battlemap.rules.statblocks import find_statblock

        rider = encounter.creature(rider_id)
        block = find_statblock(rider, encounter, library)
        bonus = save_bonus_of(rider, block, Ability.DEX)
        return fall_off_save(encounter, ruleset, rider_id, cause, save_bonus=bonus)

    def save() -> None:
        applied = session.run(f"{name} saves to stay mounted", roll)
        if applied is None:
            return
        result: FallOffResult = applied.result
        dice = f"{result.save.total} vs DC {result.save.dc}"
        if not result.fell:
            session.reported.emit(f"{name} stays on ({dice})")
            return
        released = f"; {session.name(result.released)} released" if result.released else ""
        session.reported.emit(f"{name} falls off, prone ({dice}){released}")

    return save
