"""Rule 3 (cover, and sight through the same walls): the bucket grid's column walk
(``WallBuckets._visits``) finds, for every line, every wall within ``END_SNAP`` of it, on a
dense seeded map: walls along grid lines (many on bucket boundaries), slanted rubble; lines
between lattice points, a hair off them (nudged corners), vertical, horizontal, short and
long. Checked against shapely's distance, pair by pair.
"""

from __future__ import annotations

import numpy as np
import pytest
import shapely

from battlemap.geometry.barriers import END_SNAP, BarrierSet
from battlemap.model import EntityId

CELLS = 30


def _map(seed: int) -> BarrierSet:
    rng = np.random.default_rng(seed)
    segments: list[tuple[tuple[float, float], tuple[float, float]]] = []
    for _ in range(300):
        x, y = (float(v) for v in rng.integers(0, CELLS, 2))
        segments.append(((x, y), (x + 1, y)) if rng.random() < 0.5 else ((x, y), (x, y + 1)))
    for _ in range(100):
        p = rng.uniform(0, CELLS, 2)
        q = p + rng.uniform(-1.2, 1.2, 2)
        segments.append(((float(p[0]), float(p[1])), (float(q[0]), float(q[1]))))
    return BarrierSet(segments, [EntityId(f"w{i}") for i in range(len(segments))])


def _lines(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed + 100)
    lines = np.round(rng.uniform(0, CELLS, (3000, 2, 2)) * 4) / 4
    off = lines[::3]
    lines[::3] = off + rng.choice([0.0, 1e-4, -1e-4, 5e-7, 0.37], off.shape)
    lines[1::5, 1, 0] = lines[1::5, 0, 0]  # vertical
    lines[2::5, 1, 1] = lines[2::5, 0, 1]  # horizontal
    lines[3::7, 1] = lines[3::7, 0] + rng.uniform(-1.5, 1.5, (len(lines[3::7]), 2))  # short
    length = np.hypot(*(lines[:, 1] - lines[:, 0]).T)
    return np.asarray(lines[length > 1e-3])


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_column_walk_finds_every_wall_within_end_snap_of_a_line(seed: int) -> None:
    barrier, lines = _map(seed), _lines(seed)
    assert barrier._buckets is not None
    length = np.hypot(*(lines[:, 1] - lines[:, 0]).T)
    line, wall = barrier._candidates(lines, length)
    found = set(zip(line.tolist(), wall.tolist(), strict=True))
    near = shapely.dwithin(
        np.asarray(shapely.linestrings(lines))[:, None], barrier.geoms[None, :], END_SNAP * 1.001
    )
    needed = {(int(i), int(j)) for i, j in zip(*np.nonzero(near), strict=True)}
    # The check decides thousands of (line, wall) pairs, not a handful.
    assert len(needed) > 3000
    assert needed <= found


def test_the_walk_visits_each_bucket_of_a_line_once() -> None:
    barrier, lines = _map(4), _lines(4)
    assert barrier._buckets is not None
    line, bucket = barrier._buckets._visits(lines)
    keys = line.astype(np.int64) * (barrier._buckets.nx * barrier._buckets.ny) + bucket
    assert len(np.unique(keys)) == len(keys)
    # Every line visits at least the buckets of its two ends.
    assert set(line.tolist()) == set(range(len(lines)))
