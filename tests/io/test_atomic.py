"""Atomic writes: all or nothing, in the same folder, keeping the file's permissions."""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path

import pytest

from battlemap.io.atomic import (
    atomic_writer,
    remove_stale_temp_files,
    stale_temp_files,
    write_atomic,
)


def test_write_creates_and_replaces(tmp_path: Path) -> None:
    path = tmp_path / "f.bin"
    write_atomic(path, b"one")
    write_atomic(path, b"two")
    assert path.read_bytes() == b"two"
    assert [p.name for p in tmp_path.iterdir()] == ["f.bin"]


def test_an_error_inside_the_block_keeps_the_old_file_and_removes_the_temporary(
    tmp_path: Path,
) -> None:
    path = tmp_path / "f.bin"
    write_atomic(path, b"old")
    with pytest.raises(RuntimeError), atomic_writer(path) as stream:
        stream.write(b"half of the new")
        raise RuntimeError("disk on fire")
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["f.bin"]


def test_the_temporary_file_lives_in_the_destination_folder(tmp_path: Path) -> None:
    path = tmp_path / "f.bin"
    with atomic_writer(path) as stream:
        siblings = [p.name for p in tmp_path.iterdir()]
        stream.write(b"x")
    assert len(siblings) == 1 and siblings[0].startswith(".f.bin.")


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_an_existing_files_permissions_are_kept(tmp_path: Path) -> None:
    path = tmp_path / "shared.bin"
    path.write_bytes(b"old")
    path.chmod(0o640)
    write_atomic(path, b"new")
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_a_new_file_gets_the_usual_permissions_not_owner_only(tmp_path: Path) -> None:
    old_umask = os.umask(0o022)
    try:
        write_atomic(tmp_path / "new.bin", b"x")
    finally:
        os.umask(old_umask)
    assert stat.S_IMODE((tmp_path / "new.bin").stat().st_mode) == 0o644


def test_stale_temporary_files_are_found_by_age_and_removed(tmp_path: Path) -> None:
    path = tmp_path / "fight.battlemap"
    path.write_bytes(b"whole")
    old = tmp_path / ".fight.battlemap.abc123.tmp"
    fresh = tmp_path / ".fight.battlemap.def456.tmp"  # maybe a save running right now
    other = tmp_path / ".other.battlemap.abc123.tmp"
    for temp in (old, fresh, other):
        temp.write_bytes(b"half")
    os.utime(old, (0, time.time() - 7200))
    os.utime(other, (0, time.time() - 7200))
    assert stale_temp_files(path, older_than_s=3600) == [old]
    assert remove_stale_temp_files(path, older_than_s=3600) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([path.name, fresh.name, other.name])


def test_names_with_glob_characters_match_only_themselves(tmp_path: Path) -> None:
    path = tmp_path / "[a]*.battlemap"
    mine = tmp_path / ".[a]*.battlemap.x.tmp"
    not_mine = tmp_path / ".a-and-more.battlemap.x.tmp"
    mine.write_bytes(b"")
    not_mine.write_bytes(b"")
    assert stale_temp_files(path, older_than_s=-1) == [mine]
