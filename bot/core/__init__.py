"""The pure game core: map, positions, orders, parser, adjudicator, rules, scoring.

Nothing in this package imports discord, aiosqlite or reads a clock.
"""
