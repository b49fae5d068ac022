"""Undo: pure model commands wrapped in ``QUndoCommand`` so ``QUndoStack`` can run them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtGui import QUndoCommand, QUndoStack

from battlemap.model.creature import Creature
from battlemap.model.document import Command, Document, UpdateCreature
from battlemap.model.ids import EntityId
from battlemap.ui.plain_text import literal_mnemonics


class DocumentCommand(QUndoCommand):
    """Runs one model ``Command`` against the Document on redo, and reverts it on undo.

    The Document's follow-ups are asked once, on the first redo; later redos replay the
    same follow-up commands, so redo gives back exactly the state undo took away.
    """

    def __init__(self, document: Document, command: Command) -> None:
        # Qt's text is "history text\naction text": the Undo/Redo entries get a name's "&"
        # doubled (else it underlines the next letter), the history list the name as is.
        super().__init__(f"{command.text}\n{literal_mnemonics(command.text)}")
        self.document = document
        self.command = command
        self.follow_ups: list[Command] | None = None

    def redo(self) -> None:
        if self.follow_ups is None:
            self.follow_ups = self.document.apply_with_follow_ups(self.command)
            return
        self.document.apply(self.command)
        for extra in self.follow_ups:
            self.document.apply(extra)

    def undo(self) -> None:
        for extra in reversed(self.follow_ups or []):
            self.document.revert(extra)
        self.document.revert(self.command)


def push(stack: QUndoStack, document: Document, command: Command) -> None:
    """Apply ``command`` now and record it as one undo step."""
    stack.push(DocumentCommand(document, command))


def push_creature_update(
    stack: QUndoStack,
    document: Document,
    creature_id: EntityId,
    text: Callable[[Creature], str],
    **changes: Any,
) -> None:
    """One undo step setting ``changes`` on a creature, named ``text(creature)``; nothing
    when the creature already has them."""
    creature = document.encounter.creature(creature_id)
    if all(getattr(creature, field) == value for field, value in changes.items()):
        return
    new = creature.model_copy(update=changes)
    push(stack, document, UpdateCreature(creature, new, text=text(creature)))
