"""Token images in the .battlemap file: carried, bounded like map images, and old files load."""

from __future__ import annotations

import struct
import zipfile
import zlib
from pathlib import Path

import pytest

from battlemap.io.encounter_file import (
    IMAGES_FOLDER,
    image_references,
    load_battlemap,
    save_battlemap,
)
from battlemap.io.errors import FileFormatError
from battlemap.io.images import (
    MAX_TOKEN_IMAGE_PIXELS,
    ImageFormatError,
    read_token_image_file,
    sniff_token_image,
)
from battlemap.model import Creature, Encounter
from battlemap.model.document import image_name
from battlemap.model.traits import TokenShape


def png(width: int, height: int) -> bytes:
    """A real PNG of one grey colour (zlib-compressed rows), without Qt."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = zlib.crc32(kind + body) & 0xFFFFFFFF
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    rows = b"".join(b"\x00" + b"\x80" * width for _ in range(height))
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


def with_token_image(data: bytes, shape: TokenShape = TokenShape.SQUARE) -> Encounter:
    name = image_name(data, ".png")
    owl = Creature(id="c1", name="Owl", token_image=name, token_shape=shape)
    return Encounter(creatures=(owl, Creature(id="c2", name="Rat")))


def test_a_token_image_round_trips_with_its_shape(tmp_path: Path) -> None:
    data = png(8, 8)
    encounter = with_token_image(data)
    name = encounter.creatures[0].token_image
    assert name is not None
    assert image_references(encounter) == {"creatures.0.token_image": name}
    path = tmp_path / "owl.battlemap"
    save_battlemap(path, encounter, {name: data})
    loaded = load_battlemap(path)
    assert loaded.encounter == encounter
    assert loaded.encounter.creatures[0].token_shape is TokenShape.SQUARE
    assert dict(loaded.images) == {name: data}
    with zipfile.ZipFile(path) as archive:
        assert IMAGES_FOLDER + name in archive.namelist()


def test_a_creature_without_an_image_saves_no_image_fields() -> None:
    dumped = Creature(name="Rat").model_dump(mode="json")
    assert "token_image" not in dumped and "token_shape" not in dumped
    old = {"name": "Rat"}  # a creature as files before token images saved it
    assert Creature.model_validate(old).token_image is None


def test_saving_a_token_image_the_document_lacks_is_refused(tmp_path: Path) -> None:
    with pytest.raises(FileFormatError, match=r"creatures\.0\.token_image"):
        save_battlemap(tmp_path / "x.battlemap", with_token_image(png(2, 2)), {})


def test_a_file_with_a_token_image_over_the_token_bound_is_refused_by_field(
    tmp_path: Path,
) -> None:
    side = 5000  # 25 MP: a map may be this large, a token may not
    assert side * side > MAX_TOKEN_IMAGE_PIXELS
    # Only the header is read for the size: a PNG header declaring 5000 x 5000 suffices.
    huge = png(1, 1).replace(struct.pack(">II", 1, 1), struct.pack(">II", side, side), 1)
    encounter = with_token_image(huge)
    name = encounter.creatures[0].token_image
    assert name is not None
    path = tmp_path / "huge.battlemap"
    save_battlemap(path, encounter, {name: huge})
    with pytest.raises(
        FileFormatError, match=r"huge\.battlemap.*creatures\.0\.token_image.*5000x5000"
    ):
        load_battlemap(path)


def test_token_image_files_are_sniffed_and_bounded(tmp_path: Path) -> None:
    good = tmp_path / "owl.png"
    good.write_bytes(png(4, 3))
    data, info = read_token_image_file(good)
    assert (info.width, info.height) == (4, 3) and data == good.read_bytes()
    text = tmp_path / "notes.png"
    text.write_bytes(b"not an image at all")
    with pytest.raises(ImageFormatError, match="not a PNG, JPEG or WEBP"):
        read_token_image_file(text)
    with pytest.raises(ImageFormatError, match="token_image: PNG image of 4097x4097"):
        big = png(1, 1).replace(struct.pack(">II", 1, 1), struct.pack(">II", 4097, 4097), 1)
        sniff_token_image(big, "x.battlemap", "token_image")


def test_token_image_names_are_bounded_like_map_image_names() -> None:
    with pytest.raises(ValueError, match="token_image"):
        Creature(name="Owl", token_image="x" * 256)
    with pytest.raises(ValueError, match="token_image"):
        Creature(name="Owl", token_image="")
