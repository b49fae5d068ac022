"""The attack-and-damage engine: attacks with damage, damage entry, the geometry situation."""

from __future__ import annotations

from collections.abc import Callable

from battlemap.rules.outcome import with_combat

Case = tuple[str, Callable[[], Callable[[], object] | None]]


def _fight(creatures: int):  # type: ignore[no-untyped-def]
    from battlemap.model.combat import Combatant, CombatState, TurnSlot
    from battlemap.model.creature import Creature, Side
    from battlemap.model.encounter import Encounter
    from battlemap.rules.dice import new_dice_state

    side = (Side.PARTY, Side.HOSTILE)
    encounter = Encounter(
        creatures=tuple(
            Creature(
                id=f"c{i}",
                name=f"C{i}",
                side=side[i % 2],
                x=i % 20,
                y=i // 20,
                hp=10_000,
                max_hp=10_000,
            )
            for i in range(creatures)
        )
    )
    combat = CombatState(
        ruleset="srd-5e",
        round=1,
        order=tuple(TurnSlot(creature_id=c.id) for c in encounter.creatures),
        combatants=tuple(
            Combatant(creature_id=c.id, group=c.side.value) for c in encounter.creatures
        ),
        dice=new_dice_state(3),
    )
    return encounter, combat


def _attacks(creatures: int, count: int) -> Callable[[], object]:
    from battlemap.rules.attacks import AttackOptions, AttackProfile, make_attack
    from battlemap.rules.damage import DamageRoll
    from battlemap.rules.loader import load_registry

    ruleset = load_registry().get("srd-5e")
    encounter, combat = _fight(creatures)
    sword = AttackProfile("Longsword", 5, damage=(DamageRoll("1d8+3", "slashing"),))
    options = AttackOptions(action_id=None)

    def run() -> object:
        enc, state = encounter, combat
        for _ in range(count):
            applied = make_attack(
                with_combat(enc, state), ruleset, "c0", "c1", sword, options=options
            )
            enc, state = applied.encounter, applied.combat  # type: ignore[assignment]
        return state

    return run


def _situation(creatures: int) -> Callable[[], object]:
    from battlemap.geometry.map_index import MapIndex
    from battlemap.rules.attack_situation import attack_situation
    from battlemap.rules.attacks import AttackProfile, Delivery
    from battlemap.rules.loader import load_registry

    ruleset = load_registry().get("gms-den")
    encounter, combat = _fight(creatures)
    index = MapIndex.build(encounter)
    bow = AttackProfile("Longbow", 5, Delivery.RANGED, range_normal=150, range_long=600)

    def run() -> object:
        return attack_situation(index, encounter, combat, ruleset, "c0", "c5", bow)

    return run


def _situation_in_the_dark(creatures: int, lights: int) -> Callable[[], object]:
    """The situation on a dark map lit by ``lights`` torches among 40 wall segments: the
    light on both creatures is read for their sight (rules.sight_on_map)."""
    from battlemap.geometry.map_index import MapIndex
    from battlemap.model.features import Light, LightLevel, MapLighting, Wall
    from battlemap.rules.attack_situation import attack_situation
    from battlemap.rules.attacks import AttackProfile, Delivery
    from battlemap.rules.loader import load_registry

    ruleset = load_registry().get("gms-den")
    encounter, combat = _fight(creatures)
    walls = tuple(Wall(a=(4.0 * i + 2, 3.0), b=(4.0 * i + 2, 8.0)) for i in range(40))
    torches = tuple(
        Light(position=(float(3 * i % 40), float(2 + i % 9)), bright_cells=4, dim_cells=8)
        for i in range(lights)
    )
    encounter = encounter.model_copy(
        update={
            "grid": encounter.grid.model_copy(update={"width": 160, "height": 40}),
            "walls": walls,
            "lights": torches,
            "lighting": MapLighting(ambient=LightLevel.DARK),
        }
    )
    index = MapIndex.build(encounter)
    bow = AttackProfile("Longbow", 5, Delivery.RANGED, range_normal=150, range_long=600)

    def run() -> object:
        return attack_situation(index, encounter, combat, ruleset, "c0", "c5", bow)

    return run


def cases() -> list[Case]:
    return [
        ("attacks: 100 attacks with damage, 20 combatants", lambda: _attacks(20, 100)),
        ("attacks: 100 attacks with damage, 300 combatants", lambda: _attacks(300, 100)),
        ("attacks: geometry situation, 20 creatures", lambda: _situation(20)),
        ("attacks: geometry situation, 300 creatures", lambda: _situation(300)),
        (
            "attacks: situation on a dark map, 20 lights, 20 creatures",
            lambda: _situation_in_the_dark(20, 20),
        ),
    ]
