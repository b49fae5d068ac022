"""Rulesets and the turn engine: loading all rulesets, rolling dice, playing rounds."""

from __future__ import annotations

from collections.abc import Callable

Case = tuple[str, Callable[[], Callable[[], object] | None]]


def _load_rulesets() -> Callable[[], object]:
    from battlemap.rules.loader import load_registry

    def run() -> object:
        registry = load_registry()
        return [registry.get(i) for i in registry.ids()]

    return run


def _dice(count: int) -> Callable[[], object]:
    from battlemap.rules.dice import new_dice_state, roll

    def run() -> object:
        state = new_dice_state(1)
        for _ in range(count):
            state, _ = roll(state, "1d20+5")
        return state

    return run


def _rounds(creatures: int, rounds: int) -> Callable[[], object]:
    from battlemap.model.creature import Creature, Side
    from battlemap.model.encounter import Encounter
    from battlemap.rules.economy import take_action
    from battlemap.rules.initiative import roll_initiative, start_combat
    from battlemap.rules.loader import load_registry
    from battlemap.rules.movement import spend_movement
    from battlemap.rules.outcome import running_combat, with_combat
    from battlemap.rules.turns import begin_combat, end_turn

    ruleset = load_registry().get("srd-5e")
    side = (Side.PARTY, Side.HOSTILE)
    enc = Encounter(
        creatures=tuple(Creature(name=f"C{i}", side=side[i % 2]) for i in range(creatures))
    )

    def run() -> object:
        fight = with_combat(enc, start_combat(enc, "srd-5e", 7))
        fight = roll_initiative(fight, ruleset).encounter
        fight = begin_combat(fight, ruleset).encounter
        for _ in range(rounds * creatures):
            current = running_combat(fight).current
            assert current is not None
            fight = take_action(fight, ruleset, current.creature_id, "dash").encounter
            fight = spend_movement(fight, ruleset, current.creature_id, 40).encounter
            fight = end_turn(fight, ruleset).encounter
        return fight

    return run


def cases() -> list[Case]:
    return [
        ("rules: load and validate the 5 shipped rulesets", _load_rulesets),
        ("rules: 1000 dice rolls (1d20+5)", lambda: _dice(1000)),
        ("rules: 10 rounds x 8 creatures (dash, move, end turn)", lambda: _rounds(8, 10)),
        ("rules: 3 rounds x 40 creatures (dash, move, end turn)", lambda: _rounds(40, 3)),
    ]
