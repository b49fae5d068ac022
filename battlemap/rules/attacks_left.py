"""The attacks left in an Attack action: how many it gives, which ones, spending them.

Taking the Attack action gives ``attack_action_count`` attacks (the stat block's
``attacks_per_action``: Extra Attack), or the chosen Multiattack option's total
(``rules.attack_action``). Each attack spends one (``spend_one``); the creature may move
between them. A Multiattack names its attacks ("two with its scimitar and one with its
dagger"): ``TurnState.attack_plan`` keeps how many of each are still allowed, as caps. An
attack with a named weapon uses its own count, else one of the option's unnamed attacks; an
attack-replacing action (a grapple) spends one of the total and leaves the caps, so the
named attacks left never exceed the total left.
"""

from __future__ import annotations

from dataclasses import dataclass

from battlemap.model.combat import Combatant, TurnState
from battlemap.model.encounter import Encounter
from battlemap.model.statblock import StatBlock
from battlemap.model.statblock_actions import AttackCount
from battlemap.rules.enums import ActionCost, ActionKind
from battlemap.rules.errors import IllegalActionError
from battlemap.rules.schema import Ruleset
from battlemap.rules.statblock_lookup import find_statblock


def statblock_in(encounter: Encounter, combatant: Combatant) -> StatBlock | None:
    """The stat block the combatant's creature uses: its own, else the party's of its name
    (``find_statblock`` without a library: the engine reads only the encounter)."""
    try:
        creature = encounter.creature(combatant.creature_id)
    except KeyError:
        return None
    return find_statblock(creature, encounter, {})


def attack_action_count(encounter: Encounter, combatant: Combatant) -> int:
    """Attacks one Attack action makes: the stat block's ``attacks_per_action`` or one more
    than the combatant's ``extra_attacks``, whichever is more (Extra Attack features from two
    sources don't add up: SRD "Extra Attack")."""
    block = statblock_in(encounter, combatant)
    per_action = block.attacks_per_action if block is not None else 1
    return max(per_action, 1 + combatant.extra_attacks)


def attack_action_id(ruleset: Ruleset) -> str | None:
    """The ruleset's Attack action: its first action of kind ``attack`` that costs an action
    (None: it has none)."""
    for action_id, action in ruleset.actions.items():
        if action.kind is ActionKind.ATTACK and action.cost is ActionCost.ACTION:
            return action_id
    return None


def _same(a: str, b: str) -> bool:
    return a.strip().casefold() == b.strip().casefold()


@dataclass(frozen=True)
class AttacksLeft:
    """The attacks left in the Attack action being taken: ``count`` in all, of which the
    ``plan``'s named ones are capped by their counts (empty: any attack)."""

    count: int
    plan: tuple[AttackCount, ...] = ()

    @property
    def unnamed(self) -> int:
        """Attacks left that may be made with any attack (0 when the plan names them all)."""
        return max(0, self.count - sum(a.count for a in self.plan))

    def allowed_names(self) -> tuple[str, ...]:
        """The named attacks still allowed (empty: any attack, or none left)."""
        return tuple(a.name for a in self.plan if a.count > 0)

    @property
    def text(self) -> str:
        """``2 attacks left``; ``3 attacks left: 1 × Bite, 2 × Claw``; ``no attacks left``."""
        if self.count == 0:
            return "no attacks left"
        head = f"{self.count} attack{'s' if self.count != 1 else ''} left"
        if not self.plan:
            return head
        parts = [f"{min(a.count, self.count)} × {a.name}" for a in self.plan]
        if self.unnamed:
            parts.append(f"{self.unnamed} of any")
        return f"{head}: {', '.join(parts)}"

    def refusal(self, who: str, attack_name: str | None) -> str | None:
        """Why ``who`` can't make an attack with ``attack_name`` now (None: it can). A None
        name is an attack-replacing action, which any attack left allows."""
        if self.count == 0:
            return f"{who} has no attacks left; take the Attack action"
        if attack_name is None or not self.plan or self.unnamed:
            return None
        if any(_same(a.name, attack_name) for a in self.plan):
            return None
        return f"{who}'s Multiattack allows no {attack_name} attack now ({self.text})"


def attacks_left(turn: TurnState) -> AttacksLeft:
    """The attacks left in the turn's Attack action."""
    return AttacksLeft(turn.attacks_left, turn.attack_plan)


def spend_one(turn: TurnState, who: str, attack_name: str | None = None) -> TurnState:
    """The turn with one attack spent: with ``attack_name``'s own count when the plan names
    it, else one of the unnamed ones (None: an attack-replacing action, caps unchanged).

    Raises:
        IllegalActionError: no attacks left, or the Multiattack doesn't allow this attack.
    """
    left = attacks_left(turn)
    reason = left.refusal(who, attack_name)
    if reason is not None:
        raise IllegalActionError(reason)
    plan = list(turn.attack_plan)
    named = next(
        (i for i, a in enumerate(plan) if attack_name is not None and _same(a.name, attack_name)),
        None,
    )
    if named is not None:
        entry = plan[named]
        if entry.count > 1:
            plan[named] = entry.model_copy(update={"count": entry.count - 1})
        else:
            del plan[named]
    return turn.model_copy(
        update={"attacks_left": turn.attacks_left - 1, "attack_plan": tuple(plan)}
    )
