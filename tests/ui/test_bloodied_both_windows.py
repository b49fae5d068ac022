"""One bloodied reading for both windows (``rules.vitals.looks_bloodied``): the DM's token ring
and the players' window agree under every ruleset, HP and lowered maximum.

The rules documents decide (rules-sources README, "Bloodied"): only bloodied-brink has the
state, "half your Hit Points or fewer"; srd-5e has none, so neither window shows it there.
"""

from __future__ import annotations

import pytest

from battlemap.model import Creature, Encounter, Grid, Side
from battlemap.model.combat import Combatant, CombatState, DeathState, TurnSlot
from battlemap.model.ids import EntityId
from battlemap.rules.dice import new_dice_state
from battlemap.rules.loader import load_registry
from battlemap.ui.combat.session import combat_facts
from battlemap.ui.players.projection import HealthState, project
from battlemap.ui.token_state import token_states

REGISTRY = load_registry()
ORC = EntityId("orc")


def fighting_orc(hp: int, drained: int, ruleset_id: str) -> Encounter:
    orc = Creature(id=ORC, name="Orc", side=Side.HOSTILE, x=1, y=1, hp=hp, max_hp=20)
    combat = CombatState(
        ruleset=ruleset_id,
        round=1,
        dice=new_dice_state(1),
        order=(TurnSlot(creature_id=ORC),),
        combatants=(
            Combatant(creature_id=ORC, group="", death=DeathState(hp_max_reduction=drained)),
        ),
    )
    return Encounter(grid=Grid(width=6, height=6), creatures=(orc,), ruleset=ruleset_id).model_copy(
        update={"combat": combat}
    )


def readings(encounter: Encounter, ruleset_id: str) -> tuple[bool, bool]:
    """(the DM's token ring, the players' window) for the orc."""
    ruleset = REGISTRY.get(ruleset_id)
    dm = token_states(encounter, ruleset)[ORC].bloodied
    view = project(encounter, None, combat_facts(encounter, ruleset), ruleset)
    players = next(t for t in view.tokens if t.key == ORC).health is HealthState.BLOODIED
    return dm, players


@pytest.mark.parametrize(
    ("ruleset_id", "bloodied_at"),
    [
        ("bloodied-brink", {(hp, d) for d in (0, 10) for hp in range(1, (20 - d) // 2 + 1)}),
        ("srd-5e", set()),
    ],
)
def test_both_windows_read_bloodied_the_same(
    ruleset_id: str, bloodied_at: set[tuple[int, int]]
) -> None:
    checked = 0
    for drained in (0, 10):  # a life drain lowers the maximum to 10: half is 5
        for hp in range(0, 21 - drained):
            dm, players = readings(fighting_orc(hp, drained, ruleset_id), ruleset_id)
            assert dm == players, (ruleset_id, hp, drained)
            assert dm == ((hp, drained) in bloodied_at), (ruleset_id, hp, drained)
            checked += 1
    assert checked == 21 + 11
