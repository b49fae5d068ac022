"""The players' projection (pure data): hidden things never reach it."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from battlemap.model import Creature, Encounter, Grid, Side, Size, TerrainRegion, Wall
from battlemap.model.combat import ActiveCondition, LastingState
from battlemap.model.fog import FogMode, FogOfWar, hide, reveal
from battlemap.rules.loader import load_registry
from battlemap.rules.schema import Ruleset
from battlemap.rules.schema_vitals import BloodiedRules
from battlemap.ui.players.projection import (
    CombatFacts,
    HealthState,
    drawn_while_unseen,
    health_state,
    project,
    unseen,
)

HERO = Creature(id="hero", name="Thorin", side=Side.PARTY, x=1, y=1, max_hp=40, hp=40)
ORC = Creature(id="orc", name="Orc Chief", side=Side.HOSTILE, x=6, y=1, max_hp=59, hp=37)
SPY = Creature(id="spy", name="Hidden Spy", side=Side.HOSTILE, x=3, y=3, hidden=True)


def encounter(fog: FogOfWar | None = None, *creatures: Creature) -> Encounter:
    return Encounter(
        grid=Grid(width=10, height=6),
        creatures=creatures or (HERO, ORC, SPY),
        walls=(Wall(a=(5, 0), b=(5, 6)),),
        terrain=(
            TerrainRegion(kind="difficult", points=[(0, 4), (2, 4), (2, 6), (0, 6)]),
            TerrainRegion(kind="impassable", points=[(7, 4), (8, 4), (8, 5)], secret=True),
        ),
        notes="The orc chief carries the key.",
        fog=fog or FogOfWar(),
    )


def test_hidden_creatures_and_secret_terrain_never_reach_the_players() -> None:
    view = project(encounter(), None)
    assert {token.label for token in view.tokens} == {"Thorin", "Orc Chief"}
    assert all(not region.secret for region in view.terrain)
    assert len(view.terrain) == 1


def test_the_projection_carries_health_states_not_numbers() -> None:
    view = project(encounter(), None)
    orc = next(t for t in view.tokens if t.key == "orc")
    assert orc.health is HealthState.UNHURT
    assert not any(isinstance(value, int) and value in (37, 59) for value in vars(orc).values())


def test_health_states_follow_half_hit_points_under_bloodied_brink() -> None:
    """bloodied-brink "Hit Points": "half your Hit Points or fewer" is Bloodied."""
    brink = load_registry().get("bloodied-brink")
    assert health_state(ORC.model_copy(update={"hp": 30}), ruleset=brink) is HealthState.UNHURT
    assert health_state(ORC.model_copy(update={"hp": 29}), ruleset=brink) is HealthState.BLOODIED
    assert health_state(ORC.model_copy(update={"hp": 1}), ruleset=brink) is HealthState.BLOODIED
    assert health_state(ORC.model_copy(update={"hp": 1})) is HealthState.UNHURT  # no ruleset
    assert health_state(ORC.model_copy(update={"hp": 0})) is HealthState.DOWN
    assert health_state(ORC.model_copy(update={"hp": 0}), dead=True) is HealthState.DEAD


def test_a_generic_label_replaces_the_name_when_the_dm_says_so() -> None:
    masked = ORC.model_copy(update={"name_shown_to_players": False, "size": Size.LARGE})
    view = project(encounter(None, HERO, masked), None)
    assert {t.label for t in view.tokens} == {"Thorin", "Large creature"}


def test_manual_fog_shows_only_revealed_cells_and_creatures_in_them() -> None:
    fog = reveal(FogOfWar(mode=FogMode.MANUAL), frozenset({(1, 1), (2, 1)}))
    view = project(encounter(fog), None)
    assert view.visible == frozenset({(1, 1), (2, 1)})
    assert [t.label for t in view.tokens] == ["Thorin"]
    assert view.walls == ()  # the wall at x=5 touches no revealed cell


def test_explored_cells_show_the_map_but_no_creatures() -> None:
    fog = FogOfWar(mode=FogMode.DYNAMIC, explored=frozenset({(6, 1), (5, 1)}))
    view = project(encounter(fog), frozenset({(1, 1)}))
    assert view.explored == {(6, 1), (5, 1)}
    assert [t.label for t in view.tokens] == ["Thorin"]  # the orc stands in an explored cell
    assert len(view.walls) == 1  # the wall runs along explored cell (5, 1)


def test_hiding_cells_forgets_reveals_and_memory() -> None:
    fog = FogOfWar(mode=FogMode.BOTH, revealed=frozenset({(1, 1)}), explored=frozenset({(2, 2)}))
    hidden = hide(fog, frozenset({(1, 1), (2, 2)}))
    assert hidden.revealed == frozenset() and hidden.explored == frozenset()


def test_a_large_creature_shows_when_any_of_its_cells_is_visible() -> None:
    ogre = Creature(id="ogre", name="Ogre", size=Size.LARGE, x=6, y=2)  # cells (6..7, 2..3)
    fog = reveal(FogOfWar(mode=FogMode.MANUAL), frozenset({(7, 3)}))
    assert [t.label for t in project(encounter(fog, ogre), None).tokens] == ["Ogre"]
    fog = reveal(FogOfWar(mode=FogMode.MANUAL), frozenset({(8, 3)}))
    assert project(encounter(fog, ogre), None).tokens == ()


def test_turn_info_lists_only_visible_combatants() -> None:
    combat = CombatFacts(round=2, order=("orc", "spy", "hero"), acting="spy")  # type: ignore[arg-type]
    view = project(encounter(), None, combat)
    assert view.turn is not None
    assert view.turn.round == 2
    assert view.turn.order == ("Orc Chief", "Thorin")
    # a hidden creature's turn is not announced: the orc's turn before it stays on the banner
    assert view.turn.acting_label == "Orc Chief"
    assert [t.key for t in view.tokens if t.acting_now] == ["orc"]


def fight(*creatures: Creature) -> Encounter:
    return Encounter(grid=Grid(width=10, height=6), creatures=creatures)


def test_hiding_or_invisible_creatures_are_drawn_only_for_the_party_or_by_the_dm() -> None:
    shown_orc = ORC.model_copy(update={"id": "orc2", "shown_while_unseen": True})
    combat = CombatFacts(round=1, unseen=frozenset({"hero", "orc", "orc2"}))  # type: ignore[arg-type]
    view = project(fight(HERO, ORC, shown_orc), None, combat)
    assert {t.key: t.unseen for t in view.tokens} == {"hero": True, "orc2": True}
    plain = project(fight(HERO, ORC, shown_orc), None, CombatFacts(round=1))
    assert {t.key: t.unseen for t in plain.tokens} == {"hero": False, "orc": False, "orc2": False}


def test_outside_a_combat_a_lasting_invisible_condition_hides_a_hostile() -> None:
    invisible = LastingState(conditions=(ActiveCondition(name="invisible"),))
    poisoned = LastingState(conditions=(ActiveCondition(name="poisoned"),))
    orc = ORC.model_copy(update={"lasting": invisible})
    sick = ORC.model_copy(update={"id": "sick", "lasting": poisoned})
    assert [t.key for t in project(fight(HERO, orc, sick), None).tokens] == ["hero", "sick"]
    # in a combat its combatant's conditions count instead (the invisibility ended there)
    combat = CombatFacts(round=1, conditions={"orc": ()})  # type: ignore[dict-item]
    assert [t.key for t in project(fight(orc), None, combat).tokens] == ["orc"]


def test_an_unseen_creatures_turn_repeats_the_last_turn_the_players_saw() -> None:
    order = ("spy", "hero", "orc")
    unseen = frozenset({"spy"})

    def turn_at(round_: int, acting: str) -> tuple[int | None, str | None]:
        combat = CombatFacts(round=round_, order=order, acting=acting, unseen=unseen)  # type: ignore[arg-type]
        spy = SPY.model_copy(update={"hidden": False})
        turn = project(fight(spy, HERO, ORC), None, combat).turn
        assert turn is not None and turn.order == ("Thorin", "Orc Chief")
        return turn.round, turn.acting_label

    assert turn_at(1, "spy") == (None, None)  # nothing said yet: nothing new to say
    assert turn_at(1, "hero") == (1, "Thorin")
    assert turn_at(2, "spy") == (1, "Orc Chief")  # the last seen turn was round 1's last
    assert turn_at(2, "orc") == (2, "Orc Chief")


SIDES = (Side.PARTY, Side.HOSTILE, Side.NEUTRAL)


@st.composite
def hiding_fights(draw: st.DrawFn) -> tuple[Encounter, CombatFacts]:
    """Up to eight creatures, each maybe hidden by the DM, invisible for good (lasting),
    shown while unseen, hiding in the combat; random order, round and acting creature."""
    creatures = []
    for i in range(draw(st.integers(1, 8))):
        invisible = draw(st.booleans())
        creatures.append(
            Creature(
                id=f"c{i}",
                name=f"Creature {i}",
                side=draw(st.sampled_from(SIDES)),
                x=draw(st.integers(0, 9)),
                y=draw(st.integers(0, 5)),
                hidden=draw(st.booleans()),
                shown_while_unseen=draw(st.booleans()),
                lasting=LastingState(conditions=(ActiveCondition(name="invisible"),))
                if invisible
                else None,
            )
        )
    ids = [c.id for c in creatures]
    fighting = draw(st.lists(st.sampled_from(ids), unique=True))  # the combatants
    order = tuple(draw(st.permutations(fighting)))
    combat = CombatFacts(
        round=draw(st.integers(0, 3)),
        order=order,
        acting=draw(st.sampled_from(order)) if order else None,
        conditions={cid: () for cid in fighting},
        unseen=frozenset(
            draw(st.lists(st.sampled_from(fighting), unique=True)) if fighting else ()
        ),
    )
    return fight(*creatures), combat


def test_the_projection_draws_exactly_the_creatures_the_players_may_see() -> None:
    """No DM-hidden creature, no hiding or invisible one unless it is the party's or the DM
    shows it, the one lit as acting among them, and never "Round N" alone on an unseen turn."""
    checked: Counter[str] = Counter()

    @settings(max_examples=300, deadline=None, database=None)
    @given(hiding_fights())
    def check(case: tuple[Encounter, CombatFacts]) -> None:
        encounter, combat = case
        view = project(encounter, None, combat)
        allowed = {
            c.id
            for c in encounter.creatures
            if not c.hidden and (not unseen(c, combat) or drawn_while_unseen(c))
        }
        assert {t.key for t in view.tokens} == allowed
        for token in view.tokens:
            creature = encounter.creature(token.key)
            assert token.unseen == unseen(creature, combat)
            if token.unseen and creature.side is not Side.PARTY:
                assert creature.shown_while_unseen
                checked["a hostile or neutral shown while unseen"] += 1
        lit = [t.key for t in view.tokens if t.acting_now]
        assert len(lit) <= 1 and set(lit) <= allowed
        if combat.acting is not None and combat.acting not in allowed and combat.round > 0:
            assert view.turn is not None
            assert view.turn.acting_label is not None or view.turn.round is None  # not alone
            checked["an unseen creature's turn"] += 1
        checked["cases"] += 1
        checked["creatures left out"] += len(encounter.creatures) - len(allowed)

    check()
    assert checked["cases"] == 300
    assert checked["creatures left out"] >= 300  # on average more than one per case
    assert checked["an unseen creature's turn"] >= 30
    assert checked["a hostile or neutral shown while unseen"] >= 30


def test_the_players_see_bloodied_at_the_rulesets_threshold() -> None:
    """bloodied-brink "Bloodied": at or below half the maximum; a DM's ruleset with a quarter
    changes what the players see (the engine's ``looks_bloodied``, not a copy of it)."""
    brink = load_registry().get("bloodied-brink")
    hit_points = brink.hit_points.model_copy(
        update={"bloodied": BloodiedRules(fraction_of_max=0.25)}
    )
    quarter = brink.model_copy(update={"hit_points": hit_points})
    hurt = ORC.model_copy(update={"hp": 25})  # 25 of 59: under half, over a quarter

    def orc_health(ruleset: Ruleset) -> HealthState:
        view = project(encounter(None, HERO, hurt), None, None, ruleset)
        return next(t for t in view.tokens if t.key == "orc").health

    assert orc_health(brink) is HealthState.BLOODIED
    assert orc_health(quarter) is HealthState.UNHURT
