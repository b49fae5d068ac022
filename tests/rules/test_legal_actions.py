"""The legal-actions query: every choice of a creature now, allowed or refused with the reason,
and the engine agrees with it when the choice is taken."""

from __future__ import annotations

import pytest

from battlemap.model.combat import CombatState, DeathState
from battlemap.model.creature import Side, Speeds
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules import economy
from battlemap.rules.damage import DamageInstance, apply_damage
from battlemap.rules.errors import IllegalActionError, InvalidRequestError
from battlemap.rules.legal import ChoiceKind, LegalActions, legal_actions
from battlemap.rules.outcome import with_combat
from battlemap.rules.schema import Ruleset
from tests.rules.conftest import RULESET_IDS
from tests.rules.fighters import creature, fight
from tests.rules.helpers import state_and_events

PC, ORC = EntityId("pc"), EntityId("orc")


def _query(encounter: Encounter, combat: CombatState, ruleset: Ruleset, who: str) -> LegalActions:
    return legal_actions(with_combat(encounter, combat), ruleset, EntityId(who))


def _pc_first(ruleset_id: str) -> tuple[Encounter, CombatState]:
    return fight(creature("pc"), creature("orc", side=Side.HOSTILE), ruleset=ruleset_id)


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_a_dead_creature_may_do_nothing_and_every_choice_says_so(
    rulesets: dict[str, Ruleset], ruleset_id: str
) -> None:
    encounter, combat = _pc_first(ruleset_id)
    pc = combat.combatant(PC)
    combat = combat.with_combatant(pc.model_copy(update={"death": DeathState(dead=True)}))
    legal = _query(encounter, combat, rulesets[ruleset_id], "pc")
    assert legal.allowed() == ()
    assert {c.reason for c in legal.choices} == {"Pc is dead"}
    assert len(legal.choices) == len(rulesets[ruleset_id].actions) + 2  # + walk + death save
    with pytest.raises(IllegalActionError, match="Pc is dead"):
        state_and_events(
            economy.take_action(with_combat(encounter, combat), rulesets[ruleset_id], PC, "dash")
        )


def test_a_dying_pc_may_only_make_its_death_save(rulesets: dict[str, Ruleset]) -> None:
    srd = rulesets["srd-5e"]
    encounter, combat = _pc_first("srd-5e")
    down = apply_damage(with_combat(encounter, combat), srd, PC, [DamageInstance(20, "fire")])
    assert down.encounter.creature(PC).hp == 0 and down.combat is not None
    legal = legal_actions(down.encounter, srd, PC)
    assert [(c.kind, c.id) for c in legal.allowed()] == [(ChoiceKind.DEATH_SAVE, "death-save")]
    assert "incapacitated (unconscious" in (legal.action("dash").reason or "")
    assert "speed is 0" in (legal.choice(ChoiceKind.MOVE, "walk").reason or "")
    healthy = _query(encounter, combat, srd, "pc")
    assert healthy.choice(ChoiceKind.DEATH_SAVE, "death-save").reason == "Pc is not dying"


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_a_spent_action_refuses_every_other_action_but_not_the_move(
    rulesets: dict[str, Ruleset], ruleset_id: str
) -> None:
    ruleset = rulesets[ruleset_id]
    encounter, combat = _pc_first(ruleset_id)
    combat, _ = state_and_events(
        economy.take_action(with_combat(encounter, combat), ruleset, PC, "dodge")
    )
    legal = _query(encounter, combat, ruleset, "pc")
    actions = [c for c in legal.choices if c.kind is ChoiceKind.ACTION]
    assert actions and all(c.reason == "Pc has already used its action this turn" for c in actions)
    assert legal.choice(ChoiceKind.MOVE, "walk").allowed


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_reactions_come_off_turn_and_go_once_used(
    rulesets: dict[str, Ruleset], ruleset_id: str
) -> None:
    ruleset = rulesets[ruleset_id]
    encounter, combat = _pc_first(ruleset_id)
    orc = _query(encounter, combat, ruleset, "orc")
    reactions = [c for c in orc.choices if c.kind is ChoiceKind.REACTION]
    others = [c for c in orc.choices if c.kind in (ChoiceKind.ACTION, ChoiceKind.BONUS_ACTION)]
    assert all(c.reason == "it isn't Orc's turn" for c in others)
    if ruleset.economy.reactions_per_round == 0:
        assert all("no reactions" in (c.reason or "") for c in reactions)
        return
    assert any(c.allowed for c in reactions)
    for _ in range(ruleset.economy.reactions_per_round):
        combat, _ = state_and_events(
            economy.use_reaction(with_combat(encounter, combat), ruleset, ORC, "a test")
        )
    spent = _query(encounter, combat, ruleset, "orc")
    reasons = {c.id: c.reason for c in spent.choices if c.kind is ChoiceKind.REACTION}
    assert reasons.pop("readied-release", None) in (None, "Orc has nothing readied")
    assert reasons and all("already used its reaction" in (r or "") for r in reasons.values())


