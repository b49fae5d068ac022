"""The players' projection (issue 18's filters): 200 creatures on a 100 x 100 map in a combat.

A fifth of the creatures hide or are invisible, every third is on the party's side; the fog is
manual with the whole map revealed, so every creature is asked about. The projection runs
after every change of the encounter, before the players' scene is drawn.
"""

from __future__ import annotations

from collections.abc import Callable

Case = tuple[str, Callable[[], Callable[[], object] | None]]

MAP_CELLS = 100
CREATURES = 200


def describe() -> str:
    return f"players bench: {CREATURES} creatures on {MAP_CELLS} x {MAP_CELLS} cells, in a combat"


def _projection(unseen_every: int) -> Callable[[], object]:
    from battlemap.model import Creature, Encounter, EntityId, Grid, Side
    from battlemap.model.fog import FogMode, FogOfWar
    from battlemap.ui.players.projection import CombatFacts, project

    sides = (Side.PARTY, Side.HOSTILE, Side.NEUTRAL)
    creatures = tuple(
        Creature(
            id=EntityId(f"c{i}"),
            name=f"Creature {i}",
            side=sides[i % 3],
            x=(i * 7) % MAP_CELLS,
            y=(i * 13) % MAP_CELLS,
        )
        for i in range(CREATURES)
    )
    every = frozenset((c, r) for c in range(MAP_CELLS) for r in range(MAP_CELLS))
    encounter = Encounter(
        grid=Grid(width=MAP_CELLS, height=MAP_CELLS),
        creatures=creatures,
        fog=FogOfWar(mode=FogMode.MANUAL, revealed=every),
    )
    ids = tuple(c.id for c in creatures)
    combat = CombatFacts(
        round=2,
        order=ids,
        acting=ids[5],
        conditions={cid: () for cid in ids},
        unseen=frozenset(ids[::unseen_every]),
    )
    return lambda: project(encounter, None, combat)


def cases() -> list[Case]:
    return [
        ("players: projection, 200 creatures, 40 unseen", lambda: _projection(5)),
        ("players: projection, 200 creatures, all unseen", lambda: _projection(1)),
    ]
