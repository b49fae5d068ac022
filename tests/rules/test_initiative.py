"""Surprise and initiative in every mode, per ruleset (rules-sources README rows 1-2)."""

from __future__ import annotations

import statistics

import pytest

from battlemap.model.combat import CombatState
from battlemap.model.creature import Side
from battlemap.model.ids import EntityId
from battlemap.rules.enums import InitiativeMode, InitiativeTieBreak
from battlemap.rules.errors import IllegalActionError, InvalidRequestError
from battlemap.rules.initiative import (
    determine_surprise,
    reorder,
    roll_initiative,
    set_initiative,
    start_combat,
)
from battlemap.rules.outcome import with_combat
from battlemap.rules.schema import Ruleset
from battlemap.rules.turns import begin_combat, end_turn
from tests.rules.helpers import creature, encounter, fight, state_and_events, whose_turn

Rulesets = dict[str, Ruleset]


def initiative_of(state: CombatState, name: str) -> int:
    initiative = state.combatant(EntityId(name)).initiative
    assert initiative is not None, f"{name} has no initiative"
    return initiative


def test_srd_surprise_per_creature_stealth_vs_passive_perception(rulesets: Rulesets) -> None:
    ruleset = rulesets["srd-5e"]
    enc = encounter(
        creature("Rogue", Side.PARTY, stealth=30),
        creature("Sharp", passive=50),
        creature("Dull", passive=1),
    )
    state = start_combat(enc, "srd-5e", 1)
    state, events = state_and_events(
        determine_surprise(with_combat(enc, state), ruleset, [EntityId("rogue")])
    )
    assert not state.combatant(EntityId("sharp")).surprised
    assert state.combatant(EntityId("dull")).surprised
    assert not state.combatant(EntityId("rogue")).surprised
    assert any(e.kind == "surprise" and "Dull" in e.text for e in events)
    stealth = state.rolls[0]
    assert stealth.expression == "1d20+30" and stealth.purpose == "Rogue Stealth"


def test_srd_nobody_surprised_when_one_threat_is_not_stealthy(rulesets: Rulesets) -> None:
    enc = encounter(
        creature("Rogue", Side.PARTY, stealth=30),
        creature("Fighter", Side.PARTY),
        creature("Dull", passive=1),
    )
    state = start_combat(enc, "srd-5e", 1)
    state, _ = state_and_events(
        determine_surprise(with_combat(enc, state), rulesets["srd-5e"], [EntityId("rogue")])
    )
    assert not any(c.surprised for c in state.combatants)


def test_gms_den_group_stealth_uses_the_average_roll(rulesets: Rulesets) -> None:
    enc = encounter(
        creature("Sneak", Side.PARTY, stealth=10),
        creature("Clank", Side.PARTY, stealth=-5),
        creature("Guard", passive=10),
    )
    state = start_combat(enc, "gms-den", 4)
    state, _ = state_and_events(
        determine_surprise(
            with_combat(enc, state), rulesets["gms-den"], [EntityId("sneak"), EntityId("clank")]
        )
    )
    first, second = (r.total for r in state.rolls)
    average = (first + second) // 2
    assert state.combatant(EntityId("sneak")).hidden_stealth == average
    assert state.combatant(EntityId("clank")).hidden_stealth == average
    assert state.combatant(EntityId("guard")).surprised == (average >= 10)


def test_surprise_only_before_the_first_round(rulesets: Rulesets) -> None:
    ruleset = rulesets["srd-5e"]
    enc = encounter(creature("A", Side.PARTY), creature("B"))
    state = fight(ruleset, enc)
    with pytest.raises(IllegalActionError, match="before the first round"):
        state_and_events(determine_surprise(with_combat(enc, state), ruleset, []))


def test_srd_individual_initiative_is_sorted_by_dex_check(rulesets: Rulesets) -> None:
    ruleset = rulesets["srd-5e"]
    enc = encounter(*(creature(f"C{i}", dex=8 + 2 * i) for i in range(6)))
    state = start_combat(enc, "srd-5e", 11)
    state, _ = state_and_events(roll_initiative(with_combat(enc, state), ruleset))
    totals = [initiative_of(state, str(s.creature_id)) for s in state.order]
    assert totals == sorted(totals, reverse=True)
    for record, c in zip(state.rolls, enc.creatures, strict=True):
        assert record.expression == f"1d20{(c.stats.dexterity - 10) // 2:+d}"  # type: ignore[union-attr]


def test_srd_identical_monsters_share_one_roll(rulesets: Rulesets) -> None:
    ruleset = rulesets["srd-5e"]
    goblins = [
        creature("Goblin", dex=14).model_copy(update={"id": EntityId(f"g{i}")}) for i in range(3)
    ]
    enc = encounter(creature("Hero", Side.PARTY), *goblins)
    state = start_combat(enc, "srd-5e", 2)
    state, _ = state_and_events(roll_initiative(with_combat(enc, state), ruleset))
    assert len(state.rolls) == 2 and "group of 3" in state.rolls[1].purpose
    values = {state.combatant(g.id).initiative for g in goblins}
    assert len(values) == 1
    positions = [i for i, s in enumerate(state.order) if s.creature_id in {g.id for g in goblins}]
    assert positions == list(range(positions[0], positions[0] + 3))


