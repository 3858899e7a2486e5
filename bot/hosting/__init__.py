"""Hosting Parley (issue 34, docs/hosting.md): `parley doctor`'s checks (doctor.py, with the
channel permissions worked out in permissions.py), the metrics (metrics.py) and the
`/healthz` + `/metrics` endpoints (server.py) of `parley run --metrics`, and JSON logs
(logs.py). The bot's own code only reports through `bot.service.observe`."""

# Issue 33: what this package's modules may import besides each other (tests/test_rooms.py).
MAY_IMPORT = ("bot.service",)
