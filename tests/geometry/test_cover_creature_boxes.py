"""The creature test's candidate (line, box) pairs: the dense comparison used for small
batches (cover 1 -> 99) finds exactly the pairs, in the same order, that the tree of boxes
finds for big ones (all pairs), edges, corners and zero-length lines included."""

from __future__ import annotations

import importlib
from unittest import mock

import numpy as np
import pytest

lines_module = importlib.import_module("battlemap.geometry.cover_lines")

SEEDS = 200


def both_ways(
    lines: np.ndarray, boxes: np.ndarray
) -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    assert len(lines) * len(boxes) <= lines_module.DENSE_BOX_PAIRS  # the dense path is taken
    dense = lines_module._overlapping_boxes(lines, boxes)
    with mock.patch.object(lines_module, "DENSE_BOX_PAIRS", 0):
        tree = lines_module._overlapping_boxes(lines, boxes)
    return dense, tree


def test_dense_and_tree_pairs_agree_on_half_cell_maps() -> None:
    """Ends and boxes on half cells of a 12-cell map: many lines run along an edge or through
    a corner, which must not count as overlapping (positive area only)."""
    found = 0
    for seed in range(SEEDS):
        rng = np.random.default_rng(seed)
        lines = rng.integers(0, 25, size=(60, 2, 2)) / 2.0
        lines[:5, 1] = lines[:5, 0]  # zero-length lines
        corner = rng.integers(0, 22, size=(30, 2)) / 2.0
        side = rng.choice([0.5, 1.0, 2.0, 3.0], size=30)
        boxes = np.column_stack([corner, corner + side[:, None]])
        (dense_li, dense_ci), (tree_li, tree_ci) = both_ways(lines, boxes)
        np.testing.assert_array_equal(dense_li, tree_li)
        np.testing.assert_array_equal(dense_ci, tree_ci)
        found += len(dense_li)
    assert found > 1000, f"only {found} pairs over {SEEDS} maps: the check saw too little"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (((0.0, 0.0), (1.0, 0.0)), False),  # along the top edge
        (((1.0, -1.0), (1.0, 2.0)), False),  # along the right edge, past both ends
        (((2.0, 0.0), (0.0, 2.0)), True),  # grazes the corner: kept here, the exact test drops it
        (((1.0, 1.0), (2.0, 2.0)), False),  # from the corner outwards
        (((0.5, 0.5), (0.5, 0.5)), True),  # a point inside: its box has no area but lies within
    ],
)
def test_edges_and_corners_of_one_box(
    line: tuple[tuple[float, float], tuple[float, float]], expected: bool
) -> None:
    lines = np.array([line], dtype=np.float64)
    boxes = np.array([[0.0, 0.0, 1.0, 1.0]])
    (dense_li, _), (tree_li, _) = both_ways(lines, boxes)
    assert (len(dense_li) == 1) is expected
    assert (len(tree_li) == 1) is expected
