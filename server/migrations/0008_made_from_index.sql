-- A task's page lists the tasks made from it (`GET /tasks?made_from=ID`): found by the
-- index, newest first, not by reading every task.
CREATE INDEX tasks_made_from ON tasks (made_from, created_at);