def test_gms_den_ties_go_to_the_higher_dex_score(rulesets: Rulesets) -> None:
    ruleset = rulesets["gms-den"]
    enc = encounter(creature("Slow", dex=10), creature("Quick", dex=11))
    state = start_combat(enc, "gms-den", 1)
    state, _ = state_and_events(roll_initiative(with_combat(enc, state), ruleset))
    state, _ = state_and_events(
        set_initiative(with_combat(enc, state), ruleset, EntityId("slow"), 12)
    )
    state, _ = state_and_events(
        set_initiative(with_combat(enc, state), ruleset, EntityId("quick"), 12)
    )
    assert [s.creature_id for s in state.order if not s.extra] == ["quick", "slow"]
    srd_state = start_combat(enc, "srd-5e", 1)
    srd_state, _ = state_and_events(
        roll_initiative(with_combat(enc, srd_state), rulesets["srd-5e"])
    )
    srd_state, _ = state_and_events(
        set_initiative(with_combat(enc, srd_state), rulesets["srd-5e"], EntityId("slow"), 12)
    )
    srd_state, _ = state_and_events(
        set_initiative(with_combat(enc, srd_state), rulesets["srd-5e"], EntityId("quick"), 12)
    )
    assert [s.creature_id for s in srd_state.order] == ["slow", "quick"]  # srd: DM order


def seed_with_natural_20(ruleset: Ruleset, enc: object) -> int:
    for seed in range(500):
        state = start_combat(enc, "gms-den", seed)  # type: ignore[arg-type]
        state, _ = state_and_events(roll_initiative(with_combat(enc, state), ruleset))  # type: ignore[arg-type]
        if any(r.natural == 20 for r in state.rolls):
            return seed
    raise AssertionError("no natural 20 in 500 seeds")


def test_gms_den_natural_20_grants_an_extra_turn_at_the_end_of_round_1(rulesets: Rulesets) -> None:
    ruleset = rulesets["gms-den"]
    enc = encounter(creature("A", Side.PARTY), creature("B"), creature("C"))
    state = fight(ruleset, enc, seed_with_natural_20(ruleset, enc))
    lucky = {r.purpose.removesuffix(" initiative") for r in state.rolls if r.natural == 20}
    extras = [s for s in state.order if s.extra]
    assert {enc.creature(s.creature_id).name for s in extras} == lucky
    assert state.order[-len(extras) :] == tuple(extras)
    seen = []
    for _ in range(len(state.order)):
        seen.append(whose_turn(state))
        state, _ = state_and_events(end_turn(with_combat(enc, state), ruleset))
    assert state.round == 2 and not any(s.extra for s in state.order)
    assert len(seen) == 3 + len(extras)


def test_srd_has_no_natural_20_extra_turn(rulesets: Rulesets) -> None:
    ruleset = rulesets["srd-5e"]
    enc = encounter(creature("A", Side.PARTY), creature("B"), creature("C"))
    for seed in range(60):
        state = fight(ruleset, enc, seed)
        assert not any(s.extra for s in state.order)


def test_hyrule_group_initiative_uses_each_sides_median_wisdom(rulesets: Rulesets) -> None:
    ruleset = rulesets["legends-of-hyrule"]
    enc = encounter(
        creature("Link", Side.PARTY, wis=14),
        creature("Zelda", Side.PARTY, wis=18),
        creature("Mipha", Side.PARTY, wis=12),
        creature("Bokoblin 1", wis=6),
        creature("Bokoblin 2", wis=6),
    )
    state = start_combat(enc, "legends-of-hyrule", 8)
    state, events = state_and_events(roll_initiative(with_combat(enc, state), ruleset))
    assert state.rolls[0].expression == "1d20+2"  # Wisdom, not Dexterity
    final = {}
    for side in ("party", "hostile"):
        members = [c.creature_id for c in state.combatants if c.group == f"side:{side}"]
        final[side] = statistics.median(initiative_of(state, cid) for cid in members)
    first_group = state.group_order[0].removeprefix("side:")
    assert final[first_group] > min(final.values())
    groups = [state.combatant(s.creature_id).group for s in state.order]
    assert groups == sorted(groups, key=state.group_order.index)  # each side acts together
    assert any("median" in e.text for e in events)


