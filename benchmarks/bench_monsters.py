"""Monsters from their stat blocks: a dragon's rounds (turn changes with recharge rolls and
legendary actions at the end of the heroes' turns, the breath weapon), the legal-actions
query of a Multiattack creature, and the decision card's query (``pending_decisions``) with a
legendary creature at a turn's end and saves due."""

from __future__ import annotations

from collections.abc import Callable

Case = tuple[str, Callable[[], Callable[[], object] | None]]


def _dragon_rounds(heroes: int, rounds: int) -> Callable[[], object]:
    from battlemap.io.monsters import creature_from_statblock, load_library
    from battlemap.model.creature import Creature, Side
    from battlemap.model.encounter import Encounter
    from battlemap.model.ids import EntityId
    from battlemap.resources import asset_path
    from battlemap.rules.initiative import roll_initiative, start_combat
    from battlemap.rules.legendary import (
        end_of_turn,
        legendary_status,
        next_turn,
        take_legendary_action,
    )
    from battlemap.rules.limited_actions import save_action_refusal, use_save_action
    from battlemap.rules.loader import load_registry
    from battlemap.rules.outcome import running_combat, with_combat
    from battlemap.rules.turns import begin_combat

    ruleset = load_registry().get("srd-5e")
    blocks = {b.name: b for b in load_library(asset_path("srd-monsters.json")).monsters}
    dragon = creature_from_statblock(blocks["Adult Red Dragon"]).model_copy(
        update={"id": EntityId("dragon")}
    )
    party = tuple(Creature(name=f"Hero {i}", side=Side.PARTY, hp=500) for i in range(heroes))
    enc = Encounter(creatures=(dragon, *party))

    def run() -> object:
        fight = with_combat(enc, start_combat(enc, "srd-5e", 7))
        fight = roll_initiative(fight, ruleset).encounter
        fight = begin_combat(fight, ruleset).encounter
        for _ in range(rounds * (heroes + 1)):
            current = running_combat(fight).current
            assert current is not None
            if current.creature_id == dragon.id:
                if save_action_refusal(fight, ruleset, dragon.id, "Fire Breath") is None:
                    fight = use_save_action(fight, ruleset, dragon.id, "Fire Breath").encounter
            else:
                fight = end_of_turn(fight, ruleset).encounter  # the legendary moment
                status = legendary_status(fight, ruleset, dragon.id)
                if status is not None and status.left:
                    action = "Tail Attack"
                    fight = take_legendary_action(fight, ruleset, dragon.id, action).encounter
            fight = next_turn(fight, ruleset).encounter
        return fight

    return run


def _multiattack_query(times: int) -> Callable[[], object]:
    from battlemap.io.monsters import creature_from_statblock, load_library
    from battlemap.model.creature import Creature, Side
    from battlemap.model.encounter import Encounter
    from battlemap.resources import asset_path
    from battlemap.rules.initiative import roll_initiative, start_combat
    from battlemap.rules.legal import legal_actions
    from battlemap.rules.loader import load_registry
    from battlemap.rules.outcome import running_combat, with_combat
    from battlemap.rules.turns import begin_combat

    ruleset = load_registry().get("srd-5e")
    blocks = {b.name: b for b in load_library(asset_path("srd-monsters.json")).monsters}
    captain = creature_from_statblock(blocks["Bandit Captain"])
    enc = Encounter(creatures=(captain, Creature(name="Hero", side=Side.PARTY)))
    fight = with_combat(enc, start_combat(enc, "srd-5e", 7))
    fight = begin_combat(roll_initiative(fight, ruleset).encounter, ruleset).encounter
    current = running_combat(fight).current
    assert current is not None

    def run() -> object:
        return [legal_actions(fight, ruleset, current.creature_id) for _ in range(times)]

    return run


def _decisions_query(heroes: int, times: int) -> Callable[[], object]:
    from battlemap.io.monsters import creature_from_statblock, load_library
    from battlemap.model.creature import Creature, Side
    from battlemap.model.encounter import Encounter
    from battlemap.model.ids import EntityId
    from battlemap.resources import asset_path
    from battlemap.rules.concentration import concentrate
    from battlemap.rules.damage import DamageInstance, apply_damage
    from battlemap.rules.initiative import roll_initiative, start_combat
    from battlemap.rules.legendary import end_of_turn, legendary_pause_due
    from battlemap.rules.loader import load_registry
    from battlemap.rules.outcome import running_combat, with_combat
    from battlemap.rules.pending import pending_decisions
    from battlemap.rules.turns import begin_combat

    ruleset = load_registry().get("srd-5e")
    blocks = {b.name: b for b in load_library(asset_path("srd-monsters.json")).monsters}
    dragon = creature_from_statblock(blocks["Adult Red Dragon"]).model_copy(
        update={"id": EntityId("dragon")}
    )
    party = tuple(Creature(name=f"Hero {i}", side=Side.PARTY, hp=500) for i in range(heroes))
    enc = Encounter(creatures=(dragon, *party))
    fight = with_combat(enc, start_combat(enc, "srd-5e", 7))
    fight = begin_combat(roll_initiative(fight, ruleset).encounter, ruleset).encounter
    current = running_combat(fight).current
    assert current is not None
    caster = next(c.id for c in party if c.id != current.creature_id)
    fight = concentrate(fight, ruleset, caster, "Bless").encounter
    fight = apply_damage(fight, ruleset, caster, [DamageInstance(4, "fire")]).encounter
    if current.creature_id != dragon.id:
        fight = end_of_turn(fight, ruleset).encounter

    def run() -> object:
        return [
            (pending_decisions(fight, ruleset), legendary_pause_due(fight, ruleset))
            for _ in range(times)
        ]

    return run


def cases() -> list[Case]:
    return [
        (
            "monsters: 10 rounds, dragon + 4 heroes (breath, legendary)",
            lambda: _dragon_rounds(4, 10),
        ),
        (
            "monsters: 100 legal-actions queries (Multiattack creature)",
            lambda: _multiattack_query(100),
        ),
        (
            "monsters: 100 decision-card queries, dragon + 20 heroes, a save due",
            lambda: _decisions_query(20, 100),
        ),
    ]
