"""All-pairs cover solved in many small batches gives exactly the answers of one batch and of
each pair on its own: degrees, choices, counts and every traced line with its blocker."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from contextlib import contextmanager
from unittest import mock

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from battlemap.geometry import Body, cover_all_pairs
from battlemap.geometry.cover import CoverResult, LineTrace, cover
from battlemap.model import EntityId, Obstacle, Side, Size, Wall
from tests.geometry.helpers import index
from tests.geometry.test_cover_fastpath import SIZE, maps

cover_module = importlib.import_module(
    "battlemap.geometry.cover"
)  # the package's `cover` is the function
CHECKED: list[int] = []


@contextmanager
def batches_of(lines: int, workers: int = 1) -> Iterator[list[int]]:
    """Solve all pairs ``lines`` lines a batch in ``workers`` threads; yields the size
    (queries) of each batch."""
    sizes: list[int] = []
    solve = cover_module._solve_batch

    def counted(*args: object) -> None:
        sizes.append(len(args[2]))  # type: ignore[arg-type]
        solve(*args)

    with (
        mock.patch.object(cover_module, "PAIR_LINES_IN_FLIGHT", lines * workers),
        mock.patch.object(cover_module, "pair_workers", lambda: workers),
        mock.patch.object(cover_module, "_solve_batch", counted),
    ):
        yield sizes


def traced(trace: LineTrace) -> tuple[object, ...]:
    return (trace.start, trace.end, trace.blocked, trace.blocker_kind, trace.blocker_id)


def answer(result: CoverResult) -> tuple[object, ...]:
    return (
        result,  # degree, corner, square, cap, source, blocked lines
        [traced(line) for line in result.lines],
        traced(result.centre_line),
    )


@settings(max_examples=30, deadline=None)
@given(maps(), st.integers(1, 40), st.integers(1, 3))
def test_small_batches_give_the_answers_of_one_batch(
    world: tuple[list[Wall], list[Obstacle], list[Body]], lines_per_batch: int, workers: int
) -> None:
    walls, obstacles, creatures = world
    assume(len(creatures) >= 3)  # an assumed-away draw does not count as one of the examples
    built = index(*walls, obstacles=tuple(obstacles), width=SIZE, height=SIZE)
    with batches_of(10**9) as one:
        whole = cover_all_pairs(built, creatures)
    with batches_of(lines_per_batch, workers) as many:  # in threads from 2 workers
        batched = cover_all_pairs(built, creatures)
    assert len(one) == 1 and len(many) > 1
    assert sum(many) == len(whole) == len(creatures) * (len(creatures) - 1)
    assert list(batched) == list(whole)  # attacker by attacker, in the creatures' order
    for pair, result in batched.items():
        assert answer(result) == answer(whole[pair]), pair
    attacker, target = creatures[-1], creatures[0]
    alone = cover(built, attacker, target, creatures)
    assert answer(batched[attacker.id, target.id]) == answer(alone)
    CHECKED.append(len(batched))


def test_the_batch_property_checked_enough_crowds() -> None:
    # Runs after the property above (file order): it saw enough crowds of three or more.
    assert len(CHECKED) >= 10, CHECKED


def test_an_error_in_a_batch_thread_reaches_the_caller() -> None:
    creatures = [Body(EntityId(f"c{i}"), Size.MEDIUM, Side.PARTY, 2 * i, 0) for i in range(6)]
    built = index(width=2 * len(creatures), height=SIZE)
    calls: list[int] = []

    def failing(*args: object) -> None:
        calls.append(1)
        if len(calls) == 2:
            raise RuntimeError("batch failed")

    with (
        mock.patch.object(cover_module, "PAIR_LINES_IN_FLIGHT", 8),
        mock.patch.object(cover_module, "pair_workers", lambda: 2),
        mock.patch.object(cover_module, "_solve_batch", failing),
        pytest.raises(RuntimeError, match="batch failed"),
    ):
        cover_all_pairs(built, creatures)
    assert len(calls) > 2  # many batches, some in a second thread


def test_pair_workers_stay_within_bounds() -> None:
    assert 1 <= cover_module.pair_workers() <= cover_module.MAX_PAIR_WORKERS
