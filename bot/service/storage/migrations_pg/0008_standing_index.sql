-- What stands in a phase (each power's newest accepted submission) by one index seek per
-- power, however many submissions the phase holds, refused ones included (issue 18).
CREATE INDEX submissions_standing ON submissions(phase_id, power, id) WHERE accepted = 1;
