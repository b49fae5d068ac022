"""The Document: the one owner of the open encounter, and the commands that change it.

Commands are pure values that refer to entities by id. ``apply`` and ``revert`` each take
an encounter and return the changed copy, so any sequence of commands can be undone by
reverting them in reverse order. The UI wraps them in ``QUndoCommand`` (``battlemap.ui.undo``)
to get an undo stack, a history view and the clean state.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field

from battlemap.model.creature import Creature
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId

MAP_FIELDS = ("grid", "background", "walls", "obstacles", "terrain", "lights", "lighting")
"""Encounter fields whose change sets ``Change.map``."""
OTHER_FIELDS = tuple(
    f for f in Encounter.model_fields if f not in {*MAP_FIELDS, "creatures", "fog"}
)
"""Every remaining encounter field: its change sets ``Change.other``."""


def _differs(old: object, new: object) -> bool:
    """Unequal values; the same object is equal without comparing field by field (commands
    copy an encounter and keep every field they do not change)."""
    return old is not new and old != new


@dataclass(frozen=True)
class Change:
    """What differs between two versions of an encounter, for listeners to redraw."""

    creatures: frozenset[EntityId] = frozenset()
    """Ids of creatures added, removed or changed."""
    map: bool = False
    """Grid, background, walls, obstacles, terrain or lights changed."""
    fog: bool = False
    """The fog of war changed."""
    other: bool = False
    """Name, ruleset, notes or any other field changed."""
    replaced: bool = False
    """A whole other encounter was swapped in (File > New/Open: ``Document.replace``), even
    one equal to the last: what a view kept about the old one (rows, typed values) is stale."""

    @staticmethod
    def between(old: Encounter, new: Encounter) -> Change:
        changed: set[EntityId] = set()
        if _differs(old.creatures, new.creatures):
            old_by_id = {c.id: c for c in old.creatures}
            new_by_id = {c.id: c for c in new.creatures}
            changed = {
                cid
                for cid in old_by_id.keys() | new_by_id.keys()
                if _differs(old_by_id.get(cid), new_by_id.get(cid))
            }
        return Change(
            creatures=frozenset(changed),
            map=any(_differs(getattr(old, f), getattr(new, f)) for f in MAP_FIELDS),
            fog=_differs(old.fog, new.fog),
            other=any(_differs(getattr(old, f), getattr(new, f)) for f in OTHER_FIELDS),
        )

    def __bool__(self) -> bool:
        return bool(self.creatures) or self.map or self.fog or self.other or self.replaced


class Command:
    """A change to an encounter that can be applied and reverted.

    Subclasses set ``text`` (shown in the undo history) and may set ``merge_key``: two
    consecutive commands with the same non-None key merge into one undo step.
    """

    text: str = "Change"
    merge_key: str | None = None

    def apply(self, encounter: Encounter) -> Encounter:
        raise NotImplementedError

    def revert(self, encounter: Encounter) -> Encounter:
        raise NotImplementedError

    def merged_with(self, later: Command) -> Command | None:
        """One command doing ``self`` then ``later``, or None when they cannot merge."""
        return None


@dataclass(frozen=True)
class MoveCreature(Command):
    """Move a creature's space so its top-left corner is at ``(to_x, to_y)`` cells."""

    creature_id: EntityId
    from_xy: tuple[float, float]
    to_xy: tuple[float, float]
    text: str = "Move creature"

    def _place(self, encounter: Encounter, xy: tuple[float, float]) -> Encounter:
        creature = encounter.creature(self.creature_id)
        return encounter.replace_creature(creature.model_copy(update={"x": xy[0], "y": xy[1]}))

    def apply(self, encounter: Encounter) -> Encounter:
        return self._place(encounter, self.to_xy)

    def revert(self, encounter: Encounter) -> Encounter:
        return self._place(encounter, self.from_xy)


@dataclass(frozen=True)
class AddCreature(Command):
    creature: Creature
    text: str = "Add creature"

    def apply(self, encounter: Encounter) -> Encounter:
        return encounter.model_copy(update={"creatures": (*encounter.creatures, self.creature)})

    def revert(self, encounter: Encounter) -> Encounter:
        kept = tuple(c for c in encounter.creatures if c.id != self.creature.id)
        return encounter.model_copy(update={"creatures": kept})


