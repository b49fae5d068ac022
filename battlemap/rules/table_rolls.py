"""Rolls of the dice roller (Help > Dice roller): any d20 expression, logged as one undoable
step in the session's log.

The roller has its own counter-based random source (``DiceState``), apart from a combat's:
a roll for the table never shifts the dice the engine rolls next. The roll is kept in the log
line's text, so redo shows the same result. During a combat the line goes into the combat's
log (``Encounter.session_log`` reads it in time order); outside one, into the encounter log.
"""

from __future__ import annotations

from dataclasses import dataclass

from battlemap.model.combat import CombatEvent, DiceState, RollRecord, clip_event_text, keep_newest
from battlemap.model.document import ReplaceEncounterField
from battlemap.model.encounter import Encounter
from battlemap.rules.dice import roll

ROLLER_KIND = "dice-roller"
"""The ``CombatEvent.kind`` of a dice roller's line."""
MAX_PURPOSE = 80
"""Most characters of what a roll is for ("Perception, Sela") kept in its line."""


@dataclass(frozen=True)
class TableRoll:
    """One roll of the dice roller.

    Attributes:
        record: the roll (expression, total, every die).
        dice: the roller's random source after the roll (roll the next one from it).
        event: the log line, as it reads in the Log dock.
        command: the undoable step that appends ``event`` to the session's log.
    """

    record: RollRecord
    dice: DiceState
    event: CombatEvent
    command: ReplaceEncounterField


def roll_for_the_log(
    encounter: Encounter, dice: DiceState, expression: str, purpose: str = ""
) -> TableRoll:
    """Roll ``expression`` from ``dice`` and make the step that logs it in ``encounter``.

    The line reads "Dice roller: 1d20 (14) + 5 = 19", with the purpose when one is given
    ("Dice roller, Perception: ..."); a purpose longer than ``MAX_PURPOSE`` is cut.

    Raises:
        DiceExpressionError: ``expression`` is empty, malformed or rolls too many dice;
            nothing is rolled (``dice`` is immutable).
    """
    after, record = roll(dice, expression, purpose=purpose.strip()[:MAX_PURPOSE])
    label = f"Dice roller, {record.purpose}" if record.purpose else "Dice roller"
    text = clip_event_text(f"{label}: {record.detail}")
    combat = encounter.combat
    event = CombatEvent(round=combat.round if combat else 0, kind=ROLLER_KIND, text=text)
    step = f"Roll {record.expression} = {record.total}"
    if combat is not None:
        logged = combat.model_copy(update={"log": keep_newest(combat.log, (event,))})
        command = ReplaceEncounterField("combat", combat, logged, text=step)
    else:
        command = ReplaceEncounterField(
            "log", encounter.log, encounter.with_log((event,)).log, text=step
        )
    return TableRoll(record, after, event, command)
