"""Collect QtNetwork like PyInstaller's own hook, without its plugins.

Battlemap uses QtNetwork for one thing, listing the machine's network interfaces so the DM
can pick the address to share the players' view on (``battlemap/ui/share/addresses.py``).
The TLS backends (OpenSSL, certificate-only) and the network-information plugins are for
connections and reachability the app never makes or asks about.
"""

from pathlib import Path

from PyInstaller.utils.hooks.qt import add_qt6_dependencies

DROPPED_PLUGIN_TYPES = {"tls", "networkinformation"}


def _wanted(binary: tuple[str, str]) -> bool:
    parts = Path(binary[1]).parts
    return not ("plugins" in parts and DROPPED_PLUGIN_TYPES & set(parts))


hiddenimports, binaries, datas = add_qt6_dependencies(__file__)
binaries = [binary for binary in binaries if _wanted(binary)]
