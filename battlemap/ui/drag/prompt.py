"""The opportunity-attack prompt: a card docked at the foot of the map view, not a dialog.

When a dropped token provokes, the move waits at the square where the attack happens and
this card asks the DM: take it (the app rolls, or the dice typed from the table), skip it, or
call the move off. The map stays usable while it waits. Keys: Enter takes, S skips, Escape
calls the move off (from the card or from the map); typing a digit goes to the d20 box. The
window's Undo (Edit menu or Ctrl+Z) takes the waiting move back and nothing else: the DM means
"not this move", not the step recorded before it (a second Undo then undoes as usual; in a
dice box Ctrl+Z undoes the typing, as in any text field).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, QRect, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QKeyEvent
from PySide6.QtWidgets import (
    QApplication,
    QFormLayout,
    QFrame,
    QGraphicsItem,
    QGraphicsView,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from battlemap.geometry.metrics import Cell
from battlemap.rules.move_answer import Answer, Choice
from battlemap.ui.card_stack import MARGIN_PX, CardWish, card_stack
from battlemap.ui.drag.items import (
    OPPORTUNITY,
    PATH_OK,
    Marker,
    cased_line,
    outline_square,
)
from battlemap.ui.map_view import MapView
from battlemap.ui.plain_text import plain_tooltip
from battlemap.ui.typed_dice import D20Entry, DamageEntry

# The engine and the heavier geometry are imported in the functions that use them, so
# the window is built without them (issue 17; tests/ui/test_start_up_imports.py).

if TYPE_CHECKING:  # the engine is imported when a move is resolved, not at start
    from battlemap.rules.attacks import AttackResult
    from battlemap.rules.move_plan import Evaluated, MovePlan
    from battlemap.rules.move_resolution import PendingOffer

    Trial = Callable[[tuple[int, ...]], AttackResult]
    """Tries d20 faces on the pending attack without recording anything
    (``MoveResolution.trial``)."""

TAKE_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter)
SKIP_KEY = Qt.Key.Key_S
CALL_OFF_KEY = Qt.Key.Key_Escape
WIDTH_PX = 620
VERDICT_HIT, VERDICT_CRIT, VERDICT_BAD = "#69f0ae", "#ffab40", "#ff8a80"
ANSWERED = QColor("#8a8f98")
"""An opportunity attack of this move already answered (taken or skipped)."""
BUTTON_HEIGHT_PX = 52
"""Tall enough for a finger on a touch screen laid on the table."""

Tokens = Callable[[], Sequence[QRectF]]
"""The scene rectangles of the tokens on the map, asked each time the card is placed."""


STYLE = """
#opportunity-prompt { background: rgb(22, 24, 28); border: 2px solid #ff6d00;
    border-radius: 10px; }
#opportunity-prompt QLabel { color: #ffffff; font-size: 16px; background: transparent; }
#opportunity-prompt QLabel#prompt-title { font-size: 21px; font-weight: bold; }
#opportunity-prompt QLabel#prompt-muted { color: #c8d0d8; font-size: 14px; }
#opportunity-prompt QLabel#prompt-error { color: #ff8a80; font-weight: bold; }
#opportunity-prompt QSpinBox { font-size: 18px; min-height: 36px; min-width: 110px; }
#opportunity-prompt QPushButton { font-size: 18px; font-weight: bold; min-height: @HEIGHT@px;
    padding: 0 18px; border-radius: 8px; color: #ffffff; background: #3a3f47; }
