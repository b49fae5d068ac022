"""The targeting overlay: with one creature selected, hovering another shows what an attack
would face: distance, reach or range band, cover with its corner lines (clear and blocked
in different colours) and what blocks them, and a flanking partner with the flank line.

The overlay follows the pointer; "Keep targeting overlay" (K) keeps it on the last target
after the pointer leaves, until another target is hovered or the toggle is turned off.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

import shiboken6
from PySide6.QtCore import QEvent, QObject, QRectF, Qt, Signal
from PySide6.QtGui import QAction, QColor, QKeySequence, QMouseEvent
from PySide6.QtWidgets import QGraphicsItem, QGraphicsView

from battlemap.model.document import Change
from battlemap.model.features import CoverDegree
from battlemap.model.ids import EntityId
from battlemap.rules.schema import Ruleset
from battlemap.ui.drag.items import (
    BAD,
    CARD_MUTED,
    CARD_TEXT,
    GOOD,
    WARN,
    InfoCard,
    Marker,
    cased_line,
    outline_square,
)
from battlemap.ui.map_index_cache import IndexCache
from battlemap.ui.map_scene import MapScene
from battlemap.ui.token_item import TokenItem
from battlemap.ui.tools.base import Overlay

# The engine and the heavier geometry are imported in the functions that use them, so
# the window is built without them (issue 17; tests/ui/test_start_up_imports.py).
if TYPE_CHECKING:
    from battlemap.geometry import RangeBand
    from battlemap.ui.targeting.facts import CoverAgainst, TargetFacts

KEEP_SHORTCUT = "K"
SHOW_RULING_SHORTCUT = "R"
"""Shows the players what the overlay shows (``show_ruling``)."""
LINE_CLEAR = QColor("#00c853")
LINE_BLOCKED = QColor("#d50000")
FLANK = QColor("#aa00ff")
FLANK_TEXT = QColor("#ea80fc")
TARGET_EDGE = QColor("#ffd600")


def band_text(band: RangeBand) -> tuple[str, QColor]:
    """What the overlay writes for a range band, and in which colour."""
    from battlemap.geometry.reach import RangeBand  # with the facts: on first use

    return {
        RangeBand.NORMAL: ("normal range", GOOD),
        RangeBand.LONG: ("long range: disadvantage", WARN),
        RangeBand.OUT_OF_RANGE: ("out of range", BAD),
    }[band]


class TargetingOverlay(QObject):
    """Shows ``TargetFacts`` for the selected creature and the hovered one.

    Attributes:
        keep_action: the checkable "Keep targeting overlay" action (shortcut K).
        facts: what is shown now, or None.
        defence: the same question the other way round (the hovered creature attacking the
            selected one), for the selected creature's AC line in the Creature dock; None
            when nothing is shown.

    Signals:
        shown(): the pair shown changed, or the overlay was cleared.
    """

    shown = Signal()

    def __init__(
        self,
        scene: MapScene,
        view: QGraphicsView,
        ruleset_of: Callable[[], Ruleset | None],
        index: IndexCache,
    ) -> None:
        super().__init__(scene)
        self.scene = scene
        self.view = view
        self._ruleset_of = ruleset_of
        self.index = index
        self.overlay = Overlay(scene)
        self.facts: TargetFacts | None = None
        self.defence: TargetFacts | None = None
        self.pair: tuple[EntityId, EntityId] | None = None
        self.keep_action = QAction("&Keep targeting overlay", self)
        self.keep_action.setCheckable(True)
        self.keep_action.setShortcut(QKeySequence(KEEP_SHORTCUT))
        self.keep_action.setStatusTip(
            "Keep the cover, reach and flanking overlay on the last hovered target"
            f" ({KEEP_SHORTCUT}); {SHOW_RULING_SHORTCUT} shows it to the players"
        )
        self.keep_action.toggled.connect(self._on_keep_toggled)
        view.viewport().installEventFilter(self)
        scene.selectionChanged.connect(self._on_selection)
        scene.document.subscribe(self._on_change)
        # The Document may outlive the window (tests, a window reopened on it).
        self.destroyed.connect(partial(unsubscribe, scene.document.listeners, self._on_change))

    # --- input ---------------------------------------------------------------------

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.MouseMove and isinstance(event, QMouseEvent):
            if event.buttons() == Qt.MouseButton.NoButton:
                self.hover(self.view.mapToScene(event.position().toPoint()))
            elif self.pair is not None and not self.keep_action.isChecked():
                self.clear()  # a drag has started: the drag feedback takes over
        return False

    def hover(self, scene_pos: object) -> None:
        """Show the overlay for the token under ``scene_pos`` (a scene point), if any."""
        attacker = self.selected_attacker()
        if attacker is None:  # nothing to show: skip the scene lookup on this mouse move
            self.clear()
            return
        target = next(
            (
                item.creature_id
                for item in self.scene.items(scene_pos)  # type: ignore[call-overload]
                if isinstance(item, TokenItem)
            ),
            None,
        )
        if target is not None and target != attacker:
            if self.pair != (attacker, target):
                self.show_pair(attacker, target)
        elif not self.keep_action.isChecked():
            self.clear()

    def selected_attacker(self) -> EntityId | None:
        ids = self.scene.selected_creatures()
        return ids[0] if len(ids) == 1 else None

    # --- showing ------------------------------------------------------------------------

    def show_pair(self, attacker_id: EntityId, target_id: EntityId) -> None:
        from battlemap.ui.targeting.facts import target_facts

        encounter = self.scene.document.encounter
        try:
            facts = target_facts(
                encounter, self._ruleset_of(), self.index.get(), attacker_id, target_id
            )
        except (KeyError, ValueError):
            self.clear()
            return
        self.pair, self.facts = (attacker_id, target_id), facts
        try:  # the same geometry call with the roles swapped: the selected one's cover
            self.defence = target_facts(
                encounter, self._ruleset_of(), self.index.get(), target_id, attacker_id
            )
        except (KeyError, ValueError):
            self.defence = None
        self.shown.emit()
        items = overlay_items(facts, self._ruleset_of())
        self.overlay.show(items)
        space = facts.target.space
        box = QRectF(space.x, space.y, space.w, space.h)
        for item in items:
            if isinstance(item, InfoCard):
                item.place(self.view, box, facts.attacker.space.centre)

    def clear(self) -> None:
        had = self.pair is not None
        self.pair, self.facts, self.defence = None, None, None
        self.overlay.clear()
        if had:
            self.shown.emit()

    def cover_of(self, creature_id: EntityId) -> CoverAgainst | None:
        """The cover ``creature_id`` (the selected creature) has against the hovered one;
        None when the overlay is not showing a pair with that creature selected."""
        from battlemap.ui.targeting.facts import cover_against

        if self.defence is None or self.defence.target.id != creature_id:
            return None
        return cover_against(self.defence, self._ruleset_of())

    @property
    def items(self) -> list[QGraphicsItem]:
        return self.overlay.items

    def _on_keep_toggled(self, keep: bool) -> None:
        if not keep:
            self.clear()

    def _on_selection(self) -> None:
        if not shiboken6.isValid(self.scene):  # the scene empties itself while being destroyed
            return
        if self.pair is not None and self.selected_attacker() != self.pair[0]:
            self.clear()

    def _on_change(self, change: Change) -> None:
        if self.pair is not None and (change.creatures or change.map or change.other):
            self.show_pair(*self.pair)


def overlay_items(facts: TargetFacts, ruleset: Ruleset | None) -> list[QGraphicsItem]:
    """Corner lines, the chosen corner, the target square, the flank line and the card."""
    items: list[QGraphicsItem] = []
    result = facts.cover
    square = result.target_square
    items.append(outline_square((square.x, square.y), square.w, TARGET_EDGE, Qt.PenStyle.SolidLine))
    for line in result.lines:
        colour = LINE_BLOCKED if line.blocked else LINE_CLEAR
        style = Qt.PenStyle.DashLine if line.blocked else Qt.PenStyle.SolidLine
        items += cased_line([line.start, line.end], colour, 3.5, style)
    if result.degree is CoverDegree.TOTAL:
        centre = result.centre_line
        items += cased_line([centre.start, centre.end], LINE_BLOCKED, 2.5, Qt.PenStyle.DotLine)
    items.append(Marker(result.corner, "", QColor("#263238"), 7.0))
    if facts.flank is not None and facts.flank.line is not None:
        items += cased_line(list(facts.flank.line), FLANK, 4.0, Qt.PenStyle.DashLine)
        partner = facts.flank_partner
        if partner is not None:
            space = partner.space
            items.append(outline_square((space.x, space.y), space.w, FLANK, Qt.PenStyle.SolidLine))
    target = facts.target.space
    accent = LINE_BLOCKED if result.degree is not CoverDegree.NONE else LINE_CLEAR
    items.append(InfoCard((target.x1, target.y), card_lines(facts, ruleset), accent))
    return items


def card_lines(facts: TargetFacts, ruleset: Ruleset | None) -> list[tuple[str, QColor]]:
    """The card's text: distance, reach, range band, cover and blockers, flanking, sight.

    The cover's AC bonus is the ruleset's (``cover_against``; SRD values without one).
    """
    from battlemap.ui.targeting.facts import cover_against

    lines: list[tuple[str, QColor]] = [
        (f"{facts.target_name} · {facts.distance_feet:g} ft", CARD_TEXT)
    ]
    reach = facts.reach
    if reach.reach_feet <= 0:
        lines.append(("no melee reach", CARD_MUTED))
    elif reach.within:
        lines.append((f"within reach ({reach.reach_feet:g} ft)", GOOD))
    else:
        lines.append((f"out of reach ({reach.reach_feet:g} ft)", BAD))
    if facts.ranged is not None:
        text, colour = band_text(facts.ranged.band)
        ranged = facts.ranged
        lines.append(
            (f"{ranged.attack}: {text} ({ranged.normal_feet:g}/{ranged.long_feet:g})", colour)
        )
    result = facts.cover
    blocked = sum(1 for line in result.lines if line.blocked)
    degree = result.degree
    if degree is CoverDegree.NONE:
        lines.append((f"no cover ({blocked} of 4 lines blocked)", GOOD))
    else:
        ac_bonus = cover_against(facts, ruleset).bonus
        bonus = "can't be targeted" if ac_bonus is None else f"+{ac_bonus} AC"
        capped = (
            f", capped by {result.source.value}" if result.cap_applied and result.source else ""
        )
        lines.append(
            (
                f"{degree.value} cover ({bonus}){capped}",
                BAD if degree is CoverDegree.TOTAL else WARN,
            )
        )
    if facts.blockers:
        lines.append((f"{blocked} of 4 lines blocked by {', '.join(facts.blockers)}", CARD_MUTED))
    if facts.flank is not None:
        if facts.flank.flanked:
            lines.append((f"flanked with {facts.partner_name or 'an ally'}", FLANK_TEXT))
        else:
            note = f": {facts.flank_note}" if facts.flank_note else ""
            lines.append((f"not flanked{note}", CARD_MUTED))
    if not facts.sight.visible:
        lines.append((f"can't see the target ({facts.sight.reason.value})", BAD))
    return lines


def unsubscribe(listeners: list[Any], listener: Any) -> None:
    if listener in listeners:
        listeners.remove(listener)
