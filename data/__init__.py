"""Parley's data files (maps, rules, clocks, catalogues, fonts): edited here, shipped in the
wheel as the package `parley_data` (this file makes it a regular package for importlib)."""
