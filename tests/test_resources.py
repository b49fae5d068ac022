"""Shipped data (``assets/``, ``rulesets/``) is found from a checkout, a wheel, an editable install.

The PyInstaller bundle is the third way; ``packaging/smoke-bundle.sh`` runs the built program in
CI, and the ``sys._MEIPASS`` tests here check the lookup it relies on.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

import battlemap
from battlemap import resources
from battlemap.resources import ResourceFolder, app_icon_files, asset_path, resource_dir

ROOT = Path(__file__).resolve().parent.parent
SHIPPED: tuple[ResourceFolder, ...] = ("assets", "rulesets")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# What a project build reads; copied so tests never write build/ into the shared checkout.
BUILD_INPUTS = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "battlemap", *SHIPPED)
IGNORED = shutil.ignore_patterns(".*", "__pycache__", "*.pyc", "*.egg-info")
# Run inside a venv with no dependencies: battlemap.resources needs only the standard library.
REPORT = (
    "import json, battlemap, battlemap.resources as r; "
    "print(json.dumps({'package': battlemap.__file__, "
    "'assets': str(r.resource_dir('assets')), 'rulesets': str(r.resource_dir('rulesets')), "
    "'icons': [p.name for p in r.app_icon_files()]}))"
)


def shipped_files(folder: Path) -> set[str]:
    """Relative paths of the data files under ``folder``, skipping hidden files and caches."""
    return {
        path.relative_to(folder).as_posix()
        for path in folder.rglob("*")
        if path.is_file()
        and "__pycache__" not in path.parts
        and not any(part.startswith(".") for part in path.relative_to(folder).parts)
    }


def fake_package(tmp_path: Path, *, checkout: bool) -> Path:
    """An empty ``battlemap`` package dir inside ``tmp_path``, optionally with a pyproject.toml."""
    package = tmp_path / "battlemap"
    package.mkdir()
    if checkout:
        (tmp_path / "pyproject.toml").write_text("[project]\nname = 'battlemap'\n")
    return package


# --- the lookup itself -------------------------------------------------------------------


def test_source_checkout_finds_the_folders_at_the_top_of_the_checkout() -> None:
    assert Path(battlemap.__file__).resolve().parent == ROOT / "battlemap"
    for folder in SHIPPED:
        assert resource_dir(folder) == ROOT / folder
    assert asset_path("demo-encounter.json").is_file()
    assert any(resource_dir("rulesets").glob("*.yaml"))


def test_a_bundle_folder_comes_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "assets").mkdir()
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    assert resource_dir("assets") == tmp_path / "assets"
    # A folder the bundle lacks is still looked for in the usual places.
    assert resource_dir("rulesets") == ROOT / "rulesets"


def test_data_inside_the_package_beats_the_checkout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = fake_package(tmp_path, checkout=True)
    (package / "assets").mkdir()
    (tmp_path / "assets").mkdir()
    monkeypatch.setattr(resources, "_PACKAGE_DIR", package)
    assert resource_dir("assets") == package / "assets"


def test_a_stray_folder_beside_an_installed_package_is_not_ours(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # site-packages/assets belongs to some other distribution, not to a checkout of ours.
    package = fake_package(tmp_path, checkout=False)
    (tmp_path / "assets").mkdir()
    monkeypatch.setattr(resources, "_PACKAGE_DIR", package)
    with pytest.raises(FileNotFoundError) as error:
        resource_dir("assets")
    assert str(package / "assets") in str(error.value)
    assert str(tmp_path / "assets") not in str(error.value).replace(str(package), "")


def test_the_error_names_every_place_tried(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = fake_package(tmp_path, checkout=True)
    monkeypatch.setattr(resources, "_PACKAGE_DIR", package)
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path / "bundle"), raising=False)
    with pytest.raises(FileNotFoundError) as error:
        resource_dir("rulesets")
    message = str(error.value)
    assert message.startswith("rulesets/ not found")
    for place in (tmp_path / "bundle", package, tmp_path):
        assert f"{place / 'rulesets'}" in message


def test_icon_files_are_pngs_smallest_first() -> None:
    icons = app_icon_files()
    sizes = [int(path.stem.split("-")[1]) for path in icons]
    assert sizes == sorted(sizes)
    assert {16, 32, 48, 256} <= set(sizes)
    assert all(path.read_bytes().startswith(PNG_SIGNATURE) for path in icons)


def test_icon_lookup_skips_other_names_and_survives_a_missing_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    (tmp_path / "assets").mkdir()
    assert app_icon_files() == []
    icon_dir = tmp_path / "assets" / "icon"
    icon_dir.mkdir()
    for name in ("battlemap-64.png", "battlemap-8.png", "battlemap-big.png", "other-16.png"):
        (icon_dir / name).write_bytes(PNG_SIGNATURE)
    assert [path.name for path in app_icon_files()] == ["battlemap-8.png", "battlemap-64.png"]


# --- real installs into throwaway venvs --------------------------------------------------


def copy_build_inputs(destination: Path) -> Path:
    destination.mkdir()
    for name in BUILD_INPUTS:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, destination / name, ignore=IGNORED)
        else:
            shutil.copy2(source, destination / name)
    return destination


def pip(*args: str, cwd: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "pip", "--disable-pip-version-check", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def bare_venv(path: Path) -> Path:
    """A venv without pip or any package: the installs below use our pip via ``--python``."""
    venv.EnvBuilder(with_pip=False).create(path)
    return path / "bin" / "python" if sys.platform != "win32" else path / "Scripts" / "python.exe"


def report(python: Path, cwd: Path) -> dict[str, object]:
    result = subprocess.run(
        [str(python), "-c", REPORT], cwd=cwd, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    found: dict[str, object] = json.loads(result.stdout)
    return found


@pytest.mark.slow
def test_a_wheel_installed_into_a_fresh_venv_carries_and_finds_the_data(tmp_path: Path) -> None:
    source = copy_build_inputs(tmp_path / "src")
    pip("wheel", "--no-deps", "--wheel-dir", str(tmp_path / "wheels"), str(source), cwd=tmp_path)
    (wheel,) = (tmp_path / "wheels").glob("battlemap-*.whl")
    shutil.rmtree(source)  # nothing may be read from a checkout after this point
    python = bare_venv(tmp_path / "venv")
    pip("--python", str(python), "install", "--no-deps", "--no-index", str(wheel), cwd=tmp_path)

    found = report(python, cwd=tmp_path)
    installed = Path(str(found["package"])).parent
    assert tmp_path / "venv" in installed.parents
    for folder in SHIPPED:
        assert Path(str(found[folder])) == installed / folder
        assert shipped_files(installed / folder) == shipped_files(ROOT / folder)
    assert found["icons"] == [path.name for path in app_icon_files()]


@pytest.mark.slow
def test_an_editable_install_reads_the_checkout(tmp_path: Path) -> None:
    checkout = copy_build_inputs(tmp_path / "checkout")
    python = bare_venv(tmp_path / "venv")
    pip("--python", str(python), "install", "--no-deps", "-e", str(checkout), cwd=tmp_path)

    found = report(python, cwd=tmp_path)
    assert Path(str(found["package"])).parent == checkout / "battlemap"
    for folder in SHIPPED:
        assert Path(str(found[folder])) == checkout / folder
    assert not (checkout / "battlemap" / "assets").exists()
