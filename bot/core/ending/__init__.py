"""How a game ends: `endgame` (solo, year limit, stalemate, draws by rule set) and `votes`
(end-game votes as pure state: proposals, secret ballots, results). Read the board, the rules
and the scoring systems."""

# Issue 33: what this package's modules may import besides each other (tests/test_rooms.py).
MAY_IMPORT = (
    "bot.core.catalogue",
    "bot.core.map",
    "bot.core.messages",
    "bot.core.model",
    "bot.core.rules",
    "bot.core.scoring",
)
