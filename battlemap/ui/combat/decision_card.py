"""The decision card: what the fight waits on, on the map where the DM looks, not in a dock.

Like the opportunity-attack card (``ui/drag/prompt.py``), a child of the map view docked at
the top of its viewport (at the foot when the top would cover the creature it is about). It
shows each of ``rules.pending.pending_decisions``: the death save due as the next turn starts
(the d20 rolled at the table typed here, else the app rolls it; Next turn makes it), the
Brink of Death choice (``BrinkBox``: it resolves through ``CombatSession.run``) and a Last
Breath's warning, and the end of a turn where legendary creatures may act (``LegendaryRow``).
Keys in its d20 box: digits type the face, N ends the turn with it (as on
the map), Enter gives the keyboard back to the map.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtCore import QEvent, QObject, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QAction, QKeyEvent
from PySide6.QtWidgets import (
    QFrame,
    QGraphicsView,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from battlemap.model.ids import EntityId
from battlemap.ui.card_stack import MARGIN_PX, CardWish, card_stack
from battlemap.ui.combat.brink_box import BrinkBox
from battlemap.ui.combat.card_rows import LegendaryRow
from battlemap.ui.combat.session import CombatSession
from battlemap.ui.map_scene import MapScene
from battlemap.ui.typed_dice import D20Entry

# The engine and the heavier geometry are imported in the functions that use them, so
# the window is built without them (issue 17; tests/ui/test_start_up_imports.py).
if TYPE_CHECKING:
    from battlemap.rules.pending import Decision

WIDTH_PX = 560
NEXT_TURN_KEY = Qt.Key.Key_N
SECTION_CHANGES = (QEvent.Type.LayoutRequest, QEvent.Type.Show, QEvent.Type.Hide)
STYLE = """
#decision-card { background: rgb(22, 24, 28); border: 2px solid #8c6bff; border-radius: 10px; }
#decision-card QLabel, #decision-card QGroupBox { color: #ffffff; font-size: 15px;
    background: transparent; }
#decision-card QLabel#decision-title { font-size: 19px; font-weight: bold; }
#decision-card QPushButton { font-size: 16px; font-weight: bold; min-height: 40px;
    padding: 0 14px; border-radius: 8px; color: #ffffff; background: #3a3f47; }
