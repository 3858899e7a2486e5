-- End-game votes (bot.core.votes): each game's VoteBook, ballots and authors included. This
-- is private: only public records (no voter, no author) ever leave the service.
CREATE TABLE votebooks (
    game_id INTEGER PRIMARY KEY REFERENCES games(id),
    state_json TEXT NOT NULL,
    updated_at REAL NOT NULL
);
