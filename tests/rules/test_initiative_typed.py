"""Initiative typed from physical dice places a creature exactly as an engine roll with the
same face would (issue 16). Each ruleset's case is worked by hand from its document in
../shared/rules-sources/; the property test checks every ruleset on random mixes."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from battlemap.model.combat import CombatState
from battlemap.model.creature import Creature, Side
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules import initiative
from battlemap.rules.combat_ops import stats_of
from battlemap.rules.draft import Draft
from battlemap.rules.enums import InitiativeMode
from battlemap.rules.errors import InvalidRequestError
from battlemap.rules.initiative import (
    roll_initiative,
    roll_initiative_except,
    set_initiative,
    start_combat,
)
from battlemap.rules.initiative_order import group_medians
from battlemap.rules.outcome import with_combat
from battlemap.rules.schema import Ruleset
from battlemap.rules.turns import begin_combat, end_turn
from tests.rules.conftest import RULESET_IDS
from tests.rules.helpers import StateAndEvents, creature, encounter, state_and_events, whose_turn

Rulesets = dict[str, Ruleset]


def typed(
    state: CombatState,
    ruleset: Ruleset,
    enc: Encounter,
    creature_id: EntityId,
    total: int,
    natural: int | None = None,
) -> StateAndEvents:
    """The DM types ``total`` (and the die's face) for the creature."""
    outcome = set_initiative(with_combat(enc, state), ruleset, creature_id, total, natural)
    return state_and_events(outcome)


def rolled_except(
    state: CombatState, ruleset: Ruleset, enc: Encounter, waiting: set[EntityId]
) -> StateAndEvents:
    return state_and_events(roll_initiative_except(with_combat(enc, state), ruleset, waiting))


def regular_order(state: CombatState) -> list[str]:
    return [str(s.creature_id) for s in state.order if not s.extra]


def extra_turns(state: CombatState) -> list[str]:
    return [str(s.creature_id) for s in state.order if s.extra]


@pytest.mark.parametrize("ruleset_id", ["srd-5e", "final-fantasy-d20", "bloodied-brink"])
def test_srd_typed_ties_keep_the_dm_order(rulesets: Rulesets, ruleset_id: str) -> None:
    """srd-5e "Initiative": highest total first; "If a tie occurs, the DM decides the order"
    (the encounter's listing, which the DM can drag). final-fantasy-d20 and bloodied-brink say
    nothing of initiative and keep the base rule (rules-sources README, "initiative" row).
    By hand: Fighter types 12, Ogre types 12, Rogue types 17 -> Rogue, Fighter, Ogre."""
    ruleset = rulesets[ruleset_id]
    enc = encounter(
        creature("Fighter", Side.PARTY, dex=8),
        creature("Ogre", dex=18),
        creature("Rogue", Side.PARTY, dex=16),
    )
    state = start_combat(enc, ruleset_id, 3)
    for name, total in (("ogre", 12), ("rogue", 17), ("fighter", 12)):
        state, _ = typed(state, ruleset, enc, EntityId(name), total, natural=20)
    assert regular_order(state) == ["rogue", "fighter", "ogre"]
    assert extra_turns(state) == []  # a natural 20 earns nothing here


def test_gms_den_a_typed_tie_goes_to_the_higher_dexterity_score(rulesets: Rulesets) -> None:
    """gms-den "Initiative": "If there is a tie, the higher Dexterity score will go first".
    By hand: the Ogre (Dex 18) rolls; the Fighter (Dex 8) types the same total: Ogre first,
    whichever was entered last and however the encounter lists them."""
    ruleset = rulesets["gms-den"]
    enc = encounter(creature("Fighter", Side.PARTY, dex=8), creature("Ogre", dex=18))
    state, _ = rolled_except(start_combat(enc, "gms-den", 5), ruleset, enc, {EntityId("fighter")})
    ogre = state.combatant(EntityId("ogre"))
    assert ogre.initiative is not None
    state, _ = typed(state, ruleset, enc, EntityId("fighter"), ogre.initiative)
    assert regular_order(state) == ["ogre", "fighter"]
    assert state.combatant(EntityId("fighter")).initiative_tiebreak == (8,)


def test_gms_den_a_typed_natural_20_earns_the_extra_turn(rulesets: Rulesets) -> None:
    """gms-den "Initiative": "If you roll a natural 20, you are granted one extra turn at the
    end of the first turn of combat". By hand: Fighter types 19 from a natural 20 (Dex 8: -1
    would make it 19), Ogre types 21 -> Ogre, Fighter, then Fighter's extra turn; round 2 has
    no extra turn."""
    ruleset = rulesets["gms-den"]
    enc = encounter(creature("Fighter", Side.PARTY, dex=8), creature("Ogre", dex=18))
    state = start_combat(enc, "gms-den", 5)
    state, events = typed(state, ruleset, enc, EntityId("fighter"), 19, natural=20)
    state, _ = typed(state, ruleset, enc, EntityId("ogre"), 21, natural=17)
    assert any("natural 20" in e.text for e in events)
    assert regular_order(state) == ["ogre", "fighter"] and extra_turns(state) == ["fighter"]
    state, _ = state_and_events(begin_combat(with_combat(enc, state), ruleset))
    seen = []
    for _ in range(3):
        seen.append(str(whose_turn(state)))
        state, _ = state_and_events(end_turn(with_combat(enc, state), ruleset))
    assert seen == ["ogre", "fighter", "fighter"] and state.round == 2
    assert extra_turns(state) == []
    retyped, _ = typed(state, ruleset, enc, EntityId("fighter"), 19)
    assert not retyped.combatant(EntityId("fighter")).extra_turn  # no face given: not a 20


def test_hyrule_typed_rolls_rank_the_sides_by_their_medians(rulesets: Rulesets) -> None:
    """legends-of-hyrule "Initiative": "The median result for all the players's checks is
    compared to the median result for all the monsters' checks. The group with the higher
    median score takes their turns first." By hand: players 8, 15, 12 (median 12); monsters
    11 and 14 (median 12.5): the monsters go first though the best single roll is a player's.
    Link retypes 13: players' median 13 > 12.5, the players go first."""
    ruleset = rulesets["legends-of-hyrule"]
    enc = encounter(
        creature("Link", Side.PARTY),
        creature("Zelda", Side.PARTY),
        creature("Mipha", Side.PARTY),
        creature("Bokoblin", wis=6),
        creature("Moblin", wis=6),
        ruleset="legends-of-hyrule",
    )
    party = {EntityId("link"), EntityId("zelda"), EntityId("mipha")}
    state, _ = rolled_except(start_combat(enc, "legends-of-hyrule", 2), ruleset, enc, party)
    for name, total in (("bokoblin", 11), ("moblin", 14), ("link", 8), ("zelda", 15)):
        state, _ = typed(state, ruleset, enc, EntityId(name), total)
    state, _ = typed(state, ruleset, enc, EntityId("mipha"), 12)
    assert group_medians(state) == {"side:party": 12.0, "side:hostile": 12.5}
    assert state.group_order == ("side:hostile", "side:party")
    assert set(regular_order(state)[:2]) == {"bokoblin", "moblin"}
    state, _ = typed(state, ruleset, enc, EntityId("link"), 13)
    assert state.group_order == ("side:party", "side:hostile")
    assert set(regular_order(state)[:3]) == party


def test_hyrule_a_typed_tie_of_medians_asks_for_a_reroll(rulesets: Rulesets) -> None:
    """legends-of-hyrule: "In case of a tie, reroll until the tie is broken": typed totals
    can't be rerolled by the app, so the log says the sides reroll (and the DM types again)."""
    ruleset = rulesets["legends-of-hyrule"]
    enc = encounter(creature("Link", Side.PARTY), creature("Moblin"), ruleset="legends-of-hyrule")
    state = start_combat(enc, "legends-of-hyrule", 2)
    state, _ = typed(state, ruleset, enc, EntityId("moblin"), 10)
    state, events = typed(state, ruleset, enc, EntityId("link"), 10)
    assert any("tie at median 10: the tied sides reroll" in e.text for e in events)


def test_a_typed_face_is_a_d20_face(rulesets: Rulesets) -> None:
    enc = encounter(creature("A"))
    state = start_combat(enc, "gms-den", 1)
    with pytest.raises(InvalidRequestError, match=r"1\.\.20, not 21"):
        typed(state, rulesets["gms-den"], enc, EntityId("a"), 5, natural=21)


# --- any mix of typed and rolled gives the order of rolling them all ------------------------

NAMES = ("Ash", "Birch", "Cedar", "Dogwood", "Elm", "Fir")
MIXES_PER_RULESET = 40


Roller = Callable[[Draft, Creature, Ruleset, str], tuple[int, int]]


def forced_faces(faces: dict[EntityId, int]) -> Roller:
    """An initiative roller that shows the given face for each creature (the dice are the one
    thing a table's physical d20 replaces)."""

    def roller(draft: Draft, who: Creature, ruleset: Ruleset, purpose: str) -> tuple[int, int]:
        stats = stats_of(who)
        bonus = stats.modifier(ruleset.initiative.ability.value) + stats.initiative_bonus
        face = faces[who.id]
        draft.add("roll", f"{purpose}: {face}{bonus:+d}", who.id)
        return face + bonus, face

    return roller


def total_for(who: Creature, ruleset: Ruleset, face: int) -> int:
    stats = stats_of(who)
    return face + stats.modifier(ruleset.initiative.ability.value) + stats.initiative_bonus


def order_key(state: CombatState, ruleset: Ruleset) -> object:
    """The order the rules fix: legends-of-hyrule's sides in order, each a set (its members
    "take their individual turns in any order"); otherwise every turn, extra turns included."""
    if ruleset.initiative.mode is InitiativeMode.GROUP_MEDIAN:
        groups = [state.combatant(s.creature_id).group for s in state.order]
        sides = list(dict.fromkeys(groups))
        members = {
            g: {
                str(s.creature_id) for s in state.order if state.combatant(s.creature_id).group == g
            }
            for g in sides
        }
        return sides, members
    return [(str(s.creature_id), s.extra) for s in state.order]


creatures_strategy = st.lists(
    st.tuples(
        st.sampled_from([Side.PARTY, Side.HOSTILE, Side.NEUTRAL]),
        st.integers(min_value=3, max_value=20),  # the ability score
        st.integers(min_value=1, max_value=20),  # the die face
        st.booleans(),  # typed at the table (True) or rolled by the app
    ),
    min_size=2,
    max_size=len(NAMES),
)


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_typed_and_rolled_mixes_order_as_if_all_were_rolled(
    rulesets: Rulesets, ruleset_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    ruleset = rulesets[ruleset_id]
    checked: list[int] = []

    @settings(max_examples=MIXES_PER_RULESET, deadline=None)
    @given(creatures_strategy, st.randoms(use_true_random=False))
    def check(rows: list[tuple[Side, int, int, bool]], shuffler: random.Random) -> None:
        made = [
            creature(name, side, dex=score, wis=score)
            for name, (side, score, _, _) in zip(NAMES, rows, strict=False)
        ]
        enc = Encounter(ruleset=ruleset_id, creatures=tuple(made))
        faces = {c.id: face for c, (_, _, face, _) in zip(made, rows, strict=False)}
        by_hand = [c for c, (*_, at_table) in zip(made, rows, strict=False) if at_table]
        monkeypatch.setattr(initiative, "_initiative_roll", forced_faces(faces))
        rolled_all, _ = state_and_events(
            roll_initiative(with_combat(enc, start_combat(enc, ruleset_id, 1)), ruleset)
        )
        if ruleset.initiative.mode is InitiativeMode.GROUP_MEDIAN:
            medians = list(group_medians(rolled_all).values())
            assume(len(set(medians)) == len(medians))  # a tie rerolls: no face decides it
        mixed, _ = rolled_except(
            start_combat(enc, ruleset_id, 1), ruleset, enc, {c.id for c in by_hand}
        )
        shuffler.shuffle(by_hand)
        for who in by_hand:
            face = faces[who.id]
            mixed, _ = typed(
                mixed, ruleset, enc, who.id, total_for(who, ruleset, face), natural=face
            )
        assert order_key(mixed, ruleset) == order_key(rolled_all, ruleset)
        assert mixed.group_order == rolled_all.group_order
        checked.append(len(by_hand))

    check()
    assert len(checked) >= MIXES_PER_RULESET * 3 // 4, f"only {len(checked)} mixes checked"
    assert any(0 < n < len(NAMES) for n in checked), "no real mix of typed and rolled"
