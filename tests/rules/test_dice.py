"""Dice: d20 notation from the combat's own seeded source, replayable and recorded."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from battlemap.model.combat import DiceState
from battlemap.rules.dice import (
    CounterRandom,
    DiceExpressionError,
    new_dice_state,
    parse_check,
    roll,
    total_range,
)


@pytest.mark.parametrize("expression", ["1d20+5", "2d20kh1", "8d6", "4d6kh3", "1d%", "3d6ro1"])
def test_issue_notations_roll_within_their_range(expression: str) -> None:
    low, high = {
        "1d20+5": (6, 25),
        "2d20kh1": (1, 20),
        "8d6": (8, 48),
        "4d6kh3": (3, 18),
        "1d%": (0, 90),
        "3d6ro1": (3, 18),
    }[expression]
    state = new_dice_state(7)
    for _ in range(50):
        state, record = roll(state, expression)
        assert low <= record.total <= high
        assert record.expression == expression and record.detail.endswith(f"= {record.total}")


def test_same_state_rolls_the_same_numbers_and_state_advances() -> None:
    start = new_dice_state(2026)
    after_a, first = roll(start, "8d6", "fireball")
    after_b, again = roll(start, "8d6", "fireball")
    assert first == again and after_a == after_b
    assert after_a.draws >= 8 and first.first_draw == 0 and first.purpose == "fireball"
    _, next_roll = roll(after_a, "8d6")
    assert next_roll.first_draw == after_a.draws


def test_replaying_a_sequence_from_a_saved_state_gives_the_same_rolls() -> None:
    state = new_dice_state(99)
    totals = []
    checkpoint = None
    for index in range(20):
        if index == 10:
            checkpoint = state
        state, record = roll(state, "1d20+3")
        totals.append(record.total)
    assert checkpoint is not None
    saved = DiceState.model_validate_json(checkpoint.model_dump_json())
    replay = []
    for _ in range(10):
        saved, record = roll(saved, "1d20+3")
        replay.append(record.total)
    assert replay == totals[10:]


def test_roll_does_not_touch_the_global_random_module() -> None:
    random.seed(5)
    expected = random.random()
    random.seed(5)
    roll(new_dice_state(1), "10d20")
    assert random.random() == expected


def test_natural_and_kept_dice_are_recorded() -> None:
    _, record = roll(new_dice_state(3), "2d20kh1+4")
    assert record.natural is not None and record.total == record.natural + 4
    assert record.kept == ((20, record.natural),)
    _, damage = roll(new_dice_state(3), "2d6+1d4")
    assert damage.natural is None and [sides for sides, _ in damage.kept] == [6, 6, 4]
    assert sum(face for _, face in damage.kept) == damage.total


@pytest.mark.parametrize(
    ("expression", "reason"),
    [
        ("", "empty expression"),
        ("1d", "syntax error"),
        ("1d20+foo", "syntax error"),
        ("1d0", "0-sided"),
        ("2000d6", "Too many dice"),
        ("1d1e1", "Too many dice"),
        ("9" * 300, "longer than"),
    ],
)
def test_bad_expressions_raise_a_typed_error(expression: str, reason: str) -> None:
    state = new_dice_state(1)
    with pytest.raises(DiceExpressionError, match=reason) as caught:
        roll(state, expression)
    assert isinstance(caught.value, ValueError) and caught.value.reason
    if reason in ("empty expression", "syntax error", "longer than"):
        with pytest.raises(DiceExpressionError):
            parse_check(expression)


@given(st.integers(min_value=0, max_value=2**63 - 1), st.integers(min_value=1, max_value=10_000))
def test_counter_random_stays_in_range(seed: int, n: int) -> None:
    source = CounterRandom(DiceState(seed=seed))
    values = [source.below(n) for _ in range(5)]
    assert all(0 <= v < n for v in values)
    assert source.draws >= 5


@given(st.integers(min_value=0, max_value=2**63 - 1), st.sampled_from(["1d20", "4d6kh3", "2d8+3"]))
def test_any_seed_is_deterministic(seed: int, expression: str) -> None:
    state = DiceState(seed=seed)
    assert roll(state, expression) == roll(state, expression)


def test_faces_are_roughly_uniform() -> None:
    state = new_dice_state(12345)
    counts = [0] * 6
    for _ in range(3000):
        state, record = roll(state, "1d6")
        counts[record.total - 1] += 1
    assert all(400 < c < 600 for c in counts), counts


def test_total_range_of_added_dice_and_a_flat_number() -> None:
    assert total_range([(3, 8)]) == (3, 24)  # a bloodied-brink short rest at level 3
    assert total_range([(1, 6)], 2) == (3, 8)
    assert total_range([(2, 6), (1, 4)], -1) == (2, 15)
    assert total_range([], 7) == (7, 7)
    assert total_range([(1, 4)], -3) == (-2, 1)
    with pytest.raises(ValueError):
        total_range([(1, 0)])


@given(
    st.integers(0, 2**63 - 1),
    st.lists(st.tuples(st.integers(1, 6), st.sampled_from([4, 6, 8, 10, 12])), min_size=1),
    st.integers(-5, 5),
)
def test_every_roll_lies_in_total_range(seed: int, dice: list[tuple[int, int]], flat: int) -> None:
    expression = "+".join(f"{count}d{sides}" for count, sides in dice) + f"{flat:+d}"
    _, record = roll(new_dice_state(seed), expression)
    low, high = total_range(dice, flat)
    assert low <= record.total <= high
