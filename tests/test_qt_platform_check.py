"""The check before Qt starts under X11 (``make run`` on a bare machine): the xcb plugin's
system libraries, with the one apt-get line that installs the missing ones. The library
lookup is faked; one test compares the table with the installed PySide6 plugin."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from battlemap import app, qt_platform_check
from battlemap.qt_platform_check import XCB_LIBRARIES, missing_xcb_packages, xcb_problem

X11 = {"DISPLAY": ":0"}


class lacking:
    """A fake library loader that lacks ``sonames`` and records what it was asked."""

    def __init__(self, *sonames: str) -> None:
        self.sonames = sonames
        self.asked: list[str] = []

    def __call__(self, soname: str) -> bool:
        self.asked.append(soname)
        return soname not in self.sonames


def test_the_missing_libraries_give_one_apt_get_line() -> None:
    load = lacking("libxcb-icccm.so.4", "libxcb-keysyms.so.1")
    problem = xcb_problem(X11, load, platform="linux")
    assert problem is not None
    commands = [line.strip() for line in problem.splitlines() if "apt-get" in line]
    assert commands == ["sudo apt-get install libxcb-icccm4 libxcb-keysyms1"]
    assert sorted(load.asked) == sorted(XCB_LIBRARIES)  # every library was looked up


def test_nothing_missing_says_nothing() -> None:
    assert xcb_problem(X11, lacking(), platform="linux") is None
    assert missing_xcb_packages(lacking()) == []


@pytest.mark.parametrize(
    ("environ", "platform"),
    [
        ({"DISPLAY": ":0", "QT_QPA_PLATFORM": "offscreen"}, "linux"),  # tests, --smoke
        ({"DISPLAY": ":0", "QT_QPA_PLATFORM": "xcb"}, "linux"),  # "try anyway"
        ({}, "linux"),  # no X display: Qt does not use xcb
        ({"DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"}, "linux"),  # Wayland first
        ({"DISPLAY": ":0"}, "win32"),
        ({"DISPLAY": ":0"}, "darwin"),
    ],
)
def test_no_check_where_qt_will_not_use_xcb(environ: dict[str, str], platform: str) -> None:
    load = lacking(*XCB_LIBRARIES)
    assert xcb_problem(environ, load, platform=platform) is None
    assert load.asked == []  # nothing was even looked up


def test_the_app_stops_with_the_line_instead_of_a_qt_abort(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr(sys, "platform", "linux")  # the sys that qt_platform_check reads
    monkeypatch.setattr(qt_platform_check, "can_load", lacking("libxcb-cursor.so.0"))
    assert app.main([]) == app.EXIT_MISSING_LIBRARIES
    err = capsys.readouterr().err
    assert "sudo apt-get install libxcb-cursor0\n" in err


def _plugin_files() -> list[Path]:
    import importlib.util

    spec = importlib.util.find_spec("PySide6")
    if spec is None or spec.origin is None:
        return []
    qt = Path(spec.origin).parent / "Qt"
    files = [qt / "plugins" / "platforms" / "libqxcb.so", qt / "lib" / "libQt6XcbQpa.so.6"]
    return [f for f in files if f.exists()]


def test_the_table_covers_the_installed_xcb_plugins_x11_libraries() -> None:
    """Every xcb, X11 and xkbcommon library ``ldd`` lists for the plugin is in the table."""
    files = _plugin_files()
    if not files or shutil.which("ldd") is None:
        pytest.skip("no PySide6 xcb plugin or no ldd here")
    needed: set[str] = set()
    for file in files:
        listing = subprocess.run(["ldd", str(file)], capture_output=True, text=True, check=True)
        for line in listing.stdout.splitlines():
            soname = line.strip().split(" ", 1)[0]
            if soname.startswith(("libxcb", "libX11", "libxkbcommon")):
                needed.add(soname)
    assert len(needed) >= 15
    assert needed <= set(XCB_LIBRARIES), needed - set(XCB_LIBRARIES)
