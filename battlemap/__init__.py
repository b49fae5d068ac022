"""Battlemap: a desktop battle map for tabletop role-playing games played around a real table."""

__version__ = "0.1.0"
APP_NAME = "Battlemap"