def test_movement_modes_follow_the_speeds_and_prone_only_crawls(
    rulesets: dict[str, Ruleset],
) -> None:
    srd = rulesets["srd-5e"]
    flier = creature("pc").model_copy(update={"speeds": Speeds(walk=30, fly=60)})
    encounter, combat = fight(
        flier, creature("orc", side=Side.HOSTILE), conditions={"pc": ("prone",)}
    )
    legal = _query(encounter, combat, srd, "pc")
    moves = {c.id: c.reason for c in legal.choices if c.kind is ChoiceKind.MOVE}
    assert moves == {"walk": None, "fly": "Pc is prone: it can only crawl or stand up"}


def test_an_absent_creature_is_a_typed_refusal_not_a_key_error(
    rulesets: dict[str, Ruleset],
) -> None:
    encounter, combat = _pc_first("srd-5e")
    with pytest.raises(InvalidRequestError, match="not in this combat"):
        _query(encounter, combat, rulesets["srd-5e"], "ghost")
    with pytest.raises(InvalidRequestError, match="No combat is running"):
        legal_actions(encounter, rulesets["srd-5e"], PC)


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_the_engine_takes_exactly_the_actions_the_query_allows(
    rulesets: dict[str, Ruleset], ruleset_id: str
) -> None:
    """Each action without a target or trigger, from three states (fresh, after Dodge, off
    turn): allowed ones are accepted, refused ones raise with the same reason."""
    ruleset = rulesets[ruleset_id]
    encounter, fresh = _pc_first(ruleset_id)
    dodged, _ = state_and_events(
        economy.take_action(with_combat(encounter, fresh), ruleset, PC, "dodge")
    )
    checked = 0
    for combat, who in ((fresh, PC), (dodged, PC), (fresh, ORC)):
        legal = _query(encounter, combat, ruleset, who)
        for choice in legal.choices:
            action = ruleset.actions.get(choice.id)
            if action is None or action.needs_target or choice.kind is ChoiceKind.MOVE:
                continue
            if action.kind.value in ("ready", "cast-spell", "attack"):
                continue  # need a trigger, a spell level, or continue an Attack action
            bonus = choice.kind is ChoiceKind.BONUS_ACTION and action.cost.value != "bonus-action"
            checked += 1
            if choice.allowed:
                state_and_events(
                    economy.take_action(
                        with_combat(encounter, combat),
                        ruleset,
                        who,
                        choice.id,
                        as_bonus_action=bonus,
                    )
                )
            else:
                with pytest.raises(IllegalActionError) as refused:
                    state_and_events(
                        economy.take_action(
                            with_combat(encounter, combat),
                            ruleset,
                            who,
                            choice.id,
                            as_bonus_action=bonus,
                        )
                    )
                assert refused.value.reason == choice.reason
    assert checked >= 3 * 5  # dash, disengage, dodge, hide, search at least
