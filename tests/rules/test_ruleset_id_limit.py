"""A user ruleset's id is its file name, and an encounter keeps the id of its ruleset: a name
longer than an encounter keeps is refused (reported and skipped), not offered in the Rules
menu to make a save that would not reopen."""

from __future__ import annotations

from pathlib import Path

from battlemap.model.limits import MAX_RULESET_ID
from battlemap.rules.loader import load_registry

HEAD = "schema_version: 1\nextends: srd-5e\nname: Long\n"


def test_a_user_ruleset_named_past_the_limit_is_reported_and_skipped(tmp_path: Path) -> None:
    longest, too_long = "a" * MAX_RULESET_ID, "b" * (MAX_RULESET_ID + 1)
    for stem in (longest, too_long):
        (tmp_path / f"{stem}.yaml").write_text(HEAD, encoding="utf-8")
    registry = load_registry(user_dir=tmp_path)
    assert longest in registry.ids() and too_long not in registry.ids()
    [problem] = [str(e) for e in registry.problems]
    assert problem == (
        f"{tmp_path / too_long}.yaml:1: the file name is longer than {MAX_RULESET_ID} "
        "characters; shorten it"
    )