def test_hyrule_tied_medians_reroll(rulesets: Rulesets) -> None:
    ruleset = rulesets["legends-of-hyrule"]
    enc = encounter(creature("Link", Side.PARTY), creature("Moblin"))
    for seed in range(300):
        state = start_combat(enc, "legends-of-hyrule", seed)
        state, events = state_and_events(roll_initiative(with_combat(enc, state), ruleset))
        if any("reroll" in e.text for e in events):
            break
    else:
        raise AssertionError("no tie in 300 seeds")
    assert len(state.rolls) >= 4
    last_two = [r.total for r in state.rolls[-2:]]
    assert last_two[0] != last_two[1]
    winner = state.group_order[0]
    assert state.combatant(state.order[0].creature_id).group == winner


def test_hyrule_three_sides_each_roll(rulesets: Rulesets) -> None:
    ruleset = rulesets["legends-of-hyrule"]
    enc = encounter(
        creature("Link", Side.PARTY), creature("Moblin"), creature("Cucco", Side.NEUTRAL)
    )
    state = start_combat(enc, "legends-of-hyrule", 3)
    state, _ = state_and_events(roll_initiative(with_combat(enc, state), ruleset))
    assert sorted(state.group_order) == ["side:hostile", "side:neutral", "side:party"]
    scores = [initiative_of(state, s.creature_id) for s in state.order]
    assert scores == sorted(scores, reverse=True)  # one creature per side: median = its roll


def test_manual_entry_and_reorder_keep_the_current_turn(rulesets: Rulesets) -> None:
    ruleset = rulesets["srd-5e"]
    enc = encounter(creature("A", Side.PARTY), creature("B"), creature("C"))
    state = fight(ruleset, enc, 5)
    current = whose_turn(state)
    others = [s.creature_id for s in state.order if s.creature_id != current]
    state, _ = state_and_events(set_initiative(with_combat(enc, state), ruleset, others[-1], 99))
    assert state.order[0].creature_id == others[-1] and whose_turn(state) == current
    new_order = list(reversed([s.creature_id for s in state.order]))
    state, _ = state_and_events(reorder(with_combat(enc, state), ruleset, new_order))
    assert [s.creature_id for s in state.order] == new_order and whose_turn(state) == current
    with pytest.raises(InvalidRequestError, match="exactly once"):
        state_and_events(reorder(with_combat(enc, state), ruleset, new_order[:-1]))
    with pytest.raises(InvalidRequestError):
        state_and_events(set_initiative(with_combat(enc, state), ruleset, EntityId("nobody"), 3))


def test_manual_mode_needs_every_value_before_round_1(rulesets: Rulesets) -> None:
    manual = rulesets["srd-5e"].model_copy(
        update={
            "initiative": rulesets["srd-5e"].initiative.model_copy(
                update={"mode": InitiativeMode.MANUAL}
            )
        }
    )
    enc = encounter(creature("A", Side.PARTY), creature("B"))
    state = start_combat(enc, "srd-5e", 1)
    state, _ = state_and_events(roll_initiative(with_combat(enc, state), manual))
    assert state.rolls == ()
    with pytest.raises(IllegalActionError, match="initiative"):
        state_and_events(begin_combat(with_combat(enc, state), manual))
    state, _ = state_and_events(set_initiative(with_combat(enc, state), manual, EntityId("a"), 5))
    state, _ = state_and_events(set_initiative(with_combat(enc, state), manual, EntityId("b"), 15))
    state, _ = state_and_events(begin_combat(with_combat(enc, state), manual))
    assert whose_turn(state) == "b"


def test_initiative_cannot_be_rerolled_once_begun(rulesets: Rulesets) -> None:
    ruleset = rulesets["srd-5e"]
    enc = encounter(creature("A", Side.PARTY), creature("B"))
    state = fight(ruleset, enc)
    with pytest.raises(IllegalActionError):
        state_and_events(roll_initiative(with_combat(enc, state), ruleset))


def test_optional_roll_off_orders_tied_creatures_by_a_d20(rulesets: Rulesets) -> None:
    """srd "Initiative": "Optionally, the DM can have the tied characters and monster each roll
    a d20 to determine the order, the highest roll going first"."""
    base = rulesets["srd-5e"]
    ruleset = base.model_copy(
        update={
            "initiative": base.initiative.model_copy(
                update={"tie_break": InitiativeTieBreak.ROLL_OFF}
            )
        }
    )
    enc = encounter(*(creature(f"T{i}", init_bonus=-20) for i in range(4)))  # totals clamp low
    for seed in range(100):
        state = start_combat(enc, "srd-5e", seed)
        state, _ = state_and_events(roll_initiative(with_combat(enc, state), ruleset))
        roll_offs = [r for r in state.rolls if "roll-off" in r.purpose]
        if roll_offs:
            break
    else:
        raise AssertionError("no tie in 100 seeds")
    ordered = [state.combatant(s.creature_id) for s in state.order]
    keys = [(c.initiative, c.initiative_tiebreak) for c in ordered]
    assert keys == sorted(keys, reverse=True)
    assert all(
        len(c.initiative_tiebreak) == 1
        for c in ordered
        if any(o.initiative == c.initiative and o is not c for o in ordered)
    )
