"""Builders for attack/damage/death tests: an encounter with creatures and a running combat."""

from __future__ import annotations

from battlemap.model.combat import ActiveCondition, Combatant, CombatState, TurnSlot
from battlemap.model.creature import CombatStats, Creature, Side
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.dice import new_dice_state


def creature(
    cid: str,
    *,
    hp: int = 20,
    max_hp: int | None = None,
    temp_hp: int = 0,
    ac: int = 12,
    side: Side = Side.PARTY,
    x: float = 0,
    y: float = 0,
    dex: int = 10,
    strength: int = 10,
    reach: int = 5,
) -> Creature:
    return Creature(
        id=EntityId(cid),
        name=cid.capitalize(),
        hp=hp,
        max_hp=hp if max_hp is None else max_hp,
        temp_hp=temp_hp,
        ac=ac,
        side=side,
        x=x,
        y=y,
        reach=reach,
        stats=CombatStats(dexterity=dex, strength=strength),
    )


def encounter_of(*creatures: Creature, ruleset: str = "srd-5e") -> Encounter:
    return Encounter(ruleset=ruleset, creatures=tuple(creatures))


def combat_of(
    encounter: Encounter,
    *,
    seed: int = 7,
    started: bool = True,
    conditions: dict[str, tuple[str, ...]] | None = None,
) -> CombatState:
    conditions = conditions or {}
    combatants = tuple(
        Combatant(
            creature_id=c.id,
            group=c.side.value,
            initiative=20 - i,
            conditions=tuple(ActiveCondition(name=n) for n in conditions.get(str(c.id), ())),
        )
        for i, c in enumerate(encounter.creatures)
    )
    return CombatState(
        ruleset=encounter.ruleset,
        round=1 if started else 0,
        order=tuple(TurnSlot(creature_id=c.id) for c in encounter.creatures),
        combatants=combatants,
        dice=new_dice_state(seed),
    )


def fight(
    *creatures: Creature, ruleset: str = "srd-5e", **kwargs: object
) -> tuple[Encounter, CombatState]:
    encounter = encounter_of(*creatures, ruleset=ruleset)
    return encounter, combat_of(encounter, **kwargs)  # type: ignore[arg-type]
