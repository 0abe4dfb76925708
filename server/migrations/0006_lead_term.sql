-- The lead's term: raised by each server that takes the lead from another (PostgreSQL's
-- leader lock), so a server that lost the lead and took it back can tell whether another
-- led meanwhile and re-ran what it had running. One row; a store one process uses (SQLite)
-- never reads it.
CREATE TABLE lead_term (id INTEGER PRIMARY KEY, term BIGINT NOT NULL);
INSERT INTO lead_term (id, term) VALUES (1, 0);
