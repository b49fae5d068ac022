"""What the fight waits on: one pure query of the decisions the DM has to make now.

``pending_decisions`` lists them, each naming its creature, what is to be decided and whether
Next turn is refused until it is (bloodied-brink's Brink of Death pauses initiative; a death
save due as the next turn starts is made by ``turn_steps.next_turn`` itself, with the d20
typed beforehand or rolled; the saves due, concentration and end-of-turn ones, are made
first). The UI shows each as a card on the map; the engine calls that resolve them are the
usual ones (``death.brink_choice``, ``turn_steps.next_turn``, ``concentration_save``,
``effects.effect_save``).
Nothing is rolled here and nothing changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from battlemap.model.combat import CombatState
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.combat_ops import name_of
from battlemap.rules.legendary import legendary_now
from battlemap.rules.saves_due import saves_due
from battlemap.rules.schema import Ruleset
from battlemap.rules.turn_steps import brink_pause, death_save_due, saves_pause
from battlemap.rules.turns import upcoming_creature


class DecisionKind(StrEnum):
    """What is to be decided."""

    DEATH_SAVE = "death-save"
    """The creature whose turn comes next is dying: its death save is made as its turn starts
    (the d20 rolled at the table, typed in before Next turn, or the app's)."""
    BRINK = "brink"
    """bloodied-brink: the creature is on the Brink of Death and chooses Adrenaline, Sentence
    or Last Breath."""
    LAST_BREATH = "last-breath"
    """bloodied-brink: the creature takes its Last Breath, a final turn; it dies as it ends."""
    SAVE_DUE = "save-due"
    """A saving throw owed now (``saves_due``): a concentration save after damage, or a save
    that ends a condition at the end of the creature's turn. In a combat Next turn is
    refused until it is made (``turn_steps.saves_pause``); outside one it waits all the same."""
    LEGENDARY = "legendary"
    """The current turn has ended (``legendary.end_of_turn``): legendary creatures may take
    legendary actions before Next turn goes on."""


@dataclass(frozen=True)
class Decision:
    """One decision the fight waits on: whose, what (``text``, for the DM), and whether Next
    turn is refused until it is made (``blocks_next_turn``)."""

    kind: DecisionKind
    creature_id: EntityId
    text: str
    blocks_next_turn: bool = False


def pending_decisions(encounter: Encounter, ruleset: Ruleset) -> tuple[Decision, ...]:
    """Every decision the fight waits on, the blocking ones first: outside a combat or before
    round 1 only the saves due (blocking nothing)."""
    state = encounter.combat
    if state is None or not state.started or state.current is None:
        return save_decisions(encounter)
    found = [*_brink_decisions(encounter, ruleset, state), *save_decisions(encounter)]
    if state.turn_ending:
        found.extend(_legendary_decision(encounter, ruleset, state.current.creature_id))
    upcoming = upcoming_creature(state)
    if upcoming is not None and death_save_due(encounter, state, upcoming):
        name = name_of(encounter, upcoming)
        text = f"{name} is dying: death save as its turn starts"
        found.append(Decision(DecisionKind.DEATH_SAVE, upcoming, text))
    return tuple(sorted(found, key=lambda d: not d.blocks_next_turn))


def save_decisions(encounter: Encounter) -> tuple[Decision, ...]:
    """The saves due (``saves_due``) as decisions: blocking Next turn once round 1 has
    begun (``turn_steps.saves_pause``); the ruleset isn't needed to list them."""
    state = encounter.combat
    blocking = state is not None and state.started
    return tuple(
        Decision(DecisionKind.SAVE_DUE, due.creature_id, due.reason, blocks_next_turn=blocking)
        for due in saves_due(encounter)
    )


def next_turn_refusal(encounter: Encounter, ruleset: Ruleset) -> str | None:
    """Why Next turn is refused now (the engine's own checks, ``turn_steps.brink_pause`` and
    ``saves_pause``), or None."""
    return brink_pause(encounter, ruleset) or saves_pause(encounter)


def _legendary_decision(encounter: Encounter, ruleset: Ruleset, ended: EntityId) -> list[Decision]:
    able = [
        status
        for status in legendary_now(encounter, ruleset)
        if any(reason is None for _, reason in status.actions)
    ]
    if not able:
        return []
    names = ", ".join(f"{name_of(encounter, s.creature_id)} ({s.left} left)" for s in able)
    text = f"End of {name_of(encounter, ended)}'s turn: legendary actions for {names}"
    return [Decision(DecisionKind.LEGENDARY, ended, text)]


def _brink_decisions(encounter: Encounter, ruleset: Ruleset, state: CombatState) -> list[Decision]:
    rules = ruleset.death_saves.brink_of_death
    if rules is None:
        return []
    found = []
    for combatant in state.combatants:
        death, creature_id = combatant.death, combatant.creature_id
        name = name_of(encounter, creature_id)
        if death.brink and not death.dead:  # blocks as ``brink_pause`` says
            text = f"{name} is on the Brink of Death: choose"
            found.append(Decision(DecisionKind.BRINK, creature_id, text, rules.pauses_initiative))
        elif death.last_breath and not death.dead:
            text = f"{name} takes its Last Breath: it dies when this turn ends"
            found.append(Decision(DecisionKind.LAST_BREATH, creature_id, text))
    return found
