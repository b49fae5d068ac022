"""``make lint`` checks the formatting too: a file ruff would reformat fails it."""

from pathlib import Path

MAKEFILE = Path(__file__).resolve().parent.parent / "Makefile"


def lint_recipe() -> list[str]:
    """The commands of the Makefile's ``lint`` target, in order."""
    lines = MAKEFILE.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("lint:"))
    recipe = []
    for line in lines[start + 1 :]:
        if not line.startswith("\t"):
            break
        recipe.append(line.strip())
    return recipe


def test_make_lint_checks_the_format_of_the_whole_tree() -> None:
    recipe = lint_recipe()
    assert "$(VENV)/bin/ruff check ." in recipe
    assert "$(VENV)/bin/ruff format --check ." in recipe
    assert len(recipe) >= 3  # the import contracts are still checked as well
