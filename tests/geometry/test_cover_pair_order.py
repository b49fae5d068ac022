"""The order cover's corner lines are told apart by (``cover_lines._pair_order``): the radix
passes on 16-bit point ids and the plain sort of keys for more points both sort the pairs."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

lines_module = importlib.import_module("battlemap.geometry.cover_lines")


@pytest.mark.parametrize("n_points", [1, 7, 3_000, 1 << 16, (1 << 16) + 1, 200_000])
def test_the_pairs_come_out_sorted_on_either_path(n_points: int) -> None:
    rng = np.random.default_rng(n_points)
    a, b = rng.integers(0, n_points, 5_000), rng.integers(0, n_points, 5_000)
    low, high = np.minimum(a, b), np.maximum(a, b)
    keys = low * n_points + high
    order = lines_module._pair_order(low, high, keys, n_points)
    assert sorted(order.tolist()) == list(range(len(keys)))  # a permutation
    assert np.array_equal(keys[order], np.sort(keys))  # by low id, then by high id
