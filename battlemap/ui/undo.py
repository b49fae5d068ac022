"""Undo: pure model commands wrapped in ``QUndoCommand`` so ``QUndoStack`` can run them."""

from __future__ import annotations

from PySide6.QtGui import QUndoCommand, QUndoStack

from battlemap.model.document import Command, Document


class DocumentCommand(QUndoCommand):
    """Runs one model ``Command`` against the Document on redo, and reverts it on undo."""

    def __init__(self, document: Document, command: Command) -> None:
        super().__init__(command.text)
        self.document = document
        self.command = command

    def redo(self) -> None:
        self.document.apply(self.command)

    def undo(self) -> None:
        self.document.revert(self.command)


def push(stack: QUndoStack, document: Document, command: Command) -> None:
    """Apply ``command`` now and record it as one undo step."""
    stack.push(DocumentCommand(document, command))
