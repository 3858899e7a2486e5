"""Parley: a Discord bot that runs live games of the board game Diplomacy."""

__version__ = "0.1.0"
