from battlemap.model import Change, Creature, Document, Encounter, MoveCreature, Wall
from battlemap.model.document import (
    AddCreature,
    RemoveCreature,
    ReplaceEncounterField,
    UpdateCreature,
)


def make_document() -> tuple[Document, Creature]:
    creature = Creature(name="Orc", x=1, y=1)
    return Document(Encounter(creatures=(creature,))), creature


def test_move_applies_and_reverts() -> None:
    document, orc = make_document()
    move = MoveCreature(orc.id, (1, 1), (4, 2))
    document.apply(move)
    assert (document.encounter.creature(orc.id).x, document.encounter.creature(orc.id).y) == (4, 2)
    document.revert(move)
    assert document.encounter.creature(orc.id) == orc


def test_listeners_hear_which_creature_changed() -> None:
    document, orc = make_document()
    heard: list[Change] = []
    document.subscribe(heard.append)
    document.apply(MoveCreature(orc.id, (1, 1), (2, 1)))
    assert heard == [Change(creatures=frozenset({orc.id}))]


def test_listeners_hear_map_changes_and_nothing_for_no_op() -> None:
    document, _ = make_document()
    heard: list[Change] = []
    document.subscribe(heard.append)
    walls = (Wall(a=(0, 0), b=(3, 0)),)
    document.apply(ReplaceEncounterField("walls", (), walls))
    document.apply(ReplaceEncounterField("walls", walls, walls))
    assert heard == [Change(map=True)]


def test_add_update_remove_round_trip() -> None:
    document, orc = make_document()
    start = document.encounter
    goblin = Creature(name="Goblin")
    commands = [
        AddCreature(goblin),
        UpdateCreature(orc, orc.model_copy(update={"hp": 3})),
        RemoveCreature(orc, 0),
    ]
    for command in commands:
        document.apply(command)
    assert [c.name for c in document.encounter.creatures] == ["Goblin"]
    for command in reversed(commands):
        document.revert(command)
    assert document.encounter == start


def test_images_are_stored_once_by_content() -> None:
    document, _ = make_document()
    first = document.add_image(b"\x89PNG fake", ".PNG")
    second = document.add_image(b"\x89PNG fake", ".png")
    other = document.add_image(b"\x89PNG other", ".png")
    assert first == second and first.endswith(".png")
    assert other != first
    assert len(document.images) == 2


def test_replacing_the_encounter_is_heard_even_when_it_is_equal() -> None:
    """File > Open of the same file: views forget what they kept about the old encounter."""
    document, orc = make_document()
    heard: list[Change] = []
    document.subscribe(heard.append)
    document.replace(document.encounter.model_copy())
    document.apply(MoveCreature(orc.id, (1, 1), (2, 1)))
    assert heard == [Change(replaced=True), Change(creatures=frozenset({orc.id}))]
