"""Death saves at the start of a turn, the Brink of Death pause and Last Breath's end."""

from __future__ import annotations

import pytest

from battlemap.model.combat import DeathState
from battlemap.model.creature import Side
from battlemap.model.ids import EntityId
from battlemap.rules.death import brink_choice
from battlemap.rules.enums import BrinkOption
from battlemap.rules.errors import IllegalActionError
from battlemap.rules.outcome import with_combat
from battlemap.rules.schema import Ruleset
from battlemap.rules.turn_steps import next_turn
from tests.rules.fighters import creature, fight


def test_a_dying_creature_saves_at_the_start_of_its_turn(rulesets: dict[str, Ruleset]) -> None:
    srd = rulesets["srd-5e"]
    encounter, combat = fight(
        creature("orc", side=Side.HOSTILE),
        creature("pc", hp=0, max_hp=20),
        conditions={"pc": ("unconscious",)},
    )
    step = next_turn(with_combat(encounter, combat), srd, death_save_d20=20)
    assert (step.result.ended, step.result.started) == ("orc", "pc")
    assert step.result.death_save is not None and step.result.death_save.regained_hp
    assert step.encounter.creature(EntityId("pc")).hp == 1
    healthy = next_turn(with_combat(step.encounter, step.combat), srd)
    assert healthy.result.death_save is None


def test_brink_of_death_pauses_initiative_and_last_breath_ends_in_death(
    rulesets: dict[str, Ruleset],
) -> None:
    bb = rulesets["bloodied-brink"]
    encounter, combat = fight(
        creature("pc", hp=0, max_hp=20),
        creature("orc", side=Side.HOSTILE),
        ruleset="bloodied-brink",
        conditions={"pc": ("unconscious",)},
    )
    pc = combat.combatant(EntityId("pc"))
    combat = combat.with_combatant(pc.model_copy(update={"death": DeathState(brink=True)}))
    with pytest.raises(IllegalActionError, match="paused"):
        next_turn(with_combat(encounter, combat), bb)
    breath = brink_choice(
        with_combat(encounter, combat), bb, EntityId("pc"), BrinkOption.LAST_BREATH
    )
    assert breath.combat is not None
    step = next_turn(with_combat(breath.encounter, breath.combat), bb)
    assert step.result.last_breath_died
    assert step.combat is not None and step.combat.combatant(EntityId("pc")).death.dead
    assert step.combat.combatant(EntityId("pc")).death.revival == "never"
