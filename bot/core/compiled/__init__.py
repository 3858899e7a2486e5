"""What the mypyc-compiled build needs at run time (issue 18): `native.mypyc_attr` for the
classes mypyc compiles (a no-op when interpreted), `twin` the fast constructors of the frozen
dataclasses on the batch path. Imports nothing of Parley."""

# Issue 33: what this package's modules may import besides each other (tests/test_rooms.py).
MAY_IMPORT: tuple[str, ...] = ()