#opportunity-prompt QPushButton#prompt-take { background: #c75000; }
#opportunity-prompt QPushButton:focus { border: 2px solid #ffffff; }
""".replace("@HEIGHT@", str(BUTTON_HEIGHT_PX))


class OpportunityPrompt(QFrame):
    """The card (a child of the map view, over its viewport's foot) for one pending attack.

    Signals:
        answered(Answer): the DM's answer, with the typed dice of a take.
    """

    answered = Signal(object)

    def __init__(self, view: QGraphicsView) -> None:
        super().__init__(view)
        self.view = view
        self.setObjectName("opportunity-prompt")
        self.setStyleSheet(STYLE)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 12, 16, 12)
        self.title = QLabel()
        self.title.setObjectName("prompt-title")
        self.title.setWordWrap(True)
        self.title.setTextFormat(Qt.TextFormat.PlainText)  # creature names from untrusted files
        self.attack = QLabel()
        self.attack.setWordWrap(True)
        self.attack.setTextFormat(Qt.TextFormat.RichText)
        self.done = QLabel()
        self.done.setTextFormat(Qt.TextFormat.PlainText)  # steps name creatures
        self.done.setObjectName("prompt-muted")
        self.done.setWordWrap(True)
        self.error = QLabel()
        self.error.setTextFormat(Qt.TextFormat.PlainText)
        self.error.setObjectName("prompt-error")
        self.error.setWordWrap(True)
        for label in (self.title, self.attack, self.done, self.error):
            layout.addWidget(label)
        self.verdict = QLabel()
        self.verdict.setWordWrap(True)
        self.verdict.setTextFormat(Qt.TextFormat.RichText)

        dice = QHBoxLayout()
        d20_form = QFormLayout()
        self.d20 = D20Entry()
        d20_form.addRow("d20", self.d20)
        dice.addLayout(d20_form)
        damage_form = QFormLayout()
        self.damage = DamageEntry(damage_form)
        dice.addLayout(damage_form)
        dice.addStretch(1)
        layout.addLayout(dice)
        layout.addWidget(self.verdict)

        buttons = QHBoxLayout()
        self.take_button = QPushButton("Take (Enter)")
        self.take_button.setObjectName("prompt-take")
        self.skip_button = QPushButton("Skip (S)")
        self.skip_button.setToolTip("Let the mover go: the reaction is not spent")
        self.call_off_button = QPushButton("Call off (Esc)")
        self.call_off_button.setToolTip("Call the whole move off: nothing changes")
        for button, choice in (
            (self.take_button, Choice.TAKE),
            (self.skip_button, Choice.SKIP),
            (self.call_off_button, Choice.CANCEL),
        ):
            button.clicked.connect(lambda _=False, c=choice: self.answer(c))
            buttons.addWidget(button)
        layout.addLayout(buttons)
        for spin in self.d20.spins:
            spin.valueChanged.connect(self._dice_changed)
        self._follows_view = isinstance(view, MapView)
        """The map view reports pans, zooms and resizes; a plain view only its resizes."""
        # Set before the filters go in: making the view's card stack sends the view events.
        self.pending: PendingOffer | None = None
        self._keep_clear: tuple[QRectF, ...] = ()
        self._tokens: Tokens | None = None
        self._trial: Trial | None = None
        self._watch(self)
        view.installEventFilter(self)
        card_stack(view).add(self, self.wish)
        if isinstance(view, MapView):  # a pan or zoom can bring the mover under the card
            view.visible_rect_changed.connect(self._replace_if_shown)
        self.hide()

    # --- showing --------------------------------------------------------------------

    def show_offer(
        self,
        pending: PendingOffer,
        keep_clear: Sequence[QRectF] = (),
        trial: Trial | None = None,
        tokens: Tokens | None = None,
    ) -> None:
        """Ask about ``pending`` (the typed dice are kept when the same attack is asked again
        after a refused answer, cleared for a new one). ``keep_clear``: the scene rectangles
        the card must not cover if it can help it (the waiting mover's square, its attacker's
        token); ``tokens``: every token's, covered as few as can be (see ``place``).
        ``trial``: tries typed d20 faces without recording anything, for the verdict shown as
        soon as they are typed."""
        from battlemap.rules.attacks import RollMode

        same = self.pending is not None and self.pending.offer == pending.offer
        self.pending = pending
        self._keep_clear = tuple(keep_clear)
        self._tokens = tokens
        self._trial = trial
        self.title.setText(
            f"{pending.attacker} can make an opportunity attack as {pending.mover} leaves its reach"
        )
        self.attack.setText(attack_text(pending))
        self.done.setText("So far: " + "; ".join(pending.done))
        self.done.setVisible(bool(pending.done))
        self.error.setText(pending.error)
        self.error.setVisible(bool(pending.error))
        preview = pending.preview
        if not same:
            self.d20.reset()
            self.damage.set_parts(pending.profile.damage)
            for spin in self.damage.spins:
                spin.valueChanged.connect(self._dice_changed)
                self._watch(spin)
        self.d20.set_two(preview is not None and preview.roll_mode.mode is not RollMode.NORMAL)
        self.take_button.setEnabled(preview is not None)
        self._dice_changed()
        if pending.refusal:
            self.take_button.setToolTip(plain_tooltip(pending.refusal))
        self.show()
        self.place()
        self.raise_()
        (self.take_button if preview is not None else self.skip_button).setFocus()

    def place(self) -> None:
        """Place the card with the map's other cards (``card_stack``): at the foot or the top
        of the viewport, as wide as fits, off the other cards; covering as few of the
        ``keep_clear`` rectangles (the mover and its attacker), then of the tokens, as it can;
        the foot on a tie."""
        card_stack(self.view).restack()

    def wish(self) -> CardWish:
        """What ``place`` asks of the card stack: the card's size and what to keep clear."""
        area = self.view.viewport().geometry()
        self.setFixedWidth(max(200, min(WIDTH_PX, area.width() - 2 * MARGIN_PX)))
        height = max(self.heightForWidth(self.width()), self.sizeHint().height())
        return CardWish(
            QSize(self.width(), height),
            keep_clear=tuple(self._in_view(r) for r in self._keep_clear),
            avoid=tuple(self._in_view(r) for r in (self._tokens() if self._tokens else ())),
            foot_first=True,
        )

    def _replace_if_shown(self, _visible: QRectF | None = None) -> None:
        """Place the card again (``place``) while it waits: the view was resized, panned or
        zoomed, so the tokens it must keep clear of may have moved under it."""
        if self.isVisible():
            self.place()

    def _in_view(self, rect: QRectF) -> QRect:
        """A scene rectangle in the view's coordinates (the card's parent's)."""
        area = self.view.viewport().geometry()
        return self.view.mapFromScene(rect).boundingRect().translated(area.topLeft())

    def _dice_changed(self) -> None:
        faces = self.d20.faces()
        self._show_verdict(faces)
        typed = ", ".join(str(f) for f in faces) if faces is not None else ""
        self.take_button.setText(f"Take {typed} (Enter)" if typed else "Take (Enter)")
        self.take_button.setToolTip(
            f"Resolve the attack with the d20 typed: {typed}"
            if typed
            else "Resolve the attack now: the app rolls the dice left at 'app rolls'"
        )

    def _show_verdict(self, faces: tuple[int, ...] | None) -> None:
        """What the typed d20 does (hit, critical hit, miss) before the DM commits to it, so
        the right damage dice are rolled at the table."""
        text = ""
        rolled: Sequence[str] | None = None  # the dice to roll at the table, when known
        if faces is not None and self._trial is not None:
            try:
                result = self._trial(faces)
                text = verdict_text(result)
                if result.hit and result.damage_rolled is not None:
                    rolled = result.damage_rolled.expressions
            except ValueError as error:  # faces the engine refuses (InvalidRequestError)
                text = f"<span style='color:{VERDICT_BAD}'>{escape(str(error))}</span>"
        self.damage.label_rolled(rolled)
        self.verdict.setText(text)
        self.verdict.setVisible(bool(text))
        if self.isVisible():
            self.place()

    # --- answering ------------------------------------------------------------------

    def answer(self, choice: Choice) -> None:
        """Send the DM's answer (the typed dice go with a take)."""
        if self.pending is None or (choice is Choice.TAKE and not self.take_button.isEnabled()):
            return
        if choice is Choice.TAKE:
            answer = Answer(choice, self.d20.faces(), self.damage.rolls())
        else:
            answer = Answer(choice)
        self.answered.emit(answer)

    def close_prompt(self) -> None:
        """Hide the card and forget the attack (the move was resolved or called off)."""
        self.pending = None
        self.hide()
        if self.view.isVisible():
            self.view.setFocus()

    # --- keys -------------------------------------------------------------------------

    def _watch(self, widget: QWidget) -> None:
        """Filter the keys of ``widget`` and its children (a focused box sees them first)."""
        widget.installEventFilter(self)
        for child in widget.findChildren(QWidget):
            child.installEventFilter(self)

    @staticmethod
    def choice_of(event: QKeyEvent) -> Choice | None:
        """The answer a key gives: Enter takes, a plain S skips (Ctrl+S is still Save),
        Escape calls the move off; None for any other key."""
        key = event.key()
        if key in TAKE_KEYS:
            return Choice.TAKE
        if key == SKIP_KEY and not event.modifiers():
            return Choice.SKIP
        return Choice.CANCEL if key == CALL_OFF_KEY else None

    def handle_key(self, event: QKeyEvent) -> bool:
        """Answer with the key's choice (``choice_of``); returns whether the key was used."""
        choice = self.choice_of(event)
        if choice is None:
            return False
        self.answer(choice)
        return True

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """The card's keys from the card or the map view (the map may have the focus while
        the DM pans); a digit typed on the card outside a box goes to the d20 box."""
        kind = event.type()
        if watched is self.view and kind == QEvent.Type.Resize and not self._follows_view:
            self._replace_if_shown()
        if self.pending is None or not isinstance(event, QKeyEvent):
            return False
        if kind == QEvent.Type.ShortcutOverride and self.choice_of(event) is not None:
            event.accept()  # the card's keys win over the window's shortcuts
            return True
        if kind != QEvent.Type.KeyPress:
            return False
        if self.handle_key(event):
            return True
        first = self.d20.spins[0]
        on_card = watched is not self.view and not isinstance(watched, QSpinBox)
        if event.text().isdigit() and on_card:
            first.setFocus()
            first.selectAll()
            QApplication.sendEvent(first, QKeyEvent(event))
            return True
        return False


def verdict_text(result: AttackResult) -> str:
    """ "HIT: 14+5 = 19 vs AC 8 · roll the 1d8+3 slashing" ("roll the critical damage, 2d8+3
    slashing" on a critical: the dice the engine rolls), with the engine's reasons."""
    from battlemap.rules.attacks import reasons_beyond_the_total

    word = "CRITICAL HIT" if result.critical else "HIT" if result.hit else "MISS"
    colour = VERDICT_CRIT if result.critical else VERDICT_HIT if result.hit else VERDICT_BAD
    text = (
        f"<span style='color:{colour}'><b>{word}</b></span>: {result.natural}"
        f"{result.to_hit:+d} = {result.total} vs AC {result.armor_class.value}"
    )
    damage = " + ".join(f"{p.dice} {p.type}" for p in result.profile.damage)
    rolled = result.damage_rolled  # the dice the engine rolls: a critical's doubled ones
    if rolled is not None:
        types = [p.type for p in result.profile.damage]
        damage = " + ".join(f"{e} {t}" for e, t in zip(rolled.expressions, types, strict=False))
    if result.hit and damage:
        dice = f"critical damage, {damage}" if result.critical else damage
        text += f" · roll the {escape(dice)}"
    reasons = reasons_beyond_the_total(result)  # the total vs AC is on the line above
    if reasons:
        text += f"<br><small>{escape('; '.join(reasons))}</small>"
    return text


def attack_text(pending: PendingOffer) -> str:
    """The attack, its roll mode with reasons and the AC with its parts, as rich text."""
    profile = pending.profile
    damage = " + ".join(f"{p.dice} {p.type}" for p in profile.damage) or "no damage"
    lines = [f"<b>{escape(profile.name)}</b>: {profile.to_hit:+d} to hit · {escape(damage)}"]
    preview = pending.preview
    if preview is None:
        lines.append(f"<b>Can't attack:</b> {escape(pending.refusal)}")
        return "<br>".join(lines)
    report = preview.roll_mode
    mode = report.mode.value
    reasons = [f"advantage: {r}" for r in report.advantages]
    reasons += [f"disadvantage: {r}" for r in report.disadvantages]
    why = f" ({escape('; '.join(reasons))})" if reasons else ""
    ac = preview.armor_class
    parts = f" ({escape(', '.join(ac.parts))})" if len(ac.parts) > 1 else ""
    lines.append(f"Roll: {mode}{why} · vs <b>AC {ac.value}</b>{parts}")
    if pending.total > 1:
        lines.append(f"Attack {pending.number} of {pending.total}")
    return "<br>".join(lines)


def waiting_items(
    plan: MovePlan, evaluated: Evaluated, pending: PendingOffer
) -> list[QGraphicsItem]:
    """The move waiting for an answer: its path, where the mover stands now, each attack's
    mark with a line to its attacker (the pending one solid and bold)."""
    side = plan.footprint_side()
    ox, oy = plan.offset

    def centre(cell: Cell) -> tuple[float, float]:
        return (cell[0] + ox + side / 2, cell[1] + oy + side / 2)

    result = evaluated.result
    items: list[QGraphicsItem] = []
    items += cased_line([centre(c) for c in (plan.start, *result.cells)], PATH_OK, 4.0)
    last = evaluated.intended[-1]
    items.append(outline_square((last[0] + ox, last[1] + oy), side, PATH_OK))
    here = pending.offer.position
    if here is not None:
        solid = Qt.PenStyle.SolidLine
        items.append(outline_square((here[0] + ox, here[1] + oy), side, OPPORTUNITY, solid))
    attacks = result.opportunity_attacks
    current = next(
        (i for i, a in enumerate(attacks) if a.attacker_id == pending.offer.attacker_id), 0
    )
    # Answered attacks are greyed and drawn first, so the pending one lies on top.
    for index in sorted(range(len(attacks)), key=lambda i: i == current):
        attack, now = attacks[index], index == current
        colour = ANSWERED if index < current else OPPORTUNITY
        at = centre(attack.position)
        attacker = plan.others_by_id.get(attack.attacker_id)
        if attacker is not None:
            style = Qt.PenStyle.SolidLine if now else Qt.PenStyle.DashLine
            items += cased_line([attacker.space.centre, at], colour, 6.0 if now else 4.0, style)
        items.append(Marker(at, "!", colour, 17.0 if now else 12.0))
    return items
