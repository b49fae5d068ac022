"""The srd-5e room the move tests play on (Qt-free: the rules tests and the UI tests share it)."""

from __future__ import annotations

from battlemap.model import Creature, Encounter, Grid, Side
from battlemap.model.combat import CombatState
from battlemap.model.features import TerrainKind, TerrainRegion, Wall
from battlemap.model.ids import EntityId
from battlemap.model.statblock import Attack, AttackKind, Damage, StatBlock
from battlemap.rules.initiative import set_initiative, start_combat
from battlemap.rules.loader import load_registry
from battlemap.rules.outcome import with_combat
from battlemap.rules.turns import begin_combat
from tests.rules.helpers import state_and_events

GOBLIN_BLOCK = StatBlock(
    name="Goblin",
    type="humanoid",
    armor_class=15,
    hit_points=7,
    attacks=(
        Attack(
            name="Scimitar",
            kind=AttackKind.MELEE,
            to_hit=4,
            reach=5,
            damage=(Damage(dice="1d6+2", type="slashing"),),
        ),
    ),
)


def room() -> Encounter:
    """A 14 x 10 map: a wall from (6, 0) to (6, 5); mud (difficult) over cells x 3..4, y 5..6;
    the Fighter at (2, 2), a Goblin at (2, 8) and the Cleric far off at (12, 8)."""
    creatures = (
        Creature(id="c-fighter", name="Fighter", side=Side.PARTY, x=2, y=2, hp=30, max_hp=30),
        Creature(
            id="c-goblin",
            name="Goblin",
            side=Side.HOSTILE,
            x=2,
            y=8,
            hp=7,
            max_hp=7,
            ac=15,
            statblock=GOBLIN_BLOCK,
        ),
        Creature(id="c-cleric", name="Cleric", side=Side.PARTY, x=12, y=8, hp=20, max_hp=20),
    )
    return Encounter(
        grid=Grid(width=14, height=10),
        creatures=creatures,
        walls=(Wall(id=EntityId("w-1"), a=(6, 0), b=(6, 5)),),
        terrain=(
            TerrainRegion(
                id=EntityId("mud"),
                kind=TerrainKind.DIFFICULT,
                points=[(3, 5), (5, 5), (5, 7), (3, 7)],
            ),
        ),
    )


def fighting(encounter: Encounter, first: str = "c-fighter") -> CombatState:
    """A started srd-5e combat of every creature in which ``first`` acts first."""
    ruleset = load_registry().get(encounter.ruleset)
    state = start_combat(encounter, encounter.ruleset, 11)
    for value, creature in enumerate(encounter.creatures):
        bonus = 50 if creature.id == first else value
        state, _ = state_and_events(
            set_initiative(with_combat(encounter, state), ruleset, creature.id, bonus)
        )
    state, _ = state_and_events(begin_combat(with_combat(encounter, state), ruleset))
    return state


def goblin_beside_fighter() -> Encounter:
    """``room()`` in combat on the Fighter's turn, the Goblin moved to (3, 3) beside the
    Fighter: dragging the Fighter from (2, 2) to (5, 2) provokes at step 3, from (4, 2)."""
    encounter = room()
    goblin = encounter.creature(EntityId("c-goblin")).model_copy(update={"x": 3, "y": 3})
    encounter = encounter.replace_creature(goblin)
    return encounter.model_copy(update={"combat": fighting(encounter)})
