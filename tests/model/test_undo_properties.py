"""Undo as a property: any sequence of commands, reverted in reverse, gives back the start;
applying them again gives the end state, and every intermediate state on the way. Combat steps
carry the dice stream in the CombatState, so undo and redo give back the same dice too.

Commands are drawn against the encounter they will be applied to (moving a creature that
exists, toggling a door that is there...), the way the UI builds them.
"""

from __future__ import annotations

import functools
import itertools

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from battlemap.io.loader import load_demo_encounter
from battlemap.model import Creature, Document, Encounter, Grid, Side, Size, Wall, WallKind
from battlemap.model.document import (
    AddCreature,
    Change,
    Command,
    MoveCreature,
    RemoveCreature,
    ReplaceEncounterField,
    UpdateCreature,
)
from battlemap.model.features import Obstacle, TerrainKind, TerrainRegion
from battlemap.model.map_commands import (
    AddObstacle,
    AddTerrain,
    AddWalls,
    CommandGroup,
    RemoveFeature,
    SetGrid,
    ToggleDoor,
)
from battlemap.rules.initiative import roll_initiative, start_combat
from battlemap.rules.loader import load_registry
from battlemap.rules.outcome import with_combat
from battlemap.rules.schema import Ruleset
from battlemap.rules.turns import begin_combat, end_turn
from tests.rules.helpers import state_and_events

cells = st.integers(min_value=0, max_value=18).map(float)
points = st.tuples(cells, cells)
triangles = st.lists(points, min_size=3, max_size=5)
names = st.text(min_size=1, max_size=20).filter(str.strip)


def _draw_creature(data: st.DataObject) -> Creature:
    return Creature(
        name=data.draw(names),
        size=data.draw(st.sampled_from(list(Size))),
        side=data.draw(st.sampled_from(list(Side))),
        x=data.draw(cells),
        y=data.draw(cells),
        hp=data.draw(st.integers(0, 50)),
        max_hp=50,
    )


def _creature_command(data: st.DataObject, encounter: Encounter) -> Command:
    if not encounter.creatures or data.draw(st.booleans()):
        return AddCreature(_draw_creature(data))
    index = data.draw(st.integers(0, len(encounter.creatures) - 1))
    creature = encounter.creatures[index]
    kind = data.draw(st.sampled_from(["move", "update", "remove"]))
    if kind == "move":
        return MoveCreature(
            creature.id, (creature.x, creature.y), (data.draw(cells), data.draw(cells))
        )
    if kind == "update":
        edited = creature.model_copy(
            update={"hp": data.draw(st.integers(0, 50)), "hidden": data.draw(st.booleans())}
        )
        return UpdateCreature(creature, edited)
    return RemoveCreature(creature, index)


def _map_command(data: st.DataObject, encounter: Encounter) -> Command:
    features = [
        f.id
        for features in (encounter.walls, encounter.obstacles, encounter.terrain)
        for f in features
    ]
    doors = [w.id for w in encounter.walls if w.kind is WallKind.DOOR]
    kinds = ["walls", "obstacle", "terrain", "grid"]
    kinds += ["remove"] * bool(features) + ["door"] * bool(doors)
    kind = data.draw(st.sampled_from(kinds))
    if kind == "walls":
        count = data.draw(st.integers(1, 3))
        walls = tuple(
            Wall(
                a=data.draw(points),
                b=data.draw(points),
                kind=data.draw(st.sampled_from(list(WallKind))),
            )
            for _ in range(count)
        )
        return AddWalls(walls)
    if kind == "obstacle":
        return AddObstacle(Obstacle(points=data.draw(triangles)))
    if kind == "terrain":
        region = TerrainRegion(
            points=data.draw(triangles), kind=data.draw(st.sampled_from(list(TerrainKind)))
        )
        return AddTerrain((region,))
    if kind == "grid":
        new = Grid(width=data.draw(st.integers(5, 40)), height=data.draw(st.integers(5, 40)))
        return SetGrid.of(encounter, new)
    if kind == "door":
        return ToggleDoor(data.draw(st.sampled_from(doors)))
    return RemoveFeature.of(encounter, (data.draw(st.sampled_from(features))))


def _field_command(data: st.DataObject, encounter: Encounter) -> Command:
    field = data.draw(st.sampled_from(["name", "notes"]))
    return ReplaceEncounterField(field, getattr(encounter, field), data.draw(names))


@functools.cache
def _srd() -> Ruleset:
    return load_registry().get("srd-5e")


def _combat_command(data: st.DataObject, encounter: Encounter) -> Command:
    """A combat step as the combat UI records it: the whole CombatState, dice stream included,
    swapped for the next one. Starts a fight (initiative rolled), ends a turn, or stops it."""
    old = encounter.combat
    try:
        if old is None:
            seed = data.draw(st.integers(0, 2**31 - 1))
            state, _ = state_and_events(
                roll_initiative(
                    with_combat(encounter, start_combat(encounter, "srd-5e", seed)), _srd()
                )
            )
            new, _ = state_and_events(begin_combat(with_combat(encounter, state), _srd()))
        else:
            new, _ = state_and_events(end_turn(with_combat(encounter, old), _srd()))
    except ValueError:  # e.g. a combatant was removed from the map: the DM ends the fight
        new = None
    event("combat step" if new is not None else "combat ended")
    if data.draw(st.integers(0, 6)) == 0:
        new = None
    return ReplaceEncounterField("combat", old, new, text="Combat")


def draw_command(data: st.DataObject, encounter: Encounter) -> Command:
    """One command that fits ``encounter``; sometimes two of them grouped as one step."""
    makers = [_creature_command, _map_command, _field_command, _combat_command]
    maker = data.draw(st.sampled_from(makers))
    command: Command = maker(data, encounter)
    if data.draw(st.integers(0, 5)) == 0:  # a compound step: this command, then one more
        second = data.draw(st.sampled_from(makers))(data, command.apply(encounter))
        command = CommandGroup((command, second))
    return command


# too_slow is a wall-clock check: under a loaded CI machine one draw once took 30 s.
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), steps=st.integers(min_value=0, max_value=25))
def test_undo_all_restores_the_start_and_redo_all_the_end(data: st.DataObject, steps: int) -> None:
    start = load_demo_encounter()
    document = Document(start)
    changes: list[Change] = []
    document.subscribe(changes.append)
    commands: list[Command] = []
    states = [start]
    for _ in range(steps):
        command = draw_command(data, document.encounter)
        document.apply(command)
        commands.append(command)
        states.append(document.encounter)
    end = document.encounter

    for command, before in zip(reversed(commands), reversed(states[:-1]), strict=True):
        document.revert(command)
        assert document.encounter == before
    assert document.encounter == start

    for command, after in zip(commands, states[1:], strict=True):
        document.apply(command)
        assert document.encounter == after
    assert document.encounter == end
    # Listeners hear of every step that changed something, going back and forth, and no other.
    changed_steps = sum(a != b for a, b in itertools.pairwise(states))
    assert len(changes) == 3 * changed_steps