#decision-card QPushButton:focus { border: 2px solid #ffffff; }
"""


def _label(name: str = "") -> QLabel:
    label = QLabel()
    label.setTextFormat(Qt.TextFormat.PlainText)  # creature names from untrusted files
    label.setWordWrap(True)
    if name:
        label.setObjectName(name)
    return label


class DecisionCard(QFrame):
    """The card over the map view's viewport for every decision the fight waits on."""

    def __init__(
        self, view: QGraphicsView, scene: MapScene, session: CombatSession, next_turn: QAction
    ) -> None:
        super().__init__(view)
        self.view, self.scene, self.session = view, scene, session
        self.next_turn = next_turn
        self.setObjectName("decision-card")
        self.setStyleSheet(STYLE)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 10, 16, 10)
        self.title = _label("decision-title")
        layout.addWidget(self.title)

        self.death = QWidget()
        death_row = QVBoxLayout(self.death)
        death_row.setContentsMargins(0, 0, 0, 0)
        self.death_label = _label()
        death_row.addWidget(self.death_label)
        dice = QHBoxLayout()
        dice.addWidget(QLabel("d20"))
        self.death_d20 = D20Entry()
        self.death_d20.set_two(False)
        dice.addWidget(self.death_d20)
        dice.addStretch(1)
        self.next_button = QPushButton(f"Next turn ({next_turn.shortcut().toString()})")
        self.next_button.setToolTip("End this turn; the death save is made as the next starts")
        self.next_button.clicked.connect(next_turn.trigger)
        dice.addWidget(self.next_button)
        death_row.addLayout(dice)
        layout.addWidget(self.death)

        self.brink_label = _label()
        layout.addWidget(self.brink_label)
        self.brink = BrinkBox(session)
        layout.addWidget(self.brink)
        self.last_breath_label = _label()
        layout.addWidget(self.last_breath_label)
        self.legendary = LegendaryRow(next_turn)
        layout.addWidget(self.legendary)

        self._sections: list[QWidget] = []
        self.decisions: tuple[Decision, ...] = ()
        self._saver: EntityId | None = None
        for spin in self.death_d20.spins:
            spin.installEventFilter(self)
        view.installEventFilter(self)
        card_stack(view).add(self, self.wish)
        session.changed.connect(self.refresh)
        scene.selectionChanged.connect(self._replace_if_shown)  # the DM's target: kept clear
        self.hide()

    # --- model -> card ---------------------------------------------------------------

    def refresh(self) -> None:
        """Show the decisions pending now, or hide the card when there are none."""
        from battlemap.rules.pending import DecisionKind, pending_decisions, save_decisions

        ruleset = self.session.ruleset() if self.session.state is not None else None
        if ruleset is not None:
            found = pending_decisions(self.session.encounter, ruleset)
        else:  # outside a combat only saves wait (and no ruleset is asked for)
            found = save_decisions(self.session.encounter)
        self.decisions = found
        kinds = {d.kind: d for d in found}
        death = kinds.get(DecisionKind.DEATH_SAVE)
        saver = death.creature_id if death is not None else None
        if saver != self._saver:
            self._saver = saver
            self.death_d20.reset()  # a typed die belongs to one creature's save
        self.death.setVisible(death is not None)
        if death is not None:
            self.death_label.setText(death.text)
        brink = kinds.get(DecisionKind.BRINK) or kinds.get(DecisionKind.LAST_BREATH)
        state = self.session.state
        if brink is not None and state is not None and ruleset is not None:
            self.brink.show_for(state, ruleset, brink.creature_id)
        else:
            self.brink.setVisible(False)
        self._show_text(self.brink_label, kinds.get(DecisionKind.BRINK))
        self._show_text(self.last_breath_label, kinds.get(DecisionKind.LAST_BREATH))
        self.brink.last_breath_note.setVisible(False)  # said by the card's own line
        self.legendary.show_for(kinds.get(DecisionKind.LEGENDARY), death is None)
        if not found:
            self.hide()
            return
        blocking = any(d.blocks_next_turn for d in found)
        self.title.setText("The fight waits on a choice" if blocking else "Before the next turn")
        self.show()
        self.place()
        self.raise_()

    def add_section(self, widget: QWidget, index: int) -> None:
        """Put another decision's widget on the card (the Saves due box, ``concentration_ui``)
        at ``index`` of its rows; it shows and hides itself."""
        layout = self.layout()
        assert isinstance(layout, QVBoxLayout)
        layout.insertWidget(index, widget)
        self._sections.append(widget)
        widget.installEventFilter(self)  # its rows change after the card's refresh: re-place

    @staticmethod
    def _show_text(label: QLabel, decision: Decision | None) -> None:
        label.setVisible(decision is not None)
        label.setText(decision.text if decision is not None else "")

    def typed_death_save(self) -> int | None:
        """The d20 typed for the next creature's death save, or None (the app rolls)."""
        if self.death.isHidden():
            return None
        faces = self.death_d20.faces()
        return faces[0] if faces else None

    # --- placing ---------------------------------------------------------------------

    def place(self) -> None:
        """Place the card with the map's other cards (``card_stack``): beside the tokens it
        is about and the current creature's, covering none of them, nor another card, and as
        few of the other tokens as it can."""
        card_stack(self.view).restack()

    def wish(self) -> CardWish:
        """What ``place`` asks of the card stack: the card's size and the tokens it is about."""
        area = self.view.viewport().geometry()
        self.setFixedWidth(max(220, min(WIDTH_PX, area.width() - 2 * MARGIN_PX)))
        height = max(self.heightForWidth(self.width()), self.sizeHint().height())
        about = self._about()
        keep_clear = tuple(self._in_view(self._drawn(c)) for c in about)
        others = (c for c in self.scene.tokens if c not in about)
        avoid = tuple(self._in_view(self._drawn(c)) for c in others)
        return CardWish(
            QSize(self.width(), height), keep_clear=keep_clear, avoid=avoid, beside=True
        )

    def _replace_if_shown(self) -> None:
        if self.isVisible() and shiboken6.isValid(self.scene):
            self.place()

    def _about(self) -> set[EntityId]:
        """The creatures the decisions are about, the current creature and the selected ones
        (the target the DM is working on)."""
        ids = {d.creature_id for d in self.decisions} | set(self.scene.selected_creatures())
        state = self.session.state
        if state is not None and state.current is not None:
            ids.add(state.current.creature_id)
        return {c for c in ids if c in self.scene.tokens}

    def _drawn(self, creature_id: EntityId) -> QRectF:
        """The token with its name plate and badges (drawn outside its space)."""
        token = self.scene.tokens[creature_id]
        return (
            token.sceneBoundingRect()
            | token.mapToScene(token.childrenBoundingRect()).boundingRect()
        )

    def _in_view(self, rect: QRectF) -> QRect:
        area = self.view.viewport().geometry()
        return self.view.mapFromScene(rect).boundingRect().translated(area.topLeft())

    # --- keys ------------------------------------------------------------------------

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """The view resized: place again. In the d20 box: N ends the turn (a letter a number
        box would swallow), Enter gives the keyboard back to the map."""
        kind = event.type()
        if watched in self._sections:
            if kind in SECTION_CHANGES and self.isVisible():
                self.place()
            return False
        if watched is self.view:
            if kind == QEvent.Type.Resize and self.isVisible():
                self.place()
            return False
        if not isinstance(event, QKeyEvent) or event.modifiers() not in (
            Qt.KeyboardModifier.NoModifier,
            Qt.KeyboardModifier.KeypadModifier,
        ):
            return False
        key = event.key()
        if kind == QEvent.Type.ShortcutOverride and key == NEXT_TURN_KEY:
            event.accept()  # the box's key, handled below, not the window's shortcut twice
            return True
        if kind != QEvent.Type.KeyPress:
            return False
        if key == NEXT_TURN_KEY:
            self.view.setFocus()
            self.next_turn.trigger()
            return True
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.view.setFocus()
            return True
        return False
