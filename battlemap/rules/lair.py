"""Lair actions: on initiative count 20, losing initiative ties, once a round, a creature's
lair takes one of its stat block's lair actions; where the stat block says so ("can't use the
same effect two rounds in a row", the SRD dragons' lair text), not the one it took in the
round before.

``lair_status`` lists each option with the reason it can't be taken now (None: it can);
``take_lair_action`` takes one, logged and kept (``Combatant.lair_used``). The lair's moment
in a round comes once the creatures on initiative 20 or more have had their turns (or at the
round's start when none has): while the creature whose turn it is has initiative below 20.
``lair_row_index`` is where the Initiative dock shows the lair's row.
"""

from __future__ import annotations

from dataclasses import dataclass

from battlemap.model.combat import CombatState, LairUse
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.model.statblock import StatBlock
from battlemap.model.statblock_actions import TextAction
from battlemap.rules.attacks_left import statblock_in
from battlemap.rules.combat_ops import allowed_option, combatant_of, name_of
from battlemap.rules.draft import Draft
from battlemap.rules.errors import InvalidRequestError
from battlemap.rules.outcome import Outcome, running_combat
from battlemap.rules.schema import Ruleset

LAIR_INITIATIVE = 20
NO_REPEAT_WORDS = ("two rounds in a row", "twice in a row")
"""A lair text with one of these forbids taking the same lair action in consecutive rounds."""


def no_repeats(block: StatBlock) -> bool:
    """The stat block's lair text says the same effect can't come two rounds in a row."""
    return any(
        words in action.text.lower() for action in block.lair_actions for words in NO_REPEAT_WORDS
    )


@dataclass(frozen=True)
class LairStatus:
    """A lair's options now, each with the reason it can't be taken (None: it can)."""

    creature_id: EntityId
    options: tuple[tuple[TextAction, str | None], ...]
    last: LairUse | None

    @property
    def text(self) -> str:
        """``Lair: Magma Eruption (round 2)`` or ``Lair: not yet``."""
        if self.last is None:
            return "Lair: not yet"
        return f"Lair: {self.last.action} (round {self.last.round})"


def _initiative(state: CombatState, creature_id: EntityId) -> int:
    initiative = combatant_of(state, creature_id).initiative
    return initiative if initiative is not None else 0


def _moment_refusal(state: CombatState, encounter: Encounter) -> str | None:
    if not state.started or state.current is None:
        return "the combat hasn't begun"
    current = state.current.creature_id
    if _initiative(state, current) >= LAIR_INITIATIVE:
        return (
            f"on initiative count 20, after {name_of(encounter, current)}'s turn"
            " (lair actions lose initiative ties)"
        )
    return None


def lair_status(encounter: Encounter, ruleset: Ruleset, creature_id: EntityId) -> LairStatus | None:
    """The creature's lair options now; None when its stat block has no lair actions.

    Raises:
        InvalidRequestError: no combat, or the creature isn't in it.
    """
    state = running_combat(encounter)
    combatant = combatant_of(state, creature_id)
    block = statblock_in(encounter, combatant)
    if block is None or not block.lair_actions:
        return None
    last = combatant.lair_used
    general = _moment_refusal(state, encounter)
    if general is None and combatant.death.dead:
        general = f"{name_of(encounter, creature_id)} is dead"
    if general is None and last is not None and last.round == state.round:
        general = f"the lair has acted this round ({last.action})"
    repeated = no_repeats(block) and last is not None and last.round == state.round - 1
    options = tuple(
        (
            action,
            general
            or (
                "used last round: the lair can't use the same effect two rounds in a row"
                if repeated and last is not None and action.name == last.action
                else None
            ),
        )
        for action in block.lair_actions
    )
    return LairStatus(creature_id, options, last)


def take_lair_action(
    encounter: Encounter, ruleset: Ruleset, creature_id: EntityId, name: str
) -> Outcome[TextAction]:
    """The creature's lair takes its lair action ``name`` (what it does is the DM's: the
    text). Logged and kept for the "not twice in a row" rule.

    Raises:
        InvalidRequestError: no lair actions, or none of that name.
        IllegalActionError: not its moment, acted this round, or repeated.
    """
    status = lair_status(encounter, ruleset, creature_id)
    who = name_of(encounter, creature_id)
    if status is None:
        raise InvalidRequestError(f"{who} has no lair actions")
    action = allowed_option(status.options, lambda a: a.name, name)
    draft = Draft(encounter, ruleset)
    combatant = draft.fighting(creature_id)
    used = LairUse(round=draft.combat.round, action=action.name)
    draft.put(combatant.model_copy(update={"lair_used": used}))
    draft.add("lair", f"Initiative 20: {who}'s lair: {action.name}", creature_id)
    return draft.done(action)


def lair_row_index(state: CombatState, encounter: Encounter) -> int | None:
    """Where the lair's row goes in the initiative order: after every creature on 20 or more
    (lair actions lose ties); None when no living combatant has lair actions."""
    if not any(
        (block := statblock_in(encounter, c)) is not None
        and block.lair_actions
        and not c.death.dead
        for c in state.combatants
    ):
        return None
    order = [s.creature_id for s in state.order] or [c.creature_id for c in state.combatants]
    return sum(1 for cid in order if _initiative(state, cid) >= LAIR_INITIATIVE)
