-- The task a task was made from by a resubmit or a clone, for its page to link back to:
-- its id, and how ('resubmit' or 'clone'). NULL for a task made from a spec of its own,
-- and for tasks stored before it was kept.
ALTER TABLE tasks ADD COLUMN made_from TEXT;
ALTER TABLE tasks ADD COLUMN made_how TEXT;
