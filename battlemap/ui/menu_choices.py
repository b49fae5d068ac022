"""A menu's set of mutually exclusive, checkable choices (theme, camera mode, fog mode)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypeVar

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QMenu

Choice = TypeVar("Choice")


def exclusive_choices(
    owner: QObject,
    menu: QMenu,
    labels: Mapping[Choice, str],
    choose: Callable[[Choice], None],
    checked: Choice | None = None,
) -> dict[Choice, QAction]:
    """Add one checkable action per label to ``menu``, only one of them checked at a time.

    Args:
        owner: the parent of the actions and of their exclusive group.
        menu: where the actions go, in the labels' order.
        labels: each choice's menu text.
        choose: called with an action's choice when the DM picks it.
        checked: the choice checked at first; None checks none (the caller syncs them).

    Returns:
        The actions by choice, for the caller to check as its state changes.
    """
    group = QActionGroup(owner)
    actions: dict[Choice, QAction] = {}
    for choice, label in labels.items():
        action = QAction(label, owner, checkable=True)
        if checked is not None:
            action.setChecked(choice == checked)
        action.triggered.connect(lambda _=False, c=choice: choose(c))
        group.addAction(action)
        menu.addAction(action)
        actions[choice] = action
    return actions
