"""The roster file under fuzz: real-looking seeds to mutate and a structured strategy.

Seeds are characters as the party form makes them (a sheet, attacks, Extra Attack), written
by the app's own ``roster_bytes``; the strategy builds roster documents field by field with
hostile values now and then (``strategies``' helpers).
"""

from __future__ import annotations

import functools
import json

from hypothesis import strategies as st

from battlemap.io.roster_file import roster_bytes
from battlemap.model.character import Skill
from battlemap.model.statblock import Ability, StatBlock
from tests.fuzz.seeds import Seed
from tests.fuzz.strategies import Json, integer, maybe, text
from tests.rules.characters import BRAKKA, VEX

_CHARACTERS = (
    BRAKKA,
    VEX,
    StatBlock(name="Old Ilsa", type="player character", saving_throws={Ability.WIS: 4}),
)


@functools.cache
def roster_seeds() -> tuple[Seed, ...]:
    """Each character alone, and the whole roster."""
    alone = [(roster_bytes([c]), 1.0) for c in _CHARACTERS]
    return (*alone, (roster_bytes(_CHARACTERS), 1.0))


_SKILLS = st.sampled_from([s.value for s in Skill])
_ABILITIES = st.sampled_from([a.value for a in Ability])


@st.composite
def _sheet(draw: st.DrawFn) -> Json:
    return {
        "save_proficiencies": draw(maybe(st.lists(_ABILITIES, max_size=6))),
        "skill_proficiencies": draw(maybe(st.lists(_SKILLS, max_size=6))),
        "expertise": draw(maybe(st.lists(_SKILLS, max_size=3))),
        "action_surge_uses": draw(integer(0, 2)),
        "cunning_action": draw(maybe(st.booleans())),
    }


@st.composite
def _character(draw: st.DrawFn) -> Json:
    base = json.loads(roster_bytes([draw(st.sampled_from(_CHARACTERS))]))["characters"][0]
    base.update(
        {
            "name": draw(text(20)),
            "level": draw(maybe(integer(1, 20))),
            "attacks_per_action": draw(integer(1, 4)),
            "hit_points": draw(integer(1, 300)),
            "character": draw(maybe(_sheet())),
        }
    )
    return base


@st.composite
def _roster(draw: st.DrawFn) -> Json:
    return {
        "format": draw(maybe(st.just("battlemap-roster"))),
        "format_version": draw(maybe(integer(1, 1))),
        "characters": draw(maybe(st.lists(_character(), max_size=4))),
    }


roster_files = _roster().map(lambda value: json.dumps(value, allow_nan=True).encode())
