"""What decides the initiative order besides the totals, worked out the same way whether the
engine rolled a total or the DM typed one read off a physical die.

- the tie-break a total carries (gms-den ``dex-score``: "If there is a tie, the higher
  Dexterity score will go first");
- whether the die showed a natural 20 (gms-den: "one extra turn at the end of the first turn
  of combat");
- legends-of-hyrule's group order: "The median result for all the players's checks is compared
  to the median result for all the monsters' checks. The group with the higher median score
  takes their turns first."
"""

from __future__ import annotations

import statistics

from battlemap.model.combat import Combatant, CombatState
from battlemap.model.creature import Creature
from battlemap.rules.combat_ops import stats_of
from battlemap.rules.enums import InitiativeTieBreak
from battlemap.rules.schema import Ruleset


def tiebreak_of(creature: Creature, ruleset: Ruleset) -> tuple[int, ...]:
    """The sort keys after the total that the ruleset derives from the creature itself
    (``dex-score``: its Dexterity score); ``()`` for the rules that decide ties otherwise."""
    if ruleset.initiative.tie_break is InitiativeTieBreak.DEX_SCORE:
        return (stats_of(creature).score("dex"),)
    return ()


def earns_extra_turn(ruleset: Ruleset, natural: int | None) -> bool:
    """A natural 20 on the initiative die earns the extra turn where the ruleset says so."""
    return ruleset.initiative.natural_20_extra_turn and natural == 20


def placed(
    combatant: Combatant, creature: Creature, ruleset: Ruleset, total: int, natural: int | None
) -> Combatant:
    """``combatant`` with initiative ``total``: its tie-break and extra turn as the ruleset
    gives them, the same for a rolled total and a typed one."""
    return combatant.model_copy(
        update={
            "initiative": total,
            "initiative_tiebreak": tiebreak_of(creature, ruleset),
            "extra_turn": earns_extra_turn(ruleset, natural),
        }
    )


def group_medians(state: CombatState) -> dict[str, float]:
    """Each initiative group's median total over its members that have one (the mean of the
    middle two for an even count); groups where nobody has a total yet are left out."""
    totals: dict[str, list[int]] = {}
    for combatant in state.combatants:
        if combatant.initiative is not None:
            totals.setdefault(combatant.group, []).append(combatant.initiative)
    return {group: float(statistics.median(values)) for group, values in totals.items()}


def ranked_groups(state: CombatState) -> tuple[tuple[str, ...], list[float]]:
    """The groups highest median first, and the medians shared by two or more groups.

    Tied groups and groups with no total keep their place in the present ``group_order``
    (the outcome of an earlier reroll, or the DM's order), then the order they joined in;
    a group where nobody has a total yet is not ranked (it acts after the ranked ones)."""
    medians = group_medians(state)
    groups = list(dict.fromkeys((*state.group_order, *(c.group for c in state.combatants))))
    ranked = sorted((g for g in groups if g in medians), key=lambda g: -medians[g])
    values = list(medians.values())
    ties = sorted({v for v in values if values.count(v) > 1}, reverse=True)
    return tuple(ranked), ties