@dataclass(frozen=True)
class ReplaceEncounterField(Command):
    """Swap one top-level field of the encounter between two values (Tiled's ChangeValue)."""

    field_name: str
    old: object
    new: object
    text: str = "Change"

    def apply(self, encounter: Encounter) -> Encounter:
        return encounter.model_copy(update={self.field_name: self.new})

    def revert(self, encounter: Encounter) -> Encounter:
        return encounter.model_copy(update={self.field_name: self.old})


@dataclass(frozen=True)
class UpdateCreature(Command):
    """Replace a creature with an edited version of itself (same id)."""

    old: Creature
    new: Creature
    text: str = "Edit creature"

    def __post_init__(self) -> None:
        if self.old.id != self.new.id:
            raise ValueError(f"UpdateCreature ids differ: {self.old.id} != {self.new.id}")

    def apply(self, encounter: Encounter) -> Encounter:
        return encounter.replace_creature(self.new)

    def revert(self, encounter: Encounter) -> Encounter:
        return encounter.replace_creature(self.old)


@dataclass(frozen=True)
class RemoveCreature(Command):
    creature: Creature
    index: int
    text: str = "Remove creature"

    def apply(self, encounter: Encounter) -> Encounter:
        kept = tuple(c for c in encounter.creatures if c.id != self.creature.id)
        return encounter.model_copy(update={"creatures": kept})

    def revert(self, encounter: Encounter) -> Encounter:
        creatures = list(encounter.creatures)
        creatures.insert(self.index, self.creature)
        return encounter.model_copy(update={"creatures": tuple(creatures)})


def image_name(data: bytes, suffix: str) -> str:
    """The name image bytes are stored under: a content hash and the format's suffix."""
    return f"{hashlib.sha256(data).hexdigest()[:16]}{suffix.lower()}"


Listener = Callable[[Change], None]
FollowUp = Callable[[Encounter, Encounter], "Command | None"]
"""Given the encounter before and after a command, a further command to make part of the
same undo step (the party's sight exploring the fog after a move), or None."""


@dataclass
class Document:
    """Owns the open encounter and tells listeners what changed.

    The undo history lives in the UI's ``QUndoStack``, which calls ``apply``/``revert`` here.
    """

    encounter: Encounter
    images: dict[str, bytes] = field(default_factory=dict)
    """Image files the encounter refers to by name (``Background.image``), saved with it."""
    listeners: list[Listener] = field(default_factory=list)
    follow_ups: list[FollowUp] = field(default_factory=list)

    def add_image(self, data: bytes, suffix: str) -> str:
        """Store image bytes and return their name. Names are content hashes, so storing the
        same image twice keeps one copy, and an undone import never leaves a dangling name."""
        name = image_name(data, suffix)
        self.images.setdefault(name, data)
        return name

    def subscribe(self, listener: Listener) -> None:
        self.listeners.append(listener)

    def apply(self, command: Command) -> None:
        self._set(command.apply(self.encounter))

    def apply_with_follow_ups(self, command: Command) -> list[Command]:
        """Apply ``command``, then every follow-up it calls for; return the follow-ups applied
        so that undo can revert them and redo can replay them without asking again."""
        before = self.encounter
        self.apply(command)
        applied = []
        for follow_up in list(self.follow_ups):
            extra = follow_up(before, self.encounter)
            if extra is not None:
                self.apply(extra)
                applied.append(extra)
        return applied

    def revert(self, command: Command) -> None:
        self._set(command.revert(self.encounter))

    def replace(self, encounter: Encounter) -> None:
        """Swap in a whole new encounter (after opening a file); not an undoable step. The
        listeners always hear of it (``Change.replaced``)."""
        self._set(encounter, replaced=True)

    def _set(self, encounter: Encounter, replaced: bool = False) -> None:
        change = Change.between(self.encounter, encounter)
        if replaced:
            change = dataclasses.replace(change, replaced=True)
        self.encounter = encounter
        if change:
            for listener in list(self.listeners):
                listener(change)
